"""``serve a2a`` over real HTTP: bad input and clients that leave never end the process, and 200
requests at once each get their own answer."""
from __future__ import annotations

import asyncio
import json
import re
import subprocess
import sys
import uuid

import httpx
import pytest

from conftest import ROOT, run_async

HEADERS = {"A2A-Version": "1.0", "Content-Type": "application/json"}


@pytest.fixture
def peer():
    server = subprocess.Popen([sys.executable, "-m", "agent_loop_sim", "serve", "a2a", "--port", "0"], cwd=ROOT,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert server.stdout
    url = server.stdout.readline().decode().strip()
    assert url.startswith("http://127.0.0.1:")
    yield url, server
    server.terminate()
    server.wait(timeout=30)
    assert b"Traceback" not in server.stderr.read()


def _send(text: str, method: str = "SendMessage", rpc_id: int = 1) -> dict:
    return {"jsonrpc": "2.0", "id": rpc_id, "method": method,
            "params": {"message": {"messageId": str(uuid.uuid4()), "role": "ROLE_USER", "parts": [{"text": text}]}}}


def test_the_card_with_its_etag_and_a_conditional_get(peer):
    url, _ = peer
    card = httpx.get(url + "/.well-known/agent-card.json")
    assert card.status_code == 200 and card.json()["name"] == "Research agent"
    again = httpx.get(url + "/.well-known/agent-card.json", headers={"If-None-Match": card.headers["etag"]})
    assert again.status_code == 304 and again.content == b"" and again.headers["etag"] == card.headers["etag"]
    assert httpx.get(url + "/nowhere").status_code == 404
    assert httpx.get(url + "/a2a").status_code == 405


def test_the_card_names_the_address_served_or_with_recorded_url_the_recorded_one(peer):
    url, _ = peer
    (interface,) = httpx.get(url + "/.well-known/agent-card.json").json()["supportedInterfaces"]
    assert interface["url"] == url + "/a2a"  # a client that follows the card reaches this process
    sent = httpx.post(interface["url"], json=_send("hello"), headers=HEADERS)
    assert sent.status_code == 200 and "message" in sent.json()["result"]
    server = subprocess.Popen([sys.executable, "-m", "agent_loop_sim", "serve", "a2a", "--port", "0", "--recorded-url"],
                              cwd=ROOT, stdout=subprocess.PIPE)
    try:
        assert server.stdout
        recorded = server.stdout.readline().decode().strip() + "/.well-known/agent-card.json"
        (interface,) = httpx.get(recorded).json()["supportedInterfaces"]
        assert interface["url"] == "https://research.example.com/a2a"
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_bad_bodies_get_json_rpc_errors_and_the_process_goes_on(peer):
    url, server = peer
    broken = httpx.post(url + "/a2a", content=b'{"jsonrpc": "2.0", "id": 1, "method": "GetTask"', headers=HEADERS)
    assert broken.json()["error"]["code"] == -32700 and broken.json()["id"] is None
    not_utf8 = httpx.post(url + "/a2a", content=b"\xc3\x28", headers=HEADERS)
    assert not_utf8.json()["error"]["code"] == -32603
    huge = _send("summarise " + "x" * 10_000_000)
    answer = httpx.post(url + "/a2a", json=huge, headers=HEADERS, timeout=120)
    assert answer.json()["result"]["task"]["status"]["state"] == "TASK_STATE_COMPLETED"
    batch = httpx.post(url + "/a2a", json=[_send("hello")], headers=HEADERS)
    assert batch.json()["error"]["code"] == -32600  # the SDK refuses batches; the model says so too
    assert httpx.post(url + "/a2a", json=_send("hello"), headers=HEADERS).json()["result"]["message"]
    assert server.poll() is None


def test_clients_that_disconnect_mid_stream(peer):
    url, server = peer
    with httpx.Client(base_url=url) as client:
        with client.stream("POST", "/a2a", json=_send("summarise the notes", "SendStreamingMessage"),
                           headers=HEADERS) as stream:
            first = next(stream.iter_lines())  # one event, then the client hangs up
            assert first.startswith("data: ")
        parked = client.post("/a2a", json=_send("summarise the meeting"), headers=HEADERS).json()["result"]["task"]
        subscribe = {"jsonrpc": "2.0", "id": 2, "method": "SubscribeToTask", "params": {"id": parked["id"]}}
        for _ in range(5):  # a stream the agent keeps open, left by the client each time
            with client.stream("POST", "/a2a", json=subscribe, headers=HEADERS) as stream:
                assert json.loads(next(stream.iter_lines())[6:])["result"]["task"]["id"] == parked["id"]
        stored = client.post("/a2a", json={"jsonrpc": "2.0", "id": 3, "method": "GetTask",
                                           "params": {"id": parked["id"]}}, headers=HEADERS).json()["result"]
        assert stored["status"]["state"] == "TASK_STATE_INPUT_REQUIRED"
    assert server.poll() is None


def test_200_concurrent_requests_each_get_their_own_answer(peer):
    url, server = peer

    async def one(client: httpx.AsyncClient, i: int) -> None:
        request = _send(f"summarise document {i}", rpc_id=i)
        if i % 10 == 0:  # some clients leave mid-stream while the others wait for their answers
            request["method"] = "SendStreamingMessage"
            async with client.stream("POST", "/a2a", json=request, headers=HEADERS) as stream:
                async for line in stream.aiter_lines():
                    assert json.loads(line[6:])["id"] == i
                    return
        answer = (await client.post("/a2a", json=request, headers=HEADERS)).json()
        task = answer["result"]["task"]
        assert answer["id"] == i
        assert task["history"][0]["messageId"] == request["params"]["message"]["messageId"]
        assert task["artifacts"][0]["parts"][0]["text"] == f"Summary of document {i}: "

    async def main() -> None:
        limits = httpx.Limits(max_connections=200)
        async with httpx.AsyncClient(base_url=url, limits=limits, timeout=120) as client:
            await asyncio.gather(*(one(client, i) for i in range(1, 201)))

    run_async(main())
    assert httpx.get(url + "/.well-known/agent-card.json").status_code == 200 and server.poll() is None


def _started(args: list[str]) -> tuple[subprocess.Popen, str]:
    server = subprocess.Popen([sys.executable, *args], cwd=ROOT, stdout=subprocess.PIPE)
    assert server.stdout
    return server, server.stdout.readline().decode().strip()


_VARYING = re.compile(rb"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|127\.0\.0\.1:[0-9]+"
                      rb'|"20[0-9]{2}-[0-9]{2}-[0-9]{2}T[^"]*"|W/"[0-9a-f]{64}"')


def _envelope(url: str, method: str, path: str, **kwargs) -> tuple[int, list[tuple[bytes, bytes]], bytes]:
    """Status, headers (but the date) and body of one answer, as raw bytes; ids, timestamps,
    ports and ETags (the card names the port) made alike."""
    answer = httpx.request(method, url + path, **kwargs)
    headers = [(k, _VARYING.sub(b"*", v)) for k, v in answer.headers.raw if k.lower() != b"date"]
    return answer.status_code, headers, _VARYING.sub(b"*", answer.content)


def test_the_http_envelope_is_the_sdks_agent_under_uvicorn():
    """Headers (and their order) and bytes as the SDK's agent served by uvicorn sends them: SSE
    with sse-starlette's headers and json.dumps's spacing, 405 with ``allow``, ``/a2a/``
    redirected (307), a 304 without a length, HEAD of the card."""
    stream = {**_send("summarise café ☕"), "method": "SendStreamingMessage"}
    asked = [("POST", "/a2a", {"json": stream, "headers": HEADERS}),
             ("POST", "/a2a", {"json": _send("hello"), "headers": HEADERS}),
             ("GET", "/a2a", {}), ("POST", "/a2a/?x=1", {"json": _send("hello"), "headers": HEADERS}),
             ("GET", "/.well-known/agent-card.json/", {}), ("GET", "/nowhere/", {}),
             ("HEAD", "/.well-known/agent-card.json", {}), ("DELETE", "/.well-known/agent-card.json", {}),
             ("GET", "/.well-known/agent-card.json", {"headers": {"If-None-Match": "*"}})]
    sdk, sdk_url = _started([str(ROOT / "tests" / "node" / "serve_sdk_agent.py")])
    ours, our_url = _started(["-m", "agent_loop_sim", "serve", "a2a", "--port", "0"])
    try:
        for method, path, kwargs in asked:
            theirs, mine = _envelope(sdk_url, method, path, **kwargs), _envelope(our_url, method, path, **kwargs)
            if method == "DELETE":  # Starlette joins a set: "GET, HEAD" or "HEAD, GET" by the hash seed
                theirs = (theirs[0], [(k, b"GET, HEAD" if k == b"allow" else v) for k, v in theirs[1]], theirs[2])
            assert mine == theirs, f"{method} {path}"
    finally:
        for server in (sdk, ours):
            server.terminate()
            server.wait(timeout=30)
