"""``serve mcp --http``: the engine's MCP server over Streamable HTTP, served by uvicorn.

The edge only, as ``serve a2a`` is: uvicorn parses HTTP, and this ASGI app hands each request to
the sans-IO model of the SDK's Streamable HTTP app (`protocols.mcp.http_transport.StreamableHttpApp`,
over the server model of the world served) and writes its answer: a JSON body, or an SSE stream
that stays open while the request it answers is pending (a question to the client, the GET
stream), fed with what the model says on it while answering later requests, and with the
keepalive comments the model's `Keepalive` says while it is quiet. A stream the model defers (a
2026-07-28 call that has said nothing) gets its status line only with the first thing written on
it. Requests are handed to the model one at a time, in the order they arrive.
"""
from __future__ import annotations

import asyncio
import json
import sys
from datetime import datetime, timezone
from typing import Any

from .listener import listen, run
from ..errors import printable
from ..mcp_http_log import ENDPOINT
from ..protocols.mcp import FIXTURE_SERVER, ServerConnection, ServerDefinition
from ..protocols.mcp.server import Process
from ..protocols.mcp.http_transport import Reply, Stream, StreamableHttpApp

#: A body over this many bytes is refused (413) before it is read whole.
MAX_BODY_BYTES = 10 * 1024 * 1024
_END = object()  # a stream's end, put on its queue


def _sse(message: Any) -> bytes:
    return b"event: message\r\ndata: " + json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode() + b"\r\n\r\n"


class McpHttpApp:
    """The ASGI app: one model of the SDK's app for the whole process (its sessions, its streams)."""

    def __init__(self, definition: ServerDefinition = FIXTURE_SERVER) -> None:
        process = Process(definition.fresh_store())  # (every connection reads and writes it)
        self.model = StreamableHttpApp(lambda: ServerConnection(definition, process=process))
        self.queues: dict[Stream, asyncio.Queue[Any]] = {}

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return  # (uvicorn runs with lifespan off)
        if scope["path"] != ENDPOINT:
            await self._whole(send, 404, [("Content-Type", "text/plain")], b"Not Found")
            return
        headers = [(k.decode("latin-1"), v.decode("latin-1")) for k, v in scope["headers"]]
        body = b""
        while True:
            event = await receive()
            if event["type"] == "http.disconnect":
                return
            body += event.get("body", b"")
            if len(body) > MAX_BODY_BYTES:
                await self._whole(send, 413, [("Content-Type", "text/plain")], b"Payload Too Large")
                return
            if not event.get("more_body"):
                break
        try:
            text = body.decode("utf-8") if body else None
            reply = self.model.handle(scope["method"], headers, text)
        except (UnicodeDecodeError, NotImplementedError, ValueError) as exc:
            print(printable(f"serve mcp --http: not modelled: {type(exc).__name__}: {exc}"), file=sys.stderr, flush=True)
            await self._whole(send, 500, [("Content-Type", "text/plain")], b"not modelled")
            return
        if reply.stream is not None:  # (before any await: what later requests say on it must find it)
            self.queues[reply.stream] = asyncio.Queue()
        for stream, message in reply.elsewhere:
            if stream in self.queues:
                self.queues[stream].put_nowait(message)
        for stream in reply.ended:
            if stream in self.queues:
                self.queues[stream].put_nowait(_END)
        if reply.events is None:
            payload = (json.dumps(reply.body, separators=(",", ":"), ensure_ascii=False).encode()
                       if reply.body is not None else (reply.text or "").encode())
            await self._whole(send, reply.status, reply.headers, payload)
            return
        await self._stream(reply, receive, send)

    async def _whole(self, send: Any, status: int, headers: list[tuple[str, str]], payload: bytes) -> None:
        # Its length named, as the SDK's (Starlette's) responses name it: not chunked
        sized = [*headers, ("Content-Length", str(len(payload)))]
        await send({"type": "http.response.start", "status": status,
                    "headers": [(k.lower().encode(), v.encode()) for k, v in sized]})
        await send({"type": "http.response.body", "body": payload})

    async def _stream(self, reply: Reply, receive: Any, send: Any) -> None:
        """The reply's stream: its status line and headers now, or, when the model defers them,
        with the first thing written on it (an event or a keepalive); a client that hangs up
        before then has had no reply at all."""
        started = False

        async def start() -> None:
            nonlocal started
            if not started:
                started = True
                await send({"type": "http.response.start", "status": reply.status,
                            "headers": [(k.lower().encode(), v.encode()) for k, v in reply.headers]})

        async def write(chunk: bytes) -> None:
            await start()
            await send({"type": "http.response.body", "body": chunk, "more_body": True})

        if not reply.deferred:
            await start()
        for event in reply.events or []:  # (each its own write, as the SDK's app writes them)
            await write(_sse(event))
        if reply.stream is not None:
            queue = self.queues[reply.stream]
            keepalive = reply.keepalive
            clock = asyncio.get_running_loop().time
            due = clock() + keepalive.seconds if keepalive is not None else None
            gone = asyncio.ensure_future(self._disconnected(receive))
            try:
                while True:
                    got = asyncio.ensure_future(queue.get())
                    quiet = None if due is None else max(0.0, due - clock())
                    done, _ = await asyncio.wait({got, gone}, timeout=quiet, return_when=asyncio.FIRST_COMPLETED)
                    if gone in done or not done:
                        got.cancel()
                        if gone in done:
                            break
                        assert keepalive is not None and due is not None
                        await write(keepalive.comment(datetime.now(timezone.utc)))
                        due = clock() + keepalive.seconds if keepalive.after_silence else due + keepalive.seconds
                        continue
                    message = got.result()
                    if message is _END:
                        break
                    await write(_sse(message))
                    if keepalive is not None and keepalive.after_silence:
                        due = clock() + keepalive.seconds
                    if reply.stream[1] is not None and message.get("id") == reply.stream[1] and "method" not in message:
                        break  # the response: the request's stream ends
            finally:
                gone.cancel()
                del self.queues[reply.stream]
                self.model.closed(reply.stream)
        if started:
            await send({"type": "http.response.body", "body": b""})

    @staticmethod
    async def _disconnected(receive: Any) -> None:
        while (await receive())["type"] != "http.disconnect":
            pass


def main(host: str, port: int, definition: ServerDefinition | None = None) -> int:
    """Serve until interrupted; the endpoint's URL is the first line out."""
    bound = listen(host, port, "serve mcp --http")
    if bound is None:
        return 2
    listener, served = bound
    print(f"{served}{ENDPOINT}", flush=True)  # the first line: where to connect
    return run(McpHttpApp(definition or FIXTURE_SERVER), listener)
