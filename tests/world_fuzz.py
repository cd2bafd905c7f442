"""Random MCP worlds, drawn from a seed: signatures, types and behaviours from the world format.

`random_world(rng, index)` is a world file's JSON: a few tools whose parameters are drawn from
every kind the format has (scalars, enumerations, lists, optionals, defaults, nested models),
whose steps are drawn from every step (progress with and without total and message, loops,
questions to the user and the model, resource reads, waiting forever) and whose end is a result
built from the parameters and the answers, a tool error or a crash; some text and binary resources; prompts
with required and optional arguments. `histogram` counts what was drawn.
"""
from __future__ import annotations

import base64
import json
import random
import zlib
from collections import Counter
from typing import Any

SCALARS = ["integer", "number", "string", "boolean"]
_WORDS = ["alpha", "beta", "gamma", "delta", "omega", "sigma"]


def _kind(rng: random.Random, depth: int = 0) -> Any:
    roll = rng.random()
    if roll < 0.45 or depth > 1:
        return rng.choice(SCALARS)
    if roll < 0.6:
        return {"enum": rng.sample(_WORDS, rng.randint(1, 3))}
    if roll < 0.75:
        return {"list": _kind(rng, depth + 1)}
    if roll < 0.88:
        inner = _kind(rng, depth + 1)
        return {"optional": inner if not (isinstance(inner, dict) and "optional" in inner) else "string"}
    drawn = rng.randint(100, 999)
    fields = [{"name": f"f{i}", "type": rng.choice(SCALARS)} for i in range(rng.randint(1, 3))]
    if rng.random() < 0.5:
        fields[-1]["default"] = _value(fields[-1]["type"], rng)
    # A model's name says its fields too: two drawn alike with other fields are two models (one
    # name for both is a world the reader refuses, rightly: a seed once drew that).
    return {"object": f"M{drawn}_{zlib.crc32(json.dumps(fields).encode()) % 1000}", "fields": fields}


def _value(kind: Any, rng: random.Random) -> Any:
    if kind == "integer":
        return rng.randint(-5, 50)
    if kind == "number":
        return rng.choice([0.5, -2.25, 10.0, 3])
    if kind == "string":
        return rng.choice(_WORDS)
    if kind == "boolean":
        return rng.random() < 0.5
    if "enum" in kind:
        return rng.choice(kind["enum"])
    if "list" in kind:
        return [_value(kind["list"], rng) for _ in range(rng.randint(0, 2))]
    if "optional" in kind:
        return None if rng.random() < 0.5 else _value(kind["optional"], rng)
    return {f["name"]: _value(f["type"], rng) for f in kind["fields"]}


def _ref(names: list[str], rng: random.Random) -> Any:
    return {"$": rng.choice(names)} if names else rng.choice(_WORDS)


def _steps(rng: random.Random, names: list[str], ints: list[str], depth: int = 0) -> tuple[list[dict], list[str]]:
    steps: list[dict] = []
    names = list(names)
    for _ in range(rng.randint(0, 3)):
        roll = rng.random()
        if roll < 0.3:
            step: dict[str, Any] = {"progress": rng.randint(0, 5)}
            if rng.random() < 0.5:
                step["total"] = 5
            if rng.random() < 0.5:
                step["message"] = {"$format": "step of " + ("{%s}" % names[0] if names else "work")}
            steps.append(step)
        elif roll < 0.45 and depth == 0:
            var = f"i{rng.randint(0, 9)}"
            end: Any = rng.randint(0, 3)
            inner, _ = _steps(rng, names + [var], ints, depth + 1)
            steps.append({"for": var, "from": 1, "to": end, "do": inner or [{"progress": {"$": var}}]})
        elif roll < 0.6:
            key = f"user{len(steps)}"
            steps.append({"ask_user": key, "message": {"$format": "Sure about " + ("{%s}" % names[0] if names else "it")
                                                       + "?"},
                          "schema": {"type": "object", "properties": {"sure": {"type": "boolean"}},
                                     "required": ["sure"]}})
            names.append(key)
        elif roll < 0.75:
            key = f"model{len(steps)}"
            steps.append({"ask_model": key, "text": {"$format": "Think about " + ("{%s}" % names[0] if names else "it")},
                          "max_tokens": rng.randint(5, 60)})
            names.append(key)
        elif roll < 0.88:
            key = f"doc{len(steps)}"
            steps.append({"read": rng.choice(["res://text", "res://bin", "res://missing", "res://items/7",
                                              "res://items/..%2F.."]), "as": key})
            names.append(key)
        else:
            steps.append({"log": rng.choice(["debug", "info", "warning", "error"]),
                          "message": rng.choice([{"$format": "log " + " ".join("{%s}" % n for n in names[:2])},
                                                 {"names": [_ref(names, rng)]}])})
    return steps, names


def _result(rng: random.Random, returns: Any, params: list[dict], names: list[str]) -> Any:
    same = [p["name"] for p in params if p["type"] == returns]
    roll = rng.random()
    if same and roll < 0.4:
        return {"$": rng.choice(same)}
    if returns == "string":
        return {"$format": " / ".join("{%s}" % n for n in names[:3]) or "nothing"}
    if returns == "integer" and roll < 0.7:
        ints = [p["name"] for p in params if p["type"] == "integer"]
        return {"$add": [{"$": ints[0]}, 1]} if ints else {"$len": {"$format": "{%s}" % names[0]}} if names else 0
    if returns == "object":
        return {"names": [_ref(names, rng) for _ in range(2)], "count": len(names)}
    if returns == "null" or returns is None:
        return None
    if rng.random() < 0.1:  # a value the return annotation refuses: the SDK's output model crashes the tool
        return {"wrong": True}
    return _value(returns, rng)


#: patterns a string parameter may be drawn with (each read alike by Python's and Rust's engines)
_PATTERNS = ["^[a-z]+$", "^[A-Za-z0-9_]{1,8}$", "t", "^$", r"^\d+(\.\d+)?$"]
#: operators drawn into the cases' conditions, by the kind of the parameter they read
_CONDITIONS = {
    "integer": [lambda r, n: {"$gt": [n, r.randint(-3, 3)]}, lambda r, n: {"$eq": [{"$mod": [n, 2]}, 0]},
                lambda r, n: {"$ge": [{"$floordiv": [n, 2]}, 1]}],
    "number": [lambda r, n: {"$lt": [{"$round": [n, 0]}, 3]}, lambda r, n: {"$gt": [{"$div": [n, 2]}, 0.5]},
               lambda r, n: {"$eq": [{"$abs": n}, 2.5]}],
    "string": [lambda r, n: {"$startswith": [{"$lower": n}, "t"]}, lambda r, n: {"$in": ["x", n]},
               lambda r, n: {"$eq": [{"$len": {"$strip": n}}, 0]},
               lambda r, n: {"$eq": [{"$slice": [{"$upper": n}, 0, 2]}, "TE"]}],
    "boolean": [lambda r, n: {"$not": n}],
}


#: content blocks a tool returning content draws from
_BLOCKS = [
    {"type": "image", "data": "aGk=", "mimeType": "image/png"},
    {"type": "audio", "data": "aGk=", "mimeType": "audio/wav", "annotations": {"priority": 0}},
    {"type": "resource_link", "uri": "res://text", "name": "text", "size": 9},
    {"type": "resource", "resource": {"uri": "res://bin", "blob": "AAE="}, "annotations": {"audience": ["user"]}},
    {"type": "text", "text": "plain", "annotations": {"audience": ["assistant", "user"], "priority": 0.5}},
]


def _field_options(rng: random.Random, kind: Any, name: str) -> dict[str, Any]:
    """A parameter's ``Field`` options: a description, a title, an alias (rarely: the SDK then
    crashes every valid call), constraints its type takes."""
    options: dict[str, Any] = {}
    if rng.random() < 0.05:
        options["alias"] = f"json-{name}"
    if rng.random() < 0.4:
        options["description"] = rng.choice(["How many", "A name", "What to use"])
    if rng.random() < 0.1:
        options["title"] = "Given title"
    if rng.random() < 0.5:
        if kind == "integer":
            options |= rng.choice([{"ge": rng.randint(-2, 3)}, {"le": rng.randint(2, 9)}, {"gt": 0, "lt": 100},
                                   {"multiple_of": rng.choice([2, 3])}])
        elif kind == "number":
            options |= rng.choice([{"ge": 0}, {"lt": rng.choice([2.5, 10])}, {"gt": -1.5, "le": 1e6},
                                   {"multiple_of": 0.5}])
        elif kind == "string":
            options |= rng.choice([{"min_length": rng.randint(1, 5)}, {"max_length": rng.randint(0, 3)},
                                   {"pattern": rng.choice(_PATTERNS)}])
        elif isinstance(kind, dict) and "list" in kind:
            options |= rng.choice([{"min_length": rng.randint(1, 2)}, {"max_length": rng.randint(0, 2)}])
    return options


def _cases(rng: random.Random, params: list[dict]) -> list[dict[str, Any]]:
    """Cases that end a call by its arguments: a tool error or a crash for some values only."""
    cases = []
    for p in params:
        kind = p["type"]
        if isinstance(kind, str) and kind in _CONDITIONS and rng.random() < 0.35:
            condition = rng.choice(_CONDITIONS[kind])(rng, {"$": p["name"]})
            end = rng.choice(["tool_error", "tool_error", "crash"])
            cases.append({"when": condition, end: {"$format": "case of {%s}" % p["name"]}})
    return cases


#: a random world's store, when it has one
_STORE = {"count": 0, "items": [], "table": {"a": 1, "b": [1, 2]}}


def _state_steps(rng: random.Random, names: list[str]) -> list[dict[str, Any]]:
    """Steps that write the store and say so: each write, a conditional one, each notification."""
    steps: list[dict[str, Any]] = []
    for _ in range(rng.randint(0, 3)):
        roll = rng.random()
        if roll < 0.2:
            steps.append({"set": "count", "to": {"$add": [{"$store": "count"}, 1]}})
        elif roll < 0.35:
            steps.append({"append": "items", "value": _ref(names, rng)})
        elif roll < 0.5:
            steps.append({"set": "table", "key": {"$str": _ref(names, rng)}, "to": {"$store": "count"}})
        elif roll < 0.6:
            steps.append({"delete": "table", "key": rng.choice(["a", "b", "zz"])})
        elif roll < 0.7:
            steps.append({"if": {"$gt": [{"$store": "count"}, 0]}, "then": [{"set": "count", "to": 0}],
                          "else": [{"append": "items", "value": {"$store": "count"}}]})
        elif roll < 0.75:
            steps.append({"add_resource": {"$add": ["res://added/", {"$str": {"$store": "count"}}]},
                          "text": {"$str": _ref(names, rng)}, **({"name": "added"} if rng.random() < 0.5 else {})})
        elif roll < 0.85:
            event = rng.choice(["tools_changed", "prompts_changed", "resources_changed", "resource_updated"])
            steps.append({"notify": event, **({"uri": "res://state"} if event == "resource_updated" else {})})
        else:
            sent = rng.choice(["tool_list_changed", "prompt_list_changed", "resource_list_changed", "resource_updated"])
            steps.append({"send": sent, **({"uri": "res://state"} if sent == "resource_updated" else {})})
    return steps


def random_world(rng: random.Random, index: int) -> dict[str, Any]:
    tools = []
    for t in range(rng.randint(1, 4)):
        params: list[dict] = []
        for i in range(rng.randint(0, 4)):
            param: dict[str, Any] = {"name": f"p{i}", "type": _kind(rng)}
            after_default = any("default" in q or isinstance(q["type"], dict) and "optional" in q["type"] for q in params)
            if after_default or rng.random() < 0.25:
                param["default"] = _value(param["type"], rng)
            params.append(param)
        for i, param in enumerate(params):  # (from generators of their own: the rest is what the seed always drew)
            param.update(_field_options(random.Random(f"{index}-{t}-{i}-field"), param["type"], param["name"]))
        names = [p["name"] for p in params]
        steps, names = _steps(rng, names, [p["name"] for p in params if p["type"] == "integer"])
        # A tool that ends by waiting forever (never answered: verify calls it with a read timeout),
        # drawn from a generator of its own (the rest of the world is what the seed always drew);
        # the first tool of the first world always waits, so every run reaches it.
        if (index, t) == (0, 0) or random.Random(f"{index}-{t}-wait").random() < 0.1:
            steps = steps + [{"wait": "forever"}]
        returns = rng.choice(SCALARS + ["object", "null", None, _kind(rng)])
        tool: dict[str, Any] = {"name": f"tool_{t}" if rng.random() < 0.8 else f"tool-{t}.v{t}", "function": f"tool_{t}",
                                "description": f"Random tool {t} of world {index}.", "params": params}
        if returns is not None:
            tool["returns"] = returns
        if rng.random() < 0.3:
            tool["title"] = f"Tool {t}"
        if rng.random() < 0.3:
            tool["annotations"] = {k: rng.random() < 0.5 for k in rng.sample(
                ["read_only_hint", "destructive_hint", "idempotent_hint", "open_world_hint"], rng.randint(1, 3))}
        if steps:
            tool["steps"] = steps
        end = rng.random()
        if end < 0.8:
            tool["result"] = _result(rng, returns, params, names)
        elif end < 0.9:
            tool["tool_error"] = {"$format": "refused: " + " ".join("{%s}" % n for n in names[:2])}
        else:
            tool["crash"] = "broken"
        blocks = random.Random(f"{index}-{t}-content")
        if "result" in tool and blocks.random() < 0.15:  # content blocks in place of the value
            tool["returns"] = "content"
            tool["result"] = blocks.sample(_BLOCKS, blocks.randint(1, 3)) + [
                {"type": "text", "text": {"$format": " ".join("{%s}" % n for n in names[:2]) or "none"}}]
        cases = _cases(random.Random(f"{index}-{t}-cases"), params)
        if cases:
            tool["cases"] = cases
        tools.append(tool)
    prompts = []
    for i in range(rng.randint(0, 2)):
        prompt: dict[str, Any] = {"name": f"prompt_{i}", "description": "A prompt.",
                                  "arguments": [{"name": "topic"}, {"name": "tone", "required": rng.random() < 0.5}]}
        if random.Random(f"{index}-{i}-prompt").random() < 0.5:
            prompt["arguments"][0]["description"] = "What to write about"
        if rng.random() < 0.5:
            prompt["text"] = {"$format": "Write about {topic} ({tone})"}
        else:
            prompt["messages"] = [{"role": rng.choice(["user", "assistant"]), "text": {"$format": "{topic}, {tone}"}}
                                  for _ in range(rng.randint(1, 3))]
        prompts.append(prompt)
    completions = random.Random(f"{index}-completions")  # (a generator of its own, as above)
    if completions.random() < 0.5:
        prompts_completed = [{"prompt": p["name"], "argument": "topic", "values": completions.sample(
            ["tea", "toast", "tide", "alpha", "Tango"], completions.randint(0, 4))} for p in prompts]
        template = [{"template": "res://items/{item}", "argument": "item", "values": ["t1", "t2", "x"]}]
        extra = {"completions": prompts_completed + template[:completions.randint(0, 1)]}
    else:
        extra = {}
    server: dict[str, Any] = {key: value for key, value in (("title", f"Random {index}"), ("description", "Drawn."),
                                                            ("website_url", "https://random.example"))
                              if rng.random() < 0.3}
    resources = [{"uri": "res://text", "name": "text", "text": "some text"},
                 {"uri": "res://bin", "name": "bin", "mime_type": "application/octet-stream",
                  "blob": base64.b64encode(bytes(range(rng.randint(0, 6)))).decode()}]
    # A store, the steps that write it and a resource that reads it, from generators of their own
    # (seeded by what the seed drew: the rest of the world is what the seed always drew).
    drawn = json.dumps(tools)
    for t, tool in enumerate(tools):  # a form asked with ctx.elicit, now and then
        asks = random.Random(f"{index}-{t}-elicit-{drawn}")
        if asks.random() < 0.15:
            fields = [{"name": f"f{i}", "type": asks.choice(SCALARS + [{"enum": ["x", "y"]}, {"optional": "string"}])}
                      for i in range(asks.randint(1, 3))]
            tool["steps"] = [{"elicit": "form", "message": "Fill this in", "schema": {
                "object": f"Form{index}x{t}", "fields": fields}}] + tool.get("steps", [])
    if random.Random(f"{index}-store-{drawn}").random() < 0.5:
        for t, tool in enumerate(tools):
            names = [p["name"] for p in tool["params"]]
            state = _state_steps(random.Random(f"{index}-{t}-state-{drawn}"), names)
            if state:
                tool["steps"] = state + tool.get("steps", [])
        extra["store"] = json.loads(json.dumps(_STORE))
        resources.append({"uri": "res://state", "name": "state", "text": {"$str": {"$store": "table"}}})
        if random.Random(f"{index}-subscriptions-{drawn}").random() < 0.2:
            extra["subscriptions"] = False
    return {"kind": "mcp-server", "name": f"random-{index}", "version": f"0.{index}.0", **server, "tools": tools,
            "resources": resources,
            "templates": [{"uri_template": "res://items/{item}", "name": "item", "text": {"$format": "item {item}"}}],
            "prompts": prompts, **extra}


def histogram(worlds: list[dict[str, Any]]) -> Counter:
    """What the worlds drew: each parameter kind, return kind, step and end."""
    drawn: Counter = Counter()

    def kind_name(kind: Any) -> str:
        return kind if isinstance(kind, str) else next(iter(k for k in kind if k != "fields"))

    def walk_steps(steps: list[dict]) -> None:
        for step in steps:
            name = next(k for k in ("progress", "for", "if", "ask_user", "elicit", "ask_model", "read", "log", "wait",
                                    "set", "delete", "append", "notify", "send", "add_resource") if k in step)
            drawn[f"step {name}"] += 1
            if name == "for":
                walk_steps(step["do"])
            if name == "if":
                walk_steps(step["then"] + step.get("else", []))

    for world in worlds:
        for tool in world["tools"]:
            for p in tool["params"]:
                drawn[f"param {kind_name(p['type'])}"] += 1
                for option in ("default", "description", "title", "alias", "ge", "gt", "le", "lt", "multiple_of",
                               "min_length", "max_length", "pattern"):
                    drawn[f"param {option}"] += option in p
            for case in tool.get("cases", []):
                drawn[f"case {next(iter(case['when']))} {next(k for k in case if k != 'when')}"] += 1
            drawn[f"returns {kind_name(tool['returns']) if 'returns' in tool else 'nothing'}"] += 1
            walk_steps(tool.get("steps", []))
            drawn[f"end {next((k for k in ('result', 'tool_error', 'crash') if k in tool), 'none')}"] += 1
        drawn["prompts"] += len(world["prompts"])
        drawn["completions"] += len(world.get("completions", []))
        drawn["store"] += "store" in world
        drawn["subscriptions false"] += world.get("subscriptions") is False
    return drawn


# --- A2A agents ----------------------------------------------------------------------------------

_ENDS = ["completed", "failed", "rejected", "input_required", "auth_required", "canceled"]


def _chunk(rng: random.Random) -> Any:
    roll = rng.random()
    if roll < 0.6:
        return rng.choice(["{text}", "About {subject}: ", "done.", "part {text} of it"])
    if roll < 0.8:
        return {"data": {"n": rng.randint(0, 9), "ok": rng.random() < 0.5, "tags": rng.sample(_WORDS, 2)}}
    if roll < 0.9:
        return {"url": "https://files.example.com/" + rng.choice(_WORDS), "mediaType": "text/plain"}
    return {"raw": base64.b64encode(rng.choice(_WORDS).encode()).decode(), "filename": "a.bin"}


def _agent_steps(rng: random.Random, first: bool) -> list[dict[str, Any]]:
    if first and rng.random() < 0.2:
        return [{"reply": rng.choice(["Hello {text}", "Only {subject}."])}]
    steps: list[dict[str, Any]] = [{"create_task": True}] if first else []
    if rng.random() < 0.8:
        working: dict[str, Any] = {"status": "working"}
        if rng.random() < 0.3:
            working["text"] = "On it: {subject}"
        steps.append(working)
    for _ in range(rng.randint(0, 2)):
        steps.append({"artifact": rng.choice(["result", "notes"]), "chunks": [_chunk(rng) for _ in range(rng.randint(1, 3))]})
    end: dict[str, Any] = {"status": rng.choice(_ENDS if first else ["completed", "failed", "input_required"])}
    if rng.random() < 0.6 or end["status"] in ("input_required", "auth_required"):
        end["text"] = rng.choice(["Which {subject}?", "Done with {text}.", "No."])
    return steps + [end]


def random_agent(rng: random.Random, index: int) -> dict[str, Any]:
    """A random A2A agent world: its card, and rules drawn from every condition and step."""
    prefixes = rng.sample(["book ", "find ", "status", "hi", "plan "], rng.randint(1, 4))
    first = [{"when": rng.choice([{"starts_with": p}, {"is": p.strip()}]), "do": _agent_steps(rng, True)}
             for p in prefixes]
    first.append({"when": "otherwise", "do": _agent_steps(rng, True)})
    follow = [{"when": {"waiting_in": state}, "do": _agent_steps(rng, False)}
              for state in rng.sample(["input_required", "auth_required"], rng.randint(0, 2))]
    follow.append({"when": "otherwise", "do": _agent_steps(rng, False)})
    card = {"name": f"Agent {index}", "description": "Drawn at random.", "version": f"0.{index}",
            "url": f"https://agent{index}.example.com/" + rng.choice(["a2a", "rpc/v1", "jsonrpc"]),
            "streaming": rng.random() < 0.8,
            "default_input_modes": ["text/plain"], "default_output_modes": rng.sample(["text/plain", "application/json"], 1),
            "skills": [{"id": "s", "name": "Skill", "description": "Does it.", "tags": ["t"]}]}
    extra = random.Random(f"{index}-card")  # (a generator of its own: the rest is what the seed always drew)
    for key, value in (("push_notifications", extra.random() < 0.5), ("documentation_url", "https://docs.example.com"),
                       ("icon_url", "https://docs.example.com/i.png"),
                       ("provider", {"organization": "Drawn", "url": "https://drawn.example.com"})):
        if extra.random() < 0.4:
            card[key] = value
    if extra.random() < 0.4:
        card["skills"][0] |= {"input_modes": ["text/plain"], "output_modes": ["application/json"]}
    return {"kind": "a2a-agent", "card": card, "subject_prefix": prefixes[0], "first_message": first,
            "follow_up": follow}


def agent_histogram(worlds: list[dict[str, Any]]) -> Counter:
    drawn: Counter = Counter()
    for world in worlds:
        for key in ("first_message", "follow_up"):
            for rule in world[key]:
                drawn[f"when {rule['when'] if isinstance(rule['when'], str) else next(iter(rule['when']))}"] += 1
                for step in rule["do"]:
                    kind = next(iter(step))
                    drawn[f"{kind} {step[kind]}" if kind == "status" else kind] += 1
                    for chunk in step.get("chunks", []):
                        drawn["chunk " + ("text" if isinstance(chunk, str) else next(iter(chunk)))] += 1
    return drawn
