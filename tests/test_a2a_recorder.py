"""The live A2A recorder's faults: an agent that raises inside ``execute`` or never returns
fails the run within its timeout, names the session, and leaves the committed files as they were;
an agent that is only slow (each answer within the timeout, the session past it) is recorded."""
from __future__ import annotations

import asyncio
import json
import os
import time
from pathlib import Path

import pytest


class RaisingAgent:
    """Raises inside execute (the SDK would turn it into a failed task and a -32603)."""

    async def execute(self, context, event_queue) -> None:  # noqa: ANN001
        raise RuntimeError("the research index is unavailable")

    async def cancel(self, context, event_queue) -> None:  # noqa: ANN001
        pass


class HangingAgent(RaisingAgent):
    """Never returns from execute."""

    async def execute(self, context, event_queue) -> None:  # noqa: ANN001
        await asyncio.Event().wait()


class BusyAgent(RaisingAgent):
    """The research agent, leaving a timer of its own pending: never idle, as the deployed harness sees it."""

    async def execute(self, context, event_queue) -> None:  # noqa: ANN001
        from conformance.a2a_sdk_server import ResearchAgent

        asyncio.get_running_loop().call_later(3600, lambda: None)
        await ResearchAgent().execute(context, event_queue)


class SlowAgent:
    """The research agent, 0.8 s to start on each message: a session of four takes longer in all
    than a 2.5 s timeout, and no answer does (the margin is for the session's start on a busy
    machine, before anything crosses)."""

    def __init__(self) -> None:
        from conformance.a2a_sdk_server import ResearchAgent

        self.inner = ResearchAgent()

    async def execute(self, context, event_queue) -> None:  # noqa: ANN001
        await asyncio.sleep(0.8)
        await self.inner.execute(context, event_queue)

    async def cancel(self, context, event_queue) -> None:  # noqa: ANN001
        await self.inner.cancel(context, event_queue)


def _cli(*args: str, **kwargs):
    from conftest import run_cli  # here, not at the top: the recorder loads this file on its own

    return run_cli(*args, **kwargs)


def _cut_scenario(project: Path, names: tuple[str, ...] = ("a2a_message", "a2a_send"),
                  harness: str | None = None) -> str:
    """Cut the seed scenario file of the copy down to ``names`` (recording is slow on a busy machine),
    recorded under ``harness`` (None: as deployed)."""
    data = json.loads((project / "scenarios" / "a2a.json").read_text())
    data["sessions"] = [s for s in data["sessions"] if s["name"] in names]
    data.pop("harness", None)
    if harness is not None:
        data["harness"] = harness
    (project / "scenarios" / "a2a.json").write_text(json.dumps(data))
    return "scenarios/a2a.json"


@pytest.mark.parametrize("agent, timeout, words, harness", [
    ("RaisingAgent", "20", "the agent raised RuntimeError", "per_request"),
    ("HangingAgent", "2", "nothing crossed for 2 s", "per_request"),
    ("RaisingAgent", "20", "the agent raised RuntimeError", None),
    ("HangingAgent", "2", "nothing crossed for 2 s", None),
    ("BusyAgent", "2", "the agent never went idle: a timer of a2a_agent_override is pending", None)])
def test_a_broken_agent_fails_the_recording_and_nothing_is_written(project_copy: Path, agent: str, timeout: str,
                                                                   words: str, harness: str | None):
    recordings = project_copy / "recordings"
    before = {str(p.relative_to(recordings)): p.read_bytes() for p in recordings.rglob("*") if p.is_file()}
    scenario = _cut_scenario(project_copy, harness=harness)
    env = {**os.environ, "AGENT_LOOP_SIM_A2A_AGENT": f"{__file__}:{agent}"}
    started = time.monotonic()
    done = _cli("record", scenario, "--release", "1.2.2", "--timeout", timeout, "--jobs", "2", cwd=project_copy,
                env=env, timeout=60)
    assert time.monotonic() - started < 30
    assert done.returncode == 1, done.stdout
    assert "recording failed" in done.stderr and "session 'a2a_" in done.stderr and words in done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""
    assert {str(p.relative_to(recordings)): p.read_bytes() for p in recordings.rglob("*") if p.is_file()} == before


def test_record_check_compares_live_with_committed(project_copy: Path):
    scenario = _cut_scenario(project_copy, ("a2a_reject", "a2a_message"))
    path = project_copy / "recordings" / "a2a_sdk_exchanges.json"
    data = json.loads(path.read_text())
    data["sessions"] = [s for s in data["sessions"] if s["name"] in ("a2a_reject", "a2a_message")]
    data["sessions"][0]["messages"][3]["json"]["result"]["task"]["status"]["state"] = "TASK_STATE_FAILED"
    path.write_text(json.dumps(data, indent=2))
    side = project_copy / "recordings" / "raw" / "a2a_sdk_exchanges.json"  # (its wire lines cut alike)
    wire = json.loads(side.read_text())
    wire["sessions"] = [s for s in wire["sessions"] if s["name"] in ("a2a_reject", "a2a_message")]
    side.write_text(json.dumps(wire))
    done = _cli("record", "--check", scenario, "--release", "1.2.2", cwd=project_copy, timeout=120)
    assert done.returncode == 1, done.stdout + done.stderr
    assert ("session 'a2a_reject', message 4, $.result.task.status.state: committed \"TASK_STATE_FAILED\", "
            "live \"TASK_STATE_REJECTED\"") in done.stdout



@pytest.mark.parametrize("harness", [None, "per_request"])
def test_a_slow_agent_is_recorded_when_each_answer_comes_within_the_timeout(project_copy: Path, harness: str | None):
    """Four messages at 0.8 s each against a 2.5 s timeout: not failed; as deployed (as the
    session was recorded) the same as committed, in process written."""
    data = json.loads((project_copy / "scenarios" / "a2a_more.json").read_text())
    data["sessions"] = [s for s in data["sessions"] if s["name"] == "a2a_parts"]  # four messages
    if harness is not None:
        data["harness"] = harness
    (project_copy / "scenarios" / "a2a_more.json").write_text(json.dumps(data))
    for path in (project_copy / "recordings").glob("**/a2a_sdk_exchanges_more.json"):  # (and its wire lines)
        recorded = json.loads(path.read_text())
        recorded["sessions"] = [s for s in recorded["sessions"] if s["name"] == "a2a_parts"]
        path.write_text(json.dumps(recorded))
    env = {**os.environ, "AGENT_LOOP_SIM_A2A_AGENT": f"{__file__}:SlowAgent"}
    check = () if harness else ("--check",)
    done = _cli("record", *check, "scenarios/a2a_more.json", "--release", "1.2.2", "--timeout", "2.5",
                cwd=project_copy, env=env, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    if check:
        assert "same" in done.stdout
