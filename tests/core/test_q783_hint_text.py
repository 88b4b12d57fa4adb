"""``referee legal --game q783 --jsonl``: the contract of issue 11 (cards with suits in, the
canonical rank strings of every distinct legal play out, errors as {"error": ...})."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.core.games.q783 import rules as q783
from referee.core.errors import InvalidAction, Reason
from referee.core.games.q783.rules import Q783

ISSUE_LINE = {"hand": "QH 7H 8H 3H 2S 2S KC", "last": "AS",
              "options": {"preset": "q783", "decks": 2, "two_low": False, "triple_bomb": False,
                          "double_q783": False, "ace_scores": False}}


def legal(hand: str, last: str = "", preset: str = "q783", **overrides) -> list[str]:
    return Q783.hint_strings(hand, last, Q783.make_options(preset, overrides))


def test_q783_legal_the_issue_example():
    assert legal("QH 7H 8H 3H 2S 2S KC", "AS") == ["2", "3", "7", "8", "Q", "Q783*"]


def test_q783_legal_rank_strings_are_high_to_low_in_the_preset_order():
    assert legal("QS 7H 8H 3H QD") == ["3", "7", "8", "Q", "Q783", "QQ"]
    assert legal("QS 7H 8H 3H QD", preset="378q") == ["3", "378Q", "7", "8", "Q", "QQ"]
    assert legal("QH QH 7H 7H 8H 8H 3H 3H", double_q783=True) == [
        "3", "33", "7", "77", "8", "88", "Q", "Q783*", "QQ", "QQ778833*"]
    # a mixed table: the pure Q783 and the mixed double beat it (a pure double needs two QH)
    assert legal("QH QS 7H 7H 8H 8H 3H 3H", "QD 7C 8C 3C", double_q783=True) == ["Q783*", "QQ778833"]


def test_q783_legal_sorted_by_plain_string_order_and_each_play_once():
    moves = legal("4S 4H 4D 4C 4S 6S 9S JS AS 2S 3S 8S 7S QS QH")
    assert moves == sorted(moves) and len(moves) == len(set(moves))
    assert "44444" in moves and "Q783*" in moves and "Q783" in moves
    assert legal("QS 7S 8S 3S QH 7H 8H 3H", "QD 7D 8D 3D", pure_suit_order=True) == ["Q783*"]


def test_q783_legal_score_cards_in_the_hand_are_ignored_and_passing_is_not_listed():
    assert legal("5S TH KD BJ RJ") == []
    assert legal("5S 4S", "QS") == []


@pytest.mark.parametrize("hand, last, overrides, reason", [
    ("QH", "QS 7S", {}, Reason.NOT_A_COMBINATION),  # a table that is no combination
    ("QH", "5S", {}, Reason.NOT_A_COMBINATION),  # a score card is never a play
    ("QS QS QS", "", {}, Reason.DUPLICATE_CARD),  # more copies than two packs hold
    ("QS QS", "", {"decks": 1}, Reason.DUPLICATE_CARD),
    ("QH XX", "", {}, Reason.UNKNOWN_CARD), ("Q783", "", {}, Reason.UNKNOWN_CARD),  # cards need suits
    ("QH", "", {"no_such_option": True}, Reason.BAD_OPTION),
])
def test_q783_legal_bad_input(hand, last, overrides, reason):
    with pytest.raises(InvalidAction) as refused:
        legal(hand, last, **overrides)
    assert refused.value.reason == reason


def test_q783_legal_jsonl_through_the_cli():
    lines = [json.dumps(ISSUE_LINE),
             json.dumps({"hand": "QH 7H 8H 3H 3S", "last": "", "options": {"preset": "378q"}}),
             json.dumps({"hand": "QH 7H 8H 3H", "options": {}}),  # last missing: a free lead
             json.dumps({"hand": "QH", "last": "QS 7S"}),
             json.dumps({"hand": "QH", "last": "", "options": {"bogus": 1}}),
             json.dumps({"hand": "QS QS QS", "last": ""}),
             "not json"]
    out = subprocess.run([sys.executable, "-m", "referee.service.cli", "legal", "--game", "q783", "--jsonl"],
                         input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=120)
    answers = [json.loads(line) for line in out.stdout.splitlines()]
    assert out.returncode == 0 and len(answers) == len(lines)
    assert answers[0] == {"moves": ["2", "3", "7", "8", "Q", "Q783*"]}
    assert answers[1] == {"moves": ["3", "33", "378Q", "378Q*", "7", "8", "Q"]}
    assert answers[2] == {"moves": ["3", "7", "8", "Q", "Q783*"]}
    assert all(set(a) >= {"error"} for a in answers[3:])
    assert [a.get("reason") for a in answers[3:6]] == ["NOT_A_COMBINATION", "BAD_OPTION", "DUPLICATE_CARD"]


@settings(max_examples=300, deadline=None)
@given(tokens=st.lists(st.sampled_from(["QH", "qh", "10S", "TS", "BJ", "rj", "5D", "2C", "AS", "3H", "Q", "X1",
                                         "7", "QH,", ",", "2S 2S"]), max_size=12),
       decks=st.sampled_from([1, 2]), removed=st.booleans())
def test_q783_card_text_reads_as_the_reference_parser(tokens, decks, removed):
    """``q783.parse_cards``'s dictionary walk answers as ``cards.parse_cards`` (the reference)."""
    overrides = {"decks": decks, "two_378q": "removed"} if removed else {"decks": decks}
    options = Q783.make_options("378q" if removed else "q783", overrides)
    text = " ".join(tokens)

    def answer(parse):
        try:
            return parse()
        except InvalidAction as error:
            return error.reason

    fast = answer(lambda: q783.parse_cards(text, options))
    reference = answer(lambda: q783._parsed_mask(text, decks, q783.rules_of(options)))
    assert fast == reference
