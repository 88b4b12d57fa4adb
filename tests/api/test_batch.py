"""JudgeBatch: many Validate/Play/LegalActions items in one call, each answered like the unary call."""
import grpc
import pytest

from referee.v1 import actions_pb2
from referee.v1 import referee_service_pb2 as pb

from .conftest import error_of

MAX_ITEMS = 500


def _bid(seat: int = 0, value: int = 3) -> actions_pb2.Action:
    return actions_pb2.Action(seat=seat, kind="BID", value=value)


def _same_play(a: pb.PlayResponse, b: pb.PlayResponse) -> None:
    # tokens differ (a fresh nonce each seal); everything they say is equal
    assert a.seq == b.seq and a.state_digest == b.state_digest and a.finished == b.finished
    assert list(a.events) == list(b.events) and list(a.views) == list(b.views)
    assert list(a.to_act) == list(b.to_act)


def test_items_answer_like_the_unary_calls(stub, seeded_deal, landlord_leads):
    table1, table2 = seeded_deal(b"batch-1"), landlord_leads
    legal = stub.LegalActions(pb.LegalActionsRequest(state=table2.state, seat=0))
    lead = legal.actions[len(legal.actions) // 2].action
    items = [
        pb.JudgeItem(validate=pb.ValidateRequest(state=table1.state, action=_bid())),
        pb.JudgeItem(play=pb.PlayRequest(state=table1.state, action=_bid(), expected_seq=0)),
        pb.JudgeItem(legal_actions=pb.LegalActionsRequest(state=table2.state, seat=0)),
        pb.JudgeItem(validate=pb.ValidateRequest(state=table2.state, action=lead)),
        pb.JudgeItem(play=pb.PlayRequest(state=table2.state, action=lead, view_seat=1)),
    ]
    results = stub.JudgeBatch(pb.JudgeBatchRequest(items=items)).results
    assert [r.WhichOneof("result") for r in results] == ["validate", "play", "legal_actions", "validate", "play"]
    assert results[0].validate == stub.Validate(items[0].validate)
    _same_play(results[1].play, stub.Play(items[1].play))
    assert results[2].legal_actions == legal
    assert results[3].validate == stub.Validate(items[3].validate) and results[3].validate.legal
    _same_play(results[4].play, stub.Play(items[4].play))
    assert len(results[4].play.views) == 1
    # a token sealed by the batch continues through the unary calls
    after = stub.LegalActions(pb.LegalActionsRequest(state=results[4].play.state, seat=results[4].play.to_act[0]))
    assert after.actions


def test_an_item_error_is_that_item_answer_and_the_others_go_on(stub, seeded_deal):
    deal = seeded_deal(b"batch-2")
    tampered = bytearray(deal.state)
    tampered[-1] ^= 1
    items = [
        pb.JudgeItem(play=pb.PlayRequest(state=deal.state, action=_bid(seat=1))),  # not seat 1's turn
        pb.JudgeItem(play=pb.PlayRequest(state=bytes(tampered), action=_bid())),
        pb.JudgeItem(validate=pb.ValidateRequest(state=deal.state, action=_bid(), expected_seq=5)),
        pb.JudgeItem(legal_actions=pb.LegalActionsRequest(state=deal.state, seat=7)),
        pb.JudgeItem(play=pb.PlayRequest(state=deal.state, action=_bid())),
        pb.JudgeItem(validate=pb.ValidateRequest(state=deal.state, action=_bid(seat=2))),
    ]
    results = stub.JudgeBatch(pb.JudgeBatchRequest(items=items)).results
    kinds = [r.WhichOneof("result") for r in results]
    assert kinds == ["error", "error", "error", "error", "play", "validate"]
    for item, result in zip(items[:4], results[:4]):
        kind = item.WhichOneof("call")
        unary = {"play": stub.Play, "validate": stub.Validate, "legal_actions": stub.LegalActions}[kind]
        code, info, message = error_of(unary, getattr(item, kind))
        assert result.error.code == code.value[0]
        assert result.error.reason == info.reason
        assert result.error.message == message
    assert results[0].error.code == grpc.StatusCode.FAILED_PRECONDITION.value[0]
    assert results[0].error.reason == "NOT_YOUR_TURN"
    assert results[1].error.reason == "STATE_TOKEN_INVALID"
    assert results[2].error.reason == "STALE_STATE"
    assert results[3].error.reason == "BAD_SEAT"
    assert results[4].play.seq == 1
    assert not results[5].validate.legal and results[5].validate.reason == "NOT_YOUR_TURN"


def test_whole_call_errors(stub, seeded_deal, expect_error):
    assert not stub.JudgeBatch(pb.JudgeBatchRequest()).results
    deal = seeded_deal(b"batch-3")
    empty = pb.JudgeBatchRequest(items=[pb.JudgeItem(), pb.JudgeItem(validate=pb.ValidateRequest(state=deal.state))])
    expect_error(stub.JudgeBatch, empty, grpc.StatusCode.INVALID_ARGUMENT, "MALFORMED_REQUEST")
    item = pb.JudgeItem(validate=pb.ValidateRequest(state=deal.state, action=_bid()))
    assert len(stub.JudgeBatch(pb.JudgeBatchRequest(items=[item] * MAX_ITEMS)).results) == MAX_ITEMS
    expect_error(stub.JudgeBatch, pb.JudgeBatchRequest(items=[item] * (MAX_ITEMS + 1)),
                 grpc.StatusCode.RESOURCE_EXHAUSTED, "REQUEST_TOO_LARGE")


@pytest.mark.parametrize("tables", [1, 40])
def test_many_tables_play_to_the_end_through_batches(stub, tables):
    """Each table's next action comes from a LegalActions item; every game finishes and scores."""
    deals = [stub.Deal(pb.DealRequest(game="doudizhu", seed=f"batch-t{i}".encode())) for i in range(tables)]
    live = {i: (d.state, d.seq, d.to_act[0]) for i, d in enumerate(deals)}
    finished = {}
    for _ in range(200):
        if not live:
            break
        order = sorted(live)
        hints = stub.JudgeBatch(pb.JudgeBatchRequest(items=[
            pb.JudgeItem(legal_actions=pb.LegalActionsRequest(state=live[i][0], seat=live[i][2], expected_seq=live[i][1]))
            for i in order])).results
        items = []
        for i, hint in zip(order, hints):
            action = hint.legal_actions.actions[(i * 7 + live[i][1]) % len(hint.legal_actions.actions)].action
            items.append(pb.JudgeItem(validate=pb.ValidateRequest(state=live[i][0], action=action)))
            items.append(pb.JudgeItem(play=pb.PlayRequest(state=live[i][0], action=action, expected_seq=live[i][1])))
        results = stub.JudgeBatch(pb.JudgeBatchRequest(items=items)).results
        for n, i in enumerate(order):
            verdict, play = results[2 * n].validate, results[2 * n + 1].play
            assert verdict.legal and play.seq == live[i][1] + 1
            if play.finished:
                finished[i] = play.state
                del live[i]
            else:
                live[i] = (play.state, play.seq, play.to_act[0])
    assert len(finished) == tables
    for state in finished.values():
        s = stub.Score(pb.ScoreRequest(state=state)).settlement
        assert sum(s.points) + s.house == 0


def _reference_combination(c, notation):
    from referee.v1 import cards_pb2

    if c is None:
        return None
    return cards_pb2.Combination(kind=c.kind, label=c.label, main_rank=c.main_rank, chain=c.chain,
                                 size=c.size, ranks=c.ranks, rank_text=notation.format_ranks(c.ranks))


def _reference_view(v, notation):
    """A View message built field by field from constructors: what the in-place conversion with
    its shared card sets and combinations must equal."""
    from referee.v1 import cards_pb2, state_pb2

    def cards(ids):
        return cards_pb2.CardSet(ids=ids, text=notation.format_cards(ids))

    def seat_view(sv):
        return state_pb2.SeatView(hand_size=sv.hand_size, role=sv.role, team=sv.team, counters=dict(sv.counters),
                                  cards={k: cards(c) for k, c in sv.cards.items()},
                                  melds=[state_pb2.Meld(kind=m.kind, cards=cards(m.cards), from_seat=m.from_seat)
                                         for m in sv.melds])

    table = _reference_combination(v.table, notation)
    return state_pb2.View(seat=v.seat, phase=v.phase, to_act=v.to_act, hand=cards(v.hand),
                          seats=[seat_view(sv) for sv in v.seats],
                          public_cards={k: cards(c) for k, c in v.public_cards.items()}, table=table,
                          table_seat=v.table_seat, table_cards=cards(v.table_cards),
                          counters=dict(v.counters), finished=v.finished)


def _reference_event(e, notation):
    from referee.v1 import cards_pb2, state_pb2

    cards = cards_pb2.CardSet(ids=e.cards, text=notation.format_cards(e.cards))
    return state_pb2.Event(type=e.type, seat=e.seat, cards=cards, combination=_reference_combination(e.combo, notation),
                           values=dict(e.values))


def test_views_sharing_equals_converting_each_view():
    """The servicer copies the first seat's view for the others, rewriting seat, hand and the
    parts where they differ (seats, public cards, counters), and fills messages in place from
    cached card sets; the messages must equal converting every seat's view on its own with plain
    constructors, in every phase, and the core's batch ``views`` must equal its one-seat
    ``view``. Likewise events, and LegalActions answers joined from cached serialized entries."""
    import random

    from referee.core.registry import GAMES
    from referee.core.game import PASS
    from referee.service import convert
    from referee.service.credentials import OWNER
    from referee.service.servicer import RefereeServicer, Table, _views
    from referee.service.token import CALLER_SEED, KeyRing, Sealer
    from referee.v1 import referee_service_pb2 as pb_

    servicer = RefereeServicer(Sealer(KeyRing.generate()))
    table_id = bytes(range(16))
    owner = servicer.credentials.make(table_id, OWNER)
    rng = random.Random(5)
    for game in GAMES.values():
        for n in range(3):
            state = game.deal(game.make_options(), f"views-{n}".encode())
            for _ in range(400):  # a whole round, or enough of one
                seats = range(-1, state.num_seats)
                every_seat = range(state.num_seats)
                core_views = [game.view(state, s) for s in seats]
                assert game.views(state, seats) == core_views
                naive = [_reference_view(v, game.notation) for v in core_views[1:]]
                assert [convert.view(v, game.notation) for v in core_views[1:]] == naive
                assert _views(game, state, every_seat) == naive
                into = pb_.PlayResponse()
                _views(game, state, every_seat, into=into.views)
                assert list(into.views) == naive
                assert all(m.HasField("hand") and m.HasField("table_cards") for m in into.views)
                assert _views(game, state, (-1,)) == [_reference_view(core_views[0], game.notation)]
                # a test deal marks every view, the copies of the first one included
                marked = []
                for msg in naive:
                    copy = type(msg)()
                    copy.CopyFrom(msg)
                    copy.test_deal = True
                    marked.append(copy)
                assert _views(game, state, every_seat, test_deal=True) == marked
                if state.finished:
                    break
                legal = game.legal_actions(state, state.to_act[0])
                # LegalActions copies its entries from shared messages: the bytes of converting each plainly
                token = servicer._seal(Table(state.step, game, state, table_id, CALLER_SEED))[0]
                answer = servicer._legal_actions(pb_.LegalActionsRequest(state=token, seat=state.to_act[0]), None,
                                                 credential=owner)
                plain = pb_.LegalActionsResponse(actions=[convert.legal_action(a, c, game.notation) for a, c in legal],
                                                 can_pass=any(a.kind == PASS for a, _ in legal))
                assert answer == plain and answer.SerializeToString() == plain.SerializeToString()
                state, events = game.apply(state, rng.choice(legal)[0])
                expected = [_reference_event(e, game.notation) for e in events]
                assert convert.events(events, game.notation) == expected
                into = pb_.PlayResponse()
                convert.events(events, game.notation, into.events)
                assert list(into.events) == expected


def test_core_views_refuse_an_unknown_seat():
    from referee.core.errors import InvalidAction, Reason
    from referee.core.registry import GAMES

    for game in GAMES.values():
        state = game.deal(game.make_options(), b"seats")
        for bad in (-2, state.num_seats):
            with pytest.raises(InvalidAction) as caught:
                game.views(state, (0, bad))
            assert caught.value.reason == Reason.BAD_SEAT
