"""A whole 国标麻将 局 (rule 13) under the seed's clock (rules 14-15) with no timer code of the
platform's own: one seat never answers, and every time it is awaited the owner, once its deadline
has passed on the injected clock, asks the referee for the defaults. The 局 still ends after its 16
盘, the deal passing every 盘 and the prevalent wind every 圈, with balanced scores; every hand's
record replays to the same state without a clock."""
from __future__ import annotations

import random

from referee.core.clock import TIMEOUT
from referee.core.registry import get_game
from referee.service import convert
from referee.v1 import referee_service_pb2 as pb

from .test_clock import KEYS, FakeClock

MCR = get_game("mcr")
SILENT = 2  # the seat that never answers


def _choose(rnd, state, seat):
    legal = [a for a, _ in MCR.legal_actions(state, seat)]
    wins = [a for a in legal if a.kind == "WIN"]
    return wins[0] if wins else rnd.choice(legal)


def test_rule_13_15_a_whole_ju_with_a_seat_that_times_out_every_turn_ends_balanced(make_server):
    fake = FakeClock()
    _, _, stub = make_server(KEYS, time_source=fake, clock_tolerance_ms=500)
    rnd = random.Random(13)
    deal = stub.Deal(pb.DealRequest(game="mcr", seed=b"ju 0"))
    core = MCR.deal(MCR.make_options(), b"ju 0", b"")
    totals, dealers, winds, timeouts, silent_turns = [0] * 4, [], [], 0, 0
    for hand in range(16):
        assert (deal.match.round, list(deal.match.totals)) == (hand, totals)
        dealers.append(core.dealer)
        winds.append(core.prevalent_wind)
        token, record = deal.state, []
        while not core.finished:
            movers = [s for s in core.to_act if s != SILENT]
            if movers:  # the other seats answer at once (the owner applies their moves)
                action = _choose(rnd, core, movers[0])
                reply = stub.Play(pb.PlayRequest(state=token, action=convert.action_out(action, MCR.notation)))
            else:  # only the silent seat is awaited: its time runs out
                silent_turns += 1
                fake.t += 31
                reply = stub.Play(pb.PlayRequest(state=token, timeouts=True))
            applied = [convert.action_in(a, MCR) for a in reply.applied]
            assert all(a.seat == SILENT and a.kind == TIMEOUT for a in applied[0 if not movers else 1:])
            timeouts += sum(a.kind == TIMEOUT for a in applied)
            for a in applied:
                core, _ = MCR.apply(core, a)
            assert reply.state_digest == MCR.digest(core)
            record += applied
            token = reply.state
        score = stub.Score(pb.ScoreRequest(state=token))
        points = list(score.settlement.points)
        assert sum(points) + score.settlement.house == 0
        totals = [t + p for t, p in zip(totals, points)]
        assert list(score.match.totals) == totals and score.match.over == (hand == 15)
        if hand == 0:  # the first hand's record, replayed with no clock, reaches the same state
            replay = stub.Replay(pb.ReplayRequest(game="mcr", seed=b"ju 0", view_seat=0,
                                                  actions=[convert.action_out(a, MCR.notation) for a in record]))
            assert replay.steps[-1].state_digest == MCR.digest(core)
        if hand < 15:
            deal = stub.Deal(pb.DealRequest(previous_state=token, seed=b"ju %d" % (hand + 1)))
            core = MCR.deal(core.options, b"ju %d" % (hand + 1), b"", 4, MCR.next_round(core))
    assert sum(totals) == 0 and timeouts >= silent_turns > 16
    assert dealers == [(dealers[0] + i) % 4 for i in range(16)]  # the deal passes every 盘
    assert winds == [i // 4 for i in range(16)]  # 圈风 East, South, West, North by 圈
    nxt = stub.Deal(pb.DealRequest(previous_state=token, seed=b"next ju"))
    assert (nxt.match.number, nxt.match.round, list(nxt.match.totals)) == (1, 0, [0] * 4)  # the next 局, same table
