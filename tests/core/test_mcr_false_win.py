"""国标麻将 rule 16: a false win 诈和 is refused and nothing changes; under false_win_penalty it
costs the claimant the penalty to each other seat at the end of the hand, the hand going on."""
from __future__ import annotations

import random

import pytest

from referee.core.errors import IllegalAction
from referee.core.game import PASS, Action
from referee.core.games.mcr.rules import MAX_FALSE_WINS, NOT_WIN
from referee.core.registry import get_game

MCR = get_game("mcr")
PENALTY = MCR.make_options("", {"false_win_penalty": 5})


def _window(options, seed=b"false win"):
    rnd = random.Random(16)
    state = MCR.deal(options, seed, b"")
    while MCR.phase_name(state) != "claim":
        legal = [a for a, _ in MCR.legal_actions(state, state.to_act[0]) if a.kind != "WIN"]
        state, _ = MCR.apply(state, rnd.choice(legal))
    return state


def _to_end(state):
    while not state.finished:
        state, _ = MCR.apply(state, Action(state.to_act[0], "TIMEOUT"))
    return state


def test_rule_16_a_false_win_is_refused_and_nothing_changes_by_default():
    state = MCR.deal(MCR.make_options(), b"false win", b"")
    seat = state.to_act[0]
    verdict = MCR.check(state, Action(seat, "WIN"))
    assert not verdict.legal and verdict.reason == NOT_WIN
    with pytest.raises(IllegalAction):
        MCR.apply(state, Action(seat, "WIN"))


def test_rule_16_a_false_win_on_a_turn_is_penalized_and_the_hand_goes_on():
    state = MCR.deal(PENALTY, b"false win", b"")
    seat = state.to_act[0]
    after, events = MCR.apply(state, Action(seat, "WIN"))
    assert [(e.type, e.seat, dict(e.values)) for e in events] == [("FALSE_WIN", seat, {"penalty": 5})]
    assert after.to_act == (seat,) and after.hands == state.hands and after.false_wins[seat] == 1
    settlement = MCR.settle(_to_end(after))
    assert settlement.outcome == "drawn"  # defaults only: nobody wins, the penalty alone is paid
    assert settlement.points == tuple(-15 if s == seat else 5 for s in range(4))
    assert ("false_win_penalty", 5) in settlement.breakdown


def test_rule_16_a_false_win_in_a_claim_window_counts_as_a_pass_and_is_told_when_it_closes():
    state = _window(PENALTY)
    seat, others = state.to_act[0], state.to_act[1:]
    verdict = MCR.check(state, Action(seat, "WIN"))
    assert verdict.legal and verdict.action == Action(seat, PASS, (state.tile,))
    after, events = MCR.apply(state, Action(seat, "WIN"))
    if others:  # secret until the window closes
        assert not events and after.window.answer_of(seat) == (PASS, state.tile)
    for other in others:
        after, events = MCR.apply(after, Action(other, PASS))
    assert events[0].type == "FALSE_WIN" and events[0].seat == seat and after.false_wins[seat] == 1


def test_rule_16_the_penalty_adds_to_a_real_win_and_balances():
    state = MCR.deal(PENALTY, b"false win", b"")
    seat = state.to_act[0]
    state, _ = MCR.apply(state, Action(seat, "WIN"))
    state, _ = MCR.apply(state, Action(seat, "WIN"))
    final = _to_end(state)
    settlement = MCR.settle(final)
    assert sum(settlement.points) == 0 and final.false_wins[seat] == 2
    assert settlement.points[seat] == -30


def test_rule_16_at_most_15_false_wins_a_seat_then_refused():
    state = MCR.deal(PENALTY, b"false win", b"")
    seat = state.to_act[0]
    for _ in range(MAX_FALSE_WINS):
        state, _ = MCR.apply(state, Action(seat, "WIN"))
    assert not MCR.check(state, Action(seat, "WIN")).legal
    assert MCR.unpack(MCR.pack(state)) == state and MCR.codec.conforms(state) == []


def test_a_version_2_payload_opens_with_no_false_wins():
    """A token of the release before rule 16 (state version 2: no false_wins, four options) opens."""
    import marshal

    state = MCR.deal(MCR.make_options(), b"v2", b"")
    packed = MCR.pack(state)
    assert packed[0] == 3
    old = marshal.loads(packed[1:])
    options = old[0][:-1]  # without false_win_penalty
    v2 = bytes([2]) + marshal.dumps((options,) + tuple(old[1:-1]), 2)
    assert MCR.unpack(v2) == state
