"""What every game must satisfy, as checks on one state, one step and one finished round.

The contract suite (test_core_contract.py, test_server_contract.py) runs them on every game of
the registry and on the toy game of the tests; a new game gets all of them by registering. A
game's own tests import this module (``import game_contract``: tests/conftest.py puts this folder
on the path) to run the same checks on the states their own bots reach.
"""
from __future__ import annotations

import random
from collections import Counter

from referee.core.errors import COMMON_REASONS, Reason, RefereeError
from referee.core.game import ABANDON, END_ROUND, OUT_OF_PLAY, Action, Game, View, event_for

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


def _mask(ids) -> int:
    mask = 0
    for c in ids:
        mask |= 1 << c
    return mask


def check_views(game: Game, state) -> list[View]:
    """Views of every seat and a spectator: equal to one-by-one views, documented keys, and each
    shows only the cards its viewer may know (``Game.knowledge``: the public ones and the seat's
    own), during the round and after it (a seat that forks a copy of the token and abandons must
    learn nothing: only the owner sees every hand); ``to_act`` as the viewer may know it (a
    phase whose turn is not public shows a seat only itself, a spectator nobody)."""
    seats = tuple(range(-1, state.num_seats))
    views = game.views(state, seats)
    assert views == [game.view(state, s) for s in seats]
    phases = {p.name for p in game.phases}
    public_turn = game.phases[state.phase].public_turn
    known = game.knowledge(state)
    assert len(known.seats) == state.num_seats
    for v in views:
        assert v.phase in phases and len(v.seats) == state.num_seats
        expected = state.to_act if public_turn else tuple(s for s in state.to_act if s == v.seat)
        assert tuple(v.to_act) == tuple(expected), f"{game.id}: seat {v.seat} sees to_act {v.to_act}"
        assert tuple(game.to_act_for(state, v.seat)) == tuple(expected)
        assert set(v.counters) <= set(game.counters), f"undocumented counters {set(v.counters) - set(game.counters)}"
        assert set(v.public_cards) <= set(game.public_cards), set(v.public_cards) - set(game.public_cards)
        assert v.table is None or v.table.kind in game.combination_kinds, f"{game.id}: undeclared kind {v.table}"
        for sv in v.seats:
            assert all(m.kind in game.meld_kinds for m in sv.melds), f"{game.id}: undeclared meld kind {sv.melds}"
            assert set(sv.counters) <= set(game.seat_counters), set(sv.counters) - set(game.seat_counters)
            assert set(sv.cards) <= set(game.seat_cards), set(sv.cards) - set(game.seat_cards)
            assert not sv.role or sv.role in game.roles, sv.role
        assert [sv.hand_size for sv in v.seats] == [len(game.view(state, s).hand) for s in range(state.num_seats)]
        shown = _mask(view_cards(v))
        leaked = shown & ~known.allowed(v.seat)
        assert not leaked, (f"{game.id}: the view of seat {v.seat} shows cards it may not know "
                            f"{[c for c in range(leaked.bit_length()) if leaked >> c & 1]}")
    for t in range(state.num_seats):
        assert _mask(views[t + 1].hand) & ~known.allowed(t) == 0, f"{game.id}: seat {t} may not know its hand"
    assert tuple(game.to_act_for(state, None)) == tuple(state.to_act)
    return views


def deliveries(game: Game, before, state, events):
    """Each event with the viewers (-1: a spectator) its cards are withheld from, and per viewer
    the event as delivered and the cards that viewer may know (before or after the action)."""
    known_after = game.knowledge(state)
    known_before = game.knowledge(before) if before is not None else known_after
    allowed = {viewer: known_before.allowed(viewer) | known_after.allowed(viewer)
               for viewer in range(-1, state.num_seats)}
    for e in events:
        delivered = {viewer: event_for(e, mask) for viewer, mask in allowed.items()}
        yield e, {viewer for viewer, d in delivered.items() if d != e}, delivered, allowed


def check_events(game: Game, before, state, events) -> None:
    """Events are documented, and delivered to each viewer as it may see them: an event's cards
    reach a viewer only when it may know every one of them, before or after the action; an event
    whose type is not declared ``private_cards`` reaches every viewer whole."""
    for e, withheld, delivered, allowed in deliveries(game, before, state, events):
        info = game.event_types.get(e.type)
        assert info is not None, f"{game.id}: undocumented event {e.type}"
        assert set(e.values) <= set(info.values), f"{e.type}: undocumented values {set(e.values) - set(info.values)}"
        assert e.combo is None or e.combo.kind in game.combination_kinds, f"{game.id}: undeclared kind {e.combo}"
        assert info.private_cards or not withheld, (
            f"{game.id}: the cards of a {e.type} event are withheld from viewers {sorted(withheld)} at step "
            f"{state.step}, but {e.type} is not declared private_cards")
        for viewer, event in delivered.items():
            assert _mask(event.cards) & ~allowed[viewer] == 0
            if e.cards and e.seat == viewer >= 0 and e.type == "DEAL":
                assert event.cards == e.cards, f"{game.id}: seat {viewer} does not see its own deal"


def check_deal_record(game: Game, state) -> None:
    """The deal record (``Game.dealt``, Score's ``DealRecord``) has exactly the declared keys."""
    cards, values = game.dealt(state)
    declared_cards, declared_values = game.deal_record_keys(state.num_seats)
    assert set(cards) == declared_cards, (f"{game.id}: deal record cards {sorted(cards)}, declared "
                                          f"(deal_cards) {sorted(declared_cards)}")
    assert set(values) == declared_values, (f"{game.id}: deal record values {sorted(values)}, declared "
                                            f"(deal_values) {sorted(declared_values)}")


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
        for action, combo in legal:
            assert action.kind in kinds
            assert combo is None or combo.kind in game.combination_kinds, f"{game.id}: undeclared kind {combo}"
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
    # a card another seat holds in secret: one the acting seat may not know (a card that changed
    # hands in a tribute is known to both seats, and may be the actor's own: 够级 4pl's exchange)
    mine = set(game.secret_cards(state, state.to_act[0]))
    others = [c for t in range(state.num_seats) if t != state.to_act[0] for c in game.secret_cards(state, t)
              if c not in mine]
    if with_cards and others:
        action = rnd.choice(with_cards)
        tries.append(action._replace(cards=(rnd.choice(others),) + action.cards[1:]))
    return tries


def check_refusals(game: Game, state, rnd: random.Random) -> None:
    """A refused action raises with a documented reason and changes nothing; an action of the
    awaited seat naming a card it may not know is CARDS_NOT_IN_HAND, whatever else is wrong
    with it (a rule broken is no malformed request: 川牌's extra player discarding another seat's
    card was BAD_ACTION)."""
    reasons = set(COMMON_REASONS) | set(game.reasons)
    before = game.digest(state)
    mine = set(game.secret_cards(state, state.to_act[0]))
    for action in illegal_tries(game, state, rnd):
        verdict = game.check(state, action)
        assert not verdict.legal, f"{game.id}: {action} accepted"
        assert verdict.reason in reasons, f"{game.id}: undocumented reason {verdict.reason}"
        if action.seat == state.to_act[0] and action.cards and action.cards[0] not in mine:
            assert verdict.reason == Reason.CARDS_NOT_IN_HAND, f"{game.id}: {action} refused {verdict}"
        try:
            game.apply(state, action)
        except RefereeError as error:
            assert error.reason == verdict.reason
        else:
            raise AssertionError(f"{game.id}: apply took the refused {action}")
    assert game.digest(state) == before


def check_abandon_policy(game: Game, before, state, seat: int) -> None:
    """ABANDON does what the game declares: the round ends (END_ROUND), or the seat goes out of
    play and may not leave twice (OUT_OF_PLAY)."""
    if game.abandon_policy == END_ROUND:
        assert state.finished, f"{game.id}: ABANDON did not end the round"
        return
    assert game.abandon_policy == OUT_OF_PLAY, game.abandon_policy
    assert game.left(state) == game.left(before) | 1 << seat and seat not in state.to_act
    if not state.finished:
        assert game.check(state, Action(seat, ABANDON)).reason == "SEAT_LEFT"


def abandon_all(game: Game, state):
    """The round ended by ABANDONs: one (END_ROUND), or seat after seat until it ends (OUT_OF_PLAY)."""
    for seat in range(state.num_seats):
        if state.finished:
            break
        state, _ = game.apply(state, Action(seat, ABANDON))
    assert state.finished
    return state


def check_packed_size(game: Game, state) -> None:
    """Every state fits the game's sealed size: all its tokens have one length."""
    size = len(game.pack(state))
    assert size <= game.state_bytes, f"{game.id}: a packed state of {size} bytes, over state_bytes {game.state_bytes}"


def check_settlement(game: Game, state) -> None:
    settlement = game.settle(state)
    n = state.num_seats
    assert len(settlement.points) == n and set(settlement.winners) <= set(range(n))
    assert sum(settlement.points) + settlement.house == 0, f"{game.id}: settlement does not balance"
    assert settlement.outcome in game.outcomes, f"{game.id}: undeclared outcome {settlement.outcome}"
    assert {name for name, _ in settlement.breakdown} <= set(game.breakdown), (
        f"{game.id}: undeclared breakdown lines {({name for name, _ in settlement.breakdown} - set(game.breakdown))}")
    assert set(settlement.seat_values) <= set(game.seat_values) and set(settlement.values) <= set(game.values)
    assert all(len(v) == n for v in settlement.seat_values.values())
    # whole numbers, as the API carries them (int64): 3.0 equals 3 in Python but is no int64
    numbers = [*settlement.points, settlement.house, *(v for _, v in settlement.breakdown),
               *(x for v in settlement.seat_values.values() for x in v), *settlement.values.values()]
    assert all(type(x) is int for x in numbers), f"{game.id}: a settlement number that is not an int: {numbers}"
    for seat_key, key in game.balances:
        if seat_key in settlement.seat_values:
            assert sum(settlement.seat_values[seat_key]) + settlement.values[key] == 0, f"{game.id}: {seat_key} unbalanced"
    for name, labels in game.standing(settlement.points).items():
        assert name in game.standings and len(labels) == n


def check_next_round(game: Game, state) -> None:
    """A finished round starts the next round of its match; a void round is played again, not
    counted; the last round of a match (or one voiding it) starts the table's next match."""
    match = game.next_round(state)
    before = state.match
    if game.voids_match(state) or (game.round_counts(state) and game.match_over(state)):
        assert (match.round, match.totals, match.number) == (0, (0,) * state.num_seats, before.number + 1)
    elif not game.round_counts(state):
        assert (match.round, match.totals, match.number) == (before.round, before.totals, before.number)
    else:
        points = game.settle(state).points
        assert (match.round, match.number) == (before.round + 1, before.number)
        assert list(match.totals) == [a + b for a, b in zip(before.totals, points)]
    nxt = game.deal(state.options, b"next round", b"", state.num_seats, match)
    assert nxt.match == match and not nxt.finished and nxt.step == 0


def check_step(game: Game, state, events=(), rnd: random.Random | None = None, before=None) -> None:
    """Every check of one state (after ``events``): a game's own playouts with its own bots
    call this too, so the contract also runs on the states only they reach."""
    check_cards_conserved(game, state)
    check_pack_round_trip(game, state)
    check_views(game, state)
    check_events(game, before, state, events)
    if not state.finished:
        check_legal_actions(game, state)
        if rnd is not None:
            check_refusals(game, state, rnd)


def choose(game: Game, state, rnd: random.Random, abandon: float) -> Action:
    seat = rnd.choice(state.to_act)
    if rnd.random() < abandon:
        return Action(rnd.choice([s for s in range(state.num_seats) if not game.left(state) >> s & 1]), ABANDON)
    return rnd.choice(game.legal_actions(state, seat))[0]


def playout(game: Game, seed: bytes, rnd: random.Random, *, options=None, seats: int = 0,
            abandon: float = 0.005, full: bool = True):
    """Deal and play random legal actions to the end, checking the contract at every step
    (``full``: every check; else conservation, pack and settlement only). Returns (final
    state, actions, digests of every state)."""
    state = game.deal(options or game.make_options(), seed, b"contract", seats)
    events = game.deal_events(state)
    actions, digests, before = [], [game.digest(state)], None
    while True:
        if full:
            check_step(game, state, events, rnd, before)
        else:
            check_cards_conserved(game, state)
            check_pack_round_trip(game, state)
        check_packed_size(game, state)
        if state.finished:
            break
        assert len(actions) < MAX_STEPS, f"{game.id}: the round did not end"
        action = choose(game, state, rnd, abandon)
        before = state
        state, events = game.apply(state, action)
        if action.kind == ABANDON:
            check_abandon_policy(game, before, state, action.seat)
        assert not game.left(state) & _mask(state.to_act), f"{game.id}: a seat that left is awaited"
        actions.append(action)
        digests.append(game.digest(state))
    check_settlement(game, state)
    check_deal_record(game, state)
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
