"""The committed recordings hold every session of the page the project is built from
(``../shared/seed/``), with the same messages, compared as JSON. Wherever the tests run: against
the page's facts checked in (``tests/data/seed_page_facts.json``); where the page is at hand,
against the page itself too, and the facts against the page."""
from __future__ import annotations

import json

import pytest

from agent_loop_sim.recording import load_recording
from conftest import ROOT
from seed_page import SEED, a2a_as_the_seed_wrote_it, checked_in_facts, digest, facts, seed_sessions

needs_the_page = pytest.mark.skipif(not SEED.exists(), reason="the seed page is not beside this checkout")

RECORDINGS = {"mcp": "sdk_exchanges.json", "a2a": "a2a_sdk_exchanges.json"}


def _tokens_named_as_on_the_seed_page(messages: list[dict]) -> list[dict]:
    """The seed page predates the pinned normal form: it named a progress token after the request
    carrying it (the SDK uses the request's own id). The committed recordings keep tokens as
    written, so they are renamed here, for this comparison only."""
    names: dict = {}
    out = []
    for m in messages:
        m = json.loads(json.dumps(m))
        params = (m.get("json") or {}).get("params") if isinstance(m.get("json"), dict) else None
        if isinstance(params, dict):
            meta = params.get("_meta")
            if isinstance(meta, dict) and "progressToken" in meta and "id" in m["json"]:
                names[json.dumps(meta["progressToken"])] = m["json"]["id"]
                meta["progressToken"] = m["json"]["id"]
            elif m["json"].get("method") == "notifications/progress" and "progressToken" in params:
                params["progressToken"] = names.get(json.dumps(params["progressToken"]), params["progressToken"])
        out.append(m)
    return out


FIRST_SENDER = {"mcp": "client", "a2a": "orchestrator"}


def _as_the_seed_wrote_them(family: str) -> dict[str, list[dict]]:
    """The committed recording's sessions, written as the seed page wrote them."""
    recording = load_recording(str(ROOT / "recordings" / RECORDINGS[family]))
    assert recording.sdk["version"] == {"mcp": "2.3.0", "a2a": "1.2.2"}[family]
    out = {}
    for transcript in recording.sessions:
        actual = [m.to_dict(i) for i, m in enumerate(transcript.messages, 1)]
        out[transcript.name] = _tokens_named_as_on_the_seed_page(actual) if family == "mcp" \
            else a2a_as_the_seed_wrote_it(actual)
    return out


@pytest.mark.parametrize("family", sorted(RECORDINGS))
def test_the_committed_recording_has_the_seed_pages_facts(family):
    known = {name: f for name, f in checked_in_facts().items() if f["sender"] == FIRST_SENDER[family]}
    committed = _as_the_seed_wrote_them(family)
    assert sorted(committed) == sorted(known)
    for name, messages in committed.items():
        assert (len(messages), digest(messages)) == (known[name]["messages"], known[name]["sha256"]), \
            f"{name}: not the seed page's messages (run beside the page for the difference)"


@needs_the_page
@pytest.mark.parametrize("family", sorted(RECORDINGS))
def test_the_committed_recording_equals_the_seed_page(family):
    seed = seed_sessions()
    for name, actual in _as_the_seed_wrote_them(family).items():
        assert actual == seed[name], name
    page = {name for name, messages in seed.items() if messages[0]["from"] == FIRST_SENDER[family]}
    assert set(_as_the_seed_wrote_them(family)) == page


@needs_the_page
def test_the_checked_in_facts_are_the_seed_pages():
    assert facts(seed_sessions()) == checked_in_facts()


def test_the_seed_page_has_26_sessions_and_216_messages():
    known = checked_in_facts()
    assert (len(known), sum(f["messages"] for f in known.values())) == (26, 216)


def test_a_changed_message_changes_the_facts():
    messages = [{"n": 1, "from": "client", "to": "server", "sse": False, "json": {"id": "c1", "b": 1, "a": 2}}]
    reordered = [{"n": 1, "from": "client", "to": "server", "sse": False, "json": {"a": 2, "id": "c1", "b": 1}}]
    changed = [{"n": 1, "from": "client", "to": "server", "sse": False, "json": {"id": "c1", "b": 1, "a": 3}}]
    assert digest(messages) == digest(reordered) != digest(changed)
