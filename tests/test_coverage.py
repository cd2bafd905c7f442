"""The coverage page: the engine's method tables against the SDKs' own, and the build's refusal
when a method in the tables is sent by no committed session."""
from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

import pytest

from agent_loop_sim.check import build_report
from agent_loop_sim.project import Project
from agent_loop_sim.protocols.a2a.agent import METHODS as A2A_METHODS
from agent_loop_sim.protocols.mcp.methods import SURFACE
from agent_loop_sim.site.build import render_site
from agent_loop_sim.site.pages.coverage import coverage, problems
from conftest import ROOT


def sdk_mcp_surface() -> dict[str, dict[str, set[str]]]:
    """mcp-types' per-revision method maps, as the engine's `SURFACE` shapes them."""
    from mcp_types import methods

    out: dict[str, dict[str, set[str]]] = {}
    for direction, table in (("client request", methods.CLIENT_REQUESTS),
                             ("client notification", methods.CLIENT_NOTIFICATIONS),
                             ("server request", methods.SERVER_REQUESTS),
                             ("server notification", methods.SERVER_NOTIFICATIONS)):
        by_method: dict[str, set[str]] = defaultdict(set)
        for method, version in table:
            by_method[method].add(version)
        out[direction] = dict(by_method)
    return out


def sdk_a2a_methods() -> dict[str, str]:
    """a2a-sdk's JSON-RPC method table: method -> the name of the type its params are read into."""
    from a2a.server.routes.jsonrpc_dispatcher import JsonRpcDispatcher

    return {method: model.__name__ for method, model in JsonRpcDispatcher.METHOD_TO_MODEL.items()}


def mcp_gaps(engine: dict[str, dict[str, tuple[str, ...]]], sdk: dict[str, dict[str, set[str]]]) -> list[str]:
    gaps = []
    for direction, methods in sdk.items():
        for method, versions in methods.items():
            mine = set(engine.get(direction, {}).get(method, ()))
            if mine != versions:
                gaps.append(f"{direction} {method}: engine {sorted(mine)}, SDK {sorted(versions)}")
    for direction, methods in engine.items():
        gaps += [f"{direction} {m}: not in the SDK" for m in methods if m not in sdk.get(direction, {})]
    return gaps


def a2a_gaps(engine: dict[str, str], sdk: dict[str, str]) -> list[str]:
    return [f"{m}: engine {engine.get(m)}, SDK {sdk.get(m)}" for m in sorted(set(engine) | set(sdk))
            if engine.get(m) != sdk.get(m)]


def test_the_engine_tables_hold_every_method_of_the_sdks():
    assert mcp_gaps(SURFACE, sdk_mcp_surface()) == []
    assert a2a_gaps(A2A_METHODS, sdk_a2a_methods()) == []


def test_a_method_missing_from_the_engine_tables_is_named():
    fewer = {d: dict(t) for d, t in SURFACE.items()}
    del fewer["server notification"]["notifications/message"]
    assert mcp_gaps(fewer, sdk_mcp_surface()) == ["server notification notifications/message: engine [], SDK "
                                                  "['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28']"]
    fewer_a2a = {m: t for m, t in A2A_METHODS.items() if m != "ListTasks"}
    assert a2a_gaps(fewer_a2a, sdk_a2a_methods()) == ["ListTasks: engine None, SDK ListTasksRequest"]


def test_every_modelled_method_is_covered_by_the_committed_sessions():
    report = build_report(Project(ROOT))
    rows = coverage(report.transcripts, {s.name: s.family for s in report.sessions})
    assert [(r.method, r.missing) for r in rows if r.missing] == []
    assert problems(rows, ["mcp", "a2a"]) == []
    assert {r.method for r in rows if r.family == "a2a"} == set(A2A_METHODS)


def _remove_session(project: Path, name: str) -> None:
    for path in (project / "scenarios").glob("*.json"):
        data = json.loads(path.read_text())
        kept = [s for s in data["sessions"] if s["name"] != name]
        if len(kept) != len(data["sessions"]):
            path.write_text(json.dumps({**data, "sessions": kept}))
            recording = project / "recordings" / data["recording"]
            recorded = json.loads(recording.read_text())
            recording.write_text(json.dumps({**recorded, "sessions": [s for s in recorded["sessions"]
                                                                      if s["name"] != name]}))
            return
    raise AssertionError(f"no session {name}")


@pytest.mark.parametrize("family", ["mcp", "a2a"])
def test_removing_the_only_session_of_a_method_fails_the_build_naming_it(project_copy: Path, family: str):
    report = build_report(Project(project_copy))
    rows = coverage(report.transcripts, {s.name: s.family for s in report.sessions})
    row, era = next((r, e) for r in rows if r.family == family for e in r.required if len(r.sessions[e]) == 1)
    (only,) = row.sessions[era]
    before = render_site(Project(project_copy), reference=False)
    assert before.ok, before.problems
    _remove_session(project_copy, only)
    after = render_site(Project(project_copy), reference=False)
    assert [p for p in after.problems if repr(row.method) in p] == [
        f"coverage: the {family.upper()} {row.direction} {row.method!r} ({era}) is in the engine's tables but "
        "no committed session sends it"]
