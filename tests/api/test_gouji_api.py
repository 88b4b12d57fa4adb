"""够级 through the API and the CLI: a LegalActions answer kept within its budget with grouped hints,
`referee check` and `referee legal` as JSON lines, and whole 局 played by bots holding one
credential a seat."""
from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from referee.core import cards as cardlib
from referee.core.games.gouji import game as g
from referee.core.games.gouji import rules
from referee.core.registry import register, unregister
from referee.service import bots
from referee.service.credentials import bearer
from referee.v1 import referee_service_pb2 as pb


def _big_hand() -> int:
    """A 36-card hand of the bench sample with the most free leads (1,079)."""
    rnd = random.Random(20)
    hands = [cardlib.to_mask(rnd.sample(range(216), 36)) for _ in range(200)]
    return max(hands, key=lambda h: len(rules.hot.free_leads(*rules.counts_of_mask(h))))


class BigHand(g.Gouji):
    """够级 dealt straight into play with seat 0 leading the sample's biggest free lead."""

    id = "gouji-big-hand"

    def _deal(self, options, seed, entropy, num_seats, match):
        return g.new_state(*_first(), options, seed, entropy, match)


@pytest.fixture
def big_hand():
    game = register(BigHand())
    yield game
    unregister(game.id)


def test_gouji_legal_actions_past_the_budget_are_truncated_with_grouped_hints(stub, big_hand):
    deal = stub.Deal(pb.DealRequest(game=big_hand.id, seed=b"big"))
    seat0 = (bearer(deal.seat_credentials[0]),)
    answer = stub.LegalActions(pb.LegalActionsRequest(state=deal.state, seat=0), metadata=seat0)
    every = big_hand.legal_actions(g.new_state(*_first()), 0)
    assert len(every) == 1079 and answer.truncated and 0 < len(answer.actions) < len(every)
    assert answer.ByteSize() <= 64 << 10  # a JudgeBatch item's budget
    counts = rules.counts_of_mask(_big_hand())
    assert list(answer.groups) == [grp.text() for grp in rules.grouped_leads(counts)]
    grouped = sorted(p for grp in rules.grouped_leads(counts) for p in grp.plays())
    assert grouped == sorted(rules.hot.free_leads(*counts))  # the groups hold every play once
    for legal in list(answer.actions)[::97]:
        assert stub.Validate(pb.ValidateRequest(state=deal.state, action=legal.action), metadata=seat0).legal
    small = stub.LegalActions(pb.LegalActionsRequest(state=deal.state, seat=1), metadata=(
        bearer(deal.seat_credentials[1]),))
    assert not small.truncated and not small.groups and not small.actions  # not awaited


def _first():
    """Seat 0's big hand and the rest dealt to the others, seat 0 leading."""
    hand = _big_hand()
    rest = [c for c in range(216) if not hand >> c & 1]
    return [hand] + [cardlib.to_mask(rest[k * 36:(k + 1) * 36]) for k in range(5)], 0


def _cli(*args, lines):
    out = subprocess.run([sys.executable, "-m", "referee.service.cli", *args], input="\n".join(lines) + "\n",
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return [json.loads(line) for line in out.stdout.splitlines()]


def test_gouji_referee_check_jsonl_worked_examples_and_errors():
    lines = [json.dumps(r) for r in (
        {"id": 7, "play": "RJ RJ TH TS TD", "table": "BJ BJ 9H 9S 9D", "options": {"option1": False}},
        {"id": 8, "play": "RJ RJ 8H 8S 8D", "table": "BJ BJ 9H 9S 9D"},  # 3.3: does not beat
        {"id": 9, "play": "9S 9H 9D 9C 9S", "table": "2S 2H 8S 8H 8D"},  # 3.3: five 9s beat
        {"play": "5S 6S", "table": ""},
        {"id": 1, "play": "XX", "table": ""},
        {"id": 2, "play": "RJ", "table": "", "options": {"no_such": True}},
        {"id": 3, "play": "5S 5S 5S 5S 5S", "table": ""})] + ["not json"]
    answers = _cli("check", "--game", "gouji", "--jsonl", lines=lines)
    assert answers[0] == {"id": 7, "legal": True, "beats": True, "gouji": True}
    assert answers[1] == {"id": 8, "legal": True, "beats": False, "gouji": True}
    assert answers[2] == {"id": 9, "legal": True, "beats": True, "gouji": False}
    assert answers[3] == {"legal": False, "beats": False, "gouji": False}
    assert [a["id"] for a in answers[4:7]] == [1, 2, 3] and all("error" in a for a in answers[4:])


def test_gouji_referee_legal_jsonl_with_the_duitou_context():
    lines = [json.dumps({"hand": "QS QH QD 2S 4S 5H", "last": "JS JH JD JC", "context": {"duitou": "1"}}),
             json.dumps({"hand": "QS QH QD 2S 4S 5H", "last": "JS JH JD JC"}),
             json.dumps({"hand": "5S 5H", "last": ""}),
             json.dumps({"hand": "5S", "last": "", "context": {"nope": "1"}})]
    answers = _cli("legal", "--game", "gouji", "--jsonl", lines=lines)
    assert "2QQQ" in answers[0]["moves"] and "2QQQ" not in answers[1]["moves"]
    assert answers[2] == {"moves": ["5", "55"]} and "error" in answers[3]


def test_gouji_bots_play_a_whole_ju_through_the_api(stub):
    rnd = random.Random(5)
    played, rounds, counted, totals = None, 0, 0, [0] * 6
    while True:
        played = bots.play_round(stub, rnd, game="gouji", seed=None if played else b"ju", illegal_rate=0.05,
                                 previous=played, card_ids=216, kinds=g.GOUJI.kind_names())
        settlement, match = played.score.settlement, played.score.match
        assert sum(settlement.points) == 0
        rounds += 1
        if not match.void_round:
            totals = [a + b for a, b in zip(totals, settlement.points)]
            counted += 1
        assert list(match.totals) == totals
        if match.over:
            break
        assert rounds < 30
    assert match.round + 1 == counted
    chuan_san_hu = {b.name: b.value for b in settlement.breakdown}["chuan_san_hu"]
    assert counted == 5 or chuan_san_hu == 1  # five 回合, or a 串三户 ended the 局 (15.4)
