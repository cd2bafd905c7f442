"""What `mkdocs serve` (``make serve``) needs beyond a build: a watcher that reacts at once, the
theme's templates compiled once, and a search index merged page by page after a dirty rebuild.
Used by `events` (hooks/conformance_site.py); none of it runs in ``mkdocs build``.
"""
from __future__ import annotations

import logging
from typing import Any, Callable

import jinja2
import jinja2.bccache

log = logging.getLogger("mkdocs.hooks.conformance_site")


def _changes_only(observer_class: type) -> type:
    """The native observer, reporting changes only. Inotify also reports a file opened or closed
    unwritten, and MkDocs rebuilds on any event: each build reads the recordings it watches, so
    each build would start another."""
    import watchdog.events as e

    changes = [e.FileCreatedEvent, e.FileModifiedEvent, e.FileDeletedEvent, e.FileMovedEvent, e.FileClosedEvent]

    class ChangesOnly(observer_class):  # type: ignore[misc, valid-type]
        def schedule(self, handler: Any, path: Any, *, recursive: bool = False, event_filter: Any = None,
                     **kwargs: Any) -> Any:
            return super().schedule(handler, path, recursive=recursive, event_filter=event_filter or changes, **kwargs)
    return ChangesOnly


def watch_with_events(server: Any) -> None:
    """MkDocs watches by polling every 0.5 s, then waits 0.1 s for the edits to stop: 0.1 to
    0.6 s before a rebuild starts. Watch with the system's file events instead (inotify here,
    watchdog's native observer), which report a saved file at once; the 0.1 s wait stays, so that
    a save of several files is one rebuild. Polling stays where no native observer can start.
    This moves MkDocs 1.6's watches (``_watched_paths``; 1.6 is the last 1.x) to the new observer."""
    import watchdog.observers
    import watchdog.observers.polling

    if watchdog.observers.Observer is watchdog.observers.polling.PollingObserver:
        return  # no native file events on this system
    paths = dict(server._watched_paths)
    old = server.observer

    def watch_all(observer: Any) -> None:
        server.observer = observer
        server._watched_paths.clear()
        server._watch_refs.clear()
        for path, count in paths.items():
            for _ in range(count):
                server.watch(path)
    try:
        watch_all(_changes_only(watchdog.observers.Observer)())
    except OSError as exc:  # out of inotify watches, say: poll as MkDocs does
        log.info(f"watching by polling (no file events: {exc})")
        watch_all(old)


class CompiledTemplates(jinja2.BytecodeCache):
    """The theme's templates compiled once per ``mkdocs serve``: MkDocs makes a new Jinja
    environment for every build, which compiled them all again (about a second a rebuild here).
    Jinja keys each on the template's name and checks the source's checksum before using it."""

    def __init__(self) -> None:
        self.compiled: dict[str, bytes] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        if bucket.key in self.compiled:
            bucket.bytecode_from_string(self.compiled[bucket.key])

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self.compiled[bucket.key] = bucket.bytecode_to_string()


def merge_search_index(search: Any, urls: set[str]) -> None:
    """Under ``serve --dirty`` the search plugin sees only the pages it rebuilt, and merges them
    into its last index by the first one's URL prefix: the other rebuilt pages came out twice, a
    removed page stayed, and a rebuilt home page (URL "") dropped every other page. Merge by page
    instead: the last index minus every page rebuilt now or gone (not in ``urls``), plus what was
    rebuilt."""
    previous = getattr(search, "search_index_prev", None)
    if previous is None:
        return
    page_of: Callable[[dict], str] = lambda entry: entry["location"].partition("#")[0]  # noqa: E731
    rebuilt = {page_of(e) for e in search.search_index.entries}
    kept = [e for e in previous.entries if page_of(e) not in rebuilt and page_of(e) in urls]
    search.search_index.entries = kept + search.search_index.entries
    search.search_index_prev = None  # merged here; the plugin keeps this index for the next build
