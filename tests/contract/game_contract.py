"""What every game must satisfy, as checks on one state, one step and one finished round.

The contract suite (test_core_contract.py, test_server_contract.py) runs them on every game of
the registry and on the toy game of the tests; a new game gets all of them by registering. A
game's own tests import this module (``import game_contract``: tests/conftest.py puts this folder
on the path) to run the same checks on the states their own bots reach.
"""
from __future__ import annotations

import random
from collections import Counter

from referee.core.errors import COMMON_REASONS, IllegalAction, RefereeError
from referee.core.game import ABANDON, Action, Game, View

MAX_STEPS = 5000  # no round of a registered game comes near: a playout past it does not end


def view_cards(view: View) -> set[int]:
    """Every card id a view shows."""
    shown = set(view.hand) | set(view.table_cards)
    for ids in view.public_cards.values():
        shown |= set(ids)
    for seat in view.seats:
        for ids in seat.cards.values():
            shown |= set(ids)
        for meld in seat.melds:
            shown |= set(meld.cards)
    return shown


def check_cards_conserved(game: Game, state) -> None:
    zones = game.card_zones(state)
    held = Counter(c for ids in zones.values() for c in ids)
    expected = Counter(game.all_cards(state))
    assert held == expected, (f"{game.id}: cards not conserved at step {state.step}: missing "
                              f"{sorted((expected - held).elements())}, extra {sorted((held - expected).elements())}")


def check_pack_round_trip(game: Game, state) -> None:
    packed = game.pack(state)
    again = game.unpack(packed)
    assert again == state, f"{game.id}: unpack(pack(state)) differs at step {state.step}"
    assert game.pack(again) == packed and game.digest(again) == game.digest(state)


def check_views(game: Game, state) -> list[View]:
    """Views of every seat and a spectator: equal to one-by-one views, documented keys, and no
    view shows another seat's secret cards, during the round or after it (a seat that forks a
    copy of the token and abandons must learn nothing: only the owner sees every hand)."""
    seats = tuple(range(-1, state.num_seats))
    views = game.views(state, seats)
    assert views == [game.view(state, s) for s in seats]
    phases = {p.name for p in game.phases}
    for v in views:
        assert v.phase in phases and len(v.seats) == state.num_seats and tuple(v.to_act) == tuple(state.to_act)
        assert set(v.counters) <= set(game.counters), f"undocumented counters {set(v.counters) - set(game.counters)}"
        assert set(v.public_cards) <= set(game.public_cards), set(v.public_cards) - set(game.public_cards)
        for sv in v.seats:
            assert set(sv.counters) <= set(game.seat_counters), set(sv.counters) - set(game.seat_counters)
            assert set(sv.cards) <= set(game.seat_cards), set(sv.cards) - set(game.seat_cards)
            assert not sv.role or sv.role in game.roles, sv.role
        assert [sv.hand_size for sv in v.seats] == [len(game.view(state, s).hand) for s in range(state.num_seats)]
    public = view_cards(views[0])
    for t in range(state.num_seats):
        secret = set(game.secret_cards(state, t))
        own = views[t + 1]
        # the game's secret is not empty by declaration: what t sees beyond the public is in it
        assert set(own.hand) - public <= secret, f"{game.id}: seat {t}'s hand is neither public nor secret"
        for v in views:
            if v.seat != t:
                leaked = view_cards(v) & secret
                assert not leaked, f"{game.id}: view of seat {v.seat} shows seat {t}'s secret cards {sorted(leaked)}"
    return views


def check_events(game: Game, state, events) -> None:
    """Events are documented, and an event's cards reach no seat whose secret they are unless
    the game lets that seat see them."""
    for e in events:
        info = game.event_types.get(e.type)
        assert info is not None, f"{game.id}: undocumented event {e.type}"
        assert set(e.values) <= set(info.values), f"{e.type}: undocumented values {set(e.values) - set(info.values)}"
        if not e.cards:
            continue
        seers = game.visible_to(e)
        for t in range(state.num_seats):
            secret = set(game.secret_cards(state, t)) & set(e.cards)
            if secret:
                assert seers is not None and seers <= {t}, (
                    f"{game.id}: {e.type} shows seat {t}'s secret cards to {seers or 'everybody'}")


def check_legal_actions(game: Game, state) -> None:
    """Every awaited seat has a legal action, every listed action passes check, the others have none."""
    kinds = {k.name for k in game.action_kinds}
    for seat in range(state.num_seats):
        legal = game.legal_actions(state, seat)
        if seat not in state.to_act:
            assert legal == [], f"{game.id}: seat {seat} is not awaited but has legal actions"
            continue
        assert legal, f"{game.id}: awaited seat {seat} has no legal action at step {state.step}"
        assert len({a for a, _ in legal}) == len(legal), "a legal action is listed twice"
        for action, _ in legal:
            assert action.kind in kinds
            verdict = game.check(state, action)
            assert verdict.legal, f"{game.id}: listed {action} refused: {verdict.reason} {verdict.message}"


def illegal_tries(game: Game, state, rnd: random.Random) -> list[Action]:
    """Actions the rules must refuse now: a seat that is not awaited, an unknown kind, a card
    another seat holds in secret."""
    tries = [Action(state.to_act[0], "NO_SUCH_KIND")]
    idle = [s for s in range(state.num_seats) if s not in state.to_act]
    legal = game.legal_actions(state, state.to_act[0])
    if idle and legal:
        tries.append(legal[0][0]._replace(seat=rnd.choice(idle)))
    with_cards = [a for a, _ in legal if a.cards]
    others = [c for t in range(state.num_seats) if t != state.to_act[0] for c in game.secret_cards(state, t)]
    if with_cards and others:
        action = rnd.choice(with_cards)
        tries.append(action._replace(cards=(rnd.choice(others),) + action.cards[1:]))
    return tries


def check_refusals(game: Game, state, rnd: random.Random) -> None:
    """A refused action raises with a documented reason and changes nothing."""
    reasons = set(COMMON_REASONS) | set(game.reasons)
    before = game.digest(state)
    for action in illegal_tries(game, state, rnd):
        verdict = game.check(state, action)
        assert not verdict.legal, f"{game.id}: {action} accepted"
        assert verdict.reason in reasons, f"{game.id}: undocumented reason {verdict.reason}"
        try:
            game.apply(state, action)
        except RefereeError as error:
            assert error.reason == verdict.reason
        else:
            raise AssertionError(f"{game.id}: apply took the refused {action}")
    assert game.digest(state) == before


def check_packed_size(game: Game, state) -> None:
    """Every state fits the game's sealed size: all its tokens have one length."""
    size = len(game.pack(state))
    assert size <= game.state_bytes, f"{game.id}: a packed state of {size} bytes, over state_bytes {game.state_bytes}"


def check_settlement(game: Game, state) -> None:
    settlement = game.settle(state)
    n = state.num_seats
    assert len(settlement.points) == n and set(settlement.winners) <= set(range(n))
    assert sum(settlement.points) + settlement.house == 0, f"{game.id}: settlement does not balance"
    if settlement.coins:
        assert len(settlement.coins) == n and sum(settlement.coins) + settlement.coins_house == 0


def check_next_round(game: Game, state) -> None:
    """A finished round starts the next round of its match (unless the match is over)."""
    if game.match_over(state):
        try:
            game.next_round(state)
        except IllegalAction as error:
            assert error.reason == "MATCH_OVER"
        else:
            raise AssertionError("next_round after the match ended")
        return
    match = game.next_round(state)
    points = game.settle(state).points
    assert match.round == state.match.round + 1
    assert list(match.totals) == [a + b for a, b in zip(state.match.totals, points)]
    nxt = game.deal(state.options, b"next round", b"", state.num_seats, match)
    assert nxt.match == match and not nxt.finished and nxt.step == 0


def check_step(game: Game, state, events=(), rnd: random.Random | None = None) -> None:
    """Every check of one state (after ``events``): a game's own playouts with its own bots
    call this too, so the contract also runs on the states only they reach."""
    check_cards_conserved(game, state)
    check_pack_round_trip(game, state)
    check_views(game, state)
    check_events(game, state, events)
    if not state.finished:
        check_legal_actions(game, state)
        if rnd is not None:
            check_refusals(game, state, rnd)


def choose(game: Game, state, rnd: random.Random, abandon: float) -> Action:
    seat = rnd.choice(state.to_act)
    if rnd.random() < abandon:
        return Action(rnd.randrange(state.num_seats), ABANDON)
    return rnd.choice(game.legal_actions(state, seat))[0]


def playout(game: Game, seed: bytes, rnd: random.Random, *, options=None, seats: int = 0,
            abandon: float = 0.005, full: bool = True):
    """Deal and play random legal actions to the end, checking the contract at every step
    (``full``: every check; else conservation, pack and settlement only). Returns (final
    state, actions, digests of every state)."""
    state = game.deal(options or game.make_options(), seed, b"contract", seats)
    events = game.deal_events(state)
    actions, digests = [], [game.digest(state)]
    while True:
        if full:
            check_step(game, state, events, rnd)
        else:
            check_cards_conserved(game, state)
            check_pack_round_trip(game, state)
        check_packed_size(game, state)
        if state.finished:
            break
        assert len(actions) < MAX_STEPS, f"{game.id}: the round did not end"
        action = choose(game, state, rnd, abandon)
        state, events = game.apply(state, action)
        actions.append(action)
        digests.append(game.digest(state))
    check_settlement(game, state)
    check_next_round(game, state)
    return state, actions, digests


def seeded_digests(game: Game, seed: bytes, choices: int) -> list[str]:
    """The digests of a round from ``seed`` with random legal choices seeded by ``choices``
    (the contract compares them across processes)."""
    state = game.deal(game.make_options(), seed, b"")
    rnd = random.Random(choices)
    digests = [game.digest(state).hex()]
    while not state.finished:
        state, _ = game.apply(state, choose(game, state, rnd, 0.0))
        digests.append(game.digest(state).hex())
    return digests
