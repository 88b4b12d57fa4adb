"""The codec's pinned behaviours: each test kills a mutant of make mutate GAME=platform.

Sizes expected here are worked out from marshal's format 2 (a 32-bit int 5 bytes, bytes and str
5 + length, a tuple 5 + its items, a bool 1) or are marshal's own, never read back from the codec.
"""
from __future__ import annotations

import dataclasses
import marshal
import struct
from dataclasses import dataclass
from typing import Annotated, NamedTuple

import pytest

from referee.core.codec import (INT32_MIN, RELEASE_FORMAT, Blob, Choice, Index, Int, Layout, Mask, OneOf, Seq,
                                Small, StateCodec, Text)
from referee.core.errors import InvalidAction, Reason
from referee.core.game import option

CONTEXT = {"seats": 4, "cards": 20}
Bit = Annotated[int, Int(0, 1)]


@dataclass(frozen=True)
class Opts:
    fast: bool = option(False, "a bool")
    free: int = option(0, "no bounds: a 32-bit int")


@dataclass(frozen=True)
class Required:  # an Options field without a default
    level: int
    fast: bool = False


class Carry(NamedTuple):
    dealer: Annotated[int, Index("seats", 0)] = 0
    banks: Annotated[tuple[int, ...], Seq(Small, "seats")] = ()


class Flat(NamedTuple):
    count: int
    on: bool
    name: Annotated[str, Choice("a", "bb")]
    pair: tuple[Annotated[int, Int(0, 9)], bool]
    none: None = None


class Held(NamedTuple):
    options: Opts
    phase: Annotated[int, Index(3, 0)]
    step: int = 0
    carry: Carry | None = None
    flag: bool = False
    label: Annotated[str, Text(8)] = ""


FLAT = StateCodec(Flat, version=7)
FLAT_STATE = Flat(-5, True, "bb", (3, False))
HELD_FIELDS = "options phase step carry flag label"


def one_field(declared) -> type:
    return NamedTuple("One", [("x", declared)])


def codec_of(declared, **kwargs) -> StateCodec:
    return StateCodec(one_field(declared), version=2, context=CONTEXT, **kwargs)


# --- the payload ---------------------------------------------------------------------------------

def test_the_payload_is_marshal_format_2_even_for_what_the_declarations_refuse():
    # formats 1 and 2 differ in floats: 2 writes 'g' and the 8 bytes of the double, 1 its text
    state = FLAT_STATE._replace(count=0.1)
    packed = FLAT.pack(state)
    assert packed == b"\x07" + marshal.dumps((0.1, True, "bb", (3, False), None), 2)
    assert packed[6:15] == b"g" + struct.pack("<d", 0.1)
    assert FLAT.conforms(state) == ["count: 0.1 is not an int"]


# --- versions --------------------------------------------------------------------------------------

def test_version_255_is_a_version():
    codec = StateCodec(Flat, version=255)
    packed = codec.pack(FLAT_STATE)
    assert packed[0] == 255 and codec.unpack(packed) == FLAT_STATE


@pytest.mark.parametrize("version", [256, 1000])
def test_a_version_past_a_byte_is_refused_with_its_message(version):
    with pytest.raises(ValueError, match=rf"^version {version}: 2\.\.255, not 0x28"):
        StateCodec(Flat, version=version)


def test_legacy_version_255_opens():
    codec = StateCodec(Flat, version=3, legacy={255: "count on name pair none"})
    old = b"\xff" + marshal.dumps((-5, True, "bb", (3, False), None), 2)
    assert codec.unpack(old) == FLAT_STATE


@pytest.mark.parametrize("old", [0, 256, -3])
def test_a_legacy_version_that_is_no_byte_is_refused_even_with_a_good_layout(old):
    with pytest.raises(ValueError, match=rf"^legacy version {old}: 1 \(the release format\) or 2\.\.255 but 3"):
        StateCodec(Flat, version=3, legacy={old: "count on name pair none"})


def test_a_payload_starting_with_byte_1_is_not_the_release_format():
    codec = StateCodec(Flat, version=3, legacy={RELEASE_FORMAT: "count on name pair none"})
    release = marshal.dumps((-5, True, "bb", (3, False), None), 2)
    assert codec.unpack(release) == FLAT_STATE  # the release format has no version byte
    with pytest.raises(InvalidAction) as error:
        codec.unpack(b"\x01" + release)
    assert error.value.reason == Reason.STATE_TOKEN_INVALID


# --- declarations refused, with their messages ---------------------------------------------------------

class FakeRecord:  # has _fields, but is no tuple
    _fields = ("a",)


def test_a_class_with_fields_that_is_no_tuple_is_not_a_named_tuple():
    with pytest.raises(TypeError, match="is not a NamedTuple"):
        StateCodec(FakeRecord, version=2)


def test_a_field_declared_as_a_class_with_fields_that_is_no_tuple_cannot_be_encoded():
    with pytest.raises(TypeError, match=r"^One: x: <class .* cannot be encoded as declared"):
        codec_of(FakeRecord)


def test_an_int_range_of_one_value():
    codec = codec_of(Annotated[int, Int(3, 3)])
    wrap = codec.state_type
    assert codec.conforms(wrap(3)) == [] and codec.conforms(wrap(4)) == ["x: 4 is not in 3..3"]


def test_a_negative_count_is_no_count():
    with pytest.raises(TypeError, match=r"x: -1 is no count \(an int >= 0"):
        codec_of(Annotated[bytes, Blob(-1)])


def test_a_mask_over_an_unknown_space_is_refused_as_a_declaration():
    with pytest.raises(TypeError, match=r"^One: x: 'players' is no count \(an int >= 0 or a context name: cards, "):
        codec_of(Annotated[int, Mask("players")])


def test_two_markers_on_one_field_are_refused():
    with pytest.raises(TypeError, match=r"x: more than one declaration: \[Int\("):
        codec_of(Annotated[int, Small, Mask])


def test_the_first_odd_choice_value_is_named():
    with pytest.raises(TypeError, match=r"x: Choice value \[1\] is not a scalar"):
        codec_of(Annotated[int, Choice("a", [1], {2})])


def test_an_annotation_that_does_not_resolve_is_a_declaration_error():
    broken = NamedTuple("Broken", [("x", "NoSuchType")])
    with pytest.raises(TypeError, match="the annotations of Broken do not resolve"):
        StateCodec(broken, version=2)


def test_a_note_in_annotated_is_no_declaration():
    codec = codec_of(Annotated[int, "a note", str])
    wrap = codec.state_type
    assert codec.max_size() == 1 + 5 + 5
    assert codec.conforms(wrap(INT32_MIN)) == [] and codec.conforms(wrap(2**31)) == [
        f"x: {2**31} is not in {INT32_MIN}..{2**31 - 1}"]


def test_the_annotated_type_itself_is_no_declaration_beside_a_marker():
    codec = codec_of(Annotated[Mask, Int(0, 3)])  # declared by Int(0, 3), not also by Mask
    assert codec.conforms(codec.state_type(4)) == ["x: 4 is not in 0..3"]


def test_options_cannot_share_a_field_with_another_tuple():
    with pytest.raises(TypeError, match="x: a record and another tuple in one field"):
        codec_of(OneOf(Opts, Seq(Small, 2)))


def test_plain_tuples_may_share_a_field():
    codec = codec_of(OneOf(Seq(Small, 2), tuple[int, bool]))
    wrap = codec.state_type
    for value in ((), (1, 2), (3, True)):
        assert codec.conforms(wrap(value)) == [] and codec.unpack(codec.pack(wrap(value))) == wrap(value)
    assert codec.max_size() == 1 + 5 + 5 + 2 * 5


def test_an_option_field_is_declared_by_path():
    codec = StateCodec(Held, version=2, context=CONTEXT, fields={"options.free": Int(0, 9)})
    state = Held(Opts(), 0)
    assert codec.conforms(state) == []
    assert codec.conforms(state._replace(options=Opts(free=10))) == ["options.free: 10 is not in 0..9"]
    assert codec.sizes()["options"] == 5 + 1 + 5


# --- fixed tuples ----------------------------------------------------------------------------------------

def test_a_record_in_a_fixed_tuple_round_trips_as_its_type():
    codec = codec_of(tuple[Carry, bool])
    state = codec.state_type((Carry(2, (7,)), True))
    packed = codec.pack(state)
    assert packed == b"\x02" + marshal.dumps((((2, (7,)), True),), 2)
    again = codec.unpack(packed)
    assert again == state and type(again.x[0]) is Carry


def test_the_items_of_a_fixed_tuple_are_checked():
    codec = codec_of(tuple[int, bool])
    assert codec.conforms(codec.state_type((5, 1))) == ["x[1]: 1 is not a bool"]


# --- sizes -------------------------------------------------------------------------------------------------

def test_a_total_over_blobs_bounds_their_bytes_exactly():
    codec = codec_of(Annotated[tuple, Seq(Blob(10), 3, total=30)])
    worst = 1 + 5 + 5 + 3 * (5 + 10)
    assert codec.max_size() == worst
    assert len(codec.pack(codec.state_type((bytes(10),) * 3))) == worst


def test_the_largest_state_of_a_text_total_packs_to_the_bound():
    codec = codec_of(Annotated[tuple, Seq(Text(5), 3, total=7)])
    largest = codec.largest_state()
    worst = 1 + 5 + 5 + 3 * 5 + 7
    assert codec.max_size() == worst and len(codec.pack(largest)) == worst and codec.conforms(largest) == []


# --- conformance ---------------------------------------------------------------------------------------------

def test_a_total_over_blobs_is_checked():
    codec = codec_of(Annotated[tuple, Seq(Blob(10), 3, total=12)])
    assert codec.conforms(codec.state_type((bytes(10), bytes(5)))) == ["x: 15 in all, over 12"]


def test_a_value_shown_whole_up_to_40_characters():
    forty, forty_one = "x" * 38, "x" * 39  # their reprs: 40 and 41 characters
    assert FLAT.conforms(FLAT_STATE._replace(name=forty)) == [f"name: {forty!r} is none of ('a', 'bb')"]
    assert FLAT.conforms(FLAT_STATE._replace(name=forty_one)) == [
        f"name: {forty_one!r:.37}... is none of ('a', 'bb')"]


def test_of_alternatives_with_as_many_problems_the_one_whose_first_is_deepest_is_reported():
    codec = codec_of(OneOf(Seq(Bit, 1), tuple[tuple[Bit], Bit]))
    # the Seq: "x: 2 items, over 1", "x[1]: 5 ..."; the tuple: "x[0]: ...", "x[1]: ..."
    assert codec.conforms(codec.state_type((0, 5))) == ["x[0]: 0 is not a tuple of 1", "x[1]: 5 is not in 0..1"]


def test_a_checked_unpack_names_the_first_problem():
    codec = StateCodec(Held, version=2, context=CONTEXT)
    packed = codec.pack(Held(Opts(), 7, 2**31))
    with pytest.raises(InvalidAction) as error:
        codec.unpack(packed, check=True)
    assert error.value.message == "state does not decode: phase: 7 is not in 0..2"


# --- legacy layouts --------------------------------------------------------------------------------------------

FLAT_LEGACY = StateCodec(Flat, version=3, legacy={2: "count on name pair none"})


def flat_v2(count=-5, on=True, name="bb", pair=(3, False), none=None) -> bytes:
    return b"\x02" + marshal.dumps((count, on, name, pair, none), 2)


def test_a_legacy_fixed_tuple_opens():
    assert FLAT_LEGACY.unpack(flat_v2()) == FLAT_STATE


@pytest.mark.parametrize("pair", [(3, False, 9), (3,), 3])
def test_a_legacy_fixed_tuple_of_another_length_does_not_open(pair):
    with pytest.raises(InvalidAction) as error:
        FLAT_LEGACY.unpack(flat_v2(pair=pair))
    assert error.value.reason == Reason.STATE_TOKEN_INVALID


def test_a_legacy_value_where_none_is_declared_does_not_open():
    with pytest.raises(InvalidAction):
        FLAT_LEGACY.unpack(flat_v2(none=5))


def test_a_legacy_empty_record_where_none_is_declared_opens_as_none():
    assert FLAT_LEGACY.unpack(flat_v2(none=())) == FLAT_STATE


def held_legacy(layout) -> StateCodec:
    return StateCodec(Held, version=3, context=CONTEXT, legacy={RELEASE_FORMAT: layout})


def test_a_legacy_options_field_with_a_default_need_not_be_stored():
    codec = held_legacy(Layout(HELD_FIELDS, nested={"options": "free"}))
    old = marshal.dumps(((9,), 1, 0, None, False, ""), 2)
    assert codec.unpack(old) == Held(Opts(free=9), 1)


class Needs(NamedTuple):
    options: Required


def test_a_legacy_options_field_without_a_default_must_be_stored():
    with pytest.raises(ValueError, match=r"^legacy version 1: options: level not stored and without a default$"):
        StateCodec(Needs, version=3, legacy={RELEASE_FORMAT: Layout("options", nested={"options": "fast"})})
    codec = StateCodec(Needs, version=3, legacy={RELEASE_FORMAT: Layout("options", nested={"options": "level"})})
    assert codec.unpack(marshal.dumps(((4,),), 2)) == Needs(Required(4))


@dataclass(frozen=True)
class Listed:
    level: int = 1
    names: tuple = dataclasses.field(default_factory=tuple)


class WithList(NamedTuple):
    options: Listed


def test_a_legacy_options_field_with_a_default_factory_need_not_be_stored():
    codec = StateCodec(WithList, version=3, fields={"options.names": Seq(Small, 2)},
                       legacy={RELEASE_FORMAT: Layout("options", nested={"options": "level"})})
    assert codec.unpack(marshal.dumps(((4,),), 2)) == WithList(Listed(4))


@pytest.mark.parametrize("layout, message", [
    (Layout(HELD_FIELDS + " flag"), "state: a field named twice in ('options', "),
    (Layout(HELD_FIELDS, nested={"label": "x"}), "label: a layout for what is no record"),
    (Layout(HELD_FIELDS.replace(" carry", ""), nested={"carry": "dealer banks"}),
     "state: a nested layout for carry, not in both the old and the new fields"),
    (Layout(HELD_FIELDS, nested={"gone": "a"}), "state: a nested layout for gone, not in both the old and the new fields"),
    (Layout(HELD_FIELDS.replace(" phase", "")), "state: phase not stored and without a default"),
    (Layout(HELD_FIELDS, nested={"options": "fast fast"}), "options: a field named twice in ('fast', 'fast')"),
    (Layout(HELD_FIELDS, nested={"carry": Layout("dealer dealer")}), "carry: a field named twice"),
])
def test_a_legacy_layout_that_could_not_work_is_refused_with_its_path(layout, message):
    with pytest.raises(ValueError) as error:
        held_legacy(layout)
    assert str(error.value).startswith(f"legacy version 1: {message}"), str(error.value)
