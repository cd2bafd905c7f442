"""The coverage page: every method in the engine's tables, and the committed sessions that send it.

Read from the engine's own tables (MCP: `protocols.mcp.methods.SURFACE`, by direction and
revision; A2A: the JSON-RPC methods the agent serves, `protocols.a2a.agent.METHODS`) and from
the committed recordings, never typed by hand. An MCP message counts in the era it is written
in: a client message carrying the 2026-07-28 envelope in ``_meta`` is in the stateless era, any
other in the handshake era, and a server message in the era of the client message before it.
Every method the engine models must be sent in at least one committed session, in every era
that defines it: a cell left at zero is a problem, and the build fails naming it.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from ...protocols.a2a.agent import METHODS as A2A_METHODS
from ...protocols.mcp.methods import NOT_SENT_BY_THE_FIXTURE, SURFACE, UNREACHABLE_IN
from ...protocols.mcp.versions import META_PROTOCOL_VERSION, STATELESS_VERSIONS
from ...transcript import Transcript
from ..parts.markdown import code, table, text

COVERAGE_PAGE = "coverage.md"
ERAS = ("handshake", "2026-07-28")
HANDSHAKE, STATELESS = ERAS


def era_of_revision(version: str) -> str:
    return STATELESS if version in STATELESS_VERSIONS else HANDSHAKE


@dataclass
class Row:
    """One method: where it is defined, whether the engine models it, who sends it where."""

    family: str
    direction: str
    method: str
    eras: tuple[str, ...]  # the eras whose revisions define it (A2A: the one binding)
    unmodelled: str | None = None  # why the engine has no rule for it (never sent by the fixture)
    sessions: dict[str, list[str]] = field(default_factory=dict)  # era -> sessions that send it
    unreachable: dict[str, str] = field(default_factory=dict)  # era -> why it cannot be sent there

    @property
    def required(self) -> list[str]:
        """The eras in which a committed session must send the method."""
        return [] if self.unmodelled else [era for era in self.eras if era not in self.unreachable]

    @property
    def missing(self) -> list[str]:
        """The required eras in which no committed session sends it."""
        return [era for era in self.required if not self.sessions.get(era)]


def _items(message: Any) -> list[dict[str, Any]]:
    items = message if isinstance(message, list) else [message]  # a batch counts item by item
    return [m for m in items if isinstance(m, dict) and isinstance(m.get("method"), str)]


def _stamped_era(message: dict[str, Any]) -> str:
    params = message.get("params")
    meta = params.get("_meta") if isinstance(params, dict) else None
    version = meta.get(META_PROTOCOL_VERSION) if isinstance(meta, dict) else None
    return STATELESS if version in STATELESS_VERSIONS else HANDSHAKE


def mcp_sent(transcript: Transcript) -> set[tuple[str, str, str]]:
    """(direction, method, era) of every method a session sends."""
    out: set[tuple[str, str, str]] = set()
    era = HANDSHAKE
    for m in transcript.messages:
        for item in _items(m.json):
            if m.sender == "client":
                era = _stamped_era(item)
            kind = "request" if "id" in item else "notification"
            out.add((f"{m.sender} {kind}", item["method"], era))
    return out


def a2a_sent(transcript: Transcript) -> set[str]:
    """The JSON-RPC methods a session's requests name (a raw post's body is read as JSON)."""
    out: set[str] = set()
    for m in transcript.messages:
        if m.sender != "orchestrator":
            continue
        body = m.json
        if m.is_raw:  # a raw post, written down as posted
            try:
                body = json.loads(m.raw)
            except ValueError:
                continue
        out.update(item["method"] for item in _items(body))
    return out


def coverage(transcripts: dict[str, Transcript], families: dict[str, str]) -> list[Row]:
    """The rows of the page; ``families`` maps each session to its family."""
    rows: list[Row] = []
    mcp = {name: mcp_sent(t) for name, t in transcripts.items() if families.get(name) == "mcp"}
    for direction, methods in SURFACE.items():
        for method, revisions in methods.items():
            row = Row("mcp", direction, method, tuple(e for e in ERAS if any(era_of_revision(v) == e for v in revisions)),
                      NOT_SENT_BY_THE_FIXTURE.get((direction, method)))
            row.unreachable = {era_of_revision(v): why for (d, m, v), why in UNREACHABLE_IN.items()
                               if (d, m) == (direction, method)}
            for era in ERAS:
                row.sessions[era] = sorted(n for n, sent in mcp.items() if (direction, method, era) in sent)
            rows.append(row)
    a2a = {name: a2a_sent(t) for name, t in transcripts.items() if families.get(name) == "a2a"}
    for method in A2A_METHODS:
        rows.append(Row("a2a", "request", method, ("1.0",),
                        sessions={"1.0": sorted(n for n, sent in a2a.items() if method in sent)}))
    return rows


def problems(rows: list[Row], families: list[str]) -> list[str]:
    """A problem for each required cell no session fills, in the families the project has."""
    return [f"coverage: the {r.family.upper()} {r.direction} {r.method!r} ({era}) is in the engine's tables but "
            "no committed session sends it" for r in rows if r.family in families for era in r.missing]


def _cell(row: Row, era: str, links: dict[str, str], shown: int = 6) -> str:
    names = row.sessions.get(era, [])
    defined = era in row.eras
    if not names:
        if not defined:
            return "—"
        if era in row.unreachable:
            return "cannot happen: " + text(row.unreachable[era])
        return "not sent by the fixture" if row.unmodelled else "**none**"
    listed = ", ".join(f"[{text(n)}]({links[n]})" if n in links else text(n) for n in names[:shown])
    more = f" and {len(names) - shown} more" if len(names) > shown else ""
    tag = "" if defined else " (outside its revisions)"
    return f"{len(names)}{tag}: {listed}{more}"


def render_coverage(rows: list[Row], links: dict[str, str]) -> str:
    """The page; ``links`` maps a session to its page, relative to this one."""
    lines = ["# Coverage", "",
             "Every method in the engine's tables, whether the engine models it, and the committed "
             "sessions that send it, counted from the recordings at build time. An MCP message counts "
             "in the era it is written in (the 2026-07-28 `_meta` envelope marks the stateless era). "
             "A cell marked **none** fails the build; “—” means the era's revisions do not define "
             "the method (a count there is a session sending it anyway, to show the refusal).", ""]
    for family, title in (("mcp", "MCP"), ("a2a", "A2A 1.0 (JSON-RPC binding)")):
        mine = [r for r in rows if r.family == family]
        modelled = [r for r in mine if not r.unmodelled]
        cells = [(r, e) for r in modelled for e in r.required]
        covered = sum(1 for r, e in cells if r.sessions.get(e))
        percent = 100 * covered / len(cells) if cells else 100.0
        lines += [f"## {title}", "",
                  f"{covered} of {len(cells)} method × era cells the engine models are sent in a committed "
                  f"session: **{percent:.0f} %**. "
                  f"{len(mine) - len(modelled)} method(s) the fixture never sends have no rule.", ""]
        if family == "mcp":
            head = ["Method", "Sent by", "Modelled", "Handshake era", "2026-07-28"]
            body = [[code(r.method), r.direction, "no: " + text(r.unmodelled) if r.unmodelled else "yes",
                     _cell(r, HANDSHAKE, links), _cell(r, STATELESS, links)] for r in mine]
        else:
            head = ["Method", "Modelled", "Sessions"]
            body = [[code(r.method), "yes", _cell(r, "1.0", links)] for r in mine]
        lines += [table(head, body), ""]
    return "\n".join(lines)
