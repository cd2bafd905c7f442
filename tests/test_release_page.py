"""The release page: every scenario with its verdict, every difference with its message, JSON
path and cause, and the build-time checks that keep the causes true."""
from __future__ import annotations

import json
import re

import pytest

from agent_loop_sim.check import build_report
from agent_loop_sim.project import Project
from agent_loop_sim.releases import compare_release, model_with_rules
from agent_loop_sim.site import render_site
from agent_loop_sim.site.pages.conformance import Context
from agent_loop_sim.site.pages.releases import json_lines, releases_page, render_releases
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


def test_every_difference_is_on_the_page_with_message_path_and_changelog_link(comparison, page):
    for pair in comparison.sessions:
        for d in pair.differences:
            heading = f"#### {pair.name.replace('_', chr(92) + '_')}, message {d.message}"
            assert heading in page, heading
            section = page[page.index(heading):].split("\n#### ", 1)[0]
            assert f"`{d.path}`" in section, (pair.name, d.message, d.path)
    for change in comparison.changes:
        assert f"]({change.url})" in page and f"{{#change-{change.key.replace('_', '-')}}}" in page


def test_the_differing_lines_are_highlighted(page):
    heading = "#### a2a\\_release\\_failed\\_status, message 6"
    section = page[page.index(heading):].split("\n#### ", 1)[0]
    blocks = re.findall(r'```json hl_lines="([\d ]+)"\n(.*?)\n```', section, re.S)
    assert len(blocks) == 1  # 1.2.2 has no timestamp to highlight; 1.3.0's line is
    lines, text = blocks[0][0].split(), blocks[0][1].split("\n")
    assert [text[int(n) - 1].strip() for n in lines] == ['"timestamp": "<time>"']


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


def test_the_mcp_page_lists_every_scenario_and_every_differing_message():
    comparison = compare_release(PROJECT, "mcp", "2.2.0")
    assert comparison.problems == []
    page = render_releases(Context(build_report(PROJECT), []), [comparison], "mcp")
    names = [s.name for f in PROJECT.scenario_files() if f.family == "mcp" for s in f.sessions]
    for name in names:  # the tables are HTML, their links page-relative URLs (site/parts/rawhtml.py)
        assert f'<tr>\n<td><a href="../sessions/{name}/">{name}</a></td>\n<td data-label="Scenario file"><code>scenarios/' in page, name
    rows = set(re.findall(r'^<tr>\n<td><a href="\.\./sessions/\S+/">(\S+?)</a></td>\n<td data-label="Message">(\d+)</td>\n'
                          r'<td data-label="Differing JSON paths">(.+)</td>\n</tr>$',
                          page, re.M))
    for pair in comparison.sessions:
        for n in pair.messages():
            paths = [d.path for d in pair.differences if d.message == n]
            assert (pair.name, str(n), ", ".join(f"<code>{p}</code>" for p in paths)) in rows, (pair.name, n)


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
