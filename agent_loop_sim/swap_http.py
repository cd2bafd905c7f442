"""The swap test's third part over Streamable HTTP: the engine's MCP client model driving the SDK's
fixture server over HTTP (``conformance/sdk_http_server.py``, a fresh server process per session).

The edge only: the client model (`protocols.mcp.session.client_for`) says what to send, its
transport model (`protocols.mcp.http_transport.ClientOverHttp`) which headers; this module moves
the bytes with the standard library's ``http.client`` and writes down what crossed, as the
recorder does (`agent_loop_sim.mcp_http_log`). A stream is read event by event; what the client
answers to an event (a question from the server) is posted at once, on a connection of its own,
while the stream it came on stays open, as the SDK's client does.
"""
from __future__ import annotations

import http.client
import json
import queue
import socket
import subprocess
import sys
import threading
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from .errors import RecorderError
from .mcp_http_log import ENDPOINT, event_message, in_transcript_order, reply_message, request_message
from .normalise import normalise_mcp, normalise_mcp_http
from .protocols.mcp.http_transport import ACCEPT, JSON, ClientOverHttp, _stateless
from .protocols.mcp.session import client_for
from .scenarios import Session
from .swap import world_environment
from .transcript import Message, Transcript

SDK_HTTP_SERVER = Path("conformance") / "sdk_http_server.py"


def _events(response: http.client.HTTPResponse) -> Any:
    """The data of each SSE event of ``response``, as it arrives."""
    data: list[str] = []
    while True:
        raw = response.readline()
        if not raw:
            return
        line = raw.decode("utf-8").rstrip("\r\n")
        if not line:
            if data:
                yield "\n".join(data)
            data = []
        elif line.startswith("data:"):
            data.append(line[5:].removeprefix(" "))


class _Stream:
    """An SSE reply read event by event. For a request with a read timeout, on a thread of its
    own, so that the client can stop waiting and read on later, as the SDK's client does (a socket
    timeout would leave ``http.client``'s reader unusable); otherwise in line."""

    END = object()

    def __init__(self, response: http.client.HTTPResponse, patient: bool) -> None:
        self.events: queue.Queue[Any] | None = None
        self.inline = _events(response)
        if patient:
            self.events = queue.Queue()
            threading.Thread(target=self._read, args=(response,), daemon=True).start()

    def _read(self, response: http.client.HTTPResponse) -> None:
        try:
            for data in _events(response):
                self.events.put(data)
        except Exception:  # noqa: BLE001 (the client closed it under the reader: http.client then fails in many ways)
            pass
        self.events.put(self.END)

    def next(self, wait: float) -> Any:
        """The next event's data, ``END``, or raises ``TimeoutError`` after ``wait`` seconds."""
        if self.events is None:
            return next(self.inline, self.END)
        try:
            return self.events.get(timeout=wait)
        except queue.Empty:
            raise TimeoutError from None


def _hang_up(made: http.client.HTTPConnection) -> None:
    """Close a connection, waking a reader blocked on it (a bare close would not, and the server
    would not see the client go)."""
    if made.sock is not None:
        try:
            made.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
    made.close()


def _body(text: str) -> tuple[Any, str | None]:
    try:
        return json.loads(text), None
    except json.JSONDecodeError:
        return None, text


def drive_http(session: Session, url: str, timeout: float) -> Transcript:
    """Play ``session`` with the engine's client model against the server at ``url``."""
    client = client_for(session.spec)
    edge = ClientOverHttp()
    where = urlsplit(url)
    exchanges: list[list[Message]] = []
    open_streams: dict[Any, http.client.HTTPConnection] = {}  # 2026-07-28 streams the client may close
    # handshake-era streams of calls the client stopped waiting for: read on once it has said so
    timed_out: dict[Any, tuple[list[Message], http.client.HTTPResponse, _Stream]] = {}
    connections: list[http.client.HTTPConnection] = []
    standing: list[Any] = []  # the GET stream, read on a thread of its own: (logged, response, stream)

    def connection() -> http.client.HTTPConnection:
        # (the timeout bounds each read and write, and a stream's wait for its next event: a
        # session fails when nothing has crossed for ``timeout`` seconds, never for being slow in all)
        made = http.client.HTTPConnection(where.hostname, where.port, timeout=timeout)
        connections.append(made)
        return made

    def exchange(method: str, headers: list[tuple[str, str]], message: Any = None,
                 patience: float | None = None) -> tuple[list[Message], Any]:
        """The request sent and its reply's start; ``TimeoutError`` when ``patience`` runs out
        first (the request then stays logged alone: it had no reply)."""
        body = json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode() if message is not None else None
        made = connection()
        made.request(method, ENDPOINT, body=body, headers=dict(headers))
        logged = [request_message(method, ENDPOINT, headers, message)]
        exchanges.append(logged)
        if patience is not None and made.sock is not None:
            made.sock.settimeout(patience)
        response = made.getresponse()
        if made.sock is not None:
            made.sock.settimeout(timeout)
        return logged, (made, response)

    def deliver(message: Any) -> None:
        for out in client.receive(message):
            send(out)

    def send(message: Any) -> None:
        params = message.get("params") if type(message) is dict else None
        cancelled = (params.get("requestId") if type(message) is dict and message.get("method") == "notifications/cancelled"
                     and type(params) is dict else None)
        if cancelled is not None and cancelled in open_streams:
            _hang_up(open_streams.pop(cancelled))  # 2026-07-28: the client closes the stream
            return
        is_request = type(message) is dict and "method" in message and "id" in message
        patience = client.pending_timeout() if is_request else None
        try:
            # 2026-07-28: the SDK's app starts a reply only with the first thing the server says
            # for the request, so a call that says nothing has no status line to wait for
            logged, (made, response) = exchange("POST", edge.headers(message), message,
                                                patience if _stateless(message) else None)
        except TimeoutError:
            if patience is None or not _stateless(message):
                raise
            open_streams[message["id"]] = connections[-1]  # the client hangs up: the reply never began
            for out in client.time_out():
                send(out)
            return
        if response.getheader("Content-Type", "").startswith("text/event-stream"):
            # A 2026-07-28 listen's stream stays open after its acknowledgment: the client goes on
            # while it does, and closes it to end the listen.
            listen = is_request and _stateless(message) and message.get("method") == "subscriptions/listen"
            if listen:
                open_streams[message["id"]] = made
            stream = _Stream(response, patience is not None)
            try:
                read_stream(logged, response, stream, message, patience, listen)
            except TimeoutError:  # the client's read timeout: it stops waiting and says so
                if patience is None:
                    raise
                if _stateless(message):
                    open_streams[message["id"]] = made
                else:
                    timed_out[message["id"]] = (logged, response, stream)
                for out in client.time_out():
                    send(out)
        else:
            text = response.read().decode("utf-8")
            body, raw = _body(text) if text else (None, None)
            logged.append(reply_message(response.status, response.getheaders(), body, raw))
            if body is not None:
                deliver(body)
        if cancelled is not None and cancelled in timed_out:
            # The handshake era's transport ends a cancelled call's stream (with -32800): read on
            # to its end before the client's next message.
            logged, response, stream = timed_out.pop(cancelled)
            read_stream(logged, response, stream, {"id": cancelled}, None, False)
        if message.get("method") == "notifications/initialized" and not _stateless(message):
            # The client's GET stream, read as it comes (what the server sends on no request's
            # stream: a change it announces), and logged when the session ends.
            logged, (_, response) = exchange("GET", [("Accept", ACCEPT), ("Content-Type", JSON), *edge.session_headers()])
            standing.append((logged, response, _Stream(response, patient=True)))

    def read_stream(logged: list[Message], response: http.client.HTTPResponse, stream: _Stream, message: Any,
                    patience: float | None, listen: bool) -> None:
        """Events of ``stream`` (the reply to ``message``, logged in ``logged``) until the response
        to ``message`` (a listen: its first), each logged and delivered; ``TimeoutError`` when none
        comes within ``patience`` seconds."""
        headers = response.getheaders()
        first = len(logged) == 1  # (read on after a timeout, the reply may be logged already)
        while True:
            data = stream.next(timeout if patience is None else patience)
            if data is _Stream.END:
                break
            body, raw = _body(data)
            logged.append(reply_message(response.status, headers, body, raw, sse=True) if first
                          else event_message(body, raw))
            first = False
            if message.get("method") == "initialize":
                edge.learn(body, response.getheader("Mcp-Session-Id"))
            deliver(body)
            if listen or (type(body) is dict and "method" not in body and body.get("id") == message.get("id")):
                break
        if first:
            logged.append(reply_message(response.status, headers, sse=True))

    try:
        for message in deque(client.start()):
            send(message)
        if edge.session_id is not None:
            logged, (_, response) = exchange("DELETE", [("Accept", ACCEPT), ("Content-Type", JSON),
                                                        *edge.session_headers()])
            response.read()
            logged.append(reply_message(response.status, response.getheaders()))
        for logged, response, stream in standing:  # (the session's end ends its GET stream)
            events = []
            while (data := stream.next(timeout)) is not _Stream.END:
                events.append(_body(data))
            first, *rest = events or [(None, None)]
            logged.append(reply_message(response.status, response.getheaders(), *first, sse=True))
            logged += [event_message(body, raw) for body, raw in rest]
    except TimeoutError:
        raise RecorderError(f"session {session.name!r}: nothing crossed for {timeout:g} s (the SDK server hung)") from None
    except (OSError, http.client.HTTPException) as exc:
        raise RecorderError(f"session {session.name!r}: {type(exc).__name__}: {exc}") from None
    finally:
        for made in connections:
            _hang_up(made)
    messages = in_transcript_order(exchanges)
    return Transcript(session.name, session.mode, session.title, normalise_mcp_http(normalise_mcp(messages)))


class _ForkedServers:
    """The SDK's fixture server over HTTP, a fresh one per session: forks of one process that
    imported the SDK once (``sdk_http_server.py --fork``), each ended as a terminal ends a server."""

    def __init__(self, root: Path, world: str | None) -> None:
        # In a session of its own, so that a terminal's Ctrl-C reaches only the CLI, which ends it
        # (its servers end with it: they end when its stdin does).
        self.process = subprocess.Popen([sys.executable, str(root / SDK_HTTP_SERVER), "--fork"], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=root, text=True,
                                        env=world_environment(world), start_new_session=True)
        self.lock = threading.Lock()  # one line out, one line back: a session's request and its answer
        if self._said() != "ready":
            self.close()
            raise RecorderError("the SDK's fixture server over HTTP did not start")

    def _said(self, line: str | None = None) -> str:
        assert self.process.stdin is not None and self.process.stdout is not None
        try:
            if line is not None:
                self.process.stdin.write(line + "\n")
                self.process.stdin.flush()
            return self.process.stdout.readline().strip()
        except OSError:  # (it ended: a broken pipe)
            return ""

    def drive(self, session: Session, timeout: float) -> Transcript:
        with self.lock:
            pid, _, url = self._said("new").partition(" ")
        if not url.startswith("http"):
            raise RecorderError("the SDK's fixture server over HTTP did not start")
        try:
            return drive_http(session, url, timeout)
        finally:
            with self.lock:
                self._said(f"end {pid}")

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()  # the servers still serving end with it
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def drive_all_http(root: Path, sessions: list[Session], timeout: float, world: str | None = None,
                   jobs: int = 1) -> list[Transcript]:
    """Every client session of ``sessions`` against a fresh SDK fixture server over HTTP each,
    ``jobs`` at once (each server is a process of its own: nothing of one session reaches another)."""
    played = [s for s in sessions if s.mode != "raw"]
    servers = _ForkedServers(root, world)
    try:
        with ThreadPoolExecutor(max(1, jobs)) as pool:
            return list(pool.map(lambda s: servers.drive(s, timeout), played))
    finally:
        servers.close()
