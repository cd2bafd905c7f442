"""How the SDK's agent is run while it is recorded (its harness), as a rule of the model.

Served as people deploy it (uvicorn: every request on one event loop), the executor's run of a
task that waits for input or a sign-in stays alive in the background between requests: the
next request about that task goes to that run. The seed page's harness ran every request on an
event loop of its own and closed it, which ends the run with the request; only the task store
is left. Two answers depend on it:

- ``CancelTask`` of a waiting task: the live run calls the agent's ``cancel``, whose
  ``TASK_STATE_CANCELED`` update replaces the status, so the question moves to the history and
  the new status has no message; with the run gone, the request handler writes the state over
  the stored status, question and all.
- A follow-up naming a task and no context: the request gets a new context ID; the live run
  keeps the task's own, so the agent's updates (in the task's context) are taken; a new run
  takes the request's and fails the task on the first update.

A scenario file names its harness (``"harness"``; absent: deployed), and so does the
recording's ``transport`` (`Family.harnesses`).
"""
from __future__ import annotations

#: The rule in effect when the executor's background run outlives the request that started it.
EXECUTOR_OUTLIVES_REQUEST = "executor_outlives_request"
#: The rules each harness puts in effect; ``None`` is the deployed one, which files name by
#: leaving ``harness`` out.
HARNESS_RULES: dict[str | None, frozenset[str]] = {
    None: frozenset({EXECUTOR_OUTLIVES_REQUEST}),
    "per_request": frozenset(),
}


def harness_rules(harness: str | None) -> frozenset[str]:
    """The model's rules for a session recorded under ``harness``."""
    return HARNESS_RULES[harness]
