"""The engine in the browser (Pyodide, in a worker), read in headless Chromium like a person would.

The site is the shared build of ``test_site_fakes.built_site``; its in-browser pages run this
checkout's real ``agent_loop_sim`` (the fake engine there only stands in for the site's own
pages). The check page must find every committed session equal, and fail when one value of a
served recording is flipped; the playground must play, step, share and refuse as the command
line does; and nothing may be fetched from outside the site's origin.
"""
from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

import pytest

from agent_loop_sim.project import Project
from agent_loop_sim.site.browser import scenario_text
from agent_loop_sim.recording import load_recording
from conftest import run_cli
from test_browser import OUTPUT, SERVED, origin, site  # noqa: F401  (fixtures; `browser` is conftest's, shared)
from test_site_fakes import ROOT

if not (ROOT / "node_modules" / "pyodide" / "pyodide.asm.wasm").is_file():
    if shutil.which("npm"):
        pytest.fail("node_modules/pyodide is missing: run `make setup` (npm ci)", pytrace=False)
    pytest.skip("npm is missing, so the site has no in-browser runtime (see the README)", allow_module_level=True)

LOADED = 240_000  # ms: Pyodide loads in 5-30 s here, longer when the machine is busy
CHECK_DONE = "#browser-check:not([data-state='loading'])"
PLAYED = "#pg-app[data-state='played'], #pg-app[data-state='error']"


@pytest.fixture
def page(browser):  # noqa: F811
    page = browser.new_page()
    yield page
    page.close()


def committed_sessions(project: Path) -> int:
    """The sessions of every committed recording, of every SDK release the engine speaks."""
    paths = [p for p in (project / "recordings").rglob("*.json") if "verdicts" not in p.parts and "raw" not in p.parts]
    return sum(len(json.loads(p.read_text())["sessions"]) for p in paths)


def check_verdict(page, origin_url: str) -> dict:  # noqa: F811
    page.goto(f"{origin_url}/browser/check/")
    page.wait_for_selector(CHECK_DONE, timeout=LOADED)
    box = page.locator("#browser-check")
    return {"state": box.get_attribute("data-state"), "sessions": int(box.get_attribute("data-sessions") or -1),
            "equal": int(box.get_attribute("data-equal") or -1), "text": box.inner_text()}


def test_the_browser_engine_plays_every_committed_session_as_recorded(site, origin, page):  # noqa: F811
    verdict = check_verdict(page, origin)
    count = committed_sessions(site[0])
    print(f"in-browser check: {verdict['equal']}/{verdict['sessions']} sessions equal (committed: {count})")
    assert verdict["state"] == "equal", verdict["text"]
    assert verdict["sessions"] == verdict["equal"] == count > 0
    assert f"{count}/{count} sessions equal" in verdict["text"]
    # the total reconciled with the home page's: the pinned releases' sessions are named as its count
    home = sum(len(f.sessions) for f in Project(site[0]).scenario_files())
    assert f"{home} with a2a-sdk 1.2.2, mcp 2.3.0 (the pinned releases: the sessions the home page counts)" in verdict["text"]
    # a row per recording, every release's, each value named by its column (read so on a phone)
    sdks = page.locator("#browser-check td[data-label='SDK']").all_inner_texts()
    assert set(sdks) == {"mcp 2.3.0", "mcp 2.2.0", "a2a-sdk 1.2.2", "a2a-sdk 1.3.0"}, sdks


def test_a_flipped_value_in_the_served_recording_fails_the_check(site, origin, browser, page):  # noqa: F811
    project = Project(site[0])
    file = next(f for f in project.scenario_files() if f.family == "mcp")
    first = load_recording(str(project.recording_path(file))).sessions[0]
    url = f"{origin}/browser/project/recordings/{file.recording}"

    def flip(route):
        response = route.fetch()
        data = response.json()
        data["sessions"][0]["messages"][0]["json"]["jsonrpc"] = "1.0"  # one value, in one message
        route.fulfill(response=response, body=json.dumps(data))

    browser.route(url, flip)  # the context's route: the worker's fetches go through it too
    try:
        verdict = check_verdict(page, origin)
    finally:
        browser.unroute(url)
    count = committed_sessions(site[0])
    print(f"in-browser check, one value flipped: {verdict['equal']}/{verdict['sessions']} sessions equal")
    assert verdict["state"] == "different"
    assert verdict["sessions"] == count and verdict["equal"] == count - 1
    assert f"session '{first.name}', message 1, $.jsonrpc: committed \"1.0\", engine \"2.0\"" in verdict["text"]


def shown_transcript(page) -> list[dict]:
    return page.evaluate("""() => [...document.querySelectorAll('#pg-transcript > li')].map(li => ({
        n: Number(li.dataset.n), heading: li.querySelector('h3').textContent,
        code: li.querySelector('code') ? li.querySelector('code').textContent : null,
        spans: li.querySelectorAll('code span[class]').length,
        current: li.classList.contains('playground__current')}))""")


def palette(page, scheme: str) -> None:
    if page.evaluate("document.body.getAttribute('data-md-color-scheme')") != scheme:
        page.locator("form[data-md-component='palette'] label:visible").first.click()
        page.wait_for_function(f"document.body.getAttribute('data-md-color-scheme') === '{scheme}'")


def test_the_playground_plays_steps_and_shows_the_models_state(site, origin, page):  # noqa: F811
    project = Project(site[0])
    file = next(f for f in project.scenario_files() if f.recording == "sdk_exchanges.json")
    recorded = load_recording(str(project.recording_path(file))).sessions[0]
    page.goto(f"{origin}/browser/playground/")
    page.wait_for_selector(PLAYED, timeout=LOADED)
    assert page.locator("#pg-editor").input_value() == scenario_text(file, file.sessions[0])
    assert page.locator("#pg-error").is_hidden()  # (no empty error box under a run that went well)
    shown = shown_transcript(page)
    assert [m["n"] for m in shown] == list(range(1, len(recorded.messages) + 1))
    for m, message in zip(shown, recorded.messages):
        assert m["heading"].startswith(f"{m['n']}. {message.sender} → {message.receiver}")
        assert json.loads(m["code"]) == message.json and m["spans"] > 0
    # Stepping: keys and buttons move the highlight and the state with them.
    assert page.locator("#pg-position").inner_text() == f"Message 1 of {len(shown)}"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.locator("button[data-step='next']").click()
    page.locator("button[data-step='prev']").click()
    assert page.locator("#pg-position").inner_text() == f"Message 3 of {len(shown)}"
    assert [m["n"] for m in shown_transcript(page) if m["current"]] == [3]
    assert "era: handshake" in page.locator("#pg-state").inner_text()
    OUTPUT.mkdir(exist_ok=True)
    for width, height, device in ((1280, 900, "desktop"), (390, 844, "phone")):
        page.set_viewport_size({"width": width, "height": height})
        page.locator("#pg-m3").scroll_into_view_if_needed()
        for scheme, name in (("default", "light"), ("slate", "dark")):
            palette(page, scheme)
            page.screenshot(path=str(OUTPUT / f"playground-{device}-{name}.png"))
            assert (OUTPUT / f"playground-{device}-{name}.png").stat().st_size > 10_000
    page.set_viewport_size({"width": 1280, "height": 900})
    page.locator("#pg-position").click()  # the focus off the palette's radio button, which takes arrow keys
    page.keyboard.press("End")
    assert page.locator("#pg-position").inner_text() == f"Message {len(shown)} of {len(shown)}"
    page.keyboard.press("Home")
    assert [m["n"] for m in shown_transcript(page) if m["current"]] == [1]

    # The other era, and an A2A session: the state the model reports changes with them.
    for name, state in (("modern_tour", "era: 2026-07-28"), ("a2a_input", "TASK_STATE_INPUT_REQUIRED")):
        option = page.locator("#pg-pick option", has_text=f"{name}: ")
        page.locator("#pg-pick").select_option(option.first.get_attribute("value"))
        page.wait_for_function(f"document.querySelector('#pg-transcript h3') && "
                               f"document.querySelector('#pg-editor').value.includes('\"{name}\"') && "
                               f"document.querySelector('#pg-app').dataset.state === 'played'", timeout=60_000)
        seen = []
        for _ in shown_transcript(page):
            seen.append(page.locator("#pg-state").inner_text())
            page.keyboard.press("ArrowRight")
        assert any(state in s for s in seen), (name, seen)


def _link_step_and_http_envelope(site, origin, page) -> None:  # noqa: F811
    """A link with a step opens there; an A2A message shows its HTTP envelope; stepping moves the
    step in the address (run first in the bad-input test: one load of the engine for both)."""
    from agent_loop_sim.site.browser import fragment

    project = Project(site[0])
    file = next(f for f in project.scenario_files() if f.recording == "a2a_sdk_exchanges_more.json")
    session = file.session("a2a_versions")
    recorded = load_recording(str(project.recording_path(file))).session("a2a_versions")
    page.goto(f"{origin}/browser/playground/#{fragment(scenario_text(file, session))}&step=3")
    page.wait_for_selector(PLAYED, timeout=LOADED)
    # The link opened at its step.
    count = len(recorded.messages)
    assert page.locator("#pg-position").inner_text() == f"Message 3 of {count}"
    assert page.locator("#pg-transcript > li.playground__current").get_attribute("data-n") == "3"
    # Each message's HTTP envelope, as recorded: the request line or status, and the headers.
    for n, message in enumerate(recorded.messages, 1):
        shown = page.locator(f"#pg-m{n} .playground__http")
        assert shown.count() == (1 if message.http else 0), n
        if message.http:
            words = shown.inner_text()
            first = f"{message.http['method']} {message.http.get('path', '')}" if "method" in message.http \
                else f"HTTP {message.http['status']}"
            assert words.startswith(first.strip()), (n, words)
            for name, value in message.http.get("headers") or []:
                assert f"{name}: {value}".strip() in words, (n, name)  # (inner text: an empty value ends the line)
    assert any(name == "A2A-Version" for m in recorded.messages if m.http for name, _ in m.http.get("headers") or [])
    # Stepping moves the step in the address; the link copied then opens there.
    page.locator("#pg-position").click()
    page.keyboard.press("ArrowRight")
    page.wait_for_function("location.hash.endsWith('&step=4')")
    assert page.locator("#pg-link").get_attribute("href") == "#" + page.url.split("#", 1)[1]
    page.keyboard.press("End")
    page.wait_for_function(f"location.hash.endsWith('&step={count}')")
    # A link to another step of the same scenario, followed on the page, goes there (no new run).
    page.evaluate("location.hash = location.hash.replace(/&step=\\d+$/, '&step=2')")
    page.wait_for_function("document.querySelector('#pg-position').textContent.startsWith('Message 2 of')")
    OUTPUT.mkdir(exist_ok=True)  # the editor with its line numbers, and a message in its envelope
    for width, height, device in ((1400, 900, "desktop"), (390, 844, "phone")):
        page.set_viewport_size({"width": width, "height": height})
        for scheme, name in (("default", "light"), ("slate", "dark")):
            palette(page, scheme)
            for part, at in (("editor", "#pg-pick"), ("envelope", "#pg-m2")):
                page.locator(at).scroll_into_view_if_needed()
                page.evaluate(f"document.querySelector('{at}').scrollIntoView({{block: 'start'}})")
                page.screenshot(path=str(OUTPUT / f"playground-{part}-{device}-{name}.png"))


def test_the_playground_opens_a_links_step_shows_http_and_refuses_bad_input(site, origin, page, tmp_path):  # noqa: F811
    _link_step_and_http_envelope(site, origin, page)
    bad = json.dumps({"recording": "x.json", "sessions": [
        {"name": "bad_op", "family": "mcp", "title": "t", "mode": "legacy", "actions": [{"tool": "add"}]}]})
    (tmp_path / "playground.json").write_text(bad)
    cli = run_cli("run", "playground.json", cwd=tmp_path)
    assert cli.returncode == 2 and cli.stderr.startswith("error: playground.json, session 'bad_op', at $.sessions[0]")
    page.locator("#pg-editor").fill(bad)
    page.locator("#pg-run").click()
    page.wait_for_selector("#pg-app[data-state='error']", timeout=60_000)
    # The command line's words, naming what the reader sees (the editor) where it names its file.
    editor = "error: the editor"
    assert page.locator("#pg-error").inner_text() == cli.stderr.strip().replace("error: playground.json", editor, 1)
    page.locator("#pg-editor").fill('{\n  "recording": "x.json",\n  "sessions": [}')
    page.locator("#pg-editor").press("Control+Enter")
    page.wait_for_function("document.querySelector('#pg-error').textContent.includes('not valid JSON')", timeout=60_000)
    (tmp_path / "playground.json").write_text('{\n  "recording": "x.json",\n  "sessions": [}')
    said = run_cli("run", "playground.json", cwd=tmp_path).stderr.strip()
    assert said.endswith("(line 3, column 16)")
    assert page.locator("#pg-error").inner_text() == said.replace("error: playground.json", editor, 1)
    # The editor numbers its lines, and the line the error names is marked there.
    assert page.locator("#pg-gutter span").all_inner_texts() == ["1", "2", "3"]
    assert page.locator("#pg-gutter span.playground__gutter-error").inner_text() == "3"


def test_a_link_reopens_the_scenario_and_session_pages_link_theirs(site, origin, browser, page):  # noqa: F811
    project = Project(site[0])
    file = next(f for f in project.scenario_files() if f.recording == "sdk_exchanges.json")
    session = file.session("legacy_tour")
    own = scenario_text(file, session).replace(session.title, "My own <b>title</b> & ping")
    page.goto(f"{origin}/browser/playground/")
    page.wait_for_selector(PLAYED, timeout=LOADED)
    page.locator("#pg-editor").fill(own)
    page.locator("#pg-run").click()
    page.wait_for_function("location.hash.length > 20 && document.querySelector('#pg-app').dataset.state === 'played'")
    shared = page.url
    assert page.locator("#pg-link").get_attribute("href") == "#" + shared.split("#", 1)[1]
    again = browser.new_page()
    try:
        again.goto(shared)
        again.wait_for_selector(PLAYED, timeout=LOADED)
        assert again.locator("#pg-editor").input_value() == own
        assert again.locator("#pg-pick").input_value() == ""  # not one of the committed sessions
        assert shown_transcript(again)[0]["heading"] == shown_transcript(page)[0]["heading"]
    finally:
        again.close()

    page.goto(f"{origin}/mcp/sessions/legacy_tour/")
    page.locator("a.playground-link").click()
    page.wait_for_selector(PLAYED, timeout=LOADED)
    assert page.locator("#pg-editor").input_value() == scenario_text(file, session)
    recorded = load_recording(str(project.recording_path(file))).session("legacy_tour")
    assert len(shown_transcript(page)) == len(recorded.messages)


def test_the_playground_speaks_another_sdk_release_as_run_release_does(site, origin, browser, page, tmp_path):  # noqa: F811
    """mcp 2.2.0 sends `_meta: {}` on handshake-era requests where 2.3.0 sends none: the picker's
    release plays the session as that release's recording has it, and the link keeps it."""
    project = Project(site[0])
    file = next(f for f in project.scenario_files() if f.recording == "sdk_exchanges.json")
    older = load_recording(str(project.recording_path(file, "2.2.0"))).session("legacy_tour")
    page.goto(f"{origin}/browser/playground/")
    page.wait_for_selector(PLAYED, timeout=LOADED)  # (legacy_tour, the first session of mcp.json)
    pinned = shown_transcript(page)
    page.locator("#pg-release").select_option("2.2.0")
    page.wait_for_function("location.hash.includes('release=2.2.0') && "
                           "document.querySelector('#pg-app').dataset.state === 'played'", timeout=60_000)
    shown = shown_transcript(page)
    assert [json.loads(m["code"]) for m in shown] == [m.json for m in older.messages]
    assert [m["code"] for m in shown] != [m["code"] for m in pinned]  # (the releases differ here)
    again = browser.new_page()
    try:
        again.goto(page.url)
        again.wait_for_selector(PLAYED, timeout=LOADED)
        assert again.locator("#pg-release").input_value() == "2.2.0"
        assert [m["code"] for m in shown_transcript(again)] == [m["code"] for m in shown]
    finally:
        again.close()
    # An A2A session with an MCP release: refused as `run --release` refuses it.
    a2a = next(f for f in project.scenario_files() if f.family == "a2a")
    text = scenario_text(a2a, a2a.sessions[0])
    (tmp_path / "playground.json").write_text(text)
    cli = run_cli("run", "playground.json", "--release", "2.2.0", cwd=tmp_path)
    assert cli.returncode == 2, cli.stderr
    page.locator("#pg-editor").fill(text)
    page.locator("#pg-run").click()
    page.wait_for_selector("#pg-app[data-state='error']", timeout=60_000)
    assert page.locator("#pg-error").inner_text() == cli.stderr.strip().replace("error: playground.json", "error: the editor", 1)


def test_a_link_naming_a_release_the_page_does_not_speak_says_so(origin, page):  # noqa: F811
    page.goto(f"{origin}/browser/playground/")
    page.wait_for_selector(PLAYED, timeout=LOADED)
    assert page.locator("#pg-notice").is_hidden()
    page.goto(page.url.split("&release=")[0] + "&release=9.9.9")  # (a hash change: the page plays it again)
    page.wait_for_selector("#pg-notice:not([hidden])", timeout=60_000)
    said = page.locator("#pg-notice").inner_text()
    assert "release 9.9.9" in said and "pinned (mcp 2.3.0, a2a-sdk 1.2.2) instead" in said, said
    assert page.locator("#pg-release").input_value() == ""
    OUTPUT.mkdir(exist_ok=True)
    page.evaluate("window.scrollTo(0, 0)")
    for width, height, device, scheme, name in ((1280, 900, "desktop", "default", "light"), (390, 844, "phone", "slate", "dark")):
        page.set_viewport_size({"width": width, "height": height})
        palette(page, scheme)
        page.screenshot(path=str(OUTPUT / f"playground-release-notice-{device}-{name}.png"))
    page.set_viewport_size({"width": 1280, "height": 900})
    page.locator("#pg-release").select_option("2.2.0")
    page.wait_for_function("location.hash.includes('release=2.2.0')", timeout=60_000)
    assert page.locator("#pg-notice").is_hidden()


def _link(chunks, count: int) -> str:
    """A playground fragment of ``count`` chunks of text, deflated as they come (400 MB need not
    be held to make its 0.4 MB link)."""
    import base64
    import zlib

    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    packed = b"".join(packer.compress(chunks) for _ in range(count)) + packer.flush()
    return "#scenario=" + base64.urlsafe_b64encode(packed).decode().rstrip("=")


def test_hostile_link_inflating_to_400_mb_is_refused_before_it_is_read_whole(origin, page):  # noqa: F811
    """Issue 31, row 7: the link's text is inflated as a stream and stopped at the engine's largest
    file (16 MiB): a 0.4 MB link of 400 MB is refused at once, the tab alive. Control: a link of a
    scenario under the limit opens and plays."""
    huge = _link(b" " * (1 << 20), 400)
    assert len(huge) < 1_000_000
    started = time.monotonic()
    page.goto(f"{origin}/browser/playground/{huge}")
    page.wait_for_selector("#pg-app[data-state='error']", timeout=60_000)
    assert time.monotonic() - started < 20
    said = page.locator("#pg-error").inner_text()
    assert said.startswith("The link's scenario is over the largest file limit of 16,777,216 bytes"), said
    assert page.evaluate("1 + 1") == 2  # the tab still answers
    small = _link(json.dumps({"recording": "x.json", "sessions": [
        {"name": "zz_link", "family": "mcp", "title": "t", "mode": "legacy", "actions": [{"op": "ping"}]}]}).encode(), 1)
    page.goto(f"{origin}/browser/playground/{small}")
    page.wait_for_selector("#pg-app[data-state='played']", timeout=LOADED)
    assert page.locator("#pg-error").is_hidden()


def test_hostile_link_broken_after_the_first_load_is_said(origin, page):  # noqa: F811
    """Issue 31, row 9: a broken link opened in a page already loaded (a hashchange) was an
    uncaught atob error and no message; said as on a first load. Control: a good link then plays."""
    page.goto(f"{origin}/browser/playground/#scenario=%%%")
    page.wait_for_selector("#pg-app[data-state='error']", timeout=LOADED)
    assert "cannot be read" in page.locator("#pg-error").inner_text()
    page.goto(f"{origin}/browser/playground/")
    page.wait_for_selector(PLAYED, timeout=LOADED)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    good = page.url
    page.evaluate("location.hash = '#scenario=%%%'")
    page.wait_for_selector("#pg-app[data-state='error']", timeout=60_000)
    assert "cannot be read (the address was cut or changed)" in page.locator("#pg-error").inner_text()
    page.evaluate("document.querySelector('#pg-error').textContent = ''")
    page.evaluate("location.hash = '#scenario=' + 'A'.repeat(40)")  # base64, but not deflate
    page.wait_for_function("document.querySelector('#pg-error').textContent.includes('cannot be read')")
    assert errors == [], errors
    page.goto(good.split("#")[0] + _link(b'{"recording": "x.json", "sessions": [{"name": "zz_again", "family": "mcp", '
                                        b'"title": "t", "mode": "legacy", "actions": [{"op": "ping"}]}]}', 1))
    page.wait_for_selector("#pg-app[data-state='played']", timeout=60_000)
    assert page.locator("#pg-error").is_hidden()


def test_no_request_leaves_the_sites_origin_with_the_engine_in_use(origin, browser):  # noqa: F811
    """Every request this module's browser made: the check, the playground, its links."""
    requests = browser.requests
    outside = [url for url in requests if not any(url.startswith(o + "/") for o in SERVED)]
    assert not outside
    for loaded in ("pyodide/pyodide.asm.wasm", "pyodide/python_stdlib.zip", "engine/agent_loop_sim.zip"):
        assert any(url == f"{origin}/browser/{loaded}" for url in requests), loaded
