"""The swap test fails, naming session, message and path, when a simulated peer differs in one field.

(That every committed session passes it is ``make test``'s ``record --against engine --check``.)"""
from __future__ import annotations

import shlex
import sys

from conftest import ROOT, run_cli

FAKE = f"{shlex.quote(sys.executable)} {ROOT / 'tests' / 'fakes' / 'peer_differs.py'}"


def test_an_mcp_peer_that_differs_in_one_field_fails_the_swap_test():
    done = run_cli("record", "--against", "engine", "--check", "scenarios/mcp.json", "--mcp-peer", f"{FAKE} mcp")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "DIFFERENT recordings/sdk_exchanges.json: the SDK's client against" in done.stdout
    assert "session 'legacy_tour', message 2, $.result.serverInfo.version: committed \"1.0.0\", live \"1.0.1\"" \
        in done.stdout
    # the other direction (the engine's client against the SDK's server) still holds
    assert "same recordings/sdk_exchanges.json: the engine's client against the SDK's fixture server" in done.stdout


def test_an_a2a_peer_that_differs_in_one_field_fails_the_swap_test():
    done = run_cli("record", "--against", "engine", "--check", "scenarios/a2a.json", "--a2a-peer", f"{FAKE} a2a")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "DIFFERENT recordings/a2a_sdk_exchanges.json" in done.stdout
    assert "session 'a2a_send', message 2, $.description" in done.stdout


def test_an_a2a_peer_that_differs_in_one_header_fails_the_swap_test():
    done = run_cli("record", "--against", "engine", "--check", "scenarios/a2a.json", "--a2a-peer", f"{FAKE} a2a-header")
    assert done.returncode == 1, done.stdout + done.stderr
    assert ("session 'a2a_send', message 2, $.http.headers[1][1]: committed \"application/json\", "
            "live \"application/json; charset=utf-8\"") in done.stdout


def test_the_swap_test_only_compares():
    done = run_cli("record", "--against", "engine", "scenarios/mcp.json")
    assert done.returncode == 2 and "add --check" in done.stderr
