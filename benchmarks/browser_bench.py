"""P8 of the benchmark: the engine in the browser (Pyodide in a worker), in headless Chromium.

Opening the playground until its first transcript is shown, with an empty browser cache
(cold) and again with the runtime in the cache (warm), alternately; then the engine alone on
every committed session in the browser and natively (``inbrowser.engine_seconds``), alternately.
"""
from __future__ import annotations

import functools
import http.server
import tempfile
import threading
import time
from pathlib import Path
from typing import Callable

from benchmarks.figures import record, side
from benchmarks.measure import ratios, spread

CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PLAYED = "#pg-app[data-state='played'], #pg-app[data-state='error']"


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:  # noqa: ANN002
        pass


def p8_browser(build: Callable[[Path], Path], native_seconds: Callable[[Path], float], repeat: int) -> tuple[str, bool]:
    """``build(dest)`` builds the site of a copy of the checkout and returns (project, site)."""
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():  # (`make bench` installs it, as `make test` does)
        return f"P8 not measured: {CHROMIUM} is missing (run `make browser`, or `make bench`, which does)", True

    with tempfile.TemporaryDirectory(prefix="bench-p6-") as tmp:
        project, site = build(Path(tmp))
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(site)))
        threading.Thread(target=server.serve_forever, daemon=True).start()
        url = f"http://127.0.0.1:{server.server_address[1]}/browser/playground/"
        cold, warm, in_browser, native = [], [], [], []
        with sync_playwright() as p:
            for i in range(max(5, repeat) if repeat > 1 else 1):
                # A: a fresh profile (nothing cached); B: a second page of the same profile.
                context = p.chromium.launch_persistent_context(str(Path(tmp) / f"profile-{i}"), executable_path=CHROMIUM,
                                                               args=FLAGS, headless=True)
                try:
                    for kind in (cold, warm):
                        page = context.new_page()
                        start = time.perf_counter()
                        page.goto(url)
                        page.wait_for_selector(PLAYED, timeout=300_000)
                        if page.get_attribute("#pg-app", "data-state") != "played":
                            raise SystemExit(f"P6: the playground failed: {page.inner_text('#pg-error')}")
                        kind.append(time.perf_counter() - start)
                    # The engine alone, in this page's worker (already loaded), then natively.
                    in_browser.append(page.evaluate(
                        "async () => (await import(new URL('../../javascripts/engine.js', location.href))).call('engineSeconds')"))
                    native.append(native_seconds(project))
                finally:
                    context.close()
        server.shutdown()
    ms = [x * 1000 for x in in_browser], [x * 1000 for x in native]
    record("P8.cold", "the playground, cold", "the playground opened -> first transcript, nothing cached (headless "
           "Chromium)", "s", cold, 1, runs=len(cold))
    record("P8.cached", "the playground, runtime cached", "the playground opened -> first transcript, the runtime cached",
           "s", warm, 1, runs=len(warm))
    record("P8.cached_speedup", "the playground cached against cold", "cold over cached: how many times faster cached",
           "x", ratios(cold, warm), 1, pairs=len(cold))
    record("P8.browser_vs_native", "the engine in the browser against natively", "the engine on every committed session "
           "in the browser (Pyodide) vs natively: times the native time", "x", ratios(in_browser, native), 1,
           pairs=len(cold), sides=[side("in the browser", "ms", ms[0], 0), side("natively", "ms", ms[1], 0)])
    line = (f"P8 the playground, opened -> first transcript: cold {spread(cold, '.1f')} s, runtime cached "
            f"{spread(warm, '.1f')} s ({spread(ratios(cold, warm), '.1f')}x faster cached); "
            f"the engine on every committed session in the browser {spread(ms[0], '.0f')} ms vs natively "
            f"{spread(ms[1], '.0f')} ms: {spread(ratios(in_browser, native), '.1f')}x the native time "
            f"({len(cold)} alternating pairs, median (min-max))")
    return line, True
