"""`mkdocs serve`'s watcher (site/mkdocs/serving.py): file events instead of polling, for the paths MkDocs
watched, and only for changes: reading a watched file (each build reads the recordings) starts
no rebuild."""
from __future__ import annotations

import time
from pathlib import Path

import pytest
import watchdog.observers
import watchdog.observers.polling
from mkdocs.livereload import LiveReloadServer

from agent_loop_sim.site.mkdocs import serving

pytestmark = pytest.mark.skipif(watchdog.observers.Observer is watchdog.observers.polling.PollingObserver,
                                reason="no native file events here: serve keeps MkDocs' polling")


def _wanted(server: LiveReloadServer, within: float) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        with server._rebuild_cond:
            if server._want_rebuild:
                server._want_rebuild = False
                return True
        time.sleep(0.02)
    return False


def test_the_watcher_takes_file_events_for_changes_only(tmp_path: Path):
    watched = tmp_path / "recordings"
    watched.mkdir()
    recording = watched / "r.json"
    recording.write_text("{}")
    server = LiveReloadServer(builder=lambda: None, host="127.0.0.1", port=0, root=str(tmp_path))
    server.watch(str(watched))
    serving.watch_with_events(server)
    assert not isinstance(server.observer, watchdog.observers.polling.PollingObserver)
    assert list(server._watched_paths) == [str(watched)]
    (tmp_path / "later").mkdir()
    server.watch(str(tmp_path / "later"))  # watched after on_serve (mkdocs.yml's watch:), on the new observer
    server.observer.start()
    try:
        recording.read_text()  # what every build does
        assert not _wanted(server, 1.0)
        recording.write_text('{"edited": true}')
        assert _wanted(server, 10.0)
    finally:
        server.observer.stop()
        server.observer.join(10)
