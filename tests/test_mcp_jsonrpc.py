"""JSON-RPC framing as the SDK's stdio transport reads it (agent_loop_sim.protocols.mcp.jsonrpc)."""
from __future__ import annotations

import pytest

from agent_loop_sim.protocols.mcp import jsonrpc
from agent_loop_sim.protocols.mcp.jsonrpc import ErrorResponse, Notification, ProtocolError, Request, Response


@pytest.mark.parametrize("data, shape", [
    ({"jsonrpc": "2.0", "id": 1, "method": "ping"}, Request),
    ({"jsonrpc": "2.0", "id": "a", "method": "ping", "params": {}}, Request),
    ({"jsonrpc": "2.0", "method": "notifications/initialized"}, Notification),
    ({"jsonrpc": "2.0", "id": True, "method": "ping"}, Notification),  # a bool is no id: a notification
    ({"jsonrpc": "2.0", "id": 1.0, "method": "ping"}, Notification),
    ({"jsonrpc": "2.0", "id": 3, "result": {}}, Response),
    ({"jsonrpc": "2.0", "id": None, "error": {"code": -1, "message": "x"}}, ErrorResponse),
])
def test_each_line_is_one_of_four_shapes(data, shape):
    assert isinstance(jsonrpc.classify(data), shape)


@pytest.mark.parametrize("data", [
    [{"jsonrpc": "2.0", "id": 1, "method": "ping"}],  # a batch
    {"id": 1, "method": "ping"},  # no jsonrpc member
    {"jsonrpc": "1.0", "id": 1, "method": "ping"},
    {"jsonrpc": "2.0", "id": 1, "method": "ping", "params": [1]},  # params must be an object
    {"jsonrpc": "2.0", "id": 1, "result": []},
    {"jsonrpc": "2.0", "id": 1, "error": {"code": "x", "message": "m"}},
])
def test_anything_else_is_dropped(data):
    assert jsonrpc.classify(data) is None


def test_a_line_that_is_not_json_or_too_deep_is_dropped():
    assert jsonrpc.parse_line("{nope") is None
    assert jsonrpc.parse_line("[" * 100_000) is None


def test_errors_keep_data_only_when_there_is_some():
    assert ProtocolError(-32602, "bad").to_error() == {"code": -32602, "message": "bad"}
    assert ProtocolError(-32602, "bad", "", has_data=True).to_error() == {"code": -32602, "message": "bad", "data": ""}
    assert jsonrpc.error(None, ProtocolError(0, "x")) == {"jsonrpc": "2.0", "id": None, "error": {"code": 0, "message": "x"}}


def test_the_builders_write_keys_in_the_sdks_order():
    assert list(jsonrpc.request(1, "ping", {})) == ["jsonrpc", "id", "method", "params"]
    assert list(jsonrpc.request(1, "ping")) == ["jsonrpc", "id", "method"]
    assert list(jsonrpc.notification("n", {})) == ["jsonrpc", "method", "params"]
    assert list(jsonrpc.result(1, {})) == ["jsonrpc", "id", "result"]
