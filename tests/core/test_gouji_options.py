"""够级 options (the decision table G-1 .. G-26 of rules/gouji.md): defaults, presets, BAD_OPTION."""
import dataclasses

import pytest

from referee.core.errors import InvalidAction, Reason
from referee.core.games.gouji import rules
from referee.core.games.gouji.rules import PRESETS, Options

# every named variant of the decision table -> the option (and value) that selects it
VARIANTS = {
    "G-1 option1_joker_counts": dict(option1_joker_counts=True),
    "G-2 cover_then_core_strict": dict(comparison="cover_then_core_strict"),
    "G-3 mixed_jokers_downgrade": dict(mixed_jokers_downgrade=False),
    "G-4 2kill1_only": dict(option1_joker_counts=True, option1_scope="2kill1_only"),
    "G-4 4pl_table": dict(option1_joker_counts=True, option1_scope="4pl_table"),
    "G-5 deal_race": dict(first_leader="deal_race"),
    "G-5 daluo_leads": dict(first_leader="daluo_leads"),
    "G-6 ju_length": dict(ju_length=3),
    "G-7 teammate_free": dict(biesan=True, teammate_free=True),
    "G-9 men_is_daluo": dict(biesan=True, men_is_daluo=True),
    "G-9 men_to_duitou": dict(biesan=True, men_to_duitou=True),
    "G-10 kelei_burnable": dict(kelei_burnable=True),
    "G-12 headless_beat": dict(headless_beat=False),
    "G-13 4pl_order": dict(tribute_order="4pl_order"),
    "G-14 exchange_one_each": dict(exchange_one_each=True),
    "G-15 free_choice": dict(return_cards="free_choice"),
    "G-15 lowest_only": dict(return_cards="lowest_only"),
    "G-19 seat_order": dict(seat_order=True),
    "G-21 exclude_attached_2": dict(exclude_attached_2=True),
    "G-21 exclude_pure_2": dict(exclude_pure_2=True),
    "G-22 team_sees_at_10": dict(team_sees_at_10=True),
    "G-23 partner_catches_wind": dict(partner_catches_wind=True),
    "G-24 void_ju": dict(void_ju=True),
    "G-25 no_repass_tribute": dict(no_repass_tribute=True),
    "G-26 biesan": dict(biesan=True),
}


def test_gouji_options_defaults_are_the_spec_rules():
    o = Options()
    assert (o.option1_joker_counts, o.comparison, o.mixed_jokers_downgrade, o.first_leader, o.ju_length,
            o.biesan, o.kelei_burnable, o.headless_beat, o.tribute_order, o.exchange_one_each,
            o.return_cards, o.seat_order, o.team_sees_at_10, o.partner_catches_wind, o.void_ju,
            o.no_repass_tribute) == (False, "strict", True, "shangban", 5, False, False, True,
                                     "men_shao_dian_luo", False, "small_cards_only", False, False, False,
                                     False, False)


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_gouji_variant_is_a_typed_option_accepted(name):
    options = dataclasses.replace(Options(), **VARIANTS[name])
    assert rules.checked_options(options) == options
    assert options != Options()


def test_gouji_options_every_field_is_a_named_variant():
    named = {key for v in VARIANTS.values() for key in v}
    assert named == {f.name for f in dataclasses.fields(Options)}


@pytest.mark.parametrize("bad", [
    dict(option1_scope="4pl_table"), dict(teammate_free=True), dict(men_is_daluo=True), dict(men_to_duitou=True),
    dict(biesan=True, men_is_daluo=True, men_to_duitou=True),
])
def test_gouji_options_nonsense_is_bad_option(bad):
    with pytest.raises(InvalidAction) as error:
        rules.checked_options(dataclasses.replace(Options(), **bad))
    assert error.value.reason == Reason.BAD_OPTION


def test_gouji_presets_are_checked_and_named():
    assert {"gouji", "4pl"} <= set(PRESETS)
    assert PRESETS["gouji"] == Options()
    for options in PRESETS.values():
        assert rules.checked_options(options) == options
    assert PRESETS["4pl"].option1_scope == "4pl_table" and PRESETS["4pl"].tribute_order == "4pl_order"


def test_gouji_flags_follow_the_options():
    hot = rules.hot
    assert rules.flags_of(Options()) == hot.FLAGS["downgrade"]
    assert rules.flags_of(Options(mixed_jokers_downgrade=False, comparison="cover_then_core_strict")) == \
        hot.FLAGS["cover"]
    assert rules.flags_of(Options(option1_joker_counts=True, option1_scope="2kill1_only")) == \
        hot.FLAGS["downgrade"] | hot.FLAGS["option1_2kill1_only"]


def test_gouji_plays_text_round_trip():
    for text in ("RRB22TTT", "2", "B", "55", "RR222"):
        assert rules.play_text(rules.play_of_text(text)) == text
    assert rules.play_of_text("RJ RJ TH TS TD") == rules.play_of_text("RRTTT")
    assert rules.play_of_text("5TT") == 0
