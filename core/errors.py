"""Errors the rules raise, each with a machine reason code.

`Reason` mirrors the proto enum `referee.v1.ReasonCode` name for name (a test keeps them equal);
the service maps the exception classes to gRPC status codes in one place.
"""
from enum import IntEnum


class Reason(IntEnum):
    REASON_UNSPECIFIED = 0
    OK = 1
    # malformed input (INVALID_ARGUMENT)
    MALFORMED_REQUEST = 10
    UNKNOWN_CARD = 11
    DUPLICATE_CARD = 12
    BAD_OPTION = 13
    BAD_SEAT_COUNT = 14
    BAD_SEAT = 15
    BAD_ACTION = 16
    STATE_TOKEN_INVALID = 17
    BAD_SEED = 18
    # unknown names (NOT_FOUND)
    UNKNOWN_GAME = 20
    UNKNOWN_PRESET = 21
    # breaks a rule or the state forbids it (FAILED_PRECONDITION)
    NOT_YOUR_TURN = 30
    GAME_OVER = 31
    GAME_NOT_FINISHED = 32
    WRONG_PHASE = 33
    CARDS_NOT_IN_HAND = 34
    NOT_A_COMBINATION = 35
    DOES_NOT_BEAT = 36
    MUST_LEAD = 37
    BID_TOO_LOW = 38
    STALE_STATE = 39
    DECLARED_READING_INVALID = 40
    NOT_WIN = 41
    UNDER_8 = 42
    # limits (RESOURCE_EXHAUSTED)
    REQUEST_TOO_LARGE = 50


class RefereeError(Exception):
    """Base: a reason code and a human message."""

    reason: Reason = Reason.REASON_UNSPECIFIED

    def __init__(self, message: str, reason: Reason | None = None):
        super().__init__(message)
        if reason is not None:
            self.reason = reason

    @property
    def message(self) -> str:
        return self.args[0]


class InvalidAction(RefereeError, ValueError):
    """Input that cannot be parsed or names nothing real (bad card, bad option, bad seat)."""

    reason = Reason.MALFORMED_REQUEST


class IllegalAction(RefereeError):
    """A well-formed action that breaks a rule or is not allowed in this state."""

    reason = Reason.REASON_UNSPECIFIED


class UnknownName(RefereeError, LookupError):
    """An unknown game or preset."""

    reason = Reason.UNKNOWN_GAME


class LimitExceeded(RefereeError):
    """A request larger than the service accepts."""

    reason = Reason.REQUEST_TOO_LARGE


def error_for(reason: Reason, message: str) -> RefereeError:
    """The exception a refusal with ``reason`` raises: malformed input (codes 10-19) is an
    InvalidAction, unknown names (20-29) UnknownName, limits (50-59) LimitExceeded, the rest
    (rules and state, 30-49) IllegalAction."""
    for low, cls in ((50, LimitExceeded), (30, IllegalAction), (20, UnknownName), (0, InvalidAction)):
        if reason >= low:
            return cls(message, reason)
    raise AssertionError("unreachable")
