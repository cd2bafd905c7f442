from __future__ import annotations

from agent_loop_sim.normalise import normalise_a2a, normalise_mcp
from agent_loop_sim.transcript import Message


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
