"""The command line every live recorder in ``scripts/`` shares (no SDK is imported here).

    python scripts/record_<family>.py SCENARIOS [--session NAME ...] [--timeout S] [--jobs N]

On success the recorder prints ``{"sdk": {...}, "transport": ..., "sessions": [...]}`` on
stdout and exits 0; on any failure it prints one line naming the session on stderr, prints
nothing on stdout, and exits 1. ``python -m agent_loop_sim record`` reads that output.
"""
from __future__ import annotations

import argparse
import importlib.metadata
import json
import sys
from typing import Any, Callable, Sequence

from agent_loop_sim import scenarios
from agent_loop_sim.errors import InputError, RecorderError, one_line
from agent_loop_sim.processes import on_owner_gone

Record = Callable[[list[scenarios.Session], float, int], Sequence[Any]]


def innermost(exc: BaseException) -> BaseException:
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    return exc


def recorder_main(*, prog: str, family: str, package: str, transport: str | Callable[[scenarios.ScenarioFile], str],
                  record: Record, description: str,
                  argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument("scenarios")
    parser.add_argument("--session", action="append", default=[], help="only this session (repeatable)")
    parser.add_argument("--timeout", type=float, default=20.0, help="seconds a session may go without a message")
    parser.add_argument("--jobs", type=int, default=4, help="sessions recorded at once")
    args = parser.parse_args(argv)
    if args.jobs < 1 or not args.timeout > 0:
        print(f"{prog}: --jobs is at least 1 and --timeout more than 0", file=sys.stderr)
        return 2
    on_owner_gone()
    try:
        file = scenarios.load(args.scenarios)
        chosen = [file.session(n) for n in args.session] if args.session else list(file.sessions)
        wrong = [s.name for s in chosen if s.family != family]
        if wrong:
            raise InputError(f"not {family} sessions: {', '.join(wrong)}", file=file.path)
        transcripts = record(chosen, args.timeout, args.jobs)
    except (InputError, RecorderError) as exc:
        print(f"{prog}: {one_line(str(exc))}", file=sys.stderr)
        return 1
    except BaseExceptionGroup as group:  # anyio wraps a task's failure
        print(f"{prog}: {one_line(str(innermost(group)))}", file=sys.stderr)
        return 1
    if callable(transport):  # the transport may depend on the harness the file names
        transport = transport(file)
    out = {"sdk": {"package": package, "version": importlib.metadata.version(package)}, "transport": transport,
           "sessions": [t if isinstance(t, dict) else t.to_dict() for t in transcripts]}
    json.dump(out, sys.stdout, ensure_ascii=False)
    return 0


def as_captured(headers: Sequence[tuple[str, str]], names: Sequence[str]) -> list[list[str]]:
    """The headers of ``names`` (matched case-insensitively) as they crossed, for the wire lines
    kept beside a recording: each ``[name, value]`` as written on the wire, in the order sent.
    Only the headers a recording's envelope keeps: the others (``Date``, ``Host``, lengths) say
    nothing the comparison reads and would only grow the committed files."""
    wanted = {name.lower() for name in names}
    return [[name, value] for name, value in headers if name.lower() in wanted]


def raw_headers(headers: Any) -> list[tuple[str, str]]:
    """An httpx ``Headers``' pairs with their names as written (``multi_items`` lower-cases them)."""
    return [(k.decode("latin-1"), v.decode("latin-1")) for k, v in headers.raw]
