"""The swap test's simulated MCP server over stdio is served by forks of one process that runs
``agent_loop_sim``'s own command line (scripts/record_sdk.py, ``AGENT_LOOP_SIM_MCP_SERVE``): what
the client meets is ``serve mcp`` with the arguments given, not the SDK's fixture server."""
from __future__ import annotations

import json
import os
import subprocess
import sys


from conftest import ROOT

def server_info(arguments: str) -> dict:
    env = dict(os.environ, AGENT_LOOP_SIM_MCP_SERVE=arguments)
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "record_sdk.py"), "scenarios/mcp.json",
                           "--session", "legacy_tour"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    (session,) = json.loads(done.stdout)["sessions"]
    return session["messages"][1]["json"]["result"]["serverInfo"]


def test_the_forked_server_is_serve_mcp_with_the_arguments_given():
    # The SDK's fixture server takes no --world (its world comes from the environment): a server
    # that answers as the calculator world is serve mcp, started with the arguments given.
    assert server_info(f"serve mcp --world {ROOT / 'worlds' / 'calculator.json'}")["name"] == "calculator"
    assert server_info("serve mcp")["name"] != "calculator"
