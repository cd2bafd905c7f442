"""How a reader finds a session: by feature (what its messages do) and by era or mode, never by
recording file. Features are derived from the sessions themselves, from the methods they send
(``tools/call`` -> tools, ``SendStreamingMessage`` -> message) and from what their messages are
(an error, an SSE event, a line that is not JSON); no list of feature names is kept here.

Session pages stay out of the navigation (mkdocs.yml ``not_in_nav``): the navigation holds a
fixed number of index pages, so a session page's HTML does not grow with the number of sessions.
"""
from __future__ import annotations

import re
from typing import Any

from ...check import SessionResult
from ...transcript import Transcript
from ..parts import rawhtml
from ..parts.markdown import text
from ..parts.wirelog import http_of, summarise

_CAMEL = re.compile(r"[A-Z][a-z0-9]*")


def feature_of_method(method: str) -> str:
    """``tools/call`` -> ``tools``; ``notifications/progress`` -> ``progress``;
    ``SendStreamingMessage`` -> ``streaming message``; ``SubscribeToTask`` -> ``task``."""
    if "/" in method:
        parts = [p for p in method.split("/") if p]
        if parts and parts[0] == "notifications" and len(parts) > 1:
            parts = parts[1:]
        return parts[0] if parts else method
    words = _CAMEL.findall(method)
    if len(words) > 1:
        rest = [w.lower() for w in words[1:] if w.lower() != "to"]
        noun = " ".join(rest)
        return noun[:-1] if noun.endswith("s") and not noun.endswith("ss") else noun
    return method


# JSON-RPC 2.0's own code for "the method does not exist / is not available".
METHOD_NOT_FOUND = -32601
UNKNOWN = "unknown methods"


def unknown_methods(transcripts: list[Transcript]) -> frozenset[str]:
    """The methods no peer knows, read from the wire: a method is known when a peer answered it
    with anything but "method not found", or when an SDK sent it by itself (a session not made of
    hand-written lines) and was not told so. Every other method (``no/such/method``, a
    notification only hand-written lines send, an A2A 0.3 name a 1.0 agent refuses) is unknown."""
    sent: set[str] = set()
    known: set[str] = set()
    for t in transcripts:
        lines = summarise(t.messages)
        refused: set[str] = set()
        for m, line in zip(t.messages, lines):
            if line.kind in ("request", "notification"):
                sent.add(line.what)
            if line.kind in ("result", "error") and line.reply_to is not None:
                request = lines[line.reply_to - 1].what
                error = m.json.get("error") if isinstance(m.json, dict) else None
                if isinstance(error, dict) and error.get("code") == METHOD_NOT_FOUND:
                    refused.add(request)
                else:
                    known.add(request)
        if t.mode != "raw":
            known |= {line.what for line in lines if line.kind in ("request", "notification")} - refused
    return frozenset(sent - known)


def features(transcript: Transcript, unknown: frozenset[str] = frozenset()) -> set[str]:
    """What a session does: the features of its methods (one group for the ``unknown`` ones,
    however they are named), and errors, streaming, raw lines."""
    out: set[str] = set()
    for m, line in zip(transcript.messages, summarise(transcript.messages)):
        if line.kind in ("request", "notification"):
            out.add(UNKNOWN if line.what in unknown else feature_of_method(line.what))
        if line.kind == "http" and (http_of(m) or {}).get("method") == "GET" or line.what.startswith("GET "):
            out.add("card")
        if line.kind == "error" or any(k == "isError" for k, _ in line.fields):
            out.add("errors")
        if m.sse:
            out.add("streaming")
        if line.kind == "raw":
            out.add("raw lines")
        if line.kind == "batch":
            out.add("batches")
    return out


def _examples(sessions: list[SessionResult], unknown: frozenset[str]) -> str:
    """Two of the family's own methods and their features, the most sent first: the intro's examples."""
    counts: dict[str, int] = {}
    for s in sessions:
        if s.recorded is not None:
            for line in summarise(s.recorded.messages):
                if line.kind in ("request", "notification") and line.what not in unknown:
                    counts[line.what] = counts.get(line.what, 0) + 1
    chosen: dict[str, str] = {}
    for method in sorted(counts, key=lambda k: (-counts[k], k)):
        feature = feature_of_method(method)
        if feature != method and feature not in chosen.values():
            chosen[method] = feature
        if len(chosen) == 2:
            break
    return ", ".join(f"`{m}` is *{text(f)}*" for m, f in chosen.items())


def features_page(family: str) -> str:
    return f"{family}/features.md"


def modes_page(family: str) -> str:
    return f"{family}/modes.md"


def eras_index(family: str) -> str:
    return f"{family}/eras/index.md"


def anchor_of(name: str) -> str:
    return "f-" + re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def _table(sessions: list[SessionResult], url_of: Any) -> str:
    """The sessions as an HTML table (``url_of(name)``: the page-relative URL of a session's page).
    HTML, not Markdown: for the 200 sessions of a family Python-Markdown's table parsing was most
    of an edit's rebuild under `mkdocs serve`; tests/test_site_rawhtml.py checks every link.
    Out of the search index: it would find each session here again, besides on its own page."""
    return rawhtml.table(["Session", "Messages", "Result", "What it shows"], searched=False, rows=[
        [rawhtml.a(url_of(s.name), rawhtml.text(s.name)), str(len(s.recorded.messages)),
         "pass" if s.passed else "<strong>FAIL</strong>", rawhtml.text(s.recorded.title)]
        for s in sessions if s.recorded is not None])


def render_features(family_title: str, sessions: list[SessionResult], url_of: Any,
                    features_of: Any = None) -> str:
    """One section per feature, the sessions that use it; the most used features first.
    ``features_of(session, unknown)`` is `features` of its recording (through serve's memo, if any)."""
    unknown = unknown_methods([s.recorded for s in sessions if s.recorded is not None])
    features_of = features_of or (lambda s, unknown: features(s.recorded, unknown))
    by_feature: dict[str, list[SessionResult]] = {}
    for s in sessions:
        if s.recorded is not None:
            for f in sorted(features_of(s, unknown)):
                by_feature.setdefault(f, []).append(s)
    order = sorted(by_feature, key=lambda f: (-len(by_feature[f]), f))
    examples = _examples(sessions, unknown)
    lines = [f"# {family_title} by feature", "",
             "Each feature is drawn from the sessions themselves: the methods their messages name"
             + (f" ({examples})" if examples else "") + ", and what the messages "
             "are (an error, an SSE event, a line that is not JSON). A method no peer knows (answered "
             "\"method not found\", or only ever sent by hand-written lines) counts as one feature, "
             f"*{UNKNOWN}*, whatever its name. A session is listed under each feature it uses.", "",
             " · ".join(f"[{text(f)}](#{anchor_of(f)}) ({len(by_feature[f])})" for f in order), ""]
    for f in order:
        lines += [f"## {text(f)} {{#{anchor_of(f)}}}", "",
                  _table(by_feature[f], url_of), ""]
    return "\n".join(lines)


def render_modes(family_title: str, sessions: list[SessionResult], url_of: Any, notes: dict[str, str]) -> str:
    by_mode: dict[str, list[SessionResult]] = {}
    for s in sessions:
        if s.recorded is not None:
            by_mode.setdefault(s.recorded.mode, []).append(s)
    lines = [f"# {family_title} by era and mode", "",
             " · ".join(f"[{text(m)}](#{anchor_of(m)}) ({len(v)})" for m, v in by_mode.items()), ""]
    for mode, chosen in by_mode.items():
        lines += [f"## {text(mode)} {{#{anchor_of(mode)}}}", ""]
        if mode in notes:
            lines += [notes[mode], ""]
        lines += [_table(chosen, url_of), ""]
    return "\n".join(lines)
