"""A second normal form, written apart from ``agent_loop_sim/normalise.py`` to judge it.

Deliberately plain: no caches, no in-place edits, no import from the package; the rules are
read from the project's description of the normal form (README, the module's docstring), not
from its code. Messages are plain dicts ``{"from", "to", "json" | "raw", ...}``; new ones are
returned, the given ones are left alone.

MCP: a request (an object with ``method`` and an id that is a JSON integer or string) is named
``c1, c2, ...`` when the client sent it and ``s1, ...`` when the server did, by the first time
its sender used that id; a response (no ``method``) takes the name its id has among the requests
of the other side, or keeps its id. Over Streamable HTTP, a session id a server's reply issues
(its ``Mcp-Session-Id`` header) becomes ``<session-N>`` by the order issued, in every header that
carries it; an id no reply issued stays. Nothing else changes (batch items are messages too).

A2A: a timestamp string becomes ``<time>``; each UUID inside any string becomes ``<id-N>``,
numbered by first appearance in the session (letters' case ignored); below a ``metadata`` or
``data`` member, every object's keys are sorted (and walked in that order); elsewhere they keep
their order. A ListTasks page token (``result.nextPageToken``, ``params.pageToken``) that is
URL-safe base64 of ``{"ts", "id"}`` with a UUID id becomes ``<page after <id-N> <time>>``
(``null`` for a null ts). The HTTP envelope and raw posts are not touched.

`from_wire` reads the wire lines the recorders keep beside a recording (``recordings/raw/``, as
the README and ``agent_loop_sim/as_sent.py``'s docstring describe them) into such messages: a
stdio line or an HTTP body is its JSON, or its text when it is not JSON (an HTTP body that is
empty or absent is ``null``; a body marked ``as_written`` is its text, JSON or not); an SSE frame's ``data:`` lines, joined by line breaks, are its event;
an envelope keeps the headers that matter to the family, spelt as the project spells them.
"""
from __future__ import annotations

import base64
import copy
import json
import re
from typing import Any

# Written here from the formats' definitions: RFC 4122's 8-4-4-4-12 hex groups, and an ISO 8601
# date-time with optional fraction and offset.
HEX = "[0-9a-fA-F]"
A_UUID = re.compile(f"{HEX}{{8}}-{HEX}{{4}}-{HEX}{{4}}-{HEX}{{4}}-{HEX}{{12}}")
A_TIME = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?(Z|[+-][0-9]{2}:?[0-9]{2})?")
SORTED_BELOW = ("metadata", "data")

# The headers an envelope keeps, as the README's description of the recordings lists them.
KEPT_HEADERS = {
    "mcp": ("Content-Type", "Accept", "Mcp-Session-Id", "MCP-Protocol-Version", "Mcp-Method", "Mcp-Name",
            "Last-Event-ID", "Allow"),
    "a2a": ("A2A-Version", "If-None-Match", "ETag", "Content-Type"),
}
PARTIES = {"mcp": ("client", "server"), "a2a": ("orchestrator", "agent")}


def _text_or_json(text: str) -> tuple[str, Any]:
    try:
        return "json", json.loads(text)
    except ValueError:
        return "raw", text


def _sse_data(frame: str) -> str:
    lines = re.split(r"\r\n|\r|\n", frame)
    return "\n".join(line[len("data:"):].removeprefix(" ") for line in lines if line.startswith("data:"))


def from_wire(family: str, entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A session's wire lines as messages ``{"n", "from", "to", "sse", "http"?, "json" | "raw"}``,
    the keys in a recording's order, before any normal form."""
    a, b = PARTIES[family]
    spelt = {name.lower(): name for name in KEPT_HEADERS[family]}
    out = []
    for n, entry in enumerate(entries, 1):
        sender = entry["from"]
        m: dict[str, Any] = {"n": n, "from": sender, "to": b if sender == a else a, "sse": "frame" in entry}
        if "http" in entry:
            http = {k: v for k, v in entry["http"].items() if k != "headers"}
            http["headers"] = [[spelt[name.lower()], value] for name, value in entry["http"]["headers"]
                               if name.lower() in spelt]
            m["http"] = http
        if "line" in entry:
            key, value = _text_or_json(entry["line"])
        elif entry.get("as_written"):  # a post as the scenario wrote it: kept as text, JSON or not
            key, value = "raw", entry["body"]
        elif "body" in entry:
            key, value = _text_or_json(entry["body"]) if entry["body"] else ("json", None)
        else:
            key, value = _text_or_json(_sse_data(entry["frame"])) if entry["frame"] is not None else ("json", None)
        m[key] = value
        out.append(m)
    return out


def mcp(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    named = {"client": {}, "server": {}}  # sender -> {id as (type, value): name}
    prefix = {"client": "c", "server": "s"}

    def one(obj: Any, sender: str, other: str) -> Any:
        if not isinstance(obj, dict) or "id" not in obj:
            return obj
        rid = obj["id"]
        if isinstance(rid, bool) or not isinstance(rid, (int, str)):
            return obj  # not a JSON-RPC request id
        key = (type(rid).__name__, rid)  # 1 and "1" are two ids
        out = dict(obj)
        if "method" in obj:
            mine = named[sender]
            if key not in mine:
                mine[key] = prefix[sender] + str(len(mine) + 1)
            out["id"] = mine[key]
        elif key in named[other]:
            out["id"] = named[other][key]
        return out

    issued: dict[str, str] = {}
    for m in messages:  # the ids the server's replies issue, in order
        http = m.get("http") or {}
        for name, value in http.get("headers", []) if "status" in http else []:
            if name.lower() == "mcp-session-id" and value not in issued:
                issued[value] = f"<session-{len(issued) + 1}>"

    result = []
    for m in messages:
        m = copy.deepcopy(m)
        if m.get("http"):
            m["http"]["headers"] = [[name, issued.get(value, value) if name.lower() == "mcp-session-id" else value]
                                    for name, value in m["http"]["headers"]]
        if "json" in m:
            other = "server" if m["from"] == "client" else "client"
            body = m["json"]
            if isinstance(body, list):
                m["json"] = [one(item, m["from"], other) for item in body]
            else:
                m["json"] = one(body, m["from"], other)
        result.append(m)
    return result


def a2a(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    ids: dict[str, str] = {}

    def name(match: re.Match) -> str:
        found = match.group(0).lower()
        if found not in ids:
            ids[found] = "<id-" + str(len(ids) + 1) + ">"
        return ids[found]

    def walk(value: Any, sort: bool) -> Any:
        if isinstance(value, dict):
            keys = sorted(value) if sort else list(value)
            return {k: walk(value[k], sort or k in SORTED_BELOW) for k in keys}
        if isinstance(value, list):
            return [walk(v, sort) for v in value]
        if isinstance(value, str):
            if A_TIME.fullmatch(value):
                return "<time>"
            return A_UUID.sub(name, value)
        return value

    def page_token(token: Any) -> Any:
        if not isinstance(token, str):
            return token
        try:
            data = json.loads(base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)))
        except ValueError:
            return token
        if not (isinstance(data, dict) and sorted(data) == ["id", "ts"] and isinstance(data["id"], str)
                and A_UUID.fullmatch(data["id"]) and (data["ts"] is None or type(data["ts"]) is int)):
            return token
        return "<page after " + A_UUID.sub(name, data["id"]) + (" null>" if data["ts"] is None else " <time>>")

    result = []
    for m in messages:
        m = copy.deepcopy(m)
        if "json" in m:
            m["json"] = walk(m["json"], False)
            for outer, key in (("result", "nextPageToken"), ("params", "pageToken")):
                holder = m["json"].get(outer) if isinstance(m["json"], dict) else None
                if isinstance(holder, dict) and key in holder:
                    holder[key] = page_token(holder[key])
        result.append(m)
    return result


NORMAL_FORMS = {"mcp": mcp, "a2a": a2a}
