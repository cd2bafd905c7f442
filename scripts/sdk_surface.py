"""What the SDK lets a user of ``MCPServer`` declare, read from its own signatures.

    python scripts/sdk_surface.py           # write recordings/verdicts/sdk_surface.json
    python scripts/sdk_surface.py --check   # exit 1 if the committed list is not current

The list: every parameter of ``MCPServer(...)``, of its decorators (``tool``, ``resource``,
``prompt``, ``completion``), every public method of the ``Context`` a tool receives, every
argument of pydantic's ``Field`` (how a parameter is described and constrained), and every field
of the A2A ``AgentCard`` an agent serves (its capabilities and skills too). The World files
page sets each beside the world field that declares it, or the reason it is not modelled, and
the site's build fails on an entry of this list that has neither (`SURFACE` in
``agent_loop_sim/protocols/mcp/world.py``). This script imports the SDK, so it lives with the
recorders; the site only reads what it writes.
"""
from __future__ import annotations

import argparse
import inspect
import json
import sys
from importlib import metadata
from pathlib import Path

import pydantic
from a2a.types import a2a_pb2
from mcp.server import MCPServer
from mcp.server.mcpserver import Context

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "recordings" / "verdicts" / "sdk_surface.json"


def _parameters(function: object) -> list[str]:
    return [name for name, p in inspect.signature(function).parameters.items()
            if name != "self" and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]


def surface() -> dict[str, object]:
    apis = {"MCPServer()": _parameters(MCPServer.__init__)}
    for decorator in ("tool", "resource", "prompt", "completion"):
        apis[f"@mcp.{decorator}()"] = _parameters(getattr(MCPServer, decorator))
    apis["Context"] = sorted(name for name, value in vars(Context).items()
                             if not name.startswith("_") and (callable(value) or isinstance(value, property))
                             and name not in ("model_config", "model_post_init"))
    apis["Field()"] = _parameters(pydantic.Field)
    for message in ("AgentCard", "AgentCapabilities", "AgentSkill"):  # (the card an A2A agent serves)
        apis[message] = [f.name for f in getattr(a2a_pb2, message).DESCRIPTOR.fields]
    return {"mcp": metadata.version("mcp"), "pydantic": metadata.version("pydantic"),
            "a2a-sdk": metadata.version("a2a-sdk"), "apis": apis}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="compare with the committed list, write nothing")
    args = parser.parse_args(argv)
    text = json.dumps(surface(), indent=1) + "\n"
    if args.check:
        if not OUT.exists() or OUT.read_text(encoding="utf-8") != text:
            print(f"{OUT.relative_to(ROOT)} is not current: run python scripts/sdk_surface.py")
            return 1
        print(f"same {OUT.relative_to(ROOT)}")
        return 0
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
