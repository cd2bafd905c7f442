"""What the site's in-browser pages ask of the engine, which runs there under Pyodide.

The same package as on the command line, unchanged: the check page calls :func:`check_project`
(the CLI's own ``check``: load the scenarios, play them, read the recordings, compare), the
playground calls :func:`play_file` (load a scenario file, play each session, and note the
model's state after each message). Both take files from the browser's in-memory file system,
written there by the page's worker, and answer with JSON text, so the worker hands the page
plain data. Every failure is the CLI's own line (``error: ...``), never a traceback.
"""
from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from . import engine
from .check import every_release, release_report
from .errors import EngineFailure, InputError
from .project import Project
from .protocols import FAMILIES
from .scenarios import Session, load
from .site.parts.markdown import pretty_json
from .site.pages.conformance import summaries
from .transcript import Message, Transcript



def _failure(exc: Exception) -> str:
    """The line the command line prints for this failure (see ``cli.main``)."""
    return f"error: {exc}" if isinstance(exc, InputError) else f"engine failed: {exc}"


def check_project(root: str) -> str:
    """``python -m agent_loop_sim check`` for the checkout at ``root`` (the one checker,
    :func:`agent_loop_sim.check.build_report`), as a verdict in JSON: as the CLI does, every
    SDK release the engine speaks, each against its own recordings.

    ``sessions``: how many were compared; ``equal``: how many the engine plays exactly as
    recorded; ``releases``: the same per SDK release (the pinned ones first: the count of the
    site's home page); ``first``: the first problem, in the CLI's words; ``files``: each
    recording, with the SDK release that made it.
    """
    started = time.perf_counter()
    project = Project(Path(root))
    try:
        files = project.scenario_files()
    except InputError as exc:
        return json.dumps({"sessions": 0, "equal": 0, "messages": 0, "differences": 1, "first": _failure(exc),
                           "files": [], "seconds": time.perf_counter() - started, "ok": False}, ensure_ascii=False)
    reports = [release_report(project, files, release) for release in every_release(project, files)]
    problems = [line for report in reports for line in report.problems]
    results = [f for report in reports for f in report.files]
    sessions = [s for report in reports for s in report.sessions]
    shown = [{"recording": f.recording_file, "sdk": " ".join(f.sdk.values()), "sessions": len(f.sessions),
              "equal": sum(1 for s in f.sessions if s.passed),
              "differences": sum(len(s.problems()) for s in f.sessions) + (f.error is not None)} for f in results]
    # What the total counts, release by release: the pinned releases' sessions are what the
    # site's home page counts; each other release adds its own recordings' sessions.
    releases = [{"sdk": ", ".join(dict.fromkeys(" ".join(f.sdk.values()) for f in report.files)),
                 "pinned": release is None, "sessions": len(report.sessions),
                 "equal": sum(1 for s in report.sessions if s.passed)}
                for release, report in zip(every_release(project, files), reports)]
    return json.dumps({"sessions": len(sessions), "equal": sum(1 for s in sessions if s.passed), "releases": releases,
                       "messages": sum(r.message_count for r in reports), "differences": len(problems),
                       "first": problems[0] if problems else None, "files": shown,
                       "seconds": time.perf_counter() - started, "ok": not problems and bool(sessions)},
                      ensure_ascii=False)


def engine_seconds(root: str) -> float:
    """The engine alone on every committed session (no file reading, no comparison): the
    benchmark runs this natively and in the browser."""
    sessions = [s for f in Project(Path(root)).scenario_files() for s in f.sessions]
    started = time.perf_counter()
    for session in sessions:
        engine.run_session(session)
    return time.perf_counter() - started


def play_with_states(session: Session, release: str | None = None) -> tuple[Transcript, list[Any]]:
    """The session's transcript, and for each message the model's state once it was handled
    (``None`` before the first). The states are normalised together with the messages, so an
    A2A task is called ``<id-N>`` in both."""
    snapshots: list[tuple[int, dict[str, Any]]] = []
    messages = engine.play(session, release, observe=lambda logged, state: snapshots.append((logged, state)))
    family = FAMILIES[session.family]
    driver, peer = family.parties  # the state reported is the peer's: the MCP server, the A2A agent
    as_messages = [Message(peer, driver, json=state) for _, state in snapshots]
    normalised = family.normalise(messages + as_messages)
    transcript = Transcript(session.name, session.mode, session.title, normalised[: len(messages)])
    states: list[Any] = []
    pending = list(zip((n for n, _ in snapshots), (m.json for m in normalised[len(messages):])))
    current = None
    for n in range(1, len(messages) + 1):
        while pending and pending[0][0] <= n:
            current = pending.pop(0)[1]
        states.append(current)
    return transcript, states


def play_file(path: str, release: str = "", shown_as: str = "") -> str:
    """``python -m agent_loop_sim run PATH [--release RELEASE]``, plus the model's state at each
    message, as JSON (``release`` empty: each family's pinned release). ``shown_as``: what the
    reader calls the file (the playground's editor: the file the worker writes is none it saw),
    put in its place in an error's line; the rest of the line is the command line's."""
    try:
        played = [(s.family, *play_with_states(s, release or None)) for s in load(path).sessions]
    except (InputError, EngineFailure) as exc:
        said = _failure(exc)
        if shown_as and said.startswith(f"error: {path}"):
            said = f"error: {shown_as}{said[len('error: ') + len(path):]}"
        return json.dumps({"error": said}, ensure_ascii=False)
    sessions = []
    for family, transcript, states in played:
        data = {"family": family, "party": FAMILIES[family].parties[1], **transcript.to_dict()}
        for message, state, shown, summary in zip(data["messages"], states, transcript.messages, summaries(transcript)):
            # As the session pages show it: the same words and the same pretty JSON (JSON.parse
            # in the page would turn 1.0 into 1 and move keys like "2" first).
            message.update(state=state, summary=summary, text=shown.raw if shown.is_raw else pretty_json(shown.json))
        sessions.append(data)
    return json.dumps({"sessions": sessions}, ensure_ascii=False)
