"""``python -m agent_loop_sim VERB``: the engine, the check and the live recording from the shell.

    run SCENARIOS [--session NAME]   the engine's transcripts, as JSON
    check [SCENARIOS ...]            engine = committed recordings?  (exit 1 on any difference)
    record [--check] [SCENARIOS ...] record the SDKs live; --check compares instead of writing
    site OUTDIR                      the conformance pages as Markdown, without MkDocs

Bad input is reported as one paragraph naming the file, session, message and JSON path, with
exit status 2; a difference or a failed recording exits 1.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

from . import engine
from .check import build_report, live_differences
from .errors import EngineFailure, InputError, RecorderError
from .jsonio import write_atomic
from .project import Project
from .protocols import FAMILIES
from .recording import Recording, load_recording, parse_recording
from .scenarios import ScenarioFile

EXIT_DIFFERENT, EXIT_BAD_INPUT = 1, 2


def _print_differences(title: str, lines: list[str], limit: int = 50) -> None:
    print(title)
    for line in lines[:limit]:
        print("  " + line)
    if len(lines) > limit:
        print(f"  ... and {len(lines) - limit} more")


def cmd_run(project: Project, args: argparse.Namespace) -> int:
    (file,) = project.scenario_files([args.scenarios])
    chosen = [file.session(args.session)] if args.session else list(file.sessions)
    out = [engine.run_session(s).to_dict() for s in chosen]
    json.dump(out[0] if args.session else out, sys.stdout, indent=2, ensure_ascii=False)
    print()
    return 0


def cmd_check(project: Project, args: argparse.Namespace) -> int:
    report = build_report(project, files=project.scenario_files(args.scenarios))
    unreadable = next((f.unreadable for f in report.files if f.unreadable is not None), None)
    if unreadable is not None:
        raise unreadable
    failed = 0
    for file in report.files:
        problems = [line for s in file.sessions for line in s.problems()] or ([file.error] if file.error else [])
        if problems:
            failed += 1
            _print_differences(f"DIFFERENT {file.recording_file}: {len(problems)} difference(s) between the "
                               "committed recording and the engine", problems)
        else:
            print(f"same {file.recording_file}: engine = committed recording "
                  f"({len(file.sessions)} sessions, {file.message_count} messages)")
    return EXIT_DIFFERENT if failed else 0


def record_live(project: Project, file: ScenarioFile, timeout: float, jobs: int) -> Recording:
    """Run the family's recorder script (the only code that imports an SDK) and read its output."""
    script = project.root / FAMILIES[file.family].recorder
    command = [sys.executable, str(script), file.path, "--timeout", str(timeout), "--jobs", str(jobs)]
    done = subprocess.run(command, capture_output=True, text=True, cwd=project.root)
    if done.returncode != 0:
        reason = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else f"exit {done.returncode}"
        raise RecorderError(f"{project.relative(file.path)}: {reason}")
    data = json.loads(done.stdout)
    data.update(family=file.family, scenarios=project.relative(file.path))
    ordered = {k: data[k] for k in ("family", "sdk", "transport", "scenarios", "sessions")}
    return parse_recording(ordered, f"live recording of {project.relative(file.path)}")


def cmd_record(project: Project, args: argparse.Namespace) -> int:
    files = project.scenario_files(args.scenarios)
    live = [record_live(project, f, args.timeout, args.jobs) for f in files]  # all, before any write
    if args.check:
        failed = 0
        for file, recording in zip(files, live):
            where = project.relative(project.recording_path(file))
            diffs = live_differences(load_recording(str(project.recording_path(file))), recording)
            if diffs:
                failed += 1
                _print_differences(f"DIFFERENT {where}: the live SDK no longer says what was committed",
                                   [d.render("committed", "live") for d in diffs])
            else:
                print(f"same {where}: live recording = committed recording ({recording.message_count} messages)")
        return EXIT_DIFFERENT if failed else 0
    for file, recording in zip(files, live):
        write_atomic(project.recording_path(file), recording.dumps())
        print(f"wrote {project.relative(project.recording_path(file))}: "
              f"{len(recording.sessions)} sessions, {recording.message_count} messages")
    return 0


def cmd_site(project: Project, args: argparse.Namespace) -> int:
    from .site.build import SiteRefused, build_pages  # the site needs nothing the other verbs need

    try:
        build_pages(project, Path(args.outdir))
    except SiteRefused as refused:
        return refused.code
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m agent_loop_sim",
                                     description="The engine, the check and the live recording, from the shell.")
    parser.add_argument("--root", default=".", help="the checkout (default: the current folder)")
    verbs = parser.add_subparsers(dest="verb", required=True)
    run = verbs.add_parser("run", help="print the engine's transcripts as JSON")
    run.add_argument("scenarios")
    run.add_argument("--session")
    check = verbs.add_parser("check", help="compare the engine with the committed recordings")
    check.add_argument("scenarios", nargs="*")
    record = verbs.add_parser("record", help="record the official SDKs live")
    record.add_argument("scenarios", nargs="*")
    record.add_argument("--check", action="store_true", help="compare with the committed files, write nothing")
    record.add_argument("--timeout", type=float, default=20.0, help="seconds per session")
    record.add_argument("--jobs", type=int, default=4, help="sessions recorded at once")
    site = verbs.add_parser("site", help="write the conformance pages (Markdown) to OUTDIR")
    site.add_argument("outdir")
    args = parser.parse_args(argv)
    project = Project(Path(args.root))
    verb = {"run": cmd_run, "check": cmd_check, "record": cmd_record, "site": cmd_site}[args.verb]
    try:
        return verb(project, args)
    except InputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except RecorderError as exc:
        print(f"recording failed: {exc}", file=sys.stderr)
        return EXIT_DIFFERENT
    except EngineFailure as exc:
        print(f"engine failed: {exc}", file=sys.stderr)
        return EXIT_DIFFERENT
