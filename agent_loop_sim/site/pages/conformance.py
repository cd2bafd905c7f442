"""The conformance pages, as Markdown: the overview, one page per session, the eras side by
side, and the findings.

Pages are plain functions of the report; they never run the engine or read a file. Where a page
lives is decided here (`session_page` and friends) and links are made relative, so the
Markdown reads the same under MkDocs and anywhere else.
"""
from __future__ import annotations

import functools
import html
import json
import posixpath
import re
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

from ...check import RecordingResult, Report, SessionResult
from ...compare import MISSING
from ...exports import har_path, jsonl_path
from ...names import path_part
from ...normalise import NORMAL_FORMS
from ...protocols import FAMILIES, Code, RuleTable
from ...transcript import Message, Transcript
from ..findings.evidence import KINDS, Finding, FindingResult
from ..parts.lifecycle import REFUSED, diagram
from .navigation import features_page, modes_page
from ..parts.rawhtml import block
from ..parts.wirelog import FOLD_LINES, keywords, message_html, normal_marks, normal_title, pointer, summarise
from ..parts.markdown import code, compact_json, indent, json_value, table, text, title, visible

# Sessions named <prefix>_<scenario>: the same scenario played in different MCP eras.
ERA_PREFIXES = ("legacy", "modern", "auto")
_ERA_NAME = re.compile(r"\A(%s)_(.+)\Z" % "|".join(ERA_PREFIXES))

OVERVIEW = "index.md"
RESULTS_PAGE = "results.md"
FINDINGS_PAGE = "findings.md"


# Front matter for a page of wide tables: no navigation or contents column beside them (the page
# links what the navigation would), so that at 1,400 px no column is hidden.
WIDE = "---\nhide:\n  - navigation\n  - toc\n---\n\n"


def family_name(family: str) -> str:
    return FAMILIES[family].title if family in FAMILIES else family.upper()


def mode_note(family: str, mode: str) -> str | None:
    return FAMILIES[family].mode_notes.get(mode) if family in FAMILIES else None


def family_page(family: str) -> str:
    return f"{family}/index.md"


def session_page(family: str, name: str) -> str:
    return f"{family}/sessions/{path_part(name)}.md"


def eras_page(family: str, scenario: str) -> str:
    return f"{family}/eras/{scenario}.md"


def link(source: str, target: str, anchor: str | None = None) -> str:
    """A relative link from one page to another (both relative to the docs folder)."""
    path = _relative_path(source, target)
    return path + (f"#{anchor}" if anchor else "")


@functools.lru_cache(maxsize=65536)  # (as `_relative_url`: relpath is slow, and the pairs repeat)
def _relative_path(source: str, target: str) -> str:
    return "" if source == target else _relpath(target, posixpath.dirname(source) or ".")


_NOT_A_NAME = frozenset(("", ".", ".."))


def _relpath(path: str, start: str) -> str:
    """``posixpath.relpath(path, start)`` for two paths in the docs folder (``start`` may be "."):
    the folders they share left out, a ".." for each other folder of ``start``. Worked out on the
    names (relpath's os.getcwd() and normpath were most of a page's links); a path with an empty,
    "." or ".." part goes to relpath itself, both written from the docs root."""
    parts, base = path.split("/"), [] if start == "." else start.split("/")
    if not (_NOT_A_NAME.isdisjoint(parts) and _NOT_A_NAME.isdisjoint(base)):
        return posixpath.relpath("/" + path, "/" + start)
    shared = 0
    for a, b in zip(parts, base):
        if a != b:
            break
        shared += 1
    return "/".join([".."] * (len(base) - shared) + parts[shared:]) or "."


def anchor(n: int) -> str:
    return f"m{n}"


def page_url(path: str, directory_urls: bool = True) -> str:
    """Where MkDocs puts a page (``a/b.md`` -> ``a/b/``); any other file stays where it is."""
    if not path.endswith(".md"):
        return path
    if not directory_urls:
        return path[:-3] + ".html"
    # Only a page named index.md is its folder's URL: ``legacy_index.md`` is ``legacy_index/``, not
    # ``legacy_/`` (which is the page of a session named ``legacy_``).
    return path[: -len("index.md")] if path == "index.md" or path.endswith("/index.md") else path[:-3] + "/"


def href(source: str, target: str, fragment: str | None = None, directory_urls: bool = True) -> str:
    """A relative URL for raw HTML (which MkDocs does not rewrite) from page ``source`` to ``target``."""
    return _relative_url(source, target, directory_urls) + (f"#{quote(fragment, safe='/:~!$&()*+,;=@-._')}" if fragment else "")


@functools.lru_cache(maxsize=65536)  # an index page links every session: relpath is most of its render
def _relative_url(source: str, target: str, directory_urls: bool) -> str:
    here, there = page_url(source, directory_urls), page_url(target, directory_urls)
    base = here if here.endswith("/") or not here else posixpath.dirname(here)
    rel = _relpath(there.rstrip("/") or ".", base.rstrip("/") or ".") if there != here else ""
    if there.endswith("/") or not there:
        rel = "./" if rel == "." else rel + "/"
    return rel


def evidence_anchor(n: int, path: str) -> str:
    """The id of a message's line at a JSON path: ``m3:/result/isError`` (``m3`` for the whole message)."""
    from ..findings.evidence import parse_path

    p = pointer(parse_path(path))
    return f"m{n}:{p}" if p else anchor(n)


# --- what a message is, in a few words --------------------------------------------------------

def summaries(transcript: Transcript) -> list[str]:
    """A few plain words per message: its method, or which request's result or error it is, and its key fields."""
    return [line.text() for line in summarise(transcript.messages)]


# --- the context pages share ------------------------------------------------------------------

@dataclass
class Context:
    report: Report
    findings: list[FindingResult]
    pages: dict[str, str] = field(default_factory=dict)  # session name -> page
    verdicts: dict[str, list[Any]] = field(default_factory=dict)  # session -> each message's wire-type verdict
    directory_urls: bool = True
    repo_url: str = ""  # the project's public home (mkdocs.yml's repo_url); none: files are named, not linked
    _eras: dict[str, dict[str, dict[str, SessionResult]]] = field(default_factory=dict, repr=False)
    _learnt: dict[str, dict[str, set[str]]] = field(default_factory=dict, repr=False)
    _openings: dict[str, frozenset[str]] = field(default_factory=dict, repr=False)
    _by_place: Any = field(default=None, repr=False)
    _transcripts: dict[str, Transcript] | None = field(default=None, repr=False)
    playground: dict[str, str] = field(default_factory=dict)  # session -> its scenario in the playground (a URL)
    worlds: dict[str, str] = field(default_factory=dict)  # scenario file -> the page of the world it plays against
    #: (recording file, session) -> each message as it crossed the wire (`agent_loop_sim.as_sent`), where recorded
    as_sent: dict[tuple[str, str], list[dict[str, Any]]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.pages = {s.name: session_page(s.family, s.name) for s in self.report.sessions
                      if s.recorded is not None}

    def findings_at(self, session: str, n: int) -> list[Finding]:
        """The findings pointing at message ``n`` of ``session`` (0: the session as a whole), in order."""
        return self._places()[0].get((session, n), [])

    def _places(self) -> tuple[dict[tuple[str, int], list[Finding]], dict[str, list[Any]]]:
        """Every finding's places, indexed once: by (session, message) the findings in the order
        they are listed, and by session the places in that order (a page asks per message, and
        there are thousands of messages and hundreds of places)."""
        if self._by_place is None:
            at: dict[tuple[str, int], list[Finding]] = {}
            by_session: dict[str, list[Any]] = {}
            for result in self.findings:
                f = result.finding
                for p in f.places():
                    listed = at.setdefault((p.session, p.message), [])
                    if f not in listed:
                        listed.append(f)
                    by_session.setdefault(p.session, []).append(p)
            self._by_place = (at, by_session)
        return self._by_place

    def transcript(self, session: str) -> Transcript | None:
        if self._transcripts is None:
            self._transcripts = self.report.transcripts
        return self._transcripts.get(session)

    def marks(self, session: str) -> dict[int, dict[str, str]]:
        """{message: {JSON Pointer: line id}}: the lines findings point at, marked on the page."""
        out: dict[int, dict[str, str]] = {}
        if self.transcript(session) is None:
            return out
        for p in self._places()[1].get(session, []):
            if p.message and self.points_at_line(p):
                out.setdefault(p.message, {})[evidence_anchor(p.message, p.path).partition(":")[2]] = \
                    evidence_anchor(p.message, p.path)
        return out

    def points_at_line(self, p: Any) -> bool:
        """Whether the place's JSON path is a line of its message (an absent member is not)."""
        from ..findings.evidence import resolve

        transcript = self.transcript(p.session)
        if transcript is None or not 1 <= p.message <= len(transcript.messages) or p.path in ("", "$"):
            return False
        m = transcript.messages[p.message - 1]
        return not m.is_raw and resolve(m.json, p.path) is not MISSING

    def learnt(self, family: str) -> dict[str, set[str]]:
        """Which methods each scenario op starts with, learnt from the family's sessions (once)."""
        if family not in self._learnt:
            self._learnt[family] = learn_methods([s for s in self.report.sessions if s.family == family])
        return self._learnt[family]

    def openings(self, family: str) -> frozenset[str]:
        """The methods the family's SDKs open a session with by themselves (once)."""
        if family not in self._openings:
            self._openings[family] = openings([s for s in self.report.sessions if s.family == family])
        return self._openings[family]

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


def pinned_sdks(report: Report) -> list[str]:
    """The SDK releases a report's recordings were made with, each once (``mcp 2.3.0``)."""
    return list(dict.fromkeys(text(f"{f.sdk.get('package', '?')} {f.sdk.get('version', '?')}") for f in report.files))


def _verdict(s: SessionResult) -> str:
    return "pass" if s.passed else "**FAIL**"


def _mode(mode: str) -> str:
    return code(mode)


# --- the overview -----------------------------------------------------------------------------

def render_overview(ctx: Context) -> str:
    """The home page, short: what this is, the verdict, the counts, the findings, then where the rest is."""
    report = ctx.report
    total, passed = len(report.sessions), report.passed
    verdict = "every session passes" if passed == total else f"{total - passed} of {total} sessions FAIL"
    lines = [
        "# Conformance",
        "",
        f"[![conformance: {passed}/{total} sessions](badge.svg)]({link(OVERVIEW, RESULTS_PAGE)})",
        "",
        "This site checks, one message at a time, that the simulator says what the official SDKs say. "
        "Each session was played live against a small fixture server written with an official SDK, and "
        "every message that crossed the wire was committed as a recording. On every build the simulator "
        "plays the same scenarios and its messages are compared with the recordings; a single difference "
        "stops the build, so a published page is a page that passed.",
        "",
        f"**Verdict: {verdict}** ({passed} of {total} sessions, {report.message_count} messages).",
        "",
        # (the in-browser check counts every release: say what this count is, so the two agree)
        f"These are the sessions recorded with the pinned SDK releases ({', '.join(pinned_sdks(report))}); "
        "each other release an SDK is compared in is played against its own recordings as well, and counted "
        "with them where a page says *every release*.",
        "",
    ]
    rows = []
    for family in report.families:
        chosen = [s for s in report.sessions if s.family == family]
        files = [f for f in report.files if f.family == family]
        rows.append([f"[{family_name(family)}]({link(OVERVIEW, family_page(family))})",
                     f"{sum(1 for s in chosen if s.passed)} of {len(chosen)}",
                     str(sum(f.message_count for f in files)),
                     ", ".join(dict.fromkeys(_sdk(f) for f in files))])
    lines += [table(["Protocol", "Sessions passing", "Messages", "Recorded with"], rows), ""]
    if ctx.findings:
        lines += ["## Findings", "", f"What the recordings taught us, each checked on every build "
                  f"([all of them, with their evidence]({link(OVERVIEW, FINDINGS_PAGE)})):", ""]
        lines += findings_index(ctx, OVERVIEW)
    lines += ["## Everything else", "",
              f"- [The full results table]({link(OVERVIEW, RESULTS_PAGE)}), session by session, with the recordings "
              "and how messages are compared.",
              '- For machines: <a href="conformance.json">conformance.json</a> and '
              '<a href="conformance.junit.xml">conformance.junit.xml</a> (JUnit XML, for a CI system).',
              ""]
    for family in report.families:
        lines.append(f"- {family_name(family)}: [by feature]({link(OVERVIEW, features_page(family))}), "
                     f"[by era and mode]({link(OVERVIEW, modes_page(family))})")
    lines.append("")
    return "\n".join(lines)


def render_results(ctx: Context) -> str:
    report = ctx.report
    page = RESULTS_PAGE
    up = href(page, OVERVIEW, directory_urls=ctx.directory_urls)
    lines = [
        WIDE + "# Results",
        "",
        f"Every session and its verdict. The same figures are in <a href=\"{up}conformance.json\">conformance.json</a>, "
        f"and as JUnit XML in <a href=\"{up}conformance.junit.xml\">conformance.junit.xml</a>.",
        "",
        "## What was recorded",
        "",
        table(["Recording", "Protocol", "SDK", "Transport", "Sessions", "Messages"], [
            [repo_link(ctx, f.recording_file, path_code(f.recording_file)), family_name(f.family), _sdk(f),
             text(f.transport), str(len(f.sessions)), str(f.message_count)]
            for f in report.files
        ]),
        "",
        "## How messages are compared",
        "",
        "A message is compared as JSON: objects key by key and then for the order of their keys "
        "(the SDKs write keys in a fixed order, so the engine must too), arrays element by element, "
        "and scalars by type as well as value, so `1`, `1.0` and `true` are three different answers. "
        "Lines that are not JSON are compared as text. Before that, both sides are put in the same normal "
        "form, because some values are chosen afresh on every run:",
        "",
    ]
    lines += [f"- **{FAMILIES[f].title}**: {normal_form_said(f)}" for f in report.families]
    lines += [
        "",
        "## Sessions",
        "",
        table(["Session", "Protocol", "Mode", "Messages", "Result"], [
            [f"[{text(s.name)}]({link(page, ctx.pages[s.name])})" if s.name in ctx.pages else text(s.name),
             family_name(s.family), _mode(s.recorded.mode) if s.recorded else "—",
             str(len(s.recorded.messages)) if s.recorded else "—", _verdict(s)]
            for s in report.sessions
        ]),
        "",
    ]
    return "\n".join(lines)


# --- a protocol's index -----------------------------------------------------------------------

def render_family(ctx: Context, family: str) -> str:
    page = family_page(family)
    files = [f for f in ctx.report.files if f.family == family]
    sessions = [s for f in files for s in f.sessions]
    passed = sum(1 for s in sessions if s.passed)
    intro = FAMILIES[family].intro if family in FAMILIES else ""
    lines = [WIDE + f"# {family_name(family)}", "", intro, "",
             f"{passed} of {len(sessions)} sessions pass, recorded with "
             + ", ".join(dict.fromkeys(f"{_sdk(f)} over {text(f.transport)}" for f in files)) + ".", "",
             "## Find a session", "",
             f"- [By feature]({link(page, features_page(family))}): what the sessions' messages do",
             f"- [By era and mode]({link(page, modes_page(family))})",
             f"- [Every session, with its result]({link(page, RESULTS_PAGE)})", ""]
    eras = ctx.eras(family)
    if eras:
        lines += ["## The same scenario in each era", "",
                  "Sessions named `legacy_X` and `modern_X` play one scenario in the two eras; "
                  "each pair (with `auto_X`, when there is one) has a page lining them up by what the "
                  "application did.", ""]
        for scenario, group in eras.items():
            names = ", ".join(code(s.name) for s in group.values())
            lines.append(f"- [{text(scenario)}]({link(page, eras_page(family, scenario))}): {names}")
        lines.append("")
    lines += _rules(family)
    return "\n".join(lines)


def _rules(family: str) -> list[str]:
    """The engine's own state tables for the protocol, drawn from the tables themselves; a table
    of states and inputs (some states take none) is drawn as a diagram too, above it."""
    out: list[str] = []
    for rules in FAMILIES[family].rule_tables() if family in FAMILIES else []:
        out += [f"## {rules.title}", "", rules.about, ""]
        if any(all(c == REFUSED for c in row[1:]) for row in rules.rows):
            out += ['<figure class="lifecycle">' + diagram(rules.head, rules.rows, rules.title) + "</figure>", ""]
        out += [table([_cell(h) for h in rules.head], [[_cell(c) for c in row] for row in rules.rows]), ""]
    return out


def _cell(value: str) -> str:
    # A line may break after an underscore (input_required), never inside a word.
    return code(value) if isinstance(value, Code) else text(value).replace("\\_", "\\_<wbr>")


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


@functools.lru_cache(maxsize=1024)  # a finding's title is shown at each message it points at: converted once
def inline_html(markdown_text: str) -> str:
    """Our own Markdown (a finding's title, a difference line) as HTML, for the raw HTML of a log."""
    if "md" not in _MD:  # imported here: the engine runs in the browser without Markdown installed
        import markdown

        _MD["md"] = markdown.Markdown(extensions=["attr_list"])
    md = _MD["md"]
    md.reset()
    out = md.convert(markdown_text)
    return out[3:-4] if out.startswith("<p>") and out.endswith("</p>") and out.count("<p>") == 1 else out


_MD: dict[str, Any] = {}


def _wire_type_html(v: Any) -> str:
    return _wire_type_line(v.verdict, v.against, v.detail)


@functools.lru_cache(maxsize=1024)  # a few verdicts, each under many messages
def _wire_type_line(verdict: str, against: str, detail: str) -> str:
    head = {"valid": "valid", "invalid": "<strong>invalid</strong>"}.get(verdict, html.escape(verdict))
    tail = f": {html.escape(visible(detail))}" if detail else ""
    return f'<p class="msg-wt"><em>Wire types:</em> {head} ({html.escape(visible(against))}){tail}</p>'


def _admonition(kind: str, title_text: str, body: str) -> str:
    return f'<div class="admonition {kind}"><p class="admonition-title">{html.escape(title_text)}</p>{body}</div>'


def path_code(path: str) -> str:
    """A file path as code that may break after a ``/`` or ``_`` (never inside a word)."""
    escaped = html.escape(visible(path))
    return "<code>" + re.sub(r"([/_])", r"\1<wbr>", escaped) + "</code>"


def repo_link(ctx: "Context", path: str, shown: str) -> str:
    """``shown`` (Markdown) linked to a file of the repository on the forge ``repo_url`` names
    (one setting, in mkdocs.yml); with no home configured, ``shown`` alone: no link to nowhere."""
    if not ctx.repo_url:
        return shown
    return f"[{shown}]({ctx.repo_url.rstrip('/')}/blob/main/{quote(path)})"


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
        # Not in the navigation (its column would stay empty); found first when a search matches.
        "---", "hide:", "  - navigation", "  - toc", "search:", "  boost: 2", "---", "",
        f"# {text(s.name)} {{#session}}",  # an explicit id: a session named m1 must not take message 1's
        "",
        text(t.title),
        "",
        f"- **Result:** {result}",
        f"- **Key order:** {s.key_order_verdict}",
        f"- **Protocol:** {family_name(s.family)}, mode {_mode(t.mode)}" + (f" ({note})" if note else ""),
        f"- **Recorded with:** {_sdk(file)} over {text(file.transport)}",
        f"- **Files:** recording {repo_link(ctx, s.recording_file, code(s.recording_file))}, "
        f"scenario {repo_link(ctx, s.scenario_file, code(s.scenario_file))}"
        + (f", [world]({link(page, ctx.worlds[s.scenario_file])})" if s.scenario_file in ctx.worlds else ""),
        f"- **Messages:** {counted}",
        f"- **Download:** [JSON Lines]({link(page, jsonl_path(s.family, s.name))})"
        + (f", [HAR]({link(page, har_path(s.name))})" if s.family == "a2a" else "")
        + " (in the [normal form](#normalised), as the recording"
        + ("; the HAR's times and host are placeholders, since the recording keeps neither, and each entry says so)"
           if s.family == "a2a" else ")"),
    ]
    era = ctx.era_of(s)
    if era is not None:
        lines.append(f"- **In the other era:** [{text(era)}, side by side]({link(page, eras_page(s.family, era))})")
    if s.name in ctx.playground:  # (HTML, which MkDocs leaves alone: the playground reads the fragment, not an anchor)
        lines.append(f'- **Playground:** <a class="playground-link" href="{ctx.playground[s.name]}">open in the playground</a>')
    lines.append("")
    if s.engine_error is not None:
        lines += ['!!! failure "The engine could not play this session"', "", "    " + code(s.engine_error), ""]
    for f in ctx.findings_at(s.name, 0):
        lines += ['!!! finding "Finding"', "", f"    [{f.title}]({link(page, FINDINGS_PAGE, f.id)})", ""]
    general = s.differences_at(None)
    if general:
        lines += ['!!! failure "The session differs"', ""]
        lines += indent("\n".join(_difference_lines(page, s, general))).split("\n") + [""]
    lanes = FAMILIES[s.family].parties if s.family in FAMILIES else (t.messages[0].sender if t.messages else "", "")
    marks = ctx.marks(s.name)
    verdicts = ctx.verdicts.get(s.name, [])
    normal = normal_marks(s.family)
    sent = ctx.as_sent.get((s.recording_file, s.name)) or []
    log = []
    for n, (m, line) in enumerate(zip(t.messages, summarise(t.messages)), 1):
        notes = "".join(_admonition("finding", "Finding", f'<p><a href="{href(page, FINDINGS_PAGE, f.id, ctx.directory_urls)}">'
                                    f"{inline_html(f.title)}</a></p>") for f in ctx.findings_at(s.name, n))
        here = s.differences_at(n)
        if here:
            notes += _admonition("failure", "The engine says something else here",
                                 inline_html("\n".join(_difference_lines(page, s, here))).replace('href="#', 'href="#'))
        after = _wire_type_html(verdicts[n - 1]) if n <= len(verdicts) else ""
        lane = "lane-a" if m.sender == lanes[0] else "lane-b"
        log.append(message_html(n, m, line, lane, marks.get(n), notes, after, normal,
                                sent[n - 1] if n <= len(sent) else None))
    words = html.escape(visible(" ".join(keywords(t))))  # (as each word escaped: the spaces need nothing)
    lines += [
        # Not a heading: the search index would make the log a section of its own, ranked below pages.
        '<p class="wirelog-title" id="messages"><strong>Messages</strong></p>',
        "",
        f"Each message sits in its sender's lane: {text(lanes[0])} on the left, {text(lanes[1])} on the right. "
        f"Bodies longer than {FOLD_LINES} lines are folded; a message's number is its permalink.",
        "",
        block(normalised_html(normal.used(t.messages) if normal is not None else [], bool(sent))),
        "",
        block("\n".join([f'<div class="wirelog" data-lanes="{html.escape(" ".join(lanes))}">', *log, "</div>"])),
        "",
        f'<details class="keywords"><summary>Protocol words in this session</summary><p>{words}</p></details>',
        "",
    ]
    return "\n".join(lines)


def normal_form_said(family: str) -> str:
    """The family's normal form in a sentence (Markdown): each renaming from its rules
    (`agent_loop_sim.normalise.NORMAL_FORMS`), then what the family keeps as sent."""
    renamed = "; ".join(f"{code(visible(r.form))} ({text(r.how)}) stands where the SDK sent {text(r.sent)}: "
                        f"{text(_WHERE[r.where])}" for r in NORMAL_FORMS[family])
    return f"{renamed}. {FAMILIES[family].normal_form}"


#: Where a rule of the normal form applies, as the pages say it (`NormalForm.where`).
_WHERE = {"header": "a header's value", "id": "a message's own id", "string": "a value, or part of a string"}


def normalised_html(rules: list[Any], as_sent: bool) -> str:
    """What the log below shows in the normal form rather than as sent, from the normal form's
    own rules (`agent_loop_sim.normalise.NORMAL_FORMS`): each rule whose forms stand in the
    session, with a sample of its mark, and where the bytes as sent are."""
    sent = ("Each message's <em>as sent</em> switch shows it exactly as the recorder caught it, the run's own "
            "values in place (on the transport named above: recorded in process, at the ASGI interface)."
            if as_sent else "The bytes as sent were not kept for this recording.")
    if not rules:
        return (f'<div class="normalised" id="normalised"><p><strong>Normalised values:</strong> none in this session: '
                f"every value below is as the SDK sent it (JSON pretty-printed). {sent}</p></div>")
    items = "".join(f'<li><mark class="nf" title="{html.escape(normal_title(r))}">{html.escape(visible(r.form))}</mark> '
                    f"({html.escape(visible(r.how))}) stands where the SDK sent {html.escape(visible(r.sent))}: "
                    f"{_WHERE[r.where]}</li>" for r in rules)
    return (f'<div class="normalised" id="normalised"><p><strong>Normalised values.</strong> Some values differ from '
            f"run to run, so the recording keeps them in a normal form, and so does this log: the values marked "
            f'<mark class="nf" title="normalised">like this</mark> did not cross the wire as shown.</p><ul>{items}</ul>'
            f"<p>Everything else is as the SDK sent it (JSON pretty-printed). {sent}</p></div>")


# --- eras side by side ------------------------------------------------------------------------

def render_eras(ctx: Context, family: str, scenario: str, group: dict[str, SessionResult]) -> str:
    """The eras lined up by what the application did: one row per scenario action, each era's
    messages for it side by side (linked, not copied), what differs marked. Whether the sessions
    play one scenario is worked out from their steps (`scenario_differences`) and said; the build
    holds the page to it (`era_claim_problems`)."""
    page = eras_page(family, scenario)
    sessions = [s for s in group.values() if s.recorded is not None]
    differences = scenario_differences(sessions)
    if not differences:
        claim = (f"One scenario, played by the SDK's client in each era: the sessions run the same "
                 f"{len(_actions(sessions[0]))} action{'s' if len(_actions(sessions[0])) != 1 else ''} with the same "
                 "settings (read from their scenario files). Each row is one thing the application did; each "
                 "column shows what went over the wire for it in one era; *not sent by the client* where the "
                 "client sent nothing for that action in that era.")
    else:
        claim = ("**Not one scenario.** These sessions share a name but their scenario files give them "
                 "different steps, so a row can be empty for two reasons: *not in this era's session* (the "
                 "session never asked for that action) or *not sent by the client* (it asked, and the client sent "
                 "nothing). What differs:")
    lines = [
        "---", "hide:", "  - navigation", "  - toc", "---", "",  # the eras' columns take the width
        f"# {text(scenario)}, era by era",
        "",
        claim,
        "",
        *([f"- {d}" for d in differences] + [""] if differences else []),
        "Message numbers link to the messages on their session's page. A message no other era sends "
        "is <mark>marked</mark>, and so is each JSON path where a request or an answer differs from the "
        "first era's message of the same method in the same row.",
        "",
    ]
    for s in sessions:
        note = mode_note(s.family, s.recorded.mode) or ""
        lines.append(f"- [{text(s.name)}]({link(page, ctx.pages[s.name])}): {text(s.recorded.title)}"
                     + (f". Mode {_mode(s.recorded.mode)}: {note}." if note else ""))
    lines += ["", block(aligned_html(ctx, page, sessions, one_scenario=not differences)), ""]
    return "\n".join(lines)


# What a session's scenario says besides its steps: who it is, not what it does.
_NOT_STEPS = ("name", "family", "mode", "title", "description")


def scenario_differences(sessions: list[SessionResult]) -> list[str]:
    """How the sessions' scenarios differ, one Markdown line per difference ([] when they run the
    same actions with the same settings): read from the scenario steps, never from the page."""
    if len(sessions) < 2:
        return []
    first = sessions[0]
    keys = [[_action_key(a) for a in _actions(s)] for s in sessions]
    every: list[str] = []
    for k in keys:
        every = _merge(every, k)
    out = []
    if any(k != keys[0] for k in keys):
        labels = {_action_key(a): _action_words(a) for s in sessions for a in _actions(s)}
        for s, k in zip(sessions, keys):
            missing = [labels[a] for a in every if a not in k]
            words = f"{code(s.name)} runs {len(k)} action{'s' if len(k) != 1 else ''}"
            if missing:
                words += "; not " + ", ".join(missing)
            elif k != every:
                words += " (all of them, in another order)"
            out.append(words)
    settings = sorted({key for s in sessions for key in (s.scenario or {}) if key not in _NOT_STEPS and key not in
                       ("actions", "steps")
                       and any((o.scenario or {}).get(key) != (first.scenario or {}).get(key) for o in sessions)})
    if settings:
        out.append("their settings differ: " + ", ".join(code(key) for key in settings))
    return out


def _action_words(action: Any) -> str:
    """An action in a sentence: its op and, briefly, what it names."""
    if not isinstance(action, dict):
        return code(compact_json(action))
    rest = {k: v for k, v in action.items() if k != "op"}
    return code(str(action.get("op", "?")) + (" " + _spaced_json(rest) if rest else ""))


def _spaced_json(value: Any) -> str:
    """JSON with a space after each separator: a narrow column wraps it between members, not
    inside a word."""
    return json.dumps(value, separators=(", ", ": "), ensure_ascii=False)


_CLAIM = re.compile(r'<div class="eras" data-claim="([a-z-]+)"')


def era_claim_problems(page: str, content: str, sessions: list[SessionResult]) -> list[str]:
    """A claim on an era page held to the scenario steps, as a finding is held to the messages:
    the page may say its sessions play one scenario only when their steps are the same, and
    must say where they are not."""
    names = ", ".join(s.name for s in sessions)
    differences = scenario_differences(sessions)
    found = _CLAIM.search(content)
    # (the mark, or the sentence: a page that says it in words claims it too)
    claims_one = (found is not None and found.group(1) == "one-scenario") or "\nOne scenario, played" in content
    if differences and claims_one:
        return [f"{page}: claims one scenario, but its sessions ({names}) run different steps: "
                + "; ".join(re.sub(r"<[^>]+>|`", "", d) for d in differences)]
    if not differences and (found is None or found.group(1) != "one-scenario"):
        return [f"{page}: its sessions ({names}) run the same steps, but the page does not say so"]
    return []


def _exchanges(t: Transcript) -> list[list[int]]:
    """The messages in groups, a group per thing the driving side started (a request, a
    notification, a fetch), with everything up to the next one (replies, the peer's requests)."""
    out: list[list[int]] = []
    driver = t.messages[0].sender if t.messages else ""
    for n, (m, line) in enumerate(zip(t.messages, summarise(t.messages)), 1):
        if not out or (m.sender == driver and line.kind in ("request", "notification", "http", "raw", "batch")):
            out.append([])
        out[-1].append(n)
    return out


def _actions(s: SessionResult) -> list[Any]:
    spec = s.scenario or {}
    return list(spec.get("actions") or spec.get("steps") or [])


def _first_method(t: Transcript, group: list[int], lines: list[Any]) -> str:
    return lines[group[0] - 1].what if group else ""


def openings(sessions: list[SessionResult]) -> frozenset[str]:
    """The methods an SDK starts a session with by itself, whatever the first action (the
    handshake era's ``initialize``, auto mode's ``server/discover``): per mode, the one method
    every session's first exchange starts with, when their first actions differ."""
    by_mode: dict[str, list[tuple[str, str]]] = {}
    for s in sessions:
        if s.recorded is None or not _actions(s):
            continue
        groups = _exchanges(s.recorded)
        if groups:
            first = _first_method(s.recorded, groups[0], summarise(s.recorded.messages))
            by_mode.setdefault(s.recorded.mode, []).append((first, _op(_actions(s)[0])))
    out: set[str] = set()
    for pairs in by_mode.values():
        methods, ops = {m for m, _ in pairs}, {o for _, o in pairs}
        if len(methods) == 1 and len(ops) > 1:
            out |= methods
    return frozenset(out)


def learn_methods(sessions: list[SessionResult]) -> dict[str, set[str]]:
    """{action op: the methods its exchange starts with}, learnt from the sessions whose actions
    and exchanges are one to one (no handshake, no action that sends twice, none that sends
    nothing: a session whose first exchange is an SDK's own opening is one to one by chance)."""
    out: dict[str, set[str]] = {}
    opening = openings(sessions)
    for s in sessions:
        if s.recorded is None:
            continue
        groups, actions = _exchanges(s.recorded), _actions(s)
        if actions and len(groups) == len(actions):
            lines = summarise(s.recorded.messages)
            if _first_method(s.recorded, groups[0], lines) in opening:
                continue
            for a, g in zip(actions, groups):
                if isinstance(a, dict):
                    out.setdefault(str(a.get("op")), set()).add(_first_method(s.recorded, g, lines))
    return out


def _by_action(s: SessionResult, learnt: dict[str, set[str]] | None = None,
               opening: frozenset[str] = frozenset()) -> tuple[list[int], list[list[int]]] | None:
    """(what the SDK sent by itself first, the messages of each action), or None when the
    session has no actions. The exchanges an SDK opens every session with (``opening``) come
    first; then each action whose op's methods are known (``learnt``) takes the next exchange
    starting with one of them, and each other action the next exchange a request starts before the
    next action's; an exchange taken by none goes with the action before it (a cancel after a
    call). An action that takes none sent nothing (an SDK that refuses a call itself)."""
    groups, actions = _exchanges(s.recorded), _actions(s)
    if not actions:
        return None
    learnt = learnt or {}
    lines = summarise(s.recorded.messages)

    def first(k: int) -> str:
        return _first_method(s.recorded, groups[k], lines)

    start = 0
    while start < len(groups) and first(start) in opening:
        start += 1
    starts: list[int | None] = [None] * len(actions)
    j = start
    for i, a in enumerate(actions):
        methods = learnt.get(_op(a))
        if methods:
            k = j
            while k < len(groups) and first(k) not in methods:
                k += 1
            if k < len(groups):
                starts[i], j = k, k + 1
    low = start
    for i, a in enumerate(actions):
        if starts[i] is not None:
            low = starts[i] + 1
            continue
        if learnt.get(_op(a)):
            continue  # its methods were not sent
        high = next((k for k in starts[i + 1:] if k is not None), len(groups))
        k = low
        while k < high and lines[groups[k][0] - 1].kind == "notification":
            k += 1
        if k < high:
            starts[i], low = k, k + 1
    taken = sorted(k for k in starts if k is not None)
    if not taken:
        return [n for g in groups for n in g], [[] for _ in actions]
    ends = dict(zip(taken, taken[1:] + [len(groups)]))
    return ([n for g in groups[:taken[0]] for n in g],
            [[] if k is None else [n for g in groups[k:ends[k]] for n in g] for k in starts])


def _op(action: Any) -> str:
    return str(action.get("op")) if isinstance(action, dict) else ""


def _action_key(action: Any) -> str:
    return json.dumps(action, sort_keys=True)


def _merge(rows: list[str], keys: list[str]) -> list[str]:
    """The rows with ``keys`` merged in (difflib's alignment): both keep their order."""
    from difflib import SequenceMatcher

    merged: list[str] = []
    for op, i1, i2, j1, j2 in SequenceMatcher(None, rows, keys, autojunk=False).get_opcodes():
        merged += rows[i1:i2]
        if op != "equal":
            merged += keys[j1:j2]
    return merged


def _action_html(action: Any) -> str:
    if not isinstance(action, dict):
        return f"<code>{html.escape(visible(_spaced_json(action)))}</code>"
    rest = {k: v for k, v in action.items() if k != "op"}
    op = html.escape(visible(str(action.get("op", "?"))))
    return f"<b>{op}</b>" + (f" <code>{html.escape(visible(_spaced_json(rest)))}</code>" if rest else "")


def aligned_html(ctx: Context, page: str, sessions: list[SessionResult], one_scenario: bool = True) -> str:
    family = sessions[0].family
    plans = [(s, _by_action(s, ctx.learnt(family), ctx.openings(family))) for s in sessions]
    if any(plan is None for _, plan in plans):  # fall back to one row per exchange, in order
        plans = [(s, ([], _exchanges(s.recorded))) for s in sessions]
        keys = [[str(i) for i in range(len(plan[1]))] for s, plan in plans]
        labels = {str(i): f"exchange {i + 1}" for i in range(max(len(k) for k in keys))}
    else:
        keys = [[_action_key(a) for a in _actions(s)] for s in sessions]
        labels = {_action_key(a): _action_html(a) for s in sessions for a in _actions(s)}
    rows: list[str] = []
    for k in keys:
        rows = _merge(rows, k)
    # Rows hold every era's keys in order (the merge keeps both sides' order): find each era's rows.
    where = [_positions(rows, k) for k in keys]
    # None: the row is not one of this era's session's steps (apart from "not sent by the client": [])
    cells: list[list[list[int] | None]] = [[None for _ in sessions] for _ in rows]
    setup: list[list[int] | None] = []
    for e, (s, plan) in enumerate(plans):
        first, groups = plan
        setup.append(first)
        for a, g in enumerate(groups):
            cells[where[e][a]][e] = g
    # Out of the search index: it repeats the session pages' summaries, which are what a search should
    # find. On a <section>: Material's parser matches end tags by name, so the first nested </div> would
    # end an exclusion set on a <div>.
    claim = "one-scenario" if one_scenario else "different-steps"
    out = [f'<section data-search-exclude><div class="eras" data-claim="{claim}" style="--eras: {len(sessions)}">',
           '<div class="era-row era-head"><div class="era-action">What the application did</div>'
           + "".join(f'<div class="era-cell"><a href="{href(page, ctx.pages[s.name], directory_urls=ctx.directory_urls)}">'
                     f'{html.escape(s.name)}</a> <code>{html.escape(s.recorded.mode)}</code></div>' for s in sessions)
           + "</div>"]
    table_rows = ([("The SDK, before the first action", setup)] if any(setup) else []) + \
        [(labels[r], cells[i]) for i, r in enumerate(rows)]
    lines_of = [summarise(s.recorded.messages) for s in sessions]  # once, not once per row
    for i, (label, groups) in enumerate(table_rows, 1):
        out.append(_era_row(ctx, page, sessions, i, label, groups, lines_of))
    out.append("</div></section>")
    return "\n".join(out)


def _positions(rows: list[str], keys: list[str]) -> list[int]:
    """Each key's row: the rows hold every era's keys in order, so a left-to-right scan finds them."""
    at, i = [], 0
    for k in keys:
        while rows[i] != k:
            i += 1
        at.append(i)
        i += 1
    return at


def _era_row(ctx: Context, page: str, sessions: list[SessionResult], i: int, label: str,
             groups: list[list[int] | None], lines_of: list[list[Any]]) -> str:
    whats = [[lines_of[e][n - 1].what for n in g or []] for e, g in enumerate(groups)]
    differs = len({tuple(w) for w in whats}) > 1
    first = next((e for e, g in enumerate(groups) if g), None)
    cells = []
    for e, (s, g) in enumerate(zip(sessions, groups)):
        target = ctx.pages[s.name]
        if g is None:  # the session never asked for it: no claim about what its client sends
            cells.append(f'<div class="era-cell era-absent" data-era="{html.escape(s.name)}">'
                         "not in this era's session</div>")
            continue
        if not g:
            cells.append(f'<div class="era-cell era-none" data-era="{html.escape(s.name)}">not sent by the client</div>')
            continue
        items = []
        for n in g:
            line = lines_of[e][n - 1]
            m = s.recorded.messages[n - 1]
            alone = all(line.what not in whats[o] for o in range(len(sessions)) if o != e and groups[o])
            what = html.escape(visible(line.text()))
            what = f"<mark>{what}</mark>" if alone and differs else what
            paths = ""
            if first is not None and e != first and line.kind in ("result", "error", "request", "notification"):
                paths = _differing_paths(sessions[first], groups[first] or [], lines_of[first], line.what, m)
            items.append(f'<li><a href="{href(page, target, anchor(n), ctx.directory_urls)}">{n}</a> '
                         f'<span class="era-dir">{html.escape(m.sender)} →</span> {what}{paths}</li>')
        cells.append(f'<div class="era-cell{" era-differs" if differs else ""}" data-era="{html.escape(s.name)}">'
                     f'<ol>{"".join(items)}</ol></div>')
    return (f'<div class="era-row{" era-differs" if differs else ""}" id="a{i}"><div class="era-action">'
            f'<a class="era-n" href="#a{i}">{i}</a> {label}</div>{"".join(cells)}</div>')


def _differing_paths(s: SessionResult, group: list[int], lines: list[Any], what: str, m: Message) -> str:
    """The JSON paths where this message (a request, a notification or an answer) differs from the
    first era's message of the same method in the same row (the JSON-RPC id aside: it counts the
    requests before it)."""
    from ...compare import diff_json

    other = next((s.recorded.messages[n - 1] for n in group if lines[n - 1].what == what), None)
    if other is None or other.is_raw or m.is_raw:
        return ""
    found = [p for p, _, _ in diff_json(other.json, m.json) if p != "$.id"]
    paths = [p for p in found if not p.endswith(" (key order)")]
    order = len(found) - len(paths)
    if not found:
        return ' <span class="era-same">same JSON</span>'
    shown = ", ".join(f"<mark><code>{html.escape(visible(p))}</code></mark>" for p in paths[:4])
    more = [f"{len(paths) - 4} more"] if len(paths) > 4 else []
    more += [f"keys in another order in {order} object{'s' if order != 1 else ''}"] if order else []
    words = (f"differs at {shown}" if paths else "same values") + ("; " + ", ".join(more) if more else "")
    return f'<div class="era-paths">{words}</div>'


# --- the findings -----------------------------------------------------------------------------

def _place(page: str, ctx: Context, p) -> str:  # noqa: ANN001 - an At
    what = f"message {p.message}" if p.message else "its scenario"
    if p.session not in ctx.pages:
        return f"{text(p.session)}, {what}"
    target = evidence_anchor(p.message, p.path) if p.message and ctx.points_at_line(p) else \
        anchor(p.message) if p.message else None
    return f"[{text(p.session)}, {what}]({link(page, ctx.pages[p.session], target)})"


#: The kinds of finding in the order the pages list them: the departures from the specification first, set apart.
KINDS_SHOWN = sorted(KINDS, key=lambda kind: kind != "departure")


def findings_index(ctx: Context, page: str) -> list[str]:
    """The findings as short lists, one per kind (the departures from the specification first,
    each naming the specification), each grouped by protocol: Markdown lines for ``page``."""
    out: list[str] = []
    for kind in KINDS_SHOWN:
        chosen = [r.finding for r in ctx.findings if r.finding.kind == kind]
        if not chosen:
            continue
        # (a box of its own, Markdown inside: md_in_html)
        out += [f'<div class="findings-group findings-group-{kind}" markdown="1">', "",
                f'<p class="findings-kind findings-{kind}"><strong>{html.escape(KINDS[kind])}</strong> ({len(chosen)})</p>', ""]
        for family in dict.fromkeys(f.family for f in chosen):
            items = [f for f in chosen if f.family == family]
            out.append(f"- {family_name(family)} ({len(items)})")
            out += [f"    - [{f.title}]({link(page, FINDINGS_PAGE, f.id)})" for f in items]
        out += ["", "</div>", ""]
    return out


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
        *findings_index(ctx, page),
    ]
    for kind in KINDS_SHOWN:
        heading_text = KINDS[kind]
        chosen = [r for r in ctx.findings if r.finding.kind == kind]
        if not chosen:
            continue
        lines += [f"## {heading_text}", ""]
        for r in chosen:
            f = r.finding
            lines += [f"### {f.title} {{#{f.id}}}", "", f"*{family_name(f.family)}.* {f.summary}", ""]
            if f.specification:
                cite = f" ([the specification's section]({f.spec}))" if f.spec else ""
                lines += [f"**The specification:** {f.specification}{cite}", ""]
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
