"""The protocol families the simulator speaks, each a pure state machine: messages in, messages out.

Each family is one package exporting one `Family` as ``FAMILY`` (its model, scenario schema,
normal form, recorder, rule tables and words); `FAMILIES` lists them, in the order the site
shows them. Adding a family is one new package and one line here.
"""
from __future__ import annotations

from .a2a import FAMILY as A2A
from .family import Code, Family, FixtureServer, RuleTable
from .mcp import FAMILY as MCP

FAMILIES: dict[str, Family] = {f.name: f for f in (MCP, A2A)}

__all__ = ["FAMILIES", "Code", "Family", "FixtureServer", "RuleTable"]
