"""The engine speaks each SDK release: both releases' recordings, the release parameter, and
flips of one release-specific rule that the check must catch for that release only."""
from __future__ import annotations

import dataclasses

import pytest

from agent_loop_sim import engine, scenarios
from agent_loop_sim.check import build_report
from agent_loop_sim.project import Project
from agent_loop_sim.protocols import FAMILIES
from agent_loop_sim.protocols.a2a import session as a2a_session
from agent_loop_sim.protocols.a2a.releases import A2A_RELEASES, BOOLEAN_ID_REFUSED, FAILED_STATUS_STAMPED
from agent_loop_sim.recording import load_recording
from conftest import ROOT, run_cli

PROJECT = Project(ROOT)
PINNED, NEWER = ("a2a", "1.2.2"), ("a2a", "1.3.0")
#: where each change shows (session, JSON path) in the committed recordings
SHOWN_AT = {BOOLEAN_ID_REFUSED: ("a2a_release_boolean_ids", "$.error"),
            FAILED_STATUS_STAMPED: ("a2a_release_failed_status", "$.result.status.timestamp")}


def _problems(release: tuple[str, str]) -> list[str]:
    return build_report(PROJECT, release=release).problems


def test_every_release_has_recorded_every_scenario_file():
    for file in PROJECT.scenario_files():
        releases = FAMILIES[file.family].releases
        for version in releases.versions:
            recording = load_recording(str(PROJECT.recording_path(file, version)))
            assert recording.sdk == {"package": releases.package, "version": version}
            assert [t.name for t in recording.sessions] == [s.name for s in file.sessions]


def test_the_engine_equals_both_releases_on_every_committed_session():
    assert _problems(PINNED) == [] and _problems(NEWER) == []
    assert build_report(PROJECT).problems == []  # the default: every family's pinned release


def test_the_rules_come_from_the_table_of_changes():
    assert A2A_RELEASES.rules() == A2A_RELEASES.rules("1.2.2") == frozenset()
    assert A2A_RELEASES.rules("1.3.0") == {BOOLEAN_ID_REFUSED, FAILED_STATUS_STAMPED}
    assert FAMILIES["a2a"].releases is A2A_RELEASES


def test_run_speaks_the_release_it_is_given():
    file = scenarios.load(ROOT / "scenarios" / "a2a_releases.json")
    session = file.session("a2a_release_boolean_id_stream")
    pinned, newer = engine.run_session(session), engine.run_session(session, release="1.3.0")
    assert pinned.messages[1].sse and pinned.messages[1].json["id"] is True
    assert not newer.messages[1].sse and newer.messages[1].json["error"]["code"] == -32600
    assert engine.run_session(session, release="1.2.2").to_dict() == pinned.to_dict()


def test_an_unknown_release_is_one_line_and_exit_2():
    for args in (["run", "scenarios/a2a_releases.json", "--release", "9.9.9"],
                 ["check", "scenarios/a2a.json", "--release", "9.9.9"]):
        done = run_cli(*args)
        assert done.returncode == 2 and done.stdout == ""
        assert len(done.stderr.strip().splitlines()) == 1 and "9.9.9" in done.stderr, done.stderr


def test_check_compares_the_engine_with_both_releases():
    done = run_cli("check", "scenarios/a2a_releases.json")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "same recordings/a2a_sdk_exchanges_releases.json" in done.stdout
    assert "same recordings/a2a-sdk-1.3.0/a2a_sdk_exchanges_releases.json: engine (a2a-sdk 1.3.0)" in done.stdout


def test_recording_a_release_without_its_environment_is_one_line_and_exit_1(project_copy):
    done = run_cli("record", "--check", "scenarios/a2a_releases.json", "--release", "1.3.0", cwd=project_copy)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.strip() == ("recording failed: releases/a2a-sdk-1.3.0/.venv/bin/python is missing: "
                                   "`make setup` builds the environment that a2a-sdk 1.3.0 is recorded with")


# --- mcp: the pinned 2.3.0 beside the older 2.2.0 ------------------------------------------

import agent_loop_sim.protocols.mcp as mcp_package  # noqa: E402
from agent_loop_sim.protocols.mcp.releases import (EMPTY_EXPERIMENTAL_OMITTED, EMPTY_META_OMITTED,  # noqa: E402
                                                   MCP_RELEASES, SUBSCRIPTIONS_OPTION)

MCP_SHOWN_AT = {EMPTY_META_OMITTED: ("legacy_tour", "$.params._meta"),
                EMPTY_EXPERIMENTAL_OMITTED: ("legacy_tour", "$.result.capabilities.experimental"),
                SUBSCRIPTIONS_OPTION: ("calculator_modern_listings", "$.error.code")}


def test_the_engine_equals_both_mcp_releases_on_every_committed_session():
    assert _problems(("mcp", "2.3.0")) == [] and _problems(("mcp", "2.2.0")) == []
    assert MCP_RELEASES.rules("2.2.0") == frozenset() and MCP_RELEASES.rules() == set(MCP_SHOWN_AT)


#: (family, the module the model reads its table from, the attribute, the table, where each change shows)
FLIPS = [("a2a", a2a_session, "A2A_RELEASES", A2A_RELEASES, SHOWN_AT, (("9.0.0", "1.3.0", "1.2.2"),   # taken from 1.3.0
                                                                      ("1.2.2", "1.2.2", "1.3.0"))),  # given to 1.2.2
         ("mcp", mcp_package, "MCP_RELEASES", MCP_RELEASES, MCP_SHOWN_AT, (("9.0.0", "2.3.0", "2.2.0"),   # from 2.3.0
                                                                           ("2.2.0", "2.2.0", "2.3.0")))]  # to 2.2.0
CASES = [(family, module, attr, table, key, shown[key], *flip)
         for family, module, attr, table, shown, flips in FLIPS for key in sorted(shown) for flip in flips]


@pytest.mark.parametrize("family, module, attr, table, key, shown, since, broken, intact", CASES,
                         ids=[f"{c[0]}-{c[4]}-since-{c[6]}" for c in CASES])
def test_one_rule_flipped_fails_the_check_for_one_release_only(monkeypatch, family, module, attr, table, key, shown,
                                                               since, broken, intact):
    """A change moved to another release (``since``) breaks exactly the release that gains or
    loses it (``broken``); the other one (``intact``) still equals the engine."""
    flipped = dataclasses.replace(table, changes=tuple(
        dataclasses.replace(c, since=since) if c.key == key else c for c in table.changes))
    monkeypatch.setattr(module, attr, flipped)
    assert _problems((family, intact)) == []
    problems = _problems((family, broken))
    files = {p.split(": ", 1)[0] for p in problems}
    in_release_folder = {f.startswith(f"recordings/{table.slug(broken)}/") for f in files}
    assert problems and in_release_folder == {broken != table.pinned}, files
    session, path = shown
    assert any(f"session {session!r}" in p and path in p for p in problems), problems[:3]


def test_check_without_arguments_covers_every_release_of_every_family():
    done = run_cli("check")
    assert done.returncode == 0, done.stdout + done.stderr
    for folder in ("recordings/sdk_exchanges.json", "recordings/mcp-2.2.0/", "recordings/a2a-sdk-1.3.0/"):
        assert f"same {folder}" in done.stdout, folder
