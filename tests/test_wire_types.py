"""Every committed message's verdict against its revision's wire types: current, complete,
strict, and shown."""
from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

from agent_loop_sim.project import Project
from agent_loop_sim.site.build import render_site
from agent_loop_sim.transcript import Message, Transcript
from conftest import ROOT

_spec = importlib.util.spec_from_file_location("validate_wire", ROOT / "scripts" / "validate_wire.py")
validate_wire = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(validate_wire)


def test_the_committed_verdicts_are_current():
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "validate_wire.py"), "--check"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr


def _mcp(*messages: tuple[str, dict]) -> Transcript:
    return Transcript("t", "legacy", "t", [Message(s, "server" if s == "client" else "client", json=j)
                                            for s, j in messages])


def test_mcp_validation_is_strict_and_by_revision():
    init = ("client", {"jsonrpc": "2.0", "id": "c1", "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "n", "version": "1"}}})
    good = validate_wire.mcp_verdicts(_mcp(init))
    assert good == [{"verdict": "valid", "against": "2025-11-25 InitializeRequest"}]
    # one value flipped: a number where the revision wants a string (pydantic's lax mode would not mind "1"
    # for an int, strict mode refuses 1 for a string either way)
    bad = json.loads(json.dumps(init[1]))
    bad["params"]["protocolVersion"] = 20251125
    (v,) = validate_wire.mcp_verdicts(_mcp(("client", bad)))
    assert v["verdict"] == "invalid" and v["detail"].startswith("params.protocolVersion")
    envelope = {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}
    (v,) = validate_wire.mcp_verdicts(_mcp(("client", {"jsonrpc": "2.0", "id": "c1", "method": "ping",
                                                        "params": {"_meta": envelope}})))
    assert v == {"verdict": "invalid", "against": "2026-07-28",
                 "detail": "client request 'ping' is not defined in 2026-07-28"}


def test_a2a_validation_refuses_unknown_fields_and_bad_ids():
    ok = {"jsonrpc": "2.0", "id": 1, "method": "GetTask", "params": {"id": "t"}}
    t = Transcript("t", "jsonrpc", "t", [Message("orchestrator", "agent", json=ok)])
    assert validate_wire.a2a_verdicts(t)[0]["verdict"] == "valid"
    for flipped in ({**ok, "params": {"id": "t", "nope": 1}}, {**ok, "id": True}, {**ok, "jsonrpc": "1.0"}):
        t = Transcript("t", "jsonrpc", "t", [Message("orchestrator", "agent", json=flipped)])
        assert validate_wire.a2a_verdicts(t)[0]["verdict"] == "invalid", flipped


def test_every_message_shows_its_verdict_and_a_missing_one_fails_the_build(project_copy: Path):
    site = render_site(Project(project_copy), reference=False)
    assert site.ok, site.problems
    page = site.pages["mcp/sessions/legacy_meta.md"]
    assert page.count("<em>Wire types:</em>") == len(site.report.session("legacy_meta").recorded.messages)
    assert "client request 'ping' is not defined in 2026\\-07\\-28" in site.pages["wire-types.md"]
    path = project_copy / "recordings" / "verdicts" / "wire_types.json"
    data = json.loads(path.read_text())
    del data["sessions"]["legacy_meta"]
    data["sessions"]["modern_ping"].pop()
    path.write_text(json.dumps(data))
    problems = render_site(Project(project_copy), reference=False).problems
    assert sorted(p for p in problems if p.startswith("wire types")) == [
        "wire types: session 'legacy_meta' has no verdicts (run python scripts/validate_wire.py)",
        f"wire types: session 'modern_ping' has {len(data['sessions']['modern_ping'])} verdicts for "
        f"{len(data['sessions']['modern_ping']) + 1} messages (run python scripts/validate_wire.py)"]
