"""The A2A recorder's requests come from the scenario's steps, not from the engine."""
from __future__ import annotations

import subprocess
import sys

from conftest import ROOT


def test_the_request_builder_imports_nothing_of_the_engine():
    probe = ("import sys; sys.path.insert(0, 'scripts'); import a2a_requests, record_a2a_sdk; "
             "print(sorted(m for m in sys.modules if m.startswith('agent_loop_sim.protocols')))")
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_requests_follow_the_answers():
    sys.path.insert(0, str(ROOT / "scripts"))
    from a2a_requests import Answer, StepPlayer

    player = StepPlayer([{"op": "card"}, {"op": "card", "revalidate": True},
                         {"op": "send", "text": "summarise the meeting", "as": "m"},
                         {"op": "get", "task": "m", "history_length": 1, "version": None}],
                        "https://agent.example", "/a2a")
    card = player.next_request()
    assert (card.method, card.url, card.headers, card.body) == (
        "GET", "https://agent.example/.well-known/agent-card.json", [], None)
    player.answer(Answer(200, [("etag", 'W/"x"')], {}))
    assert player.next_request().headers == [("If-None-Match", 'W/"x"')]
    player.answer(Answer(304, [("etag", 'W/"x"')]))
    send = player.next_request()
    assert send.body["id"] == 1 and send.body["method"] == "SendMessage"
    assert send.headers == [("Content-Type", "application/json"), ("A2A-Version", "1.0")]
    player.answer(Answer(200, body={"result": {"task": {"id": "t1", "contextId": "c1", "status": {}}}}))
    get = player.next_request()
    assert get.body == {"jsonrpc": "2.0", "id": 2, "method": "GetTask", "params": {"id": "t1", "historyLength": 1}}
    assert get.headers == [("Content-Type", "application/json")]
