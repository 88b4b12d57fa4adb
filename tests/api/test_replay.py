"""A whole round through Play, then Replay of the same seed and actions: identical at every step;
as one seat sees it (view_seat); and a later round of a match, replayed from the previous round's
token.

The rounds here are dealt from a caller's seed (the session server allows it), so their live
views and settlements say ``test_deal``; Replay re-derives a round from the seed it is given and
marks nothing. A round dealt from the server's own seed replays to exactly what was played."""
import random

import grpc
import pytest

from referee.service import bots
from referee.v1 import actions_pb2
from referee.v1 import referee_service_pb2 as pb


@pytest.fixture(scope="module")
def played(stub):
    """Each seat plays with its own credential on a DIRECT table (and sees its own view); the owner
    scores."""
    return bots.play_round(stub, random.Random(7), game="doudizhu", seed=b"replay-seed", illegal_rate=0.3,
                           seat_play=pb.SEAT_PLAY_DIRECT)


def _unmarked(messages):
    """Copies of live Views or Settlements of a test deal, each marked test_deal, with the mark
    cleared: what Replay, which marks nothing, answers."""
    out = []
    for msg in messages:
        assert msg.test_deal, msg
        copy = type(msg)()
        copy.CopyFrom(msg)
        copy.test_deal = False
        out.append(copy)
    return out


def _replays_by_seat(stub, played):
    return {seat: stub.Replay(pb.ReplayRequest(game="doudizhu", seed=b"replay-seed", actions=played.actions,
                                               view_seat=seat))
            for seat in range(3)}


def test_round_is_played_to_the_end(played):
    assert played.plays[-1].finished and played.rejected > 0
    assert [p.seq for p in played.plays] == list(range(1, len(played.plays) + 1))
    s = played.score.settlement
    assert s.outcome in ("landlord_won", "farmers_won") and sum(s.points) + s.house == 0
    assert played.plays[-1].events[-1].type == "FINISH"


def test_replay_gives_identical_digests_and_settlement(stub, raw_stub, played):
    """Every step as played: digests, and what the seat that played it was shown (its own view,
    the events as it sees them), which is that seat's replay; the full replay has every seat's
    view. The replay's sealed state scores as the round did."""
    reply = stub.Replay(pb.ReplayRequest(game="doudizhu", seed=b"replay-seed", actions=played.actions))
    by_seat = _replays_by_seat(stub, played)
    assert reply.deal.state_digest == played.deal.state_digest and reply.deal.seq == 0
    assert list(reply.deal.views) == _unmarked(played.deal.views)  # the owner dealt: every seat's view
    assert len(reply.steps) == len(played.plays)
    for n, (step, live, action) in enumerate(zip(reply.steps, played.plays, played.actions)):
        assert (step.seq, step.state_digest, step.finished) == (live.seq, live.state_digest, live.finished)
        assert list(step.to_act) == list(live.to_act)
        assert [v.seat for v in step.views] == [0, 1, 2] and [v.seat for v in live.views] == [action.seat]
        seen = by_seat[action.seat].steps[n]
        assert _unmarked(live.views) == list(seen.views) == [step.views[action.seat]]
        assert list(live.events) == list(seen.events) and len(step.events) == len(live.events)
    assert not any(v.test_deal for step in reply.steps for v in step.views)
    assert reply.settlement == _unmarked([played.score.settlement])[0]
    assert reply.commitment == played.deal.commitment
    # the replay's live state, scored by a spectator: marked as a test deal, no seed
    score = raw_stub.Score(pb.ScoreRequest(state=reply.state))
    assert score.settlement == played.score.settlement and not score.seed


def test_replay_of_a_fair_deal_is_exactly_the_round(make_server):
    """A round dealt from the server's own seed, played by the owner for every seat; the owner's
    Score reveals the seed and the entropy; Replay gives back every view, event and the
    settlement exactly, and no live state (the server takes no caller seeds)."""
    _, _, stub = make_server(allow_caller_seed=False)
    played = bots.play_round(stub, random.Random(3), game="doudizhu", as_seats=False)
    score = played.score
    assert score.seed and not score.settlement.test_deal and not played.deal.views[0].test_deal
    reply = stub.Replay(pb.ReplayRequest(game="doudizhu", seed=score.seed, client_entropy=score.client_entropy,
                                         seat_entropy=score.seat_entropy, actions=played.actions))
    assert reply.commitment == played.deal.commitment and not reply.state
    assert list(reply.deal.views) == list(played.deal.views) and list(reply.deal.events) == list(played.deal.events)
    assert len(reply.steps) == len(played.plays)
    for step, live in zip(reply.steps, played.plays):
        assert (step.seq, step.state_digest, step.finished, list(step.to_act)) == \
            (live.seq, live.state_digest, live.finished, list(live.to_act))
        assert list(step.events) == list(live.events) and list(step.views) == list(live.views)
    assert reply.settlement == score.settlement


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
    many = [actions_pb2.Action(seat=0, kind="PASS")] * 1001
    expect_error(stub.Replay, pb.ReplayRequest(game="doudizhu", seed=b"s", actions=many),
                 grpc.StatusCode.RESOURCE_EXHAUSTED, "REQUEST_TOO_LARGE")
    expect_error(stub.Replay, pb.ReplayRequest(game="doudizhu"), grpc.StatusCode.INVALID_ARGUMENT, "BAD_SEED")


@pytest.mark.parametrize("seat", [0, 1, 2, -1])
def test_replay_as_one_seat_sees_it(stub, played, seat):
    """view_seat: every step carries that seat's view only (-1: the spectator's), as Deal and
    Play with the same view_seat answer it, and DEAL events carry cards only for the seat's own
    deal; everything else is what the full replay says."""
    full = stub.Replay(pb.ReplayRequest(game="doudizhu", seed=b"replay-seed", actions=played.actions))
    one = stub.Replay(pb.ReplayRequest(game="doudizhu", seed=b"replay-seed", actions=played.actions, view_seat=seat))
    assert len(one.steps) == len(full.steps) == len(played.plays)
    live = [stub.Deal(pb.DealRequest(game="doudizhu", seed=b"replay-seed", view_seat=seat))]
    tokens = [played.deal.state] + [p.state for p in played.plays]
    live += [stub.Play(pb.PlayRequest(state=token, action=action, view_seat=seat))
             for token, action in zip(tokens, played.actions)]
    hidden = 0
    for step, whole, answer in zip([one.deal, *one.steps], [full.deal, *full.steps], live):
        assert (step.seq, step.state_digest, list(step.to_act), step.finished) == \
            (whole.seq, whole.state_digest, list(whole.to_act), whole.finished)
        assert [v.seat for v in step.views] == [seat]
        assert list(step.views) == _unmarked(answer.views) and list(step.events) == list(answer.events)
        if seat >= 0:
            assert step.views[0] == whole.views[seat]
        assert len(step.events) == len(whole.events)
        for event, full_event in zip(step.events, whole.events):
            if event.type == "DEAL" and event.seat != seat:
                assert full_event.cards.ids and not event.cards.ids and not event.cards.text
                stripped = type(full_event)()
                stripped.CopyFrom(full_event)
                stripped.cards.Clear()  # an empty card set: the event without its cards
                assert event == stripped
                hidden += 1
            else:
                assert event == full_event
    assert hidden >= (3 if seat == -1 else 2)  # at least the deal's DEAL events of the other seats
    if seat >= 0:
        own = [e for e in one.deal.events if e.type == "DEAL" and e.seat == seat]
        assert len(own) == 1 and sorted(own[0].cards.ids) == sorted(one.deal.views[0].hand.ids)
    assert one.settlement == full.settlement


def _play_out(stub, deal: pb.DealResponse, rng: random.Random) -> tuple[list, list]:
    """Random legal actions until the round ends: (actions, Play answers)."""
    state, to_act, finished, actions, plays = deal.state, deal.to_act, False, [], []
    while not finished:
        assert len(actions) < 1000, "the round does not end"
        legal = stub.LegalActions(pb.LegalActionsRequest(state=state, seat=to_act[0]))
        action = rng.choice(legal.actions).action
        reply = stub.Play(pb.PlayRequest(state=state, action=action))
        actions.append(action)
        plays.append(reply)
        state, to_act, finished = reply.state, reply.to_act, reply.finished
    return actions, plays


def test_replay_of_a_later_round_of_a_match(stub, played):
    """Round 2 dealt from the finished round 1's token, played, then replayed from the same
    token, seed and actions: the same digests at every step and the same settlement."""
    first = played.plays[-1].state
    deal = stub.Deal(pb.DealRequest(previous_state=first, seed=b"round-2"))
    assert deal.match.round == 1 and list(deal.match.totals) == list(played.score.settlement.points)
    bidder = next(e.seat for e in played.deal.events if e.type == "BID_TURN")
    assert next(e.seat for e in deal.events if e.type == "BID_TURN") == (bidder + 1) % 3  # rule 6 rotation
    actions, plays = _play_out(stub, deal, random.Random(11))
    score = stub.Score(pb.ScoreRequest(state=plays[-1].state))
    reply = stub.Replay(pb.ReplayRequest(previous_state=first, seed=b"round-2", actions=actions))
    assert reply.deal.state_digest == deal.state_digest and reply.deal.seq == 0
    assert [s.state_digest for s in reply.steps] == [p.state_digest for p in plays]
    assert [list(s.events) for s in reply.steps] == [list(p.events) for p in plays]
    assert reply.settlement == _unmarked([score.settlement])[0] and reply.commitment == deal.commitment
    # the next round keeps the table: its owner continues the replay's live state
    assert stub.Score(pb.ScoreRequest(state=reply.state)).seed == b"round-2"
    # the same seed as a first round is another deal: the previous round's token counts
    alone = stub.Replay(pb.ReplayRequest(game="doudizhu", seed=b"round-2"))
    assert alone.deal.state_digest != deal.state_digest


def test_bots_illegal_tries_know_the_landlords_kitty(stub):
    """A seat's hand for an illegal try is its view now: the landlord's kitty reaches it with
    another seat's bid, whose reply shows that seat's view only (a card of the kitty sent as
    "not in hand" was accepted: the fleet test caught it under load)."""
    for i in range(60):
        played = bots.play_round(stub, random.Random(i), game="doudizhu", seed=b"kitty %d" % i, illegal_rate=1.0)
        assert played.score.settlement.outcome
