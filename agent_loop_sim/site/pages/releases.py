"""The release page of a family: its pinned SDK release beside each other release the model speaks.

For every scenario session, whether the two releases' recordings agree; where they do not, the
messages side by side with the lines of the differing JSON paths highlighted, grouped by the wire
change that causes them (worked out by `agent_loop_sim.releases`), each linked to its changelog
entry. Everything quoted from a recording is shown as code, never as markup.
"""
from __future__ import annotations

import json
from typing import Any

from ...check import Engine, Report
from ...compare import MISSING
from ...project import Project
from ...protocols import FAMILIES
from ...scenarios import ScenarioFile
from ...releases import ReleaseComparison, SessionPair, compare_release
from ...transcript import Message
from ..parts import rawhtml
from ..parts.markdown import code, fence, table, text
from .conformance import Context, family_name, href, link


SIDE_BY_SIDE = 12  #: message pairs drawn in full per change; a table lists them all


def releases_page(family: str) -> str:
    return f"{family}/releases.md"


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
    """One side of a message pair: a JSON block with the lines of ``paths`` highlighted."""
    if m is None:
        return "\n".join([f"**{text(heading)}**", "", "(no such message: the session is shorter)"])
    where = f"**{text(heading)}**: {text(m.sender)} → {text(m.receiver)}" + (" (SSE event)" if m.sse else "")
    if m.raw is not None:
        return "\n".join([where, "", fence(m.raw)])
    lines = json_lines(m.json)
    marked = [str(i) for i, (_, p) in enumerate(lines, 1) if _under(p, paths) or "$" in paths]
    attrs = f'hl_lines="{" ".join(marked)}"' if marked else ""
    return "\n".join([where, "", fence("\n".join(t for t, _ in lines), "json", attrs=attrs)])


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


def _render_one(ctx: Context, c: ReleaseComparison, page: str) -> list[str]:
    pinned, other, package = c.releases.pinned, c.version, c.releases.package
    differing = [p for p in c.sessions if not p.agree]
    engine_ok = sum(1 for s in c.report.sessions if s.passed)
    out = [f"## {text(package)} {text(pinned)} beside {text(other)}", "",
           f"Every scenario session was recorded live with both releases, each installed in its own locked "
           f"environment ({code(pinned)} in the project's, {code(other)} in "
           f"{code('releases/' + c.releases.slug(other) + '/')}), against the same fixture, and "
           f"{code('record --check')} records both again in the test command. The engine speaks both: "
           f"with {code('--release ' + other)} it says what {text(other)} said in {engine_ok} of "
           f"{len(c.report.sessions)} sessions ({c.report.message_count} messages), with no recording of "
           f"{text(pinned)} involved. The two releases agree on {len(c.sessions) - len(differing)} of "
           f"{len(c.sessions)} sessions.", "",
           f"Each difference below is given its cause by the model: played with {text(pinned)}'s rules and "
           "one wire change put in effect, the engine brings about exactly the differences listed under "
           "that change. The build refuses a difference no change explains, and a change no session shows. "
           f"Release notes: [{text(package)}]({c.releases.changelog}).", "",
           *([f"Not recorded with {text(other)} yet, so not on this page: "
              + ", ".join(code(f) for f in c.unrecorded) + ".", ""] if c.unrecorded else []),
           "### Wire changes", "",
           table(["Change", "Since", "Announced in", "What changes on the wire", "Sessions"], [
               [f"[{code(ch.key)}](#{change_anchor(ch.key)})", text(ch.since), f"[{text(ch.entry)}]({ch.url})",
                text(ch.effect), str(len({p.name for p, _, _ in c.shown_by(ch.key)}))]
               for ch in c.changes]), "",
           "### Every scenario", "",
           # HTML, not a Markdown table: one row per session (see navigation._table).
           rawhtml.table(["Session", "Scenario file", f"{rawhtml.text(pinned)} and {rawhtml.text(other)}",
                          "Messages that differ", "Cause"], [
               [_session_a(ctx, page, p), rawhtml.code(p.scenario_file), _verdict_html(p),
                ", ".join(str(n) for n in p.messages()) or "none",
                ", ".join(rawhtml.a(f"#{change_anchor(k)}", rawhtml.code(k)) for k in p.change_keys()) or "none"]
               for p in c.sessions], searched=False), ""]
    for ch in c.changes:
        out += [f"### {text(ch.entry)} {{#{change_anchor(ch.key)}}}", "",
                f"{text(ch.effect)}. Since {text(package)} {text(ch.since)}: "
                f"[the upstream entry]({ch.url}), [{text(package)} release notes]({c.releases.changelog}).", ""]
        places = c.shown_by(ch.key)
        if len(places) > SIDE_BY_SIDE:
            out += [f"It shows in {len(places)} messages; the first {SIDE_BY_SIDE} are side by side below, "
                    "and this table lists every one.", "",
                    rawhtml.table(["Session", "Message", "Differing JSON paths"], [
                        [_session_a(ctx, page, pair), str(n), ", ".join(rawhtml.code(p) for p in paths)]
                        for pair, n, paths in places], searched=False), ""]
        for pair, n, paths in places[:SIDE_BY_SIDE]:
            out += [f"#### {text(pair.name)}, message {n if n is not None else '(session)'}", "",
                    f"{_session_link(ctx, page, pair)}: {text(pair.title)}. Differing JSON paths: "
                    + ", ".join(f"{code(p)} ({_values(pair, n, p)})" for p in paths), "",
                    # One grid cell per release (md_in_html): the two messages side by side.
                    '<div class="grid" markdown>', "", '<div markdown>', "",
                    highlighted(_message(pair.pinned, n), paths, f"{package} {pinned}"), "",
                    "</div>", "", '<div markdown>', "",
                    highlighted(_message(pair.other, n), paths, f"{package} {other}"), "",
                    "</div>", "", "</div>", ""]
    return out


def _session_a(ctx: Context, page: str, pair: SessionPair) -> str:
    target = ctx.pages.get(pair.name)
    name = rawhtml.text(pair.name)
    return rawhtml.a(href(page, target, directory_urls=ctx.directory_urls), name) if target else f"<code>{name}</code>"


def _session_link(ctx: Context, page: str, pair: SessionPair) -> str:
    target = ctx.pages.get(pair.name)
    return f"[{text(pair.name)}]({link(page, target)})" if target else code(pair.name)


def _values(pair: SessionPair, n: int | None, path: str) -> str:
    d = next(d for d in pair.differences if d.message == n and d.path == path)
    return f"{_short(d.expected)} → {_short(d.actual)}"


def _short(value: Any) -> str:
    if value is MISSING:
        return "absent"
    shown = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return code(shown if len(shown) <= 60 else shown[:59] + "…")


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
    return [{"SDK releases": releases_page(family)}], [p for c in comparisons for p in c.problems]
