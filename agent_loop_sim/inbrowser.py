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
from .cli import engine_differences
from .errors import EngineFailure, InputError
from .normalise import NORMALISERS
from .project import Project
from .scenarios import Session, load
from .site.markdown import pretty_json
from .site.pages import summaries
from .transcript import Message, Transcript

PARTY_OF_STATE = {"mcp": "server", "a2a": "agent"}  # the model whose state is reported


def _failure(exc: Exception) -> str:
    """The line the command line prints for this failure (see ``cli.main``)."""
    return f"error: {exc}" if isinstance(exc, InputError) else f"engine failed: {exc}"


def check_project(root: str) -> str:
    """``python -m agent_loop_sim check`` for the checkout at ``root``, as a verdict in JSON.

    ``sessions``: how many the scenario files hold; ``equal``: how many of them the engine
    plays exactly as recorded; ``first``: the first difference, in the CLI's words.
    """
    project = Project(Path(root))
    out: dict[str, Any] = {"sessions": 0, "equal": 0, "messages": 0, "differences": 0, "first": None,
                           "files": [], "error": None}
    started = time.perf_counter()
    try:
        for file in project.scenario_files():
            committed, diffs = engine_differences(project, file)
            differing = {d.session for d in diffs}
            equal = sum(1 for s in file.sessions if s.name not in differing)
            out["sessions"] += len(file.sessions)
            out["equal"] += equal
            out["messages"] += committed.message_count
            out["differences"] += len(diffs)
            if diffs and out["first"] is None:
                out["first"] = f"{project.relative(project.recording_path(file))}: {diffs[0].render()}"
            out["files"].append({"recording": file.recording, "sessions": len(file.sessions), "equal": equal,
                                 "differences": len(diffs)})
    except (InputError, EngineFailure) as exc:
        out["error"] = _failure(exc)
    out["seconds"] = time.perf_counter() - started
    out["ok"] = out["error"] is None and out["differences"] == 0 and out["sessions"] > 0
    return json.dumps(out, ensure_ascii=False)


def engine_seconds(root: str) -> float:
    """The engine alone on every committed session (no file reading, no comparison): the
    benchmark runs this natively and in the browser."""
    sessions = [s for f in Project(Path(root)).scenario_files() for s in f.sessions]
    started = time.perf_counter()
    for session in sessions:
        engine.run_session(session)
    return time.perf_counter() - started


def play_with_states(session: Session) -> tuple[Transcript, list[Any]]:
    """The session's transcript, and for each message the model's state once it was handled
    (``None`` before the first). The states are normalised together with the messages, so an
    A2A task is called ``<id-N>`` in both."""
    snapshots: list[tuple[int, dict[str, Any]]] = []
    messages = engine.play(session, observe=lambda logged, state: snapshots.append((logged, state)))
    party = PARTY_OF_STATE[session.family]
    other = "client" if party == "server" else "orchestrator"
    as_messages = [Message(party, other, json=state) for _, state in snapshots]
    normalised = NORMALISERS[session.family](messages + as_messages)
    transcript = Transcript(session.name, session.mode, session.title, normalised[: len(messages)])
    states: list[Any] = []
    pending = list(zip((n for n, _ in snapshots), (m.json for m in normalised[len(messages):])))
    current = None
    for n in range(1, len(messages) + 1):
        while pending and pending[0][0] <= n:
            current = pending.pop(0)[1]
        states.append(current)
    return transcript, states


def play_file(path: str) -> str:
    """``python -m agent_loop_sim run PATH``, plus the model's state at each message, as JSON."""
    try:
        played = [(s.family, *play_with_states(s)) for s in load(path).sessions]
    except (InputError, EngineFailure) as exc:
        return json.dumps({"error": _failure(exc)}, ensure_ascii=False)
    sessions = []
    for family, transcript, states in played:
        data = {"family": family, "party": PARTY_OF_STATE[family], **transcript.to_dict()}
        for message, state, shown, summary in zip(data["messages"], states, transcript.messages, summaries(transcript)):
            # As the session pages show it: the same words and the same pretty JSON (JSON.parse
            # in the page would turn 1.0 into 1 and move keys like "2" first).
            message.update(state=state, summary=summary, text=shown.raw if shown.is_raw else pretty_json(shown.json))
        sessions.append(data)
    return json.dumps({"sessions": sessions}, ensure_ascii=False)
