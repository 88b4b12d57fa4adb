"""Bots: clients of the gRPC API that play whole rounds by choosing among LegalActions.

They know no rules. Their illegal attempts are built from what the API says: a legal action
sent from a seat that is not awaited, a play holding a card another seat's view shows, or a
pass when LegalActions says passing is not legal. Each must be refused (FAILED_PRECONDITION).
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
import grpc

from referee.v1 import actions_pb2, cards_pb2
from referee.v1 import referee_service_pb2 as pb


class BotError(RuntimeError):
    """The referee accepted what it must refuse, or answered inconsistently."""


@dataclass
class Round:
    """One round played through the API."""

    deal: pb.DealResponse
    actions: list[actions_pb2.Action] = field(default_factory=list)
    plays: list[pb.PlayResponse] = field(default_factory=list)
    rejected: int = 0
    score: pb.ScoreResponse | None = None


def _illegal_attempt(rng: random.Random, seat: int, legal: pb.LegalActionsResponse,
                     views, to_act) -> actions_pb2.Action | None:
    choices = []
    others = [s for s in range(len(views)) if s not in to_act]
    candidates = [a.action for a in legal.actions]
    if others and candidates:
        wrong = actions_pb2.Action()
        wrong.CopyFrom(rng.choice(candidates))
        wrong.seat = rng.choice(others)
        choices.append(wrong)
    plays = [a for a in candidates if a.cards.ids]
    foreign = [c for v in views if v.seat != seat for c in v.hand.ids]
    if plays and foreign:
        bad = actions_pb2.Action()
        bad.CopyFrom(rng.choice(plays))
        ids = list(bad.cards.ids)
        ids[rng.randrange(len(ids))] = rng.choice(foreign)
        bad.cards.CopyFrom(cards_pb2.CardSet(ids=ids))
        choices.append(bad)
    if not legal.can_pass:
        choices.append(actions_pb2.Action(seat=seat, kind="PASS"))
    return rng.choice(choices) if choices else None


def play_round(stub, rng: random.Random, *, game: str, preset: str = "",
               options: dict | None = None, seed: bytes | None = None,
               illegal_rate: float = 0.0, abandon_rate: float = 0.0, max_actions: int = 1000) -> Round:
    """Deal and play one round to the end with random legal choices, then Score it. ``options``
    maps option names to ``referee.v1.OptionValue`` messages.

    Raises: BotError when an illegal attempt is accepted; grpc.RpcError on unexpected errors.
    """
    request = pb.DealRequest(game=game, preset=preset, options=options, seed=seed)
    round_ = Round(stub.Deal(request))
    deal = round_.deal
    state, seq, views, to_act = deal.state, deal.seq, deal.views, deal.to_act
    finished = False
    while not finished:
        if len(round_.actions) >= max_actions:
            raise BotError(f"round not finished after {max_actions} actions")
        seat = to_act[0]
        legal = stub.LegalActions(pb.LegalActionsRequest(state=state, seat=seat, expected_seq=seq))
        if rng.random() < illegal_rate:
            attempt = _illegal_attempt(rng, seat, legal, views, to_act)
            if attempt is not None:
                _expect_refusal(stub, state, seq, attempt)
                round_.rejected += 1
        if rng.random() < abandon_rate:
            action = actions_pb2.Action(seat=rng.randrange(len(views)), kind="ABANDON")
        else:
            action = rng.choice(legal.actions).action
        reply = stub.Play(pb.PlayRequest(state=state, action=action, expected_seq=seq))
        round_.actions.append(action)
        round_.plays.append(reply)
        state, seq, views, to_act, finished = reply.state, reply.seq, reply.views, reply.to_act, reply.finished
    round_.score = stub.Score(pb.ScoreRequest(state=state))
    return round_


def _expect_refusal(stub, state: bytes, seq: int, action: actions_pb2.Action) -> None:
    try:
        stub.Play(pb.PlayRequest(state=state, action=action, expected_seq=seq))
    except grpc.RpcError as error:
        if error.code() != grpc.StatusCode.FAILED_PRECONDITION:
            raise
        return
    raise BotError(f"an illegal action was accepted: {action}")
