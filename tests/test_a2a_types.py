"""Reading params into protocol types and checking REQUIRED fields (agent_loop_sim.protocols.a2a.types)."""
from __future__ import annotations

import pytest

from agent_loop_sim.protocols.a2a.types import ParseFailure, parse, required_violations, with_every_field


def test_unknown_fields_are_dropped_and_defaults_disappear():
    message = parse("Message", {"messageId": "m", "role": "ROLE_USER", "parts": [{"text": "x", "mediaType": ""}],
                                "taskId": "", "nonsense": 1})
    assert message == {"messageId": "m", "role": "ROLE_USER", "parts": [{"text": "x"}]}


def test_struct_numbers_become_floats_and_bytes_get_padding():
    part = parse("Part", {"data": {"n": 1, "l": [2, "x", None, True]}, "metadata": {"k": 3}})
    assert part == {"data": {"n": 1.0, "l": [2.0, "x", None, True]}, "metadata": {"k": 3.0}}
    assert type(part["data"]["n"]) is float
    assert parse("Part", {"raw": "aGVsbG8"}) == {"raw": "aGVsbG8="}


def test_a_oneof_takes_one_field():
    with pytest.raises(ParseFailure):
        parse("Part", {"text": "a", "url": "b"})


def test_presence_fields_keep_their_default():
    assert parse("GetTaskRequest", {"id": "t", "historyLength": 0}) == {"id": "t", "historyLength": 0}


def test_required_violations_in_the_sdk_words():
    params = parse("SendMessageRequest", {"message": {"role": "ROLE_USER", "parts": []}})
    assert required_violations("SendMessageRequest", params) == [
        {"field": "message.message_id", "message": "Field is required."},
        {"field": "message.parts", "message": "Field must contain at least one element."},
    ]
    assert required_violations("SendMessageRequest", {}) == [{"field": "message", "message": "Field is required."}]
    assert required_violations("DeleteTaskPushNotificationConfigRequest", {}) == [
        {"field": "task_id", "message": "Field is required."}, {"field": "id", "message": "Field is required."}]


def test_every_field_printed():
    out = with_every_field("Message", {"messageId": "m", "role": "ROLE_USER", "parts": [{"text": "x"}]})
    assert out == {"messageId": "m", "role": "ROLE_USER", "parts": [{"text": "x", "filename": "", "mediaType": ""}],
                   "contextId": "", "taskId": "", "extensions": [], "referenceTaskIds": []}


def test_answers_are_written_in_the_order_protobuf_writes_fields():
    from agent_loop_sim.protocols.a2a.types import written

    task = {"history": [{"parts": [{"text": "hi"}], "role": "ROLE_USER", "taskId": "t", "messageId": "m",
                         "contextId": "c"}],
            "status": {"timestamp": "now", "state": "TASK_STATE_WORKING"}, "contextId": "c", "id": "t"}
    out = written("SendMessageResponse", {"task": task})
    assert list(out["task"]) == ["id", "contextId", "status", "history"]
    assert list(out["task"]["status"]) == ["state", "timestamp"]
    assert list(out["task"]["history"][0]) == ["messageId", "contextId", "taskId", "role", "parts"]
    # every field printed: those holding a value first, then those at their default
    listing = written("ListTasksResponse", {"tasks": [], "nextPageToken": "", "pageSize": 50, "totalSize": 0})
    assert list(listing) == ["pageSize", "tasks", "nextPageToken", "totalSize"]
