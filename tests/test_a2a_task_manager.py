"""The SDK's TaskManager as the model keeps it (agent_loop_sim.protocols.a2a.task_manager), and the
consumer's refusals of events that break the task/message modes (active_task): a case per branch."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from agent_loop_sim.protocols.a2a import states
from agent_loop_sim.protocols.a2a.active_task import ActiveTask
from agent_loop_sim.protocols.a2a.errors import A2AError
from agent_loop_sim.protocols.a2a.script import Event
from agent_loop_sim.protocols.a2a.task_manager import TaskManager

HI = {"messageId": "m1", "role": "ROLE_USER", "parts": [{"text": "hi"}]}


def _artifact(artifact_id: str, text: str, append: bool = False) -> Event:
    body = {"taskId": "t1", "contextId": "c1", "artifact": {"artifactId": artifact_id, "parts": [{"text": text}]}}
    return Event("artifactUpdate", {**body, "append": True} if append else body)


def test_a_new_task_is_made_with_its_context_and_the_first_message():
    manager = TaskManager({}, "", "", HI)
    assert manager.ensure_task("t1", "c1") == {"id": "t1", "status": {"state": states.SUBMITTED}, "contextId": "c1",
                                                "history": [HI]}
    assert (manager.task_id, manager.context_id) == ("t1", "c1")  # the first task saved names them


def test_a_status_update_without_a_task_makes_one_in_the_events_context():
    manager = TaskManager({}, "t1", "", None)
    task = manager.save_task_event(Event("statusUpdate", {"taskId": "t1", "contextId": "c1",
                                                          "status": {"state": states.WORKING}}))
    assert task == {"id": "t1", "status": {"state": states.WORKING}, "contextId": "c1"}


def test_a_status_updates_metadata_is_merged_into_the_tasks():
    store = {"t1": {"id": "t1", "contextId": "c1", "status": {"state": states.WORKING}, "metadata": {"a": 1}}}
    task = TaskManager(store, "t1", "c1", None).save_task_event(
        Event("statusUpdate", {"taskId": "t1", "contextId": "c1", "status": {"state": states.WORKING},
                               "metadata": {"b": 2}}))
    assert task["metadata"] == {"a": 1, "b": 2} and store["t1"] is task


def test_an_artifact_of_the_same_id_replaces_the_old_one_and_an_append_grows_it():
    manager = TaskManager({}, "t1", "c1", None)
    manager.save_task_event(_artifact("a1", "one"))
    manager.save_task_event(_artifact("a2", "two"))
    assert manager.save_task_event(_artifact("a1", "new"))["artifacts"] == [
        {"artifactId": "a1", "parts": [{"text": "new"}]}, {"artifactId": "a2", "parts": [{"text": "two"}]}]
    assert manager.save_task_event(_artifact("a2", "more", append=True))["artifacts"][1] == {
        "artifactId": "a2", "parts": [{"text": "two"}, {"text": "more"}]}


def test_an_append_to_an_artifact_never_made_is_refused_as_the_sdk_words_it():
    with pytest.raises(A2AError) as caught:
        TaskManager({}, "t1", "c1", None).save_task_event(_artifact("a9", "x", append=True))
    assert (caught.value.kind, caught.value.message) == (
        "InvalidAgentResponseError", "append=True for nonexistent artifact_id='a9' in task 't1'. The artifact must be "
                                     "created (append=False) before appending parts to it.")


@pytest.mark.parametrize("task_mode, message", [
    (True, "Received Message object in task mode. Use TaskStatusUpdateEvent or TaskArtifactUpdateEvent instead."),
    (False, "Multiple Message objects received."),
], ids=["task-mode", "message-mode"])
def test_a_message_after_a_task_or_a_message_is_refused(task_mode, message):
    active = ActiveTask(SimpleNamespace(tasks={}), "t1", "c1", None)
    active.task_mode = task_mode
    with pytest.raises(A2AError) as caught:
        active._consume(Event("message", {"messageId": "m2", "role": "ROLE_AGENT", "parts": [{"text": "x"}]}))
    assert (caught.value.kind, caught.value.message, str(caught.value)) == ("InvalidAgentResponseError", message, message)


def test_a_bare_json_rpc_error_says_its_message():
    from agent_loop_sim.protocols.a2a.errors import JsonRpcError

    error = JsonRpcError(-32600, "Request payload validation error")
    assert (str(error), error.to_json()) == ("Request payload validation error",
                                             {"code": -32600, "message": "Request payload validation error"})


def test_an_event_of_another_task_is_refused_in_the_sdks_words():
    manager = TaskManager({}, "t1", "c1", None)
    with pytest.raises(A2AError) as caught:
        manager.save_task_event(Event("statusUpdate", {"taskId": "t2", "contextId": "c1", "status": {}}))
    assert (caught.value.kind, caught.value.message) == ("InvalidParamsError",
                                                         "Task in event doesn't match TaskManager t1 : t2")


def test_a_task_made_without_a_context_leaves_the_context_empty():
    manager = TaskManager({}, "", "", None)
    assert manager.ensure_task("t1", "") == {"id": "t1", "status": {"state": states.SUBMITTED}}
    assert (manager.task_id, manager.context_id) == ("t1", "")


def test_an_append_merges_the_chunks_metadata():
    manager = TaskManager({}, "t1", "c1", None)
    first = _artifact("a1", "one")
    first.body["artifact"]["metadata"] = {"a": 1}
    manager.save_task_event(first)
    more = _artifact("a1", "two", append=True)
    more.body["artifact"]["metadata"] = {"b": 2}
    assert manager.save_task_event(more)["artifacts"] == [
        {"artifactId": "a1", "parts": [{"text": "one"}, {"text": "two"}], "metadata": {"a": 1, "b": 2}}]
