"""A whole round through Play, then Replay of the same seed and actions: identical at every step."""
import random

import grpc
import pytest

from referee.service import bots
from referee.v1 import actions_pb2
from referee.v1 import referee_service_pb2 as pb


@pytest.fixture(scope="module")
def played(stub):
    return bots.play_round(stub, random.Random(7), seed=b"replay-seed", illegal_rate=0.3)


def test_round_is_played_to_the_end(played):
    assert played.plays[-1].finished and played.rejected > 0
    assert [p.seq for p in played.plays] == list(range(1, len(played.plays) + 1))
    s = played.score.settlement
    assert s.outcome in ("landlord_won", "farmers_won") and sum(s.points) + s.house == 0
    assert played.plays[-1].events[-1].type == "FINISH"


def test_replay_gives_identical_digests_and_settlement(stub, played):
    reply = stub.Replay(pb.ReplayRequest(game="doudizhu", seed=b"replay-seed", actions=played.actions))
    assert reply.deal.state_digest == played.deal.state_digest and reply.deal.seq == 0
    assert len(reply.steps) == len(played.plays)
    for step, live in zip(reply.steps, played.plays):
        assert (step.seq, step.state_digest, step.finished) == (live.seq, live.state_digest, live.finished)
        assert list(step.events) == list(live.events) and list(step.views) == list(live.views)
    assert reply.settlement == played.score.settlement
    assert reply.commitment == played.deal.commitment
    assert stub.Score(pb.ScoreRequest(state=reply.state)).settlement == played.score.settlement


def test_replay_of_a_prefix_continues(stub, played):
    reply = stub.Replay(pb.ReplayRequest(game="doudizhu", seed=b"replay-seed", actions=played.actions[:5]))
    assert not reply.HasField("settlement") and reply.steps[-1].seq == 5
    nxt = stub.Play(pb.PlayRequest(state=reply.state, action=played.actions[5], expected_seq=5))
    assert nxt.state_digest == played.plays[5].state_digest


def test_replay_with_an_illegal_action_names_it(stub, expect_error, played):
    wrong = actions_pb2.Action()
    wrong.CopyFrom(played.actions[3])
    wrong.seat = (wrong.seat + 1) % 3
    actions = list(played.actions[:3]) + [wrong] + list(played.actions[4:])
    info = expect_error(stub.Replay, pb.ReplayRequest(game="doudizhu", seed=b"replay-seed", actions=actions),
                        grpc.StatusCode.FAILED_PRECONDITION, "NOT_YOUR_TURN")
    assert info.metadata["action_index"] == "3"


def test_replay_limits_and_seed(stub, expect_error):
    many = [actions_pb2.Action(seat=0, type=actions_pb2.PASS)] * 1001
    expect_error(stub.Replay, pb.ReplayRequest(game="doudizhu", seed=b"s", actions=many),
                 grpc.StatusCode.RESOURCE_EXHAUSTED, "REQUEST_TOO_LARGE")
    expect_error(stub.Replay, pb.ReplayRequest(game="doudizhu"), grpc.StatusCode.INVALID_ARGUMENT, "BAD_SEED")
