"""The release page: every scenario with its verdict, every difference with its message, JSON
path and cause, and the build-time checks that keep the causes true."""
from __future__ import annotations

import html
import json
import re

import pytest

from agent_loop_sim.check import build_report
from agent_loop_sim.project import Project
from agent_loop_sim.releases import compare_release, model_with_rules
from agent_loop_sim.site import render_site
from agent_loop_sim.site.pages.conformance import Context
from agent_loop_sim.site.pages.releases import json_lines, releases_page, render_pair, render_releases
from conftest import ROOT

PROJECT = Project(ROOT)


@pytest.fixture(scope="module")
def comparison():
    return compare_release(PROJECT, "a2a", "1.3.0")


@pytest.fixture(scope="module")
def page(comparison):
    return render_releases(Context(build_report(PROJECT), []), [comparison], "a2a")


def test_the_checkout_has_no_release_problem(comparison):
    assert comparison.problems == []
    # (1.3.0 stamps the failed status of the task the agent crashed on, and on a follow-up moves the
    # status message and the user's message to its history first)
    assert sorted(p.name for p in comparison.sessions if not p.agree) == sorted([
        "a2a_release_failed_status", "a2a_release_boolean_ids", "a2a_release_boolean_id_stream", "a2a_raw_envelope",
        "a2a_agent_crash", "a2a_follow_up_crash", "a2a_follow_up_crash_no_context", "a2a_follow_up_crash_streamed"])


def test_the_page_lists_every_scenario_with_its_verdict(comparison, page):
    # The table is HTML (site/parts/rawhtml.py): one row per session, its link, scenario file and verdict.
    rows = {m.group(1): m.group(2) for m in
            re.finditer(r'^<tr>\n<td><a href="[^"]*">(\S+?)</a></td>\n<td data-label="Scenario file"><code>[^<]+</code></td>\n'
                        r'<td data-label="[^"]+">(.*?)</td>$', page, re.M)}
    names = [s.name for f in PROJECT.scenario_files() if f.family == "a2a" for s in f.sessions]
    assert sorted(rows) == sorted(names)
    for pair in comparison.sessions:
        verdict = rows[pair.name].strip()
        assert verdict == "agree" if pair.agree else verdict.startswith("<strong>differ</strong>"), (pair.name, verdict)


def _pair_section(pair_html: str, n: int) -> str:
    return pair_html[pair_html.index(f'<div class="release-pair" id="m{n}">'):].split('<div class="release-pair"', 2)[1]


def test_every_difference_is_one_click_away_side_by_side(comparison, page):
    ctx = Context(build_report(PROJECT), [])
    for pair in comparison.sessions:
        if pair.agree:
            continue
        pair_html = render_pair(ctx, comparison, pair)
        for d in pair.differences:
            # The number on the release page links straight to the pair, on the session's page of differences.
            assert f'<a href="1.3.0/{pair.name}/#m{d.message}">{d.message}</a>' in page, (pair.name, d.message)
            section = _pair_section(pair_html, d.message)
            assert f"<code>{d.path}</code>" in section, (pair.name, d.message, d.path)
            assert section.count('<div class="pair-side">') == 2  # both releases' messages, side by side
    for change in comparison.changes:
        assert f"]({change.url})" in page and f"{{#change-{change.key.replace('_', '-')}}}" in page


def test_the_release_page_is_folded_short_with_one_example_per_change(comparison, page):
    assert page.count('<details class="release-fold">') == 1 + len(comparison.changes)
    assert page.count('<div class="release-pair">') == len(comparison.changes)  # one example each


def test_the_differing_lines_are_highlighted(comparison):
    pair = next(p for p in comparison.sessions if p.name == "a2a_release_failed_status")
    section = _pair_section(render_pair(Context(build_report(PROJECT), []), comparison, pair), 6)
    sides = section.split('<div class="pair-side">')[1:]
    assert len(sides) == 2 and 'class="l hl"' not in sides[0]  # 1.2.2 has no timestamp to highlight; 1.3.0's line is
    marked = re.findall(r'<span class="l hl">(.*?)</span>\n', sides[1])
    assert [html.unescape(re.sub(r"<[^>]+>", "", line)).strip() for line in marked] == ['"timestamp": "<time>"']


def test_a_difference_no_change_explains_stops_the_build():
    model = model_with_rules("a2a")
    comparison = compare_release(PROJECT, "a2a", "1.3.0", rule_engine=lambda s, rules: model(s, frozenset()))
    assert comparison.problems
    assert all("no wire change of the release table explains" in p or "shows in no committed session" in p
               for p in comparison.problems)
    assert any("session 'a2a_release_failed_status', message 6, $.result.status.timestamp" in p for p in comparison.problems)


def test_the_site_refuses_a_release_recording_the_engine_does_not_say(tmp_path):
    import shutil
    dest = tmp_path / "p"
    for name in ("scenarios", "recordings", "conformance", "worlds"):
        shutil.copytree(ROOT / name, dest / name)
    path = dest / "recordings" / "a2a-sdk-1.3.0" / "a2a_sdk_exchanges_releases.json"
    data = json.loads(path.read_text())
    data["sessions"][0]["messages"][9]["json"]["error"]["code"] = -32601
    path.write_text(json.dumps(data))
    site = render_site(Project(dest), reference=False)
    assert not site.ok
    assert any(p.startswith("a2a-sdk 1.3.0: recordings/a2a-sdk-1.3.0/a2a_sdk_exchanges_releases.json") and
               "session 'a2a_release_boolean_ids', message 10, $.error.code" in p for p in site.problems), site.problems
    assert releases_page("a2a") in site.pages


@pytest.mark.parametrize("value", [
    {}, [], None, 1, "x", {"a": [], "b": {}, "c": [1, {"d": None}], "é ü": "\u2028 \"q\"", "": 1.5},
    [[[]], {"x": [True, False]}],
])
def test_json_lines_are_json_dumps_indent_2(value):
    assert "\n".join(t for t, _ in json_lines(value)) == json.dumps(value, indent=2, ensure_ascii=False)


def test_the_mcp_page_lists_every_scenario_and_links_every_differing_message():
    comparison = compare_release(PROJECT, "mcp", "2.2.0")
    assert comparison.problems == []
    page = render_releases(Context(build_report(PROJECT), []), [comparison], "mcp")
    names = [s.name for f in PROJECT.scenario_files() if f.family == "mcp" for s in f.sessions]
    for name in names:  # the tables are HTML, their links page-relative URLs (site/parts/rawhtml.py)
        assert f'<tr>\n<td><a href="../sessions/{name}/">{name}</a></td>\n<td data-label="Scenario file"><code>scenarios/' in page, name
    linked = set(re.findall(r'<a href="2\.2\.0/(\w+)/#m(\d+)">\d+</a>', page))
    assert linked == {(pair.name, str(n)) for pair in comparison.sessions for n in pair.messages()}


def test_given_the_pinned_check_the_comparison_reads_its_recordings_instead_of_the_files():
    alone = compare_release(PROJECT, "mcp", "2.2.0")
    given = compare_release(PROJECT, "mcp", "2.2.0", pinned=build_report(PROJECT))
    said = lambda c: ([(p.name, p.differences, p.causes) for p in c.sessions], c.problems)  # noqa: E731
    assert said(given) == said(alone)
    # what it is given is what it compares: a pinned session cut short shows as a difference
    changed = build_report(PROJECT)
    recording = next(f.recording for f in changed.files if f.scenario_file == "scenarios/mcp.json")
    cut = next(t for t in recording.sessions if t.name == "modern_tour")
    cut.messages = cut.messages[:-1]
    pair = next(p for p in compare_release(PROJECT, "mcp", "2.2.0", pinned=changed).sessions if p.name == "modern_tour")
    assert [d.message for d in pair.differences] == [len(cut.messages) + 1]
