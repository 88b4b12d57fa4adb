"""The one mapping from core exceptions to gRPC statuses with ``google.rpc.ErrorInfo`` details.

=================  ===================  =================================================
core exception     gRPC status          ErrorInfo.reason
=================  ===================  =================================================
InvalidAction      INVALID_ARGUMENT     its reason (MALFORMED_REQUEST, UNKNOWN_CARD, ...)
UnknownName        NOT_FOUND            UNKNOWN_GAME / UNKNOWN_PRESET
IllegalAction      FAILED_PRECONDITION  NOT_YOUR_TURN, DOES_NOT_BEAT, a game's own reason
LimitExceeded      RESOURCE_EXHAUSTED   REQUEST_TOO_LARGE
Unsupported        UNIMPLEMENTED        UNSUPPORTED
Unauthenticated    UNAUTHENTICATED      CREDENTIAL_REQUIRED / CREDENTIAL_INVALID
PermissionDenied   PERMISSION_DENIED    NOT_YOUR_SEAT / OWNER_ONLY / CALLER_SEED_NOT_ALLOWED
anything else      INTERNAL             none (logged, nothing leaked)
=================  ===================  =================================================

ErrorInfo.domain is ``referee.v1``; ``metadata`` carries extra keys such as ``action_index``.
The HTTP port (service/connect.py) answers with the Connect code of the same name and the same
ErrorInfo detail (``connect_error``).
"""
from __future__ import annotations

import functools
import logging

import grpc
from google.protobuf import any_pb2
from google.rpc import error_details_pb2, status_pb2
from grpc_status import rpc_status

from referee.core.errors import (IllegalAction, InvalidAction, LimitExceeded, PermissionDenied, Reason, RefereeError,
                                 Unauthenticated, UnknownName, Unsupported)

DOMAIN = "referee.v1"
CODES: dict[type, grpc.StatusCode] = {
    InvalidAction: grpc.StatusCode.INVALID_ARGUMENT,
    UnknownName: grpc.StatusCode.NOT_FOUND,
    IllegalAction: grpc.StatusCode.FAILED_PRECONDITION,
    LimitExceeded: grpc.StatusCode.RESOURCE_EXHAUSTED,
    Unsupported: grpc.StatusCode.UNIMPLEMENTED,
    Unauthenticated: grpc.StatusCode.UNAUTHENTICATED,
    PermissionDenied: grpc.StatusCode.PERMISSION_DENIED,
}


class Malformed:
    """What a safe deserializer returns for bytes that do not parse (``why``: the parser's
    complaint, said to the caller where it helps: a JSON field name that does not exist)."""

    __slots__ = ("why",)

    def __init__(self, why: str = ""):
        self.why = why


MALFORMED = Malformed()
TOO_LARGE = object()  # ... and for a request over the service's size limit

log = logging.getLogger(__name__)


def status_code(error: RefereeError) -> grpc.StatusCode:
    """The status code of a core error (any other RefereeError: INVALID_ARGUMENT)."""
    for cls, code in CODES.items():
        if isinstance(error, cls):
            return code
    return grpc.StatusCode.INVALID_ARGUMENT


def to_status(error: RefereeError) -> grpc.Status:
    """The gRPC status of a core error: code, message and an ErrorInfo detail."""
    code = status_code(error)
    metadata = {k: str(v) for k, v in getattr(error, "metadata", {}).items()}
    detail = any_pb2.Any()
    detail.Pack(error_details_pb2.ErrorInfo(reason=error.reason, domain=DOMAIN,
                                            metadata=metadata))
    return rpc_status.to_status(status_pb2.Status(code=code.value[0], message=error.message,
                                                  details=[detail]))


def connect_error(error: RefereeError):
    """The Connect error of a core error: the code named as its gRPC status, its message and the
    same ErrorInfo detail."""
    from connectrpc.code import Code
    from connectrpc.errors import ConnectError, ErrorDetail
    from protobuf.wkt import Any

    metadata = {k: str(v) for k, v in getattr(error, "metadata", {}).items()}
    info = error_details_pb2.ErrorInfo(reason=error.reason, domain=DOMAIN, metadata=metadata)
    detail = Any(type_url="type.googleapis.com/google.rpc.ErrorInfo", value=info.SerializeToString())
    return ConnectError(Code[status_code(error).name], error.message, [ErrorDetail(detail)])


def admitted(name: str, request):
    """``request``, or the core error for what a safe deserializer returned instead of one."""
    if isinstance(request, Malformed):
        why = f": {request.why[:200]}" if request.why else ""
        raise InvalidAction(f"{name}: the request does not parse{why}", Reason.MALFORMED_REQUEST)
    if request is TOO_LARGE:
        raise LimitExceeded(f"{name}: the request is over the service's size limit", Reason.REQUEST_TOO_LARGE)
    return request


def with_metadata(error: RefereeError, **metadata) -> RefereeError:
    """Attach ErrorInfo metadata to ``error`` (returned for ``raise``)."""
    error.metadata = {**getattr(error, "metadata", {}), **metadata}
    return error


def safe_deserializer(message_class, max_bytes: int = 0):
    """A request parser that returns MALFORMED instead of raising (grpc would say INTERNAL),
    and TOO_LARGE for a request over ``max_bytes`` (0: no limit) before parsing it: the
    transport's own limit is set higher, so the caller gets a reason (REQUEST_TOO_LARGE)."""
    parse = message_class.FromString

    def deserialize(data: bytes):
        if max_bytes and len(data) > max_bytes:
            return TOO_LARGE
        try:
            return parse(data)
        except Exception:
            return MALFORMED

    return deserialize


def mapped(name: str, method):
    """Wrap one bound servicer method ``method(request, context)``: core errors -> their status,
    anything else -> INTERNAL. The server wraps every method of every service it adds."""

    @functools.wraps(method)
    def wrapper(request, context):
        try:
            return method(admitted(name, request), context)
        except RefereeError as error:
            context.abort_with_status(to_status(error))
        except Exception:
            log.exception("internal error in %s", name)
            context.abort(grpc.StatusCode.INTERNAL, "internal error")

    return wrapper
