"""The committed recordings hold every session of the page the project is built from
(``../shared/seed/``), with the same messages, compared as JSON."""
from __future__ import annotations

import pytest

from agent_loop_sim.recording import load_recording
from conftest import ROOT
from seed_page import SEED, seed_sessions

pytestmark = pytest.mark.skipif(not SEED.exists(), reason="the seed page is not beside this checkout")

RECORDINGS = {"mcp": "sdk_exchanges.json", "a2a": "a2a_sdk_exchanges.json"}


@pytest.mark.parametrize("family", sorted(RECORDINGS))
def test_the_committed_recording_equals_the_seed_page(family):
    seed = seed_sessions()
    recording = load_recording(str(ROOT / "recordings" / RECORDINGS[family]))
    assert recording.sdk["version"] == {"mcp": "2.3.0", "a2a": "1.2.2"}[family]
    for transcript in recording.sessions:
        expected = seed[transcript.name]
        actual = [m.to_dict(i) for i, m in enumerate(transcript.messages, 1)]
        assert actual == expected, transcript.name
    page = {name for name, messages in seed.items() if messages[0]["from"] in ("client", "orchestrator")
            and ("client" if family == "mcp" else "orchestrator") == messages[0]["from"]}
    assert {t.name for t in recording.sessions} == page


def test_the_seed_page_has_26_sessions_and_216_messages():
    seed = seed_sessions()
    assert (len(seed), sum(len(m) for m in seed.values())) == (26, 216)
