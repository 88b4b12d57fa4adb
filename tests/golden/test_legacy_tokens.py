"""Tokens sealed by the release format still open (a rolling update: a round's token crosses pods
of both releases).

``legacy_v1_states.json`` (written once by ``make_legacy_tokens.py`` from that release) holds
payloads packed by the release format, "version 1": ``marshal.dumps(values, 2)`` with no version
byte, starting with ``(``. Each comes with the seed, entropy and actions that reach it from its
deal. What is checked, for every one of them:

1. ``game.unpack`` of the old payload is the state this code reaches by replaying the actions
   (before the state codec: the hand-written unpack reads its own format; after it: the codec's
   legacy layout maps the old fields by name onto the new state).
2. The replayed state packs and unpacks to itself.
3. While a game still writes the release format, it writes these payloads byte for byte (the
   pins of ``test_state_format.py``, extended to every state here); once it writes a versioned
   payload, that payload starts with its version byte, not with the release format's ``(``.
4. An old payload opens within the current declarations and plays on to the end under the
   contract's checks.

Where this release changed a rule on purpose, the recorded actions no longer replay, and 1 is
checked on the stored values instead (each old field by name, as the state holds it):
``REPLAY_CHANGED`` names those games. ``APPROXIMATED`` names fields an old payload did not keep
and the upgrade rebuilds as near as it can (compared as sets).
"""
import json
from pathlib import Path

import pytest

import marshal
import random

from game_contract import check_step, choose

from referee.core import registry
from referee.core.game import Action

FIXTURES = json.loads(Path(__file__).with_name("legacy_v1_states.json").read_text())
STATES = FIXTURES["states"]
RELEASE_FORMAT_HEAD = b"("  # marshal's tuple type: how every release-format payload begins


def state_id(record: dict) -> str:
    return f"{record['game']}-{record['preset'] or 'default'}-{record['seats']}-{record['label'].replace(' ', '')}"


def replayed(record: dict):
    """The game and the state its rounds reach: each earlier round is played to its end and
    starts the next one (``next_round``); the last is replayed as recorded."""
    game = registry.get_game(record["game"])
    options = game.make_options(record["preset"])
    state = None
    for played in record["rounds"]:
        match = None if state is None else game.next_round(state)
        state = game.deal(options, bytes.fromhex(played["seed"]), bytes.fromhex(played["entropy"]),
                          record["seats"], match)
        for seat, kind, cards, ranks, value, declared in played["actions"]:
            state, _ = game.apply(state, Action(seat, kind, tuple(cards), tuple(ranks), value, declared))
    return game, state


# games whose recorded rounds this release plays differently, and why
REPLAY_CHANGED = {"mcr": "a claim window asks only the seats that can claim (issue 19): recorded passes of seats "
                         "no longer asked do not replay"}
# fields a release-format payload did not keep: rebuilt by the upgrade as near as it can
APPROXIMATED = {("tonghua", "out"): "the seats out were not kept in the order they went out"}


def replayable(record: dict) -> bool:
    return record["game"] not in REPLAY_CHANGED


def old_values(game, record: dict) -> dict:
    """The stored values of an old payload by its layout's field names."""
    layout = game.state_layouts[1]
    return dict(zip(layout.fields, marshal.loads(bytes.fromhex(record["packed"]))))


def test_the_fixtures_list_the_fields_of_an_action():
    assert FIXTURES["action_fields"] == list(Action._fields)


@pytest.mark.parametrize("record", [r for r in STATES if replayable(r)], ids=state_id)
def test_a_release_format_payload_opens_as_the_state_its_actions_reach(record):
    game, state = replayed(record)
    old = bytes.fromhex(record["packed"])
    assert old[:1] == RELEASE_FORMAT_HEAD
    assert (state.step, state.finished) == (record["step"], record["finished"])
    opened = game.unpack(old)
    for name in state._fields:
        if (game.id, name) in APPROXIMATED:
            assert set(getattr(opened, name)) == set(getattr(state, name)), name
        else:
            assert getattr(opened, name) == getattr(state, name), name


@pytest.mark.parametrize("record", STATES, ids=state_id)
def test_a_release_format_payload_opens_with_its_stored_values_and_plays_on(record):
    game = registry.get_game(record["game"])
    opened = game.unpack(bytes.fromhex(record["packed"]))
    assert game.codec.conforms(opened) == []
    assert (opened.step, opened.finished) == (record["step"], record["finished"])
    stored = old_values(game, record)
    for name in ("seed", "entropy", "phase", "to_act", "step", "abandoned"):
        assert getattr(opened, name) == stored[name], name
    assert opened.hands == tuple(stored["hands"]) if "hands" in stored else True
    rnd, state, before = random.Random(record["step"]), opened, None
    for _ in range(3000):
        check_step(game, state, (), rnd, before)
        if state.finished:
            break
        before = state
        state, _ = game.apply(state, choose(game, state, rnd, 0.0))
    assert state.finished


@pytest.mark.parametrize("record", [r for r in STATES if replayable(r)], ids=state_id)
def test_the_replayed_state_packs_as_this_release_writes_it(record):
    game, state = replayed(record)
    packed = game.pack(state)
    assert game.unpack(packed) == state and game.pack(game.unpack(packed)) == packed
    if packed[:1] == RELEASE_FORMAT_HEAD:  # the game still writes the release format
        assert packed.hex() == record["packed"]
    else:  # a versioned payload: its version byte first
        assert packed[0] != RELEASE_FORMAT_HEAD[0]


# games first shipped after the release format: no token of theirs was ever sealed in it
NEW_SINCE_RELEASE = {"gouji", "chuanpai"}


def test_every_shipped_game_and_preset_has_legacy_states():
    covered = {(r["game"], r["preset"]) for r in STATES}
    shipped = {(g, p) for g, game in registry.GAMES.items() for p in ["", *game.presets]
               if type(game).__module__.startswith("referee.core.")  # not a toy a test registered
               and g not in NEW_SINCE_RELEASE}
    assert shipped <= covered, sorted(shipped - covered)
    assert not NEW_SINCE_RELEASE & {r["game"] for r in STATES}


def test_the_legacy_states_include_finished_rounds_and_second_rounds():
    labels = {(r["game"], r["label"]) for r in STATES}
    for game_id in {r["game"] for r in STATES}:
        assert {(game_id, "deal"), (game_id, "finished"), (game_id, "round 2")} <= labels, game_id
    assert all(r["finished"] for r in STATES if r["label"] in ("finished", "abandoned"))
