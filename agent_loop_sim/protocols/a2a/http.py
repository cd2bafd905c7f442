"""The two HTTP shapes the orchestrator and the agent exchange, and how each is written down.

The models never open a socket: the orchestrator hands out `HttpRequest` values and the
agent answers with `HttpResponse` values; the live recorder carries the same values
over an in-process ASGI connection to the SDK. In a transcript a card fetch appears as
``{"method": "GET", "url": ..., "headers"?: [[name, value]]}`` and its answer as
``{"status": ..., "headers": [["Content-Type", ...], ["ETag", ...]], "body"?: card}``; a
JSON-RPC call appears as its request object and its answer as the response object, or as one
message per SSE event when the answer is a stream.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

#: The answer headers a card fetch records, in this order, under these names.
CARD_HEADERS = ("Content-Type", "ETag")


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

    def transcript(self) -> dict[str, Any]:
        if self.method == "POST":
            return self.body
        out: dict[str, Any] = {"method": self.method, "url": self.url}
        if self.headers:
            out["headers"] = [[k, v] for k, v in self.headers]
        return out


@dataclass
class HttpResponse:
    """One answer. ``events`` is set for a stream (``text/event-stream``): the JSON of each event,
    and ``open`` says whether the agent keeps the stream open after the last of them."""

    status: int
    headers: list[tuple[str, str]] = field(default_factory=list)
    body: Any = None
    events: list[Any] | None = None
    open: bool = False

    @property
    def is_stream(self) -> bool:
        return self.events is not None

    def transcript(self, request: HttpRequest) -> Any:
        """The answer as a transcript message (not used for streams, whose events are messages)."""
        if request.method == "POST":
            return self.body
        out: dict[str, Any] = {"status": self.status,
                               "headers": [[name, value] for name in CARD_HEADERS
                                           if (value := header(self.headers, name)) is not None]}
        if self.body is not None:
            out["body"] = self.body
        return out
