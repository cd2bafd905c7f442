"""How one HTTP exchange of an A2A session is written down: the ``http`` object of a message.

Every A2A message carries, beside its body (``json``, or ``raw`` for a body posted exactly as
written), the part of the HTTP envelope that decides what happens to it:

- a request: ``{"method": "POST", "path": "/a2a", "headers": [["Content-Type", ...], ["A2A-Version", ...]]}``
- a reply: ``{"status": 200, "headers": [["Content-Type", ...], ["ETag", ...]]}``; for an SSE
  stream, the first event carries the reply's status and headers and the others none.

Only the headers that matter are kept (`HEADERS_THAT_MATTER`), in the order they were sent,
under the spelling of that list (HTTP header names are case-insensitive, and the SDK's server
sends them lower-case). The recorder writes these from what crossed the SDK's ASGI app, the
engine from what its models send; both call these functions, so the shape is written once.
"""
from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from .transcript import Message

#: The headers a transcript keeps: the version the orchestrator asks for, the card's
#: revalidation (If-None-Match / ETag) and what the body is (Content-Type).
HEADERS_THAT_MATTER = ("A2A-Version", "If-None-Match", "ETag", "Content-Type")
_SPELLING = {name.lower(): name for name in HEADERS_THAT_MATTER}
#: Each kept header's spelling by itself too: the engine's models send that spelling, and a name
#: found here needs no ``lower()`` (this runs for every header of every message).
_KNOWN = _SPELLING | {name: name for name in HEADERS_THAT_MATTER}


def kept_headers(headers: list[tuple[str, str]] | list[list[str]]) -> list[list[str]]:
    """The headers that matter, in the order sent, each ``[name, value]``."""
    out = []
    for name, value in headers:
        spelled = _KNOWN.get(name) or _SPELLING.get(name.lower())
        if spelled is not None:
            out.append([spelled, value])
    return out


def http_request(method: str, url: str, headers: list[tuple[str, str]]) -> dict[str, Any]:
    """The ``http`` object of a request to ``url`` (only its path is written down)."""
    return {"method": method, "path": urlsplit(url).path or "/", "headers": kept_headers(headers)}


def http_reply(status: int, headers: list[tuple[str, str]]) -> dict[str, Any]:
    """The ``http`` object of a reply (or of a stream's first event)."""
    return {"status": status, "headers": kept_headers(headers)}


def header_value(http: dict[str, Any] | None, name: str) -> str | None:
    """The value of header ``name`` in an ``http`` object (case-insensitive), or ``None``."""
    for key, value in (http or {}).get("headers", []):
        if key.lower() == name.lower():
            return value
    return None


# The messages of one exchange, as both the engine and the recorder write them. The parties are
# A2A's: only A2A is carried over HTTP here. (Each `Message` made with its fields given by position,
# ``(sender, receiver, json, raw, sse, http)``: keywords cost a message's making nearly twice as much.)

def request_message(method: str, url: str, headers: list[tuple[str, str]], body: Any = None,
                    raw: str | None = None) -> Message:
    """A request: its JSON body (``None`` for a GET), or ``raw``, the text of a raw post as written."""
    http = http_request(method, url, headers)
    if raw is not None:
        return Message("orchestrator", "agent", None, raw, False, http)
    return Message("orchestrator", "agent", body, None, False, http)


def reply_message(status: int, headers: list[tuple[str, str]], body: Any = None, text: str | None = None) -> Message:
    """A whole reply: its JSON body (``None`` when it has none, as a 304), or ``text`` when it is not JSON."""
    http = http_reply(status, headers)
    if text is not None:
        return Message("agent", "orchestrator", None, text, False, http)
    return Message("agent", "orchestrator", body, None, False, http)


def event_message(event: Any, first: bool, status: int, headers: list[tuple[str, str]]) -> Message:
    """One SSE event; the first of a stream carries the reply's status and headers."""
    return Message("agent", "orchestrator", event, None, True, http_reply(status, headers) if first else None)
