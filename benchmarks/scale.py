"""Copies of the checkout for the benchmark and the scale test: as it is, or with the 26 seed
sessions multiplied (synthetic copies under new names), and their strict MkDocs build."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from agent_loop_sim.project import SITE_INPUTS
from agent_loop_sim.recording import parse_recording

ROOT = Path(__file__).resolve().parent.parent


def copy_checkout(dest: Path) -> Path:
    for name in SITE_INPUTS:
        shutil.copytree(ROOT / name, dest / name, ignore=shutil.ignore_patterns("__pycache__", ".cache"))
    shutil.copy(ROOT / "mkdocs.yml", dest / "mkdocs.yml")
    return compiled(dest)


def compiled(checkout: Path) -> Path:
    """``checkout`` with its Python compiled, as `make setup` leaves a checkout (PYTHONDONTWRITEBYTECODE,
    set on this machine, would otherwise make every build compile the package again)."""
    folders = [str(checkout / name) for name in ("agent_loop_sim", "hooks") if (checkout / name).is_dir()]
    subprocess.run([sys.executable, "-m", "compileall", "-q", *folders], check=True)
    return checkout


MKDOCS = str(ROOT / ".venv" / "bin" / "mkdocs")
MKDOCS_ENV = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}


def build_command(project: Path) -> list[str]:
    return [MKDOCS, "build", "--strict", "--site-dir", str(project / "site")]


def mkdocs_build(project: Path, check: bool = True) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(build_command(project), cwd=project, capture_output=True, text=True, env=MKDOCS_ENV)
    if check and done.returncode != 0:
        raise SystemExit(f"mkdocs build failed in {project}:\n{done.stderr[-2000:]}")
    return done


SURFACE_FILES = ("mcp_surface.json", "a2a_surface.json", "world_tracker.json")
VERDICTS = "verdicts/wire_types.json"


def synthetic_project(dest: Path, factor: int) -> Path:
    """The 26 seed sessions ``factor`` times, each copy under new session names."""
    copy_checkout(dest)
    # The surface sessions stay: without them the build refuses (a method of the engine's tables
    # would be sent by no session), so they are a fixed base under every factor.
    kept = [json.loads((ROOT / "scenarios" / name).read_text())["recording"] for name in SURFACE_FILES]
    for folder in ("scenarios", "recordings"):
        for path in (dest / folder).glob("*.json"):
            if path.name not in SURFACE_FILES and path.name not in kept:
                path.unlink()
    verdicts_path = dest / "recordings" / VERDICTS
    verdicts = json.loads(verdicts_path.read_text())
    for seed_file in ("mcp.json", "a2a.json"):
        scenario = json.loads((ROOT / "scenarios" / seed_file).read_text())
        recording = json.loads((ROOT / "recordings" / scenario["recording"]).read_text())
        for k in range(factor):
            suffix = f"_copy{k}"
            stem = Path(scenario["recording"]).stem + suffix
            s = {**scenario, "recording": stem + ".json",
                 "sessions": [{**x, "name": x["name"] + suffix} for x in scenario["sessions"]]}
            r = {**recording, "scenarios": f"scenarios/{Path(seed_file).stem}{suffix}.json",
                 "sessions": [{**x, "name": x["name"] + suffix} for x in recording["sessions"]]}
            (dest / "scenarios" / f"{Path(seed_file).stem}{suffix}.json").write_text(json.dumps(s))
            # in the layout `record` writes (as a recording of the copy would be)
            (dest / "recordings" / f"{stem}.json").write_text(parse_recording(r, stem).dumps())
            for x in scenario["sessions"]:
                verdicts["sessions"][x["name"] + suffix] = verdicts["sessions"][x["name"]]
    verdicts_path.write_text(json.dumps(verdicts))
    return dest


def site_bytes(site: Path) -> int:
    """The bytes of a built site that grow with its sessions: its HTML and its search index
    (the theme's assets and the in-browser runtime are the same at any size, and counting them
    would make growth per session look smaller than it is)."""
    files = [*site.rglob("*.html"), *site.glob("search/*.json")]
    return sum(p.stat().st_size for p in files)
