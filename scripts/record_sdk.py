"""Record MCP sessions live from the official MCP Python SDK (mcp 2.3.0) over stdio.

    python scripts/record_sdk.py SCENARIOS [--session NAME ...] [--timeout S] [--jobs N]

Each session gets a fresh ``conformance/sdk_server.py`` process, a fork of a zygote that this
process forks once it has imported the SDK (``mcp_fork_server.py``: nothing is imported twice, and
no server ever served an earlier session), and plays the scenario with the SDK's ``Client`` over
stdio in the session's mode: the process the SDK's stdio transport starts (``stdio_connect.py``)
hands its stdin and stdout to that server, whose tee (``stdio_tee.py``) logs every line; ``raw`` sessions write their
lines straight to the server; after each line the SDK reads as a request they wait for its
response, recording any notification (progress) that comes before it. The normalised
transcripts are printed as JSON on stdout, each session with its ``wire``: the lines as they
crossed, before any normalising; ``python -m agent_loop_sim record`` turns them into the
committed file and its sidecar (``recordings/raw/``).
Any failure (the server crashes or hangs, the SDK raises) exits 1 naming the session, and
nothing is printed on stdout. A session fails as hung once nothing has crossed its wire for
``--timeout`` seconds (`Quiet`): however slow a busy machine is, it is never silent that long.
"""
from __future__ import annotations

if __name__ == "__main__":  # first, before the SDK's imports: the owner may go while they run
    import os.path as _path
    import sys as _sys

    _sys.path.insert(0, _path.dirname(_path.dirname(_path.abspath(__file__))))
    from agent_loop_sim.processes import on_owner_gone

    on_owner_gone()

import json
import os
import sys
import tempfile
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
from mcp import Client
from mcp.client import advertise
from mcp.client._input_required import InputRequiredRoundsExceededError
from mcp.client.stdio import StdioServerParameters
from mcp.shared.exceptions import MCPError
from mcp.client.subscriptions import ListenNotSupportedError

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from agent_loop_sim import scenarios  # noqa: E402
from agent_loop_sim.errors import RecorderError  # noqa: E402
from agent_loop_sim.processes import abstract_socket_name, unix_address  # noqa: E402
from agent_loop_sim.normalise import normalise_mcp  # noqa: E402
from recorder_cli import innermost, recorder_main  # noqa: E402
import mcp_fork_server  # noqa: E402  (imports the fixture server, the SDK's server side, once)
from agent_loop_sim.transcript import Message, Transcript  # noqa: E402

#: How these recordings reach the SDK, as their header says (the checker holds it to the family's).
TRANSPORT = "stdio"
TEE = ROOT / "scripts" / "stdio_tee.py"
CONNECT = ROOT / "scripts" / "stdio_connect.py"
CLIENT_INFO = types.Implementation(name="fixture-client", version="1.0.0")


class Servers:
    """Where each session's fresh server comes from.

    By default the zygote this process forked (with the SDK and the fixture imported) forks a
    fresh server per session (the import is most of a session's cost). ``AGENT_LOOP_SIM_MCP_SERVER``
    names another command to start per session instead, behind ``stdio_tee.py`` (the tests use
    broken servers, the swap test the engine's).
    """

    def __init__(self, socket_path: str | None, command: list[str] | None) -> None:
        self.socket_path, self.command = socket_path, command

    def stdio_args(self, log: Path) -> list[str]:
        """The arguments of the Python the SDK's stdio transport starts for a session logged to ``log``."""
        if self.command:
            return [str(TEE), str(log), "--", *self.command]
        header = json.dumps({"stderr": str(log) + ".stderr", "log": str(log)})
        return ["-I", "-S", str(CONNECT), str(self.socket_path), header]  # the standard library only

    @asynccontextmanager
    async def open_raw(self, log: Path) -> AsyncIterator[tuple[Any, Any, Callable[[], Awaitable[None]]]]:
        """(send, receive, close-stdin) for writing lines straight to a fresh server; what the
        server writes after its stdin closed can still be received until the block ends."""
        if self.command:
            with open(str(log) + ".stderr", "ab") as errors:  # the child keeps its own copy
                process = await anyio.open_process(self.command, stderr=errors)
            assert process.stdin and process.stdout
            try:
                yield process.stdin.send, process.stdout.receive, process.stdin.aclose
            finally:
                with anyio.move_on_after(2):
                    await process.wait()
                if process.returncode is None:
                    process.kill()
                await process.aclose()
            return
        stream = await anyio.connect_unix(unix_address(str(self.socket_path)))
        await stream.send(json.dumps({"stderr": str(log) + ".stderr"}).encode() + b"\n")
        async with stream:
            yield stream.send, stream.receive, stream.send_eof


#: The simulated server instead of the SDK's: ``agent_loop_sim``'s own arguments (``serve mcp
#: --world W``), served by forks of the zygote as the SDK's are. A fresh interpreter per session
#: would put its start (0.2 s of CPU, a second or more on a busy machine) on the clock of a
#: client's read timeout, and cost the swap test a minute of CPU.
SIMULATED_VARIABLE = "AGENT_LOOP_SIM_MCP_SERVE"  # (agent_loop_sim.swap.SIMULATED_MCP_VARIABLE)


def _simulated(arguments: str) -> Callable[[], object]:
    """What a server forked for a session runs: ``python -m agent_loop_sim ARGUMENTS``, in process."""
    import shlex

    from agent_loop_sim import cli  # (before the fork: nothing is imported per session)

    return lambda: cli.main(shlex.split(arguments))


@contextmanager
def servers() -> Iterator[Servers]:
    """Where the sessions' servers come from; forked before the event loop (and any thread) starts."""
    override = os.environ.get("AGENT_LOOP_SIM_MCP_SERVER")
    if override:
        yield Servers(None, override.split())
        return
    simulated = os.environ.get(SIMULATED_VARIABLE)
    address = abstract_socket_name("agent-loop-sim-mcp-fork")  # no socket file, however long TMPDIR is
    zygote = mcp_fork_server.start(address, _simulated(simulated) if simulated else None)  # listening already
    try:
        yield Servers(address, None)
    finally:
        mcp_fork_server.stop(zygote)


class Quiet:
    """A session's deadline, moved on by everything that crosses its wire: it fails a session that
    goes ``allowed`` seconds with nothing crossing (a hung or dead server), never one that is only
    slow in all (a busy machine is slow between messages, not silent)."""

    #: how often the stdio tee's log (written by another process) is looked at
    POLL = 0.1

    def __init__(self, allowed: float) -> None:
        self.allowed = allowed
        self.scope: anyio.CancelScope | None = None

    @classmethod
    def of(cls, session: scenarios.Session, timeout: float) -> Quiet:
        """``timeout``, plus the longest quiet spell the scenario makes on purpose: a late answer's
        delay, or a read timeout (the server says nothing until the client gives up). Each of
        these ends with the client saying something, so the spells never add up."""
        spec = session.spec
        waits = [spec.get("read_timeout_seconds") or 0]
        waits += [action.get("read_timeout_seconds") or 0 for action in spec.get("actions", [])]
        waits += [answer.get("delay") or 0 for answers in spec.get("answers", {}).values() for answer in answers]
        return cls(timeout + max(waits))

    @asynccontextmanager
    async def deadline(self, log: Path | None = None) -> AsyncIterator[None]:
        """The block, failed with ``TimeoutError`` once nothing crossed for ``allowed`` seconds;
        with ``log``, a line added to it (by the stdio tee, in another process) crossed."""
        with anyio.fail_after(self.allowed) as self.scope:
            if log is None:
                yield
                return
            try:
                async with anyio.create_task_group() as group:
                    group.start_soon(self._watch, log)
                    yield
                    group.cancel_scope.cancel()
            except BaseExceptionGroup as grouped:  # the block's own failure (the watcher never raises)
                raise grouped.exceptions[0] from None

    def heard(self) -> None:
        """Something crossed: the session has ``allowed`` seconds again."""
        if self.scope is not None:
            self.scope.deadline = anyio.current_time() + self.allowed

    async def _watch(self, log: Path) -> None:
        size = 0
        while True:
            await anyio.sleep(self.POLL)
            now = log.stat().st_size
            if now != size:
                size = now
                self.heard()


class _Script:
    """The application's scripted answers, handed out in order."""

    def __init__(self, answers: dict[str, list[dict[str, Any]]]) -> None:
        self.left = {kind: list(items) for kind, items in answers.items()}

    def next(self, kind: str) -> dict[str, Any]:
        if not self.left.get(kind):
            raise RecorderError(f"the server asked for {kind} but the scenario has no answer left")
        return self.left[kind].pop(0)


class _Questions:
    """The server's questions whose callbacks are still running (a late answer sleeping).

    A call that timed out while its question waits for a late answer goes on only once the
    server has withdrawn the question (its ``notifications/cancelled`` ends the callback), so the
    order on the wire does not depend on timing."""

    def __init__(self) -> None:
        self.open = 0
        self.closed = anyio.Event()

    async def answer(self, kind: str, script: _Script) -> dict[str, Any]:
        answer = dict(script.next(kind))
        delay = answer.pop("delay", 0)
        self.open += 1
        try:
            if delay:
                await anyio.sleep(delay)  # the user (or the model) answers late
        finally:
            self.open -= 1
            if not self.open:
                self.closed.set()
                self.closed = anyio.Event()
        return answer

    async def withdrawn(self) -> None:
        while self.open:
            await self.closed.wait()


def _answer(model: Any, answer: dict[str, Any]) -> Any:
    """A callback's return: the result, or the ``ErrorData`` the application refuses the question with."""
    return types.ErrorData.model_validate(answer["error"]) if "error" in answer else model.model_validate(answer)


def _seeds(action: dict[str, Any]) -> dict[str, Any]:
    """The first request's ``input_responses`` and ``request_state``, when the scenario seeds them."""
    out: dict[str, Any] = {}
    if "input_responses" in action:
        out["input_responses"] = {key: types.ElicitResult.model_validate(value) if "action" in value
                                  else types.CreateMessageResult.model_validate(value)
                                  for key, value in action["input_responses"].items()}
    if "request_state" in action:
        out["request_state"] = action["request_state"]
    return out


async def _call(client: Client, action: dict[str, Any], cancel_call: list[Any], questions: _Questions) -> None:
    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        pass
    progress = on_progress if action.get("progress") else None
    timeout = action.get("read_timeout_seconds")
    if not action.get("cancel"):
        try:
            await client.call_tool(action["tool"], action.get("arguments"), read_timeout_seconds=timeout,
                                   progress_callback=progress, meta=action.get("meta"), **_seeds(action))
        except MCPError as error:
            if error.code == types.REQUEST_TIMEOUT:
                await questions.withdrawn()
            raise
        return
    # Abandoned when the server asks its first question: the callback cancels this scope (the SDK
    # then sends notifications/cancelled) and never answers. The next action waits until the
    # server has withdrawn its question in turn (its own notifications/cancelled ends the
    # callback), so the order on the wire does not depend on timing.
    # A call that fails before any question (an error reply) disarms the cancel too, or the next
    # call's question would cancel a finished scope and never be answered.
    withdrawn = anyio.Event()
    try:
        with anyio.CancelScope() as scope:
            cancel_call[:] = [scope, withdrawn]
            await client.call_tool(action["tool"], action.get("arguments"), read_timeout_seconds=timeout,
                                   progress_callback=progress, meta=action.get("meta"), **_seeds(action))
        if scope.cancelled_caught:
            await withdrawn.wait()
    finally:
        # (also when the call failed before any question: a later call's question is not this one's)
        cancel_call.clear()


async def _cancel_written(log: Path, request_id: str) -> None:
    """Wait until the client's courtesy ``notifications/cancelled`` for ``request_id`` is on the
    wire: the SDK writes it from a task of its own, so without this wait the next request could
    overtake it, and the order on the wire would depend on timing."""
    wanted = json.dumps(request_id)
    while not any(entry["from"] == "client" and '"notifications/cancelled"' in entry["line"]
                  and f'"requestId":{wanted}' in entry["line"].replace(" ", "")
                  for entry in map(json.loads, log.read_text().splitlines())):
        await anyio.sleep(0.005)


async def _play(client: Client, actions: list[dict[str, Any]], cancel_call: list[Any], log: Path,
                questions: _Questions, cancels_on_wire: bool = True) -> None:
    for action in actions:
        op, meta = action["op"], action.get("meta")
        try:
            if op == "ping":
                await client.session.send_ping(meta=meta)
            elif op == "list":
                lister = {"tools": client.list_tools, "resources": client.list_resources,
                          "templates": client.list_resource_templates, "prompts": client.list_prompts}
                await lister[action["what"]](cursor=action.get("cursor"), meta=meta,
                                             cache_mode=action.get("cache_mode", "use"))
            elif op == "call":
                await _call(client, action, cancel_call, questions)
            elif op == "read":
                await client.read_resource(action["uri"], meta=meta, cache_mode=action.get("cache_mode", "use"),
                                           **_seeds(action))
            elif op == "get":
                await client.get_prompt(action["prompt"], action.get("arguments"), meta=meta, **_seeds(action))
            elif op == "complete":
                ref = action["ref"]
                reference = (types.PromptReference(type="ref/prompt", name=ref["name"]) if ref["type"] == "ref/prompt"
                             else types.ResourceTemplateReference(type="ref/resource", uri=ref["uri"]))
                await client.complete(reference, action["argument"], action.get("context"))
            elif op == "set_level":
                await client.session.set_logging_level(action["level"], meta=meta)
            elif op == "subscribe":
                await client.session.subscribe_resource(action["uri"], meta=meta)
            elif op == "unsubscribe":
                await client.session.unsubscribe_resource(action["uri"], meta=meta)
            elif op == "roots_changed":
                await client.session.send_roots_list_changed()
            elif op == "listen":
                async with client.listen(tools_list_changed=action.get("tools", False),
                                         prompts_list_changed=action.get("prompts", False),
                                         resources_list_changed=action.get("resources", False),
                                         resource_subscriptions=action.get("uris", ())) as stream:
                    pass
                if cancels_on_wire:  # (over HTTP the client ends a listen by closing its stream)
                    await _cancel_written(log, str(stream.subscription_id))
            elif op == "progress":
                await client.session.send_progress_notification(action["token"], action["progress"],
                                                                action.get("total"), action.get("message"))
        except (MCPError, ListenNotSupportedError, InputRequiredRoundsExceededError):
            pass  # an error answer (or a call given up locally) is part of the session; the application goes on


async def record_client_session(session: scenarios.Session, log: Path, servers: Servers | None,
                                connect: Any = None) -> None:
    """Play a client session; ``connect`` is another transport than stdio to a fresh server
    (``record_mcp_http.py``'s Streamable HTTP)."""
    spec = session.spec
    answers = spec.get("answers", {})
    script = _Script(answers)
    callbacks: dict[str, Any] = {}
    cancel_call: list[Any] = []  # [scope, withdrawn] of a call to abandon at its first question
    questions = _Questions()

    async def abandoned() -> None:
        if not cancel_call:
            return
        scope, withdrawn = cancel_call
        scope.cancel()
        try:
            await anyio.sleep_forever()
        finally:
            withdrawn.set()
    if "elicitation" in answers:
        async def on_elicit(context: Any, params: Any) -> types.ElicitResult:
            await abandoned()
            return _answer(types.ElicitResult, await questions.answer("elicitation", script))
        callbacks["elicitation_callback"] = on_elicit
    if "sampling" in answers:
        async def on_sample(context: Any, params: Any) -> types.CreateMessageResult:
            await abandoned()
            return _answer(types.CreateMessageResult, await questions.answer("sampling", script))
        callbacks["sampling_callback"] = on_sample
    if "roots" in spec:
        async def on_list_roots(context: Any) -> types.ListRootsResult:
            return types.ListRootsResult.model_validate({"roots": spec["roots"]})
        callbacks["list_roots_callback"] = on_list_roots
    if spec.get("logging_callback"):
        async def on_log(params: Any) -> None:
            pass
        callbacks["logging_callback"] = on_log
    if spec.get("message_handler"):
        async def on_message(message: Any) -> None:
            pass
        callbacks["message_handler"] = on_message
    if "log_level" in spec:
        callbacks["log_level"] = spec["log_level"]
    if "sampling_capabilities" in spec:
        callbacks["sampling_capabilities"] = types.SamplingCapability.model_validate(spec["sampling_capabilities"])
    if "read_timeout_seconds" in spec:
        callbacks["read_timeout_seconds"] = spec["read_timeout_seconds"]
    if "input_required_max_rounds" in spec:
        callbacks["input_required_max_rounds"] = spec["input_required_max_rounds"]
    if "extensions" in spec:
        callbacks["extensions"] = [advertise(name, settings) for name, settings in spec["extensions"].items()]
    info = types.Implementation.model_validate(spec["client_info"]) if "client_info" in spec else CLIENT_INFO
    if connect is None:
        assert servers is not None
        connect = StdioServerParameters(command=sys.executable, args=servers.stdio_args(log))
    async with Client(connect, mode=spec["mode"], client_info=info, **callbacks) as client:
        await _play(client, spec["actions"], cancel_call, log, questions, cancels_on_wire=servers is not None)


async def record_raw_session(session: scenarios.Session, log: Path, quiet: Quiet, servers: Servers) -> None:
    """Write each line to the server and wait for the replies it asks for; every write and every
    read moves ``quiet`` on (no tee logs these lines as they cross)."""
    async with servers.open_raw(log) as (send, receive, close):
        async def sent(data: bytes) -> None:
            await send(data)
            quiet.heard()

        async def received() -> bytes:
            data = await receive()
            quiet.heard()
            return data

        await _write_raw(session, sent, received, close, log)


async def _write_raw(session: scenarios.Session, send: Any, receive: Any, close: Callable[[], Awaitable[None]],
                     log: Path) -> None:
    entries: list[dict[str, str]] = []
    buffer = b""

    async def read_line() -> str:
        nonlocal buffer
        while b"\n" not in buffer:
            buffer += await receive()
        line, buffer = buffer.split(b"\n", 1)
        return line.decode()

    asked: set[Any] = set()  # ids of requests the server sent and nobody answered yet
    for line in session.spec["lines"]:
        entries.append({"from": "client", "line": line})
        await send(line.encode() + b"\n")
        # Wait for what the line causes: the response to a request, or the resumed call's outcome
        # when the line answers the server's own request. Notifications that come first (progress)
        # are recorded in the order they arrive; a request from the server also ends the wait
        # (it waits for an answer that only a later line can give), and so does the
        # acknowledgment of a subscriptions/listen (its response only comes when the stream ends).
        waiting = _replies_expected(line, asked)
        while waiting:
            reply = await read_line()
            entries.append({"from": "server", "line": reply})
            kind = _kind(reply)
            if kind == "request":
                asked.add(json.loads(reply)["id"])
            if kind in ("response", "request", "acknowledgment"):
                waiting -= 1
    await close()
    # Anything the server still says before it exits belongs to the session too (a server that
    # never exits is hung: the session's `Quiet` deadline ends it).
    while True:
        try:
            entries.append({"from": "server", "line": await read_line()})
        except (anyio.EndOfStream, anyio.ClosedResourceError, anyio.BrokenResourceError):
            break
    log.write_text("".join(json.dumps(e) + "\n" for e in entries))


def _kind(line: str) -> str:
    """What a line the server wrote is: a "response", a "request" to the client, the
    "acknowledgment" of a listen stream, or "other"."""
    try:
        data = json.loads(line)
    except json.JSONDecodeError:
        return "other"
    if not isinstance(data, dict):
        return "other"
    if "method" in data:
        if data["method"] == "notifications/subscriptions/acknowledged":
            return "acknowledgment"
        return "request" if "id" in data else "other"
    return "response" if ("result" in data or "error" in data) else "other"


def _replies_expected(line: str, asked: set[Any]) -> int:
    """How many replies to wait for after writing ``line``: one if the SDK reads it as a request
    (or as the answer to a request the server is waiting on), else none.

    The line is parsed exactly as the SDK's stdio server parses it
    (``jsonrpc_message_adapter.validate_json``). Only a line that comes out as a
    ``JSONRPCRequest`` is answered. Everything else gets no reply and is dropped or
    handled as a notification: bad JSON, a JSON array (a batch, even one of valid
    requests), a scalar, an object without ``"jsonrpc": "2.0"``, an id that is not an
    integer or a string (null, an object, a float such as ``1.5`` or ``1e3``, a bool),
    or params that are not an object. A request line always gets exactly one reply,
    so well-formed sessions are recorded exactly as before.
    """
    try:
        message = types.jsonrpc_message_adapter.validate_json(line, by_name=False)
    except Exception:  # whatever the SDK's parser rejects, its server drops without a reply
        return 0
    if isinstance(message, types.JSONRPCRequest):
        return 1
    if isinstance(message, (types.JSONRPCResponse, types.JSONRPCError)) and message.id in asked:
        asked.discard(message.id)
        return 1
    return 0


def _server_said(log: Path) -> str:
    """The last line the server wrote on stderr, if any, to say why it stopped."""
    path = Path(str(log) + ".stderr")
    lines = [x for x in path.read_text(errors="replace").splitlines() if x.strip()] if path.exists() else []
    return f"; the server's last words: {lines[-1].strip()}" if lines else ""


async def record_session(session: scenarios.Session, timeout: float, servers: Servers) -> dict[str, Any]:
    """The session's normalised transcript (`Transcript.to_dict`), with ``wire``: each line as it
    crossed (before any normalising), one per message, for ``recordings/raw/``."""
    with tempfile.TemporaryDirectory(prefix="record-sdk-") as tmp:
        log = Path(tmp) / "wire.jsonl"
        log.touch()
        quiet = Quiet.of(session, timeout)
        try:
            if session.mode == "raw":
                async with quiet.deadline():
                    await record_raw_session(session, log, quiet, servers)
            else:
                async with quiet.deadline(log):  # the tee logs each line as it crosses
                    await record_client_session(session, log, servers)
        except TimeoutError:
            raise RecorderError(f"session {session.name!r}: nothing crossed for {quiet.allowed:g} s "
                                f"(the server hung or crashed){_server_said(log)}") from None
        except RecorderError as exc:
            raise RecorderError(f"session {session.name!r}: {exc}") from None
        except Exception as exc:  # the SDK raised: name the session, keep the cause
            cause = innermost(exc)
            raise RecorderError(f"session {session.name!r}: the SDK raised {type(cause).__name__}: {cause}"
                                f"{_server_said(log)}") from exc
        lines = [json.loads(x) for x in log.read_text().splitlines() if x.strip()]
    messages = [Message.from_line(e["from"], "server" if e["from"] == "client" else "client", e["line"])
                for e in lines]
    transcript = Transcript(session.name, session.mode, session.title, normalise_mcp(messages))
    return dict(transcript.to_dict(), wire=[{"from": e["from"], "line": e["line"]} for e in lines])


async def record_all(sessions: list[scenarios.Session], timeout: float, jobs: int, source: Servers) -> list[dict[str, Any]]:
    results: dict[str, dict[str, Any]] = {}
    limiter = anyio.CapacityLimiter(jobs)

    async def one(session: scenarios.Session) -> None:
        async with limiter:
            results[session.name] = await record_session(session, timeout, source)

    async with anyio.create_task_group() as group:
        for session in sessions:
            group.start_soon(one, session)
    return [results[s.name] for s in sessions]


def record(sessions: list[scenarios.Session], timeout: float, jobs: int) -> list[dict[str, Any]]:
    with servers() as source:
        return anyio.run(record_all, sessions, timeout, jobs, source)


def main(argv: list[str] | None = None) -> int:
    return recorder_main(prog="record_sdk", family="mcp", package="mcp", transport=TRANSPORT,
                         record=record,
                         description=__doc__.split("\n\n")[0], argv=argv)


if __name__ == "__main__":
    sys.exit(main())
