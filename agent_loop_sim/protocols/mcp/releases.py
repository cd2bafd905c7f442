"""The mcp releases the MCP model speaks, and the wire changes between them.

2.3.0 is pinned and the newest release; 2.2.0, recorded live from its own environment, differs
from it on the wire in three ways. The mcp sdist ships no changelog, so each change names the
upstream issue that reports it, or the source it comes from where none does (each is new in
2.3.0, as the two releases' recordings show).
"""
from __future__ import annotations

from pathlib import Path

from ..releases import Releases

#: A request whose ``_meta`` would be empty carries none; before, the dispatcher sent
#: ``_meta: {}`` on every request, adding ``params`` when there were none.
EMPTY_META_OMITTED = "empty_meta_omitted"
#: ``initialize`` reports no empty ``experimental`` capability; before, capabilities began with it.
EMPTY_EXPERIMENTAL_OMITTED = "empty_experimental_omitted"
#: ``MCPServer(subscriptions=False)`` serves no listen streams; before, False was taken for a bus.
SUBSCRIPTIONS_OPTION = "subscriptions_option"

#: The releases and their wire changes are data (``releases.json`` beside this module).
MCP_RELEASES = Releases.from_file(Path(__file__).with_name("releases.json"))
