"""The task life cycle table (agent_loop_sim.protocols.a2a.states)."""
from __future__ import annotations

import pytest

from agent_loop_sim.protocols.a2a import states
from agent_loop_sim.protocols.a2a.states import TASK_TRANSITIONS, IllegalTransition, transition


def test_the_table_has_a_row_for_every_state_and_no_task():
    assert set(TASK_TRANSITIONS) == set(states.TASK_STATES) | {None}


@pytest.mark.parametrize("state", sorted(states.TERMINAL))
def test_a_terminal_task_takes_nothing(state):
    assert TASK_TRANSITIONS[state] == {}
    for event in states.TASK_STATES + states.REQUESTS:
        with pytest.raises(IllegalTransition):
            transition(state, event)


def test_only_the_first_task_creates_a_task():
    assert transition(None, states.SUBMITTED) == states.SUBMITTED
    with pytest.raises(IllegalTransition):
        transition(None, states.WORKING)


@pytest.mark.parametrize("state", sorted(set(states.TASK_STATES) - states.TERMINAL))
def test_a_live_task_takes_every_update_and_every_request(state):
    for update in states.TASK_STATES:
        assert transition(state, update) == update
    assert transition(state, states.FOLLOW_UP) == state
    assert transition(state, states.SUBSCRIBE) == state
    assert transition(state, states.CANCEL) == states.CANCELED


def test_an_illegal_transition_says_what_it_is():
    with pytest.raises(IllegalTransition) as caught:
        transition(states.COMPLETED, states.CANCEL)
    assert (caught.value.state, caught.value.event) == (states.COMPLETED, states.CANCEL)
    assert "TASK_STATE_COMPLETED" in str(caught.value) and "CancelTask" in str(caught.value)


def test_every_request_has_a_refusal():
    assert set(states.REFUSALS) == set(states.REQUESTS)
