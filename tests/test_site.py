"""The site module without MkDocs: the report, the findings, the Markdown of every page.

The engine is always a fake here (``test_site_fakes``), so these tests say nothing about the
engine and everything about the site: that a difference, an engine failure, an unreadable
recording or a finding that no longer holds is reported precisely, and that the pages show
every message, in order, as data and never as markup.
"""
from __future__ import annotations

import html as html_lib
import json
import re
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import markdown
import pytest
from markdown_it import MarkdownIt

from agent_loop_sim.project import Project
from agent_loop_sim.site import FINDINGS, render_site
from agent_loop_sim.site.findings.evidence import (Absent, At, ErrorCode, IsRaw, JsonEquals, NoReply, Present, Recorded,
                                          ScenarioEquals, ValuesDiffer, check_finding, parse_path, resolve)
from agent_loop_sim.site.parts.markdown import code, fence, text
from agent_loop_sim.site.pages.conformance import Context, session_page
from agent_loop_sim.check import Report, SessionResult
from agent_loop_sim.jsonio import json_path
from agent_loop_sim.transcript import Message, Transcript
from test_site_fakes import ROOT, broken, consistent_copy, edit_recording, flipped, recorded_sessions, replay

MD = MarkdownIt("commonmark").enable("table")


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    """The checkout's recordings and scenario files, agreeing with each other (see consistent_copy)."""
    return consistent_copy(tmp_path_factory.mktemp("site") / "project")


@pytest.fixture(scope="module")
def committed(project) -> dict[str, Transcript]:
    return recorded_sessions(project / "recordings")


@pytest.fixture(scope="module")
def site(project, committed):
    return render_site(Project(project), replay(committed))


def small_project(tmp_path: Path, project: Path) -> Path:
    dest = tmp_path / "copy"
    shutil.copytree(project, dest)
    return dest


# --- the report -------------------------------------------------------------------------------

def test_an_engine_that_says_what_was_recorded_passes(site, committed):
    assert site.ok, site.explain()
    assert {s.name for s in site.report.sessions} == set(committed)
    assert all(s.passed for s in site.report.sessions)
    assert site.report.message_count == sum(len(t.messages) for t in committed.values())
    for s in site.report.sessions:
        assert session_page(s.family, s.name) in site.pages


def test_conformance_json_and_badge(site, committed):
    report = json.loads(site.pages["conformance.json"])
    assert report["result"] == "pass"
    assert report["sessions"] == {"total": len(committed), "passed": len(committed), "failed": 0}
    assert report["messages"] == sum(len(t.messages) for t in committed.values())
    assert {r["session"] for r in report["results"]} == set(committed)
    assert all(r["result"] == "pass" and r["page"].endswith("/") for r in report["results"])
    assert {(r["sdk"]["package"], r["sdk"]["version"]) for r in report["recordings"]} >= {("mcp", "2.3.0")}
    svg = ET.fromstring(site.pages["badge.svg"])
    words = "".join(svg.itertext())
    assert f"{len(committed)}/{len(committed)} sessions" in words and "conformance" in words


def test_one_changed_value_is_named_with_session_message_path_and_both_values(project, committed):
    engine = flipped(replay(committed), "legacy_tour", 4, "$.method", "pong")
    site = render_site(Project(project), engine)
    assert not site.ok
    expected = ("recordings/sdk_exchanges.json: session 'legacy_tour', message 4, $.method: "
                'committed "ping", engine "pong"')
    assert site.problems == [expected]
    assert expected in site.explain() and "1 of" in site.explain()
    page = site.pages[session_page("mcp", "legacy_tour")]
    assert "**FAIL**" in page and 'the engine <code>"pong"</code>' in page
    assert '<a href="#m4">message 4</a>' in page
    assert json.loads(site.pages["conformance.json"])["result"] == "fail"


def test_an_engine_that_raises_is_reported_by_session_not_as_a_traceback(project, committed):
    def engine(session):
        if session.name == "modern_tour":
            raise KeyError("no model for tools/list")
        return replay(committed)(session)

    site = render_site(Project(project), engine)
    (problem,) = site.problems
    assert "session 'modern_tour': the engine failed: KeyError: 'no model for tools/list'" in problem
    assert "test_site.py:" in problem  # where it was raised


def test_engine_failures_are_reported_for_every_session(project, committed):
    site = render_site(Project(project), broken(RuntimeError("engine not written yet")))
    assert len(site.problems) == len(committed)
    assert all("RuntimeError: engine not written yet" in p for p in site.problems)


def test_an_unreadable_recording_is_named(tmp_path, project, committed):
    project = small_project(tmp_path, project)
    (project / "recordings" / "sdk_exchanges.json").write_text('{"family": "mcp",', encoding="utf-8")
    site = render_site(Project(project), replay(committed))
    assert any(p.startswith("the recording cannot be read: recordings/sdk_exchanges.json") and "not valid JSON" in p
               for p in site.problems), site.problems


def test_a_recorded_session_missing_from_the_scenarios_is_a_difference(tmp_path, project, committed):
    project = small_project(tmp_path, project)
    path = project / "recordings" / "sdk_exchanges.json"
    data = json.loads(path.read_text())
    extra = dict(data["sessions"][0], name="legacy_extra")
    data["sessions"].append(extra)
    path.write_text(json.dumps(data))
    site = render_site(Project(project), replay(committed))
    assert site.problems == ["recordings/sdk_exchanges.json: session 'legacy_extra', session: "
                             'committed "present", engine (absent)']


# --- the findings -----------------------------------------------------------------------------

def test_every_finding_holds_in_the_committed_recordings(site):
    checked = [r for r in site.findings if r.checked]
    assert {r.finding.family for r in checked} >= {"mcp"}
    assert all(r.holds for r in checked), [r.failures for r in checked]
    assert len({f.id for f in FINDINGS}) == len(FINDINGS)


def test_a_finding_fails_the_build_when_its_evidence_changes(tmp_path, project):
    """The recording itself changes (as after a new SDK release): engine = recording, finding broken."""
    project = small_project(tmp_path, project)
    old = edit_recording(project / "recordings" / "sdk_exchanges.json", "raw_handshake", 7, "$.error.code", -32601)
    assert old == -32600
    site = render_site(Project(project), replay(recorded_sessions(project / "recordings")))
    assert all(s.passed for s in site.report.sessions)
    assert site.problems == ["finding 'era-locked-connection': session 'raw_handshake', message 7: "
                             "$.error.code is -32601, the finding needs -32600"]


def transcript(name: str, *messages: Message) -> Transcript:
    return Transcript(name, "raw", "t", list(messages))


C2S = dict(sender="client", receiver="server")
S2C = dict(sender="server", receiver="client")


def test_evidence_kinds():
    sessions = Recorded({
        "a": transcript("a", Message(**C2S, raw="{nope"), Message(**C2S, json={"id": 1, "method": "m"}),
                        Message(**S2C, json={"id": 1, "error": {"code": -32600, "message": "x"}})),
        "b": transcript("b", Message(**C2S, json={"id": 1, "method": "m"}),
                        Message(**S2C, json={"id": 1, "result": {"x": True, "k/y": [1, 2]}})),
    }, {"a": {"steps": [{"version": None}]}})
    holds = [IsRaw("a", 1), NoReply("a", 1), ErrorCode("a", 3, -32600), JsonEquals("b", 2, "$.result.x", True),
             JsonEquals("b", 2, '$.result["k/y"][1]', 2), Present("b", 2, "$.result.x"), Absent("b", 2, "$.error"),
             ValuesDiffer(At("a", 2, "$.method"), At("b", 2, "$.result.x")), ScenarioEquals("a", "$.steps[0].version", None)]
    for e in holds:
        assert e.check(sessions) is None, e
    fails = [IsRaw("a", 2), NoReply("a", 2), ErrorCode("a", 3, -32601), JsonEquals("b", 2, "$.result.x", 1),
             Present("b", 2, "$.result.y"), Absent("b", 2, "$.result"),
             ValuesDiffer(At("a", 2, "$.method"), At("b", 1, "$.method")), ScenarioEquals("a", "$.steps[0].version", "1.0")]
    for e in fails:
        assert e.check(sessions) is not None, e


def test_evidence_that_points_nowhere_fails_with_a_reason():
    from agent_loop_sim.site.findings.evidence import Finding

    sessions = Recorded({"a": transcript("a", Message(**C2S, json={"id": 1}))})
    f = Finding("x", "mcp", "observation", "t", "s", (JsonEquals("zz", 1, "$.id", 1), JsonEquals("a", 5, "$.id", 1)))
    r = check_finding(f, sessions, ["mcp"])
    assert r.failures == ("finding 'x': session 'zz', message 1: there is no session 'zz' in the committed recordings",
                          "finding 'x': session 'a', message 5: session 'a' has 1 messages, not 5")
    assert check_finding(f, sessions, ["a2a"]).holds is None  # no recordings of its family: not checked


def test_json_paths_read_what_json_path_writes():
    parts = ["params", "_meta", "io.modelcontextprotocol/protocolVersion", 0, "a b", 'q"uote']
    assert parse_path(json_path(parts)) == parts
    assert resolve({"a": [{"b": None}]}, "$.a[0].b") is None
    with pytest.raises(ValueError):
        parse_path("$.a[x]")


# --- the Markdown -----------------------------------------------------------------------------

def _heading_text(tokens, i):
    return tokens[i + 1].content


MESSAGE = re.compile(r'<section class="msg (lane-[ab]) k-(\w+)" id="m(\d+)">(.*?)</section>', re.S)


def _plain(fragment: str) -> str:
    return html_lib.unescape(re.sub(r"<[^>]+>", "", fragment))


def message_blocks(page: str) -> list[dict]:
    """Each message of a session page's wire log: lane, number, parties, SSE, summary, body text."""
    out = []
    for m in MESSAGE.finditer(page):
        inner = m.group(4)
        code = re.search(r'<code class="language-(\w+)">(.*?)</code></pre>', inner, re.S)
        parties = _plain(re.search(r'<span class="msg-dir">(.*?)</span>', inner).group(1))
        out.append({"lane": m.group(1), "kind": m.group(2), "n": int(m.group(3)), "parties": parties,
                    "sse": '<span class="sse">SSE</span>' in inner,
                    "what": _plain(re.search(r'<span class="msg-what">(.*?)</span>', inner).group(1)),
                    "lang": code.group(1) if code else None, "code": _plain(code.group(2)) if code else None,
                    "folded": "data-fold" in inner, "html": inner})
    return out


def test_every_session_page_has_one_numbered_block_per_message_in_order(site, committed):
    for s in site.report.sessions:
        recorded = committed[s.name]
        blocks = message_blocks(site.pages[session_page(s.family, s.name)])
        assert [b["n"] for b in blocks] == list(range(1, len(recorded.messages) + 1)), s.name
        for b, message in zip(blocks, recorded.messages):
            assert b["parties"] == f"{message.sender} → {message.receiver}" and b["sse"] == message.sse
            assert b["lane"] == ("lane-a" if message.sender in ("client", "orchestrator") else "lane-b"), (s.name, b["n"])
            if message.is_raw:
                assert b["lang"] == "text" and b["code"] in (message.raw, json.dumps(message.raw, ensure_ascii=False))
            elif message.json is not None:
                assert b["lang"] == "json" and json.loads(b["code"]) == message.json, (s.name, b["n"])
                assert b["code"] == json.dumps(message.json, indent=2, ensure_ascii=False)
                assert b["folded"] == (b["code"].count("\n") + 1 > 12)


def test_a_session_page_links_its_scenario_in_the_playground_from_its_summary(project, committed, site):
    """With the playground (the MkDocs build has it), each session page's summary list ends with a
    link to it, the session as a scenario file of its own in the fragment; nothing else changes."""
    import base64
    import zlib

    from mkdocs.utils import get_relative_url

    from agent_loop_sim.site import browser
    from agent_loop_sim.site.pages.conformance import href, page_url

    linked = render_site(Project(project), replay(committed), playground=True)
    scenarios = {s.name: (f, s) for f in Project(project).scenario_files() for s in f.sessions}
    assert not any("playground-link" in page for page in site.pages.values() if isinstance(page, str))
    for path, page in site.pages.items():
        if path not in {session_page(s.family, s.name) for s in site.report.sessions}:
            assert linked.pages[path] == page, path
    for s in site.report.sessions:
        path = session_page(s.family, s.name)
        lines, mine = site.pages[path].split("\n"), linked.pages[path].split("\n")
        added = [line for line in mine if line not in lines]
        assert len(added) == 1, s.name
        at = mine.index(added[0])
        assert mine[:at] + mine[at + 1:] == lines and mine[at - 1].startswith("- **") and mine[at + 1] == "", s.name
        fragment = re.fullmatch(r'- \*\*Playground:\*\* <a class="playground-link" href="\.\./\.\./\.\./browser/playground/'
                                r'#(scenario=[A-Za-z0-9_-]+)">open in the playground</a>', added[0]).group(1)
        text_of = zlib.decompress(base64.urlsafe_b64decode(fragment[len("scenario="):] + "=="), -15).decode()
        assert text_of == browser.scenario_text(*scenarios[s.name]), s.name
    for directory_urls in (True, False):  # the URL MkDocs gives: from the session page's URL to the playground's
        here, there = session_page("mcp", "legacy_tour"), browser.PLAYGROUND_PAGE
        assert href(here, there, "scenario=x", directory_urls) == get_relative_url(
            page_url(there, directory_urls), page_url(here, directory_urls)) + "#scenario=x"


def test_summaries_name_the_method_the_answer_and_the_key_fields(site):
    stream = message_blocks(site.pages[session_page("a2a", "a2a_stream")])
    events = [b["html"] for b in stream if b["sse"]]
    assert len(events) == 5 and len({re.sub(r"\s+", " ", _plain(e.split("</div>")[0])) for e in events}) == 5
    assert any("statusUpdate" in e and "TASK_STATE_WORKING" in e for e in events)
    tour = message_blocks(site.pages[session_page("mcp", "legacy_tour")])
    call = next(b for b in tour if b["what"] == "tools/call")
    reply = tour[call["n"]]
    assert reply["what"] == "result of tools/call"
    assert f'href="#m{reply["n"]}"' in call["html"] and f'href="#m{call["n"]}"' in reply["html"]  # both ways
    assert "<code>add</code>" in call["html"]


def test_the_results_page_links_every_session_and_the_home_page_stays_short(site):
    tokens = MD.parse(site.pages["results.md"])
    links = [t for tok in tokens if tok.type == "inline" for t in tok.children or [] if t.type == "link_open"]
    hrefs = {t.attrs["href"] for t in links}
    for s in site.report.sessions:
        assert session_page(s.family, s.name) in hrefs
    home = site.pages["index.md"]
    assert "badge.svg" in home and 'href="conformance.json"' in home and 'href="conformance.junit.xml"' in home
    assert "results.md" in home and not any(session_page(s.family, s.name) in home for s in site.report.sessions)
    assert len(home) < 8000


def test_the_era_pairs_come_from_the_names(site):
    pages = {p for p in site.pages if "/eras/" in p}
    names = {s.name for s in site.report.sessions}
    expected = {f"mcp/eras/{n[len('legacy_'):]}.md" for n in names
                if n.startswith("legacy_") and "modern_" + n[len("legacy_"):] in names}
    assert pages == expected
    assert {"mcp/eras/tour.md", "mcp/eras/three_ways.md", "mcp/eras/progress.md", "mcp/eras/errors.md",
            "mcp/eras/elicit_accept.md", "mcp/eras/elicit_decline.md", "mcp/eras/sampling.md"} <= pages
    tour = site.pages["mcp/eras/tour.md"]
    rows = re.findall(r'<div class="era-row[^"]*" id="a(\d+)"><div class="era-action">(.*?)</div>', tour)
    labels = [_plain(label).split(" ", 1)[1] for _, label in rows]
    # One row per action of the scenario (legacy's ping has no modern counterpart), the handshake first.
    assert labels[0] == "The SDK, before the first action"
    assert [label.split(" ")[0] for label in labels[1:]] == ["ping", "list", "call", "list", "read", "list", "get"]
    ping = tour[tour.index('id="a2"'):tour.index('id="a3"')]
    # Only legacy's session pings: the others' empty cells say the step is not theirs, not "not sent".
    assert ping.count("era-absent") == 2 and "era-none" not in ping and "<mark>" in ping
    assert ping.count("not in this era&#x27;s session") + ping.count("not in this era's session") == 2
    assert "../../sessions/modern_tour/#m1" in tour  # links to the messages, not copies of them
    assert '"jsonrpc"' not in tour


def test_an_era_page_says_whether_its_sessions_play_one_scenario(site):
    tour, progress = site.pages["mcp/eras/tour.md"], site.pages["mcp/eras/progress.md"]
    assert "One scenario" not in tour and "**Not one scenario.**" in tour and 'data-claim="different-steps"' in tour
    assert "- `modern_tour` runs 6 actions; not `ping`" in tour
    assert "One scenario, played" in progress and 'data-claim="one-scenario"' in progress
    listen = site.pages["mcp/eras/listen.md"]
    assert "**Not one scenario.**" in listen
    # The handshake is the SDK's own, before any action; legacy's listen sent nothing (the SDK refuses it).
    rows = re.findall(r'<div class="era-row[^"]*" id="a\d+"><div class="era-action">(.*?)</div>(.*?)</div></div>', listen)
    assert [_plain(label).split(" ", 1)[1].split(" ")[0] for label, _ in rows] == \
        ["The", "listen", "ping", "listen", "listen", "call"]
    assert "initialize" in rows[0][1] and "initialize" not in rows[1][1]
    assert 'data-era="legacy_listen">not sent by the client</div>' in rows[1][1]
    ads = site.pages["mcp/eras/capability_ads.md"]
    assert "their settings differ: `extensions`, `sampling_capabilities`" in ads
    # Requests are marked too: the modern tools/list carries its _meta envelope in params.
    row = tour[tour.index('id="a3"'):tour.index('id="a4"')]
    request = row[row.index("modern_tour/#m1"):row.index("modern_tour/#m2")]
    assert "differs at <mark><code>$.params</code></mark>" in request
    # Arguments wrap between members, never inside a word.
    assert "<code>{&quot;tool&quot;: &quot;add&quot;, &quot;arguments&quot;: {&quot;a&quot;: 2" in tour


def test_the_build_refuses_an_era_page_that_overclaims(site, project, committed, monkeypatch):
    from agent_loop_sim.site import build
    from agent_loop_sim.site.pages.conformance import era_claim_problems

    eras = Context(site.report, []).eras("mcp")
    tour = list(eras["tour"].values())
    page = site.pages["mcp/eras/tour.md"]
    assert era_claim_problems("mcp/eras/tour.md", page, tour) == []
    # Planted: the claim in words only, then in the page's mark only; each is refused.
    in_words = page.replace("**Not one scenario.**", "One scenario, played by the SDK's client in each era.")
    in_mark = page.replace('data-claim="different-steps"', 'data-claim="one-scenario"')
    for planted in (in_words, in_mark):
        assert planted != page
        problems = era_claim_problems("mcp/eras/tour.md", planted, tour)
        assert problems and problems[0].startswith("mcp/eras/tour.md: claims one scenario, but its sessions "
                                                   "(legacy_tour, modern_tour, auto_tour) run different steps")
    progress = list(eras["progress"].values())
    hidden = site.pages["mcp/eras/progress.md"].replace('data-claim="one-scenario"', 'data-claim="different-steps"')
    assert "run the same steps, but the page does not say so" in era_claim_problems("p.md", hidden, progress)[0]
    # In the build: a page rendered with the claim planted is a problem that stops it.
    real = build.render_eras
    monkeypatch.setattr(build, "render_eras", lambda ctx, family, scenario, group: real(ctx, family, scenario, group)
                        .replace('data-claim="different-steps"', 'data-claim="one-scenario"'))
    refused = build.render_site(Project(project), replay(committed), reference=False, beside=False)
    assert not refused.ok and any(p.startswith("mcp/eras/tour.md: claims one scenario") for p in refused.problems)
    assert any(p.startswith("mcp/eras/listen.md: claims one scenario") for p in refused.problems)


def test_by_feature_puts_methods_no_peer_knows_in_one_group(site, committed):
    from agent_loop_sim.site.pages.navigation import unknown_methods

    mcp, a2a = site.pages["mcp/features.md"], site.pages["a2a/features.md"]
    groups = {f: set(re.findall(r"\[([^\]]+)\]\(#f-", page)) for f, page in (("mcp", mcp), ("a2a", a2a))}
    assert "unknown methods" in groups["mcp"] and not {"no", "whatever"} & groups["mcp"]
    assert "unknown methods" in groups["a2a"] and "tasks" not in groups["a2a"]
    # The intro's examples are each family's own methods.
    assert "`SendMessage` is *message*" in a2a and "tools/call" not in a2a and "`tools/call` is *tools*" in mcp
    # Derived from the wire: the method the peer answers "method not found" is unknown; flip the
    # code of that answer and it is a method of its own again.
    errors = committed["raw_errors"]
    assert "no/such/method" in unknown_methods([errors])
    flipped_answer = Transcript(errors.name, errors.mode, errors.title, [
        Message(m.sender, m.receiver, json={**m.json, "error": {**m.json["error"], "code": -32600}})
        if isinstance(m.json, dict) and isinstance(m.json.get("error"), dict) and m.json["error"].get("code") == -32601
        else m for m in errors.messages])
    assert "no/such/method" not in unknown_methods([flipped_answer])


def test_era_grouping_needs_both_legacy_and_modern():
    def result(name):
        return SessionResult(name, "mcp", "r.json", "s.json", transcript(name, Message(**C2S, json={})), None)

    report = Report((type("F", (), {"sessions": tuple(result(n) for n in
                     ("legacy_a", "modern_a", "auto_a", "legacy_b", "auto_b", "raw_c"))})(),))
    ctx = Context(report, [])
    assert {k: list(v) for k, v in ctx.eras("mcp").items()} == {"a": ["legacy", "modern", "auto"]}


HOSTILE = "</code></pre><script>window.__xss = 1</script><img src=x onerror=alert(1)> `` ``` {#x} --8<-- \"x\""


def hostile_transcript() -> Transcript:
    return transcript(
        "legacy_hostile",
        Message(**C2S, raw=HOSTILE),
        Message(**C2S, json={"jsonrpc": "2.0", "id": "c1", "method": HOSTILE}),
        Message(**S2C, json={"jsonrpc": "2.0", "id": "c1", "result": {HOSTILE: HOSTILE}}),
    )


def test_text_code_and_fences_hold_anything():
    assert "<" not in text(HOSTILE) and "`" not in text(HOSTILE).replace("\\`", "")
    assert code("a`b").startswith("``") and code("`x`") == "`` `x` ``"
    assert fence("```\n````", "text").split("\n")[0] == "`````text"
    assert text("a\x02b\x03") == "a\\\\x02b\\\\x03"


def test_recorded_markup_renders_as_text_with_the_sites_markdown_extensions():
    import yaml

    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text())
    extensions, configs = [], {}
    for item in config["markdown_extensions"]:
        name, conf = (next(iter(item.items())) if isinstance(item, dict) else (item, {}))
        extensions.append(name)
        configs[name] = conf or {}
    t = hostile_transcript()
    s = SessionResult(t.name, "mcp", "r.json", "s.json", t, t)
    report = Report((type("F", (), {"sessions": (s,), "family": "mcp"})(),))
    ctx = Context(report, [])
    from agent_loop_sim.site.pages.conformance import render_session

    file = type("F", (), {"sdk": {"package": "mcp", "version": "0"}, "transport": "stdio"})()
    page = render_session(ctx, s, file)
    html = markdown.markdown(page, extensions=extensions, extension_configs=configs)
    assert "<script" not in html and "<img" not in html and "--8&lt;--" in html
    assert html.count("&lt;script&gt;") >= 3


def _flip(value):
    return not value if isinstance(value, bool) else value + 1 if isinstance(value, int) else f"{value}!"


def test_every_finding_fails_when_any_of_its_values_changes(site, committed):
    """Each JSON value a finding relies on, changed in a copy of the recordings, breaks that finding."""
    import copy

    from agent_loop_sim.site.findings.evidence import check_finding

    checked = [r.finding for r in site.findings if r.checked]
    assert checked
    tried = 0
    for finding in checked:
        for evidence in finding.evidence:
            if not isinstance(evidence, (JsonEquals, ErrorCode)):
                continue
            # Only the session changed is copied: the check reads the others, and copying every
            # transcript for every evidence item was most of this test's time.
            transcripts = {**committed, evidence.session: copy.deepcopy(committed[evidence.session])}
            path = evidence.path if isinstance(evidence, JsonEquals) else "$.error.code"
            parts = parse_path(path)
            target = transcripts[evidence.session].messages[evidence.message - 1].json
            for part in parts[:-1]:
                target = target[part]
            target[parts[-1]] = _flip(target[parts[-1]])
            result = check_finding(finding, Recorded(transcripts, site.report.scenarios), site.report.families)
            assert result.failures and f"message {evidence.message}:" in result.failures[0], (finding.id, evidence)
            tried += 1
    assert tried >= 10


def test_the_protocol_pages_draw_the_engines_own_tables():
    """The rules shown are the engine's tables themselves: change a table and the page changes."""
    from agent_loop_sim.protocols.a2a.states import TASK_TRANSITIONS
    from agent_loop_sim.protocols.mcp.eras import ERA_TRANSITIONS
    from agent_loop_sim.site.pages.conformance import _rules

    mcp = "\n".join(_rules("mcp"))
    assert mcp.count("\n| `") == len(ERA_TRANSITIONS)
    assert "32600" in mcp and "32022" in mcp
    a2a = "\n".join(_rules("a2a"))
    assert a2a.count("\n| ") - 1 == len(TASK_TRANSITIONS)  # the header line aside
    completed_row = next(line for line in a2a.splitlines() if line.startswith("| `completed`"))
    assert set(completed_row.strip("|").split("|")[1:]) == {" — "}  # a finished task takes nothing


def test_the_findings_file_is_validated_naming_the_place():
    import json

    from agent_loop_sim.errors import InputError
    from agent_loop_sim.site.findings.evidence import load_findings
    from agent_loop_sim.site.findings import FINDINGS, FINDINGS_FILE

    data = json.loads(FINDINGS_FILE.read_text())
    assert len(load_findings(data, "f.json")) == len(FINDINGS)
    data["findings"][2]["evidence"][0]["kind"] = "LooksRight"
    with pytest.raises(InputError, match=r"f\.json, at \$\.findings\[2\]\.evidence\[0\]\.kind: evidence names its kind"):
        load_findings(data, "f.json")


def test_a_departure_links_the_specifications_section():
    import json

    from agent_loop_sim.errors import InputError
    from agent_loop_sim.site.findings.evidence import load_findings
    from agent_loop_sim.site.findings import FINDINGS, FINDINGS_FILE

    assert all(f.spec and f.spec.startswith("https://") and "#" in f.spec for f in FINDINGS if f.kind == "departure")
    data = json.loads(FINDINGS_FILE.read_text())
    i = next(i for i, f in enumerate(data["findings"]) if f["kind"] == "departure")
    del data["findings"][i]["spec"]
    with pytest.raises(InputError, match=rf"at \$\.findings\[{i}\]: a departure from the specification links"):
        load_findings(data, "f.json")
    data["findings"][i]["spec"] = "http://example.com/no-anchor"
    with pytest.raises(InputError, match=rf"at \$\.findings\[{i}\]\.spec: a finding's spec is the https URL"):
        load_findings(data, "f.json")


def test_findings_link_the_spec_and_point_at_the_line(site):
    page = site.pages["findings.md"]
    for f in FINDINGS:
        if f.kind == "departure":
            assert f"]({f.spec})" in page, f.id
    # An evidence link names the message and the JSON path's line: #m<n>:<JSON Pointer>.
    assert re.search(r"\]\(\.\./mcp/sessions/\w+\.md#m\d+:/[^)]+\)|\]\(mcp/sessions/\w+\.md#m\d+:/[^)]+\)", page)
    target = re.search(r"\]\((mcp/sessions/(\w+)\.md)#(m\d+:/[^)]+)\)", page)
    assert target and f'id="{target.group(3)}"' in site.pages[target.group(1)]


def test_summaries_are_shared_within_a_render_only(committed):
    from agent_loop_sim.site.parts.wirelog import summaries_kept, summarise

    messages = committed["legacy_tour"].messages
    with summaries_kept():
        first = summarise(messages)
        assert summarise(messages) is first  # the same list of messages: worked out once
        assert summarise(list(messages)) is not first  # another list (as after an edit): worked out again
    assert summarise(messages) is not first and summarise(messages) == first  # nothing kept after
