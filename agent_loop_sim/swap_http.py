"""The swap test's third part over Streamable HTTP: the engine's MCP client model driving the SDK's
fixture server over HTTP (``conformance/sdk_http_server.py``, a fresh process per session).

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
import subprocess
import sys
from collections import deque
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
    connections: list[http.client.HTTPConnection] = []

    def connection() -> http.client.HTTPConnection:
        made = http.client.HTTPConnection(where.hostname, where.port, timeout=timeout)
        connections.append(made)
        return made

    def exchange(method: str, headers: list[tuple[str, str]], message: Any = None) -> tuple[list[Message], Any]:
        body = json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode() if message is not None else None
        made = connection()
        made.request(method, ENDPOINT, body=body, headers=dict(headers))
        response = made.getresponse()
        logged = [request_message(method, ENDPOINT, headers, message)]
        exchanges.append(logged)
        return logged, (made, response)

    def deliver(message: Any) -> None:
        for out in client.receive(message):
            send(out)

    def send(message: Any) -> None:
        params = message.get("params") if type(message) is dict else None
        if (type(message) is dict and message.get("method") == "notifications/cancelled" and type(params) is dict
                and params.get("requestId") in open_streams):
            open_streams.pop(params["requestId"]).close()  # 2026-07-28: the client closes the stream
            return
        logged, (made, response) = exchange("POST", edge.headers(message), message)
        headers = response.getheaders()
        is_request = type(message) is dict and "method" in message and "id" in message
        if response.getheader("Content-Type", "").startswith("text/event-stream"):
            # A 2026-07-28 listen's stream stays open after its acknowledgment: the client goes on
            # while it does, and closes it to end the listen.
            listen = is_request and _stateless(message) and message.get("method") == "subscriptions/listen"
            if listen:
                open_streams[message["id"]] = made
            first = True
            for data in _events(response):
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
        else:
            text = response.read().decode("utf-8")
            body, raw = _body(text) if text else (None, None)
            logged.append(reply_message(response.status, headers, body, raw))
            if body is not None:
                deliver(body)
        if message.get("method") == "notifications/initialized" and not _stateless(message):
            # The client's GET stream: nothing comes on it in these sessions; it is hung up at the end.
            logged, (_, stream) = exchange("GET", [("Accept", ACCEPT), ("Content-Type", JSON), *edge.session_headers()])
            logged.append(reply_message(stream.status, stream.getheaders(), sse=True))

    try:
        for message in deque(client.start()):
            send(message)
        if edge.session_id is not None:
            logged, (_, response) = exchange("DELETE", [("Accept", ACCEPT), ("Content-Type", JSON),
                                                        *edge.session_headers()])
            response.read()
            logged.append(reply_message(response.status, response.getheaders()))
    except (OSError, http.client.HTTPException) as exc:
        raise RecorderError(f"session {session.name!r}: {type(exc).__name__}: {exc}") from None
    finally:
        for made in connections:
            made.close()
    messages = in_transcript_order(exchanges)
    return Transcript(session.name, session.mode, session.title, normalise_mcp_http(normalise_mcp(messages)))


def drive_all_http(root: Path, sessions: list[Session], timeout: float, world: str | None = None) -> list[Transcript]:
    """Every client session of ``sessions`` against a fresh SDK fixture server over HTTP each."""
    out = []
    for session in sessions:
        if session.mode == "raw":
            continue
        process = subprocess.Popen([sys.executable, str(root / SDK_HTTP_SERVER)], stdout=subprocess.PIPE,
                                   stderr=subprocess.DEVNULL, cwd=root, env=world_environment(world))
        try:
            assert process.stdout is not None
            url = process.stdout.readline().decode().strip()
            if not url.startswith("http"):
                raise RecorderError("the SDK's fixture server over HTTP did not start")
            out.append(drive_http(session, url, timeout))
        finally:
            process.terminate()
            process.wait()
    return out
