"""The architecture page, drawn from the code: the rooms (modules and what their docstrings say
they do), the family registry, and where a new method, family or finding goes."""
from __future__ import annotations

import importlib
import inspect
import pkgutil
import re

from ...protocols import FAMILIES
from ..findings.evidence import EVIDENCE_KINDS
from ..parts.markdown import code, fence, table, text

ARCHITECTURE_PAGE = "architecture.md"

# Kept under 72 columns: at 1,400 px, between the navigation and the contents, the code block
# shows about 90, and a wider line was cut off at the right edge.
FLOW = """\
scenarios/*.json  --scenarios.load-->  Session
Session  --engine.run_session-->  FAMILIES[family].run_session
         (protocols/<family>/: sans-IO models,
          messages in, messages out)
         --FAMILIES[family].normalise-->  Transcript

scripts/record_*.py (the official SDKs, live)  -->  recordings/*.json
recordings/*.json  --recording.load_recording-->  Recording

check.build_report: Transcript vs Recording
                    (compare.diff_transcripts)  -->  Report
Report  -->  cli check (one line per file; exit 1 on a difference)
        -->  site.render_site  -->  Markdown pages
             -->  hooks/ (MkDocs, a thin adapter)"""


_CODE_SPAN = re.compile(r"``(.+?)``|`([^`]+)`")


def _first_line(module_name: str) -> str:
    """The docstring's first paragraph as Markdown: its code spans kept, everything else as text."""
    doc = (inspect.getdoc(importlib.import_module(module_name)) or "").split("\n\n")[0].replace("\n", " ")
    out, at = [], 0
    for m in _CODE_SPAN.finditer(doc):
        out += [text(doc[at:m.start()]), code(m.group(1) or m.group(2))]
        at = m.end()
    return "".join(out + [text(doc[at:])])


def _rooms() -> list[str]:
    """A heading per folder of the package, a line per module: its name and its docstring's first line."""
    package = importlib.import_module("agent_loop_sim")
    folders: dict[str, list[str]] = {}
    for info in sorted(pkgutil.walk_packages(package.__path__, "agent_loop_sim."), key=lambda i: i.name):
        if info.name.endswith("__main__"):
            continue
        folder, _, name = info.name.rpartition(".")
        if info.ispkg:
            folder, name = info.name, "__init__"
        folders.setdefault(folder.replace(".", "/") + "/", []).append(
            f"- {code(name)}: {_first_line(info.name)}")
    out: list[str] = []
    for folder, modules in folders.items():
        out += [f"### {code(folder)}", "", *modules, ""]
    return out


def _registry() -> str:
    families = list(FAMILIES.values())
    aspects = {
        "Parties": lambda f: text(" ↔ ".join(f.parties)),
        "Model": lambda f: code(f.run_session.__module__),
        "Scenario schema": lambda f: code(f.scenario.__name__),
        "Normal form": lambda f: code(f.normalise.__name__),
        "Recorder": lambda f: code(f.recorder),
        "Fixture server": lambda f: code(f.fixture.path),
        "Rule tables": lambda f: text(", ".join(t.title for t in f.rule_tables())),
    }
    return table(["", *(f"{text(f.title)} ({code(f.name)})" for f in families)],
                 [[name, *(show(f) for f in families)] for name, show in aspects.items()])


def render_architecture() -> str:
    lines = [
        "# Architecture", "",
        "The simulator is a set of pure state machines with the I/O at the edges. This page is drawn "
        "from the code: the rooms below are the package's modules with the first line of their own "
        "docstrings, and the registry is `agent_loop_sim.protocols.FAMILIES` itself.", "",
        "## What flows where", "", fence(FLOW, "text"), "",
        "## The family registry", "",
        "Everything the project knows about a protocol family is one `Family` object, exported by its "
        "package as `FAMILY` (its words are data, in the package's `family.json`). The command line, "
        "the checker, the recording reader and the site look families up here and nowhere else.", "",
        _registry(), "",
        "## The rooms", "",
        *_rooms(),
        "## Where to add", "",
        "- **An MCP method**: the revisions that define it in `protocols/mcp/methods.py` (`CLIENT_REQUESTS`, "
        "and `HANDLED` if the fixture server answers it), its params typing in `PARAMS_FIELDS` (common) or a "
        "revision's wire module, its handler in `ServerConnection._dispatch`; for the client, an op in "
        "`protocols/mcp/scenario.py` (`ACTION_FIELDS`) and `ClientModel._perform`. A shape that differs "
        "by revision goes into `wire_2025_11_25` and `wire_2026_07_28` behind the `Wire` protocol.",
        "- **An A2A method**: `METHODS` in `protocols/a2a/agent.py` (its params type) and "
        "`RequestHandler.call` in `request_handler.py`; a rule about task states goes into "
        "`TASK_TRANSITIONS` (`states.py`), the one place state errors come from.",
        "- **A family**: a package `protocols/<family>/` with its model, a `scenario` module "
        "(`SESSION_FIELDS`, `validate`), a `family.json` and `FAMILY = Family.from_file(...)`; one line in "
        "`protocols/__init__.py`; a recorder in `scripts/` and a fixture server in `conformance/`.",
        "- **A finding**: an entry in `agent_loop_sim/site/findings/findings.json` with its evidence, each of one of "
        f"these kinds: {', '.join(code(k) for k in EVIDENCE_KINDS)}. The build checks it against the "
        "committed recordings.", "",
    ]
    return "\n".join(lines)
