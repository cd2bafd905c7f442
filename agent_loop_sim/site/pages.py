"""The conformance pages, as Markdown: the overview, one page per session, the eras side by
side, and the findings.

Pages are plain functions of the report; they never run the engine or read a file. Where a page
lives is decided here (`session_page` and friends) and links are made relative, so the
Markdown reads the same under MkDocs and anywhere else.
"""
from __future__ import annotations

import json
import posixpath
import re
from dataclasses import dataclass, field
from typing import Any

from ..check import RecordingResult, Report, SessionResult
from ..compare import MISSING
from ..exports import har_path, jsonl_path
from ..protocols import FAMILIES, Code, RuleTable
from ..transcript import Message, Transcript
from .evidence import KINDS, Finding, FindingResult
from .markdown import code, compact_json, fence, indent, json_value, pretty_json, table, text, title, visible

# Sessions named <prefix>_<scenario>: the same scenario played in different MCP eras.
ERA_PREFIXES = ("legacy", "modern", "auto")
_ERA_NAME = re.compile(r"^(%s)_(.+)$" % "|".join(ERA_PREFIXES))

OVERVIEW = "index.md"
FINDINGS_PAGE = "findings.md"


def family_name(family: str) -> str:
    return FAMILIES[family].title if family in FAMILIES else family.upper()


def mode_note(family: str, mode: str) -> str | None:
    return FAMILIES[family].mode_notes.get(mode) if family in FAMILIES else None


def family_page(family: str) -> str:
    return f"{family}/index.md"


def session_page(family: str, name: str) -> str:
    return f"{family}/sessions/{name}.md"


def eras_page(family: str, scenario: str) -> str:
    return f"{family}/eras/{scenario}.md"


def link(source: str, target: str, anchor: str | None = None) -> str:
    """A relative link from one page to another (both relative to the docs folder)."""
    if source == target:
        path = ""
    else:
        path = posixpath.relpath(target, posixpath.dirname(source) or ".")
    return path + (f"#{anchor}" if anchor else "")


def anchor(n: int) -> str:
    return f"m{n}"


# --- what a message is, in a few words --------------------------------------------------------

def _request_key(party: str, request_id: Any) -> tuple[str, str]:
    return party, compact_json(request_id)


def summaries(transcript: Transcript) -> list[str]:
    """A few plain words per message: its method, or which request's result or error it is."""
    methods: dict[tuple[str, str], str] = {}
    out = []
    for m in transcript.messages:
        out.append(_summary(m, methods))
    return out


def _summary(m: Message, methods: dict[tuple[str, str], str]) -> str:
    http = m.http or {}
    if m.is_raw:
        return f"{http['method']} of a body as written" if "method" in http else "a line that is not JSON"
    j = m.json
    if "method" in http and j is None:  # a GET (A2A's agent card)
        return f"{http['method']} {http['path']}"
    if "status" in http and not (isinstance(j, dict) and "jsonrpc" in j):  # the card, or no body (304)
        return f"HTTP {http['status']} response"
    if isinstance(j, list):
        return f"a batch of {len(j)}"
    if not isinstance(j, dict):
        return "a JSON value"
    method = j.get("method")
    if isinstance(method, str):
        if "id" in j:
            methods[_request_key(m.sender, j["id"])] = method
            return method
        return method + (" (notification)" if "jsonrpc" in j else "")
    answered = methods.get(_request_key(m.receiver, j.get("id"))) if "id" in j else None
    of = f" of {answered}" if answered else ""
    error = j.get("error")
    if isinstance(error, dict):
        err = error.get("code")
        return f"error {err}{of}" if isinstance(err, int) and not isinstance(err, bool) else f"error{of}"
    if "result" in j:
        return f"result{of}"
    return "a JSON object"


def heading(n: int, m: Message, summary: str, limit: int = 120) -> str:
    if len(summary) > limit:  # a method name can be anything, of any length
        summary = summary[: limit - 1] + "…"
    sse = " (SSE event)" if m.sse else ""
    classes = " .sse" if m.sse else ""
    return f"## {n}. {text(m.sender)} → {text(m.receiver)}{sse}: {text(summary)} {{#{anchor(n)}{classes}}}"


def _survives_markdown(line: str) -> bool:
    # Markdown expands tabs and empties lines of blanks; such lines are shown as JSON strings.
    return bool(line.strip()) and "\t" not in line and line == line.rstrip() and visible(line) == line


def message_body(m: Message, indent_by: str = "") -> str:
    """The message itself: pretty JSON, the compact form one click away; raw lines as text.

    The compact form is left out of the search index (``data-search-exclude``): it says the
    same as the pretty one, and would double the index.
    """
    if m.is_raw:
        raw = m.raw or ""
        if _survives_markdown(raw):
            return fence(raw, "text", indent_by)
        return "\n\n".join([f"{indent_by}*Not JSON; shown as a JSON string, since it holds blanks, tabs or "
                             "control characters:*", fence(json.dumps(raw, ensure_ascii=False), "text", indent_by)])
    # Plain text: one click away to read or copy as sent; highlighting it twice would double the
    # page (and the time MkDocs and its search take over it) for nothing new.
    compact = indent(fence(compact_json(m.json), "text"), indent_by + "    ")
    return "\n\n".join([
        fence(pretty_json(m.json), "json", indent_by),
        f'{indent_by}<div data-search-exclude="true" markdown>',
        f'{indent_by}??? compact "On one line, as compared"',
        compact,
        f"{indent_by}</div>",
    ])


# --- the context pages share ------------------------------------------------------------------

@dataclass
class Context:
    report: Report
    findings: list[FindingResult]
    pages: dict[str, str] = field(default_factory=dict)  # session name -> page
    verdicts: dict[str, list[Any]] = field(default_factory=dict)  # session -> each message's wire-type verdict
    _eras: dict[str, dict[str, dict[str, SessionResult]]] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        self.pages = {s.name: session_page(s.family, s.name) for s in self.report.sessions
                      if s.recorded is not None}

    def findings_at(self, session: str, n: int) -> list[Finding]:
        out = []
        for result in self.findings:
            f = result.finding
            if any(p.session == session and p.message == n for p in f.places()) and f not in out:
                out.append(f)
        return out

    def eras(self, family: str) -> dict[str, dict[str, SessionResult]]:
        """{scenario: {prefix: session}} where a legacy_X and a modern_X were both recorded."""
        if family not in self._eras:  # asked once per session page: work it out once per family
            self._eras[family] = self._pair_eras(family)
        return self._eras[family]

    def _pair_eras(self, family: str) -> dict[str, dict[str, SessionResult]]:
        groups: dict[str, dict[str, SessionResult]] = {}
        for s in self.report.sessions:
            m = _ERA_NAME.match(s.name)
            if s.family == family and m and s.recorded is not None:
                groups.setdefault(m.group(2), {})[m.group(1)] = s
        return {k: dict(sorted(v.items(), key=lambda kv: ERA_PREFIXES.index(kv[0])))
                for k, v in groups.items() if "legacy" in v and "modern" in v}

    def era_of(self, session: SessionResult) -> str | None:
        m = _ERA_NAME.match(session.name)
        if m and m.group(2) in self.eras(session.family):
            return m.group(2)
        return None


def _sdk(file: RecordingResult) -> str:
    sdk = file.sdk
    words = f"{sdk.get('package', '?')} {sdk.get('version', '?')}"
    extra = ", ".join(f"{k} {v}" for k, v in sdk.items() if k not in ("package", "version"))
    return text(words + (f" ({extra})" if extra else ""))


def _verdict(s: SessionResult) -> str:
    return "pass" if s.passed else "**FAIL**"


def _mode(mode: str) -> str:
    return code(mode)


# --- the overview -----------------------------------------------------------------------------

def render_overview(ctx: Context) -> str:
    report = ctx.report
    total, passed = len(report.sessions), report.passed
    lines = [
        "# Conformance",
        "",
        f"[![conformance: {passed}/{total} sessions](badge.svg)](conformance.json)",
        "",
        "This site checks, one message at a time, that the simulator says what the official SDKs say. "
        "Each session below was played live against a small fixture server written with an official "
        "SDK, and every line that crossed the wire was committed as a recording. On every build the "
        "simulator plays the same scenarios and its messages are compared with the recording; a single "
        "difference stops the build, so a published page is a page that passed.",
        "",
        f"**{passed} of {total} sessions pass**, {report.message_count} messages in all. "
        "The same figures, per session, are in the machine-readable report "
        "[`conformance.json`](conformance.json).",
        "",
        "## What was recorded",
        "",
        table(["Recording", "Protocol", "SDK", "Transport", "Sessions", "Messages"], [
            [code(f.recording_file), family_name(f.family), _sdk(f), text(f.transport),
             str(len(f.sessions)), str(f.message_count)]
            for f in report.files
        ]),
        "",
        "## How messages are compared",
        "",
        "A message is compared as JSON: objects key by key and then for the order of their keys "
        "(the SDKs write keys in a fixed order, so the engine must too), arrays element by element, "
        "and scalars by type as well as value, so `1`, `1.0` and `true` are three different answers. Lines that are not JSON are compared as text. "
        "Before that, both sides are put in the same normal form, because some values are "
        "chosen afresh on every run:",
        "",
    ]
    lines += [f"- **{FAMILIES[f].title}**: {FAMILIES[f].normal_form}" for f in report.families]
    lines += [
        "",
        "## Results",
        "",
        table(["Session", "Protocol", "Mode", "Messages", "Result"], [
            [f"[{text(s.name)}]({link(OVERVIEW, ctx.pages[s.name])})" if s.name in ctx.pages else text(s.name),
             family_name(s.family), _mode(s.recorded.mode) if s.recorded else "—",
             str(len(s.recorded.messages)) if s.recorded else "—", _verdict(s)]
            for s in report.sessions
        ]),
        "",
    ]
    if ctx.findings:
        lines += ["## Findings", "", f"What the recordings taught us is on the [findings]({link(OVERVIEW, FINDINGS_PAGE)}) "
                  "page; each finding is checked against the recordings on every build.", ""]
        for r in ctx.findings:
            lines.append(f"- [{r.finding.title}]({link(OVERVIEW, FINDINGS_PAGE, r.finding.id)}) "
                         f"({family_name(r.finding.family)})")
        lines.append("")
    return "\n".join(lines)


# --- a protocol's index -----------------------------------------------------------------------

def render_family(ctx: Context, family: str) -> str:
    page = family_page(family)
    files = [f for f in ctx.report.files if f.family == family]
    sessions = [s for f in files for s in f.sessions]
    passed = sum(1 for s in sessions if s.passed)
    intro = FAMILIES[family].intro if family in FAMILIES else ""
    lines = [f"# {family_name(family)}", "", intro, "",
             f"{passed} of {len(sessions)} sessions pass, recorded with "
             + ", ".join(dict.fromkeys(f"{_sdk(f)} over {text(f.transport)}" for f in files)) + ".", ""]
    eras = ctx.eras(family)
    if eras:
        lines += ["## The same scenario in each era", "",
                  "Sessions named `legacy_X` and `modern_X` play one scenario in the two eras; "
                  "each pair (with `auto_X`, when there is one) has a page showing them side by side.", ""]
        for scenario, group in eras.items():
            names = ", ".join(code(s.name) for s in group.values())
            lines.append(f"- [{text(scenario)}]({link(page, eras_page(family, scenario))}): {names}")
        lines.append("")
    lines += _rules(family)
    lines += ["## Sessions", "",
              table(["Session", "Mode", "Messages", "Result", "What it shows"], [
                  [f"[{text(s.name)}]({link(page, ctx.pages[s.name])})", _mode(s.recorded.mode),
                   str(len(s.recorded.messages)), _verdict(s), text(s.recorded.title)]
                  for s in sessions if s.recorded is not None
              ]), ""]
    return "\n".join(lines)


def _rules(family: str) -> list[str]:
    """The engine's own state tables for the protocol, drawn from the tables themselves."""
    out: list[str] = []
    for rules in FAMILIES[family].rule_tables() if family in FAMILIES else []:
        out += [f"## {rules.title}", "", rules.about, "",
                table([_cell(h) for h in rules.head], [[_cell(c) for c in row] for row in rules.rows]), ""]
    return out


def _cell(value: str) -> str:
    return code(value) if isinstance(value, Code) else text(value)


# --- one session ------------------------------------------------------------------------------

def _difference_lines(page: str, s: SessionResult, differences: list) -> list[str]:
    out = []
    for d in differences:
        where = f"[message {d.message}]({link(page, page, anchor(d.message))}), " if d.message else ""
        out.append(f"- {where}{code(d.path)}: the recording has {_value(d.expected)}, "
                   f"the engine {_value(d.actual)}")
    return out


def _value(value: Any) -> str:
    return "nothing" if value is MISSING else json_value(value, 200)


def render_session(ctx: Context, s: SessionResult, file: RecordingResult) -> str:
    page = ctx.pages[s.name]
    t = s.recorded
    assert t is not None
    sse = sum(1 for m in t.messages if m.sse)
    counted = f"{len(t.messages)}" + (f" ({sse} of them SSE events)" if sse else "")
    if s.passed:
        result = f"**pass**: the engine produces the same {len(t.messages)} messages"
    elif s.engine_error is not None:
        result = "**FAIL**: the engine could not play the session"
    else:
        result = f"**FAIL**: {len(s.differences)} difference(s) between the recording and the engine"
    note = mode_note(s.family, t.mode)
    lines = [
        f"# {text(s.name)} {{#session}}",  # an explicit id: a session named m1 must not take message 1's
        "",
        text(t.title),
        "",
        f"- **Result:** {result}",
        f"- **Key order:** {s.key_order_verdict}",
        f"- **Protocol:** {family_name(s.family)}, mode {_mode(t.mode)}" + (f" ({note})" if note else ""),
        f"- **Recorded with:** {_sdk(file)} over {text(file.transport)}",
        f"- **Files:** recording {code(s.recording_file)}, scenario {code(s.scenario_file)}",
        f"- **Messages:** {counted}",
        f"- **Download:** [JSON Lines]({link(page, jsonl_path(s.family, s.name))})"
        + (f", [HAR]({link(page, har_path(s.name))})" if s.family == "a2a" else ""),
    ]
    era = ctx.era_of(s)
    if era is not None:
        lines.append(f"- **In the other era:** [{text(era)}, side by side]({link(page, eras_page(s.family, era))})")
    lines.append("")
    if s.engine_error is not None:
        lines += ['!!! failure "The engine could not play this session"', "", "    " + code(s.engine_error), ""]
    for f in ctx.findings_at(s.name, 0):
        lines += ['!!! finding "Finding"', "", f"    [{f.title}]({link(page, FINDINGS_PAGE, f.id)})", ""]
    general = s.differences_at(None)
    if general:
        lines += ['!!! failure "The session differs"', ""]
        lines += indent("\n".join(_difference_lines(page, s, general))).split("\n") + [""]
    for n, (m, summary) in enumerate(zip(t.messages, summaries(t)), 1):
        lines += [heading(n, m, summary), ""]
        for f in ctx.findings_at(s.name, n):
            lines += ['!!! finding "Finding"', "",
                      f"    [{f.title}]({link(page, FINDINGS_PAGE, f.id)})", ""]
        here = s.differences_at(n)
        if here:
            lines += ['!!! failure "The engine says something else here"', ""]
            lines += indent("\n".join(_difference_lines(page, s, here))).split("\n") + [""]
        lines += [message_body(m), ""]
        verdicts = ctx.verdicts.get(s.name, [])
        if n <= len(verdicts):
            lines += [verdicts[n - 1].line(), ""]
    return "\n".join(lines)


# --- eras side by side ------------------------------------------------------------------------

def render_eras(ctx: Context, family: str, scenario: str, group: dict[str, SessionResult]) -> str:
    page = eras_page(family, scenario)
    sessions = list(group.values())
    lines = [
        f"# {text(scenario)}, era by era",
        "",
        "One scenario, played by the SDK's client in each era. The table puts the two (or three) "
        "conversations next to each other, message by message; the tabs below hold every message "
        "in full, and each number links to the message on its session's own page.",
        "",
    ]
    for s in sessions:
        assert s.recorded is not None
        note = mode_note(s.family, s.recorded.mode) or ""
        lines.append(f"- [{text(s.name)}]({link(page, ctx.pages[s.name])}): {text(s.recorded.title)}"
                     + (f". Mode {_mode(s.recorded.mode)}: {note}." if note else ""))
    lines.append("")
    columns = [(s, summaries(s.recorded)) for s in sessions if s.recorded is not None]
    rows = []
    for i in range(max(len(c[1]) for c in columns)):
        row = [str(i + 1)]
        for s, words in columns:
            if i < len(words):
                m = s.recorded.messages[i]
                row.append(f"[{text(m.sender)} → {text(m.receiver)}]({link(page, ctx.pages[s.name], anchor(i + 1))}): "
                           f"{text(words[i])}")
            else:
                row.append("")
        rows.append(row)
    lines += [table(["#"] + [text(s.name) for s, _ in columns], rows), ""]
    for s, words in columns:
        lines += [f'=== "{title(s.name)} ({title(s.recorded.mode)})"', ""]
        for n, (m, summary) in enumerate(zip(s.recorded.messages, words), 1):
            sse = " (SSE event)" if m.sse else ""
            lines += [f"    **[{n}.]({link(page, ctx.pages[s.name], anchor(n))})** "
                      f"{text(m.sender)} → {text(m.receiver)}{sse}: {text(summary)}", "",
                      message_body(m, "    "), ""]
    return "\n".join(lines)


# --- the findings -----------------------------------------------------------------------------

def _place(page: str, ctx: Context, p) -> str:  # noqa: ANN001 - an At
    what = f"message {p.message}" if p.message else "its scenario"
    if p.session not in ctx.pages:
        return f"{text(p.session)}, {what}"
    return f"[{text(p.session)}, {what}]({link(page, ctx.pages[p.session], anchor(p.message) if p.message else None)})"


def render_findings(ctx: Context) -> str:
    page = FINDINGS_PAGE
    lines = [
        "# Findings",
        "",
        "What the recordings show about the SDKs, including the places where they do something other "
        "than what the specification describes. Every finding links to the messages that show it and "
        "says what must hold there; the build checks each of these against the committed recordings, "
        "so if a new SDK release behaves differently, the finding fails the build instead of going "
        "stale.",
        "",
    ]
    for kind, heading_text in KINDS.items():
        chosen = [r for r in ctx.findings if r.finding.kind == kind]
        if not chosen:
            continue
        lines += [f"## {heading_text}", ""]
        for r in chosen:
            f = r.finding
            lines += [f"### {f.title} {{#{f.id}}}", "", f"*{family_name(f.family)}.* {f.summary}", ""]
            if f.specification:
                lines += [f"**The specification:** {f.specification}", ""]
            if not r.checked:
                lines += [f"*Not checked in this build: there are no readable {family_name(f.family)} recordings.*", ""]
            lines += ["Evidence:", ""]
            for e in f.evidence:
                places = " and ".join(_place(page, ctx, p) for p in e.places())
                lines.append(f"- {places}: {e.claim()}")
            lines.append("")
            if r.failures:
                lines += ['!!! failure "This finding no longer holds"', ""]
                lines += [f"    - {text(why)}" for why in r.failures] + [""]
    return "\n".join(lines)
