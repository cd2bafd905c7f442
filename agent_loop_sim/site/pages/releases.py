"""The release page of a family: its pinned SDK release beside each other release the model speaks.

For every scenario session, whether the two releases' recordings agree; where they do not, each
differing message's number links to the two messages side by side, the lines of the differing JSON
paths highlighted, on a page per session (`pair_page`). The release page groups the differences by
the wire change that causes them (worked out by `agent_loop_sim.releases`), each linked to its
changelog entry, folded, with one example each: short at first sight, every difference one click
away. Everything quoted from a recording is shown as code, never as markup.
"""
from __future__ import annotations

import html
import json
from typing import Any

from ...check import Engine, Report
from ...compare import MISSING
from ...project import Project
from ...protocols import FAMILIES
from ...scenarios import ScenarioFile
from ...releases import ReleaseComparison, SessionPair, compare_release
from ...names import path_part
from ...transcript import Message
from ..parts import rawhtml
from ..parts.markdown import code, table, text
from ..parts.wirelog import _http_html, http_of, json_html
from .conformance import WIDE, Context, family_name, href, link


EXAMPLES = 1  #: message pairs drawn in full per change on the release page; every one is on its session's page


def releases_page(family: str) -> str:
    return f"{family}/releases.md"


def pair_page(family: str, version: str, name: str) -> str:
    """The page of one session's messages as the two releases said them, every differing one side by side."""
    return f"{family}/releases/{version}/{path_part(name)}.md"  # (a version of the family's release table)


def change_anchor(key: str) -> str:
    return "change-" + key.replace("_", "-")


def json_lines(value: Any, path: str = "$", prefix: str = "", indent: str = "") -> list[tuple[str, str]]:
    """``json.dumps(value, indent=2)`` as lines, each with the JSON path it belongs to.

    Written out here (not taken from ``json``) because the page highlights the lines of a path,
    and the standard encoder does not say which line holds which path."""
    def key_path(key: str) -> str:
        return f"{path}.{key}" if key.isidentifier() else f"{path}[{json.dumps(key)}]"

    if isinstance(value, dict) and value:
        out = [(f"{indent}{prefix}{{", path)]
        for i, (key, item) in enumerate(value.items()):
            child = json_lines(item, key_path(key), json.dumps(key, ensure_ascii=False) + ": ", indent + "  ")
            if i < len(value) - 1:
                child[-1] = (child[-1][0] + ",", child[-1][1])
            out += child
        return out + [(f"{indent}}}", path)]
    if isinstance(value, list) and value:
        out = [(f"{indent}{prefix}[", path)]
        for i, item in enumerate(value):
            child = json_lines(item, f"{path}[{i}]", "", indent + "  ")
            if i < len(value) - 1:
                child[-1] = (child[-1][0] + ",", child[-1][1])
            out += child
        return out + [(f"{indent}]", path)]
    return [(f"{indent}{prefix}{json.dumps(value, ensure_ascii=False)}", path)]


def _under(line_path: str, paths: list[str]) -> bool:
    return any(line_path == p or line_path.startswith(p + ".") or line_path.startswith(p + "[") for p in paths)


def highlighted(m: Message | None, paths: list[str], heading: str) -> str:
    """One side of a message pair, as HTML: its parties, its HTTP envelope, and the JSON with the
    lines of ``paths`` highlighted (class ``hl``; the lines coloured as on the session pages)."""
    if m is None:
        return (f'<div class="pair-side"><p><strong>{rawhtml.text(heading)}</strong></p>'
                "<p>(no such message: the session is shorter)</p></div>")
    where = (f'<p><strong>{rawhtml.text(heading)}</strong>: {rawhtml.text(m.sender)} → {rawhtml.text(m.receiver)}'
             + (" (SSE event)" if m.sse else "") + "</p>")
    http = http_of(m)
    envelope = _http_html(http) if http else ""
    if m.raw is not None:
        body = f'<div class="highlight"><pre><code>{rawhtml.text(m.raw)}</code></pre></div>'
    elif m.json is None:
        body = ""
    else:
        lines = json_lines(m.json)
        coloured, _ = json_html(m.json)
        shown = coloured.split("\n")
        if len(shown) != len(lines):  # (never: both are json.dumps(indent=2)'s lines) plain text then
            shown = [f'<span class="l">{html.escape(t)}</span>' for t, _ in lines]
        marked = [line.replace('<span class="l">', '<span class="l hl">', 1) if _under(p, paths) or "$" in paths else line
                  for line, (_, p) in zip(shown, lines)]
        body = f'<div class="highlight"><pre><code class="language-json">{chr(10).join(marked)}</code></pre></div>'
    return f'<div class="pair-side">{where}{envelope}{body}</div>'


def _message(t: Any, n: int | None) -> Message | None:
    if t is None or n is None or n > len(t.messages):
        return None
    return t.messages[n - 1]


def _verdict_html(pair: SessionPair) -> str:
    """A session's verdict, as a cell of the HTML table of every scenario (its own words, no quoted text)."""
    if pair.pinned is None or pair.other is None:
        return "<strong>not recorded by both</strong>"
    if pair.agree:
        return "agree"
    count = len(pair.messages())
    return f"<strong>differ</strong> in {count} message{'s' if count != 1 else ''}"


def render_releases(ctx: Context, comparisons: list[ReleaseComparison], family: str) -> str:
    page = releases_page(family)
    out = [f"# {family_name(family)}: SDK releases side by side", ""]
    for c in comparisons:
        out += _render_one(ctx, c, page)
    return "\n".join(out)


def _pair_href(ctx: Context, page: str, c: ReleaseComparison, pair: SessionPair, n: int | None) -> str:
    return href(page, pair_page(c.family, c.version, pair.name), f"m{n if n is not None else 0}",
                directory_urls=ctx.directory_urls)


def _message_links(ctx: Context, page: str, c: ReleaseComparison, pair: SessionPair, numbers: list[int | None]) -> str:
    return ", ".join(rawhtml.a(_pair_href(ctx, page, c, pair, n), str(n) if n is not None else "(session)")
                     for n in numbers)


def _render_one(ctx: Context, c: ReleaseComparison, page: str) -> list[str]:
    pinned, other, package = c.releases.pinned, c.version, c.releases.package
    differing = [p for p in c.sessions if not p.agree]
    engine_ok = sum(1 for s in c.report.sessions if s.passed)
    count = sum(len(_numbers(p)) for p in differing)
    out = [f"## {text(package)} {text(pinned)} beside {text(other)}", "",
           f"Every scenario session was recorded live with both releases, each installed in its own locked "
           f"environment ({code(pinned)} in the project's, {code(other)} in "
           f"{code('releases/' + c.releases.slug(other) + '/')}), against the same fixture, and "
           f"{code('record --check')} records both again in the test command. The engine speaks both: "
           f"with {code('--release ' + other)} it says what {text(other)} said in {engine_ok} of "
           f"{len(c.report.sessions)} sessions ({c.report.message_count} messages), with no recording of "
           f"{text(pinned)} involved. The two releases agree on {len(c.sessions) - len(differing)} of "
           f"{len(c.sessions)} sessions; they differ in {count} message{'s' if count != 1 else ''} of "
           f"{len(differing)} session{'s' if len(differing) != 1 else ''}. Every message number links to "
           "its two versions side by side, the differing lines highlighted.", "",
           f"Each difference is given its cause by the model: played with {text(pinned)}'s rules and "
           "one wire change put in effect, the engine brings about exactly the differences listed under "
           "that change. The build refuses a difference no change explains, and a change no session shows. "
           f"Release notes: [{text(package)}]({c.releases.changelog}).", "",
           *([f"Not recorded with {text(other)} yet, so not on this page: "
              + ", ".join(code(f) for f in c.unrecorded) + ".", ""] if c.unrecorded else []),
           "### Wire changes", "",
           table(["Change", "Since", "Announced in", "What changes on the wire", "Sessions", "Messages"], [
               [f"[{code(ch.key)}](#{change_anchor(ch.key)})", text(ch.since), f"[{text(ch.entry)}]({ch.url})",
                text(ch.effect), str(len({p.name for p, _, _ in c.shown_by(ch.key)})), str(len(c.shown_by(ch.key)))]
               for ch in c.changes]), "",
           "### Every scenario", "",
           # HTML, not a Markdown table: one row per session (see navigation._table); folded, so the
           # page opens on the changes, not on hundreds of rows.
           rawhtml.block(
               f'<details class="release-fold"><summary>The {len(c.sessions)} scenario sessions, each with its '
               f"verdict ({len(differing)} differ)</summary>\n"
               + rawhtml.table_html(["Session", "Scenario file", f"{rawhtml.text(pinned)} and {rawhtml.text(other)}",
                                     "Messages that differ", "Cause"], [
                   [_session_a(ctx, page, p), rawhtml.code(p.scenario_file), _verdict_html(p),
                    _message_links(ctx, page, c, p, _numbers(p)) or "none",
                    ", ".join(rawhtml.a(f"#{change_anchor(k)}", rawhtml.code(k)) for k in p.change_keys()) or "none"]
                   for p in c.sessions], searched=False) + "\n</details>"), ""]
    for ch in c.changes:
        places = c.shown_by(ch.key)
        sessions = len({p.name for p, _, _ in places})
        out += [f"### {text(ch.entry)} {{#{change_anchor(ch.key)}}}", "",
                f"{text(ch.effect)}. Since {text(package)} {text(ch.since)}: "
                f"[the upstream entry]({ch.url}), [{text(package)} release notes]({c.releases.changelog}). "
                f"It shows in {len(places)} message{'s' if len(places) != 1 else ''} of {sessions} "
                f"session{'s' if sessions != 1 else ''}.", ""]
        by_session: dict[str, list[tuple[SessionPair, int | None, list[str]]]] = {}
        for place in places:
            by_session.setdefault(place[0].name, []).append(place)
        out += [rawhtml.block(
            f'<details class="release-fold"><summary>Every message it changes, by session ({sessions} '
            f"session{'s' if sessions != 1 else ''}): each number opens the pair side by side</summary>\n"
            + rawhtml.table_html(["Session", "Messages", "Differing JSON paths"], [
                [_session_a(ctx, page, group[0][0]), _message_links(ctx, page, c, group[0][0], [n for _, n, _ in group]),
                 ", ".join(rawhtml.code(p) for p in dict.fromkeys(p for _, _, paths in group for p in paths))]
                for group in by_session.values()], searched=False) + "\n</details>"), ""]
        for pair, n, paths in places[:EXAMPLES]:
            out += [f"For example, {_session_link(ctx, page, pair)}, "
                    f"[message {n if n is not None else '(session)'}]({link(page, pair_page(c.family, c.version, pair.name), f'm{n if n is not None else 0}')}):", "",
                    rawhtml.block(_pair_html(c, pair, n, paths, example=True)), ""]
    return out


def _numbers(pair: SessionPair) -> list[int | None]:
    """The messages that differ, and None first when a difference is the session's as a whole."""
    return ([None] if any(d.message is None for d in pair.differences) else []) + pair.messages()


def _pair_html(c: ReleaseComparison, pair: SessionPair, n: int | None, paths: list[str], example: bool = False) -> str:
    """One message as the two releases said it, side by side (two columns; one above the other on a phone)."""
    package = c.releases.package
    values = ", ".join(f"{rawhtml.code(p)} ({_values_html(pair, n, p)})" for p in paths)
    ident = "" if example else f' id="m{n if n is not None else 0}"'
    return (f'<div class="release-pair"{ident}>'
            + ("" if example else f'<p class="pair-head"><a href="#m{n if n is not None else 0}">'
               f'Message {n if n is not None else "(the session)"}</a></p>')
            + f'<p class="pair-paths">Differing JSON paths: {values}</p>'
            + '<div class="pair-sides">'
            + highlighted(_message(pair.pinned, n), paths, f"{package} {c.releases.pinned}")
            + highlighted(_message(pair.other, n), paths, f"{package} {c.version}")
            + "</div></div>")


def render_pair(ctx: Context, c: ReleaseComparison, pair: SessionPair) -> str:
    """One session's page of differences between the two releases: every differing message, side by side."""
    page = pair_page(c.family, c.version, pair.name)
    package = c.releases.package
    keys = pair.change_keys()
    target = ctx.pages.get(pair.name)
    lines = [f"# {text(pair.name)}: {text(package)} {text(c.releases.pinned)} beside {text(c.version)}", "",
             f"{_session_link(ctx, page, pair)}: {text(pair.title)}. Every message where the two releases' "
             f"recordings differ, side by side, the differing lines highlighted"
             + (f"; caused by {', '.join(f'[{code(k)}]({link(page, releases_page(c.family), change_anchor(k))})' for k in keys)}"
                if keys else "") + f". [All the differences between the releases]({link(page, releases_page(c.family))})"
             + (f"; [the session's page]({link(page, target)})." if target else "."), ""]
    for n in _numbers(pair):
        paths = [d.path for d in pair.differences if d.message == n]
        lines += [rawhtml.block(_pair_html(c, pair, n, paths)), ""]
    return "\n".join(lines)


def _session_a(ctx: Context, page: str, pair: SessionPair) -> str:
    target = ctx.pages.get(pair.name)
    name = rawhtml.text(pair.name)
    return rawhtml.a(href(page, target, directory_urls=ctx.directory_urls), name) if target else f"<code>{name}</code>"


def _session_link(ctx: Context, page: str, pair: SessionPair) -> str:
    target = ctx.pages.get(pair.name)
    return f"[{text(pair.name)}]({link(page, target)})" if target else code(pair.name)


def _values_html(pair: SessionPair, n: int | None, path: str) -> str:
    d = next(d for d in pair.differences if d.message == n and d.path == path)
    return f"{_short(d.expected)} → {_short(d.actual)}"


def _short(value: Any) -> str:
    if value is MISSING:
        return "absent"
    shown = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return rawhtml.code(shown if len(shown) <= 60 else shown[:59] + "…")


def _compare(project: Project, family: str, version: str, run_session: Engine | None, memo: Any,
             pinned: Report, every: list[ScenarioFile] | None) -> ReleaseComparison:
    """`compare_release`, each scenario file's part kept by the serve memo (if any) while the file
    and its recordings by both releases keep their bytes (all that part reads)."""
    if memo is None or every is None:
        return compare_release(project, family, version, run_session, every=every, pinned=pinned)

    def keep(file: Any, compare: Any) -> Any:
        key = ("release", family, version, file.path, memo.digest(file.path),
               memo.digest(project.recording_path(file)), memo.digest(project.recording_path(file, version)))
        return memo.get(key, compare)
    return compare_release(project, family, version, run_session, every=every, keep=keep, pinned=pinned)


def release_pages(project: Project, ctx: Context, family: str, run_session: Engine | None,
                  pages: dict[str, str], memo: Any = None,
                  every: list[ScenarioFile] | None = None) -> tuple[list[Any], list[str]]:
    """Add the family's release page to ``pages`` when its model speaks more than one release;
    returns the page's navigation entries and the problems that must stop the build. ``every``:
    the checkout's scenario files, if already read."""
    releases = FAMILIES[family].releases if family in FAMILIES else None
    if releases is None or not releases.others:
        return [], []
    comparisons = [_compare(project, family, version, run_session, memo, ctx.report, every) for version in releases.others]
    pages[releases_page(family)] = render_releases(ctx, comparisons, family)
    for c in comparisons:
        for pair in c.sessions:
            if not pair.agree and pair.pinned is not None and pair.other is not None:
                pages[pair_page(family, c.version, pair.name)] = WIDE + render_pair(ctx, c, pair)
    return [{"SDK releases": releases_page(family)}], [p for c in comparisons for p in c.problems]
