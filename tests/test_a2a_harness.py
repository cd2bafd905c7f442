"""The harness a session is recorded under: named by its scenario file, checked against its
recording's transport, and a rule of the model (`protocols.a2a.harness`)."""
from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from agent_loop_sim import engine, scenarios
from agent_loop_sim.compare import diff_transcripts
from agent_loop_sim.errors import InputError
from agent_loop_sim.protocols import FAMILIES
from agent_loop_sim.protocols.a2a.harness import HARNESS_RULES
from agent_loop_sim.recording import check_metadata, load_recording
from agent_loop_sim.site.findings.evidence import Recorded, SameStepsDifferAt
from conftest import ROOT, run_cli

SEED = scenarios.load(ROOT / "scenarios" / "a2a.json")


def test_every_named_harness_has_a_rule_set_and_a_transport():
    assert {h for h in HARNESS_RULES if h is not None} == set(FAMILIES["a2a"].harnesses)
    assert FAMILIES["mcp"].harnesses == {}


def test_the_seed_file_names_the_per_request_harness_and_its_sessions_carry_it():
    assert SEED.harness == "per_request" and {s.harness for s in SEED.sessions} == {"per_request"}
    assert {s.harness for s in scenarios.load(ROOT / "scenarios" / "a2a_more.json").sessions} == {None}


def test_a_harness_the_family_does_not_have_is_refused(tmp_path: Path):
    data = json.loads((ROOT / "scenarios" / "a2a.json").read_text())
    data["harness"] = "threads"
    path = tmp_path / "a2a.json"
    path.write_text(json.dumps(data))
    with pytest.raises(InputError, match=r"'threads' is not a harness of a2a \(known: per_request\)") as caught:
        scenarios.load(path)
    assert "$.harness" in str(caught.value)
    done = run_cli("check", str(path))
    assert done.returncode == 2 and "$.harness" in done.stderr and "Traceback" not in done.stderr


def test_a_recording_made_under_another_harness_is_refused():
    recording = load_recording(str(ROOT / "recordings" / "a2a_sdk_exchanges.json"))
    check_metadata(recording, harness="per_request")
    with pytest.raises(InputError, match="transport"):
        check_metadata(recording)  # the seed's recording, read as if made as deployed
    recording.transport = FAMILIES["a2a"].transport
    with pytest.raises(InputError, match="under the harness 'per_request'"):
        check_metadata(recording, harness="per_request")


def test_the_harness_rule_changes_exactly_the_cancel_of_a_waiting_task():
    seed = engine.run_session(SEED.session("a2a_cancel"))
    deployed = engine.run_session(replace(SEED.session("a2a_cancel"), harness=None))
    assert sorted({d.message for d in diff_transcripts(seed, deployed)}) == [6]
    status, history = deployed.messages[5].json["result"]["status"], deployed.messages[5].json["result"]["history"]
    assert "message" not in status and history[-1]["role"] == "ROLE_AGENT"
    assert "message" in seed.messages[5].json["result"]["status"]


def test_a_follow_up_without_context_completes_as_deployed_and_fails_per_request():
    session = scenarios.load(ROOT / "scenarios" / "a2a_per_request.json").session("a2a_release_failed_status")
    per_request = engine.run_session(session)
    deployed = engine.run_session(replace(session, harness=None))
    assert per_request.messages[3].json["error"]["code"] == -32602
    assert deployed.messages[3].json["result"]["task"]["status"]["state"] == "TASK_STATE_COMPLETED"


def test_same_steps_differ_at_holds_only_where_the_recordings_differ():
    transcripts = {t.name: t for f in ("a2a_sdk_exchanges.json", "a2a_sdk_exchanges_more.json")
                   for t in load_recording(str(ROOT / "recordings" / f)).sessions}
    steps = {"a2a_cancel": SEED.session("a2a_cancel").spec,
             "a2a_cancel_deployed": scenarios.load(ROOT / "scenarios" / "a2a_more.json")
             .session("a2a_cancel_deployed").spec}
    rec = Recorded(transcripts, steps)
    assert SameStepsDifferAt("a2a_cancel", "a2a_cancel_deployed", (6,)).check(rec) is None
    assert "differ at messages [6]" in SameStepsDifferAt("a2a_cancel", "a2a_cancel_deployed", (4, 6)).check(rec)
    other = Recorded(transcripts, {**steps, "a2a_cancel_deployed": {"steps": []}})
    assert "different steps" in SameStepsDifferAt("a2a_cancel", "a2a_cancel_deployed", (6,)).check(other)


def test_the_recorder_says_the_transport_the_family_names_for_each_harness():
    import subprocess
    import sys

    probe = ("import sys, json; sys.path.insert(0, 'scripts'); import record_a2a_sdk; "
             "print(json.dumps({str(k): v for k, v in record_a2a_sdk.TRANSPORTS.items()}))")
    said = json.loads(subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True,
                                     check=True).stdout)
    family = FAMILIES["a2a"]
    assert said == {"None": family.transport, **family.harnesses}


def _subscribed_agent(harness: str | None):
    from agent_loop_sim.protocols.a2a import RESEARCH_AGENT, RESEARCH_CARD, Agent, HttpRequest

    agent = Agent(RESEARCH_CARD, RESEARCH_AGENT, rules=HARNESS_RULES[harness])
    url = RESEARCH_CARD.base_url + RESEARCH_CARD.rpc_path
    headers = [("Content-Type", "application/json"), ("A2A-Version", "1.0")]

    def post(rpc_id: int, method: str, params: dict):
        return agent.handle(HttpRequest("POST", url, headers, {"jsonrpc": "2.0", "id": rpc_id, "method": method,
                                                               "params": params}))

    sent = post(1, "SendMessage", {"message": {"messageId": "m1", "role": "ROLE_USER",
                                               "parts": [{"text": "summarise the meeting"}]}})
    task_id = sent.body["result"]["task"]["id"]
    return agent, post, task_id, post(2, "SubscribeToTask", {"id": task_id})


def test_a_live_subscription_gets_the_later_updates_of_its_task_and_ends_with_it():
    agent, post, task_id, stream = _subscribed_agent(None)
    assert stream.open and stream.later is not None and stream.later.take() == []
    post(3, "SendMessage", {"message": {"messageId": "m2", "role": "ROLE_USER", "parts": [{"text": "Tuesday"}],
                                        "taskId": task_id}})
    later = stream.later.take()
    assert [next(iter(e["result"])) for e in later] == ["statusUpdate", "artifactUpdate", "artifactUpdate",
                                                        "statusUpdate"]
    assert {e["id"] for e in later} == {2} and stream.later.closed and agent.handler.subscriptions == {}
    assert _subscribed_agent("per_request")[3].later is None  # no run alive: nothing comes later


def test_a_subscription_whose_client_left_is_forgotten():
    agent, _, task_id, stream = _subscribed_agent(None)
    assert list(agent.handler.subscriptions) == [task_id]
    stream.later.drop()
    assert agent.handler.subscriptions == {}
