"""The table of what ``MCPServer`` lets a user declare (World files page): every entry of the SDK's
own list (``recordings/verdicts/sdk_surface.json``) is in it, each declared key is used by a world
a recording plays, and the page fails the build otherwise."""
from __future__ import annotations

from agent_loop_sim.project import Project
from agent_loop_sim.protocols.mcp import surface
from agent_loop_sim.site.pages.worlds import render_worlds
from test_site_fakes import ROOT


def _render():
    project = Project(ROOT)
    return render_worlds(project, project.scenario_files([]))


def test_every_entry_of_the_sdks_list_is_in_the_table_and_shown():
    pages, problems = _render()
    assert problems == []
    page = pages["worlds/index.md"]
    assert "## What the SDKs let a user declare" in page
    assert "| `AgentSkill.input_modes` | `input_modes` | [travel\\-agent](travel_agent.md) |" in page
    assert "| `Field(multiple_of)` | `multiple_of` | [weather](weather.md) |" in page
    assert "| `@mcp.completion()` | `completions` |" in page


def test_an_entry_missing_from_the_table_fails_the_page(monkeypatch):
    table = dict(surface.SURFACE)
    del table[("Field()", "ge")]
    monkeypatch.setattr(surface, "SURFACE", table)
    _, problems = _render()
    assert len(problems) == 1 and "Field() ge is in the SDK's API" in problems[0], problems


def test_a_key_no_world_uses_fails_the_page(monkeypatch):
    monkeypatch.setitem(surface.SURFACE, ("Field()", "strict"), surface.Declared("strict"))
    _, problems = _render()
    assert problems == ["Field() strict: the world key 'strict' is in no world a recording plays"]


def test_the_expression_measurement_is_drawn_and_a_malformed_one_is_named(tmp_path):
    """The World files page's table of expression languages comes from the committed measurement;
    a file of another shape is a problem naming it (the build fails), none is no table."""
    from agent_loop_sim.project import Project
    from agent_loop_sim.site.pages.worlds import EXPRESSIONS_FILE, _expressions

    lines, problems = _expressions(Project(ROOT))
    assert problems == [] and any("simpleeval" in line for line in lines)
    assert _expressions(Project(tmp_path)) == ([], [])
    (tmp_path / EXPRESSIONS_FILE).parent.mkdir(parents=True)
    (tmp_path / EXPRESSIONS_FILE).write_text('{"cases": [], "candidates": {"x": {"exact": 5}}}')
    lines, problems = _expressions(Project(tmp_path))
    assert lines == [] and len(problems) == 1 and str(EXPRESSIONS_FILE) in problems[0]
