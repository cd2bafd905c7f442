"""The page "MCP conformance suite": the official suite's server checks, one row per check, with
the verdict the SDK's fixture server over HTTP got beside the one ``serve mcp --http`` got, read
from the table ``scripts/mcp_conformance_suite.py`` commits (and ``make test`` checks)."""
from __future__ import annotations

import json
from pathlib import Path

from ..parts.markdown import code, table, text

SUITE_PAGE = "mcp-conformance-suite.md"
SUITE_TABLE = Path("recordings") / "verdicts" / "mcp_conformance_suite.json"
SPEC_TRANSPORT = "https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#streamable-http"

INTRO = f"""\
# MCP conformance suite

The official MCP conformance suite ({{suite}}, from npm, pinned in `package-lock.json`) run as a
client against two servers over [Streamable HTTP]({SPEC_TRANSPORT}): the SDK's fixture server
(`conformance/sdk_http_server.py`: `MCPServer.streamable_http_app()` under uvicorn) and the
engine's `serve mcp --http`. `python scripts/mcp_conformance_suite.py --check`, part of
`make test`, runs it against both and fails when a check's verdict differs between them or from
this table.

**{{same}} of {{total}} checks get the same verdict from both servers**; {{passed}} pass for both.
"""

WHY = """
## Why most checks fail for both

The suite's server scenarios expect the suite's own reference server: tools, prompts and
resources named `test_*` and `test://...` (an image, audio, an embedded resource, a tool that
logs, reports progress, asks for elicitation or sampling), completions, logging and resource
subscriptions. The fixture server has six tools of its own, one resource and one prompt, and
declares no logging, completion or subscription capability, so those checks fail the same way
for both servers, with the same words: an unknown prompt or resource, *Method not found*, or no
such content or request seen. They are kept in the table because a difference there would still
be a difference between the engine and the SDK.
"""


def render_suite(root: Path) -> str:
    path = root / SUITE_TABLE
    if not path.exists():
        return "# MCP conformance suite\n\nThe suite has not been run: `python scripts/mcp_conformance_suite.py`.\n"
    data = json.loads(path.read_text(encoding="utf-8"))
    rows = data["checks"]
    same = sum(r["sdk"] == r["engine"] for r in rows)
    passed = sum(r["sdk"]["status"] == "SUCCESS" and r["engine"]["status"] == "SUCCESS" for r in rows)
    body = [[code(r["scenario"]), code(r["check"]), text(r["sdk"]["status"]), text(r["engine"]["status"]),
             "same" if r["sdk"] == r["engine"] else "**different**", text(r["sdk"].get("said", ""))]
            for r in rows]
    intro = INTRO.format(suite=code(data["suite"]), same=same, total=len(rows), passed=passed)
    return (intro + "\n" + table(["scenario", "check", "the SDK's server", "serve mcp --http", "verdicts",
                                  "what the suite said (the SDK's server)"], body) + "\n" + WHY)
