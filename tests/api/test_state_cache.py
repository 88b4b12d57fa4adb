"""The servicer's cache of recently sealed states: hits skip opening, misses open as usual, and
nothing but this process's own token bytes can hit."""
import pytest

from referee.core.errors import InvalidAction, Reason
from referee.service.servicer import RecentStates, RefereeServicer
from referee.service.token import KeyRing, Sealer
from referee.v1 import referee_service_pb2 as pb


def _servicer(size: int = 4096) -> RefereeServicer:
    return RefereeServicer(Sealer(KeyRing.generate()), size)


def _count_opens(servicer: RefereeServicer) -> list:
    opened = []
    real = servicer.sealer.open

    def counting(token, game=None):
        opened.append(token)
        return real(token, game)

    servicer.sealer.open = counting
    return opened


def test_own_tokens_are_answered_without_opening_them():
    servicer = _servicer()
    opened = _count_opens(servicer)
    deal = servicer.Deal(pb.DealRequest(game="doudizhu", seed=b"cache"), None)
    legal = servicer.LegalActions(pb.LegalActionsRequest(state=deal.state, seat=deal.to_act[0]), None)
    action = legal.actions[0].action
    assert servicer.Validate(pb.ValidateRequest(state=deal.state, action=action), None).legal
    played = servicer.Play(pb.PlayRequest(state=deal.state, action=action, expected_seq=deal.seq), None)
    servicer.LegalActions(pb.LegalActionsRequest(state=played.state, seat=played.to_act[0]), None)
    assert opened == []


def test_misses_open_the_token_and_answer_alike():
    """Another process's token (same keys, empty cache), and an evicted one, are opened."""
    ring = KeyRing.generate()
    sealer_side, other = RefereeServicer(Sealer(ring)), RefereeServicer(Sealer(ring), 2)
    deal = sealer_side.Deal(pb.DealRequest(game="mcr", seed=b"cache"), None)
    opened = _count_opens(other)
    request = pb.LegalActionsRequest(state=deal.state, seat=deal.to_act[0])
    assert other.LegalActions(request, None) == sealer_side.LegalActions(request, None)
    assert opened == [deal.state]
    # size 2: the third seal evicts the first token, which still opens
    first = other.Deal(pb.DealRequest(game="doudizhu", seed=b"a"), None).state
    for seed in (b"b", b"c"):
        other.Deal(pb.DealRequest(game="doudizhu", seed=seed), None)
    opened.clear()
    other.LegalActions(pb.LegalActionsRequest(state=first, seat=0), None)
    assert opened == [first]


def test_tampered_and_foreign_tokens_are_refused_while_the_original_is_cached():
    servicer = _servicer()
    token = servicer.Deal(pb.DealRequest(game="doudizhu", seed=b"tamper"), None).state
    tampered = token[:-1] + bytes([token[-1] ^ 1])
    foreign = _servicer().Deal(pb.DealRequest(game="doudizhu", seed=b"tamper"), None).state
    for bad in (tampered, foreign):
        with pytest.raises(InvalidAction) as caught:
            servicer._open(bad)
        assert caught.value.reason == Reason.STATE_TOKEN_INVALID
    assert servicer._open(token)[1].step == 0  # the caller's token still works


def test_size_bound_and_off():
    cache = RecentStates(3)
    for i in range(10):
        cache.put(bytes([i]), (i, None, None))
    assert [cache.get(bytes([i])) for i in range(10)] == [None] * 7 + [(i, None, None) for i in (7, 8, 9)]
    off = RecentStates(0)
    off.put(b"x", (0, None, None))
    assert off.get(b"x") is None


@pytest.mark.parametrize("game", ["doudizhu", "mcr"])
def test_answers_with_and_without_the_cache_are_the_same(game):
    """A whole round played through a servicer with the cache and one without: every answer
    equal but for the tokens themselves (random nonces), digests and views included."""
    import random

    rng = random.Random(7)
    pair = _servicer(), _servicer(0)
    deals = [s.Deal(pb.DealRequest(game=game, seed=b"same"), None) for s in pair]
    assert deals[0].state_digest == deals[1].state_digest and list(deals[0].views) == list(deals[1].views)
    states, to_act, finished, plays = [d.state for d in deals], deals[0].to_act, False, 0
    while not finished:
        seat = rng.choice(list(to_act))
        legal = [s.LegalActions(pb.LegalActionsRequest(state=t, seat=seat), None) for s, t in zip(pair, states)]
        assert legal[0] == legal[1]
        action = rng.choice(legal[0].actions).action
        verdicts = [s.Validate(pb.ValidateRequest(state=t, action=action), None) for s, t in zip(pair, states)]
        assert verdicts[0] == verdicts[1] and verdicts[0].legal
        replies = [s.Play(pb.PlayRequest(state=t, action=action), None) for s, t in zip(pair, states)]
        states = [r.state for r in replies]
        for r in replies:
            r.ClearField("state")
        assert replies[0] == replies[1]
        to_act, finished, plays = replies[0].to_act, replies[0].finished, plays + 1
    scores = [s.Score(pb.ScoreRequest(state=t), None) for s, t in zip(pair, states)]
    assert scores[0] == scores[1] and plays > 20
    assert len(pair[0].recent._items) == plays + 1 and not pair[1].recent._items
