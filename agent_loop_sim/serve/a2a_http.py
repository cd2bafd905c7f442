"""``agent-loop-sim serve a2a``: the research agent's model over real HTTP, served by uvicorn.

The edge only: uvicorn parses HTTP and this ASGI app turns each request into an
:class:`~agent_loop_sim.protocols.a2a.HttpRequest` for the sans-IO :class:`Agent`, and its
:class:`HttpResponse` back into ASGI messages (a stream as server-sent events). One served
process holds one agent, so every client of it shares one task store (``ListTasks`` sees all
of them) until the process ends; start a process per test for isolation.

What the SDK's HTTP layer does before its dispatcher is done here as it does it: a body that is
not JSON is ``-32700`` with the decoder's message, one that is not UTF-8 ``-32603``; a path
other than the card's and JSON-RPC's is ``404``, a wrong method ``405`` (with ``allow``), one of
them with slashes after it ``307`` to it; streams carry sse-starlette's headers, and every
answer Starlette's headers in Starlette's order. A request the model
does not cover (an answer that would echo a lone surrogate, which the SDK itself fails to
write) gets ``501`` with one line saying what, and the process goes on.

Memory is bounded where the SDK leaves it to the deployment (a finding, and a deliberate
departure): the SDK reads a body of any size and keeps every task until the process ends. Here a
body over ``max_body_bytes`` (`DEFAULT_MAX_BODY_BYTES`, ``--max-body-bytes``) is refused before it
is read whole or parsed, with HTTP ``413`` carrying the JSON-RPC error the SDK's dispatcher gives
when the server in front of it refuses a body as too large (``-32600``, "Payload too large"); and
the task store keeps the newest ``max_tasks`` tasks (`DEFAULT_MAX_TASKS`, ``--max-tasks``), the
oldest going first (asked for afterwards, one is a task not found, as one never stored).
"""
from __future__ import annotations

import asyncio
import dataclasses
import json
import re
import sys
from typing import Any, Awaitable, Callable

from .limits import DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_TASKS
from .listener import listen, run
from ..errors import printable
from ..jsonio import SURROGATE_ESCAPE
from ..protocols.a2a import RESEARCH_AGENT, RESEARCH_CARD, Agent, HttpRequest, HttpResponse
from ..protocols.a2a.card import WELL_KNOWN_PATH, AgentCard
from ..protocols.a2a.script import Script
from ..protocols.a2a.errors import JsonRpcError, error_response
from ..protocols.a2a.harness import harness_rules

Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]

PARSE_ERROR, INVALID_REQUEST, INTERNAL_ERROR = -32700, -32600, -32603


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

    def __init__(self, agent: Agent, max_body_bytes: int = DEFAULT_MAX_BODY_BYTES,
                 max_tasks: int = DEFAULT_MAX_TASKS) -> None:
        self.agent = agent
        # Each path's methods, and its 405's ``allow`` (Starlette joins a set there: for the card,
        # "GET, HEAD" or "HEAD, GET" by the process's hash seed).
        self.routes = {WELL_KNOWN_PATH: ("GET", "HEAD"), agent.card.rpc_path: ("POST",)}
        self.max_body_bytes, self.max_tasks = max_body_bytes, max_tasks
        self.answered = asyncio.Event()  # set (and replaced) each time the agent has answered a request

    async def __call__(self, scope: dict[str, Any], receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return  # no lifespan events to handle (uvicorn runs with lifespan off)
        body, connected = await _read_body(receive, self.max_body_bytes)
        if not connected:
            return  # the client left before its request was complete: nobody to answer
        if body is None:
            response = self.too_large()
        else:
            response = _slash_redirect(scope, self.routes) or self.answer(
                scope["method"], scope["path"], scope["headers"], body)
            self.forget_oldest_tasks()
        self.answered.set()  # open streams may have something new to write
        self.answered = asyncio.Event()
        try:
            await _write(response, send)
            if response.open:  # the agent keeps the stream open until it ends it or the client goes
                await self._follow(response, receive, send)
        except OSError:
            pass  # the client disconnected mid-answer; the agent and other clients go on

    def too_large(self) -> HttpResponse:
        _warn(f"agent-loop-sim serve a2a: a request body over {self.max_body_bytes:,} bytes refused (413; "
              f"--max-body-bytes raises the limit)")
        return HttpResponse(413, [("Content-Type", "application/json")],
                            error_response(None, JsonRpcError(INVALID_REQUEST, "Payload too large")))

    def forget_oldest_tasks(self) -> None:
        """Keep the task store to ``max_tasks`` tasks, the newest (the store is in creation order)."""
        tasks = self.agent.tasks
        while len(tasks) > self.max_tasks:
            del tasks[next(iter(tasks))]
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
        if method not in self.routes[path]:
            answer = _plain(405, "Method Not Allowed")
            answer.headers.insert(0, ("Allow", ", ".join(self.routes[path])))
            return answer
        if method == "HEAD":
            method = "GET"  # answered as a GET; uvicorn leaves the body out
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


def _slash_redirect(scope: dict[str, Any], routes: dict[str, Any]) -> HttpResponse | None:
    """307 to the route a path names with slashes after it (``/a2a/``), as Starlette's router
    redirects, to the URL made from the request's ``Host`` (or the server's address)."""
    path = scope["path"]
    if not path.endswith("/") or path == "/" or path.rstrip("/") not in routes:
        return None
    host = next((v.decode("latin-1") for k, v in scope["headers"] if k == b"host"), None)
    if host is None:
        address, port = scope["server"]
        host = address if port == {"http": 80, "https": 443}.get(scope["scheme"]) else f"{address}:{port}"
    url = f"{scope['scheme']}://{host}{scope.get('root_path', '')}{path.rstrip('/')}"
    if scope.get("query_string"):
        url += "?" + scope["query_string"].decode("latin-1")
    return HttpResponse(307, [("Location", url)], None)


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


async def _read_body(receive: Receive, limit: int) -> tuple[bytes | None, bool]:
    """The request's body (``None`` when over ``limit`` bytes: what came after is read and dropped,
    so that the client, still sending, gets the answer) and whether the client is still there."""
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return b"", False
        chunk = message.get("body", b"")
        size += len(chunk)
        if size <= limit:
            chunks.append(chunk)
        elif chunks:
            chunks = []  # (freed at once, not when the whole body has gone by)
        if not message.get("more_body", False):
            return (b"".join(chunks) if size <= limit else None), True


def _encode(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


#: What the SDK's SSE responses carry before their content type (sse-starlette's defaults).
STREAM_HEADERS = [(b"cache-control", b"no-store"), (b"connection", b"keep-alive"), (b"x-accel-buffering", b"no")]
#: Headers Starlette sets after the content length (content-type; a redirect's location).
_AFTER_LENGTH = (b"content-type", b"location")


def _event_bytes(event: Any) -> bytes:
    """One SSE event, framed as sse-starlette frames it; the data as json.dumps writes it."""
    return b"data: " + json.dumps(event, ensure_ascii=False).encode("utf-8") + b"\r\n\r\n"


async def _write(response: HttpResponse, send: Send) -> None:
    headers = [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in response.headers]
    if response.events is not None:
        await send({"type": "http.response.start", "status": response.status, "headers": STREAM_HEADERS + headers})
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
    # Starlette's order: the headers given, the length (none on a 304), then the content type.
    length = [] if response.status == 304 else [(b"content-length", str(len(payload)).encode())]
    headers = ([h for h in headers if h[0] not in _AFTER_LENGTH] + length
               + [h for h in headers if h[0] in _AFTER_LENGTH])
    await send({"type": "http.response.start", "status": response.status, "headers": headers})
    await send({"type": "http.response.body", "body": payload})


def research_app(base_url: str | None = None, world: tuple[AgentCard, Script] | None = None,
                 max_body_bytes: int = DEFAULT_MAX_BODY_BYTES, max_tasks: int = DEFAULT_MAX_TASKS,
                 harness: str | None = None) -> AgentApp:
    """``world``'s agent (the fixture's research agent by default), fresh (no tasks yet), as uvicorn
    runs the SDK's (``harness`` None: one event loop, `protocols.a2a.harness`); its card names
    ``base_url`` (by default the one the world gives, ``https://research.example.com``)."""
    card, script = world or (RESEARCH_CARD, RESEARCH_AGENT)
    card = card if base_url is None else dataclasses.replace(card, base_url=base_url)
    return AgentApp(Agent(card, script, rules=harness_rules(harness)), max_body_bytes, max_tasks)


def main(host: str, port: int, app: AgentApp | None = None, recorded_url: bool = False,
         world: tuple[AgentCard, Script] | None = None, max_body_bytes: int = DEFAULT_MAX_BODY_BYTES,
         max_tasks: int = DEFAULT_MAX_TASKS, harness: str | None = None) -> int:
    """Serve ``app`` (``world``'s agent, by default the research agent) until interrupted; the URL
    is the first line out.

    The agent's card names the address served, so that a client that follows the card
    (``createFromUrl`` of the A2A JavaScript SDK) reaches it; ``recorded_url`` keeps the card's own
    URL instead (the swap test compares cards with the recordings)."""
    bound = listen(host, port, "serve a2a")
    if bound is None:
        return 2
    listener, served = bound
    print(served, flush=True)  # the first line: where to connect (port 0 picks one)
    if app is None:
        app = research_app(None if recorded_url else served, world, max_body_bytes, max_tasks, harness)
    return run(app, listener)
