"""Worked example: the simulated peers as fixtures of a test suite (shown on the site's page
"Use the simulator in your tests"; it runs with the rest of the tests, so it stays true)."""
import json
import subprocess
import sys
import uuid

import httpx
import pytest


@pytest.fixture
def mcp_server():
    """The simulated fixture server over stdio: a fresh process, so a fresh connection, per test."""
    server = subprocess.Popen([sys.executable, "-m", "agent_loop_sim", "serve", "mcp"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    yield server
    server.stdin.close()  # end of file: the server answers what is still open, then exits 0
    assert server.wait(timeout=10) == 0


def ask(server, message):
    """Write one JSON-RPC line; return the next line the server writes."""
    server.stdin.write(json.dumps(message) + "\n")
    server.stdin.flush()
    return json.loads(server.stdout.readline())


def test_my_client_handshake_and_tool_call(mcp_server):
    hello = ask(mcp_server, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "mine", "version": "0"}}})
    assert hello["result"]["serverInfo"] == {"name": "fixture-server", "version": "1.0.0"}
    mcp_server.stdin.write(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}) + "\n")
    added = ask(mcp_server, {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                             "params": {"name": "add", "arguments": {"a": 2, "b": 3}}})
    assert added["result"]["structuredContent"] == {"result": 5}
    # The handshake era's server asks the client: answer its elicitation like a user would.
    question = ask(mcp_server, {"jsonrpc": "2.0", "id": 3, "method": "tools/call",
                                "params": {"name": "delete_file", "arguments": {"path": "notes.txt"}}})
    assert question["method"] == "elicitation/create"
    answer = {"jsonrpc": "2.0", "id": question["id"], "result": {"action": "accept", "content": {"confirm": False}}}
    assert ask(mcp_server, answer)["result"]["content"][0]["text"] == "kept notes.txt"


@pytest.fixture
def a2a_agent():
    """The simulated research agent over HTTP on a free port; its first line of output is its URL."""
    agent = subprocess.Popen([sys.executable, "-m", "agent_loop_sim", "serve", "a2a", "--port", "0"],
                             stdout=subprocess.PIPE, text=True)
    yield agent.stdout.readline().strip()
    agent.terminate()
    agent.wait(timeout=10)


def test_my_orchestrator_answers_a_question(a2a_agent):
    def send(text, task=None):
        message = {"messageId": str(uuid.uuid4()), "role": "ROLE_USER", "parts": [{"text": text}]}
        if task:
            message.update(taskId=task["id"], contextId=task["contextId"])
        answer = httpx.post(a2a_agent + "/a2a", headers={"A2A-Version": "1.0"}, json={
            "jsonrpc": "2.0", "id": 1, "method": "SendMessage", "params": {"message": message}})
        return answer.json()["result"]["task"]

    card = httpx.get(a2a_agent + "/.well-known/agent-card.json")
    assert card.json()["capabilities"] == {"streaming": True} and card.headers["ETag"].startswith('W/"')
    waiting = send("summarise the meeting")  # the agent asks which meeting
    assert waiting["status"]["state"] == "TASK_STATE_INPUT_REQUIRED"
    done = send("Monday", task=waiting)
    assert done["status"]["state"] == "TASK_STATE_COMPLETED"
    assert done["artifacts"][0]["parts"][0]["text"] == "Summary of Monday's meeting: "
