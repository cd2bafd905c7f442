"""Random MCP sessions, for differential tests of the engine against the live SDK.

``raw_sessions`` makes hand-written-line sessions (every method, envelope faults, bad ids,
batches, progress tokens, answers to the server's own requests...); ``client_sessions``
makes application sessions in every mode from the client's whole surface (every op of the
scenario format with its options, every client option, scripted answers); ``histogram`` counts
what was drawn. Left out: ``listen`` (the SDK numbers listen streams per process, so a
session's ids depend on what else the recorder's process did; see the finding
``listen-ids-per-process``).
Time is drawn only where the SDK's answer follows from it: a call's read timeout of 0.5 s, the
client's of 5 s, late answers of 0.8 s (past the one, well short of the other); a timeout on
the first request of a 2026-07-28 session would also time the server's start, so calls carry one
only after an ``initialize`` or a ``server/discover`` (legacy and auto sessions).
Both are seeded: the same seed gives the same sessions.
"""
from __future__ import annotations

import json
import random
from typing import Any

REVISION = "2026-07-28"


def _envelope(version: str = REVISION, caps: Any = None) -> dict[str, Any]:
    return {"io.modelcontextprotocol/protocolVersion": version,
            "io.modelcontextprotocol/clientCapabilities": {} if caps is None else caps}


def _line(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"))


class _RawGenerator:
    METHODS = ["tools/list", "tools/call", "tools/call", "tools/call", "resources/list", "resources/read",
               "resources/templates/list", "prompts/list", "prompts/get", "ping", "server/discover",
               "completion/complete", "logging/setLevel", "resources/subscribe", "no/such", "subscriptions/listen"]

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.next_id = 1
        self.listened = False

    def request(self, method: str, params: Any = None) -> dict[str, Any]:
        out: dict[str, Any] = {"jsonrpc": "2.0", "id": self.next_id, "method": method}
        self.next_id += 1
        if params is not None:
            out["params"] = params
        return out

    def arguments(self, tool: str) -> dict[str, Any]:
        c = self.rng.choice
        return {
            "add": lambda: {"a": c([1, -2, "3", 2.5, None, "x", True, 10**20]), "b": c([4, 0, "y", "5.0"])},
            "read_doc": lambda: {"uri": c(["docs://readme", "docs://missing", 5])},
            "count": lambda: {"n": c([0, 1, 2, -1, "2"])},
            "fail": lambda: {"reason": c(["x", ""])},
            "delete_file": lambda: {"path": c(["p", "build/"])},
            "summarise": lambda: {"text": "t"},
            "nope": lambda: {},
        }[tool]()

    def params(self, method: str, envelope: dict[str, Any] | None) -> dict[str, Any] | None:
        rng, p = self.rng, {}
        if method == "tools/call":
            tool = rng.choice(["add", "read_doc", "count", "fail", "delete_file", "summarise", "nope"])
            p = {"name": tool}
            if rng.random() < 0.85:
                p["arguments"] = self.arguments(tool)
            if rng.random() < 0.3:
                p["_meta"] = {"progressToken": rng.choice(["t", 7, True, 2.0, None])}
            if envelope is not None and rng.random() < 0.4:
                p["inputResponses"] = rng.choice([
                    {"confirm": {"action": "accept", "content": {"confirm": True}}},
                    {"summary": {"role": "assistant", "content": {"type": "text", "text": "S"}, "model": "m"}},
                    {}, {"other": {"action": "decline"}}])
        elif method == "resources/read":
            p = {"uri": rng.choice(["docs://readme", "docs://x", "", 3])}
        elif method == "prompts/get":
            p = {"name": rng.choice(["review", "review", "nope"])}
            if rng.random() < 0.8:
                p["arguments"] = rng.choice([{"code": "c"}, {}, {"code": 1}, {"code": "c", "z": "1"}])
        elif method == "subscriptions/listen":
            p = {"notifications": rng.choice([{"toolsListChanged": True}, {}, {"promptsListChanged": False},
                                              {"resourceSubscriptions": ["docs://readme"]}, {"x": 1}])}
        elif method == "completion/complete":
            p = rng.choice([{"ref": {"type": "ref/prompt", "name": "review"}, "argument": {"name": "code", "value": "x"}},
                            {"ref": {"type": "nope"}, "argument": {}}])
        elif method.endswith("/list") and rng.random() < 0.2:
            p = {"cursor": rng.choice(["abc", 5])}
        if envelope is not None:
            p.setdefault("_meta", {}).update(envelope)
        return p or None

    def line(self, stateless_bias: float, asked: list[int]) -> str:
        rng, r = self.rng, self.rng.random()
        if r < 0.05:
            return rng.choice(["{not json", "", "[]", "null", "5", _line([self.request("ping")])])
        if r < 0.10:
            return _line({"jsonrpc": "2.0", "method": rng.choice(
                ["notifications/initialized", "notifications/cancelled", "notifications/x"])})
        if r < 0.13 and asked:  # answer a request the server may have sent (its ids count from 1)
            answer = rng.choice([{"action": "accept", "content": {"confirm": rng.choice([True, False])}},
                                 {"action": "decline"},
                                 {"role": "assistant", "content": {"type": "text", "text": "S"}, "model": "m"}])
            reply: dict[str, Any] = {"jsonrpc": "2.0", "id": asked.pop(0)}
            reply.update({"result": answer} if rng.random() < 0.8 else {"error": {"code": -1, "message": "no"}})
            return _line(reply)
        if r < 0.20:
            version = rng.choice(["2025-11-25", "2024-11-05", "2025-06-18", "2030-01-01", 5, None])
            p: dict[str, Any] = {"protocolVersion": version, "capabilities": {},
                                 "clientInfo": {"name": "c", "version": "1"}}
            if version is None:
                del p["protocolVersion"]
            if rng.random() < 0.2:
                p["_meta"] = _envelope()
            return _line(self.request("initialize", p))
        if r < 0.24:
            bad = self.request("tools/list")
            bad["id"] = rng.choice([None, 1.5, "s", {"a": 1}, False, -3])
            return _line(bad)
        method = rng.choice(self.METHODS)
        if method == "subscriptions/listen":
            # Two open streams end in no fixed order when the connection closes: one at most.
            if self.listened:
                method = "tools/list"
            self.listened = True
        envelope = None
        if rng.random() < stateless_bias:
            envelope = _envelope(rng.choice([REVISION] * 6 + ["2025-11-25", "2099-01-01"]),
                                 rng.choice([{}, {}, {"elicitation": {}}, {"sampling": {}}, "x"]))
            if rng.random() < 0.05:
                del envelope["io.modelcontextprotocol/clientCapabilities"]
            if rng.random() < 0.05:
                envelope["io.modelcontextprotocol/clientInfo"] = rng.choice([{"name": "n", "version": "v"}, {"name": "n"}])
        return _line(self.request(method, self.params(method, envelope)))


def raw_sessions(seed: int, count: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    out = []
    for i in range(count):
        gen = _RawGenerator(rng)
        bias = rng.choice([0.0, 0.9, 0.5])
        asked = [1, 2, 3]
        lines = [gen.line(bias, asked) for _ in range(rng.randint(2, 10))]
        out.append({"name": f"fuzz_raw_{seed}_{i}", "family": "mcp", "mode": "raw", "title": "random lines",
                    "lines": lines})
    return out


CLIENT_OPS = ["ping", "list", "call", "call", "call", "read", "get", "complete", "set_level", "subscribe",
              "unsubscribe", "roots_changed", "progress"]
LOG_LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"]
METAS = [{"trace": "t"}, {}, {"io.modelcontextprotocol/logLevel": "info"}, {"n": 1, "deep": {"a": [1]}}]


def _client_action(rng: random.Random, gen: _RawGenerator, op: str | None = None,
                   force: bool = False, timed: bool = False) -> dict[str, Any]:
    """A random action (of ``op`` when given; ``force``: with every option it can take; ``timed``:
    a call may carry a read timeout)."""
    op = op or rng.choice(CLIENT_OPS)
    action: dict[str, Any] = {"op": op}
    if op == "list":
        action["what"] = rng.choice(["tools", "resources", "templates", "prompts"])
        if force or rng.random() < 0.3:
            action["cursor"] = rng.choice(["next", "", "page-2"])
    elif op == "call":
        tool = rng.choice(["add", "read_doc", "count", "fail", "delete_file", "summarise", "nope"])
        action["tool"] = tool
        if rng.random() < 0.9:
            action["arguments"] = gen.arguments(tool)
        if force or rng.random() < 0.3:
            action["progress"] = True
        if force or rng.random() < 0.25:
            action["cancel"] = True
        if timed and (force or rng.random() < 0.3):
            # (ample: a call the server answers must not time out on a loaded machine; the calls
            # meant to time out are laid out below, their question answered late)
            action["read_timeout_seconds"] = 5
    elif op in ("read", "subscribe", "unsubscribe"):
        action["uri"] = rng.choice(["docs://readme", "docs://nope"])
    elif op == "get":
        action.update({"prompt": rng.choice(["review", "nope"]), "arguments": rng.choice([{"code": "x = 1"}, {}])})
    elif op == "complete":
        action["ref"] = rng.choice([{"type": "ref/prompt", "name": "review"},
                                    {"type": "ref/resource", "uri": "docs://{name}"}])
        action["argument"] = {"name": rng.choice(["code", "name"]), "value": rng.choice(["", "pri", "é"])}
        if force or rng.random() < 0.4:
            action["context"] = rng.choice([{"lang": "en"}, {}, {"a": "1", "b": "2"}])
    elif op == "set_level":
        action["level"] = rng.choice(LOG_LEVELS)
    elif op == "progress":
        action.update({"token": rng.choice(["tok", 3, 0]), "progress": rng.choice([0, 1, 2.5])})
        if force or rng.random() < 0.5:
            action["total"] = rng.choice([4, 10.5])
        if force or rng.random() < 0.5:
            action["message"] = "half"
    if op in ("list", "read") and (force or rng.random() < 0.2):
        action["cache_mode"] = rng.choice(["use", "bypass", "refresh"])
    if op in ("call", "read", "get"):
        if force or rng.random() < 0.1:
            action["input_responses"] = rng.choice([
                {}, {"confirm": {"action": "accept", "content": {"confirm": True}}},
                {"summary": {"role": "assistant", "content": {"type": "text", "text": "S"}, "model": "m"}}])
        if force or rng.random() < 0.05:
            action["request_state"] = rng.choice(["", "state-1"])
    if op not in ("roots_changed", "progress", "complete", "listen") and (force or rng.random() < 0.25):
        action["meta"] = rng.choice(METAS)
    return action


def _client_info(rng: random.Random, every: bool) -> dict[str, Any]:
    """The SDK's Implementation: name and version, and now and then its optional fields (a null among them)."""
    info: dict[str, Any] = {"name": rng.choice(["host", "é-host"]), "version": rng.choice(["0", "1.2.3"])}
    optional = {"title": ["Host", "", None], "description": ["A host.", None], "websiteUrl": ["https://h.example", None],
                "icons": [[{"src": "https://h.example/i.png"}], [{"src": "s", "mimeType": "image/png", "sizes": ["16x16"],
                                                                 "theme": rng.choice(["light", "dark", None])}], [], None]}
    for key, values in optional.items():
        if every or rng.random() < 0.3:
            # (now and then by the model's Python name, which the SDK also takes)
            info[{"websiteUrl": "website_url"}.get(key, key) if not every and rng.random() < 0.25 else key] = \
                rng.choice(values)
    # (the SDK sends its fields in its own order, whatever order they were given in)
    return dict(rng.sample(sorted(info.items()), len(info)))


def client_sessions(seed: int, count: int) -> list[dict[str, Any]]:
    """Sessions that draw on the whole client surface: every op of the scenario format and its
    options (cursors, per-request _meta, cancellation), and every client option (name and
    version, roots, log level, logging callback, message handler)."""
    rng = random.Random(seed)
    gen = _RawGenerator(rng)
    out = []
    # The first sessions lay out every op, once plainly and once with every option, in each mode
    # (in a random order), so that every run reaches the whole surface; the rest are random.
    laid_out = [(op, force) for op in dict.fromkeys(CLIENT_OPS) for force in (False, True)]
    rng.shuffle(laid_out)
    for i in range(count):
        if i < 3 and laid_out:
            mode = ["legacy", REVISION, "auto"][i]
            actions = [_client_action(rng, gen, op, force, timed=mode != REVISION) for op, force in laid_out]
            actions += [{"op": "list", "what": what} for what in ("tools", "resources", "templates", "prompts")]
        else:
            mode = rng.choice(["legacy", REVISION, "auto"])
            actions = [_client_action(rng, gen, timed=mode != REVISION) for _ in range(rng.randint(1, 6))]
        session: dict[str, Any] = {"name": f"fuzz_client_{seed}_{i}", "family": "mcp",
                                   "mode": mode, "title": "random actions", "actions": actions}
        answers: dict[str, Any] = {}
        if rng.random() < 0.6:
            answers["elicitation"] = [rng.choice([{"action": "accept", "content": {"confirm": True}},
                                                  {"action": "decline"}, {"action": "cancel"},
                                                  {"action": "accept", "content": {"confirm": False}},
                                                  {"error": {"code": -32042, "message": "away", "data": {"n": 1}}}])
                                      for _ in range(len(actions))]
        if rng.random() < 0.6:
            answers["sampling"] = [{"role": "assistant", "content": {"type": "text", "text": f"summary {k}"},
                                    "model": "m", "stopReason": "endTurn"} if rng.random() < 0.85
                                   else {"error": {"code": rng.choice([-1, 3]), "message": "no model"}}
                                   for k in range(len(actions))]
        late = 0  # a late user (or model) now and then, twice a session at most (the recorder waits it out):
        for kind in answers:  # past a call's 0.5 s, short of the client's 5 s
            for k, answer in enumerate(answers[kind]):
                if late < 2 and rng.random() < 0.2:
                    answers[kind][k], late = {**answer, "delay": 0.8}, late + 1
        asked = [kind for kind in ("elicitation", "sampling") if kind in answers]
        if mode == "legacy" and asked and (i == 0 or rng.random() < 0.3):
            # a call whose question is answered late, first (so that answer is its): it times out
            kind = rng.choice(asked)
            tool = {"elicitation": ("delete_file", {"path": "build/"}), "sampling": ("summarise", {"text": "t"})}[kind]
            actions.insert(0, {"op": "call", "tool": tool[0], "arguments": tool[1], "read_timeout_seconds": 0.5})
            answers[kind][0] = {**answers[kind][0], "delay": 0.8}
        if answers:
            session["answers"] = answers
        every = i == 1  # one laid-out session has every client option
        if every or rng.random() < 0.3:
            session["client_info"] = _client_info(rng, every)
        if every or rng.random() < 0.15:
            session["read_timeout_seconds"] = 5
        if every or rng.random() < 0.15:
            session["input_required_max_rounds"] = rng.choice([0, 1, 10])
        if every or rng.random() < 0.3:
            session["roots"] = rng.choice([[], [{"uri": "file:///w", "name": "w"}], [{"uri": "file:///a"}]])
        if every or rng.random() < 0.3:
            session["log_level"] = rng.choice(LOG_LEVELS)
        for option in ("logging_callback", "message_handler"):
            if every or rng.random() < 0.2:
                session[option] = True
        if "sampling" in answers and (every or rng.random() < 0.2):
            session["sampling_capabilities"] = rng.choice([{"tools": {}}, {"context": {}, "tools": {}}, {}])
        if every or rng.random() < 0.15:
            session["extensions"] = rng.choice([{"io.example/a": {}}, {"io.example/b": {"n": 1}, "io.example/c": {}}])
        out.append(session)
    return out


def histogram(sessions: list[dict[str, Any]]) -> dict[str, int]:
    """How often each op and option was drawn (``op``, ``op.option``, ``session.option``, ``mode``)."""
    counts: dict[str, int] = {}

    def bump(key: str) -> None:
        counts[key] = counts.get(key, 0) + 1
    for session in sessions:
        bump(f"mode={session['mode']}")
        for key in ("client_info", "roots", "log_level", "logging_callback", "message_handler", "answers",
                    "sampling_capabilities", "extensions", "read_timeout_seconds", "input_required_max_rounds"):
            if key in session:
                bump(f"session.{key}")
        for key in session.get("client_info", {}):
            bump(f"client_info.{key}")
        for kind, answers in session.get("answers", {}).items():
            for answer in answers:
                if answer.get("delay"):
                    bump(f"answers.{kind}.delay")
                if "error" in answer:
                    bump(f"answers.{kind}.error")
        for action in session.get("actions", []):
            bump(action["op"])
            for key in action:
                if key not in ("op", "tool", "what", "uri", "prompt", "level", "ref", "argument", "token", "progress"):
                    bump(f"{action['op']}.{key}")
            if action["op"] == "call" and action.get("progress"):
                bump("call.progress")
            if action["op"] == "list":
                bump(f"list.{action['what']}")
            if action["op"] == "complete":
                bump(f"complete.{action['ref']['type']}")
    return dict(sorted(counts.items()))


#: every op and option the client sessions must reach in one run
EXPECTED = {"ping", "list", "call", "read", "get", "complete", "set_level", "subscribe", "unsubscribe",
            "roots_changed", "progress", "list.cursor", "list.meta", "call.meta", "call.cancel", "call.progress",
            "read.meta", "get.meta", "ping.meta", "set_level.meta", "subscribe.meta", "unsubscribe.meta",
            "complete.context", "complete.ref/prompt", "complete.ref/resource", "progress.total", "progress.message",
            "session.client_info", "session.roots", "session.log_level", "session.logging_callback",
            "session.message_handler", "session.answers", "session.extensions",
            "call.input_responses", "call.request_state", "read.input_responses", "read.request_state",
            "get.input_responses", "get.request_state", "mode=legacy", f"mode={REVISION}", "mode=auto",
            "list.tools", "list.resources", "list.templates", "list.prompts",
            "call.read_timeout_seconds", "list.cache_mode", "read.cache_mode", "session.read_timeout_seconds",
            "session.input_required_max_rounds", "client_info.title", "client_info.description",
            "client_info.websiteUrl", "client_info.icons", "answers.elicitation.delay", "answers.sampling.delay",
            "answers.elicitation.error", "answers.sampling.error"}
