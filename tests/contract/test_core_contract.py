"""The contract of every game, through the core: random playouts (hypothesis) checking at every
step that cards are conserved, every listed legal action passes check, a refused action changes
nothing, pack/unpack round-trips, views hide what the game says is secret and show only
documented keys, events reach only the seats allowed; settlements balance; replays and other
processes reproduce the digests; every seat count, preset and the next round of a match deal;
options combined at random (any seat count) are refused at the deal (BAD_OPTION) or keep all that.
"""
from __future__ import annotations

import json
import marshal
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game_contract import (abandon_all, check_deal_record, check_events, check_packed_size, check_settlement, choose,
                           deliveries, illegal_tries, playout, seeded_digests)

from referee.core import registry, rng
from referee.core.errors import InvalidAction, Reason
from referee.core.game import DealKey

SETTINGS = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@SETTINGS
@given(seed=st.binary(min_size=1, max_size=16), choices=st.integers(0, 2**32))
def test_random_playouts_keep_the_contract(game_preset, seed, choices):
    game, options = game_preset
    playout(game, seed, random.Random(choices), options=options)


@st.composite
def option_overrides(draw, game):
    """Some of ``game``'s options set to values of their declared type and range (bools, ints
    within their bounds, enums from their values); the rest left at the preset's."""
    overrides = {}
    for info in game.option_infos():
        if not draw(st.booleans()):
            continue
        if info.type == "bool":
            overrides[info.name] = draw(st.booleans())
        elif info.type == "int":
            low = info.minimum if info.minimum is not None else 0
            high = info.maximum if info.maximum is not None else low + 10
            overrides[info.name] = draw(st.integers(low, min(high, low + 20)))
        elif info.allowed:
            overrides[info.name] = draw(st.sampled_from(info.allowed))
    return overrides


@SETTINGS
@given(data=st.data(), choices=st.integers(0, 2**32))
def test_random_option_sets_keep_the_contract(game, data, choices):
    """Options combined as no preset does, at any seat count: a combination the game cannot
    deal is refused at the deal (BAD_OPTION), any other plays under the whole contract."""
    preset = data.draw(st.sampled_from(["", *game.presets]))
    seats = data.draw(st.integers(game.min_seats, game.max_seats))
    try:
        options = game.make_options(preset, data.draw(option_overrides(game)))
        game.deal(options, b"options", b"contract", seats)
    except InvalidAction as refused:
        assert refused.reason == Reason.BAD_OPTION, refused
        return
    playout(game, b"options", random.Random(choices), options=options, seats=seats)


def test_an_illegal_try_never_plays_a_card_the_actor_may_hold():
    """The contract's "a card another seat holds in secret" takes none the acting seat knows: a
    card that changed hands in 够级 4pl's exchange is known to giver and taker, and the taker may
    still hold it (a hypothesis example once drew such a card and saw its legal play accepted)."""
    game = registry.get_game("gouji")
    options, shared_states = game.make_options("4pl"), 0
    for k in range(6):
        state, rnd = game.deal(options, b"shared %d" % k, b"contract"), random.Random(k)
        while not state.finished:
            actor = state.to_act[0]
            mine = set(game.secret_cards(state, actor))
            shared = mine & {c for t in range(state.num_seats) if t != actor for c in game.secret_cards(state, t)}
            if shared:
                shared_states += 1
                for draw in range(8):
                    for action in illegal_tries(game, state, random.Random(draw)):
                        if action.seat == actor and action.cards:
                            assert action.cards[0] not in mine, (action, sorted(shared))
            state, _ = game.apply(state, choose(game, state, rnd, 0.0))
    assert shared_states > 0  # the case arose: cards known to two seats while the actor holds one


@pytest.mark.parametrize("abandon", [0.0, 0.05])
def test_many_quick_playouts_end_and_balance(game, abandon):
    """Cheaper checks on more rounds: every round ends, conserves cards and balances."""
    outcomes = set()
    for i in range(30):
        state, _, _ = playout(game, f"quick {i}".encode(), random.Random(i), abandon=abandon, full=False)
        outcomes.add(game.settle(state).outcome)
    assert outcomes  # at least one outcome name, and every round ended (playout asserts it)


def test_every_seat_count_and_preset_plays(game):
    rnd = random.Random(3)
    for seats in range(game.min_seats, game.max_seats + 1):
        playout(game, b"seats %d" % seats, rnd, seats=seats)
    for name in game.presets:
        playout(game, name.encode(), rnd, options=game.make_options(name))


def test_unpack_refuses_bytes_pack_never_writes(game):
    """A token's state that does not decode is STATE_TOKEN_INVALID, whatever breaks: nothing,
    a truncation, bytes of no state, the same values in a list or one value short."""
    state, _, _ = playout(game, b"unpack", random.Random(9), abandon=0.0, full=False)
    packed = game.pack(state)
    tries = [b"", packed[:1], packed[: len(packed) // 2], b"\xff" * 8, marshal.dumps(None), marshal.dumps(7)]
    head, values = packed[:1], marshal.loads(packed[1:])  # the codec's version byte, then marshal
    assert type(values) is tuple
    tries += [head + marshal.dumps(list(values)), head + marshal.dumps(values[:-1]),
              head + marshal.dumps(values + (0,)), head + marshal.dumps((None,) + values[1:])]
    for data in tries:
        with pytest.raises(InvalidAction) as refused:
            game.unpack(data)
        assert refused.value.reason == Reason.STATE_TOKEN_INVALID, data
    assert game.unpack(packed) == state


def test_replay_reproduces_every_state(game):
    state, actions, digests = playout(game, b"replay", random.Random(5), abandon=0.0)
    again = game.deal(state.options, b"replay", b"contract", state.num_seats)
    replayed = [game.digest(again)]
    for action in actions:
        again, _ = game.apply(again, action)
        replayed.append(game.digest(again))
    assert replayed == digests and again == state


def test_a_match_carries_over_round_after_round(game):
    state, _, _ = playout(game, b"match 0", random.Random(9))
    totals = list(game.settle(state).points)
    for k in range(1, 3):
        if game.match_over(state):
            break
        match = game.next_round(state)
        state = game.deal(state.options, b"match %d" % k, b"", state.num_seats, match)
        assert state.match.round == k and list(state.match.totals) == totals
        rnd = random.Random(k)
        while not state.finished:
            state, _ = game.apply(state, rnd.choice(game.legal_actions(state, rnd.choice(state.to_act)))[0])
        check_settlement(game, state)
        totals = [a + b for a, b in zip(totals, game.settle(state).points)]


_DIGESTS = """
import json, sys
sys.path.insert(0, {here!r})
from game_contract import seeded_digests
from toy_highcard import HIGHCARD
from toy_team import TEAM
from referee.core import registry
registry.register(HIGHCARD)
registry.register(TEAM)
print(json.dumps(seeded_digests(registry.get_game({game!r}), b"processes", 11)))
"""


def test_digests_are_the_same_in_another_process(game):
    script = _DIGESTS.format(here=str(Path(__file__).parent), game=game.id)
    theirs = json.loads(subprocess.run([sys.executable, "-c", script], check=True, capture_output=True,
                                       text=True, timeout=120).stdout)
    ours = seeded_digests(game, b"processes", 11)
    assert ours == theirs and len(ours) > 1


def _largest_options(game):
    """Every option at its largest: the longest allowed string, the maximum int."""
    values = {}
    for info in game.option_infos():
        if info.type == "enum":
            values[info.name] = max(info.allowed, key=len)
        elif info.type == "int" and info.allowed:
            values[info.name] = max(info.allowed)
        elif info.type == "int" and info.maximum is not None:
            values[info.name] = info.maximum
    return values


def _largest_dealt(game, seats: int):
    """The largest options (``_largest_options``) the game deals at ``seats``: all of them, else
    all but one (the first such set that deals: 川牌's ``seventh_bonus`` needs seven seats), else
    the defaults."""
    largest = _largest_options(game)
    tries = [largest] + [{k: v for k, v in largest.items() if k != name} for name in largest]
    for values in tries:
        try:
            options = game.make_options("", values)
            game.deal(options, b"x", b"", seats)
            return options
        except InvalidAction:  # options whose largest values do not go together (BAD_OPTION)
            continue
    return game.make_options()


def test_states_fit_the_sealed_size_with_the_largest_entropy_and_options(game):
    """Tokens are padded to ``state_bytes``: the largest state must fit (the longest options,
    the longest caller seed, the owner's 256 bytes and every seat's 32 bytes of entropy, a match
    with big totals)."""
    for seats in range(game.min_seats, game.max_seats + 1):
        options = _largest_dealt(game, seats)
        entropy = rng.entropy(b"o" * rng.MAX_ENTROPY_BYTES, [b"s" * rng.MAX_SEAT_ENTROPY_BYTES] * seats)
        rnd = random.Random(seats)
        for k in range(8):
            first = abandon_all(game, game.deal(options, b"x", b"", seats))
            match = first.match if game.match_over(first) else game.next_round(first)
            match = match._replace(round=10**6, totals=(-10**12,) * seats)
            state = game.deal(options, bytes([k]) * rng.MAX_SEED_BYTES, entropy, seats, match)
            while True:
                check_packed_size(game, state)
                if state.finished:
                    break
                state, _ = game.apply(state, choose(game, state, rnd, 0.002))


def test_the_deal_record_names_distinct_cards(game):
    state = game.deal(game.make_options(), b"dealt", b"")
    cards, values = game.dealt(state)
    every = [c for ids in cards.values() for c in ids]
    assert len(every) == len(set(every)) and set(every) <= set(game.all_cards(state))
    assert all(isinstance(v, int) for v in values.values())


def test_declared_private_events_are_withheld_from_some_viewer(game):
    """An event type declared ``private_cards`` that these rounds show is withheld from some viewer
    at least once (the playouts check that the others never are)."""
    private = {name for name, t in game.event_types.items() if t.private_cards}
    seen, withheld = set(), set()
    for i in range(6):
        seats = game.min_seats + i % (game.max_seats - game.min_seats + 1)
        rnd = random.Random(i)
        state = game.deal(game.make_options(), b"private %d" % i, b"", seats)
        events, before = game.deal_events(state), None
        while True:
            for event, viewers, _, _ in deliveries(game, before, state, events):
                seen.add(event.type)
                if viewers:
                    withheld.add(event.type)
            if state.finished:
                break
            before = state
            state, events = game.apply(state, choose(game, state, rnd, 0.0))
    assert withheld <= private  # as check_events asserts on every step
    assert private & seen <= withheld, f"{game.id}: declared private_cards but shown to all: {(private & seen) - withheld}"


def test_the_contract_refuses_undeclared_private_events_and_deal_keys(monkeypatch, toy_registered):
    game = toy_registered
    state = game.deal(game.make_options(), b"declared", b"")
    events = game.deal_events(state)
    check_events(game, None, state, events)
    check_deal_record(game, state)
    public_deal = {**game.event_types, "DEAL": game.event_types["DEAL"]._replace(private_cards=False)}
    monkeypatch.setattr(game, "event_types", public_deal)
    with pytest.raises(AssertionError, match="DEAL is not declared private_cards"):
        check_events(game, None, state, events)
    monkeypatch.setattr(game, "deal_cards", {**game.deal_cards, "kitty": game.deal_cards["seat"]._replace(per_seat=False)})
    with pytest.raises(AssertionError, match="declared \\(deal_cards\\)"):
        check_deal_record(game, state)
    monkeypatch.setattr(game, "deal_cards", {})
    with pytest.raises(AssertionError, match="deal record cards"):
        check_deal_record(game, state)


def test_declared_schema_is_consistent(game):
    """What ListGames will publish holds together: options make, presets are options, kinds
    and reasons are named once, phases end with a finished phase."""
    infos = game.option_infos()
    defaults = game.make_options("", {i.name: i.default for i in infos})
    assert defaults == game.Options()
    for preset in game.presets.values():
        assert isinstance(preset, game.Options)
    names = [k.name for k in game.action_kinds]
    assert len(names) == len(set(names)) and "ABANDON" in names
    assert not set(game.reasons) & {"OK", "NOT_YOUR_TURN", "GAME_OVER"}
    assert game.phases[-1].name == "finished" and not game.phases[-1].kinds
    assert set(game.capabilities()) >= set(game.extras)
    assert game.deal_cards and all(isinstance(k, DealKey) and k.help for k in game.deal_cards.values())
    assert all(help for help in game.deal_values.values())
