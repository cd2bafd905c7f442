"""The in-browser entry points, run natively (the browser tests run them under Pyodide), and
what the build gives the browser: the engine zip, the playground's links."""
from __future__ import annotations

import base64
import io
import json
import zipfile
import zlib
from pathlib import Path

from agent_loop_sim import engine, inbrowser
from agent_loop_sim.project import Project
from agent_loop_sim.site import browser
from conftest import ROOT, run_cli


def recorded_sessions(root: Path) -> int:
    """The sessions of every committed recording, of every SDK release (counted from the files)."""
    paths = [p for p in (root / "recordings").rglob("*.json") if "verdicts" not in p.parts and "raw" not in p.parts]
    return sum(len(json.loads(p.read_text())["sessions"]) for p in paths)


def test_the_check_finds_every_committed_session_equal_for_every_release() -> None:
    verdict = json.loads(inbrowser.check_project(str(ROOT)))
    count = recorded_sessions(ROOT)
    assert count > sum(len(f.sessions) for f in Project(ROOT).scenario_files())  # (other releases too)
    assert verdict["ok"] and verdict["sessions"] == verdict["equal"] == count and verdict["first"] is None
    assert {f["sdk"] for f in verdict["files"]} == {"mcp 2.3.0", "mcp 2.2.0", "a2a-sdk 1.2.2", "a2a-sdk 1.3.0"}
    # what the total counts, said release by release: the pinned releases' sessions (the home
    # page's count) first, the others after, adding up to the total
    releases = verdict["releases"]
    assert releases[0]["pinned"] and not any(r["pinned"] for r in releases[1:])
    assert releases[0]["sessions"] == sum(len(f.sessions) for f in Project(ROOT).scenario_files())
    assert sum(r["sessions"] for r in releases) == verdict["sessions"]


def test_the_check_fails_on_one_flipped_value_in_another_releases_recording(project_copy: Path) -> None:
    path = project_copy / "recordings" / "mcp-2.2.0" / "sdk_exchanges.json"
    data = json.loads(path.read_text())
    data["sessions"][0]["messages"][1]["json"]["result"]["protocolVersion"] = "2024-11-05"
    path.write_text(json.dumps(data))
    verdict = json.loads(inbrowser.check_project(str(project_copy)))
    assert not verdict["ok"] and verdict["equal"] == verdict["sessions"] - 1
    assert verdict["first"].startswith("recordings/mcp-2.2.0/sdk_exchanges.json: session 'legacy_tour', message 2, ")


def test_the_check_fails_on_one_flipped_value(project_copy: Path) -> None:
    path = project_copy / "recordings" / "sdk_exchanges.json"
    data = json.loads(path.read_text())
    data["sessions"][0]["messages"][1]["json"]["result"]["protocolVersion"] = "2024-11-05"
    path.write_text(json.dumps(data))
    verdict = json.loads(inbrowser.check_project(str(project_copy)))
    assert not verdict["ok"] and verdict["equal"] == verdict["sessions"] - 1
    assert verdict["first"] == ("recordings/sdk_exchanges.json: session 'legacy_tour', message 2, "
                                '$.result.protocolVersion: committed "2024-11-05", engine "2025-11-25"')


def session(name: str):
    return next(s for f in Project(ROOT).scenario_files() for s in f.sessions if s.name == name)


def test_states_follow_the_messages_and_change_nothing() -> None:
    for name, expected in (("legacy_tour", "handshake"), ("modern_tour", "2026-07-28")):
        transcript, states = inbrowser.play_with_states(session(name))
        assert transcript == engine.run_session(session(name))  # observing changes no message
        assert len(states) == len(transcript.messages) and states[0]["era"] == expected
    transcript, states = inbrowser.play_with_states(session("a2a_input"))
    assert transcript == engine.run_session(session("a2a_input"))
    waiting = [s for s in states if s and any(t["state"] == "TASK_STATE_INPUT_REQUIRED" for t in s["tasks"])]
    assert waiting, states
    task = waiting[0]["tasks"][0]["id"]  # named as the transcript names it
    assert task.startswith("<id-") and task in json.dumps([m.json for m in transcript.messages])


def test_bad_input_reads_as_the_command_line_says_it(tmp_path: Path, monkeypatch) -> None:
    (tmp_path / "playground.json").write_text('{"recording": "x.json", "sessions": [{"name": "x", "family": "mcp"}]}')
    cli = run_cli("run", "playground.json", cwd=tmp_path)
    monkeypatch.chdir(tmp_path)
    assert json.loads(inbrowser.play_file("playground.json")) == {"error": cli.stderr.strip()}
    assert cli.returncode == 2
    # The playground names what its reader sees, the editor, where the command line names the file.
    said = json.loads(inbrowser.play_file("playground.json", "", "the editor"))["error"]
    assert said == cli.stderr.strip().replace("error: playground.json", "error: the editor", 1)
    assert said.startswith("error: the editor, session 'x'") and "playground.json" not in said
    (tmp_path / "playground.json").write_text('{\n  "recording": "x.json",\n  "sessions": [}')
    said = json.loads(inbrowser.play_file("playground.json", "", "the editor"))["error"]
    assert said.startswith("error: the editor: not valid JSON: ") and said.endswith("(line 3, column 16)")


def test_the_engine_zip_is_this_checkout_and_reproducible() -> None:
    first, second = browser.engine_zip(ROOT), browser.engine_zip(ROOT)
    assert first == second
    names = zipfile.ZipFile(io.BytesIO(first)).namelist()
    assert "agent_loop_sim/inbrowser.py" in names and "agent_loop_sim/engine.py" in names
    assert "agent_loop_sim/protocols/mcp/family.json" in names  # data the package reads at import
    assert not any("__pycache__" in n for n in names)


def test_a_session_link_carries_its_scenario() -> None:
    file = next(f for f in Project(ROOT).scenario_files() if f.recording == "sdk_exchanges.json")
    text = browser.scenario_text(file, file.sessions[0])
    fragment = browser.fragment(text)
    encoded = fragment.removeprefix("scenario=")
    packed = base64.urlsafe_b64decode(encoded + "=" * (-len(encoded) % 4))
    assert zlib.decompress(packed, -15).decode() == text
    assert json.loads(text) == {"recording": file.recording, "sessions": [file.sessions[0].spec]}


def test_without_npm_the_pages_say_so(tmp_path: Path) -> None:
    assert browser.runtime_files(tmp_path) is None
    assert "not part of this build" in browser.playground_page(False)
    assert 'id="pg-app"' in browser.playground_page(True) and "playground.js" in browser.playground_page(True)
