"""国标麻将 full-hand playouts with seeded bots (greedy ones reach wins, kongs and robbing that
random play rarely does): the game contract at every step (tests/contract/game_contract.py:
cards conserved, views and events hide the secrets, every listed action legal, refusals change
nothing, pack round trip), and MCR's own invariants: the card zones the game declares are the
tiles found in the state itself (hands + melds + rivers + live wall + flowers), a claim window
lists PASS first, a sample of actions that are not listed is refused. Every hand: the payments
follow rule 11. Claim windows are answered in a random order of the awaited seats.
"""
import random
from collections import Counter

import pytest
from game_contract import check_step

from referee.core.game import ABANDON, PASS, Action
from referee.core.games.mcr.rules import CHOW, CLAIM, DISCARD, KONG, MCR, PUNG, ROB, TURN, WIN, Options, tile_kind

# kinds tried at random: MCR's own, and kinds of no MCR phase (PLAY, BID, DRAW); ABANDON left out
RANDOM_KINDS = (PASS, "PLAY", "BID", "DRAW", DISCARD, CHOW, PUNG, KONG, WIN)


def all_tiles(state):
    tiles = [t for h in state.hands for t in range(144) if (h >> t) & 1]
    tiles += [t for seat in state.melds for m in seat for t in m[3:]]
    tiles += [t for r in state.discards for t in r] + [t for f in state.flowers for t in f]
    return tiles + list(state.wall[state.front:state.back])


def keep_score(hand: int, kind: int) -> int:
    """How much a tile kind is worth keeping: copies held, neighbours of its suit."""
    count = lambda k: (hand >> (4 * k) & 15).bit_count() if 0 <= k < 34 else 0  # noqa: E731
    score = 4 * (count(kind) - 1)
    if kind < 27:
        rank = kind % 9
        for d, weight in ((1, 2), (2, 1)):
            score += weight * (count(kind - d) if rank >= d else 0)
            score += weight * (count(kind + d) if rank + d <= 8 else 0)
    return score


def bot_choice(state, seat, legal, rnd: random.Random, style: str) -> Action:
    """``greedy``: win when it can, claim often, discard the least connected tile;
    ``random``: any legal action (a win still always taken)."""
    wins = [a for a, _ in legal if a.kind == WIN]
    if wins:
        return wins[0]
    if style == "random":
        return rnd.choice(legal)[0]
    claims = [a for a, _ in legal if a.kind not in (PASS, DISCARD)]
    if claims and rnd.random() < 0.6:
        return rnd.choice(claims)
    discards = [a for a, _ in legal if a.kind == DISCARD]
    if not discards:
        return next(a for a, _ in legal if a.kind == PASS)
    hand = state.hands[seat]
    return min(discards, key=lambda a: (keep_score(hand, tile_kind(a.cards[0])), rnd.random()))


def kinds(cards):
    return tuple(sorted(tile_kind(t) for t in cards))


def check_mcr_step(state, events, rnd):
    """The game contract, the declared card zones against the tiles of the state, and random
    actions legal only when they are a listed one (up to which copy of a tile)."""
    check_step(MCR, state, events, rnd)
    assert sorted(all_tiles(state)) == list(range(144))
    assert sorted(t for zone in MCR.card_zones(state).values() for t in zone) == list(range(144))
    assert len(set(state.to_act)) == len(state.to_act)
    if state.finished:
        assert state.to_act == ()
        return
    listed = set()
    for seat in state.to_act:
        legal = MCR.legal_actions(state, seat)
        listed.update((action.seat, action.kind, kinds(action.cards)) for action, _ in legal)
        if state.phase in (CLAIM, ROB):
            assert legal[0][0].kind == PASS
    for _ in range(3):
        cards = tuple(rnd.sample(range(144), rnd.choice((0, 1, 1, 2, 3))))
        action = Action(rnd.randrange(4), rnd.choice(RANDOM_KINDS), cards)
        verdict = MCR.check(state, action)
        if verdict.legal:
            resolved = verdict.action or action
            assert (resolved.seat, resolved.kind, kinds(resolved.cards)) in listed, (action, verdict)


def check_settlement(state):
    settlement = MCR.settle(state)
    assert sum(settlement.points) + settlement.house == 0
    if state.winner < 0:
        assert settlement.points == (0, 0, 0, 0) and settlement.outcome == "drawn"
        return settlement
    assert state.points >= 8 and state.total == state.points + len(state.flowers[state.winner])
    pay = 8 + state.total
    for seat in range(4):
        if seat == state.winner:
            expected = 3 * pay if state.payer < 0 else pay + 16
        else:
            expected = -pay if state.payer in (-1, seat) else -8
        assert settlement.points[seat] == expected
    assert (state.hands[state.winner].bit_count() + 3 * len(state.melds[state.winner])) == 14
    return settlement


def play(seed: bytes, rnd: random.Random, style: str, options=Options()):
    state = MCR.deal(options, seed)
    new = MCR.deal_events(state)
    actions, events = [], Counter(e.type for e in new)
    while not state.finished:
        check_mcr_step(state, new, rnd)
        seat = rnd.choice(state.to_act)
        action = bot_choice(state, seat, MCR.legal_actions(state, seat), rnd, style)
        state, new = MCR.apply(state, action)
        events.update(e.type for e in new)
        actions.append(action)
        assert len(actions) < 1000
    check_mcr_step(state, new, rnd)
    return state, actions, events


@pytest.mark.parametrize("style,seeds", [("greedy", range(0, 200)), ("random", range(1000, 1100))])
def test_random_full_hand_playouts(style, seeds):
    outcomes, events, fans = Counter(), Counter(), Counter()
    for n in seeds:
        rnd = random.Random(n)
        options = Options(dealer=n % 5 - 1, prevalent_wind=n % 4)
        seed = f"playout-{n}".encode()
        state, actions, hand_events = play(seed, rnd, style, options)
        settlement = check_settlement(state)
        outcomes[settlement.outcome] += 1
        events.update(hand_events)
        fans.update(name for name, _ in settlement.breakdown if name.startswith("fan_") and name != "fan_points")
    assert outcomes["drawn"] > 0
    if style == "greedy":  # the bots reach every kind of ending and every claim
        assert outcomes["self_drawn"] and outcomes["won_on_discard"], outcomes
        for kind in ("CHOW", "PUNG", "KONG", "FLOWER", "CLAIM_WINDOW", "DRAW", "DISCARD", "WIN"):
            assert events[kind], (kind, events)
        assert not events["PASS"], events  # a window's close tells only its outcome (rule 5)


def test_abandon_at_a_random_step_settles_zero_sum():
    for n in range(20):
        rnd = random.Random(n)
        state = MCR.deal(Options(), f"abandon-{n}".encode())
        for _ in range(rnd.randrange(1, 60)):
            if state.finished:
                break
            seat = rnd.choice(state.to_act)
            state, _ = MCR.apply(state, bot_choice(state, seat, MCR.legal_actions(state, seat), rnd, "greedy"))
        if state.finished:
            continue
        leaver = rnd.randrange(4)
        state, _ = MCR.apply(state, Action(leaver, ABANDON))
        settlement = MCR.settle(state)
        assert sum(settlement.points) == 0 and settlement.points[leaver] == -24
        assert state.phase not in (TURN, CLAIM, ROB)
