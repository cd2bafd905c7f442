"""``python -m agent_loop_sim VERB``: the engine, the check and the live recording from the shell.

    run SCENARIOS [--session NAME] [--release V]   the engine's transcripts, as JSON
    check [SCENARIOS ...] [--release V]            engine = committed recordings?  (exit 1 on any difference)
    record [--check] [SCENARIOS ...] [--release V] record the SDKs live; --check compares instead of writing

``--release`` names one SDK release of the family (e.g. ``1.3.0`` of a2a-sdk); ``run`` speaks the
pinned release by default, ``check`` and ``record`` cover every release the model speaks.
    site OUTDIR                      the conformance pages as Markdown, without MkDocs
    export --format jsonl|har --session NAME [--output F]   a committed session as JSON Lines / HAR
    export --format junit [SCENARIOS ...] [--output F]       the check as JUnit XML (exit 1 on a failure;
                                                             2, and no file, for an unreadable recording)
    serve mcp | serve a2a [--port N] a simulated peer: MCP over stdio, A2A over HTTP
    record --against engine --check  the swap test: the simulated peers where the SDK's stood

Bad input is reported as one paragraph naming the file, session, message and JSON path, with
exit status 2; a difference or a failed recording exits 1. A reader of standard output that goes
away (``run ... | head``) ends the command quietly with 141, as SIGPIPE ends other commands.
"""
from __future__ import annotations

import argparse
import errno
import json
import math
import os
import select
import shlex
import signal
import sys
from pathlib import Path
from concurrent.futures import ThreadPoolExecutor
from typing import TextIO

from . import engine, swap
from .check import RecordingResult, Report, build_report, every_release, live_differences, release_report
from .errors import EngineFailure, InputError, RecorderError, one_line, printable
from .jsonio import check_output, remove_stale_temps, write_output
from .limits import LIMITS, at_least_one
from .project import Project
from .protocols import FAMILIES
from .recording import Recording, load_recording
from .scenarios import ScenarioFile
from .transcript import Transcript
from .staging import write_tree
from .as_sent import FOLDER, encode_sidecar, read_sidecar, sidecar_path
from .live import Planned, record_many
from .live import release_label as _label
from .serve import add_arguments as add_serve_arguments
from .serve import run as run_peer
from .verify import verify as verify_world

EXIT_DIFFERENT, EXIT_BAD_INPUT = 1, 2
#: Recorder processes at once: a recorder mostly waits on its servers, so more of them than cores.
RECORDERS = 2 * (os.cpu_count() or 1)
EXIT_READER_GONE = 128 + signal.SIGPIPE  # 141, as the shell reports a command SIGPIPE ended


def _print_differences(title: str, lines: list[str], limit: int = 50) -> None:
    print(title)
    for line in lines[:limit]:
        print("  " + line)
    if len(lines) > limit:
        print(f"  ... and {len(lines) - limit} more")


def _standard_output() -> TextIO:
    """Standard output, for a command whose result goes there; refused when it is closed (``>&-``)."""
    if sys.stdout is None:
        raise InputError("standard output is closed (>&-): there is nowhere to write the result")
    return sys.stdout


def cmd_run(project: Project, args: argparse.Namespace) -> int:
    out_stream = _standard_output()
    (file,) = project.scenario_files([args.scenarios])
    chosen = [file.session(args.session)] if args.session else list(file.sessions)
    out = [engine.run_session(s, release=args.release).to_dict() for s in chosen]
    json.dump(out[0] if args.session else out, out_stream, indent=2, ensure_ascii=False)
    print()
    return 0


def _releases(project: Project, files: list[ScenarioFile], chosen: str | None) -> list[tuple[str, str] | None]:
    """What to compare: ``None`` (each family's pinned release) and every other release of the
    families of ``files``; only the release ``--release`` names, when it names one."""
    every = every_release(project, files)
    if chosen is None:
        return every
    for family in sorted({f.family for f in files}):
        releases = FAMILIES[family].releases
        if releases is not None and chosen == releases.pinned:
            return [None]
    picked = [r for r in every if r is not None and r[1] == chosen]
    if not picked:
        raise InputError(f"--release {chosen!r}: no family of these scenario files has that SDK release")
    return picked


def _differences_title(file: RecordingResult, count: int, label: str) -> str:
    """The line above a file's differences: the key-order verdict is told apart from the values'."""
    order = sum(len(s.key_order) for s in file.sessions)
    if order == count:
        return (f"KEY ORDER {file.recording_file}: engine{label} = committed recording as JSON, but the keys "
                f"of {order} object(s) are in another order")
    title = f"DIFFERENT {file.recording_file}: {count - order} difference(s) between the committed recording and the engine{label}"
    return title + (f"; key order: differs in {order} object(s)" if order else "")


def _refuse_unreadable(report: Report) -> None:
    """A recording that cannot be read is bad input (one line, exit 2), not a difference."""
    unreadable = next((f.unreadable for f in report.files if f.unreadable is not None), None)
    if unreadable is not None:
        raise unreadable


def cmd_check(project: Project, args: argparse.Namespace) -> int:
    files = project.scenario_files(args.scenarios)
    failed = 0
    for release in _releases(project, files, args.release):
        report = release_report(project, files, release)
        _refuse_unreadable(report)
        for file in report.files:  # each recording's wire lines read too (bad ones: one line, exit 2)
            if (project.root / file.recording_file).is_file():  # (a missing recording is said below)
                _sidecar_aligned(project, project.root / file.recording_file, file.recording)
        for file in report.files:
            problems = [line for s in file.sessions for line in s.problems()] or ([file.error] if file.error else [])
            if problems:
                failed += 1
                _print_differences(_differences_title(file, len(problems), _label(release)), problems)
            else:
                print(f"same {file.recording_file}: engine{_label(release)} = committed recording "
                      f"({len(file.sessions)} sessions, {file.message_count} messages; key order: same)")
    return EXIT_DIFFERENT if failed else 0


def _same_as_committed(project: Project, file: ScenarioFile, live: Recording, what: str,
                       only_played: bool = False, release: str | None = None) -> bool:
    """Compare a recording of ``file`` (by ``release``) with the committed one; print ``same`` or
    every difference. ``only_played``: only the sessions ``live`` has (the others had nothing to play)."""
    where = project.relative(project.recording_path(file, release))
    committed = load_recording(str(project.recording_path(file, release)))
    if only_played:
        played = {t.name for t in live.sessions}
        committed.sessions = [t for t in committed.sessions if t.name in played]
    diffs = live_differences(committed, live)
    if diffs:
        _print_differences(f"DIFFERENT {where}: {what} no longer says what was committed",
                           [d.render("committed", "live") for d in diffs])
        return False
    print(f"same {where}: {what} = committed recording ({len(live.sessions)} sessions, {live.message_count} messages)")
    return True


def cmd_record_against_engine(project: Project, args: argparse.Namespace) -> int:
    """The swap test (:mod:`.swap`): the simulated peers where the SDK's stood, and the engine's
    MCP client where the SDK's stood. It compares only; nothing is written."""
    peers = {"mcp": args.mcp_peer, "a2a": args.a2a_peer}
    files = project.scenario_files(args.scenarios)
    plan, shown_as = [], []
    for file in files:
        command = peers[file.family]
        if file.transport == "http" and command == swap.MCP_PEER:
            command = swap.MCP_HTTP_PEER  # (the same peer, over the file's transport)
        shown = {swap.MCP_PEER: "serve mcp", swap.A2A_PEER: "serve a2a",
                 swap.MCP_HTTP_PEER: "serve mcp --http"}.get(command, command)
        if file.harness is not None and command == swap.A2A_PEER:  # the simulated agent, run as the file's SDK was
            command += f" --harness {file.harness}"
            shown += f" --harness {file.harness}"
        world = ""
        if file.world is not None and shown.startswith(("serve mcp", "serve a2a")):
            # (named on its command line: the SDK's stdio client starts a server with a bare environment)
            world = f" --world {shlex.quote(str(Path(file.world).resolve()))}"
            shown += f" --world {project.relative(file.world)}"
        if command == swap.MCP_PEER:  # the simulated server, forked per session as the SDK's is
            env = {**os.environ, swap.SIMULATED_MCP_VARIABLE: "serve mcp" + world}
        else:
            env = swap.peer_environment(file.family, command + world, file.transport)
        plan.append(Planned(file, env=env))
        shown_as.append(shown)

    def drive(file: ScenarioFile) -> list[Transcript]:
        """The other direction: the engine's client against the SDK's fixture server."""
        if file.transport == "http":
            from .swap_http import drive_all_http

            return drive_all_http(project.root, list(file.sessions), args.timeout, file.world, args.jobs)
        return swap.drive_all(project.root, list(file.sessions), args.timeout, args.jobs, file.world)

    # Both directions at once: each waits on its peers' processes more than it computes.
    with ThreadPoolExecutor(args.recorders) as pool:
        driven = [pool.submit(drive, file) if file.family == "mcp" else None for file in files]
        lives = record_many(project, plan, args.timeout, args.jobs, args.recorders)
        drives = [future and future.result() for future in driven]
    results = []
    for file, shown, (live, _), transcripts in zip(files, shown_as, lives, drives):
        client = {"mcp": "the SDK's client", "a2a": "the recorder's orchestrator over HTTP"}[file.family]
        results.append(_same_as_committed(project, file, live, f"{client} against `{shown}`"))
        if transcripts is not None:
            over = " over HTTP" if file.transport == "http" else ""
            recording = Recording(live.family, live.sdk, live.transport if over else "stdio", live.scenarios,
                                  transcripts)
            results.append(_same_as_committed(project, file, recording,
                                              f"the engine's client against the SDK's fixture server{over}",
                                              only_played=True))
    return 0 if all(results) else EXIT_DIFFERENT


def cmd_record(project: Project, args: argparse.Namespace) -> int:
    if args.against == "engine":
        if not args.check:
            raise InputError("record --against engine compares only: add --check")
        return cmd_record_against_engine(project, args)
    files = project.scenario_files(args.scenarios)
    plan = [(file, release[1] if release else None) for release in _releases(project, files, args.release)
            for file in files if release is None or file.family == release[0]]
    if not args.check:  # a recording's path taken by a folder (or a FIFO...) is refused before recording
        for file, release in plan:
            check_output(project.recording_path(file, release))
            check_output(sidecar_path(project.recording_dir, project.recording_path(file, release)))
    else:  # the committed wire lines must be there, each aligned with its recording (first: recording takes minutes)
        for file, release in plan:
            _sidecar_aligned(project, project.recording_path(file, release))
    recorded = record_many(project, [Planned(f, r) for f, r in plan], args.timeout, args.jobs,
                           args.recorders)  # all, before any write
    if args.check:
        # The normal form only: the wire lines hold the run's own ids and times.
        same = [_same_as_committed(project, file, recording, "the live SDK", release=release)
                for (file, release), (recording, _) in zip(plan, recorded)]
        print(f"aligned {project.relative(project.recording_dir / FOLDER)}/: the wire lines beside each of these "
              f"{len(plan)} recording(s), a message as sent for each message")
        return 0 if all(same) else EXIT_DIFFERENT
    remove_stale_temps(project.recording_dir)
    # All or none: a second recording that cannot be written (no space) leaves the first as it was;
    # each with its wire lines (`as_sent`), at the same path under recordings/raw/.
    files = {}
    for (file, release), (recording, wire) in zip(plan, recorded):
        path = project.recording_path(file, release)
        files[str(path.relative_to(project.recording_dir))] = recording.dumps()
        files[str(sidecar_path(project.recording_dir, path).relative_to(project.recording_dir))] = \
            encode_sidecar(project.relative(path), wire)
    write_tree(project.recording_dir, files, durable=True)
    for (file, release), (recording, _) in zip(plan, recorded):
        path = project.recording_path(file, release)
        print(f"wrote {project.relative(path)} and {project.relative(sidecar_path(project.recording_dir, path))}: "
              f"{len(recording.sessions)} sessions, {recording.message_count} messages")
    return 0


def _sidecar_aligned(project: Project, path: Path, recording: Recording | None = None) -> None:
    """The committed sidecar of the recording at ``path`` reads, and is aligned with it (`as_sent`);
    raises `InputError` (one line, exit 2) naming the file, session, message and JSON path."""
    read_sidecar(sidecar_path(project.recording_dir, path), recording or load_recording(str(path)))


def cmd_site(project: Project, args: argparse.Namespace) -> int:
    from .site.build import SiteRefused, build_pages  # the site needs nothing the other verbs need

    try:
        build_pages(project, Path(args.outdir))
    except SiteRefused as refused:
        return refused.code
    return 0


def cmd_export(project: Project, args: argparse.Namespace) -> int:
    """A committed session as JSON Lines or HAR, or the check's report as JUnit XML."""
    from . import __version__, exports

    if args.output:  # before the work: an output that will be refused is refused at once
        project.refuse_inputs(args.output)
        check_output(args.output)
    else:
        _standard_output()
    files = project.scenario_files(args.scenarios)
    status = 0
    if args.format == "junit":
        report = build_report(project, files=files)
        _refuse_unreadable(report)
        out = exports.report_junit(report)
        status = 0 if report.ok else EXIT_DIFFERENT
    else:
        if not args.session:
            raise InputError(f"export --format {args.format} needs --session NAME")
        file = next((f for f in files if any(s.name == args.session for s in f.sessions)), None)
        if file is None:
            raise InputError(f"no scenario file has a session named {args.session!r}")
        if args.format == "har" and file.family != "a2a":
            raise InputError(f"session {args.session!r} is {file.family}, not carried over HTTP: HAR is for A2A sessions")
        transcript = load_recording(str(project.recording_path(file))).session(args.session)
        if transcript is None:
            raise InputError(f"session {args.session!r} is not in {project.relative(project.recording_path(file))}")
        if args.format == "jsonl":
            out = exports.transcript_jsonl(transcript)
        else:
            from .protocols.a2a import RESEARCH_CARD  # the agent the A2A recordings speak to (paths only)

            out = exports.transcript_har(transcript, RESEARCH_CARD.base_url, __version__)
    if args.output:
        write_output(args.output, out)
    else:
        sys.stdout.write(out)
    return status


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (value > 0 and math.isfinite(value)):
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds above 0")
    return value


def _command(text: str) -> str:
    """A peer command: not blank (the recorders read an empty one as none, and would record the
    SDK's own peer, so that the swap test compared it with itself)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("an empty command: name the peer to record against")
    return text


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line (the usage is in --help), exit 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        print(printable(f"error: {self.prog}: {message} (see --help)"), file=sys.stderr)
        raise SystemExit(EXIT_BAD_INPUT)


#: A write to standard output (or another output) that fails for want of room: ``run ... >
#: /dev/full``. One line, exit 2, as for an ``--output`` that cannot be written.
_OUTPUT_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG})


def _stdout_broken() -> bool:
    """Whether standard output is a pipe or socket whose reader has gone (poll says so: POLLERR or
    POLLHUP on its writing end). A BrokenPipeError from anything else, a socket to a recorder's
    server that died, is not a reader gone and is not ended quietly."""
    try:
        poller = select.poll()
        poller.register(sys.stdout.fileno(), select.POLLOUT)
        return any(events & (select.POLLERR | select.POLLHUP) for _, events in poller.poll(0))
    except (AttributeError, OSError, ValueError):  # (no standard output, or not a file descriptor)
        return False


def _reader_gone() -> int:
    """Standard output's reader has gone (``run ... | head -1``): end quietly, as a command that
    SIGPIPE ends does (exit 141), not with a traceback. Standard output is pointed at /dev/null
    first, so that Python's flush at exit has nowhere left to fail."""
    if sys.stdout is not None:
        devnull = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(devnull, sys.stdout.fileno())
        finally:
            os.close(devnull)
    return EXIT_READER_GONE


class Terminated(Exception):
    """SIGTERM arrived: unwind (so the recorders' group is ended and temp folders go), then exit 143."""


def _on_sigterm(signum: int, frame: object) -> None:
    raise Terminated()


def main(argv: list[str] | None = None) -> int:
    parser = _Parser(prog="python -m agent_loop_sim",
                     description="The engine, the check and the live recording, from the shell.",
                     epilog="Limits (" + ", ".join(limit.flag for limit in LIMITS) + ", or their environment "
                            "variables): a scenario or recording file over one is refused with one line naming "
                            "the limit and how to raise it.")
    parser.add_argument("--root", default=".", help="the checkout (default: the current folder)")
    for limit in LIMITS:
        parser.add_argument(limit.flag, type=at_least_one, metavar="N", help=limit.help())
    verbs = parser.add_subparsers(dest="verb", required=True, parser_class=_Parser)
    run = verbs.add_parser("run", help="print the engine's transcripts as JSON")
    run.add_argument("scenarios")
    run.add_argument("--session")
    run.add_argument("--release", help="the SDK release the model speaks (default: the pinned one)")
    check = verbs.add_parser("check", help="compare the engine with the committed recordings")
    check.add_argument("scenarios", nargs="*")
    check.add_argument("--release", help="only this SDK release (default: every release the model speaks)")
    record = verbs.add_parser("record", help="record the official SDKs live")
    record.add_argument("scenarios", nargs="*")
    record.add_argument("--check", action="store_true", help="compare with the committed files, write nothing")
    record.add_argument("--release", help="only this SDK release (default: every release the model speaks)")
    record.add_argument("--timeout", type=_seconds, default=20.0, help="seconds a session may go without a message (above 0)")
    record.add_argument("--jobs", type=at_least_one, default=4, help="sessions a recorder process plays at once (at least 1)")
    record.add_argument("--recorders", type=at_least_one, default=RECORDERS,
                        help=f"recorder processes at once (at least 1; default {RECORDERS})")
    record.add_argument("--against", choices=("sdk", "engine"), default="sdk",
                        help="engine: the swap test, the simulated peers and the engine's MCP client in the SDK's "
                             "place (with --check)")
    record.add_argument("--mcp-peer", default=swap.MCP_PEER, type=_command,
                        help="with --against engine: the MCP server command")
    record.add_argument("--a2a-peer", default=swap.A2A_PEER, type=_command,
                        help="with --against engine: the A2A peer command (prints its URL on its first line)")
    site = verbs.add_parser("site", help="write the conformance pages (Markdown) to OUTDIR")
    site.add_argument("outdir")
    export = verbs.add_parser("export", help="a committed session as JSON Lines or HAR; the check as JUnit XML")
    export.add_argument("scenarios", nargs="*")
    export.add_argument("--format", choices=("jsonl", "har", "junit"), required=True)
    export.add_argument("--session", help="the session to export (jsonl, har)")
    export.add_argument("--output", help="the file to write (default: standard output)")
    serve = verbs.add_parser("serve", help="serve a simulated peer (MCP over stdio, A2A over HTTP)")
    add_serve_arguments(serve)
    verify = verbs.add_parser("verify", help="prove the engine on a world file: the SDK's server built from it, "
                                             "recorded live, against the engine")
    verify.add_argument("world", help="an MCP world file (see the World files page)")
    verify.add_argument("scenarios", nargs="*", help="scenario files to play (default: a tour made from the world)")
    verify.add_argument("--timeout", type=_seconds, default=20.0, help="seconds a session may go without a message (above 0)")
    verify.add_argument("--jobs", type=at_least_one, default=4, help="sessions recorded at once (at least 1)")
    args = parser.parse_args(argv)
    for limit in LIMITS:  # in the environment, so that the recorders (other processes) obey them too
        value = getattr(args, limit.flag[2:].replace("-", "_"))
        if value is not None:
            os.environ[limit.env] = str(value)
    project = Project(Path(args.root))
    verb = {"run": cmd_run, "check": cmd_check, "record": cmd_record, "site": cmd_site, "export": cmd_export,
            "serve": lambda _, args: run_peer(args),
            "verify": lambda project, args: verify_world(project, args.world, args.scenarios, args.timeout, args.jobs),
            }[args.verb]
    previous = signal.signal(signal.SIGTERM, _on_sigterm)
    try:
        status = verb(project, args)
        if sys.stdout is not None:  # (None: started with standard output closed, `>&-`)
            sys.stdout.flush()  # here, so that a reader gone by now is caught below, not at exit
        return status
    except BrokenPipeError:
        if not _stdout_broken():
            raise
        return _reader_gone()
    except OSError as exc:
        if exc.filename is not None or exc.errno not in _OUTPUT_ERRNOS:
            raise
        _reader_gone()  # (standard output, if it was that, has nowhere left to fail at exit)
        print(f"error: {args.verb}: the output cannot be written ({exc.strerror})", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:  # Ctrl-C; a CLI started with SIGINT ignored (`cmd &` in a script) keeps it ignored
        print(f"interrupted: {args.verb} stopped; nothing was half-written", file=sys.stderr)
        return 130
    except Terminated:
        print(f"terminated: {args.verb} stopped; nothing was half-written", file=sys.stderr)
        return 143
    except InputError as exc:
        print(f"error: {one_line(str(exc))}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except RecorderError as exc:
        print(f"recording failed: {one_line(str(exc))}", file=sys.stderr)
        return EXIT_DIFFERENT
    except EngineFailure as exc:
        print(f"engine failed: {one_line(str(exc))}", file=sys.stderr)
        return EXIT_DIFFERENT
    finally:
        signal.signal(signal.SIGTERM, previous)

