"""Ids and time of the A2A model (agent_loop_sim.protocols.a2a.ids), against the standard library."""
from __future__ import annotations

import uuid
from datetime import datetime, timezone

import pytest

from agent_loop_sim.protocols.a2a.ids import Clock, uuid5


@pytest.mark.parametrize("name", ["", "orchestrator", "agent-1", "é"], ids=["empty", "word", "dash", "accent"])
def test_uuid5_is_the_standard_librarys(name):
    for namespace in (uuid.NAMESPACE_URL, uuid.NAMESPACE_DNS):
        assert uuid5(namespace, name) == str(uuid.uuid5(namespace, name))


def test_the_clock_moves_a_microsecond_a_reading_and_into_the_next_second():
    clock = Clock(datetime(2026, 3, 4, 5, 6, 7, 999_998, tzinfo=timezone.utc))
    assert [clock.now() for _ in range(3)] == ["2026-03-04T05:06:07.999999Z", "2026-03-04T05:06:08.000000Z",
                                              "2026-03-04T05:06:08.000001Z"]
    assert Clock().now() == "2026-01-01T00:00:00.000001Z"
