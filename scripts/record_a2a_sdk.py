"""Record A2A sessions live from the official A2A Python SDK (a2a-sdk), JSON-RPC binding.

    python scripts/record_a2a_sdk.py SCENARIOS [--session NAME ...] [--timeout S] [--jobs N]

Each session gets a fresh instance of the agent in ``conformance/a2a_sdk_server.py``, served as
people deploy it: by uvicorn, on one event loop, over a local socket (``a2a_deployed.py``);
before each request the recorder waits until the agent is idle, so that what the agent still
does in the background after an answer is done, and the recording does not depend on timing.
A scenario file that names the ``per_request`` harness (the seed page's sessions) is recorded
as the seed page was: the app mounted in process, every HTTP request on an event loop of its
own, run until nothing is left to do and then closed, so the agent keeps only its task store
between requests. The requests are built from the scenario's steps by ``a2a_requests.py``,
never by the engine: this script carries them to the SDK and the answers back, reading streams
event by event so that the application can hang up when it has what it waits for.

Every message carries its HTTP envelope as it crossed (``agent_loop_sim.http_log``):
a request's method, path and headers as sent, an answer's status and headers as the SDK started
its response (a stream's on its first event).

The normalised transcripts are printed as JSON on stdout, each session with its ``wire``: every
message as it crossed, before any normalising; ``python -m agent_loop_sim record`` turns them
into the committed file and its sidecar (``recordings/raw/``). Any failure (nothing crosses a session's
wire for ``--timeout`` seconds, the agent raises inside ``execute``/``cancel``, the SDK raises or
answers what HTTP does not allow) exits 1 with one line on stderr naming the session, and nothing
on stdout. Each session runs in a child process, so a hung agent is stopped for sure; the child
tells the parent when something last crossed (`_crossed`), and that moves the session's deadline:
a busy machine makes a session slow, never silent.

``AGENT_LOOP_SIM_A2A_AGENT=module:Class`` (or ``path/to/file.py:Class``) replaces the research
agent's executor; the tests use it to check how faults are reported.
``AGENT_LOOP_SIM_A2A_PEER=COMMAND`` records against a peer served over real HTTP instead: each
session starts COMMAND (e.g. ``python -m agent_loop_sim serve a2a --port 0``), reads the base
URL it prints on its first line of stdout, and talks to it with httpx.
"""
from __future__ import annotations

if __name__ == "__main__":  # first, before the SDK's imports: the owner may go while they run
    import os.path as _path
    import sys as _sys

    _sys.path.insert(0, _path.dirname(_path.dirname(_path.abspath(__file__))))
    from agent_loop_sim.processes import on_owner_gone

    on_owner_gone()

import asyncio
import gc
import importlib
import importlib.util
import json
import logging
import multiprocessing
import os
import shlex
import subprocess
import sys
import time
from multiprocessing.connection import Connection, wait
from pathlib import Path
from typing import Any, Callable
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from a2a.server.agent_execution import AgentExecutor, RequestContext  # noqa: E402
import anyio._backends._asyncio  # noqa: E402,F401  (a stream's first task group imports it: once here, not per session)

from agent_loop_sim import scenarios  # noqa: E402
from agent_loop_sim.errors import InputError, RecorderError  # noqa: E402
from agent_loop_sim.normalise import normalise_a2a  # noqa: E402
from recorder_cli import as_captured, recorder_main  # noqa: E402
from agent_loop_sim.http_log import HEADERS_THAT_MATTER, event_message, reply_message, request_message  # noqa: E402
from agent_loop_sim.transcript import Message, Transcript  # noqa: E402
from conformance import a2a_sdk_server as fixture  # noqa: E402
from a2a_requests import Answer, Call, StepError, player_for  # noqa: E402
from sse_reader import SseReader  # noqa: E402

#: How the agent is served, by the harness a scenario file names (None: as deployed); the
#: recordings say it, and `FAMILY.harnesses` must say the same.
TRANSPORTS = {
    None: "HTTP/1.1 over a local socket to the agent served by uvicorn on one event loop, JSON-RPC binding "
          "(SSE for streams), the agent idle before each request",
    "per_request": "in-process ASGI, JSON-RPC binding over HTTP (SSE for streams), one event loop per request",
}
PEER_TRANSPORT = "HTTP/1.1 over a local socket to a served peer, JSON-RPC binding (SSE for streams)"
SETTLE_STEPS = 10_000

#: In a session's child: when something last crossed its wire (``time.monotonic()``, one clock
#: for every process), in memory shared with the parent, which fails the session once it is
#: ``--timeout`` seconds old.
_last_crossed: Any = None


def _crossed() -> None:
    """Something crossed the wire (a request, a reply's start, an event, a chunk of a body)."""
    if _last_crossed is not None:
        _last_crossed.value = time.monotonic()


def executor_class() -> type:
    """The agent executor to serve: the research agent, or the one the environment names.

    Resolved once, before the sessions are forked, so a bad name fails at once."""
    spec = os.environ.get("AGENT_LOOP_SIM_A2A_AGENT")
    if not spec:
        return fixture.ResearchAgent
    where, _, name = spec.rpartition(":")
    if where.endswith(".py"):
        loader = importlib.util.spec_from_file_location("a2a_agent_override", where)
        if loader is None or loader.loader is None:
            raise RecorderError(f"cannot load {where}")
        module = importlib.util.module_from_spec(loader)
        loader.loader.exec_module(module)
    else:
        module = importlib.import_module(where)
    try:
        return getattr(module, name)
    except AttributeError:
        raise RecorderError(f"{where} has no {name}") from None


class GuardedExecutor(AgentExecutor):
    """Passes every call on, and remembers what the agent raised (the SDK would swallow it) but a
    ``ValueError``: the SDK's helpers raise that for a message the agent cannot read (an empty
    text part, a part that is not text), a crash the recordings show on purpose."""

    def __init__(self, inner: AgentExecutor) -> None:
        self.inner = inner
        self.raised: BaseException | None = None

    async def _watched(self, call: Any) -> None:
        try:
            await call
        except Exception as exc:
            if type(exc) is not ValueError:
                self.raised = self.raised or exc
            raise

    async def execute(self, context: RequestContext, event_queue) -> None:  # noqa: ANN001
        await self._watched(self.inner.execute(context, event_queue))

    async def cancel(self, context: RequestContext, event_queue) -> None:  # noqa: ANN001
        await self._watched(self.inner.cancel(context, event_queue))


async def _settle() -> None:
    """Let the SDK's background tasks run until none of them can make progress.

    Without this, closing the loop could cut the SDK's clean-up of a finished task short, and
    whether it did would depend on scheduling. CPython's loop keeps its runnable callbacks in
    ``_ready``; elsewhere a fixed number of turns stands in for it."""
    loop = asyncio.get_running_loop()
    ready = getattr(loop, "_ready", None)
    for turn in range(SETTLE_STEPS):
        if (not ready) if ready is not None else turn >= 200:
            return
        await asyncio.sleep(0)


#: What a request's stream events are handed to: (event, the answer so far, its frame as sent) ->
#: whether the orchestrator hangs up.
OnEvent = Callable[[Any, Answer, str], bool]


async def _carry(app: Any, request: Call, on_event: OnEvent) -> tuple[Answer, bool]:
    """Carry one request to the ASGI app; stream events go to ``on_event`` until it says stop.

    Returns the answer and whether the orchestrator hung up (rather than the agent closing)."""
    path = request.url.split("://", 1)[-1]
    host, _, path = path.partition("/")
    path = "/" + path
    body = request.content() or b""
    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": request.method,
        "scheme": "https", "path": path, "raw_path": path.encode(), "query_string": b"", "root_path": "",
        "headers": [(b"host", host.encode())] + [(k.lower().encode("latin-1"), v.encode("latin-1"))
                                                 for k, v in request.headers],
        "server": (host, 443), "client": ("127.0.0.1", 50000),
    }
    request_sent = False
    closed = asyncio.Event()
    response = Answer()
    chunks: list[bytes] = []
    sse: SseReader | None = None
    stopped = False

    async def receive() -> dict[str, Any]:
        nonlocal request_sent
        if not request_sent:
            request_sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        await closed.wait()
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        nonlocal sse, stopped
        _crossed()
        if message["type"] == "http.response.start":
            response.status = message["status"]
            response.headers = [(k.decode("latin-1"), v.decode("latin-1")) for k, v in message.get("headers", [])]
            content_type = next((v for k, v in response.headers if k.lower() == "content-type"), "")
            if content_type.startswith("text/event-stream"):
                sse = SseReader()
                response.events = []
        elif message["type"] == "http.response.body":
            chunk = message.get("body", b"")
            if sse is not None and not stopped:
                for frame, data in sse.feed_frames(chunk):
                    event = json.loads(data)
                    assert response.events is not None
                    response.events.append(event)
                    if on_event(event, response, frame):
                        stopped = True
                        closed.set()  # the orchestrator hangs up
                        break
            elif sse is None:
                chunks.append(chunk)
            if not message.get("more_body", False):
                closed.set()

    await app(scope, receive, send)
    await _settle()
    if sse is None:
        _read_body(response, b"".join(chunks))
    return response, stopped


def _read_body(response: Answer, raw: bytes) -> None:
    """An answer's body: its JSON, or (a raw post may be answered so) its text; and the text as sent."""
    response.sent = raw.decode("utf-8", "replace") if raw else None
    try:
        response.body = json.loads(raw) if raw else None
    except ValueError:
        response.text = raw.decode("utf-8", "replace")


def _play(session: scenarios.Session, carry: Callable[[Call, OnEvent], tuple[Answer, bool]],
          check: Callable[[], None] = lambda: None) -> dict[str, Any]:
    """Play one session, each request carried by ``carry``; any fault raises `RecorderError`.
    Returns the normalised transcript (`Transcript.to_dict`) with ``wire``: each message as it
    crossed, before any normalising (its body's text, ``body``, null for none, or its SSE event's
    frame, ``frame``; its envelope with the kept headers as written), one per message, in order."""
    player = player_for(session.spec, fixture.BASE_URL, fixture.JSONRPC_PATH)
    messages: list[Message] = []
    wire: list[dict[str, Any]] = []
    while True:
        try:
            request = player.next_request()
        except StepError as exc:
            raise RecorderError(f"step {player.done}: {exc}") from None
        if request is None:
            break
        _crossed()
        messages.append(request_message(request.method, request.url, request.headers, request.body, request.raw))
        content = request.content()
        wire.append({"from": "orchestrator",
                     "http": {"method": request.method, "path": urlsplit(request.url).path or "/",
                              "headers": as_captured(request.headers, HEADERS_THAT_MATTER)},
                     # (a raw post is kept as the text written, JSON or not, as the recording keeps it)
                     **({"body": request.raw, "as_written": True} if request.raw is not None else
                        {"body": content.decode("utf-8") if content else None})})

        def on_event(event: Any, answer: Answer, frame: str) -> bool:
            # The answer's status and headers came before its events; the first event carries them.
            first = len(answer.events or ()) == 1
            messages.append(event_message(event, first, answer.status, answer.headers))
            wire.append({"from": "agent", **({"http": _envelope(answer)} if first else {}), "frame": frame})
            return player.event(event)

        try:
            response, hung_up = carry(request, on_event)
        except RecorderError:
            raise
        except Exception as exc:
            raise RecorderError(f"the SDK raised {type(exc).__name__}: {exc}") from exc
        check()
        expected = (200,) if request.method == "POST" else (200, 304)
        if response.status not in expected and request.raw is None:
            raise RecorderError(f"{request.method} {request.url} answered HTTP {response.status}")
        if response.events is not None:
            if not hung_up:
                player.stream_closed()
        else:
            messages.append(reply_message(response.status, response.headers, response.body, response.text))
            wire.append({"from": "agent", "http": _envelope(response), "body": response.sent})
            player.answer(response)
    transcript = Transcript(session.name, session.mode, session.title, normalise_a2a(messages))
    return dict(transcript.to_dict(), wire=wire)


def _envelope(answer: Answer) -> dict[str, Any]:
    """An answer's status and its kept headers as written, for its wire entry."""
    return {"status": answer.status, "headers": as_captured(answer.headers, HEADERS_THAT_MATTER)}


def record_session(session: scenarios.Session, executor: type = fixture.ResearchAgent) -> dict[str, Any]:
    """Play one session against a fresh agent, mounted in process."""
    guard = GuardedExecutor(executor())
    app = fixture.app(guard)

    def check() -> None:
        if guard.raised is not None:
            raise RecorderError(f"the agent raised {type(guard.raised).__name__}: {guard.raised}")

    return _play(session, lambda request, on_event: asyncio.run(_carry(app, request, on_event)), check)


def record_session_deployed(session: scenarios.Session, executor: type = fixture.ResearchAgent,
                            idle_within: float = 10.0) -> dict[str, Any]:
    """Play one session against a fresh agent served as deployed (`a2a_deployed`): uvicorn, one
    event loop, a real socket; before each request (and at the end) the agent is let go idle,
    which it must be within ``idle_within`` seconds."""
    from a2a_deployed import NeverIdle, ServedAgent  # only this harness needs uvicorn

    guard = GuardedExecutor(executor())
    served = ServedAgent(fixture.app(guard))

    def settle() -> None:
        try:
            served.wait_idle(idle_within)
        except NeverIdle as exc:
            raise RecorderError(f"the agent never went idle: {exc}") from None
        if guard.raised is not None:
            raise RecorderError(f"the agent raised {type(guard.raised).__name__}: {guard.raised}")

    try:
        return record_session_over_http(session, served.url, settle)
    finally:
        served.stop()


def record_session_over_http(session: scenarios.Session, base_url: str,
                             settle: Callable[[], None] = lambda: None) -> dict[str, Any]:
    """Play one session against a peer served over real HTTP at ``base_url``; ``settle`` runs
    after each answer, before the next request."""
    import httpx  # only these modes need a real HTTP client

    with httpx.Client(base_url=base_url, timeout=None) as client:
        def carry(request: Call, on_event: OnEvent) -> tuple[Answer, bool]:
            path = "/" + request.url.split("://", 1)[-1].partition("/")[2]
            with client.stream(request.method, path, headers=request.headers, content=request.content()) as answer:
                _crossed()  # the status line and headers
                response = Answer(answer.status_code, [(k.decode("latin-1"), v.decode("latin-1"))
                                                       for k, v in answer.headers.raw])
                if not answer.headers.get("content-type", "").startswith("text/event-stream"):
                    _read_body(response, answer.read())
                    return response, False
                sse, response.events = SseReader(), []
                for chunk in answer.iter_bytes():
                    _crossed()
                    for frame, data in sse.feed_frames(chunk):
                        response.events.append(json.loads(data))
                        if on_event(response.events[-1], response, frame):
                            return response, True  # leaving the block closes the connection: a hang-up
                return response, False

        return _play(session, carry, settle)


class Peer:
    """A served peer for one session: ``COMMAND`` started, the base URL read from its first line."""

    def __init__(self, command: str) -> None:
        self.process = subprocess.Popen(shlex.split(command), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        cwd=ROOT)
        assert self.process.stdout is not None
        self.url = self.process.stdout.readline().decode().strip()
        if not self.url.startswith("http"):
            said = self.process.communicate(timeout=10)[1].decode(errors="replace").strip().splitlines()
            raise RecorderError(f"the peer {command!r} printed no URL" + (f": {said[-1]}" if said else ""))

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.communicate()


def _child(session: scenarios.Session, executor: type, conn: Connection, peer_url: str | None = None,
           timeout: float = 20.0, last_crossed: Any = None) -> None:
    global _last_crossed
    _last_crossed = last_crossed
    logging.disable(logging.CRITICAL)  # the SDK logs handled errors as warnings; they are not faults
    try:
        if peer_url:
            transcript = record_session_over_http(session, peer_url)
        elif session.harness == "per_request":
            transcript = record_session(session, executor)
        else:
            # (idle well within the session's time, so that an agent that never is says so itself)
            transcript = record_session_deployed(session, executor, timeout / 2)
        conn.send(("ok", transcript))
    except (RecorderError, InputError) as exc:
        conn.send(("error", str(exc)))
    except BaseException as exc:  # noqa: BLE001 - anything else is a fault of the recording too
        conn.send(("error", f"the recorder raised {type(exc).__name__}: {exc}"))
    finally:
        conn.close()


def record_all(sessions: list[scenarios.Session], timeout: float, jobs: int) -> list[dict[str, Any]]:
    """Record every session, ``jobs`` at a time, each in a forked child; the first fault raises."""
    context = multiprocessing.get_context("fork")
    gc.freeze()  # what is here now, the collector of a session's process never walks (nor copies on write)
    executor = executor_class()
    peer_command = os.environ.get("AGENT_LOOP_SIM_A2A_PEER")
    peers: dict[Connection, Peer] = {}
    pending = list(enumerate(sessions))
    running: dict[Connection, tuple[int, scenarios.Session, Any, Any]] = {}  # ..., its `_last_crossed`
    results: dict[int, dict[str, Any]] = {}
    try:
        while pending or running:
            while pending and len(running) < max(1, jobs):
                index, session = pending.pop(0)
                parent, child = context.Pipe(duplex=False)
                peer = Peer(peer_command) if peer_command else None
                if peer is not None:
                    peers[parent] = peer
                crossed = context.RawValue("d", time.monotonic())
                process = context.Process(target=_child, args=(session, executor, child, peer and peer.url, timeout,
                                                               crossed), daemon=True)
                process.start()
                child.close()
                running[parent] = (index, session, process, crossed)
            soonest = min(crossed.value for *_, crossed in running.values()) + timeout
            for conn in wait(list(running), timeout=max(0.0, soonest - time.monotonic())):
                index, session, process, _ = running.pop(conn)
                try:
                    status, payload = conn.recv()
                except EOFError:
                    status, payload = "error", f"the recording process died (exit {process.exitcode})"
                process.join(timeout=5)
                if conn in peers:
                    peers.pop(conn).stop()
                if status != "ok":
                    raise RecorderError(f"session {session.name!r}: {payload}")
                results[index] = payload
            for conn, (index, session, process, crossed) in list(running.items()):
                if time.monotonic() >= crossed.value + timeout:
                    raise RecorderError(f"session {session.name!r}: nothing crossed for {timeout:g} s "
                                        "(the agent hung or the SDK never finished a request)")
    finally:
        for conn, (_, _, process, _) in running.items():
            process.kill()
            process.join()
            conn.close()
        for peer in peers.values():
            peer.stop()
    return [results[i] for i in range(len(sessions))]


def main(argv: list[str] | None = None) -> int:
    def transport(file: scenarios.ScenarioFile) -> str:
        return PEER_TRANSPORT if os.environ.get("AGENT_LOOP_SIM_A2A_PEER") else TRANSPORTS[file.harness]

    return recorder_main(prog="record_a2a_sdk", family="a2a", package="a2a-sdk", transport=transport,
                         record=record_all, description=__doc__.split("\n\n")[0], argv=argv)


if __name__ == "__main__":
    sys.exit(main())
