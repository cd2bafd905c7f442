"""The SDK's Client as a state machine (agent_loop_sim.protocols.mcp.client): what it adds by itself."""
from __future__ import annotations

import pytest

from agent_loop_sim.errors import InputError
from agent_loop_sim.protocols.mcp.client import CLIENT_INFO, Answers, ClientModel

PV = "io.modelcontextprotocol/protocolVersion"


def _client(mode: str, actions=({"op": "ping"},), **answers) -> ClientModel:
    return ClientModel(mode=mode, actions=list(actions), answers=Answers(**answers))


def test_legacy_opens_with_the_handshake_then_notifies():
    client = _client("legacy", sampling=[])
    (init,) = client.start()
    assert init["method"] == "initialize"
    assert init["params"] == {"protocolVersion": "2025-11-25", "capabilities": {"sampling": {}}, "clientInfo": CLIENT_INFO}
    sent = client.receive({"jsonrpc": "2.0", "id": init["id"], "result": {"protocolVersion": "2025-06-18"}})
    assert [m["method"] for m in sent] == ["notifications/initialized", "ping"]
    assert "params" not in sent[1]  # the handshake era adds no envelope
    assert client.version == "2025-06-18"


def test_a_revision_pin_envelopes_every_request_without_a_probe():
    (ping,) = _client("2026-07-28", elicitation=[]).start()
    assert ping["method"] == "ping"
    meta = ping["params"]["_meta"]
    assert meta[PV] == "2026-07-28" and meta["io.modelcontextprotocol/clientInfo"] == CLIENT_INFO
    assert meta["io.modelcontextprotocol/clientCapabilities"] == {"elicitation": {"form": {}, "url": {}}}


def test_auto_falls_back_to_the_handshake_when_discover_fails():
    client = _client("auto")
    (discover,) = client.start()
    assert discover["method"] == "server/discover" and discover["params"]["_meta"][PV] == "2026-07-28"
    (init,) = client.receive({"jsonrpc": "2.0", "id": discover["id"],
                              "error": {"code": -32601, "message": "Method not found"}})
    assert init["method"] == "initialize" and "_meta" not in init["params"]


def test_auto_keeps_2026_when_the_server_supports_it():
    client = _client("auto")
    (discover,) = client.start()
    (ping,) = client.receive({"jsonrpc": "2.0", "id": discover["id"], "result": {"supportedVersions": ["2026-07-28"]}})
    assert ping["method"] == "ping" and ping["params"]["_meta"][PV] == "2026-07-28"


def test_a_question_without_a_callback_is_refused_and_an_exhausted_script_is_bad_input():
    client = _client("legacy")
    client.start()
    (refused,) = client.receive({"jsonrpc": "2.0", "id": 9, "method": "sampling/createMessage", "params": {}})
    assert refused["error"] == {"code": -32600, "message": "Sampling not supported"}
    with pytest.raises(InputError, match="no answer left"):
        _client("legacy", elicitation=[]).receive({"jsonrpc": "2.0", "id": 9, "method": "elicitation/create"})


def test_scripted_answers_go_out_in_the_sdks_key_order():
    answers = Answers(sampling=[{"model": "m", "content": {"text": "hi", "type": "text"}, "role": "assistant"}])
    assert list(answers.answer("sampling/createMessage")) == ["role", "content", "model"]
    assert answers.sampling == []


def _calling(actions, **answers) -> ClientModel:
    """A handshake-era client past its handshake, with the call of ``actions`` just sent."""
    client = _client("legacy", actions, **answers)
    (init,) = client.start()
    initialized, call = client.receive({"jsonrpc": "2.0", "id": init["id"], "result": {"protocolVersion": "2025-11-25"}})
    assert call["method"] == "tools/call"
    return client


CANCELLED_CALL = [{"op": "call", "tool": "delete_file", "arguments": {"path": "p"}, "cancel": True}]
ELICIT = {"jsonrpc": "2.0", "id": 1, "method": "elicitation/create", "params": {"message": "Delete p?"}}
SAMPLE = {"jsonrpc": "2.0", "id": 1, "method": "sampling/createMessage", "params": {}}
SAMPLED = {"role": "assistant", "content": {"type": "text", "text": "S"}, "model": "m"}


def test_a_call_to_cancel_is_cancelled_at_a_question_it_has_a_callback_for():
    client = _calling(CANCELLED_CALL, elicitation=[{"action": "accept", "content": {"confirm": True}}])
    (cancelled,) = client.receive(ELICIT)
    assert cancelled["method"] == "notifications/cancelled"
    assert cancelled["params"] == {"requestId": 2, "reason": "caller cancelled"}


def test_a_call_to_cancel_refuses_a_question_it_has_no_callback_for():
    # The cancel lives in the callback: without one, the SDK's default refusal answers instead.
    client = _calling(CANCELLED_CALL, sampling=[SAMPLED])
    (refused,) = client.receive(ELICIT)
    assert refused == {"jsonrpc": "2.0", "id": 1, "error": {"code": -32600, "message": "Elicitation not supported"}}


def test_a_call_not_to_cancel_answers_its_question():
    client = _calling([{"op": "call", "tool": "summarise", "arguments": {"text": "t"}}], sampling=[SAMPLED])
    (answer,) = client.receive(SAMPLE)
    assert answer["id"] == 1 and answer["result"]["model"] == "m"


def test_a_failed_request_says_the_servers_error_message():
    from agent_loop_sim.protocols.mcp.client import RequestFailed

    error = {"code": -32602, "message": "Unknown tool: nope"}
    failed = RequestFailed(error)
    assert (str(failed), failed.error) == ("Unknown tool: nope", error)
