"""The agent model (agent_loop_sim.protocols.a2a.agent), one HTTP request at a time."""
from __future__ import annotations

from agent_loop_sim.protocols.a2a import RESEARCH_AGENT, RESEARCH_CARD, Agent, HttpRequest, states

RPC = RESEARCH_CARD.base_url + "/a2a"


def _post(agent: Agent, method: str, params=None, version: str | None = "1.0", rpc_id: int = 1):
    body = {"jsonrpc": "2.0", "id": rpc_id, "method": method}
    if params is not None:
        body["params"] = params
    headers = [("A2A-Version", version)] if version is not None else []
    return agent.handle(HttpRequest("POST", RPC, headers, body))


def _send(agent: Agent, text: str, task=None, context=None, stream=False, message_id="m1", **config):
    message = {"messageId": message_id, "role": "ROLE_USER", "parts": [{"text": text}]}
    if task:
        message["taskId"] = task
    if context:
        message["contextId"] = context
    params = {"message": message}
    if config:
        params["configuration"] = config
    return _post(agent, "SendStreamingMessage" if stream else "SendMessage", params)


def _agent() -> Agent:
    return Agent(RESEARCH_CARD, RESEARCH_AGENT)


def test_the_method_is_looked_up_before_the_version_is_checked():
    answer = _post(_agent(), "message/send", {}, version=None)
    assert answer.body["error"] == {"code": -32601, "message": "Method not found"}


def test_the_version_is_checked_before_the_params_are_validated():
    answer = _post(_agent(), "SendMessage", {"message": {"parts": []}}, version=None)
    assert answer.body["error"]["code"] == -32009
    answer = _post(_agent(), "SendMessage", {"message": {"parts": []}})
    assert answer.body["error"]["message"] == "Validation failed"
    assert answer.body["error"]["data"][1]["fieldViolations"][-1] == {
        "field": "message.parts", "description": "Field must contain at least one element."}


def test_cancelling_a_waiting_task_keeps_its_status_message():
    agent = _agent()
    task = _send(agent, "summarise the meeting").body["result"]["task"]
    cancelled = _post(agent, "CancelTask", {"id": task["id"]}).body["result"]
    assert cancelled["status"]["state"] == states.CANCELED
    assert cancelled["status"]["message"] == task["status"]["message"]
    assert cancelled["history"] == task["history"]
    again = _post(agent, "CancelTask", {"id": task["id"]}).body["error"]
    assert (again["code"], again["message"]) == (-32002, "Task cannot be canceled")
    refused = _send(agent, "Tuesday", task=task["id"], context=task["contextId"]).body["error"]
    assert refused["message"] == f"Task {task['id']} is in terminal state: TASK_STATE_CANCELED"


def test_a_follow_up_without_its_context_fails_the_task():
    agent = _agent()
    task = _send(agent, "summarise the meeting").body["result"]["task"]
    error = _send(agent, "Tuesday", task=task["id"], message_id="m2").body["error"]
    assert error["code"] == -32602 and error["message"].startswith("Context in event doesn't match TaskManager ")
    stored = _post(agent, "GetTask", {"id": task["id"]}).body["result"]
    assert stored["status"] == {"state": states.FAILED}
    assert [m["messageId"] for m in stored["history"]][-1] == "m2"
    assert stored["history"][-1]["contextId"] != task["contextId"]


def test_a_stream_is_one_event_per_update():
    answer = _send(_agent(), "summarise the notes", stream=True, historyLength=0)
    kinds = [next(iter(e["result"])) for e in answer.events]
    assert kinds == ["task", "statusUpdate", "artifactUpdate", "artifactUpdate", "statusUpdate"]
    assert "history" not in answer.events[0]["result"]["task"] and not answer.open


def test_a_subscription_to_a_waiting_task_stays_open_after_the_task():
    agent = _agent()
    task = _send(agent, "check my calendar").body["result"]["task"]
    answer = _post(agent, "SubscribeToTask", {"id": task["id"]})
    assert answer.open and [e["result"]["task"]["id"] for e in answer.events] == [task["id"]]


def test_an_error_before_the_first_event_is_not_a_stream():
    answer = _post(_agent(), "SubscribeToTask", {"id": "nope"})
    assert not answer.is_stream and answer.body["error"]["code"] == -32001


def test_a_reused_message_id_is_not_added_to_the_history_again():
    agent = _agent()
    task = _send(agent, "summarise the meeting").body["result"]["task"]
    done = _send(agent, "Tuesday", task=task["id"], context=task["contextId"]).body["result"]["task"]
    assert [m["messageId"] for m in done["history"]] == ["m1", task["status"]["message"]["messageId"]]


def _post_raw(agent: Agent, raw: str):
    return agent.handle(HttpRequest("POST", RPC, [("A2A-Version", "1.0")], raw=raw))


def test_null_params_are_invalid_params_for_every_method_it_has():
    # protobuf's ParseDict iterates the params' names: null is not iterable (fuzz seed 1).
    for method in ("SendMessage", "GetTask", "ListTasks", "GetExtendedAgentCard"):
        answer = _post_raw(_agent(), f'{{"jsonrpc": "2.0", "id": 3, "method": "{method}", "params": null}}')
        error = answer.body["error"]
        assert (error["code"], error["message"], answer.body["id"]) == (-32602, "Invalid params", 3)
        assert error["data"][0]["metadata"] == {"parseError": "'NoneType' object is not iterable"}


def test_null_params_come_after_the_method_is_looked_up():
    answer = _post_raw(_agent(), '{"jsonrpc": "2.0", "id": 4, "method": "tasks/get", "params": null}')
    assert answer.body["error"] == {"code": -32601, "message": "Method not found"}
    answer = _post_raw(_agent(), '{"jsonrpc": "2.0", "method": "GetTask", "params": null}')
    assert answer.body["id"] is None and answer.body["error"]["code"] == -32602


def test_a_page_holds_1_to_100_tasks():
    def listed(size):
        return _post(_agent(), "ListTasks", {"pageSize": size}).body

    for size in (1, 100):
        assert listed(size)["result"]["pageSize"] == size
    for size, problem in ((0, "minimum page size is 1"), (101, "maximum page size is 100")):
        error = listed(size)["error"]
        assert (error["code"], error["message"]) == (-32602, problem)


def _no_streaming_agent() -> Agent:
    from dataclasses import replace

    return Agent(replace(RESEARCH_CARD, streaming=False), RESEARCH_AGENT)


UNSUPPORTED = {"code": -32004, "message": "Streaming is not supported by the agent", "data": [
    {"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "UNSUPPORTED_OPERATION",
     "domain": "a2a-protocol.org", "metadata": {}}]}


def test_an_agent_without_streaming_refuses_a_stream_and_a_subscription():
    agent = _no_streaming_agent()
    assert _send(agent, "summarise the meeting", stream=True).body["error"] == UNSUPPORTED
    task = _send(agent, "summarise the meeting").body["result"]["task"]
    assert _post(agent, "SubscribeToTask", {"id": task["id"]}).body["error"] == UNSUPPORTED


def test_a_stream_without_its_message_is_refused_by_validation():
    assert _post(_agent(), "SendStreamingMessage", {}).body["error"] == {
        "code": -32602, "message": "Validation failed", "data": [
            {"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "INVALID_PARAMS", "domain": "a2a-protocol.org",
             "metadata": {"errors": [{"field": "message", "message": "Field is required."}]}},
            {"@type": "type.googleapis.com/google.rpc.BadRequest",
             "fieldViolations": [{"field": "message", "description": "Field is required."}]}]}


def test_return_immediately_answers_with_the_first_task_published():
    assert _send(_agent(), "summarise the design notes", returnImmediately=True).body["result"]["task"]["status"][
        "state"] == states.SUBMITTED
    assert _send(_agent(), "summarise the design notes").body["result"]["task"]["status"]["state"] == states.COMPLETED


def test_a_request_to_another_origin_is_not_the_agents():
    """Routing is Starlette's, done before the agent is asked (serve a2a's edge); a request routed
    here by mistake is the caller's error, not a gap in the model."""
    import pytest

    other = "https://research.example.org/.well-known/agent-card.json"  # (as long as the agent's own origin)
    with pytest.raises(ValueError) as caught:
        _agent().handle(HttpRequest("GET", other, [], None))
    assert str(caught.value) == (f"GET {other}: the agent is asked only for its card and /a2a "
                                 "(route the others first, as serve a2a does)")


def test_listed_tasks_put_the_one_without_a_status_timestamp_last():
    agent = _agent()
    agent.tasks["a"] = {"id": "a", "contextId": "c", "status": {"state": states.SUBMITTED}}
    agent.tasks["b"] = {"id": "b", "contextId": "c", "status": {"state": states.WORKING,
                                                                "timestamp": "2026-01-01T00:00:00.000001Z"}}
    agent.tasks["z"] = {"id": "z", "contextId": "c", "status": {"state": states.WORKING,
                                                                "timestamp": "2026-01-01T00:00:00.000009Z"}}
    assert [t["id"] for t in _post(agent, "ListTasks", {}).body["result"]["tasks"]] == ["z", "b", "a"]


def test_a_listing_longer_than_its_page_gives_a_next_page():
    """A listing past its page (50 tasks by default) is paged as the SDK's store pages it: the first
    50, newest first, and a token for the next page, which lists the rest and no token."""
    agent = _agent()
    for i in range(51):  # (the default page is 50 tasks)
        agent.tasks[f"t{i}"] = {"id": f"t{i}", "contextId": "c", "status": {
            "state": states.WORKING, "timestamp": f"2026-01-01T00:00:00.{i:06d}Z"}}
    first = _post(agent, "ListTasks", {}).body["result"]
    assert len(first["tasks"]) == 50 and first["nextPageToken"]
    rest = _post(agent, "ListTasks", {"pageToken": first["nextPageToken"]}, rpc_id=2).body["result"]
    assert [t["id"] for t in rest["tasks"]] == ["t0"] and not rest.get("nextPageToken")