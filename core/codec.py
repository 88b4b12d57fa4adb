"""A game state's sealed encoding, derived from the fields its NamedTuple declares.

A State declares each field with a ``typing.Annotated`` marker of this module (``Mask``, ``Int``,
``Index``, ``Choice``, ``Seq``, ``Text``, ``Blob``, ``OneOf``, ``Slot``) or a plain annotation:
``int`` is a signed 32-bit int, ``bool`` a bool, ``None`` always None, ``X | None`` X or None,
``bytes`` named ``seed`` or ``entropy`` stays within rng's limits, a NamedTuple is a nested
record (Match, Trick, Window, a game's carry), a frozen dataclass is the game's Options (each
value within its ``option()`` limits: allowed values, minimum, maximum). Only the fields are
stored: what a State derives (a ``finished`` or ``num_seats`` property) is not. ``StateCodec``
compiles the declarations once into ``pack``, ``unpack``, ``max_size`` (the exact worst case:
``Game.state_bytes`` is computed, never sampled) and ``conforms`` (a state within its
declarations packs within ``max_size``).

Layout (marshal format 2, integers little-endian)::

    payload = version u8 | marshal.dumps(values, 2)         what a token seals, then zero-padded
    values  = ( options, seed, entropy, match, hands, ... ) the State's fields in declared order
                 |                       |
                 |                       +-- a record: ( round, totals, carry ), its fields in order
                 +-- Options: ( value, value, ... ), its values in field order

    value           marshal writes                          bytes
    int (32-bit)    'i' i32                                 5
    int (larger)    'l' n i32 | n 15-bit digits u16         5 + 2n    (a 54-card mask: 13)
    bool, None      'T' or 'F', 'N'                         1
    bytes           's' len i32 | the bytes                 5 + len
    str             'u' len i32 | utf-8                     5 + len
    tuple, record   '(' len i32 | its items                 5 + the items'

Format 2 writes no back-references (3 and later flag objects by their reference count), so equal
states give equal bytes. The release before this codec wrote ``marshal.dumps(values, 2)`` alone,
"version 1", which starts with ``(`` (0x28), never a version byte. ``unpack`` reads it, and any
earlier version, through that version's ``Layout`` (the old field names) mapped by name onto
the current State: an old field the State lacks is checked against the State's attribute of
that name (a derived ``num_seats``) or dropped; a field the old layout lacks takes its default;
an old tuple where the State now has a record (``Match.carry``) fills the record by position (an
empty one is None where None is allowed). A state read so is checked against the declarations.
"""
from __future__ import annotations

import dataclasses
import functools
import marshal
import operator
import types
import typing
from typing import Annotated, Any, Callable, Iterable, Mapping, Union

from . import rng
from .errors import InvalidAction, Reason

RELEASE_FORMAT = 1  # the version of a payload with no version byte: marshal alone, as released
INT32_MIN, INT32_MAX = -2**31, 2**31 - 1
INT64_MIN, INT64_MAX = -2**63, 2**63 - 1
_TUPLE_TYPE = ord("(")  # marshal's tuple code: the first byte of every release-format payload
_MARSHAL_VERSION = 2
_dumps, _loads = marshal.dumps, marshal.loads
_SCALARS = frozenset((int, bool, str, bytes, type(None)))


def int_size(value: int) -> int:
    """The bytes marshal format 2 writes for ``value``."""
    if INT32_MIN <= value <= INT32_MAX:
        return 5
    return 5 + 2 * -(-abs(value).bit_length() // 15)


def entropy_bound(seats: int) -> int:
    """The longest round entropy ``rng.entropy`` makes: the owner's longest and every seat's."""
    return len(rng.entropy(bytes(rng.MAX_ENTROPY_BYTES), [bytes(rng.MAX_SEAT_ENTROPY_BYTES)] * seats))


def game_context(game) -> dict[str, int]:
    """The context names a game's declarations use: ``seats`` (its most seats), ``cards`` (its
    card space's id count) and ``ranks`` (its rank indexes)."""
    notation = game.notation
    return {"seats": game.max_seats, "cards": notation.id_count, "ranks": notation.rank_count}


# --- the declarations -------------------------------------------------------------------------

class Marker:
    """A field declaration ``Annotated`` carries; ``marker | None`` (or ``| other``) allows either."""

    def __or__(self, other):
        return OneOf(self, other)

    def __ror__(self, other):
        return OneOf(other, self)

    def __repr__(self):
        args = ", ".join(repr(v) for v in vars(self).values())
        return f"{type(self).__name__}({args})"

    def node(self, compiler: _Compiler, path: str) -> _Node:
        raise NotImplementedError


class Int(Marker):
    """An int from ``lo`` to ``hi`` (default: signed 32-bit, 5 bytes)."""

    def __init__(self, lo: int = INT32_MIN, hi: int = INT32_MAX):
        if not (type(lo) is int and type(hi) is int and lo <= hi):
            raise ValueError(f"Int({lo!r}, {hi!r}): two ints, lo <= hi")
        self.lo, self.hi = lo, hi

    def node(self, compiler, path):
        return _IntNode(self.lo, self.hi)


Small = Int()  # an int marshal writes in 5 bytes
Int64 = Int(INT64_MIN, INT64_MAX)  # points and totals that may pass 32 bits (15 bytes)


class Index(Marker):
    """An index into ``count`` things (``count`` an int or a context name: "seats", "cards"),
    or a sentinel as low as ``lo`` (default -1: none)."""

    def __init__(self, count: int | str, lo: int = -1):
        self.count, self.lo = count, lo

    def node(self, compiler, path):
        return _IntNode(self.lo, max(self.lo, compiler.count(self.count, path) - 1))


class Mask(Marker):
    """A bitmask over ``space`` (a context name or a bit count; default the game's card ids)."""

    def __init__(self, space: int | str = "cards"):
        self.space = space

    def node(self, compiler, path):
        return _IntNode(0, (1 << compiler.count(self.space, path)) - 1, f"a mask of {self.space}")


class Choice(Marker):
    """One of the ``values`` given (scalars: an enum option's names, a few ints)."""

    def __init__(self, *values):
        self.values = values

    def node(self, compiler, path):
        odd = [v for v in self.values if type(v) not in _SCALARS]
        if odd or not self.values:
            compiler.error(path, f"Choice value {odd[0]!r} is not a scalar" if odd else "Choice() needs values")
            return _IntNode(0, 0)
        return _ChoiceNode(self.values)


class Text(Marker):
    """A str of at most ``max_len`` utf-8 bytes (an int or a context name)."""

    def __init__(self, max_len: int | str):
        self.max_len = max_len

    def node(self, compiler, path):
        return _BytesNode(str, compiler.count(self.max_len, path))


class Blob(Marker):
    """bytes, at most ``max_len`` of them (an int or a context name: "seed", "entropy", "cards")."""

    def __init__(self, max_len: int | str):
        self.max_len = max_len

    def node(self, compiler, path):
        return _BytesNode(bytes, compiler.count(self.max_len, path))


class Seq(Marker):
    """A tuple of at most ``max_len`` items (an int or a context name: "seats", "cards"), each
    declared by ``item``; ``total`` bounds the summed lengths of the items (tuples, bytes or str),
    e.g. every seat's river together holds at most the game's cards."""

    def __init__(self, item, max_len: int | str, total: int | str | None = None):
        self.item, self.max_len, self.total = item, max_len, total

    def node(self, compiler, path):
        item = compiler.field(self.item, path + "[]")
        total = None if self.total is None else compiler.count(self.total, path)
        if total is not None and not (isinstance(item, _BytesNode)
                                      or isinstance(item, _SeqNode) and item.total is None):
            compiler.error(path, "a total needs items with a length (Seq without a total, Blob, Text)")
            total = None
        return _SeqNode(item, compiler.count(self.max_len, path), total)


class OneOf(Marker):
    """Any one of the declarations given (``X | None``: X or None). At most one of them may be a
    record (or hold records), and then no other may be a tuple: unpack tells them apart by type."""

    def __init__(self, *alternatives):
        self.alternatives = alternatives

    def node(self, compiler, path):
        return compiler.one_of(self.alternatives, path)


_UNSET = object()


class Slot(Marker):
    """A field of a shared record whose declaration each game gives (``Match.carry``,
    ``Window.answers``) in ``StateCodec(fields={path: ...})``; without one, ``default`` (for
    instance ``None``: the slot always holds None), or a declaration error."""

    def __init__(self, default=_UNSET):
        self.default = default

    def node(self, compiler, path):
        if self.default is _UNSET:
            compiler.error(path, "a Slot: declare it with StateCodec(fields={%r: ...})" % path)
            return _IntNode(0, 0)
        return compiler.node(self.default, path)


class Layout:
    """How an earlier version stored a record: its field names in stored order, the layouts of
    nested records that changed (by field name; one without a layout is read by position), and
    ``upgrade``, which may rewrite the old values, by name, before they are mapped."""

    def __init__(self, fields: str | Iterable[str], nested: Mapping[str, Layout | str | Iterable[str]] | None = None,
                 upgrade: Callable[[dict[str, Any]], dict[str, Any]] | None = None):
        self.fields = tuple(fields.split() if isinstance(fields, str) else fields)
        self.nested = {k: v if isinstance(v, Layout) else Layout(v) for k, v in (nested or {}).items()}
        self.upgrade = upgrade

    def __repr__(self):
        return f"Layout({' '.join(self.fields)!r}, nested={self.nested!r})"


# --- compiled declarations (one node per field) ------------------------------------------------

def _show(value) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


class _Node:
    size = 0
    to_plain: Callable | None = None  # value -> what marshal writes (None: the value itself)
    from_plain: Callable | None = None  # what marshal read -> value (None: as read)
    shaped = False  # written as a tuple

    def check(self, value, path: str, out: list[str]) -> None:
        raise NotImplementedError

    def largest(self):
        raise NotImplementedError

    def upgrade(self, old, layout: Layout | None):
        return old


class _IntNode(_Node):
    def __init__(self, lo: int, hi: int, label: str = ""):
        self.lo, self.hi, self.label = lo, hi, label or f"{lo}..{hi}"
        self.size = max(int_size(lo), int_size(hi))

    def check(self, value, path, out):
        if type(value) is not int:
            out.append(f"{path}: {_show(value)} is not an int")
        elif not self.lo <= value <= self.hi:
            out.append(f"{path}: {_show(value)} is not in {self.label}")

    def largest(self):
        return self.lo if int_size(self.lo) > int_size(self.hi) else self.hi


class _ConstNode(_Node):
    size = 1

    def __init__(self, value):
        self.value = value

    def check(self, value, path, out):
        if value is not self.value:
            out.append(f"{path}: {_show(value)} is not {self.value!r}")

    def largest(self):
        return self.value

    def upgrade(self, old, layout):
        return None if old == () and self.value is None else old  # an empty old record: None


class _BoolNode(_Node):
    size = 1

    def check(self, value, path, out):
        if type(value) is not bool:
            out.append(f"{path}: {_show(value)} is not a bool")

    def largest(self):
        return True


class _ChoiceNode(_Node):
    def __init__(self, values: tuple):
        self.values = values
        self.size = max(len(_dumps(v, _MARSHAL_VERSION)) for v in values)

    def check(self, value, path, out):
        if not any(type(value) is type(v) and value == v for v in self.values):
            out.append(f"{path}: {_show(value)} is none of {_show(self.values)}")

    def largest(self):
        return max(self.values, key=lambda v: len(_dumps(v, _MARSHAL_VERSION)))


class _BytesNode(_Node):
    def __init__(self, kind: type, max_len: int):
        self.kind, self.max_len = kind, max_len
        self.size = 5 + max_len

    def length(self, value) -> int:
        return len(value) if self.kind is bytes else len(value.encode("utf-8", "surrogatepass"))

    def check(self, value, path, out):
        if type(value) is not self.kind:
            out.append(f"{path}: {_show(value)} is not {self.kind.__name__}")
        elif self.length(value) > self.max_len:
            out.append(f"{path}: {self.length(value)} bytes, over {self.max_len}")

    def largest(self):
        return bytes(self.max_len) if self.kind is bytes else "中" * (self.max_len // 3) + "x" * (self.max_len % 3)

    def filled(self, length: int):
        return bytes(length) if self.kind is bytes else "x" * length


class _SeqNode(_Node):
    shaped = True

    def __init__(self, item: _Node, max_len: int, total: int | None):
        self.item, self.max_len, self.total = item, max_len, total
        if total is None:
            self.size = 5 + max_len * item.size
        else:  # every item present (each adds its 5-byte head), the total spread over them
            unit = item.item.size if isinstance(item, _SeqNode) else 1
            self.size = 5 + max_len * 5 + min(total, max_len * item.max_len) * unit
        if item.to_plain is not None:
            to_plain, from_plain = item.to_plain, item.from_plain
            self.to_plain = lambda value: tuple([to_plain(v) for v in value])

            def build(plain):
                if type(plain) is not tuple:
                    raise ValueError("not a tuple")
                return tuple([from_plain(v) for v in plain])

            self.from_plain = build

    def check(self, value, path, out):
        if type(value) is not tuple:
            out.append(f"{path}: {_show(value)} is not a tuple")
            return
        if len(value) > self.max_len:
            out.append(f"{path}: {len(value)} items, over {self.max_len}")
        for i, v in enumerate(value):
            self.item.check(v, f"{path}[{i}]", out)
        if self.total is not None:
            if isinstance(self.item, _SeqNode):
                lengths = sum(len(v) for v in value if type(v) is tuple)
            else:
                lengths = sum(self.item.length(v) for v in value if type(v) is self.item.kind)
            if lengths > self.total:
                out.append(f"{path}: {lengths} in all, over {self.total}")

    def largest(self):
        if self.total is None:
            return tuple(self.item.largest() for _ in range(self.max_len))
        left, items = self.total, []
        for _ in range(self.max_len):
            n = min(left, self.item.max_len)
            left -= n
            if isinstance(self.item, _SeqNode):
                items.append(tuple(self.item.item.largest() for _ in range(n)))
            else:
                items.append(self.item.filled(n))
        return tuple(items)

    def upgrade(self, old, layout):
        if type(old) is not tuple:
            raise ValueError("not a tuple")
        return tuple(self.item.upgrade(v, layout) for v in old)


class _FieldsNode(_Node):  # fixed tuples and records: items by position, converted where they need it
    shaped = True

    def __init__(self, nodes: tuple[_Node, ...], make: Callable | None):
        self.nodes = nodes
        self.size = 5 + sum(n.size for n in nodes)
        to_plain = tuple((i, n.to_plain) for i, n in enumerate(nodes) if n.to_plain is not None)
        from_plain = tuple((i, n.from_plain) for i, n in enumerate(nodes) if n.from_plain is not None)
        if to_plain or make is not None:  # a record is never written as itself: marshal takes plain tuples
            self.to_plain = _fields_to_plain(to_plain)
        if from_plain or make is not None:
            self.from_plain = _fields_from_plain(from_plain, make or tuple)


def _fields_to_plain(convs: tuple) -> Callable:
    if not convs:
        return tuple

    def to_plain(value):
        values = list(value)
        for i, conv in convs:
            values[i] = conv(values[i])
        return tuple(values)

    return to_plain


def _fields_from_plain(builds: tuple, make: Callable) -> Callable:
    if not builds:
        def from_plain(plain):
            if type(plain) is not tuple:
                raise ValueError("not a tuple")
            return make(plain)
        return from_plain

    def from_plain(plain):
        if type(plain) is not tuple:
            raise ValueError("not a tuple")
        values = list(plain)
        for i, build in builds:
            values[i] = build(values[i])
        return make(values)

    return from_plain


class _TupleNode(_FieldsNode):
    def __init__(self, nodes):
        super().__init__(nodes, None)

    def check(self, value, path, out):
        if type(value) is not tuple or len(value) != len(self.nodes):
            out.append(f"{path}: {_show(value)} is not a tuple of {len(self.nodes)}")
            return
        for i, node in enumerate(self.nodes):
            node.check(value[i], f"{path}[{i}]", out)

    def largest(self):
        return tuple(n.largest() for n in self.nodes)

    def upgrade(self, old, layout):
        if type(old) is not tuple or len(old) != len(self.nodes):
            raise ValueError(f"not a tuple of {len(self.nodes)}")
        return tuple(n.upgrade(v, None) for n, v in zip(self.nodes, old))


class _RecordNode(_FieldsNode):
    def __init__(self, cls: type, nodes):
        super().__init__(nodes, cls._make)
        self.cls, self.names = cls, tuple(cls._fields)
        self.defaults = dict(cls._field_defaults)

    def check(self, value, path, out):
        if type(value) is not self.cls:
            out.append(f"{path or 'state'}: {_show(value)} is not a {self.cls.__name__}")
            return
        for name, node, v in zip(self.names, self.nodes, value):
            node.check(v, f"{path}.{name}" if path else name, out)

    def largest(self):
        return self.cls._make(n.largest() for n in self.nodes)

    def upgrade(self, old, layout):
        named, nested = _old_values(old, self.cls, self.names, layout)
        values = []
        for name, node in zip(self.names, self.nodes):
            if name in named:
                values.append(node.upgrade(named[name], nested.get(name)))
            elif name in self.defaults:
                values.append(self.defaults[name])
            else:
                raise ValueError(f"{self.cls.__name__}.{name}: not stored and no default")
        record = self.cls._make(values)
        _check_dropped(record, named, self.names)
        return record


def _old_values(old, cls: type, names: tuple[str, ...], layout: Layout | None) -> tuple[dict, Mapping]:
    if type(old) is not tuple:
        raise ValueError(f"not a {cls.__name__}")
    if layout is None:  # by position, the missing last fields to take their defaults
        if len(old) > len(names):
            raise ValueError(f"{len(old)} values for the {len(names)} fields of {cls.__name__}")
        return dict(zip(names, old)), {}
    if len(old) != len(layout.fields):
        raise ValueError(f"{len(old)} values for a layout of {len(layout.fields)}")
    named = dict(zip(layout.fields, old))
    return (layout.upgrade(named) if layout.upgrade else named), layout.nested


def _check_dropped(record, named: dict, names: tuple) -> None:
    for name in named.keys() - set(names):
        if hasattr(type(record), name) and getattr(record, name) != named[name]:
            raise ValueError(f"{type(record).__name__}.{name} is {getattr(record, name)!r}, "
                             f"stored {named[name]!r}")


class _OptionsNode(_Node):
    shaped = True

    def __init__(self, cls: type, names: tuple[str, ...], nodes: tuple[_Node, ...]):
        self.cls, self.names, self.nodes = cls, names, nodes
        self.size = 5 + sum(n.size for n in nodes)
        if len(names) > 1:
            self.to_plain = operator.attrgetter(*names)
        else:
            getters = tuple(operator.attrgetter(n) for n in names)
            self.to_plain = lambda options: tuple(g(options) for g in getters)
        # a server sees few option sets: one Options object per set, built once
        make, count = functools.lru_cache(maxsize=256)(lambda values: cls(*values)), len(names)

        def from_plain(plain):
            if type(plain) is not tuple or len(plain) != count:
                raise ValueError(f"not the {count} values of {cls.__name__}")
            return make(plain)

        self.from_plain = from_plain

    def check(self, value, path, out):
        if type(value) is not self.cls:
            out.append(f"{path}: {_show(value)} is not a {self.cls.__name__}")
            return
        for name, node in zip(self.names, self.nodes):
            node.check(getattr(value, name), f"{path}.{name}", out)

    def largest(self):
        return self.cls(*(n.largest() for n in self.nodes))

    def upgrade(self, old, layout):
        named, _ = _old_values(old, self.cls, self.names, layout)
        options = self.cls(**{k: v for k, v in named.items() if k in self.names})
        _check_dropped(options, named, self.names)
        return options


class _OneOfNode(_Node):
    def __init__(self, alternatives: tuple[_Node, ...]):
        self.alternatives = alternatives
        self.size = max(a.size for a in alternatives)
        self.allows_none = any(isinstance(a, _ConstNode) and a.value is None for a in alternatives)
        shaped = [a for a in alternatives if a.shaped]
        self.shaped_alternative = shaped[0] if len(shaped) == 1 else None
        converting = [a for a in alternatives if a.to_plain is not None]
        if converting:  # then the only alternative written as a tuple: the others are scalars
            to_plain, from_plain = converting[0].to_plain, converting[0].from_plain
            self.to_plain = lambda value: value if type(value) in _SCALARS else to_plain(value)
            self.from_plain = lambda plain: from_plain(plain) if type(plain) is tuple else plain

    def check(self, value, path, out):
        best, best_key = [], None
        for alternative in self.alternatives:
            problems: list[str] = []
            alternative.check(value, path, problems)
            if not problems:
                return
            key = (len(problems), -len(problems[0].partition(": ")[0]))  # fewest, then deepest
            if best_key is None or key < best_key:
                best, best_key = problems, key
        out.extend(best)

    def largest(self):
        return max(self.alternatives, key=lambda a: a.size).largest()

    def upgrade(self, old, layout):
        shaped = self.shaped_alternative
        if type(old) is not tuple or shaped is None:
            return old
        if not old and self.allows_none and isinstance(shaped, (_RecordNode, _OptionsNode)):
            return None  # an old empty tuple where a record may now be None (Match.carry)
        return shaped.upgrade(old, layout)


# --- the compiler ---------------------------------------------------------------------------------

class _Compiler:
    def __init__(self, context: Mapping[str, int], overrides: Mapping[str, Any], localns):
        self.context, self.overrides, self.localns = context, overrides, localns
        self.errors: list[str] = []
        self.used: set[str] = set()

    def error(self, path: str, message: str) -> None:
        self.errors.append(f"{path or 'state'}: {message}")

    def count(self, value, path: str) -> int:
        if type(value) is int and value >= 0:
            return value
        if isinstance(value, str) and value in self.context:
            return self.context[value]
        self.error(path, f"{value!r} is no count (an int >= 0 or a context name: {', '.join(sorted(self.context))})")
        return 0

    def field(self, declared, path: str, name: str = "") -> _Node:
        if path in self.overrides:
            self.used.add(path)
            declared = self.overrides[path]
        return self.node(declared, path, name)

    def node(self, declared, path: str, name: str = "") -> _Node:
        if isinstance(declared, type) and issubclass(declared, Marker):
            declared = declared()
        if isinstance(declared, Marker):
            return declared.node(self, path)
        origin, args = typing.get_origin(declared), typing.get_args(declared)
        if origin is Annotated:
            markers = [m for m in args[1:] if isinstance(m, Marker) or (isinstance(m, type) and issubclass(m, Marker))]
            if len(markers) > 1:
                self.error(path, f"more than one declaration: {markers}")
            return self.node(markers[0] if markers else args[0], path, name)
        if origin in (Union, types.UnionType):
            return self.one_of(args, path)
        if declared is None or declared is type(None):
            return _ConstNode(None)
        if declared is bool:
            return _BoolNode()
        if declared is int:
            return _IntNode(INT32_MIN, INT32_MAX)
        if declared is bytes and name in ("seed", "entropy"):
            return _BytesNode(bytes, self.count(name, path))
        if origin is tuple:
            if len(args) == 2 and args[1] is Ellipsis:
                self.error(path, f"{_show(declared)} needs a longest length: Annotated[..., Seq(item, max_len)]")
                return _IntNode(0, 0)
            items = () if args == ((),) else args
            return _TupleNode(tuple(self.field(a, f"{path}[{i}]") for i, a in enumerate(items)))
        if isinstance(declared, type) and issubclass(declared, tuple) and hasattr(declared, "_fields"):
            return self.record(declared, path)
        if isinstance(declared, type) and dataclasses.is_dataclass(declared):
            return self.options(declared, path)
        hint = {bytes: "Blob(max_len)", str: "Text(max_len)"}.get(declared, "a marker of referee.core.codec")
        self.error(path, f"{_show(declared)} cannot be encoded as declared: give it {hint}")
        return _IntNode(0, 0)

    def one_of(self, alternatives, path: str) -> _Node:
        nodes: list[_Node] = []
        for alternative in alternatives:
            node = self.node(alternative, path)
            nodes += node.alternatives if isinstance(node, _OneOfNode) else [node]
        shaped = [n for n in nodes if n.shaped]
        if any(n.to_plain is not None for n in nodes) and len(shaped) > 1:
            self.error(path, "a record and another tuple in one field: unpack could not tell them apart")
        return _OneOfNode(tuple(nodes))

    def hints(self, cls: type, path: str) -> dict:
        try:
            return typing.get_type_hints(cls, localns=self.localns, include_extras=True)
        except Exception as error:  # an annotation that does not evaluate
            self.error(path, f"the annotations of {cls.__name__} do not resolve: {error}")
            return {}

    def record(self, cls: type, path: str) -> _RecordNode:
        hints = self.hints(cls, path)
        nodes = tuple(self.field(hints.get(name, Any), f"{path}.{name}" if path else name, name)
                      for name in cls._fields)
        return _RecordNode(cls, nodes)

    def options(self, cls: type, path: str) -> _Node:
        if not cls.__dataclass_params__.frozen:
            self.error(path, f"{cls.__name__} is not a frozen dataclass")
        hints = self.hints(cls, path)
        names, nodes = [], []
        for f in dataclasses.fields(cls):
            field_path = f"{path}.{f.name}"
            declared = hints.get(f.name, Any)
            if field_path in self.overrides or typing.get_origin(declared) is Annotated:
                node = self.field(declared, field_path, f.name)
            else:
                node = self.option(declared, f.metadata, field_path)
            if node.to_plain is not None:
                self.error(field_path, "an option is a scalar")
            names.append(f.name)
            nodes.append(node)
        return _OptionsNode(cls, tuple(names), tuple(nodes))

    def option(self, declared, metadata: Mapping, path: str) -> _Node:
        allowed = tuple(metadata.get("allowed") or ())
        if allowed:
            return Choice(*allowed).node(self, path)
        if declared is int:
            lo, hi = metadata.get("minimum"), metadata.get("maximum")
            return _IntNode(INT32_MIN if lo is None else lo, INT32_MAX if hi is None else hi)
        return self.node(declared, path)


# --- the codec ------------------------------------------------------------------------------------

class StateCodec:
    """Pack, unpack, bound and check the states of one NamedTuple type (see the module docstring).

    ``version`` (2..255 but 0x28) is the first byte of every payload; ``context`` names the counts
    the declarations use (``game_context(game)``: seats, cards, ranks; ``seed`` and ``entropy`` come
    from rng); ``fields`` declares by path what the classes leave open (``{"match.carry": Carry |
    None}``); ``legacy`` maps each earlier version to its ``Layout`` (``RELEASE_FORMAT``: 1);
    ``localns`` resolves the annotations of classes defined inside a function.

    Raises:
        TypeError: a field that cannot be encoded as declared (every one is named).
        ValueError: a bad version or legacy layout.
    """

    def __init__(self, state_type: type, *, version: int, context: Mapping[str, int] | None = None,
                 fields: Mapping[str, Any] | None = None,
                 legacy: Mapping[int, Layout | str | Iterable[str]] | None = None, localns=None):
        if type(version) is not int or not 2 <= version <= 255 or version == _TUPLE_TYPE:
            raise ValueError(f"version {version!r}: 2..255, not 0x28 (how a release-format payload starts)")
        if not (isinstance(state_type, type) and issubclass(state_type, tuple) and hasattr(state_type, "_fields")):
            raise TypeError(f"{state_type!r} is not a NamedTuple")
        context = dict(context or {})
        context.setdefault("seed", rng.MAX_SEED_BYTES)
        if "seats" in context:
            context.setdefault("entropy", entropy_bound(context["seats"]))
        overrides = dict(fields or {})
        compiler = _Compiler(context, overrides, localns)
        root = compiler.record(state_type, "")
        unused = set(overrides) - compiler.used
        if unused:
            compiler.errors.append(f"fields declared for no field: {', '.join(sorted(unused))}")
        if compiler.errors:
            raise TypeError(f"{state_type.__name__}: " + "; ".join(compiler.errors))
        self.state_type, self.version, self.context = state_type, version, context
        self._root = root
        self._head = bytes((version,))
        self._tuple_head = bytes((_TUPLE_TYPE,)) + len(state_type._fields).to_bytes(4, "little")
        self._to_plain = root.to_plain
        self._from_plain = root.from_plain
        self._max_size = 1 + root.size
        self._legacy: dict[int, Layout] = {}
        for old, layout in (legacy or {}).items():
            known = old == RELEASE_FORMAT or type(old) is int and 2 <= old <= 255
            if not known or old in (version, _TUPLE_TYPE):
                raise ValueError(f"legacy version {old!r}: 1 (the release format) or 2..255 but {version} and 0x28")
            layout = layout if isinstance(layout, Layout) else Layout(layout)
            problems: list[str] = []
            _check_layout(root, layout, "", problems)
            if problems:
                raise ValueError(f"legacy version {old}: " + "; ".join(problems))
            self._legacy[old] = layout

    def pack(self, state) -> bytes:
        """The payload of ``state``: the version byte, then marshal format 2 of its values.

        Raises:
            ValueError: a value marshal cannot write (``conforms`` names it).
        """
        return self._head + _dumps(self._to_plain(state), _MARSHAL_VERSION)

    def unpack(self, data: bytes, *, check: bool = False):
        """The state of a payload of this version or of a legacy one (legacy states, and all
        with ``check``, are checked against the declarations).

        Raises:
            InvalidAction: bytes that are no state (STATE_TOKEN_INVALID).
        """
        try:
            if data[0] == self.version:
                if len(data) > self._max_size or data[1:6] != self._tuple_head:
                    raise ValueError("not a packed state")  # (marshal would make the tuple first)
                state = self._from_plain(_loads(data[1:]))
            else:
                state, check = self._upgrade(data), True
        except Exception as exc:  # any decoding failure is the caller's bad token
            raise InvalidAction("state does not decode", Reason.STATE_TOKEN_INVALID) from exc
        if check:
            problems = self.conforms(state)
            if problems:
                raise InvalidAction(f"state does not decode: {problems[0]}", Reason.STATE_TOKEN_INVALID)
        return state

    def _upgrade(self, data: bytes):
        head = data[0]
        if head == _TUPLE_TYPE and RELEASE_FORMAT in self._legacy:
            version, payload = RELEASE_FORMAT, data
        elif head in self._legacy and head != RELEASE_FORMAT:
            version, payload = head, data[1:]
        else:
            raise ValueError(f"version {head} is neither {self.version} nor a legacy one")
        layout = self._legacy[version]
        if payload[:5] != bytes((_TUPLE_TYPE,)) + len(layout.fields).to_bytes(4, "little"):
            raise ValueError(f"not a state of version {version}")
        return self._root.upgrade(_loads(payload), layout)

    def max_size(self) -> int:
        """The longest payload any state within the declarations packs to, in bytes (exact)."""
        return self._max_size

    def sizes(self) -> dict[str, int]:
        """Each field's longest encoding in bytes (with the version byte and the tuple's 5-byte
        head, they add up to ``max_size``)."""
        return dict(zip(self._root.names, (n.size for n in self._root.nodes)))

    def largest_state(self):
        """A state that packs to exactly ``max_size`` bytes (each field at its longest)."""
        return self._root.largest()

    def conforms(self, state) -> list[str]:
        """What in ``state`` its declarations do not allow, one line each (empty: it conforms,
        and then it packs to at most ``max_size`` bytes)."""
        problems: list[str] = []
        self._root.check(state, "", problems)
        return problems


def _check_layout(node: _Node, layout: Layout, path: str, problems: list[str]) -> None:
    while isinstance(node, (_SeqNode, _OneOfNode)):  # the layout is its items' or its record's
        node = node.item if isinstance(node, _SeqNode) else node.shaped_alternative
    if not isinstance(node, (_RecordNode, _OptionsNode)):
        problems.append(f"{path or 'state'}: a layout for what is no record")
        return
    if len(set(layout.fields)) != len(layout.fields):
        problems.append(f"{path or 'state'}: a field named twice in {layout.fields}")
    names = dict(zip(node.names, node.nodes))
    for name in layout.nested:
        if name not in layout.fields or name not in names:
            problems.append(f"{path or 'state'}: a nested layout for {name}, not in both the old and the new fields")
        else:
            _check_layout(names[name], layout.nested[name], f"{path}.{name}" if path else name, problems)
    defaults = node.defaults if isinstance(node, _RecordNode) else {
        f.name for f in dataclasses.fields(node.cls)
        if f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING}
    missing = [n for n in node.names if n not in layout.fields and n not in defaults]
    if missing and layout.upgrade is None:
        problems.append(f"{path or 'state'}: {', '.join(missing)} not stored and without a default")
