"""Bots: clients of the gRPC API that play whole rounds by choosing among LegalActions.

They know no rules, and hold what real clients hold: with ``as_seats`` each seat plays with its
own credential (it sees only its own view; its move comes back sealed, on a SEAT_PLAY_RELAYED
table as in a simultaneous decision, and the table's owner, the harness here, applies it), otherwise the owner acts
for every seat. Their illegal attempts are built from what the API says: a legal action sent by
a seat that is not awaited, a play holding a card the seat does not have, a pass when
LegalActions says passing is not legal (in a game whose kinds have no PASS: an unknown kind), an
action for another seat with a seat's credential. Each must be refused with the documented
status and reason (``Refusal``).
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import NamedTuple

import grpc
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from referee.core.errors import COMMON_REASONS
from referee.v1 import actions_pb2, cards_pb2
from referee.v1 import referee_service_pb2 as pb

from .credentials import bearer


class BotError(RuntimeError):
    """The referee accepted what it must refuse, or answered inconsistently."""


@dataclass
class Round:
    """One round played through the API: the deal, every applied action (in order) and the
    answer that applied it (the owner's, for sealed answers), and the owner's Score."""

    deal: pb.DealResponse
    actions: list[actions_pb2.Action] = field(default_factory=list)
    plays: list[pb.PlayResponse] = field(default_factory=list)
    rejected: int = 0
    score: pb.ScoreResponse | None = None
    state: bytes = b""  # the finished round's token (the next round of a match deals from it)


class Table:
    """A dealt table's credentials as call metadata: the owner's and each seat's."""

    def __init__(self, deal: pb.DealResponse):
        self.owner = (bearer(deal.owner_credential),)
        self.seats = [(bearer(c),) for c in deal.seat_credentials]


class Refusal(NamedTuple):
    """What an illegal try must get: the status code and one of the reason names (ErrorInfo's
    reason; Validate's ``reason`` when the code is FAILED_PRECONDITION, which Validate answers
    as ``legal=false`` instead of an error)."""

    code: grpc.StatusCode
    reasons: tuple[str, ...]
    game_rules: bool = False  # also one of the game's own reasons (a rule that forbids it now)

    def judge(self, code: grpc.StatusCode, reason: str) -> str:
        """What differs from this refusal ("" when nothing does)."""
        if code == self.code and (reason in self.reasons or (self.game_rules and reason and
                                                             reason not in COMMON_REASONS)):
            return ""
        return f"expected {self.code.name} {'/'.join(self.reasons)}, got {code.name} {reason or '(no reason)'}"


NOT_AWAITED = Refusal(grpc.StatusCode.FAILED_PRECONDITION, ("NOT_YOUR_TURN",))
ANOTHER_SEAT = Refusal(grpc.StatusCode.PERMISSION_DENIED, ("NOT_YOUR_SEAT",))
NOT_HELD = Refusal(grpc.StatusCode.FAILED_PRECONDITION, ("CARDS_NOT_IN_HAND",))
# a pass LegalActions does not list: a trick's leader (MUST_LEAD), a phase without passes
# (WRONG_PHASE), or a rule of the game that forbids it now (its own reason: 川牌's MUST_TAKE)
PASS_NOT_NOW = Refusal(grpc.StatusCode.FAILED_PRECONDITION, ("MUST_LEAD", "WRONG_PHASE"), game_rules=True)
UNKNOWN_KIND = Refusal(grpc.StatusCode.INVALID_ARGUMENT, ("BAD_ACTION",))


def error_reason(error: grpc.RpcError) -> str:
    """The ErrorInfo reason of a failed call ("" when it carries none)."""
    status = rpc_status.from_call(error)
    for detail in status.details if status is not None else ():
        if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
            info = error_details_pb2.ErrorInfo()
            detail.Unpack(info)
            return info.reason
    return ""


def own_cards(view, seat: int) -> list[int]:
    """The cards a seat's view shows as its own: its hand, and its melds and card groups (川牌's
    laid sets and 过 cards, which an action may name too): a card "not held" is none of them."""
    own = list(view.hand.ids)
    mine = view.seats[seat] if seat < len(view.seats) else None
    if mine is not None:
        for meld in mine.melds:
            own += list(meld.cards.ids)
        for ids in mine.cards.values():
            own += list(ids.ids)
    return own


def _illegal_attempts(rng: random.Random, seat: int, legal: pb.LegalActionsResponse, to_act,
                      seats: int, card_ids: int, hand,
                      kinds=None) -> list[tuple[actions_pb2.Action, int, Refusal]]:
    """(action, the seat whose credential sends it, the refusal it must get). ``kinds``: the
    game's action kind names (ListGames), when known: a PASS in a game without one is an
    unknown kind (INVALID_ARGUMENT BAD_ACTION), not a pass refused now (FAILED_PRECONDITION)."""
    out = []
    candidates = [a.action for a in legal.actions]
    idle = [s for s in range(seats) if s not in to_act]
    if idle and candidates:
        wrong = actions_pb2.Action()
        wrong.CopyFrom(rng.choice(candidates))
        wrong.seat = rng.choice(idle)
        out.append((wrong, wrong.seat, NOT_AWAITED))
        out.append((wrong, seat, ANOTHER_SEAT))
    plays = [a for a in candidates if a.cards.ids]
    missing = sorted(set(range(card_ids)) - set(hand))
    if plays and missing:
        bad = actions_pb2.Action()
        bad.CopyFrom(rng.choice(plays))
        ids = list(bad.cards.ids)
        ids[rng.randrange(len(ids))] = rng.choice(missing)
        if len(set(ids)) == len(ids):
            bad.cards.CopyFrom(cards_pb2.CardSet(ids=ids))
            out.append((bad, seat, NOT_HELD))
    if not legal.can_pass:
        refusal = PASS_NOT_NOW if kinds is None or "PASS" in kinds else UNKNOWN_KIND
        out.append((actions_pb2.Action(seat=seat, kind="PASS"), seat, refusal))
    return out


def play_round(stub, rng: random.Random, *, game: str, preset: str = "", options: dict | None = None,
               seed: bytes | None = None, illegal_rate: float = 0.0, abandon_rate: float = 0.0,
               max_actions: int = 5000, as_seats: bool = True, card_ids: int = 54, kinds=None,
               previous: Round | None = None, seat_play: int = 0, seats: int = 0) -> Round:
    """Deal and play one round to the end with random legal choices, then Score it (as the
    owner). ``options`` maps option names to ``referee.v1.OptionValue`` messages; ``card_ids``
    is the game's card space size (GameInfo.card_ids) and ``kinds`` its action kind names
    (GameInfo.action_kinds), for illegal tries. With ``previous`` (a finished round) the round is
    the next of its match, dealt by the owner from its token. ``seats``: the seat count (0: the
    game's default).

    Raises: BotError when an illegal attempt is accepted; grpc.RpcError on unexpected errors.
    """
    if previous is not None:
        round_ = Round(stub.Deal(pb.DealRequest(previous_state=previous.state), metadata=Table(previous.deal).owner))
    else:
        round_ = Round(stub.Deal(pb.DealRequest(game=game, preset=preset, options=options, seed=seed,
                                                seat_play=seat_play, seats=seats)))
    deal = round_.deal
    table = Table(deal)
    seats = len(deal.seat_credentials)
    # a deal may end the round at once (川牌: a hand complete as dealt)
    state, seq, to_act, finished = deal.state, deal.seq, list(deal.to_act), bool(deal.views) and deal.views[0].finished
    left: set[int] = set()  # seats that abandoned: where the round goes on without them, they play no more
    while not finished:
        if len(round_.actions) >= max_actions:
            raise BotError(f"round not finished after {max_actions} actions")
        if rng.random() < abandon_rate and len(left) < seats:
            leaver = rng.choice([s for s in range(seats) if s not in left])  # the same draw as randrange(seats)
            left.add(leaver)
            who = table.seats[leaver] if as_seats else table.owner
            reply = stub.Play(pb.PlayRequest(state=state, action=actions_pb2.Action(seat=leaver, kind="ABANDON"),
                                             expected_seq=seq), metadata=who)
            if reply.answer:  # a relayed move (SEAT_PLAY_RELAYED): the owner applies it
                reply = stub.Play(pb.PlayRequest(state=state, answers=[reply.answer]), metadata=table.owner)
            round_.actions.append(actions_pb2.Action(seat=leaver, kind="ABANDON"))
            round_.plays.append(reply)
            state, seq, to_act, finished = reply.state, reply.seq, list(reply.to_act), reply.finished
            continue
        answers, replies = [], []
        for seat in to_act:
            who = table.seats[seat] if as_seats else table.owner
            legal = stub.LegalActions(pb.LegalActionsRequest(state=state, seat=seat, expected_seq=seq), metadata=who)
            if as_seats and rng.random() < illegal_rate:
                # the seat's hand now, from its own view (a Play's reply shows the caller's view
                # only: the landlord's kitty arrives with another seat's last bid)
                views = stub.GetView(pb.GetViewRequest(state=state), metadata=who).views
                hand = next((own_cards(v, seat) for v in views if v.seat == seat), ())
                tries = _illegal_attempts(rng, seat, legal, to_act, seats, card_ids, hand, kinds)
                if tries:
                    action, sender, refusal = rng.choice(tries)
                    _expect_refusal(stub, state, seq, action, table.seats[sender], refusal)
                    round_.rejected += 1
            action = rng.choice(legal.actions).action
            reply = stub.Play(pb.PlayRequest(state=state, action=action, expected_seq=seq), metadata=who)
            round_.actions.append(action)
            if not reply.answer:  # applied: the next state
                replies.append(reply)
                break
            answers.append(reply.answer)  # a simultaneous decision: sealed until the owner applies them
        for answer in answers:  # the owner applies the answers, one Play each (one step each)
            reply = stub.Play(pb.PlayRequest(state=state, answers=[answer]), metadata=table.owner)
            replies.append(reply)
            state = reply.state
        for reply in replies:
            round_.plays.append(reply)
        state, seq, to_act, finished = reply.state, reply.seq, list(reply.to_act), reply.finished
        if not to_act and not finished:  # a seat's reply shows it only itself when the turn is not public
            to_act = list(stub.GetView(pb.GetViewRequest(state=state, view_seat=0), metadata=table.owner).to_act)
    # the owner saw the round end (abandoned or not): it may reveal the seed
    round_.score = stub.Score(pb.ScoreRequest(state=state, reveal_abandoned=True), metadata=table.owner)
    round_.state = state
    return round_


def _expect_refusal(stub, state: bytes, seq: int, action: actions_pb2.Action, metadata,
                    refusal: Refusal) -> None:
    """Raises: BotError when the Play is accepted, or refused with the right status for another
    reason; the call's grpc.RpcError when it ends with another status (a failed call)."""
    try:
        stub.Play(pb.PlayRequest(state=state, action=action, expected_seq=seq), metadata=metadata)
    except grpc.RpcError as error:
        if error.code() != refusal.code:
            raise
        wrong = refusal.judge(error.code(), error_reason(error))
        if wrong:
            raise BotError(f"an illegal action refused for another reason: {wrong} "
                           f"({error.details()[:200]})") from error
        return
    raise BotError(f"an illegal action was accepted: {action}")
