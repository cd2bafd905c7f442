"""R1: random single-value mutations of the committed recordings must all be caught.

Seeded and reproducible: 200 mutations spread over every committed recording; each one must
make the engine-vs-recording check fail with a difference naming the mutated session,
message and JSON path. The kill rate is printed; anything under 100 % fails.
"""
from __future__ import annotations

import copy
import random
from typing import Any

from agent_loop_sim import engine
from agent_loop_sim.compare import diff_sessions
from agent_loop_sim.jsonio import json_path
from agent_loop_sim.project import Project
from agent_loop_sim.recording import parse_recording
from agent_loop_sim.jsonio import load_json
from conftest import ROOT

SEED, COUNT = 20261202, 200


def _leaves(value: Any, path: list) -> list[list]:
    """Every path to a scalar, an empty container, or a key (for removal)."""
    if isinstance(value, dict):
        out = [path + [k] for k in value] if value else [path]
        return out + [p for k, v in value.items() for p in _leaves(v, path + [k]) if p != path + [k]]
    if isinstance(value, list):
        out = [path + [i] for i in range(len(value))] if value else [path]
        return out + [p for i, v in enumerate(value) for p in _leaves(v, path + [i]) if p != path + [i]]
    return [path]


def _get(value: Any, path: list) -> Any:
    for part in path:
        value = value[part]
    return value


def _mutate(message: dict[str, Any], rng: random.Random) -> tuple[dict[str, Any], str]:
    """One change to one value of a message; returns the message and the changed JSON path."""
    message = copy.deepcopy(message)
    if "http" in message and rng.random() < 0.2:  # A2A's HTTP envelope: a method, path, status or header
        http = message["http"]
        path = rng.choice([p for p in _leaves(http, []) if not isinstance(_get(http, p), (dict, list))])
        value = _get(http, path)
        _get(http, path[:-1])[path[-1]] = value + 1 if isinstance(value, int) else value + "x"
        return message, "$.http" + json_path(path)[1:]
    field = "json" if "json" in message else "raw"
    if field == "raw" or rng.random() < 0.05:
        key = rng.choice(["from", "sse"] if field == "json" else ["raw", "sse"])
        if key == "from":
            message["from"], message["to"] = message["to"], message["from"]
        elif key == "sse":
            message["sse"] = not message["sse"]
        else:
            message["raw"] += " "
        return message, "$." + key
    path = rng.choice(_leaves(message["json"], []))
    parent = _get(message["json"], path[:-1]) if path else None
    target = _get(message["json"], path)
    if path and rng.random() < 0.25:  # remove the member or element
        del parent[path[-1]]
        return message, json_path(path if isinstance(parent, dict) else path[:-1])
    if isinstance(target, dict):  # a new member
        target["mutant"] = 1
        return message, json_path(path + ["mutant"])
    if isinstance(target, list):  # a new element
        target.append(None)
        return message, json_path(path + [len(target) - 1])
    if isinstance(target, bool):
        new: Any = not target
    elif isinstance(target, int):
        new = target + rng.choice([-1, 1, 100])
    elif isinstance(target, float):
        new = target + 0.5
    elif isinstance(target, str):
        new = target + rng.choice(["x", " ", "\u00e9"])
    else:  # null
        new = 0
    if path:
        parent[path[-1]] = new
    else:
        message["json"] = new
    return message, json_path(path)


def test_every_single_value_mutation_is_caught(capsys):
    project = Project(ROOT)
    files = project.scenario_files()
    raw = {f.recording: load_json(project.recording_path(f)) for f in files}
    produced = {f.recording: [engine.run_session(s) for s in f.sessions] for f in files}
    rng = random.Random(SEED)
    missed = []
    for i in range(COUNT):
        name = rng.choice(sorted(raw))
        data = copy.deepcopy(raw[name])
        s = rng.randrange(len(data["sessions"]))
        session = data["sessions"][s]
        m = rng.randrange(len(session["messages"]))
        session["messages"][m], path = _mutate(session["messages"][m], rng)
        mutated = parse_recording(data, name)
        diffs = diff_sessions(mutated.sessions, produced[name])
        hit = [d for d in diffs if d.session == session["name"] and d.message == m + 1
               and (d.path == path or d.path.startswith(path) or path.startswith(d.path))]
        if not hit:
            missed.append(f"#{i} {name} {session['name']} message {m + 1} {path}: {[d.render() for d in diffs]}")
    killed = COUNT - len(missed)
    with capsys.disabled():
        print(f"\nmutation kill rate: {killed}/{COUNT} = {100 * killed / COUNT:.1f} %")
    assert missed == []


def test_the_kill_check_can_fail():
    """A 'mutation' that changes nothing is not caught, so the count above is not vacuous."""
    project = Project(ROOT)
    file = project.scenario_files()[0]
    data = load_json(project.recording_path(file))
    produced = [engine.run_session(s) for s in file.sessions]
    assert diff_sessions(parse_recording(data, "x").sessions, produced) == []
    request = next(m for m in data["sessions"][0]["messages"] if isinstance(m.get("json"), dict) and "jsonrpc" in m["json"])
    request["json"]["jsonrpc"] = "1.0"
    assert len(diff_sessions(parse_recording(data, "x").sessions, produced)) == 1
