"""Each committed message's verdict against its revision's wire types, and the page of failures.

The verdicts are made by ``scripts/validate_wire.py`` (which imports the SDKs' type packages:
``mcp-types`` per revision, ``a2a-sdk``'s 1.0 protobuf types) and committed beside the
recordings as ``recordings/verdicts/wire_types.json``; the tests check that the file is current. The
site only reads it: every committed message must have a verdict (else the build fails naming
the session), the verdict shows under each message, and the failures are listed on one page,
those the SDKs sent first: a message an SDK sends that fails its own revision's types is a
departure from the specification.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...errors import InputError
from ...jsonio import load_json
from ...project import Project
from ...schema import Field, check_object, describe
from ...transcript import Transcript
from ..parts.markdown import table, text

VERDICTS_FILE = "verdicts/wire_types.json"
WIRE_TYPES_PAGE = "wire-types.md"


@dataclass(frozen=True)
class Verdict:
    verdict: str  # valid, invalid, not checked
    against: str
    detail: str = ""


def load_verdicts(project: Project) -> tuple[dict[str, list[Verdict]], list[str]]:
    """(session -> verdicts, problems reading the file)."""
    path = project.recording_dir / VERDICTS_FILE
    try:
        return _verdicts(load_json(path)), []
    except InputError as exc:
        return {}, [f"wire types: {exc.within(file=project.relative(path))}"]


_VERDICT_FIELDS = {"verdict": Field(str, choices=("valid", "invalid", "not checked")), "against": Field(str),
                   "detail": Field(str, required=False)}


def _verdicts(data: Any) -> dict[str, list[Verdict]]:
    """The file's verdicts by session, its shape checked (`InputError` naming the JSON path):
    ``{"sessions": {NAME: [{"verdict", "against", "detail"?}, ...]}, ...}``."""
    sessions = data.get("sessions") if isinstance(data, dict) else None
    if type(sessions) is not dict:
        raise InputError(f"expected an object of sessions, got {describe(sessions)}", path="$.sessions")
    out: dict[str, list[Verdict]] = {}
    seen: dict[Any, Verdict] = {}  # each verdict as written -> its Verdict: thousands of verdicts, a few dozen distinct
    for name, verdicts in sessions.items():
        Field(list).check(verdicts, ["sessions", name])
        out[name] = []
        for i, v in enumerate(verdicts):
            written = _written(v)
            verdict = seen.get(written) if written is not None else None
            if verdict is None:  # not seen yet: its shape is checked
                check_object(v, _VERDICT_FIELDS, ["sessions", name, i], "a verdict")
                verdict = Verdict(v["verdict"], v["against"], v.get("detail", ""))
                if written is not None:
                    seen[written] = verdict
            out[name].append(verdict)
    return out


def _written(v: Any) -> tuple | None:
    """A verdict's members as a key, or None when it is no object of texts (its check says why)."""
    if type(v) is not dict:
        return None
    key = tuple(v.items())
    return key if all(type(x) is str for _, x in key) else None


def problems(verdicts: dict[str, list[Verdict]], transcripts: dict[str, Transcript]) -> list[str]:
    """Every committed message carries a verdict: one per message, no more, no less."""
    out = []
    for name, t in transcripts.items():
        got = verdicts.get(name)
        if got is None:
            out.append(f"wire types: session {name!r} has no verdicts (run python scripts/validate_wire.py)")
        elif len(got) != len(t.messages):
            out.append(f"wire types: session {name!r} has {len(got)} verdicts for {len(t.messages)} messages "
                       "(run python scripts/validate_wire.py)")
    return out


def sent_by_sdk(family: str, mode: str, sender: str) -> bool:
    """Whether an SDK wrote the message (rather than a hand-written line or our orchestrator)."""
    if family == "mcp":
        return sender == "server" or mode != "raw"
    return sender == "agent"


def render_wire_types(rows: list[tuple[str, str, str, int, Any, Verdict]], links: dict[str, str],
                      totals: dict[str, int]) -> str:
    """``rows``: (family, session, sender, n, message anchor link, verdict) of each failure."""
    sdk = [r for r in rows if r[4]]
    hand = [r for r in rows if not r[4]]
    lines = ["# Wire types", "",
             "Every committed message is validated against the wire types of its revision, as the SDKs "
             "define them: MCP messages against `mcp-types`' per-revision models (2025-11-25 for every "
             "handshake revision, 2026-07-28 for the stateless one, by the era the message is written in), "
             "strictly; A2A messages against the 1.0 protobuf types, unknown fields refused. "
             "The verdict shows under each message of every session page.", "",
             ", ".join(f"{n} {k}" for k, n in sorted(totals.items())) + ".", "",
             "## Sent by an SDK", "",
             "A message an SDK sent that fails its own revision's types: where the SDK departs from the "
             "specification." if sdk else "None: every message the SDKs sent passes its revision's types.", ""]

    def table_of(found: list) -> list[str]:
        return [table(["Session", "Message", "Checked against", "What fails"],
                      [[f"[{text(s)}]({links[s]})" if s in links else text(s), f"{n} ({text(sender)})",
                        text(v.against), text(v.detail)] for _, s, sender, n, _, v in found]), ""]
    if sdk:
        lines += table_of(sdk)
    lines += ["## Written by hand", "",
              "Raw MCP lines and the orchestrator's requests (not an SDK's): most are there on purpose, "
              "to show how the SDK answers what its types refuse.", ""]
    lines += table_of(hand) if hand else ["None.", ""]
    return "\n".join(lines)


def failures(verdicts: dict[str, list[Verdict]], transcripts: dict[str, Transcript], families: dict[str, str]):
    rows = []
    totals: dict[str, int] = {}
    for name, t in sorted(transcripts.items()):
        for n, (m, v) in enumerate(zip(t.messages, verdicts.get(name, [])), 1):
            totals[v.verdict] = totals.get(v.verdict, 0) + 1
            if v.verdict == "invalid":
                rows.append((families[name], name, m.sender, n, sent_by_sdk(families[name], t.mode, m.sender), v))
    return rows, totals

