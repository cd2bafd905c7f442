"""World files: read with one-line errors, built into the SDK's server, and proven live (verify).

The committed worlds' recordings are checked like every other (``check``, ``record --check``);
here: what a bad world file gets, that the SDK program and the engine derive the same schemas
and argument verdicts from every world, that ``verify`` catches an engine that answers wrongly,
and random worlds drawn from a seed, recorded live and compared (`world_fuzz`).
"""
from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from pydantic import ValidationError

from agent_loop_sim.errors import InputError
from agent_loop_sim.protocols.mcp import FIXTURE_SERVER
from agent_loop_sim.protocols.mcp.definition import ArgumentsRejected
from agent_loop_sim.protocols.mcp.fixture import FIXTURE_WORLD
from agent_loop_sim.protocols.mcp.world import read_world
from agent_loop_sim.verify import invalid_arguments, valid_arguments
from conftest import ROOT, fuzz_seed
import world_fuzz  # noqa: E402  (tests/ is on the path, as conftest)

sys.path.insert(0, str(ROOT / "conformance"))
import mcp_world  # noqa: E402

WORLDS = [p for p in [FIXTURE_WORLD, *sorted((ROOT / "worlds").glob("*.json"))]
          if json.loads(p.read_text())["kind"] == "mcp-server"]


def _cli(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "agent_loop_sim", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=120)


@pytest.mark.parametrize("path", WORLDS, ids=[p.stem for p in WORLDS])
def test_the_sdk_program_and_the_engine_derive_the_same_tools(path: Path):
    """Schemas, descriptions and every argument verdict the tour tries, from the SDK's own
    MCPServer (built from the file) and from the engine's reading of it."""
    raw = json.loads(path.read_text())
    engine = read_world(raw, str(path))
    sdk = mcp_world.build(path)
    for tool in engine.tools:
        sdk_tool = sdk._tool_manager.get_tool(tool.name)
        assert tool.input_schema() == sdk_tool.parameters, tool.name
        assert tool.output_schema() == sdk_tool.fn_metadata.output_schema, tool.name
        assert tool.description == sdk_tool.description
        for arguments in [valid_arguments(tool), *invalid_arguments(tool)]:
            try:
                expected = ("ok", sdk_tool.fn_metadata.pre_parse_json(arguments))
                expected = ("ok", sdk_tool.fn_metadata.arg_model.model_validate(expected[1]).model_dump())
            except ValidationError as exc:
                expected = ("rejected", str(exc).replace("Arguments\n", "Arguments\n", 1))
            try:
                got = ("ok", tool.validate(arguments))
            except ArgumentsRejected as exc:
                got = ("rejected", str(exc))
            if expected[0] == "ok":
                assert got[0] == "ok", (tool.name, arguments, got)
            else:
                assert got == expected, (tool.name, arguments)


def test_the_fixture_world_is_the_engines_fixture():
    assert [t.name for t in FIXTURE_SERVER.tools] == ["add", "read_doc", "count", "delete_file", "summarise", "fail"]


BAD_WORLDS = {
    "unknown type": ({"tools": [{"name": "t", "params": [{"name": "a", "type": "decimal"}]}]},
                     "$.tools[0].params[0].type", "unknown type 'decimal'"),
    "a name that does not exist": ({"tools": [{"name": "t", "params": [{"name": "a", "type": "integer"}],
                                               "result": {"$add": [{"$": "a"}, {"$": "b"}]}}]},
                                   '$.tools[0].result["$add"][1]["$"]', "'b' names nothing here"),
    "a template naming nothing": ({"tools": [{"name": "t", "result": {"$format": "{nope}"}}]},
                                  '$.tools[0].result["$format"]', "{nope} is not a plain name"),
    "a format spec": ({"tools": [{"name": "t", "params": [{"name": "a", "type": "integer"}],
                                  "result": {"$format": "{a:999999999}"}}]},
                      '$.tools[0].result["$format"]', "no format specs"),
    "a recursive type": ({"tools": [{"name": "t", "params": [{"name": "n", "type": {"object": "Node", "fields": [
        {"name": "child", "type": {"object": "Node"}}]}}]}]}, "$.tools[0].params[0].type.fields[0].type",
                         "recursive and forward references are not modelled"),
    "a hostile function name": ({"tools": [{"name": "__import__('os').system('x')"}]}, "$.tools[0].name",
                                "must be a Python identifier"),
    "a parameter named ctx": ({"tools": [{"name": "t", "params": [{"name": "ctx", "type": "string"}]}]},
                              "$.tools[0].params[0].name", "not 'ctx'"),
    "a reserved function name": ({"tools": [{"name": "types"}]}, "$.tools[0].name", "the SDK program uses itself"),
    "10,000 tools": ({"tools": [{"name": f"t{i}"} for i in range(10_000)]}, "$.tools", "over the limit of 1,000"),
    "an unknown step": ({"tools": [{"name": "t", "steps": [{"sleep": 5}]}]}, "$.tools[0].steps[0]",
                        "a step is one of"),
    "two ends": ({"tools": [{"name": "t", "result": 1, "crash": "x"}]}, "$.tools[0]", "a tool ends one way"),
    "bad base64": ({"resources": [{"uri": "x://y", "name": "y", "blob": "%%%"}]}, "$.resources[0].blob",
                   "not base64"),
    "a case without an end": ({"tools": [{"name": "t", "cases": [{"when": True}]}]}, "$.tools[0].cases[0]",
                              "a case ends the call one way"),
    "a case naming nothing": ({"tools": [{"name": "t", "cases": [{"when": {"$": "x"}, "result": 1}]}]},
                              '$.tools[0].cases[0].when["$"]', "'x' names nothing here"),
    "a constraint of another type": ({"tools": [{"name": "t", "params": [{"name": "a", "type": "string", "ge": 1}]}]},
                                     "$.tools[0].params[0].ge", "ge constrains a parameter of type integer or number"),
    "a pattern that backtracks": ({"tools": [{"name": "t", "params": [{"name": "a", "type": "string",
                                                                         "pattern": "^(a+)+$"}]}]},
                                  "$.tools[0].params[0].pattern", "a repeat inside a repeat is not modelled"),
    "an optional argument before a required one": ({"prompts": [{"name": "p", "text": "x", "arguments": [
        {"name": "a", "required": False}, {"name": "b"}]}]}, "$.prompts[0].arguments[1]",
        "an argument without a default follows one with a default"),
    "a completion of two things": ({"completions": [{"prompt": "p", "template": "t://{x}", "argument": "a",
                                                     "values": []}]}, "$.completions[0]", "a completion is for a prompt"),
    "a template's case without an end": ({"templates": [{"uri_template": "t://{x}", "name": "t", "text": "x",
                                                          "cases": [{"when": True}]}]}, "$.templates[0].cases[0]",
                                         "a template's case refuses the read one way"),
    "an operator given too few operands": ({"tools": [{"name": "t", "result": {"$slice": ["abc", 1]}}]},
                                           '$.tools[0].result["$slice"]', "takes a list of 3"),
    "a store too large": ({"store": {"big": "x" * 1_000_001}}, "$.store", "over the limit of 1,000,000"),
    "a write to an undeclared store entry": ({"store": {"a": 1}, "tools": [{"name": "t", "steps": [
        {"set": "b", "to": 2}]}]}, "$.tools[0].steps[0].set", "'b' is not in the world's store"),
    "a read of the store without one": ({"tools": [{"name": "t", "result": {"$store": "a"}}]},
                                        '$.tools[0].result["$store"]', "'a' is not in the world's store"),
    "a resource update without its uri": ({"tools": [{"name": "t", "steps": [{"notify": "resource_updated"}]}]},
                                          "$.tools[0].steps[0]", "a uri is given with resource_updated"),
    "a TypedDict field with a default": ({"tools": [{"name": "t", "returns": {"typed_dict": "P", "fields": [
        {"name": "x", "type": "integer", "default": 1}]}}]}, "$.tools[0].returns.fields[0].default",
        "a TypedDict's field has no default"),
    "an elicitation asking for a list": ({"tools": [{"name": "t", "steps": [{"elicit": "a", "message": "m", "schema": {
        "object": "F", "fields": [{"name": "x", "type": {"list": "string"}}]}}]}]},
        "$.tools[0].steps[0].schema.fields[0].type", "an elicitation's field is a text"),
    "an event the SDK does not publish": ({"tools": [{"name": "t", "steps": [{"notify": "roots_changed"}]}]},
                                          "$.tools[0].steps[0].notify", "roots_changed"),
}


@pytest.mark.parametrize("name", BAD_WORLDS)
def test_a_bad_world_is_one_line_naming_file_and_path_and_exit_2(name: str, tmp_path: Path):
    body, path, said = BAD_WORLDS[name]
    world = tmp_path / "world.json"
    world.write_text(json.dumps({"kind": "mcp-server", "name": "w", "version": "1", **body}))
    done = _cli("verify", str(world))
    assert done.returncode == 2, (name, done.stdout, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr, (name, done.stderr)
    assert str(world) in lines[0] and f"at {path}" in lines[0] and said in lines[0], (name, lines[0])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["world.json"], "nothing is written"


def test_a_good_world_passes_the_same_reading(tmp_path: Path):
    """The control of the test above: the fixture world is read without a word."""
    with pytest.raises(InputError):
        read_world({"kind": "mcp-server", "name": "w"}, "w.json")  # (missing version)
    assert read_world(json.loads(FIXTURE_WORLD.read_text()), str(FIXTURE_WORLD)).name == "fixture-server"


def test_the_generator_refuses_code_in_a_name():
    """The SDK side never trusts a name it writes into the program, even if the engine did not read it first."""
    with pytest.raises(mcp_world.WorldCodeError):
        mcp_world.source({"name": "w", "version": "1", "tools": [{"name": "x(): pass\nimport os\ndef y"}]})
    source = mcp_world.source({"name": "w\"); import os; (\"", "version": "1", "tools": [
        {"name": "t", "description": "'''\nimport os\n'''", "result": "\"); import os"}]})
    compile(source, "<world>", "exec")  # texts are literals: it compiles, and imports nothing of theirs
    assert "\nimport os\n" not in source


def test_verify_sees_an_engine_that_answers_wrongly(tmp_path: Path):
    """verify can fail: the world says a + b; a copy of the checkout's engine that subtracts is
    caught, message and path named, exit 1; the same tour against the real engine says same."""
    world = tmp_path / "adder.json"
    world.write_text(json.dumps({"kind": "mcp-server", "name": "adder", "version": "1", "tools": [
        {"name": "plus", "params": [{"name": "a", "type": "integer"}, {"name": "b", "type": "integer"}],
         "returns": "integer", "result": {"$add": [{"$": "a"}, {"$": "b"}]}}]}))
    scenario = tmp_path / "s.json"
    scenario.write_text(json.dumps({"recording": "x.json", "sessions": [
        {"name": "plus_once", "family": "mcp", "mode": "legacy", "title": "t",
         "actions": [{"op": "call", "tool": "plus", "arguments": {"a": 2, "b": 3}}]}]}))
    done = _cli("verify", str(world), str(scenario))
    assert done.returncode == 0 and "same" in done.stdout, done.stdout + done.stderr
    copy = tmp_path / "checkout"  # the sources the verdict depends on, one line of the engine changed
    shutil.copytree(ROOT / "agent_loop_sim", copy / "agent_loop_sim", ignore=shutil.ignore_patterns("__pycache__"))
    for folder in ("scripts", "conformance"):
        shutil.copytree(ROOT / folder, copy / folder, ignore=shutil.ignore_patterns("__pycache__"))
    world_py = copy / "agent_loop_sim" / "protocols" / "mcp" / "world.py"
    text = world_py.read_text()
    assert '"$add": operator.add,' in text
    world_py.write_text(text.replace('"$add": operator.add,', '"$add": operator.sub,'))
    done = subprocess.run([sys.executable, "-m", "agent_loop_sim", "--root", str(copy), "verify", str(world),
                           str(scenario)], cwd=copy, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "session 'plus_once', message" in done.stdout and "$.result.content[0].text: SDK \"5\", engine \"-1\"" \
        in done.stdout, done.stdout


WORLD_FUZZ_SEED = fuzz_seed()[0]  # (drawn from the commit, printed; AGENT_LOOP_SIM_FUZZ_SEED replays one)
WORLD_FUZZ_COUNT = 4


def test_random_worlds_equal_the_live_sdk(tmp_path: Path, op_histogram):
    """Random worlds (world_fuzz) and their tours, recorded live from the SDK server built from
    each, equal to the engine; the seed and what was drawn are printed, a failure names the world."""
    rng = random.Random(WORLD_FUZZ_SEED)
    worlds = [world_fuzz.random_world(rng, i) for i in range(WORLD_FUZZ_COUNT)]
    op_histogram(f"random worlds (seed {WORLD_FUZZ_SEED}, {len(worlds)} worlds)", dict(world_fuzz.histogram(worlds)))
    for i, world in enumerate(worlds):
        path = tmp_path / f"random-{i}.json"
        path.write_text(json.dumps(world, indent=1))
        done = _cli("verify", str(path))
        assert done.returncode == 0 and "same" in done.stdout, (
            f"seed {WORLD_FUZZ_SEED}, world {i} ({path}):\n{json.dumps(world)}\n{done.stdout[-3000:]}{done.stderr[-2000:]}")


BAD_AGENTS = {
    "an unknown state": ({"first_message": [{"when": "otherwise", "do": [{"status": "sleeping"}]}]},
                         '$.first_message[0].do[0].status', "'sleeping' is not one of"),
    "a template naming nothing": ({"first_message": [{"when": "otherwise", "do": [{"reply": "{user}"}]}]},
                                  '$.first_message[0].do[0].reply', "{user} is not {text} or {subject}"),
    "an unknown condition": ({"first_message": [{"when": {"contains": "x"}, "do": []}]},
                             '$.first_message[0].when', "unknown condition 'contains'"),
    "a card without a path": ({"card": {"name": "a", "description": "d", "version": "1", "url": "ftp://x"}},
                              '$.card.url', "http(s) address"),
}


@pytest.mark.parametrize("name", BAD_AGENTS)
def test_a_bad_agent_world_is_one_line_naming_file_and_path_and_exit_2(name: str, tmp_path: Path):
    body, path, said = BAD_AGENTS[name]
    world = tmp_path / "agent.json"
    good = {"kind": "a2a-agent", "card": {"name": "a", "description": "d", "version": "1", "url": "https://a.example/rpc"},
            "first_message": [{"when": "otherwise", "do": [{"reply": "hi"}]}]}
    world.write_text(json.dumps({**good, **body}))
    for command in (("verify", str(world)), ("serve", "a2a", "--world", str(world), "--port", "0")):
        done = _cli(*command)
        lines = done.stderr.strip().splitlines()
        assert done.returncode == 2 and len(lines) == 1, (name, command, done.stderr)
        assert str(world) in lines[0] and f"at {path}" in lines[0] and said in lines[0], (name, lines[0])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["agent.json"], "nothing is written"
    world.write_text(json.dumps(good))  # the control: the same file without the fault is read
    from agent_loop_sim.protocols.a2a.world import read_world as read_agent

    assert read_agent(json.loads(world.read_text()), str(world))[0].name == "a"


def test_a_world_of_the_wrong_kind_is_one_line(tmp_path: Path):
    world = tmp_path / "w.json"
    world.write_text(json.dumps({"kind": "graphql-server"}))
    done = _cli("verify", str(world))
    assert done.returncode == 2 and "$.kind" in done.stderr and "mcp-server" in done.stderr, done.stderr


def test_what_the_engine_declines_is_said_by_name(tmp_path: Path):
    """A world may ask for what the engine will not do (a value repeated into a billion items, a loop
    of a million turns): `run` says so in one line naming the feature, exit 2, rather than
    spending the machine or answering wrongly. The control: the same tool with a small count."""
    world = tmp_path / "w.json"
    world.write_text(json.dumps({"kind": "mcp-server", "name": "w", "version": "1", "tools": [
        {"name": "shout", "params": [{"name": "n", "type": "integer"}], "returns": "string",
         "result": {"$mul": ["ha", {"$": "n"}]}},
        {"name": "spin", "params": [{"name": "n", "type": "integer"}], "returns": "integer",
         "steps": [{"for": "i", "from": 1, "to": {"$": "n"}, "do": [{"progress": {"$": "i"}}]}], "result": 0}]}))
    scenario = tmp_path / "s.json"

    def run(tool: str, n: int) -> subprocess.CompletedProcess[str]:
        scenario.write_text(json.dumps({"recording": "x.json", "world": "w.json", "sessions": [
            {"name": "big", "family": "mcp", "mode": "legacy", "title": "t",
             "actions": [{"op": "call", "tool": tool, "arguments": {"n": n}}]}]}))
        return _cli("run", str(scenario))

    for tool, said in (("shout", "repeats a value into more than 100,000 items"), ("spin", "more than 10,000 steps")):
        done = run(tool, 10**9)
        assert done.returncode == 2 and said in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr
        assert run(tool, 3).returncode == 0


def test_random_agents_equal_the_live_sdk(tmp_path: Path, op_histogram):
    """Random A2A agent worlds (world_fuzz.random_agent): every rule's tour recorded live from the
    SDK's agent built from the file, as deployed, equal to the engine."""
    rng = random.Random(WORLD_FUZZ_SEED)
    agents = [world_fuzz.random_agent(rng, i) for i in range(3)]
    op_histogram(f"random agents (seed {WORLD_FUZZ_SEED}, {len(agents)} agents)", dict(world_fuzz.agent_histogram(agents)))
    for i, agent in enumerate(agents):
        path = tmp_path / f"agent-{i}.json"
        path.write_text(json.dumps(agent, indent=1))
        done = _cli("verify", str(path))
        assert done.returncode == 0 and "same" in done.stdout, (
            f"seed {WORLD_FUZZ_SEED}, agent {i} ({path}):\n{json.dumps(agent)}\n{done.stdout[-3000:]}{done.stderr[-2000:]}")
