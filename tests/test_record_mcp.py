"""The live MCP recorder's faults: a server that hangs or crashes fails the run, names the
session within its timeout, and leaves the committed recording byte for byte as it was."""
from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest

from conftest import ROOT, run_cli

FAKES = ROOT / "tests" / "fakes"


@pytest.mark.parametrize("fake", ["mcp_server_hangs.py", "mcp_server_crashes.py"])
def test_a_broken_server_fails_the_recording_and_nothing_is_written(project_copy: Path, fake: str):
    committed = project_copy / "recordings" / "sdk_exchanges.json"
    before = committed.read_bytes()
    env = {**os.environ, "AGENT_LOOP_SIM_MCP_SERVER": f"{sys.executable} {FAKES / fake}"}
    started = time.monotonic()
    done = run_cli("record", "scenarios/mcp.json", "--release", "2.3.0", "--timeout", "3", "--jobs", "8", cwd=project_copy, env=env,
                   timeout=120)
    elapsed = time.monotonic() - started
    assert done.returncode == 1
    assert "recording failed" in done.stderr and "session '" in done.stderr
    assert "Traceback" not in done.stderr
    assert elapsed < 60
    assert committed.read_bytes() == before
    assert sorted(p.name for p in committed.parent.iterdir()) == sorted(
        p.name for p in (ROOT / "recordings").iterdir())  # no temporary files left


def test_record_check_names_a_changed_value(project_copy: Path):
    import json
    path = project_copy / "recordings" / "sdk_exchanges.json"
    data = json.loads(path.read_text())
    data["sessions"][0]["messages"][1]["json"]["result"]["serverInfo"]["version"] = "9.9.9"
    path.write_text(json.dumps(data, indent=2))
    done = run_cli("record", "--check", "scenarios/mcp.json", "--release", "2.3.0", "--jobs", "4", cwd=project_copy)
    assert done.returncode == 1, done.stdout + done.stderr
    assert ("session 'legacy_tour', message 2, $.result.serverInfo.version: committed \"9.9.9\", live \"1.0.0\""
            in done.stdout)
