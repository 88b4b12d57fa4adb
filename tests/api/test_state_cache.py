"""The servicer's cache of recently sealed states: hits skip opening, misses open as usual, and
nothing but this process's own token bytes can hit. The servicer is called directly, as the
table's owner (the credential Deal returns, in the call's metadata)."""
import pytest

from referee.core.errors import InvalidAction, Reason, Unauthenticated
from referee.service.credentials import bearer
from referee.service.servicer import RecentStates, RefereeServicer, Table
from referee.service.token import CALLER_SEED, STATE, KeyRing, Sealer
from referee.v1 import referee_service_pb2 as pb


class _Context:
    """The one thing the servicer reads of a gRPC context: the call's metadata."""

    def __init__(self, credential: bytes = b""):
        self.metadata = (bearer(credential),) if credential else ()

    def invocation_metadata(self):
        return self.metadata


NOBODY = _Context()


def _servicer(size: int = 4096) -> RefereeServicer:
    # one frozen time for both servicers: their answers' deadlines and server times are equal
    return RefereeServicer(Sealer(KeyRing.generate()), size, allow_caller_seed=True, time_source=lambda: 1.8e9)


def _deal(servicer: RefereeServicer, **fields) -> tuple[pb.DealResponse, _Context]:
    deal = servicer.Deal(pb.DealRequest(**fields), NOBODY)
    return deal, _Context(deal.owner_credential)


def _count_opens(servicer: RefereeServicer) -> list:
    opened = []
    real = servicer.sealer.open

    def counting(token, game=None, kind=STATE):
        opened.append(token)
        return real(token, game, kind)

    servicer.sealer.open = counting
    return opened


def test_own_tokens_are_answered_without_opening_them():
    servicer = _servicer()
    opened = _count_opens(servicer)
    deal, owner = _deal(servicer, game="doudizhu", seed=b"cache")
    legal = servicer.LegalActions(pb.LegalActionsRequest(state=deal.state, seat=deal.to_act[0]), owner)
    action = legal.actions[0].action
    assert servicer.Validate(pb.ValidateRequest(state=deal.state, action=action), owner).legal
    played = servicer.Play(pb.PlayRequest(state=deal.state, action=action, expected_seq=deal.seq), owner)
    servicer.LegalActions(pb.LegalActionsRequest(state=played.state, seat=played.to_act[0]), owner)
    assert opened == []


def test_a_hit_keeps_the_table_and_its_flags():
    """A cached state answers as its token would: the same table (its credentials still open
    it, another table's do not) and the same flags (a caller's seed stays marked)."""
    servicer = _servicer()
    opened = _count_opens(servicer)
    deal, owner = _deal(servicer, game="doudizhu", seed=b"cache-table")
    _, other_owner = _deal(servicer, game="doudizhu", seed=b"cache-table")
    hit = servicer._open(deal.state)
    assert isinstance(hit, Table) and hit.seq == 0 and hit.flags == CALLER_SEED and hit.test_deal
    assert hit.table == servicer.sealer.open(deal.state).table  # what the token says
    opened.clear()
    seat = deal.to_act[0]
    legal = pb.LegalActionsRequest(state=deal.state, seat=seat)
    actions = servicer.LegalActions(legal, _Context(deal.seat_credentials[seat])).actions
    with pytest.raises(Unauthenticated) as caught:
        servicer.LegalActions(legal, other_owner)
    assert caught.value.reason == Reason.CREDENTIAL_INVALID
    played = servicer.Play(pb.PlayRequest(state=deal.state, action=actions[0].action), owner)
    assert played.seq == 1 and all(v.test_deal for v in played.views)
    assert opened == []


def test_misses_open_the_token_and_answer_alike():
    """Another process's token (same keys, empty cache), and an evicted one, are opened."""
    ring = KeyRing.generate()
    sealer_side = RefereeServicer(Sealer(ring), allow_caller_seed=True)
    other = RefereeServicer(Sealer(ring), 2, allow_caller_seed=True)
    deal, owner = _deal(sealer_side, game="mcr", seed=b"cache")
    opened = _count_opens(other)
    request = pb.LegalActionsRequest(state=deal.state, seat=deal.to_act[0])
    assert other.LegalActions(request, owner) == sealer_side.LegalActions(request, owner)
    assert opened == [deal.state]
    # size 2: the third seal evicts the first token, which still opens
    first, first_owner = _deal(other, game="doudizhu", seed=b"a")
    for seed in (b"b", b"c"):
        _deal(other, game="doudizhu", seed=seed)
    opened.clear()
    other.LegalActions(pb.LegalActionsRequest(state=first.state, seat=0), first_owner)
    assert opened == [first.state]


def test_tampered_and_foreign_tokens_are_refused_while_the_original_is_cached():
    servicer = _servicer()
    token = _deal(servicer, game="doudizhu", seed=b"tamper")[0].state
    tampered = token[:-1] + bytes([token[-1] ^ 1])
    foreign = _deal(_servicer(), game="doudizhu", seed=b"tamper")[0].state
    for bad in (tampered, foreign):
        with pytest.raises(InvalidAction) as caught:
            servicer._open(bad)
        assert caught.value.reason == Reason.STATE_TOKEN_INVALID
    assert servicer._open(token).state.step == 0  # the caller's token still works


def test_size_bound_and_off():
    cache = RecentStates(3)
    tables = [Table(i, None, None, bytes([i]) * 16, 0) for i in range(10)]
    for i, table in enumerate(tables):
        cache.put(bytes([i]), table)
    assert [cache.get(bytes([i])) for i in range(10)] == [None] * 7 + tables[7:]
    off = RecentStates(0)
    off.put(b"x", tables[0])
    assert off.get(b"x") is None


@pytest.mark.parametrize("game", ["doudizhu", "mcr"])
def test_answers_with_and_without_the_cache_are_the_same(game):
    """A whole round played through a servicer with the cache and one without: every answer
    equal but for the tokens themselves (random nonces), digests and views included."""
    import random

    rng = random.Random(7)
    pair = _servicer(), _servicer(0)
    dealt = [_deal(s, game=game, seed=b"same") for s in pair]
    deals, owners = [d for d, _ in dealt], [o for _, o in dealt]
    assert deals[0].state_digest == deals[1].state_digest and list(deals[0].views) == list(deals[1].views)
    states, to_act, finished, plays = [d.state for d in deals], deals[0].to_act, False, 0
    while not finished:
        seat = rng.choice(list(to_act))
        legal = [s.LegalActions(pb.LegalActionsRequest(state=t, seat=seat), o) for s, t, o in zip(pair, states, owners)]
        assert legal[0] == legal[1]
        action = rng.choice(legal[0].actions).action
        verdicts = [s.Validate(pb.ValidateRequest(state=t, action=action), o) for s, t, o in zip(pair, states, owners)]
        assert verdicts[0] == verdicts[1] and verdicts[0].legal
        replies = [s.Play(pb.PlayRequest(state=t, action=action), o) for s, t, o in zip(pair, states, owners)]
        states = [r.state for r in replies]
        for r in replies:
            r.ClearField("state")
        assert replies[0] == replies[1]
        to_act, finished, plays = replies[0].to_act, replies[0].finished, plays + 1
    scores = [s.Score(pb.ScoreRequest(state=t), o) for s, t, o in zip(pair, states, owners)]
    assert scores[0] == scores[1] and scores[0].seed == b"same" and plays > 20
    assert len(pair[0].recent._items) == plays + 1 and not pair[1].recent._items
