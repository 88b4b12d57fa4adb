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
        assert caught.value.reason is Reason.STATE_TOKEN_INVALID
    assert servicer._open(token)[1].step == 0  # the caller's token still works


def test_size_bound_and_off():
    cache = RecentStates(3)
    for i in range(10):
        cache.put(bytes([i]), (i, None, None))
    assert [cache.get(bytes([i])) for i in range(10)] == [None] * 7 + [(i, None, None) for i in (7, 8, 9)]
    off = RecentStates(0)
    off.put(b"x", (0, None, None))
    assert off.get(b"x") is None
