"""The two HTTP shapes the orchestrator and the agent exchange, and how each is written down.

The models never open a socket: the orchestrator hands out `HttpRequest` values and the
agent answers with `HttpResponse` values; the live recorder carries the same values over
HTTP to the SDK (a local socket to uvicorn; the seed page's sessions, in process). In a
transcript every request and answer is one message: its body (the JSON-RPC object, the card,
nothing for a GET or a 304, the text of a raw post) and its ``http`` object (method, path,
status and the headers that matter, as `agent_loop_sim.http_log` writes them); a streamed
answer is one message per SSE event, the first carrying the answer's status and headers.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...http_log import event_message, reply_message, request_message
from ...transcript import Message


def header(headers: list[tuple[str, str]], name: str) -> str | None:
    """The value of header ``name`` (case-insensitive), or ``None``."""
    for key, value in headers:
        if key.lower() == name.lower():
            return value
    return None


@dataclass
class HttpRequest:
    """One request: ``GET`` of the card or ``POST`` of a JSON-RPC object."""

    method: str
    url: str
    headers: list[tuple[str, str]] = field(default_factory=list)
    body: Any = None
    raw: str | None = None  # a raw post: the body exactly as written (``body`` is unused)

    def message(self) -> Message:
        """The request as a transcript message."""
        return request_message(self.method, self.url, self.headers, self.body, self.raw)


@dataclass
class HttpResponse:
    """One answer. ``events`` is set for a stream (``text/event-stream``): the JSON of each event,
    and ``open`` says whether the agent keeps the stream open after the last of them; ``later``,
    where set, holds what the agent writes on it as other requests make it (``later.take()``:
    the JSON of the events since the last take; ``later.closed``: the agent ends the stream)."""

    status: int
    headers: list[tuple[str, str]] = field(default_factory=list)
    body: Any = None
    events: list[Any] | None = None
    open: bool = False
    later: Any = None

    @property
    def is_stream(self) -> bool:
        return self.events is not None

    def message(self) -> Message:
        """The answer as a transcript message (not used for streams: see `event_message`)."""
        return reply_message(self.status, self.headers, self.body)

    def event_message(self, event: Any, first: bool) -> Message:
        """One event of this stream as a transcript message (the first carries the status and headers)."""
        return event_message(event, first, self.status, self.headers)
