"""The world pages: the world file format, and a page per world (what it declares, the SDK
program it becomes, the sessions recorded against it).

The format is the world module's own docstring and the annotation table of ``annotations``; the
program is what ``conformance/mcp_world.py`` writes, read here as the recorder reads it; the
declarations are the engine's reading of each file. Nothing is written twice.
"""
from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

from ...errors import InputError
from ...jsonio import load_json
from ...project import Project
from ...protocols.mcp import annotations as mcp_annotations
from ...protocols.mcp import surface as mcp_surface
from ...protocols.mcp import world as mcp_world_format
from ...protocols.mcp.annotations import Kind
from ...protocols.mcp.definition import ServerDefinition
from ...protocols.a2a import world as a2a_world_format
from ...protocols.a2a.research import RESEARCH_WORLD
from ...protocols.a2a.states import TERMINAL
from ...protocols.mcp.fixture import FIXTURE_WORLD
from ...scenarios import ScenarioFile
from ..parts.markdown import code, fence, table, text
from ...names import path_part
from .conformance import link, session_page
from .sources import docstring_markdown

INDEX = "worlds/index.md"


def world_page(stem: str) -> str:
    """A world's page, named by its file (``travel-agent.json`` -> ``worlds/travel_agent.md``), by
    the one rule for names that become paths (`names`)."""
    return f"worlds/{path_part(stem.replace('-', '_'))}.md"


def world_page_of(file: ScenarioFile) -> str:
    """The page of the world ``file``'s sessions play against (its family's fixture, if it names none)."""
    if file.world is not None:
        return world_page(Path(file.world).stem)
    return world_page((RESEARCH_WORLD if file.family == "a2a" else FIXTURE_WORLD).stem)


def world_paths(project: Project) -> list[Path]:
    """The fixtures' worlds first, then every world in ``worlds/``."""
    return [FIXTURE_WORLD, RESEARCH_WORLD, *sorted((project.root / "worlds").glob("*.json"))]  # (no symlink loops: one folder)


def _generator(project: Project) -> Any:
    """``conformance/mcp_world.py``, the SDK side's writer (it imports no SDK until a server is built)."""
    spec = importlib.util.spec_from_file_location("mcp_world", project.root / "conformance" / "mcp_world.py")
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


def kind_text(kind: Kind | None) -> str:
    """A kind as the Python annotation it becomes."""
    if kind is None:
        return "(none)"
    name = kind.name
    scalars = {"integer": "int", "number": "float", "string": "str", "boolean": "bool", "null": "None", "dict": "dict",
               "content": "list[ContentBlock]"}
    if name in scalars:
        return scalars[name]
    if name == "enum":
        return f"Literal[{', '.join(repr(v) for v in kind.values)}]"
    if name == "list":
        return f"list[{kind_text(kind.of)}]"
    if name == "optional":
        return f"{kind_text(kind.of)} | None"
    if name == "mapping":
        return f"dict[str, {'Any' if kind.of is None else kind_text(kind.of)}]"
    return kind.model


def render_worlds(project: Project, files: list[ScenarioFile]) -> tuple[dict[str, str], list[str]]:
    """The format page and one page per world; the problems reading them."""
    problems: list[str] = []
    pages: dict[str, str] = {}
    entries: list[list[str]] = []
    used: dict[tuple[str, str], list[str]] = {}  # (family, each key a world uses) -> the worlds that use it
    generator = _generator(project)
    for path in world_paths(project):
        stem = path.stem
        try:
            page = world_page(stem)
            if page == INDEX or page in pages:
                raise InputError(f"its page would be {page}, which is taken: rename the file")
            raw = load_json(path)
            agent = isinstance(raw, dict) and raw.get("kind") == a2a_world_format.KIND
            read = (a2a_world_format if agent else mcp_world_format).read_world(raw, str(path))
        except InputError as exc:
            problems.append(str(exc.within(file=str(project.relative(path)))))
            continue
        where = project.relative(path)
        for key in _keys(raw):
            used.setdefault(("a2a" if agent else "mcp", key), []).append(stem)
        sessions = [s for f in files if f.world and Path(f.world).resolve() == path.resolve() for s in f.sessions]
        if path in (FIXTURE_WORLD, RESEARCH_WORLD):
            family = "a2a" if agent else "mcp"
            sessions = [s for f in files if f.family == family and f.world is None for s in f.sessions]
        if agent:
            pages[world_page(stem)] = _agent_page(stem, where, raw, read, sessions)
            name = read[0].name
        else:
            pages[world_page(stem)] = _world_page(stem, where, raw, read, generator.source(raw), sessions)
            name = read.name
        entries.append([f"[{text(name)}]({link(INDEX, world_page(stem))})", "A2A agent" if agent else "MCP server",
                        code(str(where)), text(raw.get("about", "")), str(len(sessions))])
    lines = ["# World files", "",
             "A world file describes an MCP server (as a user of the SDK's `MCPServer` declares one) or an "
             "A2A agent (its card, and what its executor does with each message) as data. The engine "
             "simulates it (`run`, `check`, `serve mcp --world FILE`, `serve a2a --world FILE`), the "
             "recorders build the real SDK server or agent from the same file, and "
             "`python -m agent_loop_sim verify WORLD [SCENARIOS]` proves the two equal on the user's own "
             "sessions or on a tour made from the world.", "",
             table(["world", "kind", "file", "what it shows", "sessions recorded"], entries), "",
             "## MCP servers", "", docstring_markdown(mcp_world_format.__doc__), "",
             "### Types", "", docstring_markdown(mcp_annotations.__doc__), "",
             "## A2A agents", "", docstring_markdown(a2a_world_format.__doc__), ""]
    surface, surface_problems = _surface(project, used)
    expressions, expression_problems = _expressions(project)
    pages[INDEX] = "\n".join(lines + expressions + surface)
    return pages, problems + surface_problems + expression_problems


EXPRESSIONS_FILE = Path("benchmarks") / "results" / "expressions.json"


def _expressions(project: Project) -> tuple[list[str], list[str]]:
    """Why a world's expressions are the format's own operators: the measurement of the format
    against the expression libraries (``benchmarks/expressions.py``), as a table."""
    path = project.root / EXPRESSIONS_FILE
    if not path.exists():  # (a project without the benchmark: nothing to draw)
        return [], []
    try:
        data = load_json(path)
        cases, rows = data["cases"], []
        for name, c in data["candidates"].items():
            exact = [e for e in c["exact"] if e != "same"]
            first = next((f"{case}: {e}" for case, e in zip(cases, c["exact"]) if e != "same"), "")
            rows.append([text(name), text(f"{len(cases) - len(exact)} of {len(cases)}" + (f" ({first})" if first else "")),
                         f"{c['microseconds']:g}", "—" if not c["distributions"] else
                         text(f"{c['kilobytes']:,} kB, " + ("pure Python" if c["pure_python"] else "not pure Python")
                              + f" ({', '.join(c['distributions'])})")])
    except (InputError, KeyError, TypeError, ValueError, AttributeError) as exc:
        return [], [f"{EXPRESSIONS_FILE}: not the measurement benchmarks/expressions.py writes ({exc})"]
    return ["## Why the expressions are the format's own", "",
            "A world's results and conditions are JSON operators, each one of Python's own, rather than the "
            "text of an expression library. Measured (`benchmarks/expressions.py`, each library pinned): the "
            "cases Python answers as the SDK program does, the time to evaluate a parsed expression "
            "(a little arithmetic and a test; the median of 5 runs of 2,000 on the machine that measured), and what the reader's browser would load beside the engine:", "",
            table(["language", "cases answered as Python does", "µs an evaluation", "in the browser"], rows), "",
            "CEL and JSONata divide, take remainders and hold integers otherwise than Python, so a stand-in "
            "written in them would answer what the SDK's server does not. simpleeval and asteval are Python's "
            "own semantics and would be exact too; the engine takes neither because it stays the standard "
            "library alone (it runs unchanged in the browser and in any project that imports it), a world "
            "file may come from a stranger and the operators are a closed set checked when the file is read, "
            "each failure named by its JSON path, and the compiled operators are the fastest of the five.", ""], []


SURFACE_FILE = "verdicts/sdk_surface.json"


def _keys(raw: Any) -> set[str]:
    """Every object key anywhere in a world's JSON."""
    if isinstance(raw, dict):
        return set(raw).union(*(_keys(v) for v in raw.values()))
    if isinstance(raw, list):
        return set().union(*(_keys(v) for v in raw))
    return set()


def _surface(project: Project, used: dict[tuple[str, str], list[str]]) -> tuple[list[str], list[str]]:
    """The table of what the SDK lets a user declare (its list, read from its own signatures by
    ``scripts/sdk_surface.py``) beside the world key for each, with the worlds that use it, or why
    it is not modelled; a problem for each entry the table lacks and each key no world uses."""
    path = project.recording_dir / SURFACE_FILE
    try:
        listed = load_json(path)
        pairs = mcp_surface.entries(listed["apis"])
    except (InputError, KeyError, TypeError, AttributeError):
        return [], [f"{project.relative(path)}: not the SDK's list (run python scripts/sdk_surface.py)"]
    problems, rows = [], []
    for api, name in pairs:
        row = mcp_surface.SURFACE.get((api, name))
        shown = code(f"{api[:-1]}{name})" if api.endswith("()") and name else f"{api}.{name}" if name else api)
        # (an A2A entry is a field of the card's message: AgentSkill.input_modes)
        if row is None:
            problems.append(f"{project.relative(path)}: {api} {name or '(the decorator)'} is in the SDK's API "
                            f"(mcp {listed.get('mcp')}) and not in the table of what a world declares "
                            f"(agent_loop_sim/protocols/mcp/surface.py)")
            continue
        if isinstance(row, mcp_surface.Declared):
            worlds = used.get((mcp_surface.family(api), row.key), [])
            if not worlds:
                problems.append(f"{api} {name}: the world key {row.key!r} is in no world a recording plays")
            shown_worlds = ", ".join(f"[{text(w)}]({link(INDEX, world_page(w))})" for w in sorted(set(worlds)))
            rows.append([shown, code(row.key), shown_worlds])
        else:
            rows.append([shown, "not modelled", text(row.why)])
    lines = ["## What the SDKs let a user declare", "",
             f"Every parameter of `MCPServer(...)` and of its decorators, every method of a tool's `Context`, "
             f"every argument of pydantic's `Field` and every field of the A2A `AgentCard`, as the SDKs' own "
             f"signatures and types list them (mcp {text(str(listed.get('mcp')))}, pydantic "
             f"{text(str(listed.get('pydantic')))}, a2a-sdk {text(str(listed.get('a2a-sdk')))}; "
             f"`scripts/sdk_surface.py`): the world key that declares each, with the worlds that use it "
             f"(each recorded live), or why it is not modelled. The build fails on an entry of the SDKs' "
             f"list missing here.", "",
             table(["the SDKs' API", "world key", "worlds that use it, or why not"], rows), ""]
    return lines, problems


def _field_text(p: Any) -> str:
    """A parameter's ``Field`` constraints and alias, as its annotation would carry them."""
    options = [f"{key}={value!r}" for key, value in p.constraints]
    if p.alias is not None:
        options.insert(0, f"alias={p.alias!r}")
    return f" ({', '.join(options)})" if options else ""


def _world_page(stem: str, where: str, raw: dict[str, Any], definition: ServerDefinition, program: str,
                sessions: list[Any]) -> str:
    page = world_page(stem)
    lines = [f"# {text(definition.name)} {text(definition.version)}", "", text(raw.get("about", "")), "",
             f"Read from `{where}`.", ""]
    if not definition.subscriptions:
        lines += ["It serves no listen streams (`subscriptions=False`): `subscriptions/listen` is refused, and "
                  "`server/discover` says no change is announced.", ""]
    if definition.store is not None:
        lines += ["## Store", "", "What the server's process starts with; each call of a tool that writes it changes "
                  "it for every later request the process serves.", "",
                  table(["entry", "starts as", "written by", "read by"],
                        [[code(name), code(_short(json.dumps(value, ensure_ascii=False))),
                          text(", ".join(_writers(raw, name)) or "—"), text(", ".join(_readers(raw, name)) or "—")]
                         for name, value in definition.store.items()]), ""]
    if definition.tools:
        rows = []
        for tool in definition.tools:
            params = ", ".join(f"{p.name}: {kind_text(p.kind)}" + _field_text(p) + ("" if p.required else " = …")
                               for p in tool.params)
            declared = _tool_raw(raw, tool.name)
            ends = next((k for k in ("result", "tool_error", "crash") if k in declared), "returns None")
            cases = [next(k for k in case if k != "when") for case in declared.get("cases", [])]
            if cases:  # (the cases first, in order: the first whose condition holds ends the call)
                ends = ", ".join(f"{end} in a case" for end in cases) + f"; else {ends}"
            steps = ", ".join(next(iter(s)) for s in _tool_raw(raw, tool.name).get("steps", [])) or "—"
            rows.append([code(tool.name), code(params or "()"), code(kind_text(tool.returns)), text(steps), text(ends)])
        lines += ["## Tools", "", table(["tool", "parameters", "returns", "steps", "ends with"], rows), ""]
    if definition.resources:
        lines += ["## Resources", "", table(["URI", "name", "MIME type", "content"],
                                            [[code(r.uri), text(r.name), code(r.mime_type),
                                              "binary" if r.blob is not None else
                                              "text made from the store" if r.made is not None else "text"]
                                             for r in definition.resources]), ""]
    if definition.prompts:
        lines += ["## Prompts", "", table(["prompt", "arguments"],
                                          [[code(p.name), text(", ".join(a.name + ("" if a.required else " (optional)")
                                                                         for a in p.arguments) or "—")]
                                           for p in definition.prompts]), ""]
    lines += ["## Its sessions", ""]
    if sessions:
        lines += [f"- [{code(s.name)}]({link(page, session_page(s.family, s.name))}): {text(s.title)}" for s in sessions]
    else:
        lines.append("No committed session is recorded against it yet.")
    lines += ["", "## The SDK program it becomes", "",
              "What `conformance/mcp_world.py` writes for this file, and the recorders run:", "",
              fence(program.rstrip("\n"), "python"), "",
              "## The file", "", fence(json.dumps(raw, indent=2, ensure_ascii=False), "json"), ""]
    return "\n".join(lines)


def _agent_page(stem: str, where: str, raw: dict[str, Any], read: tuple[Any, Any], sessions: list[Any]) -> str:
    page = world_page(stem)
    card, _ = read
    lines = [f"# {text(card.name)} {text(card.version)}", "", text(raw.get("about", "")), "",
             f"Read from `{where}`. The SDK's agent is `conformance/a2a_world.py`'s `WorldAgent` following "
             f"this file with the SDK's own helpers (`new_task_from_user_message`, `TaskUpdater`).", ""]
    for key, heading in (("first_message", "A first message"), ("follow_up", "A message into a waiting task")):
        rows = []
        for rule in raw.get(key, []):
            when = rule["when"] if rule["when"] == "otherwise" else " ".join(
                f"{k.replace('_', ' ')} {v!r}" for k, v in rule["when"].items())
            rows.append([text(when), text(" → ".join(_step_text(s) for s in rule["do"]))])
        if rows:
            lines += [f"## {heading}", "", table(["when", "the agent"], rows), ""]
    lines += ["## Its card", "", fence(json.dumps(card.to_json(), indent=2, ensure_ascii=False), "json"), ""]
    lines += ["## Its sessions", ""]
    lines += ([f"- [{code(s.name)}]({link(page, session_page(s.family, s.name))}): {text(s.title)}" for s in sessions]
              or ["No committed session is recorded against it yet."])
    lines += ["", "## The file", "", fence(json.dumps(raw, indent=2, ensure_ascii=False), "json"), ""]
    return "\n".join(lines)


def _step_text(step: dict[str, Any]) -> str:
    if "reply" in step:
        return f"replies {step['reply']!r} (no task)"
    if "create_task" in step:
        return "creates the task"
    if "status" in step:
        final = " (final)" if f"TASK_STATE_{step['status'].upper()}" in TERMINAL else ""
        return f"{step['status']}{final}" + (f": {step['text']!r}" if "text" in step else "")
    return f"artifact {step['artifact']!r} in {len(step['chunks'])} chunk(s)"


def _short(value: str, most: int = 80) -> str:
    return value if len(value) <= most else value[:most - 1] + "…"


def _steps_of(steps: list[Any]) -> list[dict[str, Any]]:
    """Steps and the steps inside them (a loop's, a branch's), in order."""
    out: list[dict[str, Any]] = []
    for step in steps:
        if isinstance(step, dict):
            out.append(step)
            out += _steps_of(step.get("do", []) + step.get("then", []) + step.get("else", []))
    return out


def _writers(raw: dict[str, Any], entry: str) -> list[str]:
    """The tools with a step that writes the store's ``entry``."""
    return [t["name"] for t in raw.get("tools", [])
            if any(step.get(kind) == entry for step in _steps_of(t.get("steps", [])) for kind in ("set", "delete", "append"))]


def _readers(raw: dict[str, Any], entry: str) -> list[str]:
    """The declarations (tool, resource, template, prompt) with an expression that reads ``entry``."""
    needle = json.dumps({"$store": entry})
    return [item.get("name") or item.get("uri") for key in ("tools", "resources", "templates", "prompts")
            for item in raw.get(key, []) if needle in json.dumps(item)]


def _tool_raw(raw: dict[str, Any], name: str) -> dict[str, Any]:
    return next(t for t in raw.get("tools", []) if t.get("name") == name)
