"""Read the sessions out of the seed page (``../shared/seed/``, or where
``AGENT_LOOP_SIM_SEED_PAGE`` says), for one test: the committed recordings must hold all of its
sessions with the same messages. Where the page is not at hand, what the test needs of it is in
``tests/data/seed_page_facts.json`` (`facts`), which the page, where it is, must still give."""
from __future__ import annotations

import hashlib
import json
import os
import re
from pathlib import Path

SEED = Path(os.environ.get("AGENT_LOOP_SIM_SEED_PAGE") or
            Path(__file__).resolve().parent.parent.parent / "shared" / "seed" / "000_fa0fe55c568fe0da.txt")
FACTS = Path(__file__).resolve().parent / "data" / "seed_page_facts.json"
_HEADER = re.compile(r"^([a-z0-9_]+) \((?:([^,]+), )?(\d+) messages\): ")
_ARROW = re.compile(r"^(\d+)\. (\w+) → (\w+)( \(SSE event\))?$")


def seed_sessions() -> dict[str, list[dict]]:
    """{session name: [{"n", "from", "to", "sse", "json" | "raw"}]} as the page prints them."""
    sessions: dict[str, list[dict]] = {}
    current: list[dict] | None = None
    pending: dict | None = None
    for line in SEED.read_text(encoding="utf-8").splitlines():
        if (m := _HEADER.match(line)):
            current = sessions.setdefault(m.group(1), [])
            continue
        if current is None:
            continue
        if (m := _ARROW.match(line)):
            pending = {"n": int(m.group(1)), "from": m.group(2), "to": m.group(3), "sse": bool(m.group(4))}
            continue
        if pending is not None and line.strip() and line.strip() != "```":
            try:
                pending["json"] = json.loads(line)
            except json.JSONDecodeError:
                pending["raw"] = line
            current.append(pending)
            pending = None
        if line.startswith("conformance/") or line == "The server":
            current = None
    return sessions


def a2a_as_the_seed_wrote_it(messages: list[dict]) -> list[dict]:
    """Messages as the seed page wrote them: without the HTTP envelope, except for a card fetch and
    its answer, written as one HTTP object (the URL in full, the answer's headers in the order
    Content-Type, ETag where the SDK sends ETag first)."""
    out, fetched = [], False
    for m in messages:
        m, http = dict(m), m.get("http") or {}
        m.pop("http", None)
        if http.get("method") == "GET":
            m["json"] = {"method": "GET", "url": "https://research.example.com" + http["path"],
                         **({"headers": http["headers"]} if http["headers"] else {})}
        elif fetched:
            headers = sorted(http["headers"], key=lambda h: ["Content-Type", "ETag"].index(h[0]))
            m["json"] = {"status": http["status"], "headers": headers,
                         **({"body": m["json"]} if m["json"] is not None else {})}
        fetched = http.get("method") == "GET"
        out.append(m)
    return _numbered_in_sorted_order(out)


def _numbered_in_sorted_order(messages: list[dict]) -> list[dict]:
    """The seed page sorted every object's keys before numbering ids (``<id-N>`` in order of
    appearance); the recordings keep the SDK's key order, so the ids are numbered again here."""
    names: dict[str, str] = {}

    def rename(match: re.Match) -> str:
        return names.setdefault(match.group(0), f"<id-{len(names) + 1}>")

    def walk(value):
        if isinstance(value, dict):
            return {k: walk(value[k]) for k in sorted(value)}
        if isinstance(value, list):
            return [walk(v) for v in value]
        return re.sub(r"<id-\d+>", rename, value) if isinstance(value, str) else value

    return [walk(m) for m in messages]


def digest(messages: list[dict]) -> str:
    """A session's messages as one SHA-256, compared as JSON (key order and spacing do not count)."""
    text = json.dumps(messages, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def facts(sessions: dict[str, list[dict]]) -> dict[str, dict]:
    """{session: {"sender": who speaks first, "messages": how many, "sha256": `digest`}}."""
    return {name: {"sender": messages[0]["from"], "messages": len(messages), "sha256": digest(messages)}
            for name, messages in sorted(sessions.items())}


def checked_in_facts() -> dict[str, dict]:
    return json.loads(FACTS.read_text(encoding="utf-8"))["sessions"]
