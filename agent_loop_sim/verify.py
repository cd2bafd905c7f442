"""``agent-loop-sim verify WORLD [SCENARIOS]``: the simulation of a user's own world, proven live.

The SDK's server or agent is built from the world file (``conformance/mcp_world.py``,
``conformance/a2a_world.py``) and recorded live against the user's scenarios, or against a tour
made from the world: for an MCP server (`tour`) every era and mode, every listing, each tool
with valid arguments and with the invalid ones its types invite, every resource and template,
every prompt with and without its optional arguments, completion; for an A2A agent
(`agent_tour`) every rule, blocking and streamed, with follow-ups, a cancel, a subscription and a
listing. The engine plays the same sessions against its reading of the same file, and every
difference is printed with its session, message, JSON path and both values.
"""
from __future__ import annotations

import json
import re
import tempfile
from pathlib import Path
from typing import Any

from dataclasses import replace

from .check import default_engine, live_differences
from .errors import InputError
from .jsonio import load_json
from .live import record_live
from .project import Project
from .protocols.mcp.annotations import Kind, Param, constraint_problem
from .protocols.mcp.definition import ServerDefinition, Tool
from .protocols.mcp.world import elicited_model
from .recording import Recording
from .scenarios import ScenarioFile, load, read_world_file

MODES = ("legacy", "2026-07-28", "auto")
#: The read timeout of each call to a tool that may never answer: long enough for an answer that
#: does come to arrive first on a busy machine (at one second, one did not, in a run beside others).
WAITING_READ_TIMEOUT = 3.0
_SAMPLE = {"integer": 3, "number": 2.5, "string": "text", "boolean": True, "null": None}


def sample(kind: Kind) -> Any:
    """A value the kind accepts."""
    if kind.name == "enum":
        return kind.values[0]
    if kind.name == "list":
        return [sample(kind.of)]  # type: ignore[arg-type]
    if kind.name == "optional":
        return sample(kind.of)  # type: ignore[arg-type]
    if kind.name == "model":
        return {f.key: sample(f.kind) for f in kind.fields}
    if kind.name == "dict":
        return {"k": 1}
    if kind.name == "mapping":
        return {"k": 1 if kind.of is None else sample(kind.of)}
    return _SAMPLE[kind.name]


def valid_arguments(tool: Tool) -> dict[str, Any]:
    return {p.key: sample_of(p) for p in tool.params}


def sample_of(p: Param) -> Any:
    """A value the parameter accepts, its constraints included where a value can be found."""
    value = sample(p.kind)
    if not p.constraints:
        return value
    for candidate in [value, *_near_bounds(p, inside=True)]:
        if constraint_problem(p.kind.name, p.constraints, candidate) is None:
            return candidate
    return value


#: texts tried for a pattern, in turn
_TEXTS = ("text", "TEXT", "Text", "t", "T", "1", "42", "a1", "A1", "abc", "ABC", "x@example.com", "2024-01-31", "")


def _near_bounds(p: Param, inside: bool) -> list[Any]:
    """Values at each of a parameter's constraints: just inside them, or just outside."""
    given, kind, out = dict(p.constraints), p.kind.name, []
    step = 1 if kind == "integer" else 0.5
    for key, bound in p.constraints:
        if key in ("ge", "le"):
            out.append(bound if inside else bound + (step if key == "le" else -step))
        elif key in ("gt", "lt"):
            out.append(bound + (step if key == "gt" else -step) if inside else bound)
        elif key == "multiple_of":
            low = given.get("ge", given.get("gt", 0))
            first = bound * max(1, -(-low // bound))
            out.append(first if inside else first + bound / 2 if kind == "number" else first + 1)
        elif key in ("min_length", "max_length"):
            length = bound + (0 if inside else (-1 if key == "min_length" else 1))
            if length >= 0:
                item = sample(p.kind.of) if kind == "list" else "t"  # type: ignore[arg-type]
                out.append([item] * length if kind == "list" else item * length)
        elif key == "pattern":
            out += [t for t in _TEXTS if (constraint_problem(kind, (("pattern", bound),), t) is None) == inside][:1]
    return out


def invalid_arguments(tool: Tool) -> list[dict[str, Any]]:
    """The wrong values a tool's types invite, one at a time, then a missing and an extra argument."""
    good = valid_arguments(tool)
    out: list[dict[str, Any]] = []
    for p in tool.params:
        for bad in _invitations(p):
            out.append({**good, p.key: bad})
    required = [p.key for p in tool.params if p.required]
    if required:
        out.append({k: v for k, v in good.items() if k != required[0]})
    out.append({**good, "unexpected": 1})
    return out


def _invitations(p: Param) -> list[Any]:
    kind = p.kind.of if p.kind.name == "optional" else p.kind
    bad: list[Any] = [None] if p.kind.name == "optional" else []
    # each constraint just met and just broken (a pattern: one text it refuses)
    near = _near_bounds(p, inside=True) + _near_bounds(p, inside=False)
    bad += [v for i, v in enumerate(near) if v not in near[:i]]
    if kind is None:
        return bad
    if kind.name == "integer":
        bad += ["3", 3.5]
    elif kind.name == "number":
        bad += ["2.5", "many"]
    elif kind.name == "boolean":
        bad += ["true", 2]
    elif kind.name == "string":
        bad += [5]
    elif kind.name == "enum":
        bad += ["not-a-choice"]
    elif kind.name == "list":
        bad += ["not a list", [None]]
    elif kind.name == "mapping":
        bad += ["not an object"] + ([{"k": None}] if kind.of is not None else [])
    elif kind.name == "model":
        required = [f for f in kind.fields if f.required]
        if required:
            bad.append({f.key: sample(f.kind) for f in kind.fields if f is not required[0]})
        bad.append("not an object")
    return bad


def _answers(tool_steps: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    answers: dict[str, list[dict[str, Any]]] = {}
    for step in tool_steps:
        if "for" in step:  # (a loop may ask again at each turn: enough answers for ten)
            for kind, items in _answers(step["do"]).items():
                answers.setdefault(kind, []).extend(items * 10)
        elif "if" in step:  # (either branch may run)
            for kind, items in _answers(step["then"] + step.get("else", [])).items():
                answers.setdefault(kind, []).extend(items)
        elif "elicit" in step:  # a value for each field of the model, each as it accepts
            content = {f.key: sample_of(f) for f in elicited_model(step["schema"]).fields}
            answers.setdefault("elicitation", []).append({"action": "accept", "content": content})
        elif "ask_user" in step:
            properties = step["schema"].get("properties", {})
            content = {name: sample(Kind(spec.get("type", "string")) if spec.get("type") in _SAMPLE else Kind("string"))
                       for name, spec in properties.items() if isinstance(spec, dict)}
            answers.setdefault("elicitation", []).append({"action": "accept", "content": content})
        elif "ask_model" in step:
            answers.setdefault("sampling", []).append(
                {"role": "assistant", "content": {"type": "text", "text": "a short answer"}, "model": "tour-model"})
    return answers


def tour(world: dict[str, Any], definition: ServerDefinition) -> list[dict[str, Any]]:
    """Sessions that visit everything ``world`` declares, in every mode."""
    sessions: list[dict[str, Any]] = []
    for mode in MODES:
        slug = {"2026-07-28": "modern"}.get(mode, mode)
        listing = [{"op": "list", "what": what} for what in ("tools", "resources", "templates", "prompts")]
        reads = [{"op": "read", "uri": r.uri} for r in definition.resources] + [{"op": "read", "uri": "missing://x"}]
        for t in definition.templates:  # a plain value, a percent-encoded one, one that climbs out of its path
            for value in ("42", "a%20b", "..%2F.."):
                reads.append({"op": "read", "uri": re.sub(r"\{[^{}]*\}", value, t.uri_template)})
            variable = re.search(r"\{([^{}]*)\}", t.uri_template)
            if variable and definition.completions is not None:  # (without a handler, one is refused alike)
                reads.append({"op": "complete", "ref": {"type": "ref/resource", "uri": t.uri_template},
                              "argument": {"name": variable.group(1), "value": "t"}})
        prompts: list[dict[str, Any]] = []
        for p in definition.prompts:
            needed = {a.name: "topic" for a in p.arguments if a.required}
            prompts.append({"op": "get", "prompt": p.name, "arguments": needed})
            if len(needed) < len(p.arguments):
                prompts.append({"op": "get", "prompt": p.name, "arguments": {a.name: "value" for a in p.arguments}})
            if p.arguments:
                prompts.append({"op": "complete", "ref": {"type": "ref/prompt", "name": p.name},
                                "argument": {"name": p.arguments[0].name, "value": "t"}})
        # A listen stream, opened and closed (2026-07-28's; one session of a file may listen, as the
        # SDK counts its streams per process).
        listen = [] if mode != "2026-07-28" else [
            {"op": "listen", "tools": True, "prompts": True, "resources": True, "uris": [r.uri for r in definition.resources]}]
        sessions.append({"name": f"{slug}_listings", "family": "mcp", "mode": mode,
                         "title": f"{mode}: every listing, resource and prompt",
                         "actions": listing + reads + prompts + listen})
        for raw, tool in zip(world.get("tools", []), definition.tools):
            answers = _answers(raw.get("steps", []))
            calls = [{"op": "call", "tool": tool.name, "arguments": valid_arguments(tool), "progress": True}]
            calls += [{"op": "call", "tool": tool.name, "arguments": bad} for bad in invalid_arguments(tool)]
            first: list[dict[str, Any]] = []
            if '"wait"' in json.dumps(raw.get("steps", [])):
                # A call that may never be answered needs a read timeout to end (arguments read as
                # invalid may be accepted: every call has one); the tools are listed first, so the
                # server's start is not on a call's clock.
                calls = [{**call, "read_timeout_seconds": WAITING_READ_TIMEOUT} for call in calls]
                first = [{"op": "list", "what": "tools"}]
            session: dict[str, Any] = {"name": f"{slug}_{_slug(tool.function)}", "family": "mcp", "mode": mode,
                                       "title": f"{mode}: {tool.name} with valid and invalid arguments",
                                       "actions": first + calls}
            if mode != "legacy":  # 2026-07-28 sends a call's log messages only at the levels it opts in to
                session["log_level"] = "info"
            if answers:
                session["actions"] = first + calls[:1]  # a question is answered once; the invalid calls ask none
                session["answers"] = answers
                sessions.append(session)
                session = {"name": f"{slug}_{_slug(tool.function)}_invalid", "family": "mcp", "mode": mode,
                           "title": f"{mode}: {tool.name} with invalid arguments", "actions": calls[1:]}
            sessions.append(session)
        if definition.store is not None:  # what one call leaves in the store, as the next ones see it
            sessions.append({"name": f"{slug}_story", "family": "mcp", "mode": mode,
                             "title": f"{mode}: every tool in turn, then every resource, one server's store throughout",
                             "actions": _story(world, definition)})
    return sessions


def _story(world: dict[str, Any], definition: ServerDefinition) -> list[dict[str, Any]]:
    """Each tool that asks nothing and ends called twice, then each resource read."""
    calls = [{"op": "call", "tool": tool.name, "arguments": valid_arguments(tool)}
             for raw, tool in zip(world.get("tools", []), definition.tools)
             if not re.search(r'"(ask_user|ask_model|elicit|wait)"', json.dumps(raw.get("steps", [])))]
    return calls + calls + [{"op": "read", "uri": r.uri} for r in definition.resources]


# --- A2A agents ---------------------------------------------------------------------------------

_WAITING = ("input_required", "auth_required")


def _holds(when: Any, text: str) -> bool:
    if when == "otherwise":
        return True
    (key, value), = when.items()
    return text.startswith(value) if key == "starts_with" else key == "is" and text == value


def _text_for(rules: list[dict[str, Any]], index: int) -> str | None:
    """A user text whose first matching rule is rule ``index`` (None if no text reaches it)."""
    when = rules[index]["when"]
    candidates = ["plan something", "0", "zz top"]
    if isinstance(when, dict) and "starts_with" in when:
        candidates = [when["starts_with"] + ("Lisbon" if when["starts_with"].endswith(" ") else " Lisbon")]
    elif isinstance(when, dict) and "is" in when:
        candidates = [when["is"]]
    for text in candidates:
        if next((i for i, r in enumerate(rules) if _holds(r["when"], text)), None) == index:
            return text
    return None


def agent_tour(world: dict[str, Any]) -> list[dict[str, Any]]:
    """Sessions that reach every first-message rule of an agent, blocking and streamed, with a
    follow-up where the task waits, a cancel, a subscription, a listing and the card."""
    sessions: list[dict[str, Any]] = []
    texts = []
    for i, rule in enumerate(world["first_message"]):
        text = _text_for(world["first_message"], i)
        if text is None:
            continue
        texts.append(text)
        statuses = [step["status"] for step in rule["do"] if "status" in step]
        waits = bool(statuses) and statuses[-1] in _WAITING
        for stream in (False, True):
            send: dict[str, Any] = {"op": "send", "text": text}
            steps: list[dict[str, Any]] = [{"op": "card"}, {**send, "stream": True} if stream else send]
            if stream and not world["card"].get("streaming"):  # refused: there is no task to read
                sessions.append({"name": f"rule_{i}_streamed", "family": "a2a",
                                 "title": f"Streamed to an agent that does not stream: {text!r}", "steps": steps})
                continue
            if any("create_task" in step for step in rule["do"]):
                steps.append({"op": "get"})
            if waits:
                follow = {"op": "send", "text": "yes please", "task": "current"}
                steps += [{**follow, "stream": True} if stream else follow, {"op": "get"}]
            sessions.append({"name": f"rule_{i}_{'streamed' if stream else 'blocking'}", "family": "a2a",
                             "title": f"{'Streamed' if stream else 'Blocking'}: {text!r} (rule {i + 1})",
                             "steps": steps})
        if waits:
            sessions.append({"name": f"rule_{i}_cancelled", "family": "a2a",
                             "title": f"{text!r} (rule {i + 1}), cancelled while it waits, then read",
                             "steps": [{"op": "send", "text": text}, {"op": "cancel"}, {"op": "get"}]})
            sessions.append({"name": f"rule_{i}_subscribed", "family": "a2a",
                             "title": f"{text!r} (rule {i + 1}), subscribed to while it waits",
                             "steps": [{"op": "send", "text": text}, {"op": "subscribe"}]})
    sessions.append({"name": "every_rule_listed", "family": "a2a", "title": "A message for every rule, then the tasks listed",
                     "steps": [{"op": "send", "text": t} for t in texts] + [{"op": "list"}]})
    return sessions


def _slug(name: str) -> str:
    return "".join(c if c.isalnum() else "_" for c in name.lower())


def family_of(world_path: str) -> str:
    """The family a world file is of, by its ``kind`` (one line and exit 2 for anything else)."""
    raw = load_json(world_path)
    kind = raw.get("kind") if isinstance(raw, dict) else None
    family = {"mcp-server": "mcp", "a2a-agent": "a2a"}.get(kind) if isinstance(kind, str) else None
    if family is None:
        raise InputError(f"a world's kind is \"mcp-server\" or \"a2a-agent\", not {kind!r}", file=world_path,
                         path="$.kind")
    return family


def world_tour(world_path: str) -> list[dict[str, Any]]:
    """The tour of the world at ``world_path`` (after reading it as the engine does)."""
    family = family_of(world_path)
    read = read_world_file(family, world_path)
    world = json.loads(Path(world_path).read_text(encoding="utf-8"))
    return tour(world, read) if family == "mcp" else agent_tour(world)


def tour_file(world_path: str, folder: str) -> str:
    """A scenario file holding the tour of the world at ``world_path``, written in ``folder``."""
    path = Path(folder) / "tour.json"
    path.write_text(json.dumps({"recording": "verify_tour.json", "world": str(Path(world_path).resolve()),
                                "sessions": world_tour(world_path)}, indent=1), encoding="utf-8")
    return str(path)


def verify(project: Project, world_path: str, scenario_paths: list[str], timeout: float, jobs: int) -> int:
    """Record the SDK's server or agent built from the world live, play the engine, print the verdict."""
    family = family_of(world_path)
    world = read_world_file(family, world_path)  # a bad world is one line before anything is recorded
    with tempfile.TemporaryDirectory(prefix="agent-loop-sim-verify-") as folder:
        failed = 0
        for path in scenario_paths or [tour_file(world_path, folder)]:
            file = load(path)
            if file.family != family:
                raise InputError(f"its sessions are {file.family} sessions, and the world is of {family}", file=path)
            file = _with_world(file, world_path, world)
            live = record_live(project, file, timeout, jobs)
            engine = default_engine()
            played = Recording(live.family, live.sdk, live.transport, live.scenarios, [engine(s) for s in file.sessions])
            diffs = live_differences(live, played)
            count = sum(len(t.messages) for t in live.sessions)
            if diffs:
                failed += 1
                print(f"DIFFERENT {world_path}: {len(diffs)} difference(s) between the live SDK and the engine "
                      f"({len(live.sessions)} sessions, {count} messages)")
                for d in diffs:
                    print("  " + d.render("SDK", "engine"))
            else:
                print(f"same {world_path}: the engine = the live SDK ({len(live.sessions)} sessions, {count} messages)")
        return 1 if failed else 0


def _with_world(file: ScenarioFile, world_path: str, world: Any) -> ScenarioFile:
    """The scenario file with its sessions played against ``world`` (verify names the world)."""
    return replace(file, world=str(Path(world_path).resolve()),
                   sessions=tuple(replace(s, world=world) for s in file.sessions))
