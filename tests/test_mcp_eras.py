"""The era of a connection (agent_loop_sim.protocols.mcp.eras): the table, and the errors it carries."""
from __future__ import annotations

from agent_loop_sim.protocols.mcp.eras import (ERA_TRANSITIONS, REFUSE_ENVELOPE, REFUSE_INITIALIZE, SERVE, Era, Kind,
                                               era_rules, kind_of, transition)

ENVELOPED = {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}}


def test_the_table_covers_every_era_and_kind_and_never_goes_back_to_undecided():
    assert set(ERA_TRANSITIONS) == {(e, k) for e in Era for k in Kind}
    assert all(after is not Era.UNDECIDED for after, _ in ERA_TRANSITIONS.values())


def test_what_a_request_claims_to_be():
    assert kind_of("initialize", ENVELOPED) is Kind.INITIALIZE
    assert kind_of("tools/list", ENVELOPED) is Kind.ENVELOPED
    assert kind_of("tools/list", {"_meta": {}}) is Kind.PLAIN
    assert kind_of("tools/list", None) is Kind.PLAIN


def test_the_first_request_decides_and_the_other_era_is_refused():
    assert transition(Era.UNDECIDED, "tools/list", ENVELOPED) == (Era.STATELESS, SERVE)
    assert transition(Era.UNDECIDED, "ping", None) == (Era.HANDSHAKE, SERVE)
    assert transition(Era.HANDSHAKE, "tools/list", ENVELOPED) == (Era.HANDSHAKE, REFUSE_ENVELOPE)
    assert transition(Era.STATELESS, "initialize", {}) == (Era.STATELESS, REFUSE_INITIALIZE)


def test_a_verdict_carries_its_error():
    assert SERVE.refusal({}) is None
    error = REFUSE_INITIALIZE.refusal({"protocolVersion": "2025-11-25"}).to_error()
    assert error == {"code": -32022, "message": "connection is serving the 2026-07-28 protocol; the initialize "
                     "handshake is not accepted", "data": {"supported": ["2026-07-28"], "requested": "2025-11-25"}}
    assert REFUSE_INITIALIZE.refusal({"protocolVersion": 7}).to_error()["data"] == {"supported": ["2026-07-28"]}
    assert REFUSE_ENVELOPE.refusal(ENVELOPED).to_error()["code"] == -32600
    assert "data" not in REFUSE_ENVELOPE.refusal(ENVELOPED).to_error()


def test_the_site_draws_the_table_row_for_row():
    (rules,) = era_rules()
    assert len(rules.rows) == len(ERA_TRANSITIONS)
    assert [row[3] for row in rules.rows].count("refuse the handshake (-32022)") == 1


def test_the_era_table_is_drawn_under_its_title():
    from agent_loop_sim.protocols.mcp.eras import ERA_TRANSITIONS, era_rules

    (table,) = era_rules()
    assert (table.title, table.head, len(table.rows)) == (
        "The era of a connection", ("Era", "Request", "Era afterwards", "The server"), len(ERA_TRANSITIONS))
    assert table.about.startswith("The engine's rule, drawn from its table (`ERA_TRANSITIONS`): ")
