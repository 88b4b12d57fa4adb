"""The state codec (core/codec.py): round trips over generated states of toy schemas, the size
bound against what marshal writes, conformance, versions and legacy layouts, refused bytes, and
the shipped games' states as the release wrote them.

Sizes expected here are marshal's own (``len(marshal.dumps(v, 2))``) or worked out from its
format 2 (a 32-bit int 5 bytes, a larger one 5 + 2 per 15-bit digit, bytes and str 5 + length,
a tuple 5 + its items), never read back from the codec.
"""
from __future__ import annotations

import enum
import json
import marshal
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, NamedTuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.core import registry, rng
from referee.core.codec import (INT32_MAX, INT32_MIN, RELEASE_FORMAT, Blob, Choice, Index, Int, Int64, Layout, Mask,
                                OneOf, Seq, Slot, Small, StateCodec, Text, entropy_bound, game_context, int_size)
from referee.core.errors import InvalidAction, Reason
from referee.core.game import option

SEATS, CARDS = 4, 20
CONTEXT = {"seats": SEATS, "cards": CARDS}
KINDS = ("PASS", "PUNG")


# --- toy schemas --------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Opts:
    fast: bool = option(False, "a bool")
    mode: str = option("points", "an enum", allowed=("points", "coins_fixed_fee"))
    coefficient: int = option(1, "bounded", minimum=1, maximum=1_000_000)
    penalty: int = option(50, "allowed ints", allowed=(25, 50, 100))
    free: int = option(0, "no bounds: a 32-bit int")


class Carry(NamedTuple):
    dealer: Annotated[int, Index("seats", 0)] = 0
    banks: Annotated[tuple[int, ...], Seq(Small, "seats")] = ()


class Round(NamedTuple):
    round: int = 0
    totals: Annotated[tuple[int, ...], Seq(Int64, "seats")] = ()
    carry: Carry | None = None


class Window(NamedTuple):
    asked: Annotated[tuple[int, ...], Seq(Index("seats", 0), "seats")] = ()
    answers: Annotated[tuple, Seq(OneOf(None, Seq(OneOf(Choice(*KINDS), Index("cards", 0)), 4)), "seats")] = ()


class Toy(NamedTuple):
    options: Opts
    seed: bytes
    entropy: bytes
    match: Round
    hands: Annotated[tuple[int, ...], Seq(Mask, "seats")]
    kitty: Annotated[int, Mask]
    phase: Annotated[int, Index(3, 0)]
    to_act: Annotated[tuple[int, ...], Seq(Index("seats", 0), "seats")]
    window: Window = Window()
    rivers: Annotated[tuple[tuple[int, ...], ...], Seq(Seq(Index("cards", 0), "cards"), "seats", total="cards")] = ()
    label: Annotated[str, Text(12)] = ""
    wall: Annotated[bytes, Blob("cards")] = b""
    flag: bool = False
    bonus: Annotated[int, Small] | None = None
    step: int = 0

    @property
    def num_seats(self) -> int:
        return len(self.hands)

    @property
    def finished(self) -> bool:
        return self.phase == 2


class Flat(NamedTuple):
    count: int
    on: bool
    name: Annotated[str, Choice("a", "bb")]
    pair: tuple[Annotated[int, Int(0, 9)], bool]
    none: None = None


TOY = StateCodec(Toy, version=2, context=CONTEXT)
FLAT = StateCodec(Flat, version=7)


def ints_of(lo: int, hi: int):
    return st.integers(lo, hi)


seat_lists = st.lists(ints_of(0, SEATS - 1), max_size=SEATS).map(tuple)
masks = ints_of(0, (1 << CARDS) - 1)
options = st.builds(Opts, st.booleans(), st.sampled_from(("points", "coins_fixed_fee")), ints_of(1, 1_000_000),
                    st.sampled_from((25, 50, 100)), ints_of(INT32_MIN, INT32_MAX))
carries = st.none() | st.builds(Carry, ints_of(0, SEATS - 1), st.lists(ints_of(INT32_MIN, INT32_MAX),
                                                                         max_size=SEATS).map(tuple))
rounds = st.builds(Round, ints_of(INT32_MIN, INT32_MAX),
                   st.lists(ints_of(-2**63, 2**63 - 1), max_size=SEATS).map(tuple), carries)
answers = st.none() | st.lists(st.sampled_from(KINDS) | ints_of(0, CARDS - 1), max_size=4).map(tuple)
windows = st.builds(Window, seat_lists, st.lists(answers, max_size=SEATS).map(tuple))


@st.composite
def rivers(draw):
    left, out = CARDS, []
    for _ in range(draw(ints_of(0, SEATS))):
        river = tuple(draw(st.lists(ints_of(0, CARDS - 1), max_size=left)))
        left -= len(river)
        out.append(river)
    return tuple(out)


def utf8_within(limit: int):
    return st.text(max_size=limit // 4) | st.text("ab中é", max_size=limit).filter(
        lambda s: len(s.encode("utf-8")) <= limit)


toys = st.builds(Toy, options, st.binary(max_size=rng.MAX_SEED_BYTES), st.binary(max_size=entropy_bound(SEATS)),
                 rounds, st.lists(masks, min_size=1, max_size=SEATS).map(tuple), masks, ints_of(0, 2), seat_lists,
                 windows, rivers(), utf8_within(12), st.binary(max_size=CARDS), st.booleans(),
                 st.none() | ints_of(INT32_MIN, INT32_MAX), ints_of(INT32_MIN, INT32_MAX))
flats = st.builds(Flat, ints_of(INT32_MIN, INT32_MAX), st.booleans(), st.sampled_from(("a", "bb")),
                  st.tuples(ints_of(0, 9), st.booleans()))


def rebuilt(value):
    """An equal value made of fresh objects (new ints, str and bytes, never interned ones)."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int):
        return int(str(value))
    if isinstance(value, str):
        return "".join(list(value))
    if isinstance(value, bytes):
        return bytes(bytearray(value))
    if isinstance(value, Opts):
        return Opts(*(rebuilt(getattr(value, f)) for f in Opts.__dataclass_fields__))
    if hasattr(value, "_fields"):
        return type(value)._make(rebuilt(v) for v in value)
    return tuple(rebuilt(v) for v in value)


def marshal_plain(value):
    """A state as the release packed one: records as tuples, Options as their values."""
    if isinstance(value, Opts):
        return tuple(getattr(value, f) for f in Opts.__dataclass_fields__)
    if isinstance(value, tuple):
        return tuple(marshal_plain(v) for v in value)
    return value


def deal(**changes) -> Toy:
    toy = Toy(Opts(), b"seed", b"entropy", Round(0, (0, 0, 0)), (0b111, 0b111000, 1 << 19), 0b1000000,
              0, (0,), Window((1, 2), (None, ("PUNG", 3, 4))), ((1, 2), (3,)), "label", bytes(range(5)))
    return toy._replace(**changes)


# --- round trips ----------------------------------------------------------------------------------

@settings(max_examples=150)
@given(toys)
def test_a_conforming_state_round_trips_within_the_bound(state):
    assert TOY.conforms(state) == []
    packed = TOY.pack(state)
    assert packed[0] == 2 and packed[1:] == marshal.dumps(marshal_plain(state), 2)
    assert len(packed) <= TOY.max_size()
    again = TOY.unpack(packed, check=True)
    assert again == state and TOY.pack(again) == packed
    assert [type(v) for v in again] == [type(v) for v in state]


@given(flats)
def test_a_flat_schema_round_trips(state):
    assert FLAT.conforms(state) == []
    packed = FLAT.pack(state)
    assert packed[0] == 7 and FLAT.unpack(packed) == state and len(packed) <= FLAT.max_size()


@given(toys)
def test_equal_states_of_other_objects_pack_to_equal_bytes(state):
    copy = rebuilt(state)
    assert copy == state and TOY.pack(copy) == TOY.pack(state)
    assert TOY.pack(TOY.unpack(TOY.pack(copy))) == TOY.pack(state)


def test_unpacked_options_are_one_object_per_option_set():
    a, b = TOY.unpack(TOY.pack(deal())), TOY.unpack(TOY.pack(deal(step=9)))
    assert a.options is b.options


def test_nested_records_come_back_as_their_types():
    state = deal(match=Round(1, (5, -5, 0), Carry(2, (10, 20, 30))))
    again = TOY.unpack(TOY.pack(state))
    assert type(again.match) is Round and type(again.match.carry) is Carry and type(again.window) is Window
    assert again.num_seats == 3 and not again.finished


# --- the size bound -------------------------------------------------------------------------------

BOUNDARY_INTS = sorted({s * (2**k + d) for k in range(0, 70) for d in (-1, 0, 1) for s in (1, -1)})


@pytest.mark.parametrize("value", BOUNDARY_INTS + [0])
def test_int_size_is_what_marshal_writes(value):
    assert int_size(value) == len(marshal.dumps(value, 2))


@given(st.integers(-2**200, 2**200))
def test_int_size_is_what_marshal_writes_for_any_int(value):
    assert int_size(value) == len(marshal.dumps(value, 2))


def one_field(declared) -> type:
    return NamedTuple("One", [("x", declared)])


# (declaration, the value marshal writes longest, other allowed values)
SCALARS = [
    (Annotated[int, Int(0, 10)], 10, [0, 3]),
    (int, INT32_MIN, [INT32_MAX, 0]),
    (Annotated[int, Int(0, 2**31)], 2**31, [0, INT32_MAX]),
    (Annotated[int, Int(-2**31 - 1, 0)], -2**31 - 1, [INT32_MIN, 0]),
    (Annotated[int, Int64], -2**63, [2**63 - 1, 2**62, 0]),
    (Annotated[int, Mask(54)], 2**54 - 1, [0, 2**53, 2**31]),
    (Annotated[int, Mask(144)], 2**144 - 1, [2**140, 5]),
    (Annotated[int, Mask], 2**CARDS - 1, [0]),
    (Annotated[int, Index("seats")], -1, [0, SEATS - 1]),
    (bool, True, [False]),
    (None, None, []),
    (Annotated[bytes, Blob(0)], b"", []),
    (Annotated[bytes, Blob(64)], bytes(64), [b"", b"x" * 63]),
    (Annotated[str, Text(10)], "中中中x", ["", "x" * 10, "é" * 5]),
    (Annotated[str, Choice("a", "bbbb", "cc")], "bbbb", ["a", "cc"]),
    (Annotated[int, Choice(1, 2**40, -7)], 2**40, [1, -7]),
    (Annotated[tuple[int, ...], Seq(Small, 3)], (INT32_MIN,) * 3, [(), (1, 2)]),
    (Annotated[tuple, Seq(Seq(Small, 5), 3, total=7)], ((0,) * 5, (0, 0), ()), [(), ((1,),) * 3, ((1,) * 5, (2, 2))]),
    (Annotated[tuple, Seq(Blob(10), 3, total=12)], (bytes(10), bytes(2), b""), [(b"ab", b"", b"c")]),
    (tuple[int, bool], (INT32_MIN, False), [(5, True)]),
    (tuple[()], (), []),
    (Annotated[tuple[int, ...], Seq(Small, 2)] | None, (INT32_MIN, INT32_MIN), [None, ()]),
    (Annotated[int, Int(0, 2**40)] | None, 2**40, [None, 0]),
    (Carry | None, Carry(SEATS - 1, (INT32_MIN,) * SEATS), [None, Carry()]),
    (Annotated[tuple, Seq(Carry, 2)], (Carry(SEATS - 1, (INT32_MIN,) * SEATS),) * 2, [(), (Carry(1, (2,)),)]),
    (Opts | None, Opts(True, "coins_fixed_fee", 1_000_000, 100, INT32_MIN), [None, Opts()]),
    (Opts, Opts(True, "coins_fixed_fee", 1_000_000, 100, INT32_MIN), [Opts()]),
]


@pytest.mark.parametrize("declared, longest, others", SCALARS, ids=[repr(s[0])[:50] for s in SCALARS])
def test_the_bound_is_exactly_what_marshal_writes_for_the_longest_value(declared, longest, others):
    wrap = one_field(declared)
    codec = StateCodec(wrap, version=2, context=CONTEXT)
    worst = len(marshal.dumps((marshal_plain(longest),), 2)) + 1
    assert codec.max_size() == worst
    assert len(codec.pack(codec.largest_state())) == worst
    assert codec.conforms(codec.largest_state()) == [] and codec.conforms(wrap(longest)) == []
    assert len(codec.pack(wrap(longest))) == worst
    for value in others:
        assert codec.conforms(wrap(value)) == [], value
        assert len(codec.pack(wrap(value))) <= worst
        assert codec.unpack(codec.pack(wrap(value))) == wrap(value)


def test_the_largest_state_of_a_schema_packs_to_its_bound_and_conforms():
    for codec in (TOY, FLAT):
        largest = codec.largest_state()
        assert codec.conforms(largest) == []
        assert len(codec.pack(largest)) == codec.max_size()
        assert codec.unpack(codec.pack(largest)) == largest


def test_the_field_sizes_add_up_to_the_bound():
    sizes = TOY.sizes()
    assert list(sizes) == list(Toy._fields)
    assert 1 + 5 + sum(sizes.values()) == TOY.max_size()
    assert sizes["seed"] == 5 + rng.MAX_SEED_BYTES and sizes["kitty"] == 5 and sizes["flag"] == 1


def test_seed_and_entropy_are_bounded_by_rng():
    longest = rng.entropy(b"o" * rng.MAX_ENTROPY_BYTES, [b"s" * rng.MAX_SEAT_ENTROPY_BYTES] * SEATS)
    assert entropy_bound(SEATS) == len(longest) == 16 + 4 + 256 + 1 + SEATS * (4 + 32)
    assert TOY.sizes()["entropy"] == 5 + len(longest)
    assert TOY.conforms(deal(entropy=longest, seed=bytes(rng.MAX_SEED_BYTES))) == []
    assert TOY.conforms(deal(seed=bytes(rng.MAX_SEED_BYTES + 1))) == ["seed: 65 bytes, over 64"]


@settings(max_examples=60)
@given(st.randoms(use_true_random=False))
def test_random_conforming_states_never_pass_the_bound(rnd):
    n = rnd.randint(1, SEATS)
    state = Toy(Opts(), rnd.randbytes(rnd.randint(0, 64)), rnd.randbytes(rnd.randint(0, entropy_bound(SEATS))),
                Round(rnd.randint(0, 10**6), tuple(rnd.randint(-2**63, 2**63 - 1) for _ in range(n)),
                      Carry(rnd.randrange(SEATS), tuple(rnd.randint(INT32_MIN, INT32_MAX) for _ in range(n)))),
                tuple(rnd.getrandbits(CARDS) for _ in range(n)), rnd.getrandbits(CARDS), rnd.randrange(3),
                tuple(rnd.randrange(n) for _ in range(rnd.randint(0, n))),
                Window(tuple(range(n)), tuple(rnd.choice((None, ("PASS",), ("PUNG", 1, 2))) for _ in range(n))),
                tuple((rnd.randrange(CARDS),) * 5 for _ in range(n)), "中" * rnd.randint(0, 4),
                rnd.randbytes(rnd.randint(0, CARDS)), rnd.random() < 0.5, rnd.choice((None, INT32_MIN)))
    assert TOY.conforms(state) == []
    assert len(TOY.pack(state)) <= TOY.max_size()


# --- conformance ----------------------------------------------------------------------------------

class Colour(enum.IntEnum):
    RED = 1


@pytest.mark.parametrize("changes, problem", [
    ({"kitty": 1 << CARDS}, f"kitty: {1 << CARDS} is not in a mask of cards"),
    ({"kitty": -1}, "kitty: -1 is not in a mask of cards"),
    ({"phase": 3}, "phase: 3 is not in 0..2"),
    ({"phase": True}, "phase: True is not an int"),
    ({"phase": Colour.RED}, "phase: <Colour.RED: 1> is not an int"),
    ({"step": 2**31}, f"step: {2**31} is not in {INT32_MIN}..{INT32_MAX}"),
    ({"flag": 1}, "flag: 1 is not a bool"),
    ({"to_act": (0, 1, 2, 3, 0)}, "to_act: 5 items, over 4"),
    ({"to_act": [0]}, "to_act: [0] is not a tuple"),
    ({"to_act": (4,)}, "to_act[0]: 4 is not in 0..3"),
    ({"hands": (1, 2.5)}, "hands[1]: 2.5 is not an int"),
    ({"rivers": ((1,) * 15, (2,) * 6)}, "rivers: 21 in all, over 20"),
    ({"label": "中中中中中"}, "label: 15 bytes, over 12"),
    ({"label": b"label"}, "label: b'label' is not str"),
    ({"wall": "wall"}, "wall: 'wall' is not bytes"),
    ({"bonus": "1"}, "bonus: '1' is not an int"),
    ({"match": (0, (), None)}, "match: (0, (), None) is not a Round"),
    ({"match": Round(0, (2**63,))}, f"match.totals[0]: {2**63} is not in {-2**63}..{2**63 - 1}"),
    ({"match": Round(0, (), (0, ()))}, "match.carry: (0, ()) is not a Carry"),
    ({"match": Round(0, (), Carry(4))}, "match.carry.dealer: 4 is not in 0..3"),
    ({"window": Window((0,), (("DRAW",),))}, "window.answers[0][0]: 'DRAW' is none of ('PASS', 'PUNG')"),
    ({"options": Opts(mode="coins")}, "options.mode: 'coins' is none of ('points', 'coins_fixed_fee')"),
    ({"options": Opts(coefficient=0)}, "options.coefficient: 0 is not in 1..1000000"),
    ({"options": Opts(penalty=True)}, "options.penalty: True is none of (25, 50, 100)"),
    ({"options": Opts(fast=0)}, "options.fast: 0 is not a bool"),
])
def test_conformance_names_what_the_declarations_do_not_allow(changes, problem):
    assert TOY.conforms(deal()) == []
    assert TOY.conforms(deal(**changes)) == [problem]


def test_a_state_of_another_type_does_not_conform():
    assert TOY.conforms(tuple(deal())) == [f"state: {tuple(deal())!r:.37}... is not a Toy"]


def test_a_non_conforming_state_is_refused_when_unpacked_with_check():
    packed = TOY.pack(deal(phase=7))
    assert TOY.unpack(packed).phase == 7
    with pytest.raises(InvalidAction) as error:
        TOY.unpack(packed, check=True)
    assert error.value.reason == Reason.STATE_TOKEN_INVALID and "phase: 7" in error.value.message


# --- declarations -----------------------------------------------------------------------------------

class Undeclared(NamedTuple):
    hands: tuple[int, ...]
    name: str
    blob: bytes
    anything: Any
    slot: Annotated[Any, Slot()]
    count: Annotated[int, Index("players")]


def test_every_field_that_cannot_be_encoded_is_named_at_once():
    with pytest.raises(TypeError) as error:
        StateCodec(Undeclared, version=2, context=CONTEXT, fields={"nowhere": int})
    message = str(error.value)
    for part in ("hands: ", "needs a longest length", "name: ", "Text(max_len)", "blob: ", "Blob(max_len)",
                 "anything: ", "slot: a Slot", "count: 'players' is no count", "fields declared for no field: nowhere"):
        assert part in message, part


def test_fields_declare_by_path_what_the_classes_leave_open():
    codec = StateCodec(Undeclared, version=2, context={**CONTEXT, "players": 6}, fields={
        "hands": Seq(Mask, "seats"), "name": Text(8), "blob": Blob(3), "anything": OneOf(None, Small),
        "slot": Carry | None})
    state = Undeclared((1, 2), "ab", b"xyz", None, Carry(1, (2,)), 5)
    assert codec.conforms(state) == [] and codec.unpack(codec.pack(state)) == state
    assert codec.conforms(state._replace(count=6)) == ["count: 6 is not in -1..5"]


class Slotted(NamedTuple):
    carry: Annotated[Any, Slot(None)] = None


def test_a_slot_takes_its_default_declaration_unless_a_game_gives_one():
    assert StateCodec(Slotted, version=2).conforms(Slotted(Carry())) == ["carry: Carry(dealer=0, banks=()) is not None"]
    codec = StateCodec(Slotted, version=2, context=CONTEXT, fields={"carry": Carry | None})
    assert codec.unpack(codec.pack(Slotted(Carry(3, (1,))))) == Slotted(Carry(3, (1,)))


def test_declarations_that_unpack_could_not_tell_apart_are_refused():
    with pytest.raises(TypeError, match="could not tell them apart"):
        StateCodec(one_field(OneOf(Carry, Seq(Small, 2))), version=2, context=CONTEXT)


def test_a_total_over_items_with_their_own_total_is_refused():
    with pytest.raises(TypeError, match="a total needs items with a length"):
        StateCodec(one_field(Seq(Seq(Seq(Small, 2), 2, total=3), 2, total=3)), version=2)


def test_options_must_be_a_frozen_dataclass():
    @dataclass
    class Loose:
        x: int = 0

    with pytest.raises(TypeError, match="not a frozen dataclass"):
        StateCodec(one_field(Loose), version=2)


def test_bad_markers_and_states_are_refused():
    with pytest.raises(ValueError):
        Int(5, 1)
    with pytest.raises(TypeError, match="not a NamedTuple"):
        StateCodec(Opts, version=2)
    with pytest.raises(TypeError, match="Choice value"):
        StateCodec(one_field(Annotated[Any, Choice([1])]), version=2)


def test_game_context_names_seats_cards_and_ranks():
    game = registry.GAMES["doudizhu"]
    assert game_context(game) == {"seats": 3, "cards": 54, "ranks": 15}


# --- versions and legacy layouts -----------------------------------------------------------------------

OLD_FIELDS = "options seed entropy match num_seats hands kitty phase to_act window rivers label wall retired step"


def old_payload(state: Toy, version: int | None = None, num_seats: int | None = None, carry=()) -> bytes:
    """``state`` as an older release stored it: ``num_seats`` stored, Match.carry a plain tuple,
    a ``retired`` field since dropped, no ``flag`` nor ``bonus``."""
    plain = marshal_plain(state)
    values = dict(zip(Toy._fields, plain))
    values["num_seats"] = len(state.hands) if num_seats is None else num_seats
    values["match"] = (state.match.round, state.match.totals, carry)
    values["retired"] = 77
    payload = marshal.dumps(tuple(values[n] for n in OLD_FIELDS.split()), 2)
    return payload if version is None else bytes((version,)) + payload


LEGACY = StateCodec(Toy, version=3, context=CONTEXT, legacy={RELEASE_FORMAT: OLD_FIELDS, 2: Layout(OLD_FIELDS)})


@pytest.mark.parametrize("version", [None, 2])
def test_a_legacy_payload_maps_by_name_onto_the_new_state(version):
    state = deal(match=Round(2, (5, -5, 0), Carry(1, (40, 50, 60))), flag=False, bonus=None)
    old = old_payload(state, version, carry=(1, (40, 50, 60)))
    assert old[0] == (ord("(") if version is None else 2)
    assert LEGACY.unpack(old) == state
    assert LEGACY.pack(LEGACY.unpack(old))[0] == 3


def test_an_old_empty_carry_is_none_where_the_record_may_be_none():
    assert LEGACY.unpack(old_payload(deal())).match.carry is None


def test_an_old_field_the_state_derives_is_checked():
    with pytest.raises(InvalidAction) as error:
        LEGACY.unpack(old_payload(deal(), num_seats=4))
    assert error.value.reason == Reason.STATE_TOKEN_INVALID
    assert "num_seats is 3, stored 4" in str(error.value.__cause__)


def test_a_legacy_state_outside_the_declarations_does_not_open():
    with pytest.raises(InvalidAction, match="phase: 5") as error:
        LEGACY.unpack(old_payload(deal(phase=5)))
    assert error.value.reason == Reason.STATE_TOKEN_INVALID


def test_a_version_without_a_layout_does_not_open():
    with pytest.raises(InvalidAction):
        TOY.unpack(old_payload(deal()))
    with pytest.raises(InvalidAction):
        LEGACY.unpack(old_payload(deal(), version=4))


def test_nested_layouts_and_upgrades_rename_and_reorder():
    reordered = Layout("free penalty coefficient mode quick",
                       upgrade=lambda v: {("fast" if k == "quick" else k): x for k, x in v.items()})
    codec = StateCodec(Toy, version=3, context=CONTEXT, legacy={RELEASE_FORMAT: Layout(
        OLD_FIELDS, nested={"options": reordered,
                            "match": Layout("totals round carry", upgrade=lambda v: {**v, "round": v["round"] + 1})},
        upgrade=lambda v: {**v, "label": v["label"].upper()})})
    state = deal(options=Opts(True, "coins_fixed_fee", 9, 25, -3), match=Round(4, (1, 2, 3), Carry(2)))
    values = dict(zip(OLD_FIELDS.split(), marshal.loads(old_payload(state, carry=(2,)))))
    values["options"] = (-3, 25, 9, "coins_fixed_fee", True)
    values["match"] = ((1, 2, 3), 3, (2,))
    payload = marshal.dumps(tuple(values[n] for n in OLD_FIELDS.split()), 2)
    assert codec.unpack(payload) == state._replace(label="LABEL")


class Banks(NamedTuple):
    carries: Annotated[tuple, Seq(Carry, 3)] = ()


def test_a_nested_layout_applies_to_every_record_of_a_tuple():
    codec = StateCodec(Banks, version=2, context=CONTEXT, legacy={RELEASE_FORMAT: Layout(
        "carries", nested={"carries": "banks dealer"})})
    old = marshal.dumps(((((1, 2), 0), ((), 3)),), 2)
    assert codec.unpack(old) == Banks((Carry(0, (1, 2)), Carry(3, ())))


def test_new_fields_take_their_defaults_and_fields_without_one_need_an_upgrade():
    assert LEGACY.unpack(old_payload(deal(flag=False))).flag is False
    with pytest.raises(ValueError, match="phase not stored and without a default"):
        StateCodec(Toy, version=3, context=CONTEXT, legacy={RELEASE_FORMAT: OLD_FIELDS.replace(" phase", "")})
    codec = StateCodec(Toy, version=3, context=CONTEXT, legacy={
        RELEASE_FORMAT: Layout(OLD_FIELDS.replace(" phase", ""), upgrade=lambda v: {**v, "phase": 1})})
    old = marshal.loads(old_payload(deal()))
    payload = marshal.dumps(old[:7] + old[8:], 2)
    assert codec.unpack(payload) == deal(phase=1)


@pytest.mark.parametrize("version", [0, 1, 0x28, 256, "2"])
def test_a_version_byte_that_could_be_confused_is_refused(version):
    with pytest.raises(ValueError):
        StateCodec(Flat, version=version)


@pytest.mark.parametrize("legacy", [{3: "count on name pair none"}, {0x28: "count"}, {0: "count"},
                                    {1: "count count"}, {1: Layout("count", nested={"on": "x"})}])
def test_a_legacy_layout_that_could_not_work_is_refused(legacy):
    with pytest.raises(ValueError):
        StateCodec(Flat, version=3, legacy=legacy)


# --- bytes that are no state ---------------------------------------------------------------------------

@pytest.mark.parametrize("data", [
    b"", b"\x02", b"\x02garbage", b"(", b"\x28\x00\x00", TOY.pack(deal())[:-1], TOY.pack(deal())[:40],
    TOY.pack(deal()) + bytes(TOY.max_size()), b"\x02" + marshal.dumps((1, 2, 3), 2),
    b"\x02" + marshal.dumps([1] * 15, 2), FLAT.pack(Flat(1, True, "a", (1, True))),
    b"\x02" + marshal.dumps(marshal_plain(deal())[:-1], 2),
    b"\x02" + marshal.dumps(tuple(v if i != 3 else 5 for i, v in enumerate(marshal_plain(deal()))), 2),
    b"\x02" + marshal.dumps(tuple(v if i != 0 else "abcde" for i, v in enumerate(marshal_plain(deal()))), 2),
    b"\x02" + marshal.dumps(tuple(v if i != 0 else (1, 2) for i, v in enumerate(marshal_plain(deal()))), 2),
    "not bytes",
])
def test_bytes_that_are_no_state_are_an_invalid_token(data):
    with pytest.raises(InvalidAction) as error:
        TOY.unpack(data)
    assert error.value.reason == Reason.STATE_TOKEN_INVALID


@settings(deadline=None)
@given(st.binary(max_size=300))
def test_random_bytes_are_an_invalid_token(data):
    with pytest.raises(InvalidAction) as error:
        LEGACY.unpack(data)
    assert error.value.reason == Reason.STATE_TOKEN_INVALID


def test_every_truncation_of_a_payload_is_an_invalid_token():
    packed = TOY.pack(deal(match=Round(1, (1, 2, 3), Carry(1, (5,)))))
    for length in range(len(packed)):
        with pytest.raises(InvalidAction):
            TOY.unpack(packed[:length])


FLAT_PACKED = FLAT.pack(Flat(-5, True, "bb", (3, False)))
# the high bytes of the nested pair's length: changed, marshal allocates up to 2^32 slots before
# it finds the payload short (the state's own length is checked first, those of nested tuples not)
PAIR_LENGTH_HIGH = {FLAT_PACKED.index(b"(\x02\x00\x00\x00") + k for k in (3, 4)}


@pytest.mark.parametrize("position", sorted(set(range(len(FLAT_PACKED))) - PAIR_LENGTH_HIGH))
def test_a_changed_bit_gives_a_state_or_an_invalid_token_never_another_error(position):
    for bit in range(8):
        changed = bytearray(FLAT_PACKED)
        changed[position] ^= 1 << bit
        try:
            state = FLAT.unpack(bytes(changed), check=True)
        except InvalidAction as error:
            assert error.reason == Reason.STATE_TOKEN_INVALID
        else:
            assert FLAT.conforms(state) == []  # (a type code with marshal's FLAG_REF reads as without)


# --- the shipped games, as the release writes their states ------------------------------------------------

LEGACY_STATES = json.loads((Path(__file__).parents[1] / "golden" / "legacy_v1_states.json").read_text())["states"]


def release_codec_of(game):
    if game.pack(game.deal(game.make_options(), b"format", b""))[:1] != b"(":
        pytest.skip(f"{game.id} writes a versioned payload: its codec replaced the release format")
    from release_declarations import release_codec

    return release_codec(game)


@pytest.mark.parametrize("game_id", sorted(registry.GAMES))
def test_a_codec_declared_over_a_released_state_writes_the_release_bytes(game_id):
    game = registry.GAMES[game_id]
    codec = release_codec_of(game)
    largest = codec.largest_state()
    assert codec.conforms(largest) == [] and len(codec.pack(largest)) == codec.max_size()
    rnd = random.Random(game_id)
    for seats in range(game.min_seats, game.max_seats + 1):
        state = game.deal(game.make_options(), b"codec", b"entropy", seats)
        while True:
            assert codec.conforms(state) == []
            packed, released = codec.pack(state), game.pack(state)
            assert packed[1:] == released and len(packed) <= codec.max_size()
            assert codec.unpack(packed) == state and codec.unpack(released) == state
            if state.finished:
                break
            state, _ = game.apply(state, rnd.choice(game.legal_actions(state, rnd.choice(state.to_act)))[0])


@pytest.mark.parametrize("game_id", sorted({r["game"] for r in LEGACY_STATES}))
def test_a_codec_declared_over_a_released_state_opens_the_legacy_fixtures(game_id):
    game = registry.GAMES[game_id]
    codec = release_codec_of(game)
    for record in (r for r in LEGACY_STATES if r["game"] == game_id):
        old = bytes.fromhex(record["packed"])
        assert codec.unpack(old) == game.unpack(old)
