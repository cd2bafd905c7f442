"""Where things are in a checkout: scenario files and their recordings."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .errors import InputError
from .scenarios import ScenarioFile, load_many

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
        return load_many(list(paths) if paths else self.scenario_paths())

    def recording_path(self, file: ScenarioFile) -> Path:
        return self.recording_dir / file.recording

    def relative(self, path: str | Path) -> str:
        try:
            return str(Path(path).resolve().relative_to(self.root.resolve()))
        except ValueError:
            return str(path)
