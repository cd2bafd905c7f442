from __future__ import annotations

import copy
import json
import re
from typing import Any

import pytest

from agent_loop_sim import engine
from agent_loop_sim.normalise import normalise_a2a, normalise_mcp
from agent_loop_sim.project import Project
from agent_loop_sim.protocols import FAMILIES
from agent_loop_sim.transcript import Message
from conftest import ROOT


def test_mcp_request_ids_are_renumbered_per_side_and_every_other_id_stays_as_written():
    log = [
        Message("client", "server", json={"jsonrpc": "2.0", "id": 7, "method": "tools/call",
                                          "params": {"_meta": {"progressToken": 7}}}),
        Message("server", "client", json={"jsonrpc": "2.0", "method": "notifications/progress",
                                          "params": {"progressToken": 7, "progress": 1}}),
        Message("server", "client", json={"jsonrpc": "2.0", "id": 0, "method": "elicitation/create"}),
        Message("client", "server", json={"jsonrpc": "2.0", "id": 0, "result": {}}),
        Message("server", "client", json={"jsonrpc": "2.0", "id": 7, "result": {}}),
        Message("client", "server", raw="{not json"),
        Message("client", "server", json={"jsonrpc": "2.0", "id": None, "method": "x"}),
        Message("client", "server", json={"jsonrpc": "2.0", "id": 99, "result": {}}),
        Message("client", "server", json={"jsonrpc": "2.0", "method": "notifications/cancelled",
                                          "params": {"requestId": 7}}),
    ]
    out = normalise_mcp(log)
    assert [m.json.get("id") if m.json else None for m in out] == ["c1", None, "s1", "s1", "c1", None, None, 99, None]
    assert out[0].json["params"]["_meta"]["progressToken"] == 7  # not a request id: as written
    assert out[1].json["params"]["progressToken"] == 7
    assert out[8].json["params"]["requestId"] == 7
    assert out[5].raw == "{not json"
    assert out[0] is log[0]  # renamed in the messages given (the caller's log, dropped after)


def test_mcp_string_and_int_ids_are_different_ids():
    log = [Message("client", "server", json={"jsonrpc": "2.0", "id": 1, "method": "a"}),
           Message("client", "server", json={"jsonrpc": "2.0", "id": "1", "method": "b"})]
    assert [m.json["id"] for m in normalise_mcp(log)] == ["c1", "c2"]


def test_a2a_uuids_in_order_of_appearance_inside_strings_too_and_times_blanked():
    u1, u2 = "0c789eab-44eb-4154-8de8-bfee2d00e741", "11111111-2222-3333-4444-555555555555"
    log = [Message("agent", "orchestrator", json={"z": u2, "a": f"Task {u1} is done",
                                                  "status": {"timestamp": "2026-12-02T10:00:00.123456+00:00"}})]
    (m,) = normalise_a2a(log)
    assert list(m.json) == ["z", "a", "status"]  # the order sent
    assert m.json == {"z": "<id-1>", "a": "Task <id-2> is done", "status": {"timestamp": "<time>"}}


def test_a2a_keys_keep_their_order_except_below_metadata_and_data():
    http = {"status": 200, "headers": [["Content-Type", "application/json"]]}
    log = [Message("agent", "orchestrator", http=http, json={
        "result": {"message": {"messageId": "m", "role": "ROLE_AGENT", "metadata": {"z": {"y": 1, "b": 2}, "a": 1},
                               "parts": [{"data": {"k": 1, "c": [{"q": 1, "p": 2}]}}]}}, "id": 1, "jsonrpc": "2.0"})]
    (m,) = normalise_a2a(log)
    assert list(m.json) == ["result", "id", "jsonrpc"]
    message = m.json["result"]["message"]
    assert list(message) == ["messageId", "role", "metadata", "parts"]
    assert list(message["metadata"]) == ["a", "z"] and list(message["metadata"]["z"]) == ["b", "y"]
    assert list(message["parts"][0]["data"]) == ["c", "k"] and list(message["parts"][0]["data"]["c"][0]) == ["p", "q"]
    assert m.http == http


# The normal form is shared by the recorders and the engine, so whatever it drops could differ
# unseen on both sides. Over every committed session, played by the model and normalised, it
# changes nothing but what it declares: MCP request ids (in place), A2A UUIDs and timestamps in
# strings, and the key order below `metadata`/`data`.

# What the A2A form may change, written out here rather than taken from the module (a test that
# borrowed its patterns would agree with any change made to them).
UNSORTED_BELOW = {"metadata", "data"}
A_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", re.IGNORECASE)
A_TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:?\d\d)?")


def _masked(value: Any, below_unordered: bool = False) -> Any:
    """``value`` with what the A2A form may change masked: UUIDs and timestamps in strings, and
    key order below metadata/data (as sorted pairs; elsewhere the pairs stay in their order)."""
    if isinstance(value, dict):
        pairs = [(k, _masked(v, below_unordered or k in UNSORTED_BELOW)) for k, v in value.items()]
        return ("{}", sorted(pairs) if below_unordered else pairs)
    if isinstance(value, list):
        return [_masked(v, below_unordered) for v in value]
    if isinstance(value, str):
        if value.startswith("<page after ") or _is_page_token(value):
            return "<page>"
        return "<time>" if A_TIME.fullmatch(value) or value == "<time>" else \
            re.sub(r"<id-\d+>", "<id>", A_UUID.sub("<id>", value))
    return value


def _is_page_token(value: str) -> bool:
    """A ListTasks cursor (URL-safe base64 of {"ts", "id"}): the form names it by its task."""
    import base64
    import binascii
    import json

    try:
        data = json.loads(base64.urlsafe_b64decode(value + "=" * (-len(value) % 4)))
    except (binascii.Error, ValueError):
        return False
    return isinstance(data, dict) and data.keys() == {"ts", "id"}


def _without_ids(value: Any) -> Any:
    """An MCP message (or batch) with its top-level ids masked, its key order kept."""
    if isinstance(value, list):
        return [_without_ids(v) for v in value]
    if isinstance(value, dict):
        return [(k, "<id>" if k == "id" else v) for k, v in value.items()]
    return value


def _played_and_normalised(family: str):
    for file in Project(ROOT).scenario_files():
        if file.family != family:
            continue
        for session in file.sessions:
            played = engine.play(session)
            before = copy.deepcopy([(m.sender, m.receiver, m.json, m.raw, m.sse) for m in played])
            yield session.name, before, FAMILIES[family].normalise(played)


def _compare_mcp(before, after) -> list[int]:
    return [n for n, (b, m) in enumerate(zip(before, after), 1)
            if (b[0], b[1], b[3], b[4], _without_ids(b[2])) != (m.sender, m.receiver, m.raw, m.sse, _without_ids(m.json))]


def _compare_a2a(before, after) -> list[int]:
    return [n for n, (b, m) in enumerate(zip(before, after), 1)
            if (b[0], b[1], b[3], b[4], _masked(b[2])) != (m.sender, m.receiver, m.raw, m.sse, _masked(m.json))]


@pytest.mark.parametrize("family,compare", [("mcp", _compare_mcp), ("a2a", _compare_a2a)])
def test_the_normal_form_changes_nothing_but_what_it_declares(family, compare):
    sessions = 0
    for name, before, after in _played_and_normalised(family):
        assert len(after) == len(before), name
        assert compare(before, after) == [], name
        sessions += 1
    assert sessions > 20


def test_the_normal_form_check_can_fail():
    """A normal form that drops a member, or renames one more id, is caught."""
    before = [("client", "server", {"jsonrpc": "2.0", "id": 1, "method": "ping", "params": {"a": 1}}, None, False)]
    dropped = [Message("client", "server", json={"jsonrpc": "2.0", "id": "c1", "method": "ping", "params": {}})]
    assert _compare_mcp(before, dropped) == [1]
    renamed = [Message("client", "server", json={"jsonrpc": "2.0", "id": "c1", "method": "ping", "params": {"a": "c1"}})]
    assert _compare_mcp(before, renamed) == [1]
    same = [Message("client", "server", json={"jsonrpc": "2.0", "id": "c1", "method": "ping", "params": {"a": 1}})]
    assert _compare_mcp(before, same) == []
    a2a = [("client", "agent", {"text": "id 0b6b5d6e-3f0c-4c9c-9a57-1d2b2f1c0a11", "keep": "x-y"}, None, False)]
    assert _compare_a2a(a2a, [Message("client", "agent", json={"text": "id <id-1>", "keep": "x-y"})]) == []
    assert _compare_a2a(a2a, [Message("client", "agent", json={"text": "id <id-1>", "keep": "<id-2>"})]) == [1]
    assert _compare_a2a(a2a, [Message("client", "agent", json={"keep": "x-y", "text": "id <id-1>"})]) == [1]


def test_an_mcp_id_is_renamed_alike_alone_and_in_a_batch():
    """`normalise_mcp` renames a lone message's id inline and a batch's through `_renamed_id`:
    random ids of every JSON type, each message once alone and once as a batch of one, must
    come out the same (1 and "1" two ids, True and 1.0 no id at all)."""
    import random

    rng = random.Random(16)
    ids = [0, 1, 2, "1", "2", "a", True, False, 1.0, None, {"x": 1}, [1], 10**20]
    for _ in range(300):
        log = []
        for _ in range(rng.randint(1, 12)):
            sender = rng.choice(["client", "server"])
            message = {"jsonrpc": "2.0", "id": rng.choice(ids)}
            message.update({"method": "m"} if rng.random() < 0.5 else {"result": {}})
            log.append((sender, message))
        alone = normalise_mcp([Message(s, "server" if s == "client" else "client", json=copy.deepcopy(j)) for s, j in log])
        batched = normalise_mcp([Message(s, "server" if s == "client" else "client", json=[copy.deepcopy(j)]) for s, j in log])
        assert [[m.json] for m in alone] == [m.json for m in batched], log
        assert [type(m.json["id"]) for m in alone] == [type(m.json[0]["id"]) for m in batched]


def test_which_strings_are_ids_and_times_written_out():
    """Strings one at a time, each with its normal form written out."""
    cases = {
        "0c789eab-44eb-4154-8de8-bfee2d00e741": "<id-1>",
        "0C789EAB-44EB-4154-8DE8-BFEE2D00E741": "<id-1>",  # the same id, in capitals
        "task-0c789eab-44eb-4154-8de8-bfee2d00e741/x": "task-<id-1>/x",
        "0c789eab-44eb-4154-8de8-bfee2d00e74": "0c789eab-44eb-4154-8de8-bfee2d00e74",  # one digit short
        "2026-12-02T10:00:00Z": "<time>",
        "2026-12-02T10:00:00.5+01:00": "<time>",
        "2026-12-02T10:00:00": "<time>",
        "2026-12-02": "2026-12-02",
        "at 2026-12-02T10:00:00Z": "at 2026-12-02T10:00:00Z",  # a time inside a sentence stays
        "x-y": "x-y",
    }
    log = [Message("agent", "orchestrator", json={"s": text}) for text in cases]
    assert [m.json["s"] for m in normalise_a2a(log)] == list(cases.values())


def test_keys_sorted_below_metadata_and_data_only_written_out():
    (m,) = normalise_a2a([Message("agent", "orchestrator", json={
        "b": {"z": 1, "a": 2}, "metadata": {"z": 1, "a": {"y": 1, "b": 2}}, "data": [{"z": 1, "a": 2}],
        "error": {"data": [{"reason": "r", "metadata": {"k": 1, "c": 2}, "domain": "d"}]}})])
    assert json.dumps(m.json) == json.dumps({
        "b": {"z": 1, "a": 2}, "metadata": {"a": {"b": 2, "y": 1}, "z": 1}, "data": [{"a": 2, "z": 1}],
        "error": {"data": [{"domain": "d", "metadata": {"c": 2, "k": 1}, "reason": "r"}]}})


def test_a_page_token_is_named_by_its_task_where_given_and_where_sent_back():
    import base64
    import json

    task = "0b5f7a52-3a1c-4e86-9a55-6a1a1f0e2b77"
    token = base64.urlsafe_b64encode(json.dumps({"ts": 1765000000123456000, "id": task}).encode()).decode().rstrip("=")
    messages = [Message("agent", "orchestrator", json={"result": {"tasks": [{"id": task}], "nextPageToken": token}}),
                Message("orchestrator", "agent", json={"params": {"pageToken": token}}),
                Message("orchestrator", "agent", json={"params": {"pageToken": "bm8tc3VjaC10YXNr"}})]
    out = normalise_a2a(messages)
    assert out[0].json["result"]["nextPageToken"] == "<page after <id-1> <time>>"
    assert out[1].json["params"]["pageToken"] == "<page after <id-1> <time>>"
    assert out[2].json["params"]["pageToken"] == "bm8tc3VjaC10YXNr"  # no cursor: kept as written


def test_ids_and_times_below_metadata_and_data_are_named_too():
    (m,) = normalise_a2a([Message("agent", "orchestrator", json={
        "id": "0b5f1a3c-9d2e-4f6a-8b7c-1d2e3f4a5b6c",
        "error": {"data": [{"metadata": {"taskId": "0b5f1a3c-9d2e-4f6a-8b7c-1d2e3f4a5b6c",
                                         "at": "2026-01-01T00:00:00.000001Z", "plain": "a-b"}}]}})])
    assert m.json == {"id": "<id-1>", "error": {"data": [{"metadata": {"at": "<time>", "plain": "a-b",
                                                                         "taskId": "<id-1>"}}]}}
