"""The agent card and its ETag (agent_loop_sim.protocols.a2a.card)."""
from __future__ import annotations

from agent_loop_sim.protocols.a2a import RESEARCH_CARD
from agent_loop_sim.protocols.a2a.card import if_none_match_hits, serve_card

SEED_ETAG = 'W/"0c789eab44ebe1544de8bfee2d00e741a531c349c36d6412efdb06a89af89f4c"'


def test_the_etag_is_the_one_the_sdk_sends():
    assert RESEARCH_CARD.etag() == SEED_ETAG


def test_the_card_is_written_as_protobuf_json():
    card = RESEARCH_CARD.to_json()
    assert card["supportedInterfaces"] == [{"url": "https://research.example.com/a2a", "protocolBinding": "JSONRPC",
                                            "protocolVersion": "1.0"}]
    assert card["capabilities"] == {"streaming": True}
    assert card["skills"][1]["tags"] == ["calendar"]


def test_if_none_match_uses_the_weak_comparison():
    strong = SEED_ETAG.removeprefix("W/")
    assert if_none_match_hits(SEED_ETAG, SEED_ETAG)
    assert if_none_match_hits(strong, SEED_ETAG)
    assert if_none_match_hits('W/"old", ' + SEED_ETAG, SEED_ETAG)
    assert if_none_match_hits("*", SEED_ETAG)
    assert not if_none_match_hits('W/"old"', SEED_ETAG)


def test_a_hit_is_304_with_the_etag_and_no_body():
    assert serve_card(RESEARCH_CARD, SEED_ETAG) == (304, [("ETag", SEED_ETAG)], None)
    status, headers, body = serve_card(RESEARCH_CARD, "")
    assert status == 200 and headers == [("ETag", SEED_ETAG), ("Content-Type", "application/json")] and body["name"] == "Research agent"


def test_each_capability_on_is_named_in_the_sdks_words():
    # (RESEARCH_CARD's JSON is made at import, before mutmut switches a mutant on: made again here)
    from dataclasses import replace

    card = replace(RESEARCH_CARD, streaming=None, push_notifications=True, extended_agent_card=True)
    assert card.to_json()["capabilities"] == {"pushNotifications": True, "extendedAgentCard": True}
    assert replace(RESEARCH_CARD, streaming=None).to_json()["capabilities"] == {}
    assert RESEARCH_CARD.to_json()["capabilities"] == {"streaming": True}
    # a capability stated false is said (protobuf writes a set field with presence), one unset is not
    assert replace(RESEARCH_CARD, streaming=False).to_json()["capabilities"] == {"streaming": False}
