"""MkDocs adapter for the conformance site: each event goes to ``agent_loop_sim.site.mkdocs.events``.
Only the fresh import of this checkout's package is done here (the package cannot reload itself)."""
import importlib
import os
import sys

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority

EVENTS = "agent_loop_sim.site.mkdocs.events"
_last: dict = {}  # what the events keep between builds (`mkdocs serve` keeps this module loaded)


def on_startup(command, dirty):
    _last.update(command=command, dirty=dirty)


def on_config(config):
    root = os.path.dirname(os.path.realpath(config.config_file_path))
    if sys.path[:1] != [root]:
        sys.path.insert(0, root)  # this checkout's package, not an installed one
    try:  # imported afresh when its code changed, or another engine is named (`stale`)
        events = sys.modules.get(EVENTS)
        if events is None or events.stale(_last, root):
            engine = os.environ.get("AGENT_LOOP_SIM_ENGINE", "").partition(":")[0]  # (its module too)
            for name in [n for n in sys.modules if n.partition(".")[0] == "agent_loop_sim" or n == engine]:
                del sys.modules[name]
        events = importlib.import_module(EVENTS)
    except Exception as exc:  # still one readable line, not a traceback
        raise PluginError(f"the conformance site could not be rendered: {type(exc).__name__}: {exc}") from exc
    return events.conformance_config(_last, config)


def on_files(files, config):
    return importlib.import_module(EVENTS).conformance_files(_last, files, config)  # (the one on_config imported)


def on_serve(server, config, builder):
    return importlib.import_module(EVENTS).conformance_serve(server)


def on_env(env, config, files):
    return importlib.import_module(EVENTS).conformance_env(_last, env, files)


@event_priority(50)  # before the search plugin writes its index
def on_post_build(config):
    importlib.import_module(EVENTS).conformance_post_build(_last, config)


def on_page_markdown(markdown, page, **kwargs):
    _last["page"] = page.file.src_uri  # which page MkDocs is rendering, should it fail
    return markdown


def on_build_error(error, **kwargs):
    importlib.import_module(EVENTS).build_error(_last, error)
