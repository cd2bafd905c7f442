"""The SDK's stdio server as a state machine (agent_loop_sim.protocols.mcp.server): lines in, messages out."""
from __future__ import annotations

import json

from agent_loop_sim.protocols.mcp import FIXTURE_SERVER, ServerConnection
from agent_loop_sim.protocols.mcp.eras import Era


def _line(obj) -> str:
    return json.dumps(obj)


ENVELOPE = {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                      "io.modelcontextprotocol/clientCapabilities": {}}}


def test_a_line_that_is_not_json_gets_no_answer():
    assert ServerConnection(FIXTURE_SERVER).receive("{not json") == []


def test_the_first_request_locks_the_era():
    server = ServerConnection(FIXTURE_SERVER)
    (first,) = server.receive(_line({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": ENVELOPE}))
    assert first["result"]["resultType"] == "complete"
    (second,) = server.receive(_line({"jsonrpc": "2.0", "id": 2, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}}))
    assert second["error"]["code"] == -32022
    assert second["error"]["data"] == {"supported": ["2026-07-28"], "requested": "2025-11-25"}


def test_an_unknown_handshake_version_gets_the_servers_latest():
    server = ServerConnection(FIXTURE_SERVER)
    (reply,) = server.receive(_line({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "1999-01-01", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}}))
    assert reply["result"]["protocolVersion"] == "2025-11-25"


INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}}


def test_the_envelope_ladder_names_the_first_rung_that_fails():
    def error(meta):
        server = ServerConnection(FIXTURE_SERVER)
        server.era = Era.STATELESS
        params = {} if meta is None else {"_meta": meta}
        (reply,) = server.receive(_line({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": params}))
        return reply["error"]

    assert error(None)["code"] == -32602 and "must be an object" in error(None)["message"]
    assert "missing the required envelope key" in error({"io.modelcontextprotocol/protocolVersion": "2026-07-28"})["message"]
    wrong = error({"io.modelcontextprotocol/protocolVersion": "2030-01-01", "io.modelcontextprotocol/clientCapabilities": {}})
    assert wrong == {"code": -32022, "message": "Unsupported protocol version",
                     "data": {"supported": ["2026-07-28"], "requested": "2030-01-01"}}


def test_before_initialize_only_ping_is_served():
    server = ServerConnection(FIXTURE_SERVER)
    (pong,) = server.receive(_line({"jsonrpc": "2.0", "id": 1, "method": "ping"}))
    assert pong["result"] == {}
    (refused,) = server.receive(_line({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}))
    assert refused["error"]["code"] == -32602
    server.receive(_line(INIT))
    (listed,) = server.receive(_line({"jsonrpc": "2.0", "id": 3, "method": "tools/list"}))
    assert [t["name"] for t in listed["result"]["tools"]] == [t.name for t in FIXTURE_SERVER.tools]


def test_a_method_of_the_other_revision_is_not_found():
    server = ServerConnection(FIXTURE_SERVER)
    server.receive(_line(INIT))
    (reply,) = server.receive(_line({"jsonrpc": "2.0", "id": 2, "method": "server/discover"}))
    assert reply["error"] == {"code": -32601, "message": "Method not found", "data": "server/discover"}


def test_a_listen_stream_is_acknowledged_then_ended_when_the_client_closes():
    server = ServerConnection(FIXTURE_SERVER)
    params = {**ENVELOPE, "notifications": {"toolsListChanged": "yes", "promptsListChanged": False}}
    (ack,) = server.receive(_line({"jsonrpc": "2.0", "id": 7, "method": "subscriptions/listen", "params": params}))
    assert ack["method"] == "notifications/subscriptions/acknowledged"
    assert ack["params"]["notifications"] == {"toolsListChanged": True}
    assert server.close() == [{"jsonrpc": "2.0", "id": 7, "error": {"code": -32000, "message": "Connection closed"}}]
    assert server.close() == []


HANDSHAKE = [{"jsonrpc": "2.0", "id": "i", "method": "initialize", "params": {
    "protocolVersion": "2025-11-25", "capabilities": {"elicitation": {}}, "clientInfo": {"name": "c", "version": "1"}}},
    {"jsonrpc": "2.0", "method": "notifications/initialized"}]


def _cancel(request_id) -> str:
    return _line({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": request_id}})


def test_a_call_waiting_for_its_question_is_cancelled_by_its_own_id_only():
    # true and 1.0 equal 1 in Python, but the SDK keys its requests by the id's JSON type too.
    for request_id, withdrawn in ((1, True), (True, False), (1.0, False), ("1", False), (2, False)):
        server = ServerConnection(FIXTURE_SERVER)
        for message in HANDSHAKE:
            server.receive(_line(message))
        (ask,) = server.receive(_line({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                                       "params": {"name": "delete_file", "arguments": {"path": "p"}}}))
        assert ask["method"] == "elicitation/create"
        out = server.receive(_cancel(request_id))
        assert out == ([{"jsonrpc": "2.0", "method": "notifications/cancelled",
                         "params": {"requestId": ask["id"], "reason": "caller cancelled"}}] if withdrawn else []), request_id


def test_a_listen_stream_is_cancelled_by_its_own_id_only():
    for request_id, ended in ((1, True), (True, False), (1.0, False)):
        server = ServerConnection(FIXTURE_SERVER)
        (ack,) = server.receive(_line({"jsonrpc": "2.0", "id": 1, "method": "subscriptions/listen", "params": {
            "notifications": {"toolsListChanged": True}, **ENVELOPE}}))
        assert ack["method"] == "notifications/subscriptions/acknowledged"
        assert server.receive(_cancel(request_id)) == []
        closed = [] if ended else [{"jsonrpc": "2.0", "id": 1, "error": {"code": -32000, "message": "Connection closed"}}]
        assert server.close() == closed, request_id  # a stream still open ends when the connection does


def test_an_answer_that_is_not_the_questions_result_fails_the_tool():
    """The SDK validates the client's answer as the question's result model (ElicitResult,
    CreateMessageResult) inside the tool: one that does not fit fails the tool, its text hidden."""
    sampled = {"role": "assistant", "content": {"type": "text", "text": "S"}, "model": "m"}
    cases = [("summarise", {"text": "t"}, sampled, "S"),
             ("summarise", {"text": "t"}, {"action": "decline"}, None),
             ("summarise", {"text": "t"}, {**sampled, "role": "system"}, None),
             ("summarise", {"text": "t"}, {k: v for k, v in sampled.items() if k != "model"}, None),
             ("delete_file", {"path": "p"}, {"action": "decline"}, "kept p"),
             ("delete_file", {"path": "p"}, {"action": "maybe"}, None),
             ("delete_file", {"path": "p"}, sampled, None)]
    for tool, arguments, answer, text in cases:
        server = ServerConnection(FIXTURE_SERVER)
        for message in HANDSHAKE:
            server.receive(_line(message))
        (ask,) = server.receive(_line({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                                       "params": {"name": tool, "arguments": arguments}}))
        (result,) = server.receive(_line({"jsonrpc": "2.0", "id": ask["id"], "result": answer}))
        if text is None:
            assert result["result"] == {"content": [{"type": "text", "text": f"Error executing tool {tool}"}],
                                        "isError": True}, answer
        else:
            assert result["result"]["content"][0]["text"] == text and not result["result"]["isError"], answer


def _listen(flags):
    server = ServerConnection(FIXTURE_SERVER)
    (reply,) = server.receive(_line({"jsonrpc": "2.0", "id": 1, "method": "subscriptions/listen",
                                     "params": {"notifications": flags, **ENVELOPE}}))
    return reply


def test_listen_flags_are_read_as_pydantics_lax_bool():
    honored = _listen({"toolsListChanged": 1, "promptsListChanged": "off", "resourcesListChanged": 1.0})
    assert honored["params"]["notifications"] == {"toolsListChanged": True, "resourcesListChanged": True}
    honored = _listen({"toolsListChanged": 0, "promptsListChanged": "yes"})
    assert honored["params"]["notifications"] == {"promptsListChanged": True}
    for flag in (2, -1, 0.5, "maybe", [], {}):
        refused = _listen({"toolsListChanged": flag})
        assert refused["error"] == {"code": -32602, "message": "Invalid request parameters", "data": ""}, flag


def test_input_responses_that_answer_another_question_fail_the_tool():
    server = ServerConnection(FIXTURE_SERVER)
    (reply,) = server.receive(_line({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
        "name": "delete_file", "arguments": {"path": "p"}, "inputResponses": {"other": {"action": "decline"}},
        **ENVELOPE}}))
    assert reply["result"]["content"] == [{"type": "text", "text": "Error executing tool delete_file"}]
    assert reply["result"]["isError"] is True and reply["result"]["resultType"] == "complete"
