"""Every value the MCP Client's public API takes (scenarios/mcp_values.json): the scenario's rules
for them, the client model's handling, and checks that fail when one value is flipped."""
from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from agent_loop_sim import engine, scenarios
from agent_loop_sim.compare import diff_sessions
from agent_loop_sim.errors import InputError
from agent_loop_sim.protocols.mcp import client as client_module
from agent_loop_sim.protocols.mcp.client import Answers, ClientModel, implementation
from agent_loop_sim.recording import load_recording
from conftest import ROOT, run_cli

SCENARIOS = ROOT / "scenarios" / "mcp_values.json"
RECORDING = ROOT / "recordings" / "sdk_exchanges_values.json"
YES = {"action": "accept", "content": {"confirm": True}}
CALL = {"op": "call", "tool": "delete_file", "arguments": {"path": "build/"}}


def _file(tmp_path: Path, **session) -> Path:
    base = {"name": "s", "family": "mcp", "mode": "legacy", "title": "t", "actions": [{"op": "ping"}]}
    path = tmp_path / "values.json"
    path.write_text(json.dumps({"recording": "values.json", "sessions": [{**base, **session}]}))
    return path


@pytest.mark.parametrize("session, words", [
    ({"client_info": {"name": "n", "version": "1", "homepage": "x"}}, ["$.sessions[0].client_info.homepage",
                                                                        "unknown field 'homepage'"]),
    ({"client_info": {"name": "n", "version": "1", "icons": [{"src": "s", "theme": "blue"}]}},
     ["$.sessions[0].client_info.icons[0].theme", "'blue' is not one of"]),
    ({"client_info": {"name": "n", "version": "1", "icons": [{"src": "s", "sizes": [48]}]}},
     ["$.sessions[0].client_info.icons[0].sizes[0]", "expected a string"]),
    ({"client_info": {"name": "n", "version": "1", "icons": [{"mimeType": "image/png"}]}},
     ["$.sessions[0].client_info.icons[0]", "missing field 'src'"]),
    ({"client_info": {"name": "n", "version": None}}, ["$.sessions[0].client_info.version", "got null"]),
    ({"read_timeout_seconds": 0.05}, ["$.sessions[0].read_timeout_seconds", "at least 0.1 s"]),
    ({"read_timeout_seconds": True}, ["$.sessions[0].read_timeout_seconds", "got true or false"]),
    ({"actions": [{**CALL, "read_timeout_seconds": -1}]},
     ["$.sessions[0].actions[0].read_timeout_seconds", "at least 0.1 s"]),
    ({"actions": [{"op": "list", "what": "tools", "cache_mode": "never"}]},
     ["$.sessions[0].actions[0].cache_mode", "'never' is not one of"]),
    ({"actions": [{"op": "ping", "cache_mode": "use"}]}, ["$.sessions[0].actions[0].cache_mode", "unknown field"]),
    ({"input_required_max_rounds": -1}, ["$.sessions[0].input_required_max_rounds", "cannot be negative"]),
    ({"answers": {"elicitation": [{**YES, "delay": -0.5}]}}, ["$.sessions[0].answers.elicitation[0].delay",
                                                             "not negative"]),
    ({"actions": [{**CALL, "input_responses": {"k": {**YES, "delay": 1}}}]},
     ["input_responses.k.delay", "unknown field 'delay'"]),
    ({"answers": {"elicitation": [{"error": {"code": "7", "message": "m"}}]}},
     ["$.sessions[0].answers.elicitation[0].error.code", "expected an integer"]),
    ({"answers": {"sampling": [{"error": {"code": 7}}]}}, ["$.sessions[0].answers.sampling[0].error",
                                                           "missing field 'message'"]),
    ({"answers": {"sampling": [{"error": {"code": 7, "message": "m"}, "model": "x"}]}},
     ["$.sessions[0].answers.sampling[0].model", "unknown field 'model' in a scripted sampling refusal"]),
])
def test_bad_values_are_one_line_errors(tmp_path: Path, session: dict, words: list[str]):
    path = _file(tmp_path, **session)
    with pytest.raises(InputError) as caught:
        scenarios.load(path)
    message = str(caught.value)
    assert "\n" not in message and all(w in message for w in words), message


def test_a_late_answer_as_long_as_the_timeout_is_refused_as_timing(tmp_path: Path):
    path = _file(tmp_path, actions=[{**CALL, "read_timeout_seconds": 0.5}],
                 answers={"elicitation": [{**YES, "delay": 0.55}]})
    done = run_cli("run", str(path))
    assert done.returncode == 2 and done.stdout == ""
    (line,) = done.stderr.strip().splitlines()
    assert "session 's'" in line and "depends on timing" in line and "$.answers.elicitation" in line


def test_implementation_is_sent_in_the_sdks_field_order_without_nulls():
    info = {"icons": [{"theme": "dark", "sizes": ["1x1"], "src": "s", "mimeType": None}], "websiteUrl": "w",
            "version": "1", "description": None, "title": "T", "name": "n"}
    assert list(implementation(info)) == ["name", "title", "version", "websiteUrl", "icons"]
    assert implementation(info)["icons"] == [{"src": "s", "sizes": ["1x1"], "theme": "dark"}]
    assert implementation(info)["icons"] is not info["icons"]  # each message its own objects


def _legacy_call(delay: float, timeout: float | None, session_timeout: float | None = None):
    client = ClientModel(mode="legacy", actions=[{**CALL, **({"read_timeout_seconds": timeout} if timeout else {})},
                                                 {"op": "ping"}],
                         answers=Answers(elicitation=[{**YES, "delay": delay}]), read_timeout_seconds=session_timeout)
    (init,) = client.start()
    sent = client.receive({"jsonrpc": "2.0", "id": init["id"], "result": {"protocolVersion": "2025-11-25"}})
    call = sent[-1]
    return client, call, client.receive({"jsonrpc": "2.0", "id": 1, "method": "elicitation/create", "params": {}})


def test_a_late_answer_past_the_calls_timeout_is_never_sent_and_the_call_is_cancelled():
    client, call, (cancel,) = _legacy_call(delay=1.5, timeout=0.5)
    assert cancel["params"] == {"requestId": call["id"], "reason": "timed out after 0.5s"}
    (ping,) = client.receive({"jsonrpc": "2.0", "method": "notifications/cancelled",
                              "params": {"requestId": 1, "reason": "caller cancelled"}})
    assert ping["method"] == "ping"


def test_the_reason_names_the_timeout_as_given_and_a_calls_own_wins():
    assert _legacy_call(delay=2, timeout=1)[2][0]["params"]["reason"] == "timed out after 1s"
    assert _legacy_call(delay=2, timeout=None, session_timeout=1.0)[2][0]["params"]["reason"] == "timed out after 1.0s"
    assert _legacy_call(delay=2, timeout=0.5, session_timeout=5)[2][0]["params"]["reason"] == "timed out after 0.5s"
    assert _legacy_call(delay=1, timeout=None, session_timeout=5)[2][0] == {
        "jsonrpc": "2.0", "id": 1, "result": YES}  # in time: answered


def test_a_late_answer_spends_no_clock_in_2026():
    client = ClientModel(mode="2026-07-28", actions=[{**CALL, "read_timeout_seconds": 0.5}],
                         answers=Answers(elicitation=[{**YES, "delay": 9}]))
    (call,) = client.start()
    ask = {"resultType": "input_required", "inputRequests": {"confirm": {"method": "elicitation/create", "params": {}}}}
    (retry,) = client.receive({"jsonrpc": "2.0", "id": call["id"], "result": ask})
    assert retry["params"]["inputResponses"] == {"confirm": YES}


def test_max_rounds_zero_gives_up_without_sending_and_the_application_goes_on():
    client = ClientModel(mode="2026-07-28", actions=[CALL, {"op": "list", "what": "prompts"}],
                         answers=Answers(elicitation=[YES]), max_rounds=0)
    (call,) = client.start()
    ask = {"resultType": "input_required", "inputRequests": {"confirm": {"method": "elicitation/create", "params": {}}}}
    (listing,) = client.receive({"jsonrpc": "2.0", "id": call["id"], "result": ask})
    assert listing["method"] == "prompts/list"


def _flipped(session_name: str, change) -> dict:
    data = json.loads(SCENARIOS.read_text())
    changed = copy.deepcopy(data)
    change(next(s for s in changed["sessions"] if s["name"] == session_name))
    return changed


@pytest.mark.parametrize("name, flip", [
    ("values_legacy_late_answer", lambda s: s["answers"]["elicitation"][0].update(delay=0.2)),
    ("values_legacy_session_timeout", lambda s: s["actions"][1].update(read_timeout_seconds=0.5)),
    ("values_legacy_client_info", lambda s: s["client_info"]["icons"][1].update(theme="light")),
    ("values_modern_client_info", lambda s: s["client_info"].update(websiteUrl=None)),
    ("values_max_rounds_zero", lambda s: s.update(input_required_max_rounds=1)),
    ("values_legacy_refused_question", lambda s: s["answers"]["elicitation"][1]["error"].update(data="x")),
    ("values_modern_refused_question", lambda s: s["answers"]["sampling"].__setitem__(
        0, {"role": "assistant", "content": {"type": "text", "text": "S"}, "model": "m"})),
])
def test_the_check_fails_when_one_value_is_flipped(tmp_path: Path, name: str, flip):
    committed = load_recording(str(RECORDING)).session(name)
    path = tmp_path / "mcp_values.json"
    path.write_text(json.dumps(_flipped(name, flip)))
    produced = engine.run_session(scenarios.load(path).session(name))
    assert diff_sessions([committed], [produced]) != []
    unflipped = engine.run_session(scenarios.load(SCENARIOS).session(name))
    assert diff_sessions([committed], [unflipped]) == []


def test_the_check_fails_when_the_model_forgets_the_timeout(monkeypatch):
    name = "values_legacy_late_answer"
    committed = load_recording(str(RECORDING)).session(name)
    monkeypatch.setattr(client_module.ClientModel, "_late", lambda self, kind, delay: None)
    assert diff_sessions([committed], [engine.run_session(scenarios.load(SCENARIOS).session(name))]) != []


WAITING = ROOT / "scenarios" / "mcp_values_waiting.json"
WAITING_RECORDING = ROOT / "recordings" / "sdk_exchanges_values_waiting.json"


def _waiting_file(tmp_path: Path, **session) -> Path:
    base = {"name": "s", "family": "mcp", "mode": "legacy", "title": "t", "actions": [{"op": "call", "tool": "wait"}]}
    path = tmp_path / "waiting.json"
    path.write_text(json.dumps({"recording": "waiting.json", "world": str(ROOT / "worlds" / "waiting.json"),
                                "sessions": [{**base, **session}]}))
    return path


def test_a_call_never_answered_without_a_timeout_is_refused(tmp_path: Path):
    done = run_cli("run", str(_waiting_file(tmp_path)))
    assert done.returncode == 2 and done.stdout == ""
    (line,) = done.stderr.strip().splitlines()
    assert "session 's'" in line and "never answered and has no read timeout" in line


def test_a_call_never_answered_times_out_and_the_application_goes_on(tmp_path: Path):
    path = _waiting_file(tmp_path, mode="2026-07-28", actions=[{"op": "call", "tool": "wait", "read_timeout_seconds": 2},
                                                               {"op": "call", "tool": "echo", "arguments": {"text": "x"}}])
    messages = [m.json for m in engine.run_session(scenarios.load(path).session("s")).messages]
    cancel = messages[1]
    assert cancel == {"jsonrpc": "2.0", "method": "notifications/cancelled",
                      "params": {"requestId": 1, "reason": "timed out after 2s"}}  # no envelope: the SDK's courtesy cancel
    assert messages[2]["params"]["name"] == "echo" and messages[3]["result"]["structuredContent"] == {"result": "x"}


def test_a_wait_step_is_forever_or_nothing():
    from agent_loop_sim.protocols.mcp.world import read_world
    raw = {"kind": "mcp-server", "name": "w", "version": "1", "tools": [{"name": "t", "steps": [{"wait": "soon"}]}]}
    with pytest.raises(InputError, match=r"\$\.tools\[0\]\.steps\[0\]\.wait.*'soon' is not one of 'forever'"):
        read_world(raw, "w.json")


@pytest.mark.parametrize("name, flip", [
    ("waiting_legacy_timeout", lambda s: s["actions"][0].update(read_timeout_seconds=0.7)),
    ("waiting_modern_timeout", lambda s: s["actions"][1].update(tool="echo", arguments={"text": "t"})),
])
def test_the_waiting_check_fails_when_one_value_is_flipped(tmp_path: Path, name: str, flip):
    data = json.loads(WAITING.read_text())
    data["world"] = str(ROOT / "worlds" / "waiting.json")
    flip(next(s for s in data["sessions"] if s["name"] == name))
    path = tmp_path / "mcp_values_waiting.json"
    path.write_text(json.dumps(data))
    committed = load_recording(str(WAITING_RECORDING)).session(name)
    assert diff_sessions([committed], [engine.run_session(scenarios.load(path).session(name))]) != []
    assert diff_sessions([committed], [engine.run_session(scenarios.load(WAITING).session(name))]) == []


def test_the_waiting_check_fails_when_the_server_model_answers_a_cancelled_wait(monkeypatch):
    from agent_loop_sim.protocols.mcp import server as server_module
    name = "waiting_legacy_timeout"
    committed = load_recording(str(WAITING_RECORDING)).session(name)
    original = server_module.ServerConnection._cancel

    def cancel_and_say_so(self, params):
        out = original(self, params)
        return out or [{"jsonrpc": "2.0", "id": params.get("requestId"), "error": {"code": -32800, "message": "x"}}]
    monkeypatch.setattr(server_module.ServerConnection, "_cancel", cancel_and_say_so)
    assert diff_sessions([committed], [engine.run_session(scenarios.load(WAITING).session(name))]) != []


def test_a_raw_line_calling_a_tool_that_never_answers_is_refused(tmp_path: Path):
    call = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
        "name": "wait", "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                                  "io.modelcontextprotocol/clientCapabilities": {}}}})
    path = tmp_path / "raw.json"
    path.write_text(json.dumps({"recording": "raw.json", "world": str(ROOT / "worlds" / "waiting.json"),
                                "sessions": [{"name": "r", "family": "mcp", "mode": "raw", "title": "t",
                                              "lines": [call]}]}))
    done = run_cli("run", str(path))
    assert done.returncode == 2 and done.stdout == ""
    (line,) = done.stderr.strip().splitlines()
    assert "session 'r'" in line and "$.lines[0]" in line and "never answers" in line
