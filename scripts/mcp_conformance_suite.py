"""The official MCP conformance suite against both servers over Streamable HTTP, check by check.

    python scripts/mcp_conformance_suite.py           # run, write recordings/verdicts/mcp_conformance_suite.json
    python scripts/mcp_conformance_suite.py --check   # run, compare with that file (exit 1 on any difference)

``@modelcontextprotocol/conformance`` (pinned in package-lock.json) runs its server scenarios
against the SDK's fixture server over HTTP (``conformance/sdk_http_server.py``: the
``streamable_http_app()`` under uvicorn) and against ``serve mcp --http``, each started fresh.
Every check must get the same verdict from both; the table of verdicts (scenario, check, the
SDK's, the engine's, and the suite's words when a check fails) is committed, so the site can
show both columns and a change in either shows as a difference. Node 20 lacks one ``fs``
function the suite imports (for a command not run here): ``conformance/suite/node20.mjs``
supplies it.
Any failure to run (no node, a server that does not start) exits 2 with one line.
"""
from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SUITE = ROOT / "node_modules" / "@modelcontextprotocol" / "conformance"
SHIM = ROOT / "conformance" / "suite" / "node20.mjs"
OUT = ROOT / "recordings" / "verdicts" / "mcp_conformance_suite.json"
SERVERS = {
    "sdk": [sys.executable, str(ROOT / "conformance" / "sdk_http_server.py"), "--port", "0"],
    "engine": [sys.executable, "-m", "agent_loop_sim", "serve", "mcp", "--http", "--port", "0"],
}
#: The suite's words can name the port it reached: one server's port is not another's.
PORT = re.compile(r"(127\.0\.0\.1|localhost):\d+")


class Refused(Exception):
    """The suite could not be run (one line)."""


def run_suite(command: list[str], timeout: float) -> dict[tuple[str, str], dict[str, str]]:
    """Start the server ``command`` names, run the suite against it; (scenario, check) -> verdict."""
    node = shutil.which("node")
    if node is None or not SUITE.exists():
        raise Refused("node and node_modules/@modelcontextprotocol/conformance are needed (make setup)")
    with tempfile.TemporaryDirectory(prefix="mcp-suite-") as tmp:
        server = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        try:
            assert server.stdout is not None
            url = server.stdout.readline().strip()
            if not url.startswith("http"):
                raise Refused(f"{' '.join(command[1:3])} did not print its URL")
            subprocess.run([node, "--import", str(SHIM), str(SUITE / "dist" / "index.js"), "server", "--url", url,
                            "-o", tmp], cwd=tmp, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           timeout=timeout, check=False)  # (exit 1 when a check fails: the table says which)
        finally:
            server.terminate()
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
        verdicts: dict[tuple[str, str], dict[str, str]] = {}
        for path in sorted(Path(tmp).glob("server-*/checks.json")):
            scenario = re.sub(r"^server-|-\d{4}-\d{2}-\d{2}T[\d-]+Z$", "", path.parent.name)
            for check in json.loads(path.read_text()):
                if check.get("status") == "INFO":
                    continue  # (a log line, not a verdict)
                verdict = {"status": check["status"]}
                if check.get("errorMessage"):
                    verdict["said"] = PORT.sub(r"\1:PORT", check["errorMessage"])
                verdicts[(scenario, check["id"])] = verdict
        if not verdicts:
            raise Refused("the suite wrote no checks")
        return verdicts


def table(timeout: float) -> dict[str, Any]:
    results = {name: run_suite(command, timeout) for name, command in SERVERS.items()}
    version = json.loads((SUITE / "package.json").read_text())["version"]
    keys = sorted(set(results["sdk"]) | set(results["engine"]))
    missing = {"status": "NOT RUN"}
    return {
        "about": "The official MCP conformance suite's server checks, run against the SDK's fixture server over "
                 "Streamable HTTP and against serve mcp --http (scripts/mcp_conformance_suite.py).",
        "suite": f"@modelcontextprotocol/conformance {version}",
        "checks": [{"scenario": scenario, "check": check, "sdk": results["sdk"].get((scenario, check), missing),
                    "engine": results["engine"].get((scenario, check), missing)} for scenario, check in keys],
    }


def differences(rows: list[dict[str, Any]]) -> list[str]:
    return [f"{r['scenario']} / {r['check']}: the SDK's server {r['sdk']['status']}, serve mcp --http "
            f"{r['engine']['status']}" for r in rows if r["sdk"] != r["engine"]]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="compare with the committed table, write nothing")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds for the suite against one server")
    args = parser.parse_args(argv)
    try:
        live = table(args.timeout)
    except (Refused, subprocess.TimeoutExpired, OSError) as exc:
        print(f"mcp_conformance_suite: {exc}", file=sys.stderr)
        return 2
    text = json.dumps(live, indent=1, ensure_ascii=False) + "\n"
    apart = differences(live["checks"])
    for line in apart:
        print("DIFFERENT " + line)
    if args.check:
        committed = OUT.read_text() if OUT.exists() else ""
        if committed != text:
            print(f"DIFFERENT {OUT.relative_to(ROOT)}: the suite's verdicts are no longer the committed ones "
                  f"(run python scripts/mcp_conformance_suite.py)")
            return 1
    else:
        OUT.write_text(text)
    if apart:
        return 1
    passed = sum(r["sdk"]["status"] == "SUCCESS" for r in live["checks"])
    print(f"same: {live['suite']}, {len(live['checks'])} checks, the same verdict from the SDK's server and "
          f"serve mcp --http ({passed} pass for both)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
