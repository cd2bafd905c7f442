"""Where things are in a checkout: scenario files and their recordings."""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from .errors import InputError
from .protocols import FAMILIES
from .scenarios import ScenarioFile, load_many

# What a site build reads besides mkdocs.yml: a copy of these builds the same site (the tests'
# and the benchmark's throwaway checkouts copy them).
SITE_INPUTS = ("agent_loop_sim", "scenarios", "recordings", "conformance", "worlds", "hooks", "docs", "overrides",
               "benchmarks/results")

@dataclass(frozen=True)
class Project:
    root: Path

    @property
    def scenario_dir(self) -> Path:
        return self.root / "scenarios"

    @property
    def recording_dir(self) -> Path:
        return self.root / "recordings"

    def scenario_paths(self) -> list[Path]:
        paths = sorted(self.scenario_dir.glob("*.json"))
        if not paths:
            raise InputError("no scenario files (*.json)", file=str(self.scenario_dir))
        return paths

    def scenario_files(self, paths: list[str] | None = None) -> list[ScenarioFile]:
        """The scenario files ``paths`` names (every one in scenarios/ by default); a file named
        twice (``scenarios/*.json scenarios/mcp.json``, or as ``./scenarios/mcp.json``) is read once."""
        if not paths:
            return load_many(self.scenario_paths())
        seen: set[Path] = set()
        unique = []
        for path in paths:
            try:
                key = Path(path).resolve()
            except (OSError, RuntimeError):  # (a symlink loop: load names it)
                key = Path(path)
            if key not in seen:
                seen.add(key)
                unique.append(path)
        return load_many(unique)

    def recording_path(self, file: ScenarioFile, release: str | None = None) -> Path:
        """Where the recording of ``file`` by ``release`` of its SDK is: the pinned release's in
        ``recordings/``, another release's in ``recordings/<package>-<version>/``."""
        releases = FAMILIES[file.family].releases
        if releases is None or releases.check(release) == releases.pinned:
            return self.recording_dir / file.recording
        return self.recording_dir / releases.slug(release) / file.recording

    def release_python(self, family: str, release: str | None) -> Path | None:
        """The Python of the locked environment a release other than the pinned one is recorded
        with (``releases/<package>-<version>/.venv``, built by ``make setup``); ``None`` for the
        pinned release, which is recorded from the project's own environment."""
        releases = FAMILIES[family].releases
        if releases is None or releases.check(release) == releases.pinned:
            return None
        return self.root / "releases" / releases.slug(release) / ".venv" / "bin" / "python"

    def recorded_by(self, files: list[ScenarioFile], release: str) -> list[ScenarioFile]:
        """The scenario files ``release`` of their SDK has a committed recording of. Another
        release's recordings may lag behind a new scenario file; ``record --check`` (which records
        every file with every release and compares) is what insists on them all."""
        return [f for f in files if self.recording_path(f, release).exists()]

    def other_releases(self, families: list[str]) -> list[tuple[str, str]]:
        """(family, release) for every release other than the pinned one of ``families``."""
        return [(name, version) for name in FAMILIES if name in families
                for version in (FAMILIES[name].releases.others if FAMILIES[name].releases else ())]

    def refuse_inputs(self, output: str | Path, what: str = "the output") -> None:
        """Refuse an ``output`` (a file or a folder to write) in scenarios/ or recordings/: their
        files are the input of every command (a .json in scenarios/ is read as a scenario file; an
        export over a recording replaces it). Raises `InputError` naming ``output``."""
        resolved = Path(output).resolve()
        for inputs in (self.scenario_dir, self.recording_dir):
            if inputs.resolve() in (resolved, *resolved.parents):
                raise InputError(f"{what} is in {self.relative(inputs)}/, whose files are the commands' input: "
                                 f"write it elsewhere", file=str(output))

    @cached_property
    def _resolved_root(self) -> Path:
        return self.root.resolve()

    @cached_property
    def _relative_names(self) -> dict[str | Path, str]:
        return {}

    def relative(self, path: str | Path) -> str:
        """``path`` as the project names it: relative to the checkout, or as given if outside it.
        An absolute path is worked out once (resolving one costs some 40 µs of system calls, and
        the check names two paths of every file it compares); a relative one depends on the
        working folder, so it is worked out each time."""
        name = self._relative_names.get(path)
        if name is None:
            given = Path(path)
            try:
                name = str(given.resolve().relative_to(self._resolved_root))
            except ValueError:
                name = str(path)
            if given.is_absolute():
                self._relative_names[path] = name
        return name
