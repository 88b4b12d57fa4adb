"""The hint as text on the compiled path (rule 12; ``referee legal``), both twins: the rank
strings, their JSON text, the text parser and the table's reading against the plain reference
(formatted, sorted ``hot.legal_plays``; ``cards.parse_cards_or_ranks``; ``choose_reading``)."""
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.core import cards as cardlib
from referee.core.games.doudizhu import rules as doudizhu
from referee.core.games.doudizhu.rules import Options
from referee.core.errors import InvalidAction, Reason

SETTINGS = settings(max_examples=250, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])  # the twin is fixed per run
card_sets = st.sets(st.integers(0, 53), max_size=20)


def reference_strings(hot, hand: int, table: int, rocket_kickers: bool) -> list[str]:
    """Rule 12: each legal play once as ranks 3 -> R, the list in the order of rank sequences."""
    plays = hot.legal_plays(hand, table, rocket_kickers)
    ranks = sorted(doudizhu.ranks_of_counts(hot.play_counts(p)) for p in plays)
    return [cardlib.format_ranks(r) for r in ranks]


def reference_counts(text: str) -> int:
    values, are_cards = cardlib.parse_cards_or_ranks(text)
    return doudizhu.counts_of_ranks(cardlib.ranks_of(values) if are_cards else values)


def counts_of(ids) -> int:
    return doudizhu.counts_of_mask(cardlib.to_mask(ids))


@st.composite
def hands_and_tables(draw):
    """A hand, and a table: 0 (a free lead) or a play another hand of the same deck could lead."""
    hand = draw(card_sets)
    table = 0
    if draw(st.booleans()):
        other = draw(st.sets(st.integers(0, 53).filter(lambda c: c not in hand), min_size=1,
                             max_size=20))
        leads = doudizhu.hot.legal_plays(counts_of(other), 0, True)
        table = draw(st.sampled_from(sorted(leads)))
    return counts_of(hand), table


# --- the rank strings and their JSON text -----------------------------------------------------

@SETTINGS
@given(hand_table=hands_and_tables(), rocket_kickers=st.booleans())
def test_ddz_rule_12_rank_strings_equal_the_reference(hot, hand_table, rocket_kickers):
    hand, table = hand_table
    want = reference_strings(hot, hand, table, rocket_kickers)
    assert hot.legal_rank_strings(hand, table, rocket_kickers) == want
    text = hot.legal_moves_json(hand, table, rocket_kickers)
    assert text == json.dumps({"moves": want}, ensure_ascii=False)


def test_ddz_rule_12_each_distinct_play_once(hot):
    # four 3s and two 4s: 33 is the pair whether it takes spades or clubs; 3334 once, not per 3
    strings = hot.legal_rank_strings(counts_of(cardlib.parse_cards("3S 3H 3D 3C 4S 4H")), 0, False)
    assert len(strings) == len(set(strings))
    assert strings == ["3", "33", "333", "3333", "333344", "3334", "33344", "4", "44"]


def test_ddz_rule_12_order_is_rank_sequences_prefix_first(hot):
    # 3 < 4 < ... < A < 2 < B < R, and a prefix before what extends it (not ASCII: 2 < 3 < A < T)
    strings = hot.legal_rank_strings(doudizhu.parse_hand("3TTA2BR"), 0, False)
    assert strings == ["3", "T", "TT", "A", "2", "B", "BR", "R"]


@pytest.mark.parametrize("hand", ["3334445556667778889T", "33344455566677789TJQKA2BR"])
def test_ddz_rule_12_long_lists_equal_the_reference(hot, hand):
    # hundreds of plays: more than the compiled twin sorts in its C array (SORT_IN_C)
    counts = doudizhu.parse_hand(hand)
    want = reference_strings(hot, counts, 0, False)
    assert len(want) > 256
    assert hot.legal_rank_strings(counts, 0, False) == want
    assert json.loads(hot.legal_moves_json(counts, 0, False)) == {"moves": want}


def test_ddz_rule_12_no_legal_play_is_an_empty_list(hot):
    rocket = doudizhu.parse_hand("BR")
    table = hot.lead_reading(rocket, False)
    assert hot.legal_rank_strings(doudizhu.parse_hand("3333"), table, False) == []
    assert hot.legal_moves_json(doudizhu.parse_hand("3333"), table, False) == '{"moves": []}'


def test_ddz_rule_11b_rocket_as_kickers_only_with_the_option(hot):
    hand = doudizhu.parse_hand("3333BR")
    assert "3333BR" not in hot.legal_rank_strings(hand, 0, False)
    assert "3333BR" in hot.legal_rank_strings(hand, 0, True)


# --- the text parser ----------------------------------------------------------------------------

@st.composite
def hand_texts(draw):
    """A hand in either notation as a caller may write it: any case, spaces or commas, 10 for T."""
    ids = draw(st.sets(st.integers(0, 53), max_size=54))
    if draw(st.booleans()):
        tokens = cardlib.format_cards(ids).split()
        tokens = [t.replace("T", "10") if t[0] == "T" and draw(st.booleans()) else t for t in tokens]
        gaps = [" ", ", ", ",", "  "]
    else:
        ranks = cardlib.format_ranks(cardlib.ranks_of(ids))
        tokens = ["10" if c == "T" and draw(st.booleans()) else c for c in ranks]
        gaps = ["", "", " ", ","]
    text = ""
    for i, token in enumerate(tokens):
        text += (draw(st.sampled_from(gaps)) if i else "") + (token.lower() if draw(st.booleans()) else token)
    return text


@SETTINGS
@given(text=hand_texts())
def test_text_counts_reads_both_notations_as_the_reference(hot, text):
    assert hot.text_counts(text) == reference_counts(text)


@SETTINGS
@given(text=st.text(alphabet="33456TJQKA2BRbrSHDCshdcj10Xx ,\t", max_size=14)
       | st.text(max_size=6))
def test_text_counts_declines_whatever_the_reference_refuses(hot, text):
    try:
        want = reference_counts(text)
    except InvalidAction:
        assert hot.text_counts(text) == -1
        return
    got = hot.text_counts(text)
    if all(" " <= c <= "~" for c in text):
        assert got == want  # it declines only other characters than printable ASCII
    else:
        assert got in (want, -1)


@pytest.mark.parametrize("text, reason", [("3X", Reason.UNKNOWN_CARD), ("33333", Reason.DUPLICATE_CARD),
                                          ("BB", Reason.DUPLICATE_CARD), ("3S 3S", Reason.DUPLICATE_CARD),
                                          ("33S", Reason.UNKNOWN_CARD), ("1S", Reason.UNKNOWN_CARD),
                                          ("11S", Reason.UNKNOWN_CARD), ("3 1", Reason.UNKNOWN_CARD)])
def test_ddz_text_errors_come_from_the_reference(hot, text, reason):
    assert hot.text_counts(text) == -1
    with pytest.raises(InvalidAction) as error:
        doudizhu.legal_rank_strings(text, "")
    assert error.value.reason == reason


def test_text_counts_examples(hot):
    assert hot.text_counts("") == 0
    assert hot.text_counts("3S 10H, bj RJ") == doudizhu.parse_hand("3TBR")
    assert hot.text_counts("33 10 10,b") == doudizhu.parse_hand("33TTB")
    assert hot.text_counts(None) == -1
    assert hot.text_counts("3\t3") == -1  # declined: the reference reads it (as an unknown rank)


# --- the table's reading and the whole request --------------------------------------------------

@SETTINGS
@given(ids=st.sets(st.integers(0, 53), min_size=1, max_size=20), rocket_kickers=st.booleans())
def test_ddz_rule_11i_lead_reading_equals_choose_reading(hot, ids, rocket_kickers):
    counts = counts_of(ids)
    readings = doudizhu.classify(counts, Options(rocket_as_kickers=rocket_kickers))
    assert hot.lead_reading(counts, rocket_kickers) == doudizhu.choose_reading(readings, 0)[0]


@SETTINGS
@given(hand=card_sets, other=card_sets, lead=st.booleans(), rocket_kickers=st.booleans(),
       as_cards=st.booleans())
def test_ddz_rule_12_legal_rank_strings_from_texts(hot, hand, other, lead, rocket_kickers, as_cards):
    other = other - hand
    text = cardlib.format_cards if as_cards else (lambda ids: cardlib.format_ranks(cardlib.ranks_of(ids)))
    hand_text, last_text = text(hand), ("" if lead else text(other))
    options = Options(rocket_as_kickers=rocket_kickers)
    table = 0
    if last_text:
        table = doudizhu.choose_reading(doudizhu.classify(reference_counts(last_text), options), 0)[0]
    if last_text and not table:
        assert hot.legal_rank_strings_of_text(hand_text, last_text, rocket_kickers) is None
        assert hot.legal_moves_json_of_text(hand_text, last_text, rocket_kickers) is None
        with pytest.raises(InvalidAction):
            doudizhu.legal_rank_strings(hand_text, last_text, options)
        return
    want = reference_strings(hot, reference_counts(hand_text), table, rocket_kickers)
    assert hot.legal_rank_strings_of_text(hand_text, last_text, rocket_kickers) == want
    assert hot.legal_moves_json_of_text(hand_text, last_text, rocket_kickers) == json.dumps({"moves": want})
    assert doudizhu.legal_rank_strings(hand_text, last_text, options) == want


def test_ddz_rule_11i_table_read_as_when_led_on_the_fast_path(hot):
    # 333444555666 is the trio straight 3456 when led (largest body): only 4567 and the rocket beat it
    assert hot.legal_rank_strings_of_text("444555666777BR", "333444555666", False) == ["444555666777", "BR"]
    # a declared reading goes the reference way
    assert doudizhu.legal_rank_strings("4445556667778", "333444555666", last_kind="airplane_singles") \
        == ["444555666777", "445556667778"]


def test_ddz_rule_12_fast_path_declines_and_the_reference_answers(hot):
    assert hot.legal_rank_strings_of_text("33", "\t", False) is None  # blank, but not spaces only
    assert doudizhu.legal_rank_strings("33", "\t") == ["3", "33"]
    assert hot.legal_rank_strings_of_text("33", "   ", False) == ["3", "33"]
    assert hot.legal_rank_strings_of_text("33", ",", False) is None  # no card: not a combination
    with pytest.raises(InvalidAction) as error:
        doudizhu.legal_rank_strings("33", ",")
    assert error.value.reason == Reason.NOT_A_COMBINATION
    assert hot.legal_rank_strings_of_text("33", "34", False) is None
