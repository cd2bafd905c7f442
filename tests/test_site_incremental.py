"""`mkdocs serve`'s memo (site/mkdocs/incremental.py): what it keeps is what a full build computes.

An edit goes through the memo, and the site it gives is compared, page by page and problem by
problem, with a full build of the same bytes; an edit of the engine's source drops the memo."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from agent_loop_sim.site.build import render_checkout
from agent_loop_sim.site.mkdocs.incremental import Memo, code_fingerprint
from test_site_fakes import SMALL, consistent_copy, edit_recording


@pytest.fixture(scope="module")
def checkout(tmp_path_factory) -> Path:
    return consistent_copy(tmp_path_factory.mktemp("incremental") / "project")


def _files_checked(memo: Memo) -> set[str]:
    return {Path(key[1]).name for key in memo.computed if key[0] == "file"}


def test_an_edited_recording_fails_through_the_memo_exactly_as_a_full_build(checkout):
    memo = Memo(code_fingerprint(checkout))
    before = render_checkout(checkout, memo=memo)
    assert before.ok, before.explain()
    assert _files_checked(memo) == {p.name for p in (checkout / "scenarios").glob("*.json")}  # cold: everything

    recording = checkout / "recordings" / "sdk_exchanges.json"
    original = recording.read_bytes()
    try:
        edit_recording(recording, "legacy_tour", 2, "$.result.serverInfo.name", "someone else")
        edited = render_checkout(checkout, memo=memo)
        assert _files_checked(memo) == {"mcp.json"}  # only the file whose recording changed
        full = render_checkout(checkout)
        assert not edited.ok and edited.problems == full.problems
        assert any("legacy_tour" in p and "serverInfo" in p for p in edited.problems)
        assert edited.pages == full.pages and edited.nav == full.nav
    finally:
        recording.write_bytes(original)
    again = render_checkout(checkout, memo=memo)  # the bytes of before: the check passes again
    assert again.ok and again.pages == before.pages


def test_a_title_edited_in_scenario_and_recordings_renders_as_a_full_build(checkout):
    """With the playground links too (as `mkdocs serve` renders them): the fragment holds the title."""
    memo = Memo(code_fingerprint(checkout))
    render_checkout(checkout, memo=memo, playground=True)
    scenario = checkout / "scenarios" / "a2a.json"
    recordings = [checkout / "recordings" / json.loads(scenario.read_text())["recording"]]
    recordings += list((checkout / "recordings").glob(f"*/{recordings[0].name}"))
    saved = {p: p.read_bytes() for p in [scenario, *recordings]}
    try:
        for path in saved:
            data = json.loads(path.read_text())
            data["sessions"][0]["title"] = "A title <b>edited</b> under serve"
            path.write_text(json.dumps(data, indent=2))
        edited = render_checkout(checkout, memo=memo, playground=True)
        assert _files_checked(memo) == {"a2a.json"}
        full = render_checkout(checkout, playground=True)
        assert edited.ok, edited.explain()
        assert edited.pages == full.pages and edited.nav == full.nav and edited.problems == full.problems
        assert any("A title &lt;b&gt;edited" in page or "A title \\<b\\>edited" in page
                   for page in edited.pages.values() if isinstance(page, str))
    finally:
        for path, data in saved.items():
            path.write_bytes(data)


SERVE = """
import sys
from pathlib import Path
from mkdocs.config import load_config
config = load_config("mkdocs.yml")
hook = next(h for name, h in config.hooks.items() if name.endswith("conformance_site.py"))
hook.on_startup(command="serve", dirty=True)
hook.on_config(config)
first = hook._last["memo"]
hook.on_config(load_config("mkdocs.yml"))
kept = hook._last["memo"] is first and not first.computed
engine = Path("agent_loop_sim/engine.py")
engine.write_text(engine.read_text() + "\\n# an edit of the engine's source\\n")
hook.on_config(load_config("mkdocs.yml"))
memo = hook._last["memo"]
files = sorted({Path(k[1]).name for k in memo.computed if k[0] == "file"})
print(kept, memo is not first, len(files) == len(list(Path("scenarios").glob("*.json"))), files)
"""


def test_an_edit_of_the_engines_source_rechecks_everything(checkout, tmp_path):
    """Through the hook, as `mkdocs serve` runs it: nothing changed, nothing re-checked; the
    engine's source changed, every scenario file re-checked (and the package re-imported)."""
    copy = tmp_path / "copy"
    subprocess.run(["cp", "-a", str(checkout), str(copy)], check=True)
    env = {k: v for k, v in os.environ.items() if k != "AGENT_LOOP_SIM_ENGINE"}
    done = subprocess.run([sys.executable, "-c", SERVE], cwd=copy, capture_output=True, text=True, env=env,
                          timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.split()[:3] == ["True", "True", "True"], done.stdout


SERVE_DIRTY = """
import json, sys
from pathlib import Path
from mkdocs.commands.build import build
from mkdocs.config import load_config
url = "http://127.0.0.1:8000/"
def config():
    c = load_config("mkdocs.yml", site_dir=sys.argv[1])
    c.site_url = url
    return c
first = config()
first.plugins.on_startup(command="serve", dirty=True)
build(first, serve_url=url, dirty=True)  # as `make serve` starts
scenario = Path("scenarios/mcp.json")
recording = Path("recordings") / json.loads(scenario.read_text())["recording"]
for path in [scenario, recording, *Path("recordings").glob("*/" + recording.name)]:
    data = json.loads(path.read_text())
    data["sessions"][0]["title"] = "Searchable edit"
    path.write_text(json.dumps(data, indent=2))
build(config(), serve_url=url, dirty=True)  # the rebuild an edit starts
"""


def _index(site: Path) -> list[str]:
    docs = json.loads((site / "search" / "search_index.json").read_text())["docs"]
    return sorted(json.dumps(d, sort_keys=True) for d in docs)


def test_the_search_index_after_a_dirty_rebuild_is_a_clean_builds(tmp_path):
    """`make serve` rebuilds only the pages an edit touched (``--dirty``); its search index must
    still hold every page once, as it is now: the same entries as a clean build of the same bytes."""
    project = consistent_copy(tmp_path / "project")
    for scenario in (project / "scenarios").glob("*.json"):  # a small site: the MCP seed sessions
        if scenario.name not in SMALL:
            recording = json.loads(scenario.read_text())["recording"]
            for path in (project / "recordings").rglob(recording):
                path.unlink()
            scenario.unlink()
    env = {k: v for k, v in os.environ.items() if k != "AGENT_LOOP_SIM_ENGINE"}
    served = subprocess.run([sys.executable, "-c", SERVE_DIRTY, str(tmp_path / "served")], cwd=project,
                            capture_output=True, text=True, env=env, timeout=900)
    assert served.returncode == 0, served.stderr[-3000:]
    clean = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--site-dir", str(tmp_path / "clean")],
                           cwd=project, capture_output=True, text=True, env=env, timeout=900)
    assert clean.returncode == 0, clean.stderr[-3000:]
    dirty, full = _index(tmp_path / "served"), _index(tmp_path / "clean")
    assert any("Searchable edit" in entry for entry in dirty)
    assert dirty == full
