"""Pages drawn from the project's code: the fixture servers, the scenario format, the API.

The fixture servers are read from ``conformance/`` at build time (never copied into ``docs/``);
the scenario format comes from the scenario modules' docstrings and their field tables; the API
reference is a list of mkdocstrings directives, one page per module.
"""
from __future__ import annotations

import importlib
import inspect
from typing import Any

from ...errors import InputError
from ...jsonio import read_file
from ...project import Project
from ...protocols import FAMILIES
from ...schema import Field
from ..parts.markdown import code, fence, table, text
from .conformance import family_name

CORE_MODULES = ("agent_loop_sim.engine", "agent_loop_sim.check", "agent_loop_sim.compare",
                "agent_loop_sim.normalise", "agent_loop_sim.scenarios", "agent_loop_sim.transcript",
                "agent_loop_sim.recording", "agent_loop_sim.http_log", "agent_loop_sim.exports",
                "agent_loop_sim.protocols")
SERVERS_PAGE = "servers.md"
FORMAT_PAGE = "scenario-format.md"


def reference_page(module: str) -> str:
    return f"reference/{module.removeprefix('agent_loop_sim.')}.md"


# --- the fixture servers ----------------------------------------------------------------------

def render_servers(project: Project, families: list[str]) -> tuple[str, list[str]]:
    problems: list[str] = []
    lines = ["# Fixture servers", "",
             "The recordings were made against these programs, written with the official SDKs. "
             "They are shown here as they stand in the repository, read at build time.", ""]
    for family in families:
        fixture = FAMILIES[family].fixture
        try:  # (read_file: a FIFO or a device in its place is refused, not waited on)
            source = read_file(project.root / fixture.path, limited=False).decode("utf-8")
        except InputError as exc:
            problems.append(f"{fixture.path}: the fixture server cannot be read ({exc.problem})")
            continue
        except UnicodeDecodeError as exc:
            problems.append(f"{fixture.path}: the fixture server cannot be read (not UTF-8: byte {exc.start})")
            continue
        lines += [f"## {fixture.title}", "", fixture.about, "",
                  fence(source.rstrip("\n"), "python", attrs=f'title="{fixture.path}"'), ""]
    return "\n".join(lines), problems


# --- the scenario format ----------------------------------------------------------------------

def docstring_markdown(doc: str | None) -> str:
    """A module docstring as Markdown: ``Foo::`` literal blocks become fenced blocks."""
    if not doc:
        return ""
    lines = inspect.cleandoc(doc).split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.rstrip().endswith("::") and not line.strip().startswith(".."):
            out.append(line.rstrip()[:-1])
            i += 1
            while i < len(lines) and not lines[i].strip():
                i += 1
            block = []
            while i < len(lines) and (not lines[i].strip() or lines[i].startswith(" ")):
                block.append(lines[i])
                i += 1
            while block and not block[-1].strip():
                block.pop()
            out += ["", fence(inspect.cleandoc("\n".join(block)), "text"), ""]
            continue
        out.append(line)
        i += 1
    return "\n".join(out)


def _kind(f: Field) -> str:
    kinds = f.kind if isinstance(f.kind, tuple) else (f.kind,)
    names = {str: "string", int: "integer", bool: "boolean", dict: "object", list: "array", float: "number"}
    out = " or ".join(names.get(k, k.__name__) for k in kinds)
    return out + (" or null" if f.nullable else "")


def _field_rows(fields: dict[str, Field]) -> list[list[str]]:
    return [[code(name), _kind(f), "yes" if f.required else "no",
             ", ".join(code(str(c)) for c in f.choices) if f.choices else ""]
            for name, f in fields.items()]


def field_tables(module: Any) -> list[str]:
    """Every ``*_FIELDS`` table of a module: {name: Field} or {key: {name: Field}}."""
    out = []
    for name, value in vars(module).items():
        if not name.endswith("_FIELDS") or not isinstance(value, dict) or not value:
            continue
        title = name.removesuffix("_FIELDS").replace("_", " ").lower()
        if all(isinstance(v, Field) for v in value.values()):
            out += [f"**{text(title)}** ({code(name)})", "",
                    table(["field", "type", "required", "allowed values"], _field_rows(value)), ""]
        elif all(isinstance(v, dict) and all(isinstance(f, Field) for f in v.values()) for v in value.values()):
            rows = [[code(key), ", ".join(code(n) + ("" if f.required else "?") for n, f in fields.items()) or "—"]
                    for key, fields in value.items()]
            out += [f"**{text(title)}** ({code(name)}; `?` marks an optional field)", "",
                    table(["kind", "fields"], rows), ""]
    return out


def render_format(families: list[str]) -> str:
    scenarios = importlib.import_module("agent_loop_sim.scenarios")
    lines = ["# Scenario format", "",
             "A scenario says what the application does in a session and nothing else; whatever the SDK "
             "adds by itself is for the engine to model. This page is drawn from the code that "
             "validates scenario files, so it cannot drift from it.", "",
             "## Scenario files", "", docstring_markdown(scenarios.__doc__), ""]
    for family in families:
        module = FAMILIES[family].scenario
        module_name = module.__name__
        lines += [f"## {family_name(family)} sessions", "", f"From {code(module_name)}.", "",
                  docstring_markdown(module.__doc__), ""] + field_tables(module)
    return "\n".join(lines + limits_section())


def limits_section() -> list[str]:
    """The limits on input (`agent_loop_sim.limits`), drawn from the code that enforces them."""
    from ...limits import LIMITS

    return ["", "## Limits", "",
            "Scenario and recording files are strict JSON (RFC 8259): no `NaN`, `Infinity` or numbers out of "
            "a double's range such as `1e400`, no string holding a lone surrogate, no duplicate key; the "
            "`recording` is a file name in `recordings/`, never a path. A file over one of these limits is "
            "refused with one line naming the limit and how to raise it:", "",
            table(["Limit", "Default", "Command-line flag", "Environment variable"],
                  [[text(limit.name), text(f"{limit.default:,}{limit.unit}"), code(f"{limit.flag} N"), code(limit.env)]
                   for limit in LIMITS]),
            "", "The flags go before the verb: `python -m agent_loop_sim --max-sessions 5000 check`.", ""]


# --- the API reference ------------------------------------------------------------------------

def reference_modules() -> list[str]:
    """The modules the API reference documents: the core, then each protocol family's package."""
    return [*CORE_MODULES, *(f"agent_loop_sim.protocols.{name}" for name in FAMILIES)]


def render_reference(module: str) -> str:
    return "\n".join([f"# {code(module)}", "", f"::: {module}", ""])


def render_reference_index(modules: list[str]) -> str:
    lines = ["# API reference", "",
             "The engine's public modules, documented from their docstrings. The engine is pure "
             "Python with no I/O in the protocol models: transcripts come out of "
             f"[{code('engine.run_session')}]({reference_page('agent_loop_sim.engine').removeprefix('reference/')}), "
             "and the comparison and normal form are the same ones the command line uses.", ""]
    for m in modules:
        lines.append(f"- [{code(m)}]({reference_page(m).removeprefix('reference/')})")
    lines.append("")
    return "\n".join(lines)

