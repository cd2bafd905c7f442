"""Fake engines for the site's tests (fauxmplementations, as Bowtie calls them), and the one
shared, cached MkDocs build of a copy of the project.

The site takes its engine as a parameter; these stand in for the real one so the site can be
tested whether or not the engine is finished:

* :func:`replay` answers every session with a fixed transcript (usually the recording itself);
* :func:`replay_snapshot` does the same from a folder named by ``AGENT_LOOP_SIM_SNAPSHOT``,
  for MkDocs run as a subprocess (``AGENT_LOOP_SIM_ENGINE=test_site_fakes:replay_snapshot``);
* :func:`flipped` changes one value of one message of another engine's answer;
* :func:`broken` raises.
"""
from __future__ import annotations

import copy
import functools
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable

from agent_loop_sim.errors import InputError
from agent_loop_sim.jsonio import json_path
from agent_loop_sim.site.findings.evidence import parse_path
from agent_loop_sim.project import SITE_INPUTS
from agent_loop_sim.recording import load_recording
from agent_loop_sim.transcript import Transcript

ROOT = Path(__file__).resolve().parent.parent
TESTS = Path(__file__).resolve().parent
MKDOCS = str(Path(sys.executable).with_name("mkdocs"))

Engine = Callable[[Any], Transcript]


def recorded_sessions(recordings: Path) -> dict[str, Transcript]:
    out: dict[str, Transcript] = {}
    for path in sorted(recordings.glob("*.json")):
        for t in load_recording(str(path)).sessions:
            out[t.name] = t
    return out


def replay(transcripts: dict[str, Transcript]) -> Engine:
    """An engine that says exactly what ``transcripts`` say."""
    def run_session(session: Any) -> Transcript:
        if session.name not in transcripts:
            raise KeyError(f"the fake engine has no transcript for {session.name!r}")
        return copy.deepcopy(transcripts[session.name])
    return run_session


@functools.lru_cache(maxsize=None)
def _snapshot(folder: str) -> dict[str, Transcript]:
    return recorded_sessions(Path(folder))


def replay_snapshot(session: Any) -> Transcript:
    """:func:`replay` of the recordings in ``$AGENT_LOOP_SIM_SNAPSHOT`` (for MkDocs subprocesses)."""
    return replay(_snapshot(os.environ["AGENT_LOOP_SIM_SNAPSHOT"]))(session)


def set_at(value: Any, path: str, new: Any) -> Any:
    parts = parse_path(path)
    target = value
    for part in parts[:-1]:
        target = target[part]
    target[parts[-1]] = new
    return value


def flipped(engine: Engine, session: str, message: int, path: str, new: Any) -> Engine:
    """``engine``, except that one value of one message is ``new``."""
    def run_session(s: Any) -> Transcript:
        t = engine(s)
        if s.name == session:
            set_at(t.messages[message - 1].json, path, new)
        return t
    return run_session


def broken(exc: Exception) -> Engine:
    def run_session(s: Any) -> Transcript:
        raise exc
    return run_session


def edit_recording(path: Path, session: str, message: int, json_pointer: str, new: Any) -> Any:
    """Change one value in a recording file; returns the old value."""
    data = json.loads(path.read_text(encoding="utf-8"))
    s = next(s for s in data["sessions"] if s["name"] == session)
    m = s["messages"][message - 1]["json"]
    target = m
    parts = parse_path(json_pointer)
    for part in parts[:-1]:
        target = target[part]
    old = target[parts[-1]]
    target[parts[-1]] = new
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return old


def consistent_copy(dest: Path, names: tuple[str, ...] = SITE_INPUTS) -> Path:
    """A copy of the checkout in which each scenario file holds exactly the sessions its recording has.

    Other people add scenarios and recordings while the site is tested; a scenario recorded
    a minute later (or a recording that cannot be read yet) is their work in progress, not the
    site's problem, so the copy leaves those out. The strict build of the real checkout
    (``make test``) is what catches them for good.
    """
    for name in names:
        shutil.copytree(ROOT / name, dest / name, ignore=shutil.ignore_patterns("__pycache__"))
    if (ROOT / "mkdocs.yml").exists():
        shutil.copy2(ROOT / "mkdocs.yml", dest / "mkdocs.yml")
    if (ROOT / "node_modules").is_dir():  # the in-browser runtime (npm ci): read only, so linked
        (dest / "node_modules").symlink_to(ROOT / "node_modules")
    for scenario_file in sorted((dest / "scenarios").glob("*.json")):
        data = json.loads(scenario_file.read_text(encoding="utf-8"))
        try:
            recorded = {t.name for t in load_recording(str(dest / "recordings" / data["recording"])).sessions}
        except InputError:
            scenario_file.unlink()
            continue
        data["sessions"] = [s for s in data["sessions"] if s.get("name") in recorded]
        recording = dest / "recordings" / data["recording"]
        rec = json.loads(recording.read_text(encoding="utf-8"))
        planned = {s["name"] for s in data["sessions"]}
        rec["sessions"] = [s for s in rec["sessions"] if s["name"] in planned]
        recording.write_text(json.dumps(rec, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        scenario_file.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return dest


#: the scenario files of a small project the build accepts: the seed sessions, the sessions that
#: send each method of the engine's tables the fixture server sends, and the worlds that send the
#: rest (a tool's change notifications) and show each wire change of the other mcp release
SMALL = ("mcp.json", "mcp_surface.json", "world_tracker.json", "world_http_calculator.json")


def copy_project(dest: Path, only: tuple[str, ...] = ()) -> Path:
    """What the site build needs from the checkout, plus a snapshot of its recordings for the fake.

    ``only``: keep just these scenario files (and their recordings), for a small, quick build.
    """
    consistent_copy(dest)
    if only:
        for scenario_file in (dest / "scenarios").glob("*.json"):
            if scenario_file.name not in only:
                recording = json.loads(scenario_file.read_text(encoding="utf-8"))["recording"]
                (dest / "recordings" / recording).unlink(missing_ok=True)
                scenario_file.unlink()
    shutil.copytree(dest / "recordings", dest.parent / f"{dest.name}-snapshot")
    return dest


def mkdocs_env(snapshot: Path) -> dict[str, str]:
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", AGENT_LOOP_SIM_ENGINE="test_site_fakes:replay_snapshot",
               AGENT_LOOP_SIM_SNAPSHOT=str(snapshot))
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(TESTS), env.get("PYTHONPATH")]))
    return env


def mkdocs_build(project: Path, site_dir: Path, *args: str, engine: str | None = None) -> subprocess.CompletedProcess[str]:
    snapshot = project.parent / f"{project.name}-snapshot"
    env = mkdocs_env(snapshot)
    if engine:
        env["AGENT_LOOP_SIM_ENGINE"] = engine
    return subprocess.run([MKDOCS, "build", "--site-dir", str(site_dir), *args], cwd=project, capture_output=True,
                          text=True, env=env, timeout=600)


_BUILT: dict[str, Any] = {}


def built_site(tmp_root: Path) -> tuple[Path, Path, subprocess.CompletedProcess[str]]:
    """One MkDocs build of a copy of the project with the replaying fake engine, per test run, in
    ``tmp_root``. Under pytest-xdist, ``tmp_root`` is in the run's folder, which every worker's lies
    in: the first worker to ask builds it, under a lock, and the others read what it built."""
    if "site" not in _BUILT:
        import fcntl
        import json

        project, site_dir, said = tmp_root / "project", tmp_root / "site", tmp_root / "build.json"
        tmp_root.parent.mkdir(parents=True, exist_ok=True)
        with open(tmp_root.parent / f"{tmp_root.name}.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # (released as the file closes, or its process ends)
            if not said.exists():
                copy_project(project)
                done = mkdocs_build(project, site_dir)
                said.write_text(json.dumps({"args": done.args, "returncode": done.returncode, "stdout": done.stdout,
                                            "stderr": done.stderr}))
            _BUILT["site"] = (project, site_dir, subprocess.CompletedProcess(**json.loads(said.read_text())))
    return _BUILT["site"]


def test_fakes_replay_and_flip() -> None:
    sessions = recorded_sessions(ROOT / "recordings")
    name = "legacy_tour"

    class S:
        pass

    s = S()
    s.name = name  # type: ignore[attr-defined]
    same = replay(sessions)(s)
    assert same == sessions[name] and same is not sessions[name]
    path = json_path(["jsonrpc"])
    changed = flipped(replay(sessions), name, 1, path, "1.0")(s)
    assert changed.messages[0].json["jsonrpc"] == "1.0"
    assert sessions[name].messages[0].json["jsonrpc"] == "2.0"


def always_raises(session: Any) -> Transcript:
    """For ``AGENT_LOOP_SIM_ENGINE``: an engine that is not written yet."""
    raise NotImplementedError(f"no model for {session.family} yet")
