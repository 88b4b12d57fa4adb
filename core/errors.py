"""Errors the rules raise, each with a machine reason name.

A reason is a string (``"NOT_YOUR_TURN"``). The common reasons, the same for every game, are
the attributes of :class:`Reason`; their table below says which exception (hence which gRPC
status) each belongs to, and the proto enum ``referee.v1.ReasonCode`` lists the same names with
its ``REASON_CODE_`` prefix (a test keeps them equal). A game adds its own reasons as plain
strings listed in its ``Game.reasons`` (``"NOT_WIN"``, ``"BID_TOO_LOW"``): refusals of an action
are rule refusals, :class:`IllegalAction` (``error_for``). The service maps the exception
classes to status codes in one place.
"""
from __future__ import annotations


class RefereeError(Exception):
    """Base: a reason name and a human message."""

    reason: str = "REASON_UNSPECIFIED"

    def __init__(self, message: str, reason: str | None = None):
        super().__init__(message)
        if reason is not None:
            self.reason = reason

    @property
    def message(self) -> str:
        return self.args[0]


class InvalidAction(RefereeError, ValueError):
    """Input that cannot be parsed or names nothing real (bad card, bad option, bad seat)."""

    reason = "MALFORMED_REQUEST"


class IllegalAction(RefereeError):
    """A well-formed action that breaks a rule or is not allowed in this state."""


class UnknownName(RefereeError, LookupError):
    """An unknown game or preset."""

    reason = "UNKNOWN_GAME"


class LimitExceeded(RefereeError):
    """A request larger than the service accepts."""

    reason = "REQUEST_TOO_LARGE"


class Unsupported(RefereeError):
    """A capability the game does not have (e.g. Classify for a tile game)."""

    reason = "UNSUPPORTED"


class Unauthenticated(RefereeError):
    """No credential where one is needed, or one that does not open this table."""

    reason = "CREDENTIAL_REQUIRED"


class PermissionDenied(RefereeError):
    """A credential acting beyond its role (another seat, an owner's call)."""

    reason = "NOT_YOUR_SEAT"


# name: (exception class, meaning); None for OK, which refuses nothing
COMMON_REASONS: dict[str, tuple[type | None, str]] = {
    "OK": (None, "the action is legal (ValidateResponse only)"),
    # INVALID_ARGUMENT: the request cannot be understood
    "MALFORMED_REQUEST": (InvalidAction, "a required field is missing, a value cannot be used, or the request does not parse"),
    "UNKNOWN_CARD": (InvalidAction, "a card id or card text names no card of the game's card space"),
    "DUPLICATE_CARD": (InvalidAction, "a card is given more often than the decks hold it"),
    "BAD_OPTION": (InvalidAction, "an option is unknown to the game, or its value is not allowed"),
    "BAD_SEAT_COUNT": (InvalidAction, "the game is not played by that many seats"),
    "BAD_SEAT": (InvalidAction, "no such seat at this table"),
    "BAD_ACTION": (InvalidAction, "the action kind or its values are not meaningful for this game"),
    "STATE_TOKEN_INVALID": (InvalidAction, "the state token does not open: tampered, truncated, unknown key or another game"),
    "BAD_SEED": (InvalidAction, "the seed or the entropy is unusable (length)"),
    # NOT_FOUND: an unknown name
    "UNKNOWN_GAME": (UnknownName, "no game with that id (see ListGames)"),
    "UNKNOWN_PRESET": (UnknownName, "the game has no preset of that name (see ListGames)"),
    # FAILED_PRECONDITION: well formed, but the rules or the state forbid it
    "NOT_YOUR_TURN": (IllegalAction, "the seat is not awaited now"),
    "GAME_OVER": (IllegalAction, "the round is over"),
    "GAME_NOT_FINISHED": (IllegalAction, "the round is not finished (Score, or the next round of a match)"),
    "WRONG_PHASE": (IllegalAction, "the action kind belongs to another phase of the game"),
    "CARDS_NOT_IN_HAND": (IllegalAction, "the seat does not hold those cards"),
    "NOT_A_COMBINATION": (IllegalAction, "the cards form no combination of the game"),
    "DOES_NOT_BEAT": (IllegalAction, "the combination does not beat the table"),
    "MUST_LEAD": (IllegalAction, "the seat leads and may not pass"),
    "STALE_STATE": (IllegalAction, "expected_seq differs from the token's sequence number"),
    "MATCH_OVER": (IllegalAction, "reserved, no longer raised: the table of a match that is over goes on into "
                                  "its next match"),
    "SEAT_LEFT": (IllegalAction, "the seat left the round and plays no more (abandon policy out_of_play)"),
    "TOO_LATE": (IllegalAction, "the action or sealed move came after the seat's deadline (the table's clock): the "
                                "owner applies the game's default (timeouts)"),
    "NOT_EXPIRED": (IllegalAction, "timeouts asked while no awaited seat's deadline has passed (metadata "
                                   "retry_after_ms)"),
    # RESOURCE_EXHAUSTED
    "REQUEST_TOO_LARGE": (LimitExceeded, "too many actions, cards or values in one request"),
    # UNIMPLEMENTED
    "UNSUPPORTED": (Unsupported, "the game does not have this capability (see GameInfo.capabilities)"),
    # UNAUTHENTICATED: who is calling is unknown
    "CREDENTIAL_REQUIRED": (Unauthenticated, "the call needs a seat's or the owner's credential (authorization metadata)"),
    "CREDENTIAL_INVALID": (Unauthenticated, "the credential is malformed or does not open this table"),
    # PERMISSION_DENIED: known, but not allowed
    "NOT_YOUR_SEAT": (PermissionDenied, "a seat's credential acting or looking as another seat"),
    "OWNER_ONLY": (PermissionDenied, "only the table's owner may do this (next round, resolving a decision, replay a live table)"),
    "CALLER_SEED_NOT_ALLOWED": (PermissionDenied, "a caller-given seed on a server not started with --allow-caller-seed"),
}


class Reason:
    """The common reason names as attributes: ``Reason.NOT_YOUR_TURN == "NOT_YOUR_TURN"``."""

    OK = "OK"
    MALFORMED_REQUEST = "MALFORMED_REQUEST"
    UNKNOWN_CARD = "UNKNOWN_CARD"
    DUPLICATE_CARD = "DUPLICATE_CARD"
    BAD_OPTION = "BAD_OPTION"
    BAD_SEAT_COUNT = "BAD_SEAT_COUNT"
    BAD_SEAT = "BAD_SEAT"
    BAD_ACTION = "BAD_ACTION"
    STATE_TOKEN_INVALID = "STATE_TOKEN_INVALID"
    BAD_SEED = "BAD_SEED"
    UNKNOWN_GAME = "UNKNOWN_GAME"
    UNKNOWN_PRESET = "UNKNOWN_PRESET"
    NOT_YOUR_TURN = "NOT_YOUR_TURN"
    GAME_OVER = "GAME_OVER"
    GAME_NOT_FINISHED = "GAME_NOT_FINISHED"
    WRONG_PHASE = "WRONG_PHASE"
    CARDS_NOT_IN_HAND = "CARDS_NOT_IN_HAND"
    NOT_A_COMBINATION = "NOT_A_COMBINATION"
    DOES_NOT_BEAT = "DOES_NOT_BEAT"
    MUST_LEAD = "MUST_LEAD"
    STALE_STATE = "STALE_STATE"
    MATCH_OVER = "MATCH_OVER"
    SEAT_LEFT = "SEAT_LEFT"
    TOO_LATE = "TOO_LATE"
    NOT_EXPIRED = "NOT_EXPIRED"
    REQUEST_TOO_LARGE = "REQUEST_TOO_LARGE"
    UNSUPPORTED = "UNSUPPORTED"
    CREDENTIAL_REQUIRED = "CREDENTIAL_REQUIRED"
    CREDENTIAL_INVALID = "CREDENTIAL_INVALID"
    NOT_YOUR_SEAT = "NOT_YOUR_SEAT"
    OWNER_ONLY = "OWNER_ONLY"
    CALLER_SEED_NOT_ALLOWED = "CALLER_SEED_NOT_ALLOWED"


assert {k for k in vars(Reason) if not k.startswith("_")} == set(COMMON_REASONS)


def quote(text, limit: int = 40) -> str:
    """A caller's text as an error message may echo it: a short prefix, quoted (a message that
    echoed everything could carry 8,000 characters into the status trailers)."""
    text = str(text)
    return repr(text[:limit] + ("..." if len(text) > limit else ""))


def error_for(reason: str, message: str) -> RefereeError:
    """The exception a refusal with ``reason`` raises: a common reason's own class, a game's
    reason (a rule) IllegalAction."""
    cls = COMMON_REASONS.get(reason, (IllegalAction, ""))[0] or IllegalAction
    return cls(message, reason)
