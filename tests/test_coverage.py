"""The coverage page: the engine's method tables against the SDKs' own, the build's refusal
when a method in the tables is sent by no committed session, the kinds of value read from the
committed messages (one value flipped moves a session into or out of a cell), the transport of
each cell, and every session it counts one click away."""
from __future__ import annotations

import copy
import json
import re
from collections import defaultdict
from pathlib import Path

import pytest

from agent_loop_sim.check import build_report
from agent_loop_sim.project import Project
from agent_loop_sim.protocols.a2a.agent import METHODS as A2A_METHODS
from agent_loop_sim.protocols.mcp.methods import SURFACE
from agent_loop_sim.site.build import render_site
from agent_loop_sim.site.pages.coverage import (DUPLICATE, KINDS, LATE, LITERAL, MISSING, OUTSIDE, RAW, VALID, a2a_kinds,
                                                applies_a2a, applies_mcp, coverage, coverage_of, mcp_kinds, problems,
                                                render_coverage, transport_name)
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


@pytest.fixture(scope="module")
def report():
    return build_report(Project(ROOT))


def test_every_modelled_method_is_covered_by_the_committed_sessions(report):
    rows, _ = coverage_of(report)
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


# --- Kinds of value -------------------------------------------------------------------------

def _row(rows, family, method, direction=None):
    return next(r for r in rows if r.family == family and r.method == method
                and (direction is None or r.direction == direction))


def test_where_a_kind_applies_is_read_from_the_protocol_tables():
    # an enumeration where a field is one (Message.role, ListTasks' status; MCP's logging level and
    # the client's answers), ids where the params type has them, a late answer where the sender can cancel
    assert applies_a2a("ListTasks") == (VALID, OUTSIDE, LITERAL, RAW)
    assert applies_a2a("SendMessage") == (VALID, OUTSIDE, LITERAL, DUPLICATE, MISSING, RAW)
    assert applies_a2a("GetTask") == (VALID, LITERAL, MISSING, RAW)
    assert applies_a2a("GetExtendedAgentCard") == (VALID, RAW)
    assert applies_mcp("client request", "logging/setLevel") == (VALID, OUTSIDE, LITERAL, DUPLICATE, MISSING, LATE)
    assert applies_mcp("client request", "tools/list") == (VALID, LITERAL, DUPLICATE, MISSING, LATE)
    assert applies_mcp("server request", "elicitation/create") == (VALID, OUTSIDE, LATE)
    assert applies_mcp("server notification", "notifications/progress") == (VALID,)


def test_the_kinds_of_value_are_read_from_the_committed_sessions(report):
    rows, _ = coverage_of(report)
    send = _row(rows, "a2a", "SendMessage")
    assert {"a2a_raw_values", "a2a_values_outside_enums"} <= set(send.kinds[OUTSIDE])
    assert "a2a_literal_ids" in send.kinds[LITERAL] and "a2a_literal_ids" in send.kinds[DUPLICATE]
    assert "a2a_literal_ids" in send.kinds[MISSING]
    assert send.kinds[RAW] == ["a2a_raw_among_steps"]
    assert "a2a_values_outside_enums" in _row(rows, "a2a", "ListTasks").kinds[OUTSIDE]
    call = _row(rows, "mcp", "tools/call", "client request")
    assert {"values_legacy_late_answer", "waiting_legacy_timeout"} <= set(call.kinds[LATE])
    assert "values_legacy_late_answer" in _row(rows, "mcp", "elicitation/create").kinds[LATE]
    assert "raw_duplicate_ids" in _row(rows, "mcp", "ping", "client request").kinds[DUPLICATE]
    assert "raw_notifications" in _row(rows, "mcp", "tools/list", "client request").kinds[MISSING]
    assert "tour" not in call.kinds[LITERAL]  # the SDK client numbers its own requests
    # a kind outside a method's reach is never filled: the derivation and the applies tables agree
    assert [(r.method, k) for r in rows for k in KINDS if r.kinds.get(k) and k not in r.applies] == []


def _flipped(transcript, n, change):
    out = copy.deepcopy(transcript)
    change(out.messages[n - 1].json)
    return out


def _committed(report, name):
    return report.transcripts[name], report.scenarios[name]


def test_one_flipped_a2a_value_moves_the_session_into_the_cell(report):
    transcript, scenario = _committed(report, "a2a_agent_crash")
    before = a2a_kinds(transcript, scenario)
    assert {("SendMessage", k) for k in (OUTSIDE, LITERAL, DUPLICATE, MISSING, RAW)} & before == set()

    def role(m):
        m["params"]["message"]["role"] = "ROLE_BOSS"

    def literal(m):
        m["params"]["message"]["messageId"] = "msg-mine"

    def gone(m):
        del m["params"]["message"]["messageId"]

    def again(m):  # message 5 sends message 1's messageId
        m["params"]["message"]["messageId"] = transcript.messages[0].json["params"]["message"]["messageId"]

    for n, change, kind in ((1, role, OUTSIDE), (1, literal, LITERAL), (1, gone, MISSING), (5, again, DUPLICATE)):
        assert ("SendMessage", kind) in a2a_kinds(_flipped(transcript, n, change), scenario) - before, kind
    # by number: 2 names ROLE_AGENT, 3 names nothing
    assert ("SendMessage", OUTSIDE) not in a2a_kinds(_flipped(transcript, 1, lambda m: m["params"]["message"]
                                                              .update(role=2)), scenario)
    assert ("SendMessage", OUTSIDE) in a2a_kinds(_flipped(transcript, 1, lambda m: m["params"]["message"]
                                                          .update(role=3)), scenario)
    # a raw step among ordinary ones, read from the scenario's steps
    raw_step = {"op": "raw", "body": json.dumps({"jsonrpc": "2.0", "id": 9, "method": "GetTask", "params": {}})}
    assert ("GetTask", RAW) in a2a_kinds(transcript, {**scenario, "steps": [*scenario["steps"], raw_step]})
    assert ("GetTask", RAW) not in a2a_kinds(transcript, {**scenario, "steps": [raw_step]})  # no ordinary step


def test_one_flipped_mcp_value_moves_the_session_into_or_out_of_the_cell(report):
    transcript, scenario = _committed(report, "values_legacy_late_answer")
    assert ("client request", "tools/call", LATE) in mcp_kinds(transcript, scenario)
    # the client's read timeout taken away (message 6, its cancel): no late answer any more
    kept = copy.deepcopy(transcript)
    del kept.messages[5]
    assert ("client request", "tools/call", LATE) not in mcp_kinds(kept, scenario)
    assert ("server request", "elicitation/create", LATE) in mcp_kinds(kept, scenario)  # the server's own cancel

    transcript, scenario = _committed(report, "legacy_tour")
    before = mcp_kinds(transcript, scenario)
    assert {k for d, _, k in before if d == "client request"} == {VALID}
    ping = next(i for i, m in enumerate(transcript.messages, 1) if m.json.get("method") == "ping")
    assert ("client request", "ping", DUPLICATE) in mcp_kinds(
        _flipped(transcript, ping, lambda m: m.update(id="c1")), scenario)
    assert ("client request", "ping", MISSING) in mcp_kinds(_flipped(transcript, ping, lambda m: m.pop("id")), scenario)
    assert ("client request", "ping", LITERAL) in mcp_kinds(transcript, {**scenario, "mode": "raw"})

    transcript, scenario = _committed(report, "raw_completion_and_subscribe")
    level = next(i for i, m in enumerate(transcript.messages, 1)
                 if isinstance(m.json, dict) and m.json.get("method") == "logging/setLevel"
                 and m.json["params"]["level"] == "loud")
    assert ("client request", "logging/setLevel", OUTSIDE) in mcp_kinds(transcript, scenario)
    fixed = _flipped(transcript, level, lambda m: m["params"].update(level="debug"))
    assert ("client request", "logging/setLevel", OUTSIDE) not in mcp_kinds(fixed, scenario)


def test_a_flipped_value_changes_the_pages_cell(report):
    rows, _ = coverage_of(report)
    assert "a2a_agent_crash" not in _row(rows, "a2a", "SendMessage").kinds[OUTSIDE]
    transcripts = dict(report.transcripts)
    crash = transcripts["a2a_agent_crash"] = copy.deepcopy(transcripts["a2a_agent_crash"])
    crash.messages[0].json["params"]["message"]["role"] = "ROLE_BOSS"
    flipped = coverage(transcripts, {s.name: s.family for s in report.sessions}, report.scenarios)
    assert "a2a_agent_crash" in _row(flipped, "a2a", "SendMessage").kinds[OUTSIDE]


# --- Transport, and every session one click away ---------------------------------------------

def test_the_transport_is_the_recordings_own(report):
    named = {Path(f.recording_file).name: transport_name(f.transport) for f in report.files}
    assert named["sdk_exchanges.json"] == "stdio"
    assert named["sdk_exchanges_http.json"] == "Streamable HTTP"
    assert named["a2a_sdk_exchanges.json"] == named["a2a_sdk_exchanges_more.json"] == "HTTP"
    assert set(named.values()) == {"stdio", "Streamable HTTP", "HTTP"}


def _cell_of(page: str, method: str) -> str:
    row = next(r for r in page.split("<tr>") if f"<code>{method}</code>" in r)
    return row


def test_each_cell_is_split_by_transport_and_every_session_is_linked(report):
    rows, transports = coverage_of(report)
    page = render_coverage(rows, {name: f"../s/{name}/" for name in transports}, transports)
    call = _row(rows, "mcp", "tools/call", "client request")
    cell = _cell_of(page, "tools/call")
    for transport in ("stdio", "Streamable HTTP"):
        count = sum(1 for n in call.sessions["handshake"] if transports[n] == transport)
        assert f"<strong>{transport}</strong> {count}:" in cell
    # every session a row counts is a link, the ones after the first few inside a <details>
    for name in set(call.sessions["handshake"]) | set(call.sessions["2026-07-28"]):
        assert f'href="../s/{name}/"' in cell, name
    assert re.search(r'<details class="more-sessions"><summary>and \d+ more</summary>', cell)
    assert not re.search(r"and \d+ more(?!</summary>)", page)  # no "and N more" that cannot be opened
    assert "How a kind is found" in page and "raw among ordinary steps" in page


def test_a_gap_is_shown_not_refused(report):
    rows, transports = coverage_of(report)
    page = render_coverage(rows, {}, transports)
    gaps = [(r.method, k) for r in rows if not r.unmodelled for k in r.gaps]
    assert gaps and page.count('<strong class="gap">gap</strong>') >= len(gaps)
    assert problems(rows, ["mcp", "a2a"]) == []
