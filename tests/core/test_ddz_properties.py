"""Properties (hypothesis): notation round trips, the seeded stream, and random playouts that
check at every step the game contract (tests/contract/game_contract.py: cards conserved, views
and events hide the secrets, listed actions legal, refusals change nothing, pack round trip)
and Dou Dizhu's own invariants (spec rules 1-18): the card zones against the state's own
fields, the kitty, the played cards, random actions judged against the legal-action list, the
settlement in every scoring mode."""
import dataclasses
import hashlib
import random
import struct

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from game_contract import check_step

from referee.core import cards as cardlib
from referee.core import rng
from referee.core.games.doudizhu import rules as doudizhu
from referee.core.games.doudizhu.rules import BID, DOUDIZHU, Options
from referee.core.errors import IllegalAction, InvalidAction, Reason, RefereeError
from referee.core.game import ABANDON, PASS, PLAY, Action

ALL_CARDS = (1 << 54) - 1
# malformed input: refused with InvalidAction; every other reason with IllegalAction
MALFORMED = {Reason.MALFORMED_REQUEST, Reason.UNKNOWN_CARD, Reason.DUPLICATE_CARD, Reason.BAD_OPTION,
             Reason.BAD_SEAT_COUNT, Reason.BAD_SEAT, Reason.BAD_ACTION, Reason.STATE_TOKEN_INVALID,
             Reason.BAD_SEED}
card_sets = st.sets(st.integers(0, 53), min_size=1, max_size=54)


# --- notation ---------------------------------------------------------------------------------

@given(card_sets)
def test_cards_format_parse_round_trip(ids):
    text = cardlib.format_cards(ids)
    parsed = cardlib.parse_cards(text)
    assert set(parsed) == ids and len(parsed) == len(ids)
    assert cardlib.format_cards(parsed) == text
    assert cardlib.parse_cards(text.lower()) == parsed
    assert cardlib.parse_cards(text.replace("T", "10")) == parsed


@given(card_sets, st.randoms(use_true_random=False))
def test_rank_string_round_trip(ids, rnd):
    ranks = cardlib.ranks_of(ids)
    text = cardlib.format_ranks(ranks)
    assert len(text) == len(ids)
    assert cardlib.parse_ranks(text) == ranks
    shuffled = list(text)
    rnd.shuffle(shuffled)
    assert cardlib.parse_ranks("".join(shuffled)) == ranks
    assert cardlib.format_ranks(cardlib.parse_ranks(text)) == text


@given(card_sets)
def test_ddz_hand_by_cards_equals_hand_by_ranks(ids):
    by_cards = doudizhu.parse_hand(cardlib.format_cards(ids))
    by_ranks = doudizhu.parse_hand(cardlib.format_ranks(cardlib.ranks_of(ids)))
    assert by_cards == by_ranks == doudizhu.counts_of_mask(cardlib.to_mask(ids))
    assert doudizhu.ranks_of_counts(by_ranks) == cardlib.ranks_of(ids)


def test_ddz_hand_with_more_cards_than_a_deck_is_refused():
    for text in ("33333", "BB", "RR", "3S 3S"):
        with pytest.raises(InvalidAction) as error:
            doudizhu.parse_hand(text)
        assert error.value.reason == Reason.DUPLICATE_CARD


# --- the seeded stream (rule 1, rng.py) ------------------------------------------------------

def documented_shuffle(key, label, items):
    """rng.py's docstring, written again: sha256 blocks of 4 words, rejection, Fisher-Yates."""
    words = []

    def word():
        if not words:
            block = len(documented_shuffle.blocks)
            digest = hashlib.sha256(key + label.encode() + block.to_bytes(8, "big")).digest()
            documented_shuffle.blocks.append(block)
            words.extend(reversed(struct.unpack(">4Q", digest)))
        return words.pop()

    def randbelow(n):
        limit = (1 << 64) // n * n
        while True:
            w = word()
            if w < limit:
                return w % n

    documented_shuffle.blocks = []
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = randbelow(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


@settings(max_examples=30)
@given(st.binary(min_size=1, max_size=40), st.binary(max_size=20))
def test_rng_deal_matches_the_documented_algorithm(seed, entropy):
    key = hashlib.sha256(b"referee/v1/deal" + struct.pack(">I", len(seed)) + seed
                         + struct.pack(">I", len(entropy)) + entropy).digest()
    assert rng.deal_key(seed, entropy) == key
    deck = documented_shuffle(key, "deal/0", range(54))
    state = DOUDIZHU.deal(Options(first_bidder=0), seed, entropy)
    assert state.hands == tuple(cardlib.to_mask(deck[17 * s:17 * s + 17]) for s in range(3))
    assert state.kitty == cardlib.to_mask(deck[51:])


@settings(max_examples=30)
@given(st.binary(min_size=1, max_size=40), st.binary(max_size=20), st.binary(max_size=20))
def test_rng_same_seed_and_entropy_same_deal_other_entropy_other_deal(seed, entropy, other):
    a = DOUDIZHU.deal(Options(), seed, entropy)
    b = DOUDIZHU.deal(Options(), seed, entropy)
    assert (a.hands, a.kitty, a.first_bidder) == (b.hands, b.kitty, b.first_bidder)
    if other != entropy:
        c = DOUDIZHU.deal(Options(), seed, other)
        assert (c.hands, c.kitty) != (a.hands, a.kitty)


@given(st.binary(max_size=64))
def test_rng_commitment_is_sha256(seed):
    assert rng.commitment(seed) == hashlib.sha256(seed).digest()


def test_rng_new_seed_is_32_fresh_bytes():
    seeds = {rng.new_seed() for _ in range(8)}
    assert len(seeds) == 8 and all(len(s) == 32 for s in seeds)


# --- random playouts --------------------------------------------------------------------------

def expected_legal(state, action, legal):
    """Whether ``action`` should be legal, from the legal-action list (suits never matter)."""
    if action.kind == PLAY:
        if cardlib.to_mask(action.cards) & ~state.hands[action.seat]:
            return False
        ranks = cardlib.format_ranks(cardlib.ranks_of(action.cards))
        return ranks in {cardlib.format_ranks(cardlib.ranks_of(a.cards))
                         for a in legal if a.kind == PLAY}
    return any(a.kind == action.kind and a.value == action.value for a in legal)


def candidate_actions(state, rnd):
    """Random actions, legal or not, for the seat to act and for a seat that is not."""
    seat = state.to_act[0]
    hand = cardlib.from_mask(state.hands[seat])
    out = [Action(seat, PASS), Action(seat, BID, value=rnd.randint(0, 4))]
    for _ in range(4):
        size = rnd.choice([1, 1, 2, 2, 3, 4, 5, 6, 8])
        out.append(Action(seat, PLAY, tuple(rnd.sample(hand, min(size, len(hand))))))
    others = cardlib.from_mask(ALL_CARDS & ~state.hands[seat])
    out.append(Action(seat, PLAY, (rnd.choice(hand), rnd.choice(others))))
    out.append(Action((seat + 1) % 3, PLAY, (rnd.choice(hand),)))
    out.append(Action((seat + 2) % 3, PASS))
    return out


def check_conservation(state, played):
    """The cards, from the state's own fields (not the game's card_zones, which must agree)."""
    zones = DOUDIZHU.card_zones(state)
    assert sum(len(z) for z in zones.values()) == 54
    assert cardlib.to_mask(c for z in zones.values() for c in z) == ALL_CARDS
    union = 0
    parts = list(state.hands) + [played]
    if state.landlord < 0:  # the kitty is apart until a landlord takes it
        parts.append(state.kitty)
    for part in parts:
        assert union & part == 0
        union |= part
    assert union == ALL_CARDS
    if state.landlord >= 0:
        assert state.kitty.bit_count() == 3
        assert state.kitty & ~(state.hands[state.landlord] | played) == 0


def check_settlement(state):
    settlements = []
    for scoring in ("points", "coins_fixed_fee", "coins_rake"):
        options = dataclasses.replace(state.options, scoring=scoring, room_coefficient=1000,
                                      room_fee=50)
        settlement = DOUDIZHU.settle(state._replace(options=options))
        assert sum(settlement.points) + settlement.house == 0
        if scoring != "points":
            assert len(settlement.seat_values.get("coins", ())) == 3
            assert sum(settlement.seat_values.get("coins", ())) + settlement.values.get("coins_house", 0) == 0
            assert settlement.values.get("coins_house", 0) >= 0
        settlements.append(settlement)
    points = settlements[0]
    if state.abandoned >= 0:
        assert points.house > 0 and points.points[state.abandoned] == -points.house
    else:
        assert points.house == 0
        for seat in range(3):
            assert (points.points[seat] > 0) == (seat in points.winners)
        assert (state.winner == state.landlord) == (points.winners == (state.landlord,))
    return settlements


def playout(seed, entropy, options, rnd, abandon_chance=0.0, max_steps=400):
    """Play random legal actions, checking every invariant at every step; return the actions."""
    state = DOUDIZHU.deal(options, seed, entropy)
    events = DOUDIZHU.deal_events(state)
    played, actions = 0, []
    for _ in range(max_steps):
        check_step(DOUDIZHU, state, events, rnd)
        check_conservation(state, played)
        assert state.played == played
        if state.finished:
            check_settlement(state)
            return state, actions
        assert len(state.to_act) == 1
        seat = state.to_act[0]
        pairs = DOUDIZHU.legal_actions(state, seat)
        legal = [a for a, _ in pairs]
        for action, combo in pairs:
            if action.kind == PLAY:
                verdict = DOUDIZHU.check(state, action)
                assert verdict.combo.kind == combo.kind == action.declared
                assert verdict.combo.ranks == cardlib.ranks_of(action.cards)
        packed = DOUDIZHU.pack(state)
        for action in candidate_actions(state, rnd):
            verdict = DOUDIZHU.check(state, action)
            assert verdict.legal == (action.seat == seat and expected_legal(state, action, legal)), \
                (action, verdict)
            if not verdict.legal:
                assert verdict.reason != Reason.OK and verdict.message
                with pytest.raises(RefereeError) as error:
                    DOUDIZHU.apply(state, action)
                assert error.value.reason == verdict.reason
                assert isinstance(error.value, InvalidAction if verdict.reason in MALFORMED else IllegalAction)
                assert DOUDIZHU.unpack(packed) == state
        for action in legal if len(legal) <= 40 else rnd.sample(legal, 10):  # every one applies
            after, _ = DOUDIZHU.apply(state, action)
            assert after.step == state.step + 1
        if rnd.random() < abandon_chance:
            action = Action(rnd.randrange(3), ABANDON)
        else:
            action = rnd.choice(legal)
        state, events = DOUDIZHU.apply(state, action)
        actions.append(action)
        for event in events:
            if event.type == "PLAY":
                played |= cardlib.to_mask(event.cards)
            elif event.type == "REDEAL":
                played = 0
    raise AssertionError(f"no end after {max_steps} steps")


def replay(seed, entropy, options, actions):
    state = DOUDIZHU.deal(options, seed, entropy)
    states, digests = [state], [DOUDIZHU.digest(state)]
    for action in actions:
        state, _ = DOUDIZHU.apply(state, action)
        states.append(state)
        digests.append(DOUDIZHU.digest(state))
    return states, digests


options_strategy = st.builds(Options, rocket_as_kickers=st.booleans(),
                             scoring=st.sampled_from(["points", "coins_fixed_fee", "coins_rake"]),
                             room_coefficient=st.sampled_from([1, 1000]),
                             room_fee=st.sampled_from([0, 50]),
                             first_bidder=st.sampled_from([-1, 0, 1, 2]))


@settings(max_examples=50, deadline=None)
@given(st.binary(min_size=1, max_size=32), st.binary(max_size=8), options_strategy,
       st.integers(0, 2 ** 32), st.sampled_from([0.0, 0.0, 0.02]))
def test_ddz_random_playouts_keep_every_invariant(seed, entropy, options, chooser, abandon_chance):
    final, actions = playout(seed, entropy, options, random.Random(chooser), abandon_chance)
    assert replay(seed, entropy, options, actions)[0][-1] == final


@pytest.mark.parametrize("first_seed", range(0, 40, 10))
def test_ddz_playouts_from_many_seeds_finish_and_replay(first_seed):
    for n in range(first_seed, first_seed + 10):
        rnd = random.Random(n)
        seed = n.to_bytes(4, "big")
        final, actions = playout(seed, b"", Options(), rnd)
        assert final.winner >= 0 and final.hands[final.winner] == 0
        assert all(h for s, h in enumerate(final.hands) if s != final.winner)
        states, _ = replay(seed, b"", Options(), actions)
        assert states[-1] == final
