"""The live recorders, run from the command line: a scenario file in, the SDK's recording out.

Each family's recorder (``scripts/``: the only code that imports an SDK) runs as a process of its
own, with the Python of the SDK release's own locked environment, and prints the recording as JSON,
each session with its ``wire``: its messages as they crossed, before any normalising (what `record`
keeps beside the recording, `agent_loop_sim.as_sent`).
"""
from __future__ import annotations

import sys
from concurrent.futures import ThreadPoolExecutor
from typing import Any, NamedTuple

from .errors import RecorderError
from .jsonio import parse_json
from .processes import end_group, run_owned
from .project import Project
from .protocols import FAMILIES
from .recording import Recording, parse_recording
from .scenarios import ScenarioFile
from .swap import world_environment


#: A live recording's wire lines: each session's name and its messages as they crossed (`as_sent`).
Wire = list[tuple[str, list[dict[str, Any]]]]


def record_live(project: Project, file: ScenarioFile, timeout: float, jobs: int,
                release: str | None = None, env: dict[str, str] | None = None) -> Recording:
    """Run the family's recorder script (the only code that imports an SDK) and read its output,
    with the Python of the release's own locked environment for a release other than the pinned one;
    ``env`` may name another peer to record against (`swap`)."""
    return record_live_with_wire(project, file, timeout, jobs, release, env)[0]


#: The most sessions one recorder process is given: a longer file is recorded by several processes
#: at once, each given a run of its sessions (they are independent: each session has a fresh
#: server) and their recordings joined in the file's order. The HTTP recorder plays its sessions
#: one after another (see ``scripts/record_mcp_http.py``), and a recorder waits on its servers
#: more than it computes, so even on two cores the processes overlap their waits.
SESSIONS_PER_PROCESS = 40


class Planned(NamedTuple):
    """One recording to make: a scenario file, by a release (``None``: the pinned one), against a
    peer ``env`` names (`swap`; ``None``: the SDK's own)."""
    file: ScenarioFile
    release: str | None = None
    env: dict[str, str] | None = None


def record_many(project: Project, plan: list[Planned], timeout: float, jobs: int,
                processes: int) -> list[tuple[Recording, Wire]]:
    """`record_live_with_wire` for each of ``plan``, up to ``processes`` recorder processes at once
    (a long file split as `SESSIONS_PER_PROCESS` says), in ``plan``'s order. The first failure in
    that order is raised, once every process has ended."""
    shards = [(n, [s.name for s in item.file.sessions[i:i + SESSIONS_PER_PROCESS]])
              for n, item in enumerate(plan) for i in range(0, len(item.file.sessions), SESSIONS_PER_PROCESS)]

    running: set[int] = set()  # the process groups of the recorders under way

    def one(shard: tuple[int, list[str]]) -> tuple[Recording, Wire]:
        item = plan[shard[0]]
        whole = len(shard[1]) == len(item.file.sessions)
        return record_live_with_wire(project, item.file, timeout, jobs, item.release, item.env,
                                     sessions=None if whole else shard[1], running=running)

    pool = ThreadPoolExecutor(max(1, processes))
    try:
        futures = [pool.submit(one, shard) for shard in shards]
        done = [f.exception() or f.result() for f in futures]  # (all ended before anything is raised)
    except BaseException:
        # Ctrl-C or SIGTERM, here in the main thread: the workers wait on their recorders, which
        # are in sessions of their own and heard nothing. End them, and start no more.
        pool.shutdown(wait=False, cancel_futures=True)
        for group in list(running):
            end_group(group)
        raise
    pool.shutdown()
    for result in done:
        if isinstance(result, BaseException):
            raise result
    joined: list[tuple[Recording, Wire]] = []
    for n, _ in enumerate(plan):
        parts = [result for (m, _), result in zip(shards, done) if m == n]
        first = parts[0][0]
        recording = Recording(first.family, first.sdk, first.transport, first.scenarios,
                              [t for r, _ in parts for t in r.sessions])
        joined.append((recording, [line for _, w in parts for line in w]))
    return joined


def record_live_with_wire(project: Project, file: ScenarioFile, timeout: float, jobs: int,
                          release: str | None = None, env: dict[str, str] | None = None,
                          sessions: list[str] | None = None,
                          running: set[int] | None = None) -> tuple[Recording, Wire]:
    """`record_live`, and the wire lines of each session, one per message of the recording;
    only the ``sessions`` named, when given, in the file's order. The recorder's process group is
    in ``running`` while it runs."""
    script = project.root / FAMILIES[file.family].recorder_for(file.transport)
    python = project.release_python(file.family, release)
    if python is not None and not python.exists():
        raise RecorderError(f"{project.relative(python)} is missing: `make setup` builds the environment "
                            f"that {release_label((file.family, release or ''))[2:-1]} is recorded with")
    command = [str(python or sys.executable), str(script), file.path, "--timeout", str(timeout), "--jobs", str(jobs)]
    command += [f"--session={name}" for name in sessions or ()]  # (a name may start with "-")
    done = run_owned(command, cwd=project.root, env=world_environment(file.world, env), running=running)
    if done.returncode != 0:
        raise RecorderError(f"{project.relative(file.path)}{release_label((file.family, release)) if release else ''}: "
                            f"{_recorder_said(done.stderr, script.stem, done.returncode)}")
    source = f"live recording of {project.relative(file.path)}"
    data = parse_json(done.stdout, source)
    data.update(family=file.family, scenarios=project.relative(file.path))
    ordered = {k: data[k] for k in ("family", "sdk", "transport", "scenarios", "sessions")}
    wire: Wire = []
    for session in data["sessions"] if isinstance(data["sessions"], list) else ():
        if isinstance(session, dict):  # (what is not, parse_recording names)
            wire.append((session.get("name"), session.pop("wire", None)))
    recording = parse_recording(ordered, source)
    for transcript, (_, lines) in zip(recording.sessions, wire):
        if not isinstance(lines, list) or len(lines) != len(transcript.messages):
            raise RecorderError(f"{source}: session {transcript.name!r}: the recorder's wire lines are not one per "
                                f"message ({len(lines) if isinstance(lines, list) else 'none'} for "
                                f"{len(transcript.messages)})")
    return recording, wire


def _recorder_said(stderr: str, prog: str, code: int) -> str:
    """Why a recorder failed, on one line: its own line (``PROG: session 'x': ...``), which names
    the session, even when something printed after it; else the last line (a crash's exception)."""
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    own = [line for line in lines if line.startswith(prog + ": ")]
    if own:
        return own[-1]
    return lines[-1] if lines else f"exit {code}"


def release_label(release: tuple[str, str] | None) -> str:
    """`` (package version)`` of a (family, release) other than the pinned one, for a line of output."""
    if release is None:
        return ""
    releases = FAMILIES[release[0]].releases
    assert releases is not None
    return f" ({releases.package} {release[1]})"
