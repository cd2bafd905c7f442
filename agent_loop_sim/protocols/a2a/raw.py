"""A raw A2A session: exact HTTP bodies posted to the agent's JSON-RPC URL, no orchestrator.

`RawPoster` hands out one `HttpRequest` per post, carrying the body as
text (``raw``), so that what is not JSON, a batch, a missing ``jsonrpc`` or an odd ``id``
reaches the agent exactly as written. It reads a stream as the orchestrator does: until an
error, a message or a task that is done or waiting.
"""
from __future__ import annotations

from typing import Any

from .http import HttpRequest, HttpResponse
from .orchestrator import DEFAULT_HEADERS, is_final_event


class RawPoster:
    """Plays a raw session's ``posts`` (validated by `scenario`) against ``rpc_url``."""

    def __init__(self, posts: list[dict[str, Any]], rpc_url: str) -> None:
        self.posts = posts
        self.rpc_url = rpc_url
        self.index = 0

    def next_request(self) -> HttpRequest | None:
        if self.index >= len(self.posts):
            return None
        post = self.posts[self.index]
        self.index += 1
        headers = [tuple(h) for h in post["headers"]] if "headers" in post else list(DEFAULT_HEADERS)
        return HttpRequest("POST", self.rpc_url, headers, raw=post["body"])  # type: ignore[arg-type]

    def receive(self, response: HttpResponse) -> None:
        pass

    def receive_event(self, event: Any) -> bool:
        return is_final_event(event)

    def end_of_stream(self) -> None:
        pass
