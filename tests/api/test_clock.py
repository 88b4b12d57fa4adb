"""Turn clocks through the API, with injected clocks (never the wall's, never a timed assertion):
deadlines in the sealed token and in views, a late action or sealed move refused TOO_LATE, the
owner's timeouts applying the game's default as an explicit TIMEOUT action, pods whose clocks
differ within the tolerance, autoplay (托管), and digests and Replay that never depend on a clock.
"""
from __future__ import annotations

import grpc
import pytest

from referee.core.clock import TIMEOUT
from referee.core.game import Action
from referee.core.registry import get_game
from referee.service import convert
from referee.service.credentials import bearer
from referee.service.token import KeyRing
from referee.v1 import options_pb2
from referee.v1 import referee_service_pb2 as pb

from .conftest import error_of

T0 = 1_800_000_000  # seconds: the tests' clocks start here
T0_MS = T0 * 1000
MCR = get_game("mcr")
KEYS = KeyRing("k1", {"k1": bytes(range(32))})


class FakeClock:
    """A time source a test moves by hand (seconds since the epoch)."""

    def __init__(self, t: float = T0):
        self.t = t

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def clocked(make_server):
    fake = FakeClock()
    _, _, stub = make_server(KEYS, time_source=fake, clock_tolerance_ms=500)
    return fake, stub


def _action(game, action: Action):
    return convert.action_out(action, game.notation)


def _core_action(msg, game) -> Action:
    return convert.action_in(msg, game)


def _reason(call, request, metadata=()):
    code, info, _ = error_of(lambda r: call(r, metadata=metadata), request)
    return code, info.reason if info else None, dict(info.metadata) if info else {}


def test_rule_14_the_dealer_has_30_s_and_every_view_shows_the_public_deadline(clocked):
    fake, stub = clocked
    deal = stub.Deal(pb.DealRequest(game="mcr", seed=b"clock deal"))
    dealer = deal.to_act[0]
    assert deal.server_time_ms == T0_MS
    for view in deal.views:
        assert view.deadline_ms == (T0_MS + 30_000 if view.seat == dealer else 0)
        assert [s.deadline_ms for s in view.seats] == [T0_MS + 30_000 if s == dealer else 0 for s in range(4)]
    spectator = stub.GetView(pb.GetViewRequest(state=deal.state, view_seat=-1))
    assert spectator.views[0].seats[dealer].deadline_ms == T0_MS + 30_000


def test_a_late_action_is_refused_too_late_and_the_owner_applies_the_rule_15_default(clocked):
    fake, stub = clocked
    deal = stub.Deal(pb.DealRequest(game="mcr", seed=b"late"))
    dealer = deal.to_act[0]
    core = MCR.deal(MCR.make_options(), b"late", b"")
    discard = MCR.legal_actions(core, dealer)[0][0]
    fake.t = T0 + 30.4  # within the tolerance (500 ms): still in time
    assert stub.Validate(pb.ValidateRequest(state=deal.state, action=_action(MCR, discard))).legal
    code, reason, _ = _reason(stub.Play, pb.PlayRequest(state=deal.state, timeouts=True))
    assert (code, reason) == (grpc.StatusCode.FAILED_PRECONDITION, "NOT_EXPIRED")
    fake.t = T0 + 30.6
    code, reason, meta = _reason(stub.Play, pb.PlayRequest(state=deal.state, action=_action(MCR, discard)))
    assert (code, reason, meta["deadline_ms"]) == (grpc.StatusCode.FAILED_PRECONDITION, "TOO_LATE", str(T0_MS + 30_000))
    seat_meta = (bearer(deal.seat_credentials[dealer]),)
    code, reason, _ = _reason(stub.Play, pb.PlayRequest(state=deal.state, action=_action(MCR, discard)), seat_meta)
    assert reason == "TOO_LATE"  # a seat's own move too, before it is sealed
    code, reason, _ = _reason(stub.Play, pb.PlayRequest(state=deal.state, action=_action(
        MCR, Action(dealer, TIMEOUT))), seat_meta)
    assert (code, reason) == (grpc.StatusCode.PERMISSION_DENIED, "OWNER_ONLY")
    reply = stub.Play(pb.PlayRequest(state=deal.state, timeouts=True))
    applied = [_core_action(a, MCR) for a in reply.applied]
    assert applied == [Action(dealer, TIMEOUT)]
    assert [e.type for e in reply.events[:2]] == ["TIMEOUT", "DISCARD"]
    expected, _ = MCR.apply(core, MCR.default_action(core, dealer))  # rule 15: the tile just drawn
    assert list(reply.events[1].cards.ids) == [core.drawn]
    assert reply.state_digest == MCR.digest(expected)


def test_timeouts_expire_only_past_the_deadline_on_pods_whose_clocks_differ(make_server):
    """Two pods share the keys; the second's clock is 400 ms ahead of the first's. Within the
    tolerance (500 ms) the second still takes the action and refuses the timeout; past it, the
    reverse."""
    first, second = FakeClock(), FakeClock(T0 + 0.4)
    _, _, stub1 = make_server(KEYS, time_source=first, clock_tolerance_ms=500)
    _, _, stub2 = make_server(KEYS, time_source=second, clock_tolerance_ms=500)
    deal = stub1.Deal(pb.DealRequest(game="mcr", seed=b"skew"))
    owner = (bearer(deal.owner_credential),)
    dealer = deal.to_act[0]
    discard = MCR.legal_actions(MCR.deal(MCR.make_options(), b"skew", b""), dealer)[0][0]
    first.t, second.t = T0 + 30.0, T0 + 30.4  # the first pod's deadline, as each pod reads the time
    play = pb.PlayRequest(state=deal.state, action=_action(MCR, discard))
    assert stub2.Play(play, metadata=owner).applied[0].kind == "DISCARD"
    code, reason, meta = _reason(stub2.Play, pb.PlayRequest(state=deal.state, timeouts=True), owner)
    assert reason == "NOT_EXPIRED" and int(meta["retry_after_ms"]) == 101
    second.t = T0 + 30.501 + 0.4
    assert _reason(stub2.Play, play, owner)[1] == "TOO_LATE"
    assert stub2.Play(pb.PlayRequest(state=deal.state, timeouts=True), metadata=owner).applied[0].kind == TIMEOUT


def _to_window(stub, fake, seed: bytes):
    """A relayed mcr table driven by rule 15's defaults until a claim window opens."""
    deal = stub.Deal(pb.DealRequest(game="mcr", seed=seed))
    token = deal.state
    core = MCR.deal(MCR.make_options(), seed, b"")
    while MCR.phase_name(core) != "claim":
        seat = core.to_act[0]
        reply = stub.Play(pb.PlayRequest(state=token, action=_action(MCR, MCR.default_action(core, seat))))
        core, _ = MCR.apply(core, MCR.default_action(core, seat))
        token = reply.state
        fake.t += 1
    return deal, token, core


def test_rule_14_a_claim_window_gives_3_s_and_a_sealed_answer_made_in_time_is_applied_later(clocked):
    fake, stub = clocked
    deal, token, core = _to_window(stub, fake, b"window 1")
    opened_ms = int(fake.t * 1000) - 1000
    seat = core.to_act[0]
    view = stub.GetView(pb.GetViewRequest(state=token, view_seat=seat)).views[0]
    assert view.deadline_ms == opened_ms + 3_000
    for view in stub.GetView(pb.GetViewRequest(state=token)).views:  # each askee sees only its own deadline
        assert [s.deadline_ms for s in view.seats] == [opened_ms + 3_000 if s in core.to_act and s == view.seat
                                                       else 0 for s in range(4)]
        assert view.deadline_ms == (opened_ms + 3_000 if view.seat in core.to_act else 0)
    seat_meta = (bearer(deal.seat_credentials[seat]),)
    sealed = stub.Play(pb.PlayRequest(state=token, action=_action(MCR, Action(seat, "PASS"))), metadata=seat_meta)
    assert sealed.answer and sealed.server_time_ms == int(fake.t * 1000)
    fake.t += 10  # the owner relays it late: it was made in time
    reply = stub.Play(pb.PlayRequest(state=token, answers=[sealed.answer]))
    assert _core_action(reply.applied[0], MCR) == Action(seat, "PASS")


def test_a_sealed_answer_is_refused_once_the_window_has_expired(clocked):
    fake, stub = clocked
    deal, token, core = _to_window(stub, fake, b"window 2")
    seat = core.to_act[0]
    fake.t += 3  # past 3 s and the tolerance
    seat_meta = (bearer(deal.seat_credentials[seat]),)
    assert _reason(stub.Play, pb.PlayRequest(state=token, action=_action(MCR, Action(seat, "PASS"))),
                   seat_meta)[1] == "TOO_LATE"
    reply = stub.Play(pb.PlayRequest(state=token, timeouts=True))
    assert {a.seat for a in reply.applied} == set(core.to_act) and {a.kind for a in reply.applied} == {TIMEOUT}
    assert not [e for e in reply.events if e.type == TIMEOUT]  # the askees stay secret


def test_clock_off_and_seconds_are_options_of_every_game(clocked):
    fake, stub = clocked
    info = {g.id: g for g in stub.ListGames(pb.ListGamesRequest()).games}
    for game in info.values():
        names = [o.name for o in game.options]
        assert names[-2:] == ["clock", "clock_seconds"]
    ddz = {o.name: o for o in info["doudizhu"].options}
    assert ddz["clock"].default_value.string_value == "off"
    deal = stub.Deal(pb.DealRequest(game="doudizhu", seed=b"off"))
    assert not any(v.deadline_ms or any(s.deadline_ms for s in v.seats) for v in deal.views)
    assert _reason(stub.Play, pb.PlayRequest(state=deal.state, timeouts=True))[1] == "NOT_EXPIRED"
    deal = stub.Deal(pb.DealRequest(game="doudizhu", seed=b"on", options={
        "clock": options_pb2.OptionValue(string_value="seconds"), "clock_seconds": options_pb2.OptionValue(int_value=20)}))
    first = deal.to_act[0]
    assert deal.views[first].deadline_ms == T0_MS + 20_000
    fake.t += 21
    reply = stub.Play(pb.PlayRequest(state=deal.state, timeouts=True))
    assert [(a.seat, a.kind) for a in reply.applied] == [(first, TIMEOUT)]
    assert reply.views[reply.to_act[0]].deadline_ms == T0_MS + 41_000
    game = get_game("doudizhu")  # the owner may apply a seat's default before its deadline, as an action
    nxt = stub.Play(pb.PlayRequest(state=reply.state, action=_action(game, Action(reply.to_act[0], TIMEOUT))))
    assert [(a.seat, a.kind) for a in nxt.applied] == [(reply.to_act[0], TIMEOUT)]


def test_autoplay_plays_the_default_inside_the_owners_calls_until_taken_off(clocked):
    fake, stub = clocked
    game = get_game("doudizhu")
    deal = stub.Deal(pb.DealRequest(game="doudizhu", seed=b"autoplay"))
    core = game.deal(game.make_options(), b"autoplay", b"")
    others = [s for s in range(3) if s != deal.to_act[0]]
    reply = stub.Play(pb.PlayRequest(state=deal.state, autoplay_on=others))
    assert not reply.applied and all(v.seats[s].autoplay for v in reply.views for s in others)
    token, record = reply.state, []
    while not core.finished and len(record) < 200:
        seat = core.to_act[0]
        assert seat not in others  # every other seat was played inside the owner's call
        action = game.legal_actions(core, seat)[0][0]
        reply = stub.Play(pb.PlayRequest(state=token, action=_action(game, action)))
        applied = [_core_action(a, game) for a in reply.applied]
        assert applied[0] == action and all(a.kind == TIMEOUT and a.value == 1 and a.seat in others
                                            for a in applied[1:])
        for a in applied:
            core, _ = game.apply(core, a)
        assert reply.state_digest == game.digest(core)
        record += applied
        token = reply.state
        if len(record) > 6:
            reply = stub.Play(pb.PlayRequest(state=token, autoplay_off=others))
            assert not any(s.autoplay for s in reply.views[0].seats)
            token = reply.state
            break
    replay = stub.Replay(pb.ReplayRequest(game="doudizhu", seed=b"autoplay", view_seat=0,
                                          actions=[_action(game, a) for a in record]))
    assert replay.steps[-1].state_digest == game.digest(core)


def test_digests_and_replay_never_depend_on_the_clock(clocked):
    """The same round under clock=seed (with timeouts) and clock=off: the same digests; a Replay of
    its record, which needs no clock, too."""
    fake, stub = clocked
    off = {"clock": options_pb2.OptionValue(string_value="off")}
    seeded = stub.Deal(pb.DealRequest(game="mcr", seed=b"digests"))
    plain = stub.Deal(pb.DealRequest(game="mcr", seed=b"digests", options=off))
    assert seeded.state_digest == plain.state_digest and len(seeded.state) == len(plain.state)
    token_a, token_b, record, digests = seeded.state, plain.state, [], []
    for _ in range(12):
        fake.t += 31
        a = stub.Play(pb.PlayRequest(state=token_a, timeouts=True))
        for action in a.applied:  # the same actions, applied one by one by the owner on the unclocked table
            b = stub.Play(pb.PlayRequest(state=token_b, action=action))
            token_b = b.state
            record.append(action)
            digests.append(b.state_digest)
        assert a.state_digest == b.state_digest and {x.kind for x in a.applied} == {TIMEOUT}
        token_a = a.state
    replay = stub.Replay(pb.ReplayRequest(game="mcr", seed=b"digests", actions=record, view_seat=0))
    assert [s.state_digest for s in replay.steps] == digests
    assert not replay.steps[0].views[0].deadline_ms  # a Replay has no clock


def test_a_token_without_a_clock_record_still_opens():
    """Tokens sealed before the clock (no CLOCKED flag) open with no clock."""
    from referee.service.servicer import RefereeServicer, Table
    from referee.service.token import Sealer

    game = get_game("doudizhu")
    state = game.deal(game.make_options(), b"old", b"")
    servicer = RefereeServicer(Sealer(KEYS))
    token = Sealer(KEYS).seal(game.id, 0, game.pack(state), bytes(16), flags=1, size=game.state_bytes)
    table = servicer._open(token)
    assert table.state == state and not table.clock.deadlines and isinstance(table, Table)


def test_a_move_on_a_token_without_a_clock_record_is_never_late(clocked):
    """A token sealed before the clock has no deadlines, so its moves are in time whenever they
    come (not TOO_LATE against a deadline of 0 or of any other made-up value)."""
    from referee.service.credentials import OWNER, Credentials
    from referee.service.token import Sealer

    _, stub = clocked
    game = get_game("doudizhu")
    state = game.deal(game.make_options(), b"old", b"")
    table = bytes(16)
    token = Sealer(KEYS).seal(game.id, 0, game.pack(state), table, flags=1, size=game.state_bytes)
    owner = (bearer(Credentials(KEYS).make(table, OWNER)),)
    seat = state.to_act[0]
    legal = stub.LegalActions(pb.LegalActionsRequest(state=token, seat=seat), metadata=owner)
    reply = stub.Play(pb.PlayRequest(state=token, action=legal.actions[0].action), metadata=owner)
    assert [a.seat for a in reply.applied] == [seat] and reply.seq == 1


def test_autoplay_is_kept_by_the_next_round_and_played_inside_its_deal(clocked):
    """Every seat on autoplay: the owner's call plays the whole round; the next round of the match
    keeps the seats on autoplay, and its Deal plays it at once, its record in `applied`."""
    fake, stub = clocked
    game = get_game("doudizhu")
    deal = stub.Deal(pb.DealRequest(game="doudizhu", seed=b"all on autoplay"))
    reply = stub.Play(pb.PlayRequest(state=deal.state, autoplay_on=[0, 1, 2]))
    assert reply.finished and all(a.kind == TIMEOUT and a.value == 1 for a in reply.applied)
    core = game.deal(game.make_options(), b"all on autoplay", b"")
    for a in reply.applied:
        core, _ = game.apply(core, _core_action(a, game))
    assert reply.state_digest == game.digest(core)
    nxt = stub.Deal(pb.DealRequest(previous_state=reply.state, seed=b"round 2"))
    assert nxt.applied and nxt.views[0].finished and all(s.autoplay for s in nxt.views[0].seats)
    replay = stub.Replay(pb.ReplayRequest(previous_state=reply.state, seed=b"round 2", view_seat=0,
                                          actions=list(nxt.applied)))
    assert replay.steps[-1].state_digest == nxt.state_digest
    code, reason, _ = _reason(stub.Play, pb.PlayRequest(state=deal.state, autoplay_on=[3]))
    assert (code, reason) == (grpc.StatusCode.INVALID_ARGUMENT, "BAD_SEAT")
