"""MkDocs adapter for the site's in-browser part (the check page, the playground and what they load):
each event goes to ``agent_loop_sim.site.mkdocs.events``. Listed after conformance_site.py in
mkdocs.yml, which has imported this checkout's package afresh and refused an unreadable scenario."""
import importlib

_state: dict = {}  # what the events keep between builds (`mkdocs serve` keeps this module loaded)


def _events():
    return importlib.import_module("agent_loop_sim.site.mkdocs.events")  # the one conformance_site.py imported


def on_startup(command, dirty):
    _state.update(command=command, dirty=dirty)


def on_config(config):
    return _events().browser_config(_state, config)


def on_files(files, config):
    return _events().browser_files(_state, files, config)
