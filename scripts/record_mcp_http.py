"""Record MCP sessions live from the official MCP Python SDK over Streamable HTTP.

    python scripts/record_mcp_http.py SCENARIOS [--session NAME ...] [--timeout S] [--jobs N]

For a scenario file that says ``"transport": "http"``. Each session gets a fresh server: the
world's ``MCPServer`` (``conformance/mcp_world.py``, the world ``AGENT_LOOP_SIM_WORLD`` names,
the fixture by default) built anew, its ``streamable_http_app()`` served by uvicorn on one event
loop over a real socket, as people deploy it. The SDK's ``Client`` plays the session over its
``streamable_http_client`` transport in the session's mode; a ``raw`` session sends its
hand-written HTTP requests one at a time (``<session-N>`` in a header stands for the N-th session
id the server issued).

Every message is logged where the client's HTTP library meets the socket (a wrapper around its
transport), with its HTTP envelope (``agent_loop_sim.mcp_http_log``): what crossed the wire, for
any server. ``AGENT_LOOP_SIM_MCP_HTTP_PEER=COMMAND`` records against another server instead
(the swap test: ``serve mcp --http --port 0``): COMMAND prints its endpoint's URL on its first
line of stdout.

The normalised transcripts are printed as JSON on stdout, each session with its ``wire``: every
message as it crossed, before any normalising (`WireLog`); ``python -m agent_loop_sim record``
turns them into the committed file and its sidecar (``recordings/raw/``). A request the client gave
up on before any reply began (a 2026-07-28 call that said nothing by its read timeout: the SDK's app
starts a reply only with the first thing the server says) stands alone; any other request without a
reply is a failure. Any failure exits 1 naming the session, nothing on stdout; a session fails as
hung once nothing has crossed (a request, a reply's start, a chunk of its body) for ``--timeout``
seconds (`record_sdk.Quiet`).
"""
from __future__ import annotations

if __name__ == "__main__":  # first, before the SDK's imports: the owner may go while they run
    import os.path as _path
    import sys as _sys

    _sys.path.insert(0, _path.dirname(_path.dirname(_path.abspath(__file__))))
    from agent_loop_sim.processes import on_owner_gone

    on_owner_gone()

import json
import logging
import os
import shlex
import socket
import subprocess
import sys
import tempfile
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import httpx2
import uvicorn

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "conformance"))

from mcp.client.streamable_http import streamable_http_client  # noqa: E402
from mcp.shared._httpx_utils import create_mcp_http_client  # noqa: E402

import mcp_world  # noqa: E402
import sdk_server  # noqa: E402  (the world it builds is named the same way)
from agent_loop_sim import scenarios  # noqa: E402
from agent_loop_sim.errors import RecorderError  # noqa: E402
from agent_loop_sim.mcp_http_log import (HEADERS_THAT_MATTER, event_message, in_transcript_order,  # noqa: E402
                                         reply_message, request_message)
from agent_loop_sim.normalise import normalise_mcp, normalise_mcp_http  # noqa: E402
from agent_loop_sim.transcript import Message, Transcript  # noqa: E402
from record_sdk import Quiet, record_client_session  # noqa: E402
from recorder_cli import as_captured, innermost, raw_headers, recorder_main  # noqa: E402
from sse_reader import SseReader  # noqa: E402

#: as ``agent_loop_sim/protocols/mcp/family.json`` names it (read, not imported: the engine is not the recorder's)
TRANSPORT = json.loads((ROOT / "agent_loop_sim" / "protocols" / "mcp" / "family.json").read_text())["transports"]["http"]["transport"]
PEER_VARIABLE = "AGENT_LOOP_SIM_MCP_HTTP_PEER"


def _body(text: str) -> tuple[Any, str | None]:
    """(json, raw): a body's JSON, or the text itself when it is not JSON."""
    try:
        return json.loads(text), None
    except json.JSONDecodeError:
        return None, text


class WireLog:
    """The session's exchanges as the client's HTTP library carried them; also the client's
    JSON bodies as lines in ``log`` (the stdio recorder's format, which its listen op waits on).

    Each message's wire entry (``wire``, by the message's ``id``) is what crossed before any
    normalising: its body's text (``body``, null for none) or its SSE event's frame (``frame``,
    null for a stream that ended with no event), and the envelope it carries with the kept
    headers as written (`as_captured`). ``heard`` is told of everything that crosses, as it does."""

    def __init__(self, log: Path, heard: Callable[[], None] = lambda: None) -> None:
        self.log, self.heard = log, heard
        self.exchanges: list[list[Message]] = []
        self.session_ids: list[str] = []
        self.wire: dict[int, dict[str, Any]] = {}
        #: the exchanges (by their request's ``id``) the client gave up on before any reply began
        self.abandoned: set[int] = set()

    def _kept(self, message: Message, entry: dict[str, Any]) -> Message:
        self.wire[id(message)] = entry  # (the message lives in ``exchanges`` as long as this log)
        return message

    def _line(self, sender: str, text: str) -> None:
        with self.log.open("a") as out:
            out.write(json.dumps({"from": sender, "line": text}) + "\n")

    def request(self, request: httpx2.Request) -> list[Message]:
        text = request.content.decode("utf-8") if request.content else ""
        body, raw = _body(text) if text else (None, None)
        headers = raw_headers(request.headers)
        envelope = {"method": request.method, "path": request.url.path,
                    "headers": as_captured(headers, HEADERS_THAT_MATTER)}
        exchange = [self._kept(request_message(request.method, request.url.path, headers, body, raw),
                               {"from": "client", "http": envelope, "body": text or None})]
        self.exchanges.append(exchange)
        if text:
            self._line("client", text)
        return exchange

    def reply(self, exchange: list[Message], status: int, headers: list[tuple[str, str]], text: str | None,
              events: list[tuple[str, str]] | None) -> None:
        """A reply: its whole body's ``text``, or its stream's ``events`` so far, (frame, data) each."""
        issued = next((v for k, v in headers if k.lower() == "mcp-session-id"), None)
        if issued is not None and issued not in self.session_ids:
            self.session_ids.append(issued)
        envelope = {"status": status, "headers": as_captured(headers, HEADERS_THAT_MATTER)}
        if events is None:
            body, raw = _body(text) if text else (None, None)
            exchange.append(self._kept(reply_message(status, headers, body, raw),
                                       {"from": "server", "http": envelope, "body": text or None}))
            if text:
                self._line("server", text)
            return
        if not events:
            exchange.append(self._kept(reply_message(status, headers, sse=True),
                                       {"from": "server", "http": envelope, "frame": None}))
        for i, (frame, data) in enumerate(events):
            self.event(exchange, frame, data, (status, headers, envelope) if i == 0 else None)

    def event(self, exchange: list[Message], frame: str, data: str,
              first: tuple[int, list[tuple[str, str]], dict[str, Any]] | None = None) -> None:
        """One SSE event; the ``first`` of a stream carries the reply's status and headers."""
        body, raw = _body(data)
        if first is None:
            exchange.append(self._kept(event_message(body, raw), {"from": "server", "frame": frame}))
        else:
            status, headers, envelope = first
            exchange.append(self._kept(reply_message(status, headers, body, raw, sse=True),
                                       {"from": "server", "http": envelope, "frame": frame}))
        self._line("server", data)


class _LoggedStream(httpx2.AsyncByteStream):
    """A response body passed on as read, its SSE events (or whole body) logged as they arrive."""

    def __init__(self, inner: Any, wire: WireLog, exchange: list[Message], status: int,
                 headers: list[tuple[str, str]]) -> None:
        self.inner, self.wire, self.exchange, self.status, self.headers = inner, wire, exchange, status, headers
        content_type = next((v for k, v in headers if k.lower() == "content-type"), "")
        self.sse = SseReader() if content_type.startswith("text/event-stream") else None
        self.events: list[str] = []
        self.chunks: list[bytes] = []
        self.logged = False

    async def __aiter__(self) -> AsyncIterator[bytes]:
        async for chunk in self.inner:
            self.wire.heard()
            if self.sse is not None:
                for frame, data in self.sse.feed_frames(chunk):
                    self._log_event(frame, data)
            else:
                self.chunks.append(chunk)
            yield chunk

    def _log_event(self, frame: str, data: str) -> None:
        if not self.logged:  # the first event carries the reply's status and headers
            self.logged = True
            self.wire.reply(self.exchange, self.status, self.headers, None, [(frame, data)])
        else:
            self.wire.event(self.exchange, frame, data)

    async def aclose(self) -> None:
        try:
            await self.inner.aclose()
        finally:
            self.finish()

    def finish(self) -> None:
        if self.logged:
            return
        self.logged = True
        if self.sse is not None:
            self.wire.reply(self.exchange, self.status, self.headers, None, [])
        else:
            self.wire.reply(self.exchange, self.status, self.headers, b"".join(self.chunks).decode("utf-8"), None)


class LoggingTransport(httpx2.AsyncBaseTransport):
    def __init__(self, wire: WireLog) -> None:
        self.inner = httpx2.AsyncHTTPTransport()
        self.wire = wire

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        await request.aread()
        exchange = self.wire.request(request)
        self.wire.heard()
        try:
            response = await self.inner.handle_async_request(request)
        except anyio.get_cancelled_exc_class():
            # The client stopped waiting (its read timeout) before the status line came: the
            # exchange has no reply, which the transcript shows as its request alone.
            self.wire.abandoned.add(id(exchange[0]))
            raise
        self.wire.heard()  # the reply's status line and headers
        headers = raw_headers(response.headers)
        stream = _LoggedStream(response.stream, self.wire, exchange, response.status_code, headers)
        return httpx2.Response(response.status_code, headers=response.headers, stream=stream,
                               extensions=response.extensions, request=request)

    async def aclose(self) -> None:
        await self.inner.aclose()


@asynccontextmanager
async def served(log: Path) -> AsyncIterator[str]:
    """A fresh server for one session; yields its endpoint's URL."""
    command = os.environ.get(PEER_VARIABLE)
    if command:
        async with _peer(command, log) as url:
            yield url
        return
    app = mcp_world.build(sdk_server.WORLD).streamable_http_app()
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(app, log_level="error", lifespan="on", timeout_graceful_shutdown=2))
    async with anyio.create_task_group() as group:
        group.start_soon(server.serve, [sock])
        while not server.started:
            if server.should_exit:
                raise RecorderError("the SDK's server did not start")
            await anyio.sleep(0.005)
        try:
            yield f"http://127.0.0.1:{sock.getsockname()[1]}/mcp"
        finally:
            server.should_exit = True


@asynccontextmanager
async def _peer(command: str, log: Path) -> AsyncIterator[str]:
    with open(str(log) + ".stderr", "ab") as errors:
        process = await anyio.open_process(shlex.split(command), stderr=errors, stdin=subprocess.DEVNULL)
    try:
        assert process.stdout is not None
        buffer = b""
        while b"\n" not in buffer:
            try:
                buffer += await process.stdout.receive()
            except (anyio.EndOfStream, anyio.ClosedResourceError):
                raise RecorderError(f"the peer {command!r} ended without printing its URL") from None
        url = buffer.split(b"\n", 1)[0].decode(errors="replace").strip()
        if not url.startswith("http"):
            raise RecorderError(f"the peer {command!r} printed {url[:80]!r} where its URL belongs")
        yield url
    finally:
        # Shielded: a session that failed its deadline is cancelled here, and the peer must still
        # be ended and its pipes closed before the event loop is (else a traceback at exit).
        with anyio.CancelScope(shield=True):
            try:
                process.terminate()
            except ProcessLookupError:  # (it ended by itself, and was reaped already)
                pass
            with anyio.move_on_after(2):
                await process.wait()
            if process.returncode is None:
                process.kill()
            await process.aclose()


def _client(wire: WireLog) -> httpx2.AsyncClient:
    timeouts = create_mcp_http_client().timeout  # the SDK's own defaults (30 s, 300 s for a stream)
    return httpx2.AsyncClient(transport=LoggingTransport(wire), timeout=timeouts)


async def record_raw_session(session: scenarios.Session, url: str, wire: WireLog) -> None:
    """Each hand-written request in turn; a stream is read to its end, except the GET stream,
    which never ends on its own: the writer hangs up once its status arrived."""
    async with _client(wire) as client:
        for request in session.spec["requests"]:
            headers = [(name, _placeholders(value, wire.session_ids)) for name, value in request.get("headers", [])]
            body = request.get("body")
            async with client.stream(request["method"], url, headers=headers,
                                     content=body.encode("utf-8") if body is not None else None) as response:
                if request["method"] == "GET" and response.headers.get("content-type", "").startswith("text/event-stream"):
                    continue
                await response.aread()


def _placeholders(value: str, issued: list[str]) -> str:
    """A header value with ``<session-N>`` standing for the N-th session id the server issued."""
    for n, session_id in enumerate(issued, 1):
        value = value.replace(f"<session-{n}>", session_id)
    return value


async def record_session(session: scenarios.Session, timeout: float) -> dict[str, Any]:
    """The session's normalised transcript (`Transcript.to_dict`), with ``wire``: each message as
    it crossed, before any normalising (`WireLog`), in the transcript's order."""
    with tempfile.TemporaryDirectory(prefix="record-mcp-http-") as tmp:
        log = Path(tmp) / "wire.jsonl"
        log.touch()
        quiet = Quiet.of(session, timeout)
        wire = WireLog(log, quiet.heard)
        try:
            async with quiet.deadline():
                async with served(log) as url:
                    if session.mode == "raw":
                        await record_raw_session(session, url, wire)
                    else:
                        http = _client(wire)
                        async with http:
                            await record_client_session(session, log, None,
                                                        connect=streamable_http_client(url, http_client=http))
        except TimeoutError:
            raise RecorderError(f"session {session.name!r}: nothing crossed for {quiet.allowed:g} s") from None
        except RecorderError as exc:
            raise RecorderError(f"session {session.name!r}: {exc}") from None
        except Exception as exc:
            cause = innermost(exc)
            raise RecorderError(f"session {session.name!r}: the SDK raised {type(cause).__name__}: {cause}") from exc
    for exchange in wire.exchanges:  # a stream cut short by the client is logged as far as it was read
        if len(exchange) == 1 and id(exchange[0]) not in wire.abandoned:
            raise RecorderError(f"session {session.name!r}: a {exchange[0].http['method']} got no reply")
    messages = ([m for exchange in wire.exchanges for m in exchange] if session.mode == "raw"
                else in_transcript_order(wire.exchanges))
    lines = [wire.wire[id(m)] for m in messages]  # (before normalising: it renames in place, keeping the objects)
    transcript = Transcript(session.name, session.mode, session.title, normalise_mcp_http(normalise_mcp(messages)))
    return dict(transcript.to_dict(), wire=lines)


async def record_all(sessions: list[scenarios.Session], timeout: float, jobs: int) -> list[dict[str, Any]]:
    """One session after another, whatever ``jobs`` says: sse-starlette ends every SSE stream of the
    process when any uvicorn server in it shuts down, so a session ending beside another cut the
    other's stream short (its ``initialize`` answered with an empty stream, about one run in five)."""
    return [await record_session(session, timeout) for session in sessions]


def record(sessions: list[scenarios.Session], timeout: float, jobs: int) -> list[dict[str, Any]]:
    logging.disable(logging.CRITICAL)  # the SDK's and uvicorn's log lines (a failing tool's traceback) say nothing the wire does not
    return anyio.run(record_all, sessions, timeout, jobs)


def main(argv: list[str] | None = None) -> int:
    return recorder_main(prog="record_mcp_http", family="mcp", package="mcp", transport=TRANSPORT, record=record,
                         description=__doc__.split("\n\n")[0], argv=argv)


if __name__ == "__main__":
    sys.exit(main())
