"""Random A2A sessions, for differential tests of the engine against the live SDK.

``a2a_sessions`` makes sessions of 1-7 steps that mix every step kind of the A2A scenario
format (card fetches, conditional or not; sends, streamed or not, new or into the current or a
labelled task, with every context choice, single or multi-part, with a repeated message ID;
gets, cancels and subscriptions of the current, labelled or an unknown task; the extended
card; task lists), texts for each branch of the research agent, ``A2A-Version`` headers
(absent, accepted, refused, garbage), ``historyLength`` values, and method names of other
steps, of protocol 0.3, and unknown ones. Seeded: the same seed gives the same sessions.

Every session is valid for the scenario validator, and also for the orchestrator at run time:
``task: "current"`` and labels are only used once a send has surely spoken of a task.

Left out, because the SDK itself is not deterministic there (or the engine refuses them):

- ListTasks over more than one task without a status timestamp: the SDK orders those by
  their random IDs. No send here leaves a task without a timestamp (every branch of the
  research agent stamps its status), so ``list`` is generated freely, but only with the
  default page size (the scenario format has no page token).
- A subscription that the agent would keep open with nothing for the orchestrator to wait
  for: it cannot happen with this agent (a task that can be subscribed to is parked, and the
  orchestrator closes the stream after its first event).
"""
from __future__ import annotations

import random
from typing import Any

FIRST_TEXTS = [
    "summarise the meeting", "summarise the meeting", "summarise the meeting", "check my calendar", "check my calendar",
    "hello", "hello there", "delete every draft", "delete", "summarise the meeting", "check my calendar",
    "summarise the design notes", "summarise the budget", "summarise ", "draft a plan", "Summarise the meeting",
    "summarise the meeting ", "x",
    "summarise résumé ✓ 🎉", "hellO", " hello", "summarise\nthe meeting",
]
FOLLOW_TEXTS = ["Tuesday", "Tuesday ✓", "Monday\n", "Monday", "signed in", "hello", "delete it",
                "summarise the meeting", "check my calendar", "ok"]
VERSIONS = ["1.0", "1.0", "1.0", None, "0.3", "1.0.1", "2.0", "garbage", "1", "v1.0", "", "1.0-beta", "0.9", "1!0.5",
            "V1.0", "1.0rc1", "1.0+local", "1.0.post1", "1.0.dev0", "01.0", "1.0 beta", "1.0,2.0", "1.x", "0!1.2"]
ACCEPTED = ("1.0", "1.0.1", "1", "v1.0", "1.0-beta", "V1.0", "1.0rc1", "1.0+local", "1.0.post1", "1.0.dev0", "01.0",
            "0!1.2")
OLD_METHODS = {
    "send": ["message/send", "message/stream"],
    "get": ["tasks/get"],
    "cancel": ["tasks/cancel"],
    "subscribe": ["tasks/resubscribe"],
    "extended_card": ["agent/getAuthenticatedExtendedCard"],
    "list": ["tasks/list"],
}
ALL_METHODS = ["sendmessage", "GetTask ", "SendMessage\n", "message/send", "SendMessage",
               "SendStreamingMessage", "GetTask", "CancelTask", "SubscribeToTask", "ListTasks",
               "GetExtendedAgentCard", "CreateTaskPushNotificationConfig", "GetTaskPushNotificationConfig",
               "ListTaskPushNotificationConfigs", "DeleteTaskPushNotificationConfig", "NoSuchMethod", "sendMessage"]
HISTORY_LENGTHS = [0, 1, 2, 3, 10, -1, 0, 1, 2**31 - 1, -2**31]
ODD_VALUES = [10**20, 2**53 + 1, -0.0, 1e-7, 1.0, 1e21, -5, "résumé ✓ 🎉", "", {"": 1}, {"a": {}}, [[]],
              0.1 + 0.2, 2**63, 123456789012345678]
STATES = ["TASK_STATE_INPUT_REQUIRED", "TASK_STATE_COMPLETED", "TASK_STATE_AUTH_REQUIRED", "TASK_STATE_REJECTED",
          "TASK_STATE_CANCELED", "TASK_STATE_WORKING", "TASK_STATE_SUBMITTED", "TASK_STATE_FAILED"]
ETAG = "W/\"0c789eab44ebe1544de8bfee2d00e741a531c349c36d6412efdb06a89af89f4c\""
IF_NONE_MATCH = [ETAG, "*", "", "W/\"stale\"", ETAG.removeprefix("W/"), "W/\"stale\", " + ETAG]


class _Generator:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.has_task = False
        self.has_context = False
        self.labels: list[str] = []
        self.message_labels: list[str] = []
        self.fetched_card = False

    # -- pieces -------------------------------------------------------------------------------

    def request_fields(self, step: dict[str, Any], op: str) -> bool:
        """Maybe rename the method or change the version; ``True`` if the request is surely the step's own."""
        rng = self.rng
        plain = True
        r = rng.random()
        if r < 0.07:
            step["method"] = rng.choice(OLD_METHODS[op])
            plain = False
        elif r < 0.12:
            step["method"] = rng.choice(ALL_METHODS)
            plain = False
        if rng.random() < 0.25:
            version = rng.choice(VERSIONS)
            step["version"] = version
            if version not in ACCEPTED:
                plain = False
        return plain

    def parts(self, text: str) -> list[dict[str, Any]]:
        rng = self.rng
        out: list[dict[str, Any]] = []
        first: dict[str, Any] = {"text": text}
        if rng.random() < 0.2:
            first["mediaType"] = "text/plain"
        if rng.random() < 0.1:
            first["metadata"] = {"k": rng.choice(["v", 1, True, None, [1, "a"]])}
        out.append(first)
        for _ in range(rng.randint(0, 2)):
            out.append(rng.choice([
                {"text": rng.choice(["and keep it short", "please", "Tuesday"])},
                {"url": "https://files.example.com/notes.pdf", "mediaType": "application/pdf", "filename": "notes.pdf"},
                {"data": rng.choice([{"meeting": "retro", "n": 7, "r": 0.5, "tags": ["a", 2, None, True]},
                                     [1, 2], "s", 3, 1.5, True, None, {}])},
                {"raw": "aGVsbG8gd29ybGQ=", "mediaType": "text/plain", "metadata": {"size": 11}},
                {"raw": "", "filename": "empty.bin"},
                {"data": {"v": rng.choice(ODD_VALUES), "w": [rng.choice(ODD_VALUES)]}},
                {"data": rng.choice(ODD_VALUES), "metadata": {}},
                {"url": "", "metadata": {"n": rng.choice(ODD_VALUES)}},
                {"text": "hello", "filename": "a.txt"},
                {"text": "ümlaut ✓ 🎉\nline"},
                {"mediaType": "text/plain"},
            ]))
        if rng.random() < 0.15:
            rng.shuffle(out)
        return out

    def task_ref(self, op: str) -> str:
        choices = ["unknown"]
        if self.has_task:
            choices = ["unknown"] * (self.rng.random() < 0.3) + ["current"] * 6 + self.labels * 3
        if op == "send":
            choices = ["new"] * (6 if not self.has_task else 4) + choices
        return self.rng.choice(choices)

    # -- steps --------------------------------------------------------------------------------

    def card(self) -> dict[str, Any]:
        step: dict[str, Any] = {"op": "card"}
        r = self.rng.random()
        if r < 0.3 and self.fetched_card:
            step["revalidate"] = True
        elif r < 0.5:
            step["if_none_match"] = self.rng.choice(IF_NONE_MATCH)
        self.fetched_card = True
        return step

    def send(self) -> dict[str, Any]:
        rng = self.rng
        step: dict[str, Any] = {"op": "send"}
        plain = self.request_fields(step, "send")
        task = self.task_ref("send")
        if task != "new":
            step["task"] = task
        text = rng.choice(FIRST_TEXTS if task == "new" else FOLLOW_TEXTS)
        r = rng.random()
        has_parts = True
        if r < 0.65:
            step["text"] = text
        elif r < 0.93:
            step["parts"] = self.parts(text)
        elif r < 0.97:
            step["parts"] = []
            has_parts = False
        else:  # no text part at all
            step["parts"] = [{"data": {"x": 1}}]
            text = ""
        if rng.random() < 0.35:
            step["stream"] = True
        if rng.random() < 0.2:
            step["context"] = rng.choice(["none", "unknown"] + (["last"] * 2 if self.has_context else []))
        if rng.random() < 0.2:
            step["history_length"] = rng.choice(HISTORY_LENGTHS)
        if rng.random() < 0.15:
            if self.message_labels and rng.random() < 0.6:
                step["message"] = rng.choice(self.message_labels)
            else:
                label = f"m{len(self.message_labels)}"
                self.message_labels.append(label)
                step["message"] = label
        first_text = step["text"] if "text" in step else "\n".join(p["text"] for p in step["parts"] if "text" in p)
        sure_task = (plain and has_parts and task == "new" and step.get("context") in (None, "none", "unknown")
                     and step.get("history_length", 0) >= 0 and "message" not in step
                     and not first_text.startswith("hello"))
        if plain and has_parts and task == "new" and step.get("context") in (None, "none", "unknown") \
                and step.get("history_length", 0) >= 0 and "message" not in step:
            self.has_context = True  # a task or a message, with a context ID
        if sure_task:
            self.has_task = True
            self.has_context = True
            if rng.random() < 0.35:
                label = f"t{len(self.labels)}"
                self.labels.append(label)
                step["as"] = label
        return step

    def on_task(self, op: str) -> dict[str, Any]:
        step: dict[str, Any] = {"op": op}
        self.request_fields(step, op)
        task = self.task_ref(op)
        if task != "current" or self.rng.random() < 0.3:
            step["task"] = task
        if op == "get" and self.rng.random() < 0.35:
            step["history_length"] = self.rng.choice(HISTORY_LENGTHS)
        return step

    def list(self) -> dict[str, Any]:
        rng = self.rng
        step: dict[str, Any] = {"op": "list"}
        self.request_fields(step, "list")
        if rng.random() < 0.3:
            step["context"] = rng.choice(["none", "unknown"] + (["last"] * 2 if self.has_context else []))
        if rng.random() < 0.3:
            step["status"] = rng.choice(STATES)
        if rng.random() < 0.3:
            step["history_length"] = rng.choice(HISTORY_LENGTHS)
        if rng.random() < 0.3:
            step["include_artifacts"] = rng.choice([True, False])
        return step

    def extended_card(self) -> dict[str, Any]:
        step: dict[str, Any] = {"op": "extended_card"}
        self.request_fields(step, "extended_card")
        return step

    def step(self) -> dict[str, Any]:
        rng = self.rng
        r = rng.random()
        if r < 0.45 or not self.has_task and r < 0.6:
            return self.send()
        if r < 0.55:
            return self.card()
        if r < 0.63:
            return self.extended_card()
        if r < 0.70:
            return self.list()
        return self.on_task(rng.choice(["get", "get", "cancel", "cancel", "subscribe"]))


def a2a_sessions(seed: int, count: int) -> list[dict[str, Any]]:
    """``count`` random A2A sessions, the same for the same ``seed``."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        gen = _Generator(rng)
        steps = [gen.step() for _ in range(rng.randint(1, 7))]
        out.append({"name": f"fuzz_a2a_{seed}_{i}", "family": "a2a", "title": "random steps", "steps": steps})
    return out
