"""``FIXTURE_SERVER``: the engine's reading of the fixture world, ``worlds/fixture-server.json``
in this package, from which ``conformance/sdk_server.py`` builds the SDK's server too."""
from __future__ import annotations

from pathlib import Path

from ...jsonio import load_json
from .world import read_world

FIXTURE_WORLD = Path(__file__).resolve().parents[2] / "worlds" / "fixture-server.json"

FIXTURE_SERVER = read_world(load_json(FIXTURE_WORLD, limited=False), str(FIXTURE_WORLD))
