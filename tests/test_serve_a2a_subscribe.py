"""A live ``SubscribeToTask`` on a waiting task, as deployed: the SDK's agent served by uvicorn on
one event loop streams what the task's run publishes for a later request and then ends the
stream; ``serve a2a`` must do the same (and, with ``--harness per_request``, keep it open)."""
from __future__ import annotations

import json
import subprocess
import sys
import threading
import uuid
from contextlib import contextmanager
from typing import Iterator

import httpx
import pytest

from conftest import ROOT

HEADERS = {"A2A-Version": "1.0", "Content-Type": "application/json"}


@contextmanager
def served_sdk() -> Iterator[str]:
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        from a2a_deployed import ServedAgent
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    from conformance.a2a_sdk_server import app

    agent = ServedAgent(app())
    try:
        yield agent.url
    finally:
        agent.stop()


@contextmanager
def served_model(*options: str) -> Iterator[str]:
    server = subprocess.Popen([sys.executable, "-m", "agent_loop_sim", "serve", "a2a", "--port", "0", *options],
                              cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert server.stdout
    try:
        yield server.stdout.readline().decode().strip()
    finally:
        server.terminate()
        server.wait(timeout=30)


def _rpc(method: str, params: dict, rpc_id: int = 1) -> dict:
    return {"jsonrpc": "2.0", "id": rpc_id, "method": method, "params": params}


def _message(text: str, **ids: str) -> dict:
    return {"message": {"messageId": str(uuid.uuid4()), "role": "ROLE_USER", "parts": [{"text": text}], **ids}}


def subscribe_then(url: str, first: str, then: str, wait: float = 10) -> list:
    """Park a task with ``first``, subscribe to it, then follow up with ``then`` (or cancel it):
    what the subscription read, as (kind, state or artifact text) pairs, and "closed" if it ended."""
    with httpx.Client(base_url=url, headers=HEADERS, timeout=wait) as client:
        task = client.post("/a2a", json=_rpc("SendMessage", _message(first))).json()["result"]["task"]
        seen: list = []
        first_event = threading.Event()

        def read() -> None:
            try:
                with client.stream("POST", "/a2a", json=_rpc("SubscribeToTask", {"id": task["id"]}, 2)) as answer:
                    for line in answer.iter_lines():
                        if line.startswith("data:"):
                            result = json.loads(line[5:])["result"]
                            (kind, body), = result.items()
                            seen.append((kind, body["artifact"]["parts"][0]["text"] if kind == "artifactUpdate"
                                         else body["status"]["state"]))
                            first_event.set()
                seen.append("closed")
            except httpx.ReadTimeout:
                pass
            finally:
                first_event.set()

        reader = threading.Thread(target=read)
        reader.start()
        assert first_event.wait(wait)
        if then == "cancel":
            client.post("/a2a", json=_rpc("CancelTask", {"id": task["id"]}, 3))
        else:
            client.post("/a2a", json=_rpc("SendMessage", _message(then, taskId=task["id"]), 3))
        reader.join(wait + 5)
        return seen


@pytest.mark.parametrize("first, then", [("summarise the meeting", "Tuesday"), ("check my calendar", "signed in"),
                                         ("summarise the meeting", "cancel")])
def test_a_live_subscription_streams_the_later_events_then_ends_as_the_sdk_does(first: str, then: str):
    with served_sdk() as url:
        sdk = subscribe_then(url, first, then)
    with served_model() as url:
        model = subscribe_then(url, first, then)
    assert model == sdk
    assert sdk[-1] == "closed" and sdk[-2][1] in ("TASK_STATE_COMPLETED", "TASK_STATE_CANCELED") and len(sdk) >= 3


def test_under_the_per_request_harness_the_subscription_gets_nothing_more():
    with served_model("--harness", "per_request") as url:
        seen = subscribe_then(url, "summarise the meeting", "Tuesday", wait=2)
    assert seen == [("task", "TASK_STATE_INPUT_REQUIRED")]
