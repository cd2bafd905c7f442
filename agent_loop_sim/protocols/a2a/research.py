"""The research agent of the conformance fixture, read from its world file
(``worlds/research-agent.json`` in this package), from which ``conformance/a2a_sdk_server.py``
builds the SDK's agent too.

Another agent delegates summaries to it. Its card offers two skills; its script answers a
greeting with a plain message, refuses to delete anything, asks which meeting to summarise,
asks the user to sign in before reading the calendar, and otherwise summarises at once, the
summary being one artifact in two chunks.
"""
from __future__ import annotations

from pathlib import Path

from ...jsonio import load_json
from .world import read_world

RESEARCH_WORLD = Path(__file__).resolve().parents[2] / "worlds" / "research-agent.json"

#: The card the fixture serves, and its behaviour, rule by rule.
RESEARCH_CARD, RESEARCH_AGENT = read_world(load_json(RESEARCH_WORLD, limited=False), str(RESEARCH_WORLD))
