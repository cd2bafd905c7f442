"""The swap test: each side of the engine put where the SDK stood, recorded, and compared.

``python -m agent_loop_sim record --against engine --check`` runs three comparisons with the
committed recordings, and each must say ``same``:

1. the MCP recorder (the SDK's ``Client`` and the raw writer) against ``serve mcp`` instead of
   the SDK's fixture server, every committed MCP session;
2. the A2A recorder over real HTTP against ``serve a2a``, every committed A2A session;
3. the engine's MCP client model driving the SDK's fixture server over stdio (over Streamable
   HTTP for a scenario file that says so: `swap_http`), every committed MCP session played by a
   client (raw sessions have no client).

Only the edges live here (processes, sockets, lines); what is said comes from the models.
"""
from __future__ import annotations

import json
import os
import shlex
import socket
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from .errors import RecorderError
from .normalise import normalise_mcp
from .protocols.mcp.session import client_for
from .scenarios import Session
from .transcript import Message, Transcript

#: The simulated peers, as the recorders start them (one process per session).
MCP_PEER = f"{shlex.quote(sys.executable)} -m agent_loop_sim serve mcp"
#: (`--recorded-url`: the card served names the URL recorded, not the address served, so that the
#: recorded card compares equal.)
A2A_PEER = f"{shlex.quote(sys.executable)} -m agent_loop_sim serve a2a --port 0 --recorded-url"
#: ``serve mcp`` over Streamable HTTP, for the scenario files that say ``"transport": "http"``.
MCP_HTTP_PEER = f"{shlex.quote(sys.executable)} -m agent_loop_sim serve mcp --http --port 0"
#: ``serve mcp``'s arguments, for the stdio recorder (``scripts/record_sdk.py``) to serve each
#: session by a fork of one process that runs them, as it serves the SDK's server (`MCP_PEER`'s
#: command, minus an interpreter's start per session).
SIMULATED_MCP_VARIABLE = "AGENT_LOOP_SIM_MCP_SERVE"
#: The environment variable each recorder reads to start another peer instead of the SDK's.
PEER_VARIABLES = {"mcp": "AGENT_LOOP_SIM_MCP_SERVER", "a2a": "AGENT_LOOP_SIM_A2A_PEER"}
#: ... and the HTTP recorder's (``scripts/record_mcp_http.py``).
HTTP_PEER_VARIABLES = {"mcp": "AGENT_LOOP_SIM_MCP_HTTP_PEER"}
FORK_SERVER = Path("scripts") / "mcp_fork_server.py"


#: The environment variable naming the world file the SDK's server (``conformance/sdk_server.py``)
#: and ``serve mcp`` are built from; unset, the fixture's.
WORLD_VARIABLE = "AGENT_LOOP_SIM_WORLD"


def world_environment(world: str | None, env: dict[str, str] | None = None) -> dict[str, str]:
    """``env`` (by default this process's) with the peer built from ``world`` (the fixture's if None)."""
    out = dict(os.environ if env is None else env)
    out.pop(WORLD_VARIABLE, None)
    if world is not None:
        out[WORLD_VARIABLE] = str(Path(world).resolve())
    return out


def peer_environment(family: str, command: str, transport: str = "stdio") -> dict[str, str]:
    """The recorder's environment with ``command`` as the peer it records against."""
    return {**os.environ, (HTTP_PEER_VARIABLES if transport == "http" else PEER_VARIABLES)[family]: command}


@dataclass
class _Connection:
    """One stdio connection to a fresh SDK fixture server (a fork of ``mcp_fork_server.py``)."""

    sock: socket.socket
    buffer: bytes = b""

    def send(self, message: dict) -> str:
        line = json.dumps(message, separators=(",", ":"), ensure_ascii=False)
        self.sock.sendall(line.encode("utf-8") + b"\n")
        return line

    def read_line(self) -> str | None:
        while b"\n" not in self.buffer:
            chunk = self.sock.recv(65536)
            if not chunk:
                return None
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return line.decode("utf-8")


def drive_sdk_server(session: Session, socket_path: str, timeout: float) -> Transcript:
    """Play ``session`` with the engine's client model against the SDK's fixture server.

    Each message is logged as it crosses, as the recorder's tee logs lines. The client is done
    when it has nothing to send after the answer to its last request; then its side closes and
    whatever the server still writes before it exits belongs to the session too."""
    client = client_for(session.spec)
    log: list[Message] = []
    with tempfile.TemporaryDirectory(prefix="swap-mcp-") as tmp, \
            socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        # A socket's timeout bounds each read and write, not the session: a session fails when
        # nothing has crossed for ``timeout`` seconds, never for being slow in all.
        sock.settimeout(timeout)
        sock.connect(socket_path)
        sock.sendall(json.dumps({"stderr": str(Path(tmp) / "stderr")}).encode() + b"\n")
        wire = _Connection(sock)
        awaited = None

        def send_all(messages: list[dict]) -> None:
            nonlocal awaited
            for message in messages:
                log.append(Message.from_line("client", "server", wire.send(message)))
                if "method" in message and "id" in message:
                    awaited = message["id"]

        try:
            send_all(client.start())
            while awaited is not None:
                # The client's read timeout, for real: the engine's client times out when nothing
                # more comes, and a server that never answers says so only by its silence.
                patience = client.pending_timeout()
                sock.settimeout(timeout if patience is None else patience)
                try:
                    line = wire.read_line()
                except (TimeoutError, socket.timeout):
                    if patience is None:
                        raise
                    send_all(client.time_out())
                    if client.finished:
                        awaited = None
                    continue
                sock.settimeout(timeout)
                if line is None:
                    raise RecorderError(f"session {session.name!r}: the SDK server closed the connection")
                log.append(Message.from_line("server", "client", line))
                message = log[-1].json
                answered = isinstance(message, dict) and "method" not in message and message.get("id") == awaited
                sent = client.receive(message)
                send_all(sent)
                if answered and not sent or client.finished:
                    awaited = None  # the client's program has ended (a listen, its last act, left)
            sock.shutdown(socket.SHUT_WR)
            while (line := wire.read_line()) is not None:
                log.append(Message.from_line("server", "client", line))
        except (TimeoutError, socket.timeout):
            raise RecorderError(f"session {session.name!r}: nothing crossed for {timeout:g} s "
                                "(the SDK server hung)") from None
    return Transcript(session.name, session.mode, session.title, normalise_mcp(log))


@contextmanager
def sdk_fixture_servers(root: Path, world: str | None = None) -> Iterator[str]:
    """The SDK's fixture server, forked fresh for each connection to the socket yielded."""
    with tempfile.TemporaryDirectory(prefix="swap-fork-") as tmp:
        path = str(Path(tmp) / "server.sock")
        # A process of its own, not a fork of this one: the engine's client runs here, and only
        # scripts/ may import an SDK. In a session of its own, so that a terminal's Ctrl-C reaches
        # only the CLI, which ends it below (its servers end with it: `die_with_parent`).
        process = subprocess.Popen([sys.executable, str(root / FORK_SERVER), path], stdout=subprocess.PIPE,
                                   cwd=root, start_new_session=True, env=world_environment(world))
        try:
            assert process.stdout is not None
            if process.stdout.readline().strip() != b"ready":
                raise RecorderError("the SDK fixture server did not start")
            yield path
        finally:
            process.terminate()
            process.wait()


def drive_all(root: Path, sessions: list[Session], timeout: float, jobs: int,
              world: str | None = None) -> list[Transcript]:
    """Every client session of ``sessions`` played by the engine's client against the SDK's server
    (built from ``world``, the fixture's by default)."""
    played = [s for s in sessions if s.mode != "raw"]
    with sdk_fixture_servers(root, world) as path, ThreadPoolExecutor(max(1, jobs)) as pool:
        return list(pool.map(lambda s: drive_sdk_server(s, path, timeout), played))
