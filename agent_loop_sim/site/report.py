"""The report as the site publishes it: ``conformance.json``, deterministic (no dates)."""
from __future__ import annotations

from typing import Any

from ..check import Report


def report_json(report: Report, pages: dict[str, str], findings: list[dict[str, Any]]) -> dict[str, Any]:
    """The machine-readable report published as ``conformance.json`` (deterministic: no dates)."""
    from .. import __version__

    return {
        "generator": f"agent_loop_sim {__version__}",
        "engine": report.engine,
        "result": "pass" if report.ok and all(f["holds"] is not False for f in findings) else "fail",
        "sessions": {"total": len(report.sessions), "passed": report.passed,
                     "failed": len(report.sessions) - report.passed},
        "messages": report.message_count,
        "recordings": [
            {"file": f.recording_file, "scenarios": f.scenario_file, "family": f.family, "sdk": f.sdk,
             "transport": f.transport, "sessions": len(f.sessions), "messages": f.message_count}
            for f in report.files
        ],
        "results": [
            {"session": s.name, "family": s.family, "mode": s.recorded.mode if s.recorded else None,
             "messages": len(s.recorded.messages) if s.recorded else 0, "result": s.verdict,
             "recording": s.recording_file, "page": pages.get(s.name),
             "engine_error": s.engine_error, "differences": [d.to_dict() for d in s.differences],
             "key_order": s.key_order_verdict, "key_order_differences": [d.to_dict() for d in s.key_order]}
            for s in report.sessions
        ],
        "findings": findings,
    }

