"""Service pinned (issue 25, ``make mutate GAME=service``): what the survivors of the trust path's
mutation run showed no test asserted. Each test names the behaviour, not the mutant."""
from __future__ import annotations

import grpc
import pytest

from referee.service import convert
from referee.service import credentials as creds
from referee.service.credentials import OWNER, Credentials, bearer
from referee.service.servicer import RefereeServicer
from referee.service.token import KeyRing, Sealer
from referee.v1 import actions_pb2
from referee.v1 import referee_service_pb2 as pb

from .conftest import error_of

TABLE = bytes(range(16))


def _counting_macs(monkeypatch) -> list:
    computed = []
    real = creds._mac

    def counted(key, table, role):
        computed.append((table, role))
        return real(key, table, role)

    monkeypatch.setattr(creds, "_mac", counted)
    return computed


def test_a_checked_credential_is_remembered_up_to_the_cache_size(monkeypatch):
    """The credential cache: a seat's credential is verified once, then answered from the cache;
    the cache holds at most its size (the oldest goes first); size 0 verifies every call."""
    ring = KeyRing.generate()
    made = [Credentials(ring).make(TABLE, seat) for seat in range(3)]
    computed = _counting_macs(monkeypatch)
    cache = Credentials(ring, cache=2)
    assert cache.caller(TABLE, made[0]).seat == 0 and len(computed) == 1
    assert cache.caller(TABLE, made[0]).seat == 0 and len(computed) == 1  # remembered
    cache.caller(TABLE, made[1])
    cache.caller(TABLE, made[2])  # the third pushes the first out
    assert len(computed) == 3
    cache.caller(TABLE, made[2])
    cache.caller(TABLE, made[1])
    assert len(computed) == 3  # the two newest are held
    cache.caller(TABLE, made[0])
    assert len(computed) == 4
    none = Credentials(ring, cache=0)
    for _ in range(3):
        assert none.caller(TABLE, made[1]).seat == 1
    assert len(computed) == 7


def test_a_remembered_header_is_the_same_caller_and_a_forged_one_is_never_remembered(monkeypatch):
    ring = KeyRing.generate()
    owner = Credentials(ring).make(TABLE, OWNER)
    computed = _counting_macs(monkeypatch)
    cache = Credentials(ring, cache=8)
    metadata = (bearer(owner),)
    assert cache.caller_of(TABLE, metadata).owner and cache.caller_of(TABLE, metadata).owner
    assert len(computed) == 1
    forged = owner[:-1] + bytes((owner[-1] ^ 1,))
    for _ in range(2):
        with pytest.raises(creds.Unauthenticated):
            cache.caller_of(TABLE, (bearer(forged),))
    assert len(computed) == 3


def _empty_items(legal: int, validate: int) -> list:
    return ([pb.JudgeItem(legal_actions=pb.LegalActionsRequest(state=b"x", seat=0))] * legal
            + [pb.JudgeItem(validate=pb.ValidateRequest(state=b"x"))] * validate)


def test_a_batch_is_bounded_by_what_each_kind_of_item_may_answer(stub):
    """JudgeBatch checks before any work that the answer fits 16 MiB, counting a LegalActions
    item 64 KiB, a Play 8 KiB and a Validate 1 KiB: 255 LegalActions and 64 Validates make exactly
    16 MiB and are judged (each item its own error here), one more Validate is refused, and the
    refusal says what an item counts; so are 255 LegalActions and 8 Plays, and one Validate more."""
    results = stub.JudgeBatch(pb.JudgeBatchRequest(items=_empty_items(255, 64))).results
    assert len(results) == 319 and all(r.error.reason == "STATE_TOKEN_INVALID" for r in results)
    code, info, message = error_of(stub.JudgeBatch, pb.JudgeBatchRequest(items=_empty_items(255, 65)))
    assert code == grpc.StatusCode.RESOURCE_EXHAUSTED and info.reason == "REQUEST_TOO_LARGE"
    assert message.startswith("the answer could pass 16 MiB: split the batch (an item counts validate 1 KiB, "
                              "play 8 KiB, legal_actions 64 KiB)")
    plays = [pb.JudgeItem(play=pb.PlayRequest(state=b"x"))] * 8
    assert len(stub.JudgeBatch(pb.JudgeBatchRequest(items=_empty_items(255, 0) + plays)).results) == 263
    code, info, _ = error_of(stub.JudgeBatch, pb.JudgeBatchRequest(items=_empty_items(255, 1) + plays))
    assert code == grpc.StatusCode.RESOURCE_EXHAUSTED and info.reason == "REQUEST_TOO_LARGE"


def test_an_unexpected_failure_of_one_item_is_that_item_internal_and_the_others_go_on(monkeypatch):
    service = RefereeServicer(Sealer(KeyRing.generate()), allow_caller_seed=True)
    deal = service.Deal(pb.DealRequest(game="doudizhu", seed=b"internal item"), None)

    def boom(self, request, context, opened_tokens, out, credential):
        raise RuntimeError("a bug")

    monkeypatch.setitem(RefereeServicer._judges, "validate", boom)
    items = [pb.JudgeItem(validate=pb.ValidateRequest(state=deal.state)),
             pb.JudgeItem(legal_actions=pb.LegalActionsRequest(state=deal.state, seat=deal.to_act[0]),
                          credential=deal.owner_credential)]
    results = service.JudgeBatch(pb.JudgeBatchRequest(items=items), None).results
    assert results[0].error.code == grpc.StatusCode.INTERNAL.value[0] == 13
    assert results[0].error.message == "internal error"
    assert results[1].WhichOneof("result") == "legal_actions" and len(results[1].legal_actions.actions) > 0


def test_a_seat_asking_the_spectators_view_gets_the_spectators_events(raw_stub):
    """A seat's own Play (a DIRECT table) with ``view_seat=-1`` answers as a spectator sees it:
    after the Dou Dizhu all-pass redeal (rule 5), seat 0, whose pass completes it, sees no new
    hand in the events; asking as itself it sees its own."""
    for n in range(50):  # a deal whose first bidder is seat 1: seat 0 passes last
        deal = raw_stub.Deal(pb.DealRequest(game="doudizhu", seed=b"spectator pin %d" % n,
                                            seat_play=pb.SEAT_PLAY_DIRECT))
        if deal.to_act[0] == 1:
            break
    else:
        raise AssertionError("no deal in 50 where seat 1 bids first")
    seats = [(bearer(c),) for c in deal.seat_credentials]
    state = deal.state
    for seat in (1, 2):
        state = raw_stub.Play(pb.PlayRequest(state=state, action=actions_pb2.Action(seat=seat, kind="PASS")),
                              metadata=seats[seat]).state
    last = actions_pb2.Action(seat=0, kind="PASS")
    for view_seat, own in ((-1, False), (0, True)):
        reply = raw_stub.Play(pb.PlayRequest(state=state, action=last, view_seat=view_seat), metadata=seats[0])
        dealt = {e.seat: list(e.cards.ids) for e in reply.events if e.type == "DEAL"}
        assert "REDEAL" in [e.type for e in reply.events] and len(dealt) == 3
        assert (len(dealt[0]) == 17) == own and not dealt[1] and not dealt[2]
        assert [v.seat for v in reply.views] == [view_seat]



@pytest.mark.parametrize("kid_length", range(1, 13))
def test_a_credential_under_a_key_id_of_any_length_reads_back_unpadded(kid_length):
    """The header carries base64url without padding (``bearer``); ``parse_bearer`` restores the
    padding whatever the credential's length (its key id's length decides it)."""
    ring = KeyRing("k" * kid_length, {"k" * kid_length: bytes(32)})
    credential = Credentials(ring).make(TABLE, 3)
    _, value = bearer(credential)
    assert "=" not in value and creds.parse_bearer(value) == credential
    text = value[len("Bearer "):]
    assert creds.parse_bearer("bearer " + text + "=" * (-len(text) % 4)) == credential  # padded: the same


class _Outcome:
    def __init__(self, response):
        self._response = response

    def result(self):
        return self._response


class _Details:
    method, timeout, metadata, credentials, wait_for_ready, compression = "/m", None, None, None, None, None


def test_the_owner_interceptor_remembers_the_newest_tables_up_to_its_size():
    """A platform's OwnerInterceptor keeps the owner credentials of its ``size`` newest tokens:
    the oldest is forgotten first, never the table just dealt."""
    interceptor = creds.OwnerInterceptor(size=2)
    sent = []

    def call(details, request):
        sent.append(dict(details.metadata or ()))
        return _Outcome(pb.DealResponse(state=request.game.encode(), owner_credential=request.game.encode() * 2))

    for name in ("a", "b", "c"):
        interceptor.intercept_unary_unary(call, _Details(), pb.DealRequest(game=name))
    for token, known in ((b"a", False), (b"b", True), (b"c", True)):
        interceptor.intercept_unary_unary(lambda d, r: sent.append(dict(d.metadata or ())) or _Outcome(pb.PlayResponse()),
                                          _Details(), pb.PlayRequest(state=token))
        assert ("authorization" in sent[-1]) == known, token
    assert sent[-1]["authorization"] == bearer(b"cc")[1]
    own = bearer(b"seat")
    details = _Details()
    details.metadata = [own]
    interceptor.intercept_unary_unary(lambda d, r: sent.append(list(d.metadata or ())) or _Outcome(pb.PlayResponse()),
                                      details, pb.PlayRequest(state=b"c"))
    assert sent[-1] == [own]  # a call with its own credential keeps it, and only it


def _replay(actions: int, game: str = "gouji", **fields) -> pb.ReplayRequest:
    return pb.ReplayRequest(game=game, actions=[actions_pb2.Action(seat=0, kind="PASS")] * actions, **fields)


def test_a_replay_that_could_pass_the_answer_limit_is_refused_before_any_work(raw_stub):
    """Replay counts 4 KiB a view: every seat's view a step (6 for 够级), one with a view_seat,
    and each seat's share and the spectators' more with deliveries; (steps + 1) x views x 4 KiB
    over 16 MiB is refused at once. Within it, the request goes on (here to its missing seed)."""
    for request, refused, views in ((_replay(682), True, 6), (_replay(681), False, 6),
                                    (_replay(1000, view_seat=0), False, 1),
                                    (_replay(512, view_seat=0, deliveries=True), True, 8),
                                    (_replay(511, view_seat=0, deliveries=True), False, 8),
                                    # 川牌 seats 2-7, 4 by default: 4 views, 4 shares and the spectators'
                                    (_replay(455, game="chuanpai", deliveries=True), True, 9),
                                    (_replay(454, game="chuanpai", deliveries=True), False, 9),
                                    (_replay(1000, game="chuanpai"), False, 4),
                                    (_replay(1001, game="chuanpai", view_seat=0), True, 0)):
        code, info, message = error_of(raw_stub.Replay, request)
        if refused and not views:
            assert code == grpc.StatusCode.RESOURCE_EXHAUSTED and message == "at most 1000 actions per replay"
        elif refused:
            assert code == grpc.StatusCode.RESOURCE_EXHAUSTED and info.reason == "REQUEST_TOO_LARGE"
            assert f"{len(request.actions)} steps with {views} views each could pass 16 MiB" in message
        else:
            assert code == grpc.StatusCode.INVALID_ARGUMENT and info.reason == "BAD_SEED", message


def test_a_truncated_legal_actions_answer_keeps_the_actions_without_cards(stub):
    """Past its budget a LegalActions answer keeps first the actions without cards (PASS here),
    then as many plays as fit, each once."""
    from referee.core.game import PASS, Action
    from referee.core.registry import register, unregister

    from .test_gouji_api import BigHand

    class BigHandThatMayPass(BigHand):
        id = "gouji-big-hand-pass"

        def legal_actions(self, state, seat):  # the longest plays first, the singles last
            return [*reversed(super().legal_actions(state, seat)), (Action(seat, PASS), None)]

    game = register(BigHandThatMayPass())
    try:
        deal = stub.Deal(pb.DealRequest(game=game.id, seed=b"big"))
        answer = stub.LegalActions(pb.LegalActionsRequest(state=deal.state, seat=0))
    finally:
        unregister(game.id)
    kinds = [a.action.kind for a in answer.actions]
    assert answer.truncated and answer.can_pass and kinds.count("PASS") == 1
    plays = [tuple(sorted(a.action.cards.ids)) for a in answer.actions if a.action.kind != "PASS"]
    assert len(plays) == len(set(plays)) > 100
    # filled up to its 60 KiB budget (actions and groups), within one action of it, and in order:
    # the first plays of the game's own list
    assert (60 << 10) - 400 < answer.ByteSize() <= (60 << 10) + 8
    legal = game.legal_actions(game.deal(game.make_options(), b"big"), 0)
    every = [tuple(sorted(a.cards)) for a, _ in legal]
    assert plays == every[:len(plays)]  # a prefix: no shorter play squeezed in after the first that did not fit
    # to the byte: the actions kept fit in what the groups leave, and the next play would not
    room = (60 << 10) - sum(len(g.encode()) + 4 for g in answer.groups)
    kept = pb.LegalActionsResponse(actions=answer.actions).ByteSize()
    following = pb.LegalActionsResponse(actions=[convert.legal_action(*legal[len(plays)], game.notation)]).ByteSize()
    assert kept <= room < kept + following


def test_a_key_in_the_environment_with_a_colon_in_its_value_is_not_base64():
    """``REFEREE_TOKEN_KEYS=id:base64,...``: the id ends at the first colon, so a second one is
    in the key's text, and the operator is told the key is not base64."""
    key = "A" * 43 + "="
    assert KeyRing.from_env_value(f"k:{key}").keys == {"k": bytes(32)}
    with pytest.raises(ValueError, match="key is not base64"):
        KeyRing.from_env_value(f"k:{key[:20]}:{key[20:]}")
    with pytest.raises(ValueError, match="id:base64"):
        KeyRing.from_env_value("k")
    with pytest.raises(ValueError, match="key is not base64"):  # no character of a key is dropped
        KeyRing.from_env_value(f"k:{key[:10]}!{key[10:]}")


def test_a_batch_answer_growing_past_its_room_stops_at_the_item_that_passes_it(monkeypatch):
    """The per-kind bounds are checked first; while the items are judged the answer's size is
    counted too, and the item that takes it past the room (16 MiB less 64 KiB) stops the batch
    with its index (here the room is made small: no registered game's items pass it in 500)."""
    from referee.core.errors import LimitExceeded
    from referee.service import servicer as servicer_module

    service = RefereeServicer(Sealer(KeyRing.generate()), allow_caller_seed=True)
    deal = service.Deal(pb.DealRequest(game="doudizhu", seed=b"room"), None)
    one = pb.JudgeItem(legal_actions=pb.LegalActionsRequest(state=deal.state, seat=deal.to_act[0]),
                       credential=deal.owner_credential)
    size = service.JudgeBatch(pb.JudgeBatchRequest(items=[one]), None).results[0].ByteSize() + 8
    monkeypatch.setattr(servicer_module, "ANSWER_ROOM", 3 * size)  # three answers fill it exactly
    assert len(service.JudgeBatch(pb.JudgeBatchRequest(items=[one] * 3), None).results) == 3
    with pytest.raises(LimitExceeded, match="the answer passes 16 MiB at item 3: split the batch") as caught:
        service.JudgeBatch(pb.JudgeBatchRequest(items=[one] * 5), None)
    assert caught.value.metadata == {"item_index": 3}


def test_a_parse_complaint_is_echoed_up_to_200_characters():
    from referee.core.errors import InvalidAction
    from referee.service import errors

    with pytest.raises(InvalidAction) as caught:
        errors.admitted("Play", errors.Malformed("x" * 300))
    assert str(caught.value) == "Play: the request does not parse: " + "x" * 200
    with pytest.raises(InvalidAction, match=r"^Play: the request does not parse$"):
        errors.admitted("Play", errors.MALFORMED)


def test_a_token_shorter_than_its_smallest_form_is_truncated_not_forged():
    """A token shorter than header + nonce + length + tag is refused as truncated before any
    decryption; one byte more reaches the tag check."""
    from referee.core.errors import InvalidAction

    sealer = Sealer(KeyRing("k1", {"k1": bytes(32)}))
    token = sealer.seal("doudizhu", 3, b"payload")
    header = 2 + 2 + 1 + len("doudizhu") + 8 + 16 + 2
    smallest = header + 12 + 4 + 16
    for n in (header, smallest - 1):
        with pytest.raises(InvalidAction, match="truncated"):
            sealer.open(token[:n])
    with pytest.raises(InvalidAction, match="does not authenticate"):
        sealer.open(token[:smallest])


def test_a_batch_opens_a_token_once_for_its_validate_and_legal_items(monkeypatch):
    """JudgeBatch: a table's Validate and LegalActions items carry the same token, opened once in
    the call (states are immutable); a Play item takes it out (its last use)."""
    ring = KeyRing.generate()
    dealer = RefereeServicer(Sealer(ring), allow_caller_seed=True)
    deal = dealer.Deal(pb.DealRequest(game="doudizhu", seed=b"open once"), None)
    service = RefereeServicer(Sealer(ring), state_cache=0)  # another pod: nothing cached
    opened = []
    real = service.sealer.open
    monkeypatch.setattr(service.sealer, "open", lambda *a, **k: opened.append(a[0]) or real(*a, **k))
    seat, owner = deal.to_act[0], deal.owner_credential
    bid = actions_pb2.Action(seat=seat, kind="PASS")
    items = [pb.JudgeItem(validate=pb.ValidateRequest(state=deal.state, action=bid), credential=owner),
             pb.JudgeItem(legal_actions=pb.LegalActionsRequest(state=deal.state, seat=seat), credential=owner),
             pb.JudgeItem(validate=pb.ValidateRequest(state=deal.state, action=bid), credential=owner)]
    results = service.JudgeBatch(pb.JudgeBatchRequest(items=items), None).results
    assert [r.WhichOneof("result") for r in results] == ["validate", "legal_actions", "validate"]
    assert opened == [deal.state]
    opened.clear()
    play = pb.JudgeItem(play=pb.PlayRequest(state=deal.state, action=bid), credential=owner)
    results = service.JudgeBatch(pb.JudgeBatchRequest(items=[items[0], play, items[2]]), None).results
    assert [r.WhichOneof("result") for r in results] == ["validate", "play", "validate"]
    assert opened == [deal.state, deal.state]  # the Play took the state out: the next item opens it again


def test_the_credential_format_is_the_documented_one():
    """service/credentials.py: version 1 | role | len | key id | HMAC-SHA256(K, "referee/v1/credential"
    | table | role)[:16], K = HMAC-SHA256(token key, "referee/v1/credential-key"): a credential built
    from the layout alone opens (a platform may make them itself), another version does not."""
    import hashlib
    import hmac

    key = bytes(range(32))
    ring = KeyRing("k1", {"k1": key})
    derived = hmac.new(key, b"referee/v1/credential-key", hashlib.sha256).digest()
    for role, seat in ((2, 2), (255, None)):
        mac = hmac.new(derived, b"referee/v1/credential" + TABLE + bytes((role,)), hashlib.sha256).digest()[:16]
        made = bytes((1, role, 2)) + b"k1" + mac
        assert Credentials(ring).make(TABLE, role) == made
        caller = Credentials(ring).caller(TABLE, made)
        assert caller.seat == seat and caller.owner == (role == 255)
        with pytest.raises(creds.Unauthenticated):
            Credentials(ring).caller(TABLE, bytes((0,)) + made[1:])


def test_an_authorization_that_is_not_base64url_is_unauthenticated():
    for value in ("Bearer ***", "Bearer ab$d", "Bearer ab$cd", "Bearer a.bcd", "Bearer ", "Basic abcd"):
        with pytest.raises(creds.Unauthenticated) as caught:
            creds.parse_bearer(value)
        assert caught.value.reason == "CREDENTIAL_INVALID"


def test_the_owner_interceptor_sends_no_credential_with_a_call_about_no_table():
    """After an answer that names no state (Score), a call without a state (ListGames, a new
    Deal) carries no owner credential."""
    interceptor = creds.OwnerInterceptor()
    sent = []

    def call(answer):
        def continuation(details, request):
            sent.append(dict(details.metadata or ()))
            return _Outcome(answer)
        return continuation

    interceptor.intercept_unary_unary(call(pb.DealResponse(state=b"t", owner_credential=b"owner")), _Details(),
                                      pb.DealRequest(game="doudizhu"))
    interceptor.intercept_unary_unary(call(pb.ScoreResponse()), _Details(), pb.ScoreRequest(state=b"t"))
    assert sent[-1]["authorization"] == bearer(b"owner")[1]
    interceptor.intercept_unary_unary(call(pb.ListGamesResponse()), _Details(), pb.ListGamesRequest())
    interceptor.intercept_unary_unary(call(pb.DealResponse()), _Details(), pb.DealRequest(game="doudizhu"))
    assert "authorization" not in sent[-1] and "authorization" not in sent[-2]


def test_a_servicer_made_without_the_flag_refuses_caller_seeds():
    """The test-only caller seed is off unless asked for, in the servicer itself too (a process
    embedding it)."""
    from referee.core.errors import PermissionDenied

    service = RefereeServicer(Sealer(KeyRing.generate()))
    with pytest.raises(PermissionDenied) as caught:
        service.Deal(pb.DealRequest(game="doudizhu", seed=b"mine"), None)
    assert caught.value.reason == "CALLER_SEED_NOT_ALLOWED"
    replay = service.Replay(pb.ReplayRequest(game="doudizhu", seed=b"mine"), None)
    assert not replay.state and not replay.owner_credential  # a replay gives no live table


def test_a_replay_growing_past_its_room_stops_at_the_action_that_passes_it(monkeypatch):
    from referee.core.errors import LimitExceeded
    from referee.service import servicer as servicer_module

    service = RefereeServicer(Sealer(KeyRing.generate()), allow_caller_seed=True)
    deal = service.Deal(pb.DealRequest(game="doudizhu", seed=b"replay room"), None)
    seat = deal.to_act[0]
    passes = [actions_pb2.Action(seat=(seat + k) % 3, kind="PASS") for k in range(2)]
    whole = service.Replay(pb.ReplayRequest(game="doudizhu", seed=b"replay room", actions=passes), None)
    room = whole.deal.ByteSize() + whole.steps[0].ByteSize() + 8
    monkeypatch.setattr(servicer_module, "ANSWER_ROOM", room)  # the deal and one step fill it exactly
    request = pb.ReplayRequest(game="doudizhu", seed=b"replay room", actions=passes[:1])
    assert len(service.Replay(request, None).steps) == 1
    with pytest.raises(LimitExceeded, match="the replay's answer passes 16 MiB at action 1: "):
        service.Replay(pb.ReplayRequest(game="doudizhu", seed=b"replay room", actions=passes), None)


class _Context:
    def __init__(self):
        self.aborted = None

    def abort(self, code, details):
        self.aborted = (code, details)
        raise grpc.RpcError(details)

    def abort_with_status(self, status):
        self.aborted = (status.code, status.details)
        raise grpc.RpcError(status.details)


def test_an_unexpected_exception_in_a_method_is_internal_with_nothing_of_it_said():
    """errors.mapped: a core error is its status; anything else is INTERNAL "internal error",
    logged, its text never sent."""
    from referee.core.errors import InvalidAction, Reason
    from referee.service import errors

    def broken(request, context):
        raise KeyError("secret detail")

    def refusing(request, context):
        raise InvalidAction("no such seat", Reason.BAD_SEAT)

    for method, code, details in ((broken, grpc.StatusCode.INTERNAL, "internal error"),
                                  (refusing, grpc.StatusCode.INVALID_ARGUMENT, "no such seat")):
        context = _Context()
        with pytest.raises(grpc.RpcError):
            errors.mapped("Play", method)(pb.PlayRequest(), context)
        assert context.aborted == (code, details)


def test_cumulative_points_are_bounded_at_ten_to_the_fifteen(stub):
    """Score adds the caller's running totals: each at most 10^15 in size (far from int64's end)."""
    deal = stub.Deal(pb.DealRequest(game="doudizhu", seed=b"points bound"))
    state, to_act = deal.state, list(deal.to_act)
    reply = stub.Play(pb.PlayRequest(state=state, action=actions_pb2.Action(seat=to_act[0], kind="ABANDON")))
    big = 10**15
    score = stub.Score(pb.ScoreRequest(state=reply.state, cumulative_points=[big, -big, 0]))
    points = list(score.settlement.points)
    assert list(score.cumulative_points) == [big + points[0], -big + points[1], points[2]]
    alone = stub.Score(pb.ScoreRequest(state=reply.state))  # no running totals: the round's points
    assert list(alone.cumulative_points) == points
    for bad in ([big + 1, 0, 0], [0, -big - 1, 0]):
        code, info, _ = error_of(stub.Score, pb.ScoreRequest(state=reply.state, cumulative_points=bad))
        assert code == grpc.StatusCode.INVALID_ARGUMENT and info.reason == "MALFORMED_REQUEST"


def test_a_sealed_seed_or_answer_of_another_layout_is_an_invalid_token_not_a_crash():
    """Sealed seeds and answers authenticate under the server's key, but one sealed by another
    release may hold another layout: it is STATE_TOKEN_INVALID, never INTERNAL."""
    import marshal

    from referee.core.errors import InvalidAction
    from referee.service.token import ANSWER, SEED

    service = RefereeServicer(Sealer(KeyRing.generate()), allow_caller_seed=True)
    for payload in (b"", marshal.dumps((b"seed",)), marshal.dumps((1, b"")), marshal.dumps((b"s", 1)),
                    marshal.dumps(5), b"\xff not marshal"):
        sealed = service.sealer.seal("", 0, payload, kind=SEED)
        with pytest.raises(InvalidAction, match="a sealed seed that does not decode"):
            service.Deal(pb.DealRequest(game="doudizhu", sealed_seed=sealed), None)
    deal = service.Deal(pb.DealRequest(game="bidaxiao", seed=b"old answer"), None)
    table = service.sealer.open(deal.state).table
    context = type("Owner", (), {"invocation_metadata": lambda self: (bearer(deal.owner_credential),)})()
    for payload in (b"", marshal.dumps((0, "PLAY", (1,), (), 0, "")), marshal.dumps(5), b"\xff not marshal"):
        answer = service.sealer.seal("bidaxiao", 0, payload, table, kind=ANSWER)
        with pytest.raises(InvalidAction, match="a sealed answer that does not decode"):
            service.Play(pb.PlayRequest(state=deal.state, answers=[answer]), context)


def test_who_a_caller_is():
    assert (creds.OWNER_CALLER.owner, creds.OWNER_CALLER.seat, creds.OWNER_CALLER.describe()) == (True, None, "the owner")
    assert (creds.SPECTATOR.owner, creds.SPECTATOR.seat, creds.SPECTATOR.describe()) == (False, None, "a spectator")
    seat = creds.Caller(2)
    assert (seat.owner, seat.seat, seat.describe()) == (False, 2, "seat 2")


def test_a_batch_takes_the_calls_credential_for_items_without_their_own(raw_stub):
    """JudgeBatch: an item without a credential is judged as the call's caller (its metadata)."""
    deal = raw_stub.Deal(pb.DealRequest(game="doudizhu", seed=b"call credential"))
    seat = deal.to_act[0]
    item = pb.JudgeItem(legal_actions=pb.LegalActionsRequest(state=deal.state, seat=seat))
    as_seat = raw_stub.JudgeBatch(pb.JudgeBatchRequest(items=[item]),
                                  metadata=(bearer(deal.seat_credentials[seat]),)).results[0]
    assert as_seat.WhichOneof("result") == "legal_actions" and as_seat.legal_actions.actions
    anonymous = raw_stub.JudgeBatch(pb.JudgeBatchRequest(items=[item])).results[0]
    assert anonymous.error.reason == "CREDENTIAL_REQUIRED"


def test_a_request_of_the_size_limit_is_read_and_one_byte_more_is_not():
    from referee.service import errors

    data = pb.DealRequest(game="doudizhu", client_entropy=bytes(100)).SerializeToString()
    assert errors.safe_deserializer(pb.DealRequest, len(data))(data).game == "doudizhu"
    assert errors.safe_deserializer(pb.DealRequest, len(data) - 1)(data) is errors.TOO_LARGE
    big = pb.DealRequest(game="doudizhu", client_entropy=bytes(1 << 20)).SerializeToString()
    assert errors.safe_deserializer(pb.DealRequest)(big).game == "doudizhu"  # no limit unless one is given


def test_key_ids_are_1_to_255_bytes_and_keys_32():
    KeyRing("k" * 255, {"k" * 255: bytes(32)})
    for kid, key in (("k" * 256, bytes(32)), ("", bytes(32)), ("k", bytes(31)), ("k", bytes(33))):
        with pytest.raises(ValueError, match="ids are 1-255 bytes, keys 32 bytes"):
            KeyRing(kid, {kid: key})


def test_replay_deliveries_carry_the_views_flags_of_its_steps(raw_stub):
    """A Replay's deliveries are each seat's share as the step's own views are: not marked as a
    test deal (a replay is no live table)."""
    deal = raw_stub.Deal(pb.DealRequest(game="doudizhu", seed=b"replay shares"))
    first = deal.to_act[0]
    replay = raw_stub.Replay(pb.ReplayRequest(game="doudizhu", seed=b"replay shares", deliveries=True,
                                              actions=[actions_pb2.Action(seat=first, kind="PASS")]))
    for step in [replay.deal, *replay.steps]:
        assert step.deliveries and all(not d.view.test_deal for d in step.deliveries)
        assert all(not v.test_deal for v in step.views)


def test_a_token_of_another_format_version_says_which():
    from referee.core.errors import InvalidAction

    sealer = Sealer(KeyRing("k1", {"k1": bytes(32)}))
    token = sealer.seal("doudizhu", 3, b"payload")
    with pytest.raises(InvalidAction, match="unsupported format version 7$"):
        sealer.open(bytes((7,)) + token[1:])


def test_a_view_of_a_seat_outside_the_table_is_bad_seat(stub, raw_stub):
    """A view_seat outside -1..seats-1 is BAD_SEAT for every caller, a seat too (not a seat it may
    not see: there is no such seat)."""
    deal = stub.Deal(pb.DealRequest(game="doudizhu", seed=b"bad view seat"))
    seat0 = (bearer(deal.seat_credentials[0]),)
    for seat in (-2, 3):
        code, info, _ = error_of(stub.GetView, pb.GetViewRequest(state=deal.state, view_seat=seat))
        assert code == grpc.StatusCode.INVALID_ARGUMENT and info.reason == "BAD_SEAT"
        code, info, _ = error_of(lambda r: raw_stub.GetView(r, metadata=seat0),
                                 pb.GetViewRequest(state=deal.state, view_seat=seat))
        assert code == grpc.StatusCode.INVALID_ARGUMENT and info.reason == "BAD_SEAT"
    assert [v.seat for v in stub.GetView(pb.GetViewRequest(state=deal.state, view_seat=-1)).views] == [-1]


def test_an_event_of_one_hidden_card_is_hidden_whatever_the_card():
    """Events reach a viewer with their cards only when it may know all of them: a single card of
    another seat's hand (here card id 0) is withheld from the other seats and the spectators."""
    from referee.core.game import Event
    from referee.core.registry import get_game
    from referee.service.servicer import _events

    game = get_game("doudizhu")
    for n in range(100):
        state = game.deal(game.make_options(), b"card zero %d" % n)
        holder = next((s for s in range(3) if state.hands[s] & 1), None) if hasattr(state, "hands") else None
        if holder is not None:
            break
    else:
        raise AssertionError("no deal in 100 where a seat holds card 0")
    event = Event("DRAW", holder, cards=(0,))
    for viewer in (-1, (holder + 1) % 3):
        assert not _events(game, [event], viewer, (state,))[0].cards.ids
    assert list(_events(game, [event], holder, (state,))[0].cards.ids) == [0]
    assert list(_events(game, [event], None, (state,))[0].cards.ids) == [0]  # the owner


def test_the_token_kinds_are_the_documented_header_bytes():
    """service/token.py's layout: the header's kind byte is 0 for a state, 1 for a sealed seed, 2
    for a seat's sealed answer (tokens of another release open by these values), and a token
    opens as its own kind only."""
    from referee.core.errors import InvalidAction
    from referee.service import token as tokens

    sealer = Sealer(KeyRing("k1", {"k1": bytes(32)}))
    kind_at = 1 + 1 + 2 + 1 + len("doudizhu") + 8 + 16
    for kind, byte in ((tokens.STATE, 0), (tokens.SEED, 1), (tokens.ANSWER, 2)):
        sealed = sealer.seal("doudizhu", 0, b"p", kind=kind)
        assert sealed[kind_at] == byte
        for other in {0, 1, 2} - {byte}:
            with pytest.raises(InvalidAction, match="not a token of this kind"):
                sealer.open(sealed, kind=other)
