"""川牌 whole hands played with random legal actions (hypothesis: seeds, seat counts 2-7, options
and choices), checking at every step the game contract (tests/contract/game_contract.py: cards
conserved through ``card_zones``, views and events hide the secrets, every listed action legal,
refusals change nothing, pack/unpack round trip, the packed size within ``state_bytes``) and the
game's own invariants: a seat the rules oblige to take (5.4, 5.6a, 3.5, 5.6) has no PASS and its
PASS is refused with MUST_TAKE, and wins when a take can (P-9); a listed discard never breaks a
pair (5.5); a 7th player is never awaited (4.6); the stock only shrinks. Every hand ends,
zero-sum, and starts the next one."""
import dataclasses
import random

import pytest

from game_contract import MAX_STEPS, check_next_round, check_settlement, check_step, playout
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.core.game import ABANDON, PASS, Action
from referee.core.games.chuanpai import analysis as an
from referee.core.games.chuanpai import game as g
from referee.core.games.chuanpai.deal import Options

G = g.CHUANPAI

OPTIONS = st.builds(Options, deck=st.sampled_from(("84", "84_plus_2_wild")), same_points=st.booleans(), winner_leads=st.booleans(),
                    no_replacements=st.booleans(), clockwise=st.booleans(), qi_is_peng=st.booleans(),
                    no_violation_penalty=st.booleans(), next_toujia=st.booleans(), an_face_down=st.booleans())


def check_rules(state) -> None:
    """The game's own invariants on one state (see the module docstring)."""
    assert g.seventh(state) < 0 or g.seventh(state) not in state.to_act
    if state.phase == g.CLAIM:
        for seat in state.to_act:
            legal = [a.kind for a, _ in G.legal_actions(state, seat)]
            assert legal and set(legal) - {PASS}, "a seat asked that cannot use the card (P-2)"
            if g.obligation(state, seat):
                assert PASS not in legal and G.check(state, Action(seat, PASS)).reason == g.MUST_TAKE
                if g.must_win(state, seat):  # P-9: a compulsory take that can win must win
                    assert all(a.kind == g.WIN or g._completes(state, seat, a) for a, _ in G.legal_actions(state, seat))
            else:
                assert legal[0] == PASS
    elif state.phase == g.TURN and state.card < 0:
        seat = state.to_act[0]
        allowed = an.discardable(g.counts(state.hands[seat]))
        assert all(g.KIND_OF[a.cards[0]] in allowed for a, _ in G.legal_actions(state, seat))


def play(seed: bytes, seats: int, options: Options, rnd: random.Random, abandon: float = 0.0):
    state = G.deal(options, seed, b"", seats)
    events = G.deal_events(state)
    before, steps = None, 0
    while True:
        check_step(G, state, events, rnd, before)
        assert len(G.pack(state)) <= G.state_bytes
        if state.finished:
            break
        check_rules(state)
        assert steps < MAX_STEPS
        if rnd.random() < abandon:
            action = Action(rnd.randrange(seats), ABANDON)
        else:
            action = rnd.choice(G.legal_actions(state, rnd.choice(state.to_act)))[0]
        before = state
        state, events = G.apply(state, action)
        assert state.pos >= before.pos
        steps += 1
    check_settlement(G, state)
    assert sum(G.settle(state).points) == 0
    check_next_round(G, state)
    return state


@settings(max_examples=60, deadline=None)
@given(seed=st.binary(min_size=1, max_size=8), seats=st.integers(2, 7), options=OPTIONS,
       choices=st.integers(0, 2**32))
def test_chuanpai_playouts_random_legal_actions_to_the_end(seed, seats, options, choices):
    if seats == 7:  # C-7: the bonus needs seven seats
        options = dataclasses.replace(options, seventh_bonus=choices % 3)
    play(seed, seats, options, random.Random(choices), abandon=0.002)


@settings(max_examples=8, deadline=None)
@given(seed=st.binary(min_size=1, max_size=8), choices=st.integers(0, 2**32), options=OPTIONS)
@pytest.mark.parametrize("seats", range(2, 8))
def test_chuanpai_p_12_playouts_of_the_86_card_deck_at_every_seat_count(seats, seed, choices, options):
    """C-2 ``84_plus_2_wild`` (2.3, P-12) with the other options drawn: every card of the 86 is
    where ``card_zones`` says at every step (``check_step``), every hand ends zero-sum."""
    options = dataclasses.replace(options, deck="84_plus_2_wild")
    state = play(seed, seats, options, random.Random(choices), abandon=0.002)
    assert sorted(c for zone in G.card_zones(state).values() for c in zone) == list(range(86))


@settings(max_examples=30, deadline=None)
@given(seed=st.binary(min_size=1, max_size=8), seats=st.integers(2, 7), choices=st.integers(0, 2**32))
@pytest.mark.parametrize("deck", ["84", "84_plus_2_wild"])
def test_chuanpai_playouts_greedy_takers_reach_guo_cards_and_wins(seed, seats, choices, deck):
    """Bots that win when they can and take often: more 过 cards, 扛 and wins than random play."""
    rnd = random.Random(choices)
    state = G.deal(Options(deck=deck), seed, b"", seats)
    while not state.finished:
        check_rules(state)
        seat = rnd.choice(state.to_act)
        legal = [a for a, _ in G.legal_actions(state, seat)]
        wins = [a for a in legal if a.kind == g.WIN]
        takes = [a for a in legal if a.kind in g.TAKES + (g.LAY,)]
        action = wins[0] if wins else rnd.choice(takes) if takes and rnd.random() < 0.8 else rnd.choice(legal)
        before = state
        state, events = G.apply(state, action)
        check_step(G, state, events, None, before)
    check_settlement(G, state)


@settings(max_examples=10, deadline=None)
@given(seed=st.binary(min_size=1, max_size=8), seats=st.integers(2, 7))
def test_chuanpai_contract_playout(seed, seats):
    """The contract suite's own playout (``game_contract.playout``, ABANDON included) on the
    unregistered game."""
    playout(G, seed, random.Random(seed), seats=seats)


def test_chuanpai_match_of_hands_carries_the_next_toujia():
    """A match with no end (4.2, 6.2): every hand carries the next 头家; totals stay zero-sum."""
    rnd = random.Random(7)
    for seats in range(2, 8):
        state = play(b"match-%d" % seats, seats, Options(), rnd)
        for _ in range(3):
            match = G.next_round(state)
            state = G.deal(Options(), b"next-%d-%d" % (seats, match.round), b"", seats, match)
            if match.carry is not None and not match.carry.by_turn:
                assert state.toujia == match.carry.seat
            while not state.finished:
                state, _ = G.apply(state, rnd.choice(G.legal_actions(state, rnd.choice(state.to_act)))[0])
            assert sum(G.next_round(state).totals) == 0
