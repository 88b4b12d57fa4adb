"""Who is calling: stateless credentials for a table's owner and its seats.

Whoever deals owns the table (the platform backend). Deal returns one credential per seat and
one for the owner; a call carries one in gRPC metadata as ``authorization: Bearer <base64url>``.
A credential is a MAC over the table id (which the sealed token carries) and the role, under a
key derived from the server's token keys, so any pod verifies it, nothing is stored, and it is
rotated with the keys (a credential made under a key opens as long as the key is in the ring)::

    credential = version u8 (=1) | role u8 (seat 0..6, 255 owner) | len u8 | key id | mac (16)
    mac        = HMAC-SHA256(K, "referee/v1/credential" | table id (16) | role u8)[:16]
    K          = HMAC-SHA256(token key, "referee/v1/credential-key")

Roles: the owner sees every seat's view, may act for any seat (ABANDON for a player who left,
a default action on a timeout), gets the seed at Score, resolves simultaneous decisions and
deals the next round of a match. A seat acts only as itself, gets only its own view and the
events as it may see them. No credential: the public (spectator) view; no action.
"""
from __future__ import annotations

import base64
import binascii
import collections
import functools
import hmac
from dataclasses import dataclass

import grpc

from referee.core.errors import PermissionDenied, Reason, Unauthenticated

from .token import KeyRing

VERSION = 1
OWNER = 255
MAC_BYTES = 16
HEADER = "authorization"
SCHEME = "bearer "


__all__ = ["Caller", "Credentials", "OWNER", "OWNER_CALLER", "OwnerInterceptor", "PermissionDenied", "SPECTATOR",
           "Unauthenticated", "bearer", "from_metadata", "parse_bearer"]


@dataclass(frozen=True, slots=True)
class Caller:
    """Who a call comes from: the owner, a seat, or nobody known (a spectator)."""

    role: int | None  # OWNER, a seat, or None

    @property
    def owner(self) -> bool:
        return self.role == OWNER

    @property
    def seat(self) -> int | None:
        return self.role if self.role is not None and self.role != OWNER else None

    def describe(self) -> str:
        return "the owner" if self.owner else ("a spectator" if self.role is None else f"seat {self.role}")


OWNER_CALLER, SPECTATOR = Caller(OWNER), Caller(None)


@functools.lru_cache(maxsize=64)
def _mac_key(key: bytes) -> bytes:
    return hmac.digest(key, b"referee/v1/credential-key", "sha256")


def _mac(key: bytes, table: bytes, role: int) -> bytes:
    return hmac.digest(_mac_key(key), b"referee/v1/credential" + table + bytes((role,)), "sha256")[:MAC_BYTES]


class Credentials:
    """Makes and checks credentials with a key ring (the token keys)."""

    def __init__(self, ring: KeyRing, cache: int = 4096):
        self.ring = ring
        self._keys = {kid.encode(): key for kid, key in ring.keys.items()}
        # (table, credential or its header text) -> Caller of credentials that checked out: a
        # seat sends the same one call after call (only verified pairs are kept: a hit is as good
        # as the MAC check)
        self._checked: collections.OrderedDict[tuple[bytes, bytes], Caller] = collections.OrderedDict()
        self._cache = cache
        kid = ring.active.encode()
        self._prefix = bytes((VERSION,)), bytes((len(kid),)) + kid
        self._active = ring.keys[ring.active]

    def make(self, table: bytes, role: int) -> bytes:
        """The credential of ``role`` (a seat or OWNER) at ``table``."""
        version, kid = self._prefix
        return version + bytes((role,)) + kid + _mac(self._active, table, role)

    def caller(self, table: bytes, credential: bytes | None) -> Caller:
        """The caller a credential makes at ``table``; SPECTATOR without one.

        Raises:
            Unauthenticated: a credential that does not open this table (another table, a
                forged or truncated one, a key this server no longer holds).
        """
        if not credential:
            return SPECTATOR
        known = self._checked.get((table, credential))
        if known is not None:
            return known
        try:
            if credential[0] != VERSION:
                raise IndexError
            role, end = credential[1], 3 + credential[2]
            key = self._keys.get(credential[3:end])
            mac = credential[end:]
        except IndexError:
            raise Unauthenticated("the credential is malformed", Reason.CREDENTIAL_INVALID) from None
        if key is None or len(mac) != MAC_BYTES or not hmac.compare_digest(mac, _mac(key, table, role)):
            raise Unauthenticated("the credential does not open this table", Reason.CREDENTIAL_INVALID)
        caller = OWNER_CALLER if role == OWNER else Caller(role)
        self._remember((table, credential), caller)
        return caller

    def caller_of(self, table: bytes, metadata) -> Caller:
        """The caller a call's metadata makes at ``table`` (``caller`` of its bearer credential,
        remembered by the header's text, so a seat's next call skips decoding it too).

        Raises:
            Unauthenticated: as ``caller``, and for an authorization entry that is no bearer.
        """
        for key, value in metadata or ():
            if key == HEADER:
                known = self._checked.get((table, value))
                if known is None:
                    known = self.caller(table, parse_bearer(value))
                    self._remember((table, value), known)
                return known
        return SPECTATOR

    def _remember(self, key: tuple, caller: Caller) -> None:
        if self._cache:
            self._checked[key] = caller
            if len(self._checked) > self._cache:
                self._checked.popitem(last=False)


def from_metadata(metadata) -> bytes | None:
    """The credential bytes of ``authorization: Bearer <base64url>`` in gRPC metadata, or None.

    Raises:
        Unauthenticated: an authorization entry that is no bearer credential.
    """
    for key, value in metadata or ():
        if key == HEADER:
            return parse_bearer(value)
    return None


def parse_bearer(value) -> bytes:
    """The credential of a ``Bearer <base64url>`` value. Raises Unauthenticated."""
    if isinstance(value, bytes):
        value = value.decode("ascii", "replace")
    if value[:len(SCHEME)].lower() != SCHEME:
        raise Unauthenticated("authorization must be 'Bearer <base64url credential>'", Reason.CREDENTIAL_INVALID)
    text = value[len(SCHEME):].strip()
    try:
        credential = base64.b64decode(text + "=" * (-len(text) % 4), altchars=b"-_", validate=True)
    except (binascii.Error, ValueError):
        credential = b""
    if not credential:
        raise Unauthenticated("the credential is not base64url", Reason.CREDENTIAL_INVALID)
    return credential


def bearer(credential: bytes) -> tuple[str, str]:
    """The metadata entry carrying ``credential`` (for clients)."""
    return HEADER, "Bearer " + base64.urlsafe_b64encode(credential).rstrip(b"=").decode()


class _Details(collections.namedtuple("_Details", ("method", "timeout", "metadata", "credentials",
                                                 "wait_for_ready", "compression")), grpc.ClientCallDetails):
    pass


class OwnerInterceptor(grpc.UnaryUnaryClientInterceptor):
    """A client-side helper for a platform backend (the owner of the tables it deals), as a gRPC
    channel interceptor: ``grpc.intercept_channel(channel, OwnerInterceptor())``. It remembers
    the owner credential Deal returns and sends it with every later call about that table (a
    call whose ``state`` or ``previous_state`` is a token it has seen; JudgeBatch items get
    theirs), unless the call carries its own ``authorization``. It remembers ``size`` tokens."""

    def __init__(self, size: int = 100_000):
        self._owner_of: collections.OrderedDict[bytes, bytes] = collections.OrderedDict()
        self._size = size

    def _remember(self, token: bytes, credential: bytes) -> None:
        if token and credential:
            self._owner_of[token] = credential
            if len(self._owner_of) > self._size:
                self._owner_of.popitem(last=False)

    def intercept_unary_unary(self, continuation, details, request):
        token = getattr(request, "state", b"") or getattr(request, "previous_state", b"")
        credential = self._owner_of.get(token) if isinstance(token, bytes) else None
        items = []
        for item in getattr(request, "items", ()):  # JudgeBatch: each item its own table's credential
            call = getattr(item, item.WhichOneof("call") or "", None)
            if call is not None and not item.credential and call.state in self._owner_of:
                item.credential = self._owner_of[call.state]
            items.append(item.credential)
        metadata = list(details.metadata or ())
        if credential and not any(k == HEADER for k, _ in metadata):
            metadata.append(bearer(credential))
            details = _Details(details.method, details.timeout, metadata, details.credentials,
                               details.wait_for_ready, details.compression)
        outcome = continuation(details, request)
        try:
            response = outcome.result()
        except grpc.RpcError:
            return outcome
        credential = getattr(response, "owner_credential", b"") or credential
        if credential:
            self._remember(getattr(response, "state", b""), credential)
        for result, item_credential in zip(getattr(response, "results", ()), items):
            if result.WhichOneof("result") == "play":
                self._remember(result.play.state, item_credential)
        return outcome
