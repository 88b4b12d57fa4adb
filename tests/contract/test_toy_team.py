"""The team toy game (toy_team.py): the trick flow's declared configuration on positions built
for it — the 对头 bar, a yield (让) to the next two seats, a trick closed at once by the big joker,
the beaten play handed to the game after every play, the round's end — and a whole round through
a real server, each seat with its own credential.

Seats 0, 2, 4 against 1, 3, 5; a seat's 对头 is the seat across (s + 3)."""
from __future__ import annotations

import random

import grpc
import pytest

from toy_team import BIG_JOKER_ID, TEAM, YIELD, YIELD_NOT_ALLOWED, new_state

from referee.core import cards
from referee.core.game import PASS, PLAY, Action
from referee.core.tricks import Trick
from referee.service import convert
from referee.service.credentials import bearer
from referee.service.server import Config, RefereeServer
from referee.service.token import KeyRing
from referee.v1 import referee_service_pb2 as pb
from referee.v1 import referee_service_pb2_grpc as pb_grpc

game = TEAM


def ids(text: str) -> tuple[int, ...]:
    return tuple(sorted(cards.parse_cards(text)))


def position(*hands: str, leader: int = 0):
    """A fresh round with the six hands given as card text; ``leader`` leads."""
    assert len(hands) == 6
    return new_state([cards.to_mask(ids(h)) for h in hands], leader=leader)


def act(state, seat: int, kind: str, text: str = ""):
    return game.apply(state, Action(seat, kind, ids(text)))


def plays(seat: int, *texts: str) -> list[Action]:
    return [Action(seat, PLAY, ids(t)) for t in texts]


def legal(state, seat: int) -> list[Action]:
    return [a for a, _ in game.legal_actions(state, seat)]


def kinds(events) -> list[tuple[str, int]]:
    return [(e.type, e.seat) for e in events]


def only_awaited(state, seat: int) -> None:
    """``seat`` alone is awaited, and no other seat has a legal action."""
    assert state.to_act == (seat,)
    for s in range(6):
        if s != seat:
            assert legal(state, s) == []


# --- 1. the 对头 bar -----------------------------------------------------------------------------
def test_a_passed_seat_is_asked_again_only_on_a_play_of_its_dui_tou():
    state = position("3S 7S KD", "TS KH", "4H QD", "4D QC", "5S 9S AD", "4C QH")
    state, _ = act(state, 0, PLAY, "3S")
    only_awaited(state, 1)
    state, _ = act(state, 1, PASS)  # seat 1 is barred for the rest of the trick
    assert state.trick.barred == 0b10 and state.trick.passed == 0b10
    only_awaited(state, 2)
    state, _ = act(state, 2, PASS)
    state, _ = act(state, 3, PASS)
    only_awaited(state, 4)
    state, _ = act(state, 4, PLAY, "5S")
    only_awaited(state, 5)
    assert state.trick.passed == 0 and state.trick.barred == 0b1110
    state, _ = act(state, 5, PASS)
    only_awaited(state, 0)  # 0 never passed: asked
    state, _ = act(state, 0, PLAY, "7S")
    # seat 1 (对头 4) and seat 2 (对头 5) are skipped on seat 0's play; seat 3, whose 对头 is 0, is asked
    only_awaited(state, 3)
    assert legal(state, 3) == [Action(3, PASS)] + plays(3, "QC") + [Action(3, YIELD)]
    state, _ = act(state, 3, PASS)
    only_awaited(state, 4)
    state, _ = act(state, 4, PLAY, "9S")
    # seat 5 (对头 2) skipped; seat 0 never passed
    only_awaited(state, 0)
    state, _ = act(state, 0, PASS)
    # on its 对头's play the barred seat 1 is asked again
    only_awaited(state, 1)
    assert legal(state, 1) == [Action(1, PASS)] + plays(1, "TS", "KH") + [Action(1, YIELD)]
    view = game.view(state, 1)
    assert view.seats[1].counters["barred"] == 1 and view.seats[1].counters["passed"] == 0
    state, events = act(state, 1, PLAY, "TS")
    # every other seat passed in the trick: only seat 4, the beaten play's owner, may answer
    only_awaited(state, 4)
    state, events = act(state, 4, PASS)
    assert kinds(events) == [("PASS", 4), ("TRICK_WON", 1)]
    only_awaited(state, 1)
    assert state.trick == Trick(1)


# --- 2. a yield (让) --------------------------------------------------------------------------------
YIELD_HANDS = ("5S 9C", "3H 4H", "3D 4D", "7S 8S", "6S JD", "3C 4C")


def _asked_to_yield():
    """Seat 0 (P) led 5S, seats 1 and 2 passed: seat 3 (O, 0's 对头) is asked."""
    state = position(*YIELD_HANDS)
    state, _ = act(state, 0, PLAY, "5S")
    state, _ = act(state, 1, PASS)
    state, _ = act(state, 2, PASS)
    only_awaited(state, 3)
    assert legal(state, 3) == [Action(3, PASS)] + plays(3, "7S", "8S") + [Action(3, YIELD)]
    return state


def test_a_yield_asks_the_next_two_seats_first_then_the_yielder_again_without_a_second_yield():
    state, events = act(_asked_to_yield(), 3, YIELD)
    assert kinds(events) == [("YIELD", 3)]
    assert state.yielded == 3 and not state.trick.passed >> 3 & 1 and not state.trick.barred >> 3 & 1
    assert game.view(state, -1).counters["yielded"] == 3
    only_awaited(state, 4)
    state, _ = act(state, 4, PASS)
    only_awaited(state, 5)
    state, _ = act(state, 5, PASS)
    # both passed: O is asked again, and must play or pass
    only_awaited(state, 3)
    assert legal(state, 3) == [Action(3, PASS)] + plays(3, "7S", "8S")
    verdict = game.check(state, Action(3, YIELD))
    assert not verdict.legal and verdict.reason == YIELD_NOT_ALLOWED
    state, events = act(state, 3, PLAY, "7S")
    assert state.yielded == -1
    # everybody else passed on P's play: only P may answer
    only_awaited(state, 0)
    state, events = act(state, 0, PASS)
    assert kinds(events) == [("PASS", 0), ("TRICK_WON", 3)]
    only_awaited(state, 3)
    assert state.trick == Trick(3)


def test_a_yield_that_ends_in_the_yielders_pass_wins_the_trick_for_the_play_yielded_to():
    state, _ = act(_asked_to_yield(), 3, YIELD)
    state, _ = act(state, 4, PASS)
    state, _ = act(state, 5, PASS)
    state, events = act(state, 3, PASS)
    assert kinds(events) == [("PASS", 3), ("TRICK_WON", 0)]
    only_awaited(state, 0)
    assert state.yielded == -1 and state.trick == Trick(0)


def test_a_yield_beaten_downstream_counts_as_the_yielders_pass():
    state, _ = act(_asked_to_yield(), 3, YIELD)
    state, _ = act(state, 4, PLAY, "6S")  # P+4 beats P's play
    assert state.trick.barred >> 3 & 1 and state.yielded == -1
    assert game.view(state, 3).seats[3].counters["barred"] == 1
    only_awaited(state, 5)
    after_p4 = state

    # nobody plays again: seat 3 is never asked; seat 1 is (its 对头 4 played)
    state, _ = act(after_p4, 5, PASS)
    only_awaited(state, 0)
    state, _ = act(state, 0, PASS)
    only_awaited(state, 1)
    state, events = act(state, 1, PASS)
    assert kinds(events) == [("PASS", 1), ("TRICK_WON", 4)]
    only_awaited(state, 4)

    # his 对头 plays: the yielder, barred, is asked on that play
    state, _ = act(after_p4, 5, PASS)
    state, _ = act(state, 0, PLAY, "9C")
    only_awaited(state, 3)
    assert legal(state, 3) == [Action(3, PASS)] + [Action(3, YIELD)]  # 7S 8S do not beat 9C


def test_a_yield_with_nobody_after_the_yielder_to_answer_asks_him_again_at_once():
    state = position(*YIELD_HANDS)
    state, _ = act(state, 0, PLAY, "5S")
    state, _ = act(state, 1, PASS)
    state, _ = act(state, 2, PASS)
    state, _ = act(state, 3, PLAY, "7S")
    state, _ = act(state, 4, PASS)
    state, _ = act(state, 5, PASS)
    state, _ = act(state, 0, PLAY, "9C")  # 1, 2, 4, 5 barred; 3 asked on his 对头's play
    only_awaited(state, 3)
    state, events = act(state, 3, YIELD)
    assert kinds(events) == [("YIELD", 3)]
    only_awaited(state, 3)
    assert legal(state, 3) == [Action(3, PASS)]


# --- 3. a trick closed at once ------------------------------------------------------------------
JOKER_HANDS = ("3S 4S 5S", "RJ BJ 6H", "7D 8D", "7C 8C", "9D TD", "9C TC")


def test_the_big_joker_wins_the_trick_at_once_and_its_owner_leads():
    state = position(*JOKER_HANDS)
    state, _ = act(state, 0, PLAY, "3S")
    state, events = act(state, 1, PLAY, "RJ")
    assert cards.parse_cards("RJ") == (BIG_JOKER_ID,)
    assert kinds(events) == [("PLAY", 1), ("TRICK_WON", 1)]
    only_awaited(state, 1)
    assert state.trick == Trick(1) and state.played >> BIG_JOKER_ID & 1
    # a lead with the big joker closes the trick too
    state, events = act(position(*JOKER_HANDS, leader=1), 1, PLAY, "RJ")
    assert kinds(events) == [("PLAY", 1), ("TRICK_WON", 1)]
    only_awaited(state, 1)


def test_the_small_joker_does_not_close_the_trick():
    state = position(*JOKER_HANDS)
    state, _ = act(state, 0, PLAY, "3S")
    state, events = act(state, 1, PLAY, "BJ")
    assert kinds(events) == [("PLAY", 1)]
    only_awaited(state, 2)
    assert legal(state, 2) == [Action(2, PASS)]


def test_a_big_joker_that_empties_the_hand_closes_the_trick_and_the_next_seat_catches_the_wind():
    state = position("3S 4S", "RJ", "7D 8D", "7C 8C", "9D TD", "9C TC")
    state, _ = act(state, 0, PLAY, "3S")
    state, events = act(state, 1, PLAY, "RJ")
    assert kinds(events) == [("PLAY", 1), ("OUT", 1), ("TRICK_WON", 1), ("LEAD", 2)]
    assert events[1].values == {"place": 1} and events[3].values == {"from": 1}
    assert state.out == (1,)
    only_awaited(state, 2)
    assert state.trick == Trick(2)


# --- 4. the beaten play handed to the game --------------------------------------------------------
def test_every_play_counts_what_it_beat():
    state = position("3S 9S", "5H JH", "4D QD", "7D 8D", "4C QC", "4H QH")
    state, _ = act(state, 0, PLAY, "3S")  # a free lead beats nothing
    assert state.beats == (0,) * 6 and state.beaten == (0,) * 6
    state, _ = act(state, 1, PLAY, "5H")
    assert state.beats == (0, 1, 0, 0, 0, 0) and state.beaten == (1, 0, 0, 0, 0, 0)
    state, _ = act(state, 2, PASS)
    state, _ = act(state, 3, PLAY, "7D")
    assert state.beats == (0, 1, 0, 1, 0, 0) and state.beaten == (1, 1, 0, 0, 0, 0)
    for seat in (4, 5, 0, 1):
        state, events = act(state, seat, PASS)
    assert kinds(events) == [("PASS", 1), ("TRICK_WON", 3)]
    state, _ = act(state, 3, PLAY, "8D")  # a new trick's lead beats nothing
    assert state.beats == (0, 1, 0, 1, 0, 0) and state.beaten == (1, 1, 0, 0, 0, 0)
    view = game.view(state, -1)
    assert [sv.counters["beats"] for sv in view.seats] == [0, 1, 0, 1, 0, 0]
    assert [sv.counters["beaten"] for sv in view.seats] == [1, 1, 0, 0, 0, 0]


# --- the round's end ------------------------------------------------------------------------------
def test_the_round_ends_when_every_seat_of_a_team_is_out_and_each_winner_takes_three():
    state = position("3S", "4H KH", "5S", "6H KD", "7S", "8H KC")
    state, events = act(state, 0, PLAY, "3S")
    assert kinds(events) == [("PLAY", 0), ("OUT", 0)]
    only_awaited(state, 1)
    state, _ = act(state, 1, PASS)
    state, _ = act(state, 2, PLAY, "5S")
    state, _ = act(state, 3, PASS)
    state, events = act(state, 4, PLAY, "7S")
    assert kinds(events) == [("PLAY", 4), ("FINISH", 4)] and events[1].values == {"team": 0}
    assert state.finished and state.to_act == () and state.out == (0, 2, 4)
    settlement = game.settle(state)
    assert settlement.points == (3, -3, 3, -3, 3, -3) and settlement.winners == (0, 2, 4)
    assert settlement.outcome == "team0_won" and sum(settlement.points) == 0
    assert [sv.team for sv in game.view(state, -1).seats] == [0, 1, 0, 1, 0, 1]


# --- 5. a whole round through a real server -------------------------------------------------------
def _choose(state, rnd: random.Random) -> Action:
    """A bot that yields whenever it may, else plays at random (passing less often)."""
    seat = state.to_act[0]
    actions = legal(state, seat)
    yields = [a for a in actions if a.kind == YIELD]
    if yields:
        return yields[0]
    moves = [a for a in actions if a.kind == PLAY]
    return rnd.choice(moves) if moves and rnd.random() < 0.6 else actions[0]


def _joker_close(events) -> bool:
    """A play of the big joker followed at once by its owner winning the trick."""
    return any(a.type == "PLAY" and BIG_JOKER_ID in a.cards and b.type == "TRICK_WON" and b.seat == a.seat
               for a, b in zip(events, events[1:]))


def _round(seed: bytes):
    """The core round the bot plays from ``seed``: (actions, whether it yielded, whether a big
    joker closed a trick)."""
    state = game.deal(game.make_options(), seed, b"", 0)
    rnd = random.Random(seed)
    actions, yielded, closed = [], False, False
    while not state.finished:
        action = _choose(state, rnd)
        state, events = game.apply(state, action)
        actions.append(action)
        yielded |= action.kind == YIELD
        closed |= _joker_close(events)
    return actions, yielded, closed


def _seed_with_a_yield_and_a_joker_close() -> bytes:
    for i in range(200):
        seed = b"toy team %d" % i
        _, yielded, closed = _round(seed)
        if yielded and closed:
            return seed
    raise AssertionError("no seed of 200 yields and closes a trick with the big joker")


@pytest.fixture(scope="module")
def stub(toy_registered):
    server = RefereeServer(Config(port=0, drain=0, grace=0, max_connection_age_s=86400, allow_caller_seed=True),
                           KeyRing.generate()).start()
    with grpc.insecure_channel(server.address) as channel:
        yield pb_grpc.RefereeServiceStub(channel)
    server.stop(drain=0, grace=0)


def _view(state, seat):
    msg = convert.view(game.view(state, seat), game.notation)
    msg.test_deal = True
    return msg


def test_a_round_with_a_yield_and_a_big_joker_close_through_the_server_is_the_core_round(stub):
    seed = _seed_with_a_yield_and_a_joker_close()
    expected, _, _ = _round(seed)
    deal = stub.Deal(pb.DealRequest(game=game.id, seed=seed, seat_play=pb.SEAT_PLAY_DIRECT))  # seats apply
    seat_meta = [(bearer(c),) for c in deal.seat_credentials]
    owner = (bearer(deal.owner_credential),)
    core = game.deal(game.make_options(), seed, b"", 0)
    assert deal.state_digest == game.digest(core) and len(deal.seat_credentials) == 6
    token, rnd, seen = deal.state, random.Random(seed), set()
    while not core.finished:
        seat = core.to_act[0]
        offered = stub.LegalActions(pb.LegalActionsRequest(state=token, seat=seat), metadata=seat_meta[seat])
        assert [a.action for a in offered.actions] == [convert.action_out(a, game.notation)
                                                       for a in legal(core, seat)]
        action = _choose(core, rnd)
        reply = stub.Play(pb.PlayRequest(state=token, action=convert.action_out(action, game.notation)),
                          metadata=seat_meta[seat])
        core, events = game.apply(core, action)
        assert reply.state_digest == game.digest(core) and reply.seq == core.step
        assert list(reply.to_act) == list(core.to_act) and reply.finished == core.finished
        assert [e.type for e in reply.events] == [e.type for e in events]
        assert list(reply.views) == [_view(core, seat)]
        seen |= {e.type for e in events}
        if _joker_close(events):
            seen.add("joker close")
        token = reply.state
    assert len(expected) == core.step and {YIELD, "joker close", "OUT", "FINISH"} <= seen
    settlement = game.settle(core)
    assert sum(settlement.points) == 0 and sorted(settlement.points) == [-3, -3, -3, 3, 3, 3]
    for meta in [owner] + seat_meta:
        score = stub.Score(pb.ScoreRequest(state=token), metadata=meta)
        assert list(score.settlement.points) == list(settlement.points)
        assert sum(score.settlement.points) + score.settlement.house == 0
