"""Names as a careless or hostile user writes them (issue 31): random session names (Unicode,
control characters, lengths 1-1,000, names that collide once made into a page's URL) through
scenario -> run, then the names taken through record -> site -> one strict MkDocs build.

Each name must either be refused with one line naming ``$.sessions[0].name``, or be played and
rendered with working links: its page, its exports and every link to them, and no two names on
one page. Which names are taken is worked out here again, independently of `names`, so a rule
that let one more through (or one fewer) fails. The seed is fixed so a failure can be replayed;
``AGENT_LOOP_SIM_NAMES_SEED`` picks another.
"""
from __future__ import annotations

import contextlib
import io
import json
import os
import posixpath
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT
from test_site_fakes import MKDOCS, SMALL, copy_project

SEED = int(os.environ.get("AGENT_LOOP_SIM_NAMES_SEED", "31"))
EXAMPLES = 60

# What the site must take, said again independently: lower-case ASCII letters, digits and _,
# a letter first, 1-100 characters, and nothing after (no final newline).
TAKEN = re.compile(r"[a-z][a-z0-9_]{0,99}")
WORD = "abcdefghijklmnopqrstuvwxyz0123456789_"
HOSTILE = ["\n", "\r", "\t", "\x00", "\x1b", "\x07", "\x7f", "\x85", "\u202e", "\u200f", "\ufeff", "/", "\\", ".",
           "..", " ", "-", "#", "?", "%2F", ":", "é", "ß", "中", "а", "İ", "ﬁ", "A", "Z", "\U0001F600"]
LENGTHS = [1, 2, 3, 8, 40, 99, 100, 101, 254, 255, 256, 300, 1000]


def _word(rng: random.Random, length: int) -> str:
    return rng.choice(WORD[:26]) + "".join(rng.choice(WORD) for _ in range(length - 1))


def random_names(seed: int, count: int) -> list[str]:
    """``count`` names of every kind: well formed of lengths 1-1,000, with a hostile character put
    anywhere, all Unicode, and each well-formed one with the names that collide with it once it is
    a URL (``x`` and ``xindex``'s ``index.md`` stripped, ``X``, ``x\\n``)."""
    rng = random.Random(seed)
    names: list[str] = []
    while len(names) < count:
        length = rng.choice(LENGTHS) if rng.random() < 0.6 else rng.randint(1, 1000)
        kind = rng.choice(("word", "hostile", "unicode", "collisions"))
        if kind == "word":
            names.append(_word(rng, length))
        elif kind == "hostile":
            base = _word(rng, max(1, min(length, 60)))
            at = rng.randint(0, len(base))
            names.append(base[:at] + rng.choice(HOSTILE) + base[at:])
        elif kind == "unicode":
            names.append("".join(chr(rng.choice((rng.randint(0x20, 0x2FF), rng.randint(0x400, 0x4FF),
                                                 rng.randint(0x4E00, 0x4E80), rng.randint(0x1F300, 0x1F320))))
                                 for _ in range(max(1, min(length, 80)))))
        else:
            base = _word(rng, rng.randint(1, 12))
            names += [base + "_", base + "_index", base.upper(), base + "\n", "index", base + "index"]
    return names


def _run(path: Path, capsys) -> tuple[int, str, str]:
    from agent_loop_sim import cli

    code = cli.main(["run", str(path)])
    said = capsys.readouterr()
    return code, said.out, said.err


def _scenario(names: list[str], recording: str) -> dict:
    first = json.loads((ROOT / "scenarios" / "mcp.json").read_text())["sessions"][0]
    return {"recording": recording, "sessions": [dict(first, name=name) for name in names]}


def test_random_names_are_refused_in_one_line_or_played(tmp_path: Path, capsys):
    names = random_names(SEED, EXAMPLES)
    assert {len(n) for n in names} & {1, 100, 101, 1000} and any("\n" in n for n in names)
    taken = []
    for i, name in enumerate(names):
        path = tmp_path / f"n{i}.json"
        path.write_text(json.dumps(_scenario([name], "names.json"), ensure_ascii=False), encoding="utf-8")
        code, out, err = _run(path, capsys)
        if TAKEN.fullmatch(name):
            assert code == 0 and json.loads(out)[0]["name"] == name, (name, err)
            taken.append(name)
        else:
            assert code == 2 and out == "", (name, code, out[:200])
            assert len(err.splitlines()) == 1 and "Traceback" not in err, (name, err)
            assert "$.sessions[0].name" in err and "at most 100 characters" in err, (name, err)
            assert not re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e]", err), (name, repr(err))
    assert taken, "no name of the batch was taken: the site's half would test nothing"


def _site_links(outdir: Path) -> list[tuple[str, str]]:
    """Every (page, link target) of the Markdown pages that leads to a session page or an export."""
    found = []
    for page in outdir.rglob("*.md"):
        text = page.read_text(encoding="utf-8")
        for target in re.findall(r"\]\(([^)\s]+)\)|href=\"([^\"]+)\"", text):
            target = next(t for t in target if t)
            if "sessions/" in target or "exports/" in target:
                found.append((str(page.relative_to(outdir)), target))
    return found


def _resolves(outdir: Path, page: str, target: str) -> bool:
    """A Markdown link resolves to a file; a raw-HTML one (a directory URL) to a page's URL."""
    from agent_loop_sim.site.pages.conformance import page_url

    target = target.split("#", 1)[0]
    if target.endswith((".md", ".jsonl", ".har")):
        return (outdir / posixpath.normpath(posixpath.join(posixpath.dirname(page), target))).is_file()
    here = page_url(page)
    base = here if here.endswith("/") else posixpath.dirname(here) + "/"
    url = posixpath.normpath(posixpath.join(base, target)).strip("/")
    pages = {page_url(str(p.relative_to(outdir))).strip("/") for p in outdir.rglob("*.md")}
    return url in pages


@pytest.fixture(scope="module")
def named_project(tmp_path_factory) -> tuple[Path, list[str]]:
    """A copy of the project with the taken names of the batch (and the pairs that collide once
    made into URLs) as one more scenario file, recorded live and validated."""
    names = [n for n in dict.fromkeys(random_names(SEED, EXAMPLES)) if TAKEN.fullmatch(n)]
    names += [n for n in ("index", "legacy_index", "legacy_", "x_index", "x_", "zz_" + "a" * 97) if n not in names]
    root = tmp_path_factory.mktemp("names")
    project = copy_project(root / "project", only=SMALL)
    shutil.copytree(ROOT / "scripts", project / "scripts", ignore=shutil.ignore_patterns("__pycache__"))
    (project / "scenarios" / "names.json").write_text(json.dumps(_scenario(names, "names.json"), indent=2))
    for command in ([sys.executable, "-m", "agent_loop_sim", "record", "scenarios/names.json", "--release", "2.3.0"],
                    [sys.executable, "scripts/validate_wire.py"]):
        done = subprocess.run(command, cwd=project, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr[-2000:]
    return project, names


def test_the_names_taken_render_with_working_links(named_project, tmp_path: Path):
    from agent_loop_sim.site.pages.conformance import page_url, session_page

    project, names = named_project
    urls = [page_url(session_page("mcp", n)).rstrip("/").casefold() for n in names]
    assert len(set(urls)) == len(urls)
    outdir = tmp_path / "out"
    done = subprocess.run([sys.executable, "-m", "agent_loop_sim", "site", str(outdir)], cwd=project,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    for name in names:
        assert (outdir / session_page("mcp", name)).is_file(), name
        assert (outdir / "exports" / "mcp" / f"{name}.jsonl").is_file(), name
    links = _site_links(outdir)
    to_names = [t for _, t in links if any(f"sessions/{n}" in t for n in names)]
    assert len(to_names) >= len(names), "the index pages do not link the sessions"
    broken = [(page, target) for page, target in links if not _resolves(outdir, page, target)]
    assert broken == [], broken[:10]
    # Control: a link to a page that is not there is found broken (the check above can fail).
    assert not _resolves(outdir, "mcp/index.md", "sessions/legacy_index_not_here/")
    assert not _resolves(outdir, "mcp/index.md", "sessions/legacy_index_not_here.md")


def test_the_names_taken_pass_one_strict_mkdocs_build(named_project, tmp_path: Path):
    """One strict build over the whole batch (a build per name would take minutes): every session
    page is where its links say, and MkDocs warns of no link."""
    project, names = named_project
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    env.pop("AGENT_LOOP_SIM_ENGINE", None)
    done = subprocess.run([MKDOCS, "build", "--strict", "--site-dir", str(tmp_path / "site")], cwd=project,
                          capture_output=True, text=True, env=env, timeout=900)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr[-3000:]
    from agent_loop_sim.site.pages.conformance import page_url, session_page

    site = tmp_path / "site"
    linked, broken = _built_links(site)
    assert broken == [], broken[:10]
    for name in names:
        page = site / page_url(session_page("mcp", name)) / "index.html"
        assert page.is_file() and page in linked, name
    # Control: a link to a page that is not there is found broken (the check above can fail).
    (site / "results" / "index.html").write_text('<a href="../mcp/sessions/zz_not_a_session/">x</a>')
    assert _built_links(site)[1] == [("results/index.html", "../mcp/sessions/zz_not_a_session/")]


def _built_links(site: Path) -> tuple[set[Path], list[tuple[str, str]]]:
    """The files the built pages' links to sessions and exports lead to, and the links that lead
    nowhere (as (page, href))."""
    linked, broken = set(), []
    for page in site.rglob("*.html"):
        for target in re.findall(r'href="([^"#]*)', page.read_text(encoding="utf-8")):
            if "sessions/" not in target and "exports/" not in target or "//" in target:
                continue
            path = Path(posixpath.normpath(posixpath.join(str(page.parent), target)))
            path = path / "index.html" if target.endswith("/") else path
            if path.is_file():
                linked.add(path)
            else:
                broken.append((str(page.relative_to(site)), target))
    return linked, broken
