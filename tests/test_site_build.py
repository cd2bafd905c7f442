"""The site through MkDocs (the hook) and through the command line, with a fake engine.

One MkDocs build of a copy of the checkout is shared with the browser tests
(``test_site_fakes.built_site``); the failing builds stop in ``on_config`` and cost little.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from agent_loop_sim.project import Project
from agent_loop_sim.site import build_pages, render_site, sessions_of_pages
from agent_loop_sim.site.build import SiteRefused
from test_site_fakes import (ROOT, SMALL, consistent_copy, copy_project, edit_recording, flipped, mkdocs_build,
                             recorded_sessions, replay)


@pytest.fixture(scope="session")
def build(site_build):
    project, site_dir, done = site_build
    return project, site_dir, done


@pytest.fixture(scope="module")
def seed_build(tmp_path_factory):
    """A quick build of a small project (`test_site_fakes.SMALL`: the build needs
    every method of the engine's tables sent somewhere), for the tests that break things."""
    root = tmp_path_factory.mktemp("seed-build")
    project = copy_project(root / "project", only=SMALL)
    done = mkdocs_build(project, root / "site")
    assert done.returncode == 0, done.stderr
    return project, root / "site"


def tree(folder: Path) -> dict[str, int]:
    return {str(p.relative_to(folder)): p.stat().st_mtime_ns for p in folder.rglob("*") if p.is_file()}


def unexpected_warnings(output: str) -> list[str]:
    # A package the engine team has not created yet is a known, announced gap, not the site's.
    return [line for line in output.splitlines() if line.startswith("WARNING") and "API reference:" not in line]


def test_the_build_generates_every_page_and_writes_nothing_into_docs(build):
    project, site_dir, done = build
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr and not unexpected_warnings(done.stderr), done.stderr
    for name, t in recorded_sessions(project / "recordings").items():
        family = "a2a" if name.startswith("a2a") else "mcp"
        page = site_dir / family / "sessions" / name / "index.html"
        assert page.exists(), page
    report = json.loads((site_dir / "conformance.json").read_text())
    assert report["result"] == "pass"
    assert (site_dir / "badge.svg").read_text().startswith("<svg")
    assert {p.relative_to(project / "docs").as_posix() for p in (project / "docs").rglob("*") if p.is_file()} == \
        {p.relative_to(ROOT / "docs").as_posix() for p in (ROOT / "docs").rglob("*") if p.is_file()}
    for kept in ("conformance-pages", "browser-pages"):  # (a whole build hands MkDocs its pages in memory)
        assert not (project / ".cache" / kept).exists(), kept


def test_a_page_that_fails_to_render_is_named_with_its_session(caplog):
    """MkDocs names the page it failed on; the hook adds the session (it no longer holds the check then)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("conformance_site_hook", ROOT / "hooks" / "conformance_site.py")
    hook = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hook)
    site = render_site(Project(ROOT), reference=False)
    hook._last.update(sessions_of_pages=sessions_of_pages(site), page="mcp/sessions/legacy_tour.md")
    hook.on_build_error(RuntimeError("a template broke"))
    assert "the page of session 'legacy_tour': RuntimeError: a template broke" in caplog.text
    caplog.clear()
    hook._last.update(page="index.md")  # a page that shows no session: MkDocs' own words suffice
    hook.on_build_error(RuntimeError("a template broke"))
    assert caplog.text == ""


def test_a_changed_recording_fails_the_build_by_name_and_leaves_the_site_alone(seed_build, tmp_path):
    project, site_dir = seed_build
    recording = project / "recordings" / "sdk_exchanges.json"
    before = tree(site_dir)
    original = recording.read_bytes()
    try:
        old = edit_recording(recording, "legacy_tour", 4, "$.method", "pong")
        assert old == "ping"
        failed = mkdocs_build(project, site_dir)
        assert failed.returncode == 1
        assert ("session 'legacy_tour', message 4, $.method: committed \"pong\", engine \"ping\"" in failed.stderr)
        assert "Aborted with a BuildError" in failed.stdout + failed.stderr and "Traceback" not in failed.stderr
        assert tree(site_dir) == before  # the previous site, untouched: not even cleaned
        fresh = tmp_path / "never-written"
        assert mkdocs_build(project, fresh).returncode == 1 and not fresh.exists()
    finally:
        recording.write_bytes(original)
    restored = mkdocs_build(project, tmp_path / "restored")
    assert restored.returncode == 0, restored.stderr
    assert (tmp_path / "restored" / "mcp" / "sessions" / "legacy_tour" / "index.html").exists()


def test_an_unreadable_recording_or_a_failing_engine_is_a_plugin_error_not_a_traceback(seed_build, tmp_path):
    project, _ = seed_build
    recording = project / "recordings" / "sdk_exchanges.json"
    original = recording.read_bytes()
    try:
        recording.write_text("[1, 2", encoding="utf-8")
        failed = mkdocs_build(project, tmp_path / "a")
    finally:
        recording.write_bytes(original)
    assert failed.returncode == 1 and "Traceback" not in failed.stderr
    assert "ERROR" in failed.stderr and "the recording cannot be read: recordings/sdk_exchanges.json" in failed.stderr
    failed = mkdocs_build(project, tmp_path / "b", engine="test_site_fakes:always_raises")
    assert failed.returncode == 1 and "Traceback" not in failed.stderr
    assert "session 'legacy_tour': the engine failed: NotImplementedError: no model for mcp yet" in failed.stderr


RELOAD = """
import sys
from pathlib import Path
from mkdocs.config import load_config
config = load_config("mkdocs.yml")
hook = next(h for name, h in config.hooks.items() if name.endswith("conformance_site.py"))
hook.on_config(config)
first = hook._last["site"].pages["index.md"].splitlines()[0]
pages = Path("agent_loop_sim/site/pages/conformance.py")
pages.write_text(pages.read_text().replace('"# Conformance"', '"# Conformance, reloaded"'))
hook.on_config(load_config("mkdocs.yml"))
print(first, "|", hook._last["site"].pages["index.md"].splitlines()[0])
"""


def test_each_build_reloads_the_projects_modules(seed_build, tmp_path):
    """What ``mkdocs serve`` relies on: a code edit shows in the next build of the same process."""
    project, _ = seed_build
    copy = tmp_path / "copy"
    shutil.copytree(project, copy, ignore=shutil.ignore_patterns("__pycache__"))
    env = dict(os.environ, AGENT_LOOP_SIM_ENGINE="test_site_fakes:replay_snapshot",
               AGENT_LOOP_SIM_SNAPSHOT=str(project.parent / f"{project.name}-snapshot"),
               PYTHONPATH=str(Path(__file__).parent))
    done = subprocess.run([sys.executable, "-c", RELOAD], cwd=copy, capture_output=True, text=True, env=env,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "# Conformance | # Conformance, reloaded"


def test_build_pages_writes_markdown_or_nothing(tmp_path, capsys):
    project = consistent_copy(tmp_path / "project", ("scenarios", "recordings", "conformance", "worlds"))
    committed = recorded_sessions(project / "recordings")
    out = tmp_path / "out"
    build_pages(Project(project), out, replay(committed))
    assert (out / "index.md").exists() and (out / "mcp" / "sessions" / "legacy_tour.md").exists()
    assert (out / "conformance.json").exists() and (out / "badge.svg").exists()
    engine = flipped(replay(committed), "modern_tour", 2, "$.result.ttlMs", 1)
    with pytest.raises(SiteRefused) as exit_:
        build_pages(Project(project), tmp_path / "out2", engine)
    assert exit_.value.code == 1 and not (tmp_path / "out2").exists()
    assert "session 'modern_tour', message 2, $.result.ttlMs: committed 0, engine 1" in capsys.readouterr().err


def test_the_command_line_with_the_real_engine_on_the_seed_sessions(tmp_path):
    """``python -m agent_loop_sim site OUTDIR`` end to end; the 18 seed sessions are the engine's
    committed baseline. Exit 0 and pages, then exit 1 and the difference once a value changes."""
    project = tmp_path / "project"
    (project / "scenarios").mkdir(parents=True)
    (project / "recordings").mkdir()
    # The MCP surface sessions too: the build needs every method of the engine's tables sent somewhere.
    for scenario, recording in (("mcp.json", "sdk_exchanges.json"), ("mcp_surface.json", "sdk_exchanges_surface.json"),
                                ("world_tracker.json", "world_tracker.json"),  # (a world's change notifications)
                                ("", "verdicts/wire_types.json"), ("", "verdicts/sdk_surface.json")):
        if scenario:
            (project / "scenarios" / scenario).write_bytes((ROOT / "scenarios" / scenario).read_bytes())
        (project / "recordings" / recording).parent.mkdir(exist_ok=True)
        (project / "recordings" / recording).write_bytes((ROOT / "recordings" / recording).read_bytes())
    shutil.copytree(ROOT / "conformance", project / "conformance")
    shutil.copytree(ROOT / "worlds", project / "worlds")  # (the World files page: each key the SDKs declare)
    run = [sys.executable, "-m", "agent_loop_sim", "--root", str(project), "site"]
    done = subprocess.run([*run, str(tmp_path / "out")], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "out" / "mcp" / "sessions" / "raw_handshake.md").exists()
    edit_recording(project / "recordings" / "sdk_exchanges.json", "raw_handshake", 7, "$.error.code", -32601)
    done = subprocess.run([*run, str(tmp_path / "out2")], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 1 and not (tmp_path / "out2").exists()
    assert "session 'raw_handshake', message 7, $.error.code: committed -32601, engine -32600" in done.stderr
    assert "finding 'era-locked-connection'" in done.stderr and "Traceback" not in done.stderr


def test_two_clean_builds_are_byte_identical(seed_build, tmp_path):
    """R4: the same checkout builds to the same bytes, file for file (no clock, no randomness)."""
    project, first = seed_build
    second = tmp_path / "again"
    done = mkdocs_build(project, second)
    assert done.returncode == 0, done.stderr

    def files(folder: Path) -> dict[str, bytes]:
        return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}

    a, b = files(first), files(second)
    assert sorted(a) == sorted(b)
    assert [name for name in a if a[name] != b[name]] == []

    # The comparison can fail: a build dated otherwise (MkDocs dates its sitemap) is told apart.
    dated = tmp_path / "dated"
    env_date = {"SOURCE_DATE_EPOCH": "86400"}
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--site-dir", str(dated)], cwd=project,
                          capture_output=True, text=True, env={**os.environ, "NO_MKDOCS_2_WARNING": "1", **env_date},
                          timeout=600)
    assert done.returncode == 0, done.stderr
    c = files(dated)
    assert [name for name in a if a[name] != c.get(name)] != []


MARKUP_TITLES = ["::: json", '??? danger "X"', '=== "X"', "<script>window.__xss = 1</script>", "::: no_such_module",
                 "~~~", "!!! note"]


def test_titles_that_look_like_markup_are_shown_as_text_and_the_strict_build_passes(tmp_path, monkeypatch):
    """Issue 15, item 2: a scenario's title is text; ``::: json`` pasted a module's API reference,
    ``::: no_such_module`` aborted the build."""
    import html as html_lib
    import re

    project = copy_project(tmp_path / "project", only=SMALL)
    scenario = json.loads((project / "scenarios" / "mcp.json").read_text())
    names = [s["name"] for s in scenario["sessions"][:len(MARKUP_TITLES)]]
    folders = [project / "recordings", tmp_path / "project-snapshot"]
    folders += [f for f in (project / "recordings").iterdir() if (f / scenario["recording"]).exists()]  # releases
    for folder in folders:
        recording = json.loads((folder / scenario["recording"]).read_text())
        for s in recording["sessions"]:
            if s["name"] in names:
                s["title"] = MARKUP_TITLES[names.index(s["name"])]
        (folder / scenario["recording"]).write_text(json.dumps(recording, indent=2))
    for s in scenario["sessions"]:
        if s["name"] in names:
            s["title"] = MARKUP_TITLES[names.index(s["name"])]
    (project / "scenarios" / "mcp.json").write_text(json.dumps(scenario, indent=2))
    monkeypatch.setenv("AGENT_LOOP_SIM_ALLOW_OTHER_ENGINE", "1")  # the replaying fake, meant
    done = mkdocs_build(project, tmp_path / "site", "--strict")
    assert done.returncode == 0, done.stderr
    for name, title in zip(names, MARKUP_TITLES):
        page = (tmp_path / "site" / "mcp" / "sessions" / name / "index.html").read_text()
        article = page[page.index("<article"):page.index("</article>")]
        first = re.search(r"<h1[^>]*>.*?</h1>\s*<p>(.*?)</p>", article, re.S)
        assert first and html_lib.unescape(first.group(1)) == title, (name, first and first.group(1))
        assert "doc-module" not in article and "<details class=\"danger\"" not in article, name
        assert "tabbed-set" not in article and "<script>window" not in article, name
    # The index pages' tables are raw HTML (site/parts/rawhtml.py): the titles there are text too.
    for index in ("features", "modes"):
        page = (tmp_path / "site" / "mcp" / index / "index.html").read_text()
        for name, title in zip(names, MARKUP_TITLES):
            rows = re.findall(rf'<td><a href="\.\./sessions/{name}/">{name}</a></td>\n<td data-label="Messages">\d+</td>\n'
                              r'<td data-label="Result">\w+</td>\n<td data-label="What it shows">(.*?)</td>', page)
            assert rows and all(html_lib.unescape(r) == title for r in rows), (index, name, rows[:1])
        article = page[page.index("<article"):page.index("</article>")]
        assert "<script>window" not in article and "doc-module" not in article and "tabbed-set" not in article
