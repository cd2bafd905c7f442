"""``agent-loop-sim serve mcp``: the fixture server's model spoken over stdio, one line at a time.

The edge only: each line read from stdin goes to :class:`ServerConnection` and what it answers
is written to stdout, one JSON message a line, each on its own and flushed (the next message of
the same answer once the client has read the one before, see `_read_by_the_client`); at end of
file the connection is closed (open listen streams end with their error) and the process exits
0, as the SDK's stdio server does.
Lines are read the way the SDK's transport reads them: UTF-8 with undecodable bytes replaced
(so invalid UTF-8 is a line that is not JSON, dropped), universal newlines, and a last line
without its newline still counts as a line. Unlike the SDK's, a line is not read past the largest
file limit (`agent_loop_sim.limits.FILE_BYTES`, counted in characters): the rest of a longer one is
skipped unread, the line is dropped with one line on stderr, and the connection goes on (the
SDK's transport would hold all of it in memory: fed ``/dev/zero``, it grows until the machine
has none left).
"""
from __future__ import annotations

import io
import json
import os
import re
import stat
import sys
import time
from typing import Any, BinaryIO, Callable, Iterable

from ..errors import printable
from ..jsonio import SURROGATE_ESCAPE
from ..limits import FILE_BYTES
from ..protocols.mcp import FIXTURE_SERVER, ServerConnection, ServerDefinition, jsonrpc


def _write(out: io.TextIOWrapper, messages: Iterable[dict[str, Any]], read: Callable[[], None]) -> None:
    # One write per message, flushed, as the SDK's stdio server writes: a client reads them as
    # they come, and the TypeScript SDK's drops progress that arrives in one chunk with the result.
    for number, message in enumerate(messages):
        if number:
            read()
        out.write(json.dumps(message, separators=(",", ":"), ensure_ascii=False) + "\n")
        out.flush()


#: How long one message of an answer waits for the client to read the one before it.
READ_WAIT = 0.05


def _read_by_the_client(stdout: BinaryIO) -> Callable[[], None]:
    """What waits, before the next message of one answer is written, until the client has read
    what is in the pipe (at most `READ_WAIT` s; a client that does not read is not waited for).

    The SDK's server writes each message from a task of its own, a few hundred microseconds
    apart: a client reads them one at a time. The model has an answer's messages at once, and
    written back to back they arrive in one read (progress and result in one chunk: the
    TypeScript SDK's client then drops the progress). A pipe tells how much of it is unread
    (FIONREAD), and so does a Unix socket (SIOCOUTQ: what Node starts a child with as its "pipe")."""
    try:
        import fcntl
        import termios

        fd = stdout.fileno()
        mode = os.fstat(fd).st_mode
        request = termios.FIONREAD if stat.S_ISFIFO(mode) else termios.TIOCOUTQ if stat.S_ISSOCK(mode) else None
        unread = bytearray(4)
        if request is None or fcntl.ioctl(fd, request, unread) != 0:
            raise OSError
    except (ImportError, OSError, ValueError):  # (io.UnsupportedOperation is both) not told, or not Unix
        return lambda: None

    def wait() -> None:
        deadline = time.monotonic() + READ_WAIT
        while (fcntl.ioctl(fd, request, unread) == 0 and int.from_bytes(unread, sys.byteorder)
               and time.monotonic() < deadline):
            time.sleep(0.0001)

    return wait


#: What may make a line Python's parser takes one that the SDK's (pydantic-core) refuses as invalid
#: JSON: a JSON escape of a surrogate (the only way a lone one gets into a line read as UTF-8), or
#: a run of more than 4300 digits (pydantic-core: "number out of range"; Python: a ValueError).
_SDK_REFUSES_MAYBE = re.compile(SURROGATE_ESCAPE + r"|[0-9]{4301}")


def _refused_by_the_sdk(line: str) -> bool:
    """Whether ``line`` is JSON to Python's parser but not to the SDK's: it holds a lone surrogate
    (``"\\ud800"``, in a key or a string: "lone leading surrogate in hex escape") or an integer of
    more than 4300 digits. The SDK's transport drops such a line, as any that is not JSON, and so
    does this edge (the model would fail on the one, or answer the other with text that cannot be
    written as UTF-8)."""
    if _SDK_REFUSES_MAYBE.search(line) is None:
        return False
    try:
        json.dumps(json.loads(line), ensure_ascii=False).encode("utf-8")
    except json.JSONDecodeError:  # not JSON at all: the model drops it as such
        return False
    except (ValueError, RecursionError):  # UnicodeEncodeError, an integer of over 4300 digits
        return True
    return False


def _answer(connection: ServerConnection, line: str, number: int) -> list[dict[str, Any]]:
    """What the model answers to ``line``; a gap in the model is one line on stderr and, for a
    request, an internal error, so that one bad line never ends the connection."""
    if _refused_by_the_sdk(line):
        return []
    try:
        return connection.receive(line)
    except Exception as exc:  # noqa: BLE001 - the process must outlive any one line
        _say(f"line {number}: not modelled: {type(exc).__name__}: {exc}")
        try:
            message = jsonrpc.parse_line(line)
        except Exception:  # noqa: BLE001 - what failed above may fail here too: then no answer
            return []
        if isinstance(message, jsonrpc.Request):
            return [jsonrpc.error(message.id, jsonrpc.ProtocolError(jsonrpc.INTERNAL_ERROR, "Internal error"))]
        return []


def _say(text: str) -> None:
    if sys.stderr is not None:  # (started with `2>&-`: print would write to stdout, the client's stream)
        print(printable(f"agent-loop-sim serve mcp: {text}"), file=sys.stderr, flush=True)


def _lines(text: io.TextIOWrapper, limit: int) -> Iterable[tuple[int, str]]:
    """Each line of ``text`` with its number, but a line longer than ``limit`` characters: that
    one is read no further than the limit, the rest skipped, and it is said on stderr."""
    number = 0
    while line := text.readline(limit + 1):
        number += 1
        if len(line) <= limit or line.endswith("\n"):
            yield number, line
            continue
        while (rest := text.readline(1 << 16)) and not rest.endswith("\n"):
            pass
        _say(f"line {number}: longer than {limit:,} characters (the {FILE_BYTES.name} limit, taken for a "
             f"line): dropped (raise it with {FILE_BYTES.flag} N or {FILE_BYTES.env}=N)")


def serve(stdin: BinaryIO, stdout: BinaryIO, definition: ServerDefinition = FIXTURE_SERVER) -> int:
    """Serve one connection until end of file on ``stdin``; 0, or 0 too when the client has gone."""
    limit = FILE_BYTES.value()  # (before anything is read: a bad setting is the command's error)
    lines = io.TextIOWrapper(stdin, encoding="utf-8", errors="replace")
    out = io.TextIOWrapper(stdout, encoding="utf-8", write_through=True)
    connection = ServerConnection(definition)
    read = _read_by_the_client(stdout)
    try:
        for number, line in _lines(lines, limit):
            _write(out, _answer(connection, line, number), read)
        _write(out, connection.close(), read)
    except BrokenPipeError:
        pass  # the client closed its end of stdout: nobody is left to answer
    finally:
        lines.detach()
        try:
            out.detach()
        except (BrokenPipeError, ValueError):
            pass
    return 0


def main(definition: ServerDefinition | None = None) -> int:
    if sys.stdin is None or sys.stdout is None:  # started with `<&-` or `>&-`: no client to serve
        print("error: serve mcp: standard input and output are the client's connection, and one of them "
              "is closed", file=sys.stderr)
        return 2
    try:
        return serve(sys.stdin.buffer, sys.stdout.buffer, definition or FIXTURE_SERVER)
    except KeyboardInterrupt:
        return 0
