"""The command line: verdicts, differences and bad input, as a user sees them."""
from __future__ import annotations

import json
from pathlib import Path

from conftest import ROOT, run_cli


def test_run_prints_a_session_transcript():
    done = run_cli("run", "scenarios/mcp.json", "--session", "auto_tour")
    assert done.returncode == 0, done.stderr
    transcript = json.loads(done.stdout)
    assert transcript["name"] == "auto_tour"
    assert transcript["messages"][0]["json"]["method"] == "server/discover"


def test_check_passes_on_the_checkout():
    done = run_cli("check", "scenarios/mcp.json")
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("same recordings/sdk_exchanges.json")


def test_one_changed_value_fails_the_check_naming_session_message_and_path(project_copy: Path):
    path = project_copy / "recordings" / "sdk_exchanges.json"
    data = json.loads(path.read_text())
    session = next(s for s in data["sessions"] if s["name"] == "legacy_errors")
    session["messages"][8]["json"]["error"]["code"] = -32601  # message 9: the unknown resource
    path.write_text(json.dumps(data, indent=2))
    done = run_cli("check", "scenarios/mcp.json", cwd=project_copy)
    assert done.returncode == 1
    assert "session 'legacy_errors', message 9, $.error.code: committed -32601, engine -32602" in done.stdout


def test_bad_input_is_one_paragraph_and_exit_2(project_copy: Path):
    path = project_copy / "recordings" / "sdk_exchanges.json"
    data = json.loads(path.read_text())
    data["sessions"][2]["messages"][3]["from"] = "browser"
    path.write_text(json.dumps(data))
    done = run_cli("check", "scenarios/mcp.json", cwd=project_copy)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert done.stderr.strip() == (
        "error: recordings/sdk_exchanges.json, session 'auto_tour', message 4, at $.sessions[2].messages[3].from: "
        "'browser' is not one of 'client', 'server'")


def test_truncated_recording_and_unknown_session(project_copy: Path):
    path = project_copy / "recordings" / "sdk_exchanges.json"
    path.write_text(path.read_text()[:5000])
    done = run_cli("check", "scenarios/mcp.json", cwd=project_copy)
    assert done.returncode == 2 and "not valid JSON" in done.stderr and "sdk_exchanges.json" in done.stderr
    done = run_cli("run", "scenarios/mcp.json", "--session", "nope", cwd=ROOT)
    assert done.returncode == 2 and "no session named 'nope'" in done.stderr
