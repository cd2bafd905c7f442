"""The era of a connection, and how the first request decides it.

The SDK's stdio server serves one connection in one era, fixed by the client's first
request: a request carrying the 2026-07-28 ``_meta`` envelope (other than ``initialize``)
opens a stateless connection; anything else opens a handshake one. Afterwards a request of
the other era is refused. The whole rule is the table below (h11's style: whatever is not in
the table cannot happen).
"""
from __future__ import annotations

from enum import Enum
from typing import Any, Mapping

from ..family import Code, RuleTable
from .versions import META_PROTOCOL_VERSION


class Era(Enum):
    __hash__ = object.__hash__  # members are singletons; Enum's own hash is slow Python code

    UNDECIDED = "undecided"
    HANDSHAKE = "handshake"  # initialize, up to 2025-11-25
    STATELESS = "2026-07-28"  # the per-request envelope


class Kind(Enum):
    """What a request claims to be, as far as the era is concerned."""

    __hash__ = object.__hash__

    INITIALIZE = "initialize"
    ENVELOPED = "enveloped"  # params._meta carries the protocol-version key
    PLAIN = "plain"


class Verdict(Enum):
    SERVE = "serve"
    REFUSE_ENVELOPE = "refuse a 2026-07-28 request (-32600)"
    REFUSE_INITIALIZE = "refuse the handshake (-32022)"


#: (era, kind of request) -> (era afterwards, what the server does with the request)
ERA_TRANSITIONS: dict[tuple[Era, Kind], tuple[Era, Verdict]] = {
    (Era.UNDECIDED, Kind.INITIALIZE): (Era.HANDSHAKE, Verdict.SERVE),
    (Era.UNDECIDED, Kind.PLAIN): (Era.HANDSHAKE, Verdict.SERVE),
    (Era.UNDECIDED, Kind.ENVELOPED): (Era.STATELESS, Verdict.SERVE),
    (Era.HANDSHAKE, Kind.INITIALIZE): (Era.HANDSHAKE, Verdict.SERVE),
    (Era.HANDSHAKE, Kind.PLAIN): (Era.HANDSHAKE, Verdict.SERVE),
    (Era.HANDSHAKE, Kind.ENVELOPED): (Era.HANDSHAKE, Verdict.REFUSE_ENVELOPE),
    (Era.STATELESS, Kind.INITIALIZE): (Era.STATELESS, Verdict.REFUSE_INITIALIZE),
    (Era.STATELESS, Kind.PLAIN): (Era.STATELESS, Verdict.SERVE),  # the envelope check answers it
    (Era.STATELESS, Kind.ENVELOPED): (Era.STATELESS, Verdict.SERVE),
}


def kind_of(method: str, params: Mapping[str, Any] | None) -> Kind:
    if method == "initialize":
        return Kind.INITIALIZE
    meta = params.get("_meta") if isinstance(params, Mapping) else None
    if isinstance(meta, Mapping) and META_PROTOCOL_VERSION in meta:
        return Kind.ENVELOPED
    return Kind.PLAIN


def transition(era: Era, method: str, params: Mapping[str, Any] | None) -> tuple[Era, Verdict]:
    return ERA_TRANSITIONS[(era, kind_of(method, params))]


def era_rules() -> list[RuleTable]:
    """:data:`ERA_TRANSITIONS` as the site draws it."""
    return [RuleTable(
        "The era of a connection",
        "The engine's rule, drawn from its table (`ERA_TRANSITIONS`): what the server does with a "
        "request, by the connection's era and what the request claims to be.",
        ("Era", "Request", "Era afterwards", "The server"),
        tuple((Code(era.value), Code(kind.value), Code(after.value), verdict.value)
              for (era, kind), (after, verdict) in ERA_TRANSITIONS.items()))]
