"""The orchestrator model (agent_loop_sim.protocols.a2a.orchestrator): requests from steps and answers."""
from __future__ import annotations

import pytest

from agent_loop_sim.errors import InputError
from agent_loop_sim.protocols.a2a import HttpResponse, Orchestrator
from agent_loop_sim.protocols.a2a.orchestrator import is_final_event

URL = "https://research.example.com"


def _task(state: str, task_id: str = "t1", context: str = "c1") -> dict:
    return {"id": task_id, "contextId": context, "status": {"state": state}}


def test_a_follow_up_carries_the_current_task_and_its_context():
    orchestrator = Orchestrator([{"op": "send", "text": "a"}, {"op": "send", "text": "b", "task": "current"}], URL)
    first = orchestrator.next_request()
    assert first.method == "POST" and first.url == URL + "/a2a" and ("A2A-Version", "1.0") in first.headers
    assert "taskId" not in first.body["params"]["message"]
    orchestrator.receive(HttpResponse(200, body={"jsonrpc": "2.0", "id": 1,
                                                 "result": {"task": _task("TASK_STATE_INPUT_REQUIRED")}}))
    second = orchestrator.next_request()
    message = second.body["params"]["message"]
    assert (second.body["id"], message["taskId"], message["contextId"]) == (2, "t1", "c1")
    orchestrator.receive(HttpResponse(200, body={"jsonrpc": "2.0", "id": 2, "result": {}}))
    assert orchestrator.next_request() is None


def test_no_version_means_no_header_and_a_message_label_reuses_the_id():
    orchestrator = Orchestrator([{"op": "send", "text": "a", "version": None, "message": "m"},
                                 {"op": "send", "text": "a", "method": "message/send", "message": "m"}], URL)
    first = orchestrator.next_request()
    assert [k for k, _ in first.headers] == ["Content-Type"]
    orchestrator.receive(HttpResponse(200, body={"jsonrpc": "2.0", "id": 1, "error": {}}))
    second = orchestrator.next_request()
    assert second.body["method"] == "message/send"
    assert second.body["params"]["message"]["messageId"] == first.body["params"]["message"]["messageId"]


def test_revalidation_sends_the_etag_of_the_last_card():
    orchestrator = Orchestrator([{"op": "card"}, {"op": "card", "revalidate": True}], URL)
    first = orchestrator.next_request()
    assert (first.method, first.url, first.headers) == ("GET", URL + "/.well-known/agent-card.json", [])
    assert first.message().http == {"method": "GET", "path": "/.well-known/agent-card.json", "headers": []}
    orchestrator.receive(HttpResponse(200, [("ETag", 'W/"x"')], {}))
    assert orchestrator.next_request().message().http["headers"] == [["If-None-Match", 'W/"x"']]


@pytest.mark.parametrize("event, final", [
    ({"result": {"task": _task("TASK_STATE_SUBMITTED")}}, False),
    ({"result": {"statusUpdate": {"taskId": "t", "status": {"state": "TASK_STATE_WORKING"}}}}, False),
    ({"result": {"artifactUpdate": {"taskId": "t", "artifact": {}}}}, False),
    ({"result": {"statusUpdate": {"taskId": "t", "status": {"state": "TASK_STATE_INPUT_REQUIRED"}}}}, True),
    ({"result": {"task": _task("TASK_STATE_AUTH_REQUIRED")}}, True),
    ({"result": {"statusUpdate": {"taskId": "t", "status": {"state": "TASK_STATE_COMPLETED"}}}}, True),
    ({"result": {"message": {"messageId": "m"}}}, True),
    ({"error": {"code": -32603}}, True),
])
def test_the_orchestrator_stops_reading_at_what_it_waits_for(event, final):
    assert is_final_event(event) is final


def test_a_task_reference_without_a_task_is_an_input_error():
    orchestrator = Orchestrator([{"op": "get"}], URL, where=["sessions", 3])
    with pytest.raises(InputError) as caught:
        orchestrator.next_request()
    assert caught.value.path == "$.sessions[3].steps[0].task"


def test_a_card_fetch_with_if_none_match_sends_that_header():
    orchestrator = Orchestrator([{"op": "card", "if_none_match": '"v1"'}], URL)
    assert orchestrator.next_request().headers == [("If-None-Match", '"v1"')]


def test_revalidating_a_card_answered_without_an_etag_is_refused_at_the_step():
    orchestrator = Orchestrator([{"op": "card"}, {"op": "card", "revalidate": True}], URL, where=["sessions", 2])
    orchestrator.next_request()
    orchestrator.receive(HttpResponse(200, [], {}))
    with pytest.raises(InputError) as caught:
        orchestrator.next_request()
    assert (caught.value.problem, caught.value.path) == ("the last card answer had no ETag to revalidate",
                                                         "$.sessions[2].steps[1].revalidate")


def test_the_agent_url_loses_only_its_trailing_slashes():
    orchestrator = Orchestrator([{"op": "card"}, {"op": "send", "text": "a"}], "https://agents.example/X//")
    assert orchestrator.next_request().url == "https://agents.example/X/.well-known/agent-card.json"
    assert orchestrator.rpc_url == "https://agents.example/X/a2a"


def test_a_streamed_status_update_names_the_current_task():
    orchestrator = Orchestrator([{"op": "send", "text": "a", "stream": True}, {"op": "send", "text": "b", "task": "current"}],
                                URL)
    orchestrator.next_request()
    assert orchestrator.receive_event({"jsonrpc": "2.0", "id": 1, "result": {"statusUpdate": {
        "taskId": "t9", "contextId": "c9", "status": {"state": "TASK_STATE_INPUT_REQUIRED"}}}})
    message = orchestrator.next_request().body["params"]["message"]
    assert (message["taskId"], message["contextId"]) == ("t9", "c9")


def test_a_listing_carries_its_page_token():
    orchestrator = Orchestrator([{"op": "list", "page_token": "p1", "page_size": 2}], URL)
    assert orchestrator.next_request().body["params"] == {"pageSize": 2, "pageToken": "p1"}


def test_the_last_context_before_any_is_refused_at_the_step():
    orchestrator = Orchestrator([{"op": "send", "text": "a", "context": "last"}], URL, where=["sessions", 0])
    with pytest.raises(InputError) as caught:
        orchestrator.next_request()
    assert (caught.value.problem, caught.value.path) == ("no context yet: the agent has not sent a context ID",
                                                         "$.sessions[0].steps[0].context")


def test_a_push_config_listing_carries_its_page_token():
    orchestrator = Orchestrator([{"op": "send", "text": "a"}, {"op": "push_config", "action": "list", "page_token": "p1",
                                                                "page_size": 3}], URL)
    orchestrator.next_request()
    orchestrator.receive(HttpResponse(200, body={"jsonrpc": "2.0", "id": 1,
                                                 "result": {"task": _task("TASK_STATE_INPUT_REQUIRED")}}))
    assert orchestrator.next_request().body["params"] == {"taskId": "t1", "pageSize": 3, "pageToken": "p1"}
