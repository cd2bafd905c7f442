"""The era of a connection, and how the first request decides it.

The SDK's stdio server serves one connection in one era, fixed by the client's first
request: a request carrying the 2026-07-28 ``_meta`` envelope (other than ``initialize``)
opens a stateless connection; anything else opens a handshake one. Afterwards a request of
the other era is refused. The whole rule is the table below (h11's style: whatever is not in
the table cannot happen).
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any, Callable, Mapping

from ..family import Code, RuleTable
from .jsonrpc import INVALID_REQUEST, UNSUPPORTED_PROTOCOL_VERSION, ProtocolError
from .versions import META_PROTOCOL_VERSION, STATELESS_VERSIONS


class Era(Enum):
    __hash__ = object.__hash__  # members are singletons: hashed by identity

    UNDECIDED = "undecided"
    HANDSHAKE = "handshake"  # initialize, up to 2025-11-25
    STATELESS = "2026-07-28"  # the per-request envelope


class Kind(Enum):
    """What a request claims to be, as far as the era is concerned."""

    __hash__ = object.__hash__

    INITIALIZE = "initialize"
    ENVELOPED = "enveloped"  # params._meta carries the protocol-version key
    PLAIN = "plain"


def _supported_and_requested(params: Mapping[str, Any] | None) -> dict[str, Any]:
    requested = (params or {}).get("protocolVersion")
    if isinstance(requested, str):
        return {"supported": list(STATELESS_VERSIONS), "requested": requested}
    return {"supported": list(STATELESS_VERSIONS)}


@dataclass(frozen=True)
class Verdict:
    """What the server does with a request, given the era: serve it, or refuse it with this error."""

    action: str
    code: int | None = None
    message: str = ""
    data: Callable[[Mapping[str, Any] | None], Any] | None = None

    @property
    def label(self) -> str:
        return self.action if self.code is None else f"{self.action} ({self.code})"

    def refusal(self, params: Mapping[str, Any] | None) -> ProtocolError | None:
        """The error to answer with, or ``None`` when the request is served."""
        if self.code is None:
            return None
        return ProtocolError(self.code, self.message, self.data(params) if self.data else None)


SERVE = Verdict("serve")
REFUSE_ENVELOPE = Verdict(
    "refuse a 2026-07-28 request", INVALID_REQUEST,
    "this connection serves the handshake protocol era; requests carrying the 2026-07-28 envelope are not accepted on it")
REFUSE_INITIALIZE = Verdict(
    "refuse the handshake", UNSUPPORTED_PROTOCOL_VERSION,
    "connection is serving the 2026-07-28 protocol; the initialize handshake is not accepted",
    _supported_and_requested)


#: (era, kind of request) -> (era afterwards, what the server does with the request). The
#: refusals carry their error, so every era error on the wire comes from this table.
ERA_TRANSITIONS: dict[tuple[Era, Kind], tuple[Era, Verdict]] = {
    (Era.UNDECIDED, Kind.INITIALIZE): (Era.HANDSHAKE, SERVE),
    (Era.UNDECIDED, Kind.PLAIN): (Era.HANDSHAKE, SERVE),
    (Era.UNDECIDED, Kind.ENVELOPED): (Era.STATELESS, SERVE),
    (Era.HANDSHAKE, Kind.INITIALIZE): (Era.HANDSHAKE, SERVE),
    (Era.HANDSHAKE, Kind.PLAIN): (Era.HANDSHAKE, SERVE),
    (Era.HANDSHAKE, Kind.ENVELOPED): (Era.HANDSHAKE, REFUSE_ENVELOPE),
    (Era.STATELESS, Kind.INITIALIZE): (Era.STATELESS, REFUSE_INITIALIZE),
    (Era.STATELESS, Kind.PLAIN): (Era.STATELESS, SERVE),  # the envelope check answers it
    (Era.STATELESS, Kind.ENVELOPED): (Era.STATELESS, SERVE),
}


# The kinds kind_of returns, as module names.
_INITIALIZE, _ENVELOPED, _PLAIN = Kind.INITIALIZE, Kind.ENVELOPED, Kind.PLAIN


def kind_of(method: str, params: Mapping[str, Any] | None) -> Kind:
    if method == "initialize":
        return _INITIALIZE
    # dict, not Mapping: params are decoded JSON.
    meta = params.get("_meta") if isinstance(params, dict) else None
    if isinstance(meta, dict) and META_PROTOCOL_VERSION in meta:
        return _ENVELOPED
    return _PLAIN


def transition(era: Era, method: str, params: Mapping[str, Any] | None) -> tuple[Era, Verdict]:
    """The era a request leaves the connection in, and what is done with it. (The server looks the
    table up the same way in line, `ServerConnection.receive_decoded`.)"""
    return ERA_TRANSITIONS[(era, kind_of(method, params))]


def era_rules() -> list[RuleTable]:
    """`ERA_TRANSITIONS` as the site draws it."""
    return [RuleTable(
        "The era of a connection",
        "The engine's rule, drawn from its table (`ERA_TRANSITIONS`): what the server does with a "
        "request, by the connection's era and what the request claims to be.",
        ("Era", "Request", "Era afterwards", "The server"),
        tuple((Code(era.value), Code(kind.value), Code(after.value), verdict.label)
              for (era, kind), (after, verdict) in ERA_TRANSITIONS.items()))]
