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


def test_a_null_drops_the_value_given_under_the_fields_other_name():
    # protobuf's parser takes a field by its JSON or its proto name; the later null clears it
    assert parse("Message", {"messageId": "m", "message_id": None, "role": "ROLE_USER"}) == {"role": "ROLE_USER"}


def test_a_string_field_refuses_a_number():
    with pytest.raises(ParseFailure, match="^Failed to parse messageId field: expected string or bytes-like object, got 'int'.$"):
        parse("Message", {"messageId": 5, "role": "ROLE_USER"})


def test_a_written_struct_is_a_copy_and_a_scalar_is_the_value():
    from agent_loop_sim.protocols.a2a.types import written

    task = {"metadata": {"a": [1]}, "id": "t", "status": {"state": "TASK_STATE_WORKING"}}
    out = written("Task", task)
    assert out == {"id": "t", "status": {"state": "TASK_STATE_WORKING"}, "metadata": {"a": [1]}}
    assert out["metadata"] is not task["metadata"] and out["metadata"]["a"] is not task["metadata"]["a"]


# The field table is built at import, before mutmut switches a mutant on: these build specs again.

def test_a_field_spec_derives_its_json_name_presence_and_default():
    from agent_loop_sim.protocols.a2a.types import STRING, STRUCT, FieldSpec, _f

    assert _f("reference_task_ids", STRING, repeated=True) == FieldSpec("reference_task_ids", "referenceTaskIds", STRING,
                                                                         repeated=True)
    assert _f("status", "message:TaskStatus") == FieldSpec("status", "status", "message:TaskStatus", presence=True)
    assert _f("parts", "message:Part", repeated=True).presence is False
    assert _f("metadata", STRUCT).presence is True and _f("text", STRING, oneof="content").presence is True
    assert _f("id", STRING).presence is False


def test_a_field_spec_knows_its_inner_type_enum_and_default():
    from agent_loop_sim.protocols.a2a.types import ENUMS, FieldSpec

    part = FieldSpec("parts", "parts", "message:Part", repeated=True)
    role = FieldSpec("role", "role", "enum:Role")
    count = FieldSpec("page_size", "pageSize", "int32")
    assert (part.inner, part.enum, part.default) == ("Part", None, [])
    assert (role.inner, role.enum, role.default) == (None, ENUMS["Role"], "ROLE_UNSPECIFIED")
    assert (count.inner, count.enum, count.default) == (None, None, 0)


def test_an_int32_field_takes_both_ends_of_its_range_and_nothing_past_them():
    assert parse("GetTaskRequest", {"id": "t", "historyLength": -2**31}) == {"id": "t", "historyLength": -2**31}
    assert parse("GetTaskRequest", {"id": "t", "historyLength": 2**31 - 1}) == {"id": "t", "historyLength": 2**31 - 1}
    for value in (-2**31 - 1, 2**31):
        with pytest.raises(ParseFailure):
            parse("GetTaskRequest", {"id": "t", "historyLength": value})
