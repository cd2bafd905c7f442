"""Every request `serve a2a` answered "not modelled" (HTTP 501) before issue 30 now gets the SDK's
own answer: each is posted to the SDK's fixture agent and to `serve a2a`'s app, in process, and
the two answers must be the same (status and JSON)."""
from __future__ import annotations

import importlib.util
import json

import pytest
from conftest import ROOT, run_async
from test_hostile_input import _post_a2a


def _sdk_app():
    spec = importlib.util.spec_from_file_location("a2a_sdk_server", ROOT / "conformance" / "a2a_sdk_server.py")
    sdk = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(sdk)
    return sdk.app()


def _request(method: str, params) -> bytes:
    return json.dumps({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}).encode()


def _message(**fields) -> dict:
    return {"message": {"messageId": "m-1", "role": "ROLE_USER", "parts": [{"text": "hello"}], **fields}}


#: What the engine refused before (`grep NotModelled`): params protobuf would refuse, params as an
#: array naming a field or holding an array or object, a lone surrogate in params, an agent crash.
ONCE_NOT_MODELLED = {
    "parts not a list": _request("SendMessage", _message(parts="invalid")),
    "text a number": _request("SendMessage", _message(parts=[{"text": 5}])),
    "contextId a number": _request("SendMessage", _message(contextId=7)),
    "role outside the enumeration": _request("SendMessage", _message(role="ROLE_BOSS")),
    "status outside the enumeration": _request("ListTasks", {"status": "TASK_STATE_BOGUS"}),
    "status a list": _request("ListTasks", {"status": [1]}),
    "a part holding text and data": _request("SendMessage", _message(parts=[{"text": "a", "data": {"b": 1}}])),
    "historyLength out of range": _request("GetTask", {"id": "t", "historyLength": 3_000_000_000}),
    "historyLength with a space": _request("GetTask", {"id": "t", "historyLength": " 3"}),
    "metadata a number": _request("SendMessage", {**_message(), "metadata": 5}),
    "statusTimestampAfter a number": _request("ListTasks", {"statusTimestampAfter": 5}),
    "params an array naming a field": _request("GetTask", ["id"]),
    "params an array holding an array": _request("GetTask", [["t"]]),
    "params an array holding an object": _request("GetTask", [{"id": "t"}]),
    "params an array naming an extension": _request("GetTask", ["[x.y]"]),
    "a lone surrogate in a part's text": _request("SendMessage", _message(parts=[{"text": "\ud800 hello"}])),
    "a lone surrogate in a field name": _request("GetTask", {"id": "t", "\udfff": 1}),
    "a lone surrogate in a role": _request("SendMessage", _message(role="\ud800")),
    "an empty text part (the agent raises)": _request("SendMessage", _message(parts=[{"text": ""}])),
    "an empty text part, streamed": _request("SendStreamingMessage", _message(parts=[{"text": ""}])),
}


@pytest.fixture(scope="module")
def sdk_app():
    return _sdk_app()


@pytest.mark.parametrize("name", ONCE_NOT_MODELLED)
def test_serve_a2a_answers_as_the_sdk(sdk_app, name):
    body = ONCE_NOT_MODELLED[name]
    theirs, ours = _post_a2a(body, sdk_app), _post_a2a(body)
    assert ours.status_code != 501, ours.text
    assert (ours.status_code, ours.json()) == (theirs.status_code, theirs.json())


def test_the_comparison_fires_on_one_changed_word(sdk_app, monkeypatch):
    """The check above can fail: with protobuf's wording changed in the model, the answers differ."""
    from agent_loop_sim.protocols.a2a import types

    monkeypatch.setattr(types, "_PACKAGE", "a2a.v1.")
    body = ONCE_NOT_MODELLED["params an array naming an extension"]
    assert _post_a2a(body, sdk_app).json() != _post_a2a(body).json()


def test_serve_a2a_pages_tasks_and_takes_its_token_back():
    """ListTasks pages were "not modelled" (501): two tasks, a page of one, then the next page
    from the answer's own token (the SDK's cursor: the last listed task's place)."""
    import base64

    import httpx

    from agent_loop_sim.serve.a2a_http import research_app
    from test_hostile_input import A2A_HEADERS

    async def session() -> list[dict]:
        transport = httpx.ASGITransport(app=research_app())
        async with httpx.AsyncClient(transport=transport, base_url="http://peer") as client:
            async def post(method: str, params: dict) -> dict:
                return (await client.post("/a2a", content=_request(method, params), headers=A2A_HEADERS)).json()
            made = [await post("SendMessage", _message(messageId=f"m-{n}", parts=[{"text": "summarise the notes"}]))
                    for n in (1, 2)]
            first = await post("ListTasks", {"pageSize": 1})
            second = await post("ListTasks", {"pageSize": 1, "pageToken": first["result"]["nextPageToken"]})
            return [m["result"]["task"]["id"] for m in made], first["result"], second["result"]

    made, first, second = run_async(session())
    cursor = json.loads(base64.urlsafe_b64decode(first["nextPageToken"] + "=" * (-len(first["nextPageToken"]) % 4)))
    assert cursor["id"] == made[1] and isinstance(cursor["ts"], int)  # newest first
    assert [t["id"] for t in first["tasks"] + second["tasks"]] == [made[1], made[0]]
    assert second["nextPageToken"] == "" and first["totalSize"] == second["totalSize"] == 2
