"""The committed recordings hold every session of the page the project is built from
(``../shared/seed/``), with the same messages, compared as JSON."""
from __future__ import annotations

import json

import pytest

from agent_loop_sim.recording import load_recording
from conftest import ROOT
from seed_page import SEED, a2a_as_the_seed_wrote_it, seed_sessions

pytestmark = pytest.mark.skipif(not SEED.exists(), reason="the seed page is not beside this checkout")

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


@pytest.mark.parametrize("family", sorted(RECORDINGS))
def test_the_committed_recording_equals_the_seed_page(family):
    seed = seed_sessions()
    recording = load_recording(str(ROOT / "recordings" / RECORDINGS[family]))
    assert recording.sdk["version"] == {"mcp": "2.3.0", "a2a": "1.2.2"}[family]
    for transcript in recording.sessions:
        expected = seed[transcript.name]
        actual = [m.to_dict(i) for i, m in enumerate(transcript.messages, 1)]
        if family == "mcp":
            actual = _tokens_named_as_on_the_seed_page(actual)
        else:
            actual = a2a_as_the_seed_wrote_it(actual)
        assert actual == expected, transcript.name
    page = {name for name, messages in seed.items() if messages[0]["from"] in ("client", "orchestrator")
            and ("client" if family == "mcp" else "orchestrator") == messages[0]["from"]}
    assert {t.name for t in recording.sessions} == page


def test_the_seed_page_has_26_sessions_and_216_messages():
    seed = seed_sessions()
    assert (len(seed), sum(len(m) for m in seed.values())) == (26, 216)
