"""Random A2A sessions, for differential tests of the engine against the live SDK.

``a2a_sessions`` makes sessions (the first of each call lays out every step kind and field)
of 1-7 steps that mix every step kind of the A2A scenario format (push-notification configs,
message roles, metadata, extensions, references, accepted output modes, page sizes; card fetches, conditional or not; sends, streamed or not, new or into the current or a
labelled task, with every context choice, single or multi-part, with a repeated message ID;
gets, cancels and subscriptions of the current, labelled or an unknown task; the extended
card; task lists), texts for each branch of the research agent, ``A2A-Version`` headers
(absent, accepted, refused, garbage), ``historyLength`` values, and method names of other
steps, of protocol 0.3, and unknown ones; values a client may send beside those: roles and
ListTasks statuses outside the enumerations, literal, repeated and missing message IDs, literal
task and context IDs, ``blocking``, a push config's token, the last answer's page token,
timestamp filters, and raw posts among the steps. ``raw_sessions`` makes raw sessions: exact bodies
with every envelope fault the engine models, and odd headers. ``histogram`` counts what was
drawn. Seeded: the same seed gives the same sessions.

They are recorded as deployed (their scenario file names no harness): the SDK's agent served
by uvicorn on one event loop, and the engine plays them under that harness's rule.

Every session is valid for the scenario validator, and also for the orchestrator at run time:
``task: "current"`` and labels are only used once a send has surely spoken of a task.

Left out, because the SDK itself is not deterministic there (or the engine refuses them):

- ListTasks over more than one task without a status timestamp: the SDK orders those by
  their random IDs. No send here leaves a task without a timestamp (every branch of the
  research agent stamps its status), so ``list`` is generated freely.
- A page token written by hand that places a page: it holds a timestamp, compared with the
  wall clock (finding a2a-list-wall-clock); the answer's own token is sent back (``next_page``).
- Two or more unknown envelope members in a raw body (see ``raw_sessions``).
- Two messages the agent crashes on (an empty text) before a ListTasks: with a2a-sdk 1.2.2 both
  failed tasks lack a timestamp (finding a2a-agent-crash), so no step sends an empty text.
- A subscription that the agent would keep open with nothing for the orchestrator to wait
  for: it cannot happen with this agent (a task that can be subscribed to is parked, and the
  orchestrator closes the stream after its first event).
"""
from __future__ import annotations

import json
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
    "push_config": ["tasks/pushNotificationConfig/set", "tasks/pushNotificationConfig/get"],
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
#: Values outside the enumerations: names protobuf does not define (dropped, so the field is
#: unset), numbers it does not define (kept: proto3 enums are open), a number as a string.
DEFINED_ROLES = ("ROLE_USER", "ROLE_AGENT", "ROLE_UNSPECIFIED")
ODD_ROLES = ["ROLE_BOSS", 7, "1", 2, "", -1]
ODD_STATES = ["TASK_STATE_BOGUS", 42, 3, "6", ""]
#: Ids the application chooses: one that repeats across steps, empty, absent (None).
MESSAGE_IDS = ["msg-app-1", "msg-app-1", "msg-app-2", "", None]
CONTEXT_IDS = ["ctx-app", "ctx-app", ""]
TASK_IDS = ["task-nobody-made", ""]
TIMESTAMPS = ["2000-01-01T00:00:00Z", "2999-12-31T23:59:59.999Z", "2000-01-01T00:00:00+01:00", "2000-01-01",
              "2000-01-01T00:00:00", "2000-01-01t00:00:00Z", "2000-02-30T00:00:00Z", "2000-01-01T00:00:00.1234567890Z"]
#: Raw posts among ordinary steps: wrong types, a batch, a send made by hand (its task becomes current).
RAW_STEP_BODIES = [
    '{"jsonrpc": "2.0", "id": 90, "method": "GetTask", "params": {"id": 7}}',
    '{"jsonrpc": "2.0", "id": 91, "method": "SendMessage", "params": {"message": {"messageId": "raw-1", '
    '"role": "ROLE_USER", "parts": "invalid"}}}',
    '{"jsonrpc": "2.0", "id": 92, "method": "SendMessage", "params": {"message": {"messageId": "raw-2", '
    '"role": "ROLE_USER", "parts": [{"text": 5}]}}}',
    '{"jsonrpc": "2.0", "id": 93, "method": "ListTasks", "params": {"status": "TASK_STATE_BOGUS", "pageSize": "2"}}',
    '[{"jsonrpc": "2.0", "id": 94, "method": "GetTask"}]',
    '{"jsonrpc": "2.0", "id": 96, "method": "GetTask", "params": ["id"]}',
]
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
        self.sends = 0  # the most tasks the session can hold
        self.listed = False  # a ListTasks answer gave a page token (maybe empty)

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
        self.sends += 1
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
        self.message_fields(step, task, text)
        if rng.random() < 0.1:
            step["message_id"] = rng.choice(MESSAGE_IDS)
        elif rng.random() < 0.15:
            if self.message_labels and rng.random() < 0.6:
                step["message"] = rng.choice(self.message_labels)
            else:
                label = f"m{len(self.message_labels)}"
                self.message_labels.append(label)
                step["message"] = label
        first_text = step["text"] if "text" in step else "\n".join(p["text"] for p in step["parts"] if "text" in p)
        if task == "new" and rng.random() < 0.06:
            step["task_id"] = rng.choice(TASK_IDS)
        if "context" not in step and rng.random() < 0.08:
            step["context_id"] = rng.choice(CONTEXT_IDS)
        if rng.random() < 0.06:
            step["blocking"] = rng.choice([False, True])
        others = any(key in step for key in ("role", "reference_tasks", "push_url", "accepted_output_modes",
                                             "message_id", "task_id", "context_id"))
        sure_task = (plain and has_parts and task == "new" and step.get("context") in (None, "none", "unknown")
                     and not others
                     and step.get("history_length", 0) >= 0 and "message" not in step
                     and not first_text.startswith("hello"))
        if plain and has_parts and task == "new" and step.get("context") in (None, "none", "unknown") \
                and step.get("history_length", 0) >= 0 and "message" not in step and not others:
            self.has_context = True  # a task or a message, with a context ID
        if sure_task:
            self.has_task = True
            self.has_context = True
            if rng.random() < 0.35:
                label = f"t{len(self.labels)}"
                self.labels.append(label)
                step["as"] = label
        return step

    def message_fields(self, step: dict[str, Any], task: str, text: str) -> None:
        """The message's and request's other fields: role, metadata, extensions, references,
        accepted output modes, a push config. The agent only makes a task of a user's message,
        so another role is sent only where no task is made (a greeting, a follow-up)."""
        rng = self.rng
        if rng.random() < 0.15:
            roles = ["ROLE_USER", "ROLE_UNSPECIFIED"]
            if task != "new" or text.startswith("hello"):
                roles.append("ROLE_AGENT")
            step["role"] = rng.choice(roles + [rng.choice(ODD_ROLES)])
        if rng.random() < 0.15:
            step["metadata"] = {"m": rng.choice(ODD_VALUES)}
        if rng.random() < 0.12:
            step["extensions"] = rng.choice([["urn:a"], [], ["https://example.com/ext", "urn:b"]])
        if rng.random() < 0.12:
            step["reference_tasks"] = rng.sample(["unknown"] + (["current"] + self.labels if self.has_task else []), 1)
        if rng.random() < 0.12:
            step["request_metadata"] = {"r": rng.choice(ODD_VALUES)}
        if rng.random() < 0.15:
            step["accepted_output_modes"] = rng.choice([["text/plain"], ["image/png"], [], ["text/plain", "*/*"]])
        if rng.random() < 0.08:
            step["push_url"] = rng.choice(["https://orchestrator.example.com/push", ""])
            if rng.random() < 0.5:
                step["push_token"] = rng.choice(["secret-1", ""])
        if rng.random() < 0.1:
            step["return_immediately"] = rng.choice([True, False])

    def push_config(self) -> dict[str, Any]:
        rng = self.rng
        step: dict[str, Any] = {"op": "push_config", "action": rng.choice(["create", "get", "list", "delete"])}
        self.request_fields(step, "push_config")
        if not self.has_task or rng.random() < 0.3:
            step["task"] = self.task_ref("push_config")
        for key, values in (("id", ["cfg1", ""]), ("url", ["https://o.example.com/push", ""]), ("token", ["t0k"]),
                            ("page_size", [0, 5, -1]), ("page_token", ["", "next"])):
            if rng.random() < 0.3:
                step[key] = rng.choice(values)
        return step

    def on_task(self, op: str) -> dict[str, Any]:
        step: dict[str, Any] = {"op": op}
        self.request_fields(step, op)
        task = self.task_ref(op)
        if self.rng.random() < 0.08:
            step["task_id"] = self.rng.choice(TASK_IDS)
        elif task != "current" or self.rng.random() < 0.3:
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
            step["status"] = rng.choice(STATES + [rng.choice(ODD_STATES)])
        if rng.random() < 0.3:
            step["history_length"] = rng.choice(HISTORY_LENGTHS)
        if rng.random() < 0.12:
            step["status_timestamp_after"] = rng.choice(TIMESTAMPS)
        if rng.random() < 0.3:
            step["include_artifacts"] = rng.choice([True, False])
        if rng.random() < 0.3:
            step["page_size"] = rng.choice([1, 1, 2, 5, 0, -1, 100, 101])
        if self.listed and rng.random() < 0.4:
            step["next_page"] = True  # the last answer's token
        elif rng.random() < 0.15:
            # Tokens written by hand place no page (one that does holds a timestamp: see above).
            step["page_token"] = rng.choice(["next", "%%%", "/w", "", "bm8tc3VjaC10YXNr", "e30", "eyJ0cyI6MX0"])
        answered = ("method" not in step and step.get("version", "1.0") in ACCEPTED
                    and step.get("page_size", 1) in (1, 2, 5, 100) and step.get("history_length", 0) >= 0
                    and step.get("status_timestamp_after", TIMESTAMPS[0]) in TIMESTAMPS[:3]
                    and step.get("page_token", "") == "")
        self.listed = self.listed or answered  # (an answer with a token, maybe empty, to send back)
        return step

    def raw(self) -> dict[str, Any]:
        """A raw post among the steps; none of these leaves a task the steps after count on."""
        step: dict[str, Any] = {"op": "raw", "body": self.rng.choice(RAW_STEP_BODIES)}
        if self.rng.random() < 0.2:
            step["headers"] = [["Content-Type", "application/json"]]
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
        if r < 0.76:
            return self.push_config()
        if r < 0.80:
            return self.raw()
        return self.on_task(rng.choice(["get", "get", "cancel", "cancel", "subscribe"]))


def _laid_out(rng: random.Random) -> list[dict[str, Any]]:
    """Every step kind and field once, with random values, so that every run reaches them all."""
    c = rng.choice
    return [
        {"op": "card"},
        {"op": "send", "text": "summarise the meeting", "metadata": {"m": c(ODD_VALUES)}, "extensions": ["urn:a"],
         "request_metadata": {"r": c(ODD_VALUES)}, "accepted_output_modes": c([["text/plain"], ["image/png"]]),
         "history_length": c([0, 1, 5]), "return_immediately": c([True, False])},
        {"op": "send", "text": "hello", "role": c(["ROLE_AGENT", "ROLE_UNSPECIFIED", "ROLE_USER"]),
         "reference_tasks": ["current"], "context": "last", "push_url": c(["https://o.example.com/push", ""])},
        {"op": "send", "parts": [{"text": "summarise the notes"}, {"data": {"n": c(ODD_VALUES)}}], "stream": True,
         "as": "notes"},
        {"op": "list", "page_size": c([1, 5, 0, 101]), "status": c(STATES), "context": "last",
         "include_artifacts": c([True, False])},
        {"op": "list", "page_token": c(["next", "%%%", "bm8tc3VjaC10YXNr"])},
        {"op": "send", "text": "summarise the meeting", "message_id": c(MESSAGE_IDS[:2]), "context_id": "ctx-app",
         "blocking": False, "push_url": "https://o.example.com/push", "push_token": "secret-1"},
        {"op": "send", "text": "hello", "role": c(ODD_ROLES), "message_id": "msg-app-1"},
        {"op": "list", "page_size": 1, "status": c(ODD_STATES)},
        {"op": "list", "page_size": 1, "next_page": True, "status_timestamp_after": c(TIMESTAMPS)},
        {"op": "raw", "body": c(RAW_STEP_BODIES)},
        {"op": "get", "task_id": c(TASK_IDS)}, {"op": "send", "text": "x", "task_id": c(TASK_IDS)},
        {"op": "push_config", "action": "create", "url": "https://o.example.com/push", "token": "t", "id": "c1"},
        {"op": "push_config", "action": "get", "id": c(["c1", ""])},
        {"op": "push_config", "action": "list", "page_size": c([0, 5])},
        {"op": "push_config", "action": "delete", "id": "c1", "task": c(["current", "unknown"])},
        {"op": "get", "history_length": c([0, 2])}, {"op": "get", "task": "notes"}, {"op": "subscribe"}, {"op": "cancel"}, {"op": "extended_card"},
    ]


def a2a_sessions(seed: int, count: int) -> list[dict[str, Any]]:
    """``count`` A2A sessions, the same for the same ``seed``: the first lays out every step kind
    and field, the rest are random."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        gen = _Generator(rng)
        steps = _laid_out(rng) if i == 0 else [gen.step() for _ in range(rng.randint(1, 7))]
        out.append({"name": f"fuzz_a2a_{seed}_{i}", "family": "a2a", "title": "random steps", "steps": steps})
    return out


SEND = {"message": {"messageId": "m-1", "role": "ROLE_USER", "parts": [{"text": "hello"}]}}
RAW_BODIES = [
    "{not json", "", "[]", "[1, 2]", "42", "null", '"x"', "{\"jsonrpc\": \"2.0\", \"id\": 1,",
]


def _raw_body(rng: random.Random, n: int) -> str:
    """One body: a request of any method, then maybe broken at one place of the envelope."""
    method = rng.choice(ALL_METHODS + ["", "rpc.x", "GetTask"])
    body: dict[str, Any] = {"jsonrpc": "2.0", "id": n, "method": method}
    body["params"] = rng.choice([SEND, {"id": "t"}, {}, {"taskId": "t", "id": "c"}, {"message": {}}])
    r = rng.random()
    if r < 0.08:
        return rng.choice(RAW_BODIES)
    if r < 0.14:
        return json.dumps([body] * rng.randint(1, 2))
    if r < 0.2:
        del body["jsonrpc"]
    elif r < 0.26:
        body["jsonrpc"] = rng.choice(["1.0", 2.0, None])
    elif r < 0.34:
        body["id"] = rng.choice([None, 1.5, True, {"a": 1}, [1], "s-1", -3, 10**20])
    elif r < 0.4:
        del body["id"]
    elif r < 0.46:
        body["params"] = rng.choice([[], [1, "x"], "t", 5, None])
    elif r < 0.5:
        del body["params"]
    elif r < 0.54:
        body["extra"] = 1  # one extra member: with two, the SDK's message depends on the hash seed
    elif r < 0.58:
        body["method"] = rng.choice([5, None, ["GetTask"]])
    return json.dumps(body)


def raw_sessions(seed: int, count: int) -> list[dict[str, Any]]:
    """Raw sessions: exact bodies (every envelope fault the engine models) and headers.

    Left out: a body with two or more unknown members, or missing both ``jsonrpc`` and
    ``method`` (the SDK names them as a Python set, in an order that depends on the hash seed),
    and params arrays naming a field or holding objects (protobuf's parser fails on them with
    messages the engine does not model)."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        posts = []
        for n in range(rng.randint(1, 6)):
            post: dict[str, Any] = {"body": _raw_body(rng, n + 1)}
            if rng.random() < 0.2:
                post["headers"] = rng.choice([[["Content-Type", "application/json"]],
                                              [["Content-Type", "text/plain"], ["A2A-Version", "1.0"]],
                                              [["A2A-Version", rng.choice(VERSIONS[1:6]) or "x"]]])
            posts.append(post)
        out.append({"name": f"fuzz_a2a_raw_{seed}_{i}", "family": "a2a", "mode": "raw", "title": "random posts",
                    "posts": posts})
    return out


def _raw_kind(body: str) -> str:
    """Which envelope fault a raw body shows (``request.METHOD`` when none)."""
    try:
        data = json.loads(body)
    except ValueError:
        return "not_json"
    if isinstance(data, list):
        return "batch"
    if not isinstance(data, dict):
        return "not_object"
    for kind, broken in (("no_jsonrpc", "jsonrpc" not in data), ("bad_jsonrpc", data.get("jsonrpc") != "2.0"),
                         ("extra_member", "extra" in data), ("bad_method", not isinstance(data.get("method"), str)),
                         ("no_id", "id" not in data), ("no_params", "params" not in data),
                         ("params_not_object", not isinstance(data.get("params"), dict)),
                         ("odd_id", not isinstance(data.get("id"), int) or isinstance(data.get("id"), bool))):
        if broken:
            return kind
    return f"request.{data['method'] or 'empty'}"


def histogram(sessions: list[dict[str, Any]]) -> dict[str, int]:
    """How often each step kind, method and field was drawn."""
    counts: dict[str, int] = {}

    def bump(key: str) -> None:
        counts[key] = counts.get(key, 0) + 1
    for session in sessions:
        for post in session.get("posts", []):
            bump(f"raw.{_raw_kind(post['body'])}")
            if "headers" in post:
                bump("raw.headers")
        literal_ids: set[Any] = set()
        for step in session.get("steps", []):
            op = step["op"] if step["op"] != "push_config" else f"push_config.{step['action']}"
            bump(op)
            for key in step:
                if key not in ("op", "action"):
                    bump(f"{op}.{key}")
            if "role" in step and step["role"] not in DEFINED_ROLES:
                bump("role.outside_enum")
            if "status" in step and step["status"] not in STATES:
                bump("status.outside_enum")
            if "message_id" in step:
                bump("message_id.missing" if step["message_id"] is None else
                     "message_id.repeated" if step["message_id"] in literal_ids else "message_id.literal")
                literal_ids.add(step["message_id"])
    return dict(sorted(counts.items()))


#: what one run of the step sessions must reach
EXPECTED = {"card", "send", "get", "cancel", "subscribe", "extended_card", "list", "push_config.create",
            "push_config.get", "push_config.list", "push_config.delete", "send.role", "send.metadata",
            "send.extensions", "send.reference_tasks", "send.request_metadata", "send.accepted_output_modes",
            "send.push_url", "send.return_immediately", "send.history_length", "send.stream", "send.context", "send.parts", "list.page_size", "list.page_token",
            "list.status", "list.context", "list.include_artifacts", "list.next_page", "list.status_timestamp_after",
            "raw", "raw.body", "send.message_id", "send.context_id", "send.task_id", "send.blocking",
            "send.push_token", "get.task_id", "role.outside_enum", "status.outside_enum", "message_id.repeated"}
