"""``agent-loop-sim serve a2a``: the research agent's model over real HTTP, served by uvicorn.

The edge only: uvicorn parses HTTP and this ASGI app turns each request into an
:class:`~agent_loop_sim.protocols.a2a.HttpRequest` for the sans-IO :class:`Agent`, and its
:class:`HttpResponse` back into ASGI messages (a stream as server-sent events). One served
process holds one agent, so every client of it shares one task store (``ListTasks`` sees all
of them) until the process ends; start a process per test for isolation.

What the SDK's HTTP layer does before its dispatcher is done here as it does it: a body that is
not JSON is ``-32700`` with the decoder's message, one that is not UTF-8 ``-32603``; a path
other than the card's and JSON-RPC's is ``404``, a wrong method ``405``. A request the model
does not cover (a batch, a body that is no JSON-RPC object, ``returnImmediately``, a lone
surrogate in a string...) gets ``501`` with one line saying what, and the process goes on.
"""
from __future__ import annotations

import asyncio
import json
import re
import socket
import sys
from typing import Any, Awaitable, Callable

from ..errors import printable
from ..jsonio import SURROGATE_ESCAPE
from ..protocols.a2a import RESEARCH_AGENT, RESEARCH_CARD, Agent, HttpRequest, HttpResponse
from ..protocols.a2a.agent import METHODS
from ..protocols.a2a.card import WELL_KNOWN_PATH
from ..protocols.a2a.errors import JsonRpcError, error_response
from ..protocols.a2a.harness import harness_rules

Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]

PARSE_ERROR, INTERNAL_ERROR = -32700, -32603


def _plain(status: int, text: str) -> HttpResponse:
    return HttpResponse(status, [("Content-Type", "text/plain; charset=utf-8")], text)


def _not_modelled(why: str) -> HttpResponse:
    """501, for a request whose answer the model does not give: one line on stderr, the same in the body."""
    _warn(f"agent-loop-sim serve a2a: not modelled: {why}")
    return _plain(501, f"not modelled by agent-loop-sim: {why}")


def _warn(text: str) -> None:
    """One line on stderr, shown as text; none when stderr is closed (``2>&-``: print would write
    it to stdout, whose first line tells the client where to connect)."""
    if sys.stderr is not None:
        print(printable(text), file=sys.stderr, flush=True)


class AgentApp:
    """An ASGI app serving ``agent``: its card at the well-known path, JSON-RPC at its RPC path."""

    def __init__(self, agent: Agent) -> None:
        self.agent = agent
        self.routes = {WELL_KNOWN_PATH: "GET", agent.card.rpc_path: "POST"}
        self.answered = asyncio.Event()  # set (and replaced) each time the agent has answered a request

    async def __call__(self, scope: dict[str, Any], receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return  # no lifespan events to handle (uvicorn runs with lifespan off)
        body, connected = await _read_body(receive)
        if not connected:
            return  # the client left before its request was complete: nobody to answer
        response = self.answer(scope["method"], scope["path"], scope["headers"], body)
        self.answered.set()  # open streams may have something new to write
        self.answered = asyncio.Event()
        try:
            await _write(response, send)
            if response.open:  # the agent keeps the stream open until it ends it or the client goes
                await self._follow(response, receive, send)
        except OSError:
            pass  # the client disconnected mid-answer; the agent and other clients go on

    async def _follow(self, response: HttpResponse, receive: Receive, send: Send) -> None:
        """An open stream: what the agent writes on it as other requests are answered
        (`HttpResponse.later`), until the agent ends it or the client disconnects."""
        gone = asyncio.ensure_future(_disconnected(receive))
        try:
            while True:
                if response.later is not None:
                    for event in response.later.take():
                        await send({"type": "http.response.body", "body": _event_bytes(event), "more_body": True})
                    if response.later.closed:
                        await send({"type": "http.response.body", "body": b""})
                        return
                answered = asyncio.ensure_future(self.answered.wait())
                await asyncio.wait({gone, answered}, return_when=asyncio.FIRST_COMPLETED)
                answered.cancel()
                if gone.done():
                    if response.later is not None:
                        response.later.drop()
                    return
        finally:
            gone.cancel()

    def answer(self, method: str, path: str, raw_headers: list[tuple[bytes, bytes]], body: bytes) -> HttpResponse:
        """The answer to one request (synchronous: the agent is never seen half-way through one)."""
        if path not in self.routes:
            return _plain(404, "Not Found")
        if method != self.routes[path]:
            return _plain(405, "Method Not Allowed")
        headers = [(k.decode("latin-1"), v.decode("latin-1")) for k, v in raw_headers]
        parsed: Any = None
        surrogates = method == "POST" and _SURROGATE_ESCAPE.search(body) is not None  # (the rare case, told cheaply)
        if method == "POST":
            try:
                parsed = json.loads(body)
            except json.JSONDecodeError as exc:
                return _json(error_response(None, JsonRpcError(PARSE_ERROR, str(exc))))
            except (ValueError, RecursionError) as exc:  # not UTF-8, nested too deep for Python's parser,
                # an integer of over 4300 digits: the SDK's catch-all makes each an internal error
                return _json(error_response(None, JsonRpcError(INTERNAL_ERROR, str(exc))))
            if surrogates and _params_read(parsed) and not _encodable(parsed["params"]):
                return _not_modelled("a string in params holds a lone surrogate (\\ud800-\\udfff), which protobuf "
                                     "refuses (the SDK's -32602 quotes protobuf's words)")
        try:
            response = self.agent.handle(HttpRequest(method, self.agent.card.base_url + path, headers, parsed))
        except Exception as exc:  # noqa: BLE001 - a gap in the model must not end the process
            return _not_modelled(f"{type(exc).__name__}: {exc}")
        if surrogates and not all(map(_encodable, response.events if response.is_stream else [response.body])):
            return _not_modelled("the answer echoes a lone surrogate (\\ud800-\\udfff), which UTF-8 cannot write "
                                 "(the SDK's own answer fails: a 500, or a stream that ends empty)")
        return response


#: A JSON escape of a surrogate (`jsonio.SURROGATE_ESCAPE`): the only way a lone one gets into a
#: body that was valid UTF-8.
_SURROGATE_ESCAPE = re.compile(SURROGATE_ESCAPE.encode())


def _params_read(parsed: Any) -> bool:
    """Whether the SDK gets as far as reading this request's params into protobuf: one object,
    JSON-RPC 2.0, a method the agent serves (a batch, another version or an unknown method, even
    one holding a lone surrogate, is refused before; the model answers those as the SDK does)."""
    if not isinstance(parsed, dict):
        return False
    method = parsed.get("method")
    return parsed.get("jsonrpc") == "2.0" and isinstance(method, str) and method in METHODS and "params" in parsed


def _encodable(value: Any) -> bool:
    try:
        _encode(value)
    except UnicodeEncodeError:
        return False
    return True


def _json(body: Any) -> HttpResponse:
    return HttpResponse(200, [("Content-Type", "application/json")], body)


async def _disconnected(receive: Receive) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass


async def _read_body(receive: Receive) -> tuple[bytes, bool]:
    chunks: list[bytes] = []
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return b"", False
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            return b"".join(chunks), True


def _encode(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def _event_bytes(event: Any) -> bytes:
    """One SSE event, framed as sse-starlette frames it."""
    return b"data: " + _encode(event) + b"\r\n\r\n"


async def _write(response: HttpResponse, send: Send) -> None:
    headers = [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in response.headers]
    if response.events is not None:
        await send({"type": "http.response.start", "status": response.status, "headers": headers})
        for event in response.events:
            await send({"type": "http.response.body", "body": _event_bytes(event), "more_body": True})
        if response.open:
            await send({"type": "http.response.body", "body": b"", "more_body": True})
            return
        await send({"type": "http.response.body", "body": b""})
        return
    if response.body is None:
        payload = b""
    elif isinstance(response.body, str):
        payload = response.body.encode("utf-8")
    else:
        payload = _encode(response.body)
    headers.append((b"content-length", str(len(payload)).encode()))
    await send({"type": "http.response.start", "status": response.status, "headers": headers})
    await send({"type": "http.response.body", "body": payload})


def research_app(harness: str | None = None) -> AgentApp:
    """The fixture's research agent, fresh (no tasks yet), as uvicorn runs the SDK's (``harness``
    None: one event loop, `protocols.a2a.harness`)."""
    return AgentApp(Agent(RESEARCH_CARD, RESEARCH_AGENT, rules=harness_rules(harness)))


def main(host: str, port: int, app: AgentApp | None = None) -> int:
    """Serve ``app`` (the research agent by default) until interrupted; the URL is the first line out."""
    import uvicorn  # the serve extra; imported here so that the engine itself needs nothing

    if sys.stdout is None:  # started with `>&-`: the URL has nowhere to go (and uvicorn logs there)
        print("error: serve a2a: standard output, where the URL is written, is closed", file=sys.stderr)
        return 2
    listener = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listener.bind((host, port))
    except OSError as exc:
        print(printable(f"error: cannot listen on {host}:{port}: {exc.strerror}"), file=sys.stderr)
        return 2
    listener.listen(2048)  # connections wait in the backlog until uvicorn accepts them
    bound_host, bound_port = listener.getsockname()[:2]
    shown = f"[{bound_host}]" if ":" in bound_host else bound_host
    print(f"http://{shown}:{bound_port}", flush=True)  # the first line: where to connect (port 0 picks one)
    config = uvicorn.Config(app or research_app(), lifespan="off", log_level="warning", access_log=False,
                            timeout_graceful_shutdown=1)
    try:
        uvicorn.Server(config).run(sockets=[listener])
    except KeyboardInterrupt:
        pass
    return 0
