"""What the session pages and the findings claim, read in Chromium (issue 34): the normalised
values said and marked, each message's switch to the bytes as sent, an SSE event in its frame,
every reply one click away, the findings grouped with the departures set apart.

The site is the one `test_browser` builds (one build per test run, served once).
"""
from __future__ import annotations

import json

import pytest

from test_browser import OUTPUT, light_and_dark, origin, site  # noqa: F401  (fixtures; `browser` is conftest's, shared)


@pytest.fixture
def page(browser):  # noqa: F811
    page = browser.new_page()
    yield page
    page.close()


def _sidecar(project, recording: str, session: str) -> list[dict]:
    data = json.loads((project / "recordings" / "raw" / recording).read_text())
    return next(s["wire"] for s in data["sessions"] if s["name"] == session)


def test_normalised_values_are_said_above_the_log_and_marked_in_it(origin, page):  # noqa: F811
    page.goto(f"{origin}/a2a/sessions/a2a_stream/")
    box = page.locator(".normalised")
    assert box.is_visible() and "<id-1>" in box.inner_text() and "<time>" in box.inner_text()
    # the box stands right above the log
    assert page.evaluate("document.querySelector('.normalised').compareDocumentPosition("
                         "document.querySelector('.wirelog')) & Node.DOCUMENT_POSITION_FOLLOWING")
    marks = page.evaluate("[...document.querySelectorAll('#m4 mark.nf')].map(m => [m.textContent, m.title])")
    assert ["<id-2>", "normalised: the SDK sent a random UUID here"] in marks, marks
    assert all(t.startswith("normalised: ") for _, t in marks)
    # an unmarked value is as sent: the task's state is never marked
    assert not page.locator("#m4 mark.nf", has_text="TASK_STATE").count()
    # MCP: a message's own id, and over HTTP the session id a server issued
    page.goto(f"{origin}/mcp/sessions/http_legacy_tour/")
    assert page.locator("#m1 .msg-body code mark.nf").first.text_content() == '"c1"'  # (in a folded body)
    assert page.locator("#m1 .msg-body code mark.nf").count() == 1  # (only the message's own id)
    assert page.locator("#m1 .msg-head mark.nf").text_content() == "c1"  # and the summary's
    header = page.locator("#m2 .msg-http mark.nf")
    assert header.text_content() == "<session-1>" and "session id the server issued" in header.get_attribute("title")
    assert "<session-1>" in page.locator(".normalised").inner_text()


def test_as_sent_shows_each_message_as_it_crossed_the_wire(site, origin, page):  # noqa: F811
    project, _ = site
    page.goto(f"{origin}/mcp/sessions/http_legacy_tour/")
    switch = page.locator("#m2 details.msg-sent")
    assert not switch.evaluate("d => d.open") and not switch.locator("pre").is_visible()  # closed until asked
    switch.locator("summary").click()
    shown = switch.locator("pre").inner_text()
    sent = _sidecar(project, "sdk_exchanges_http.json", "http_legacy_tour")[1]
    frame = sent["frame"].split("\r\n")
    assert shown.startswith("HTTP 200\n") and f"mcp-session-id: {dict(sent['http']['headers'])['mcp-session-id']}" in shown
    assert "event: message\\r\\n" in shown and f"{frame[1]}\\r\\n\n\\r\\n" in shown  # the frame, line ends and all
    assert '"id":1' in shown and "<session-" not in shown  # the run's own values, not the normal form
    # a stdio line, exactly
    page.goto(f"{origin}/mcp/sessions/legacy_tour/")
    page.locator("#m1 details.msg-sent summary").click()
    assert page.locator("#m1 details.msg-sent pre").inner_text() == _sidecar(project, "sdk_exchanges.json", "legacy_tour")[0]["line"]


def test_an_sse_event_is_shown_in_its_frame(origin, page):  # noqa: F811
    page.goto(f"{origin}/mcp/sessions/http_legacy_tour/")
    assert page.locator("#m2 .msg-frame").inner_text().split() == ["event:", "message", "data:", "↓"]
    page.goto(f"{origin}/a2a/sessions/a2a_stream/")
    frames = page.evaluate("[...document.querySelectorAll('section.msg')].filter(m => m.querySelector('.msg-head .sse'))"
                           ".map(m => m.querySelector('.msg-frame') && m.querySelector('.msg-frame').textContent)")
    assert frames and all(f and f.strip() == "data: ↓" for f in frames), frames  # sse-starlette writes data alone


def test_every_reply_is_a_link_the_ones_past_the_third_folded(origin, page):  # noqa: F811
    page.goto(f"{origin}/a2a/sessions/a2a_stream/")
    more = page.locator("details.msg-more").first
    request = more.evaluate("d => d.closest('section.msg').id")
    assert not more.locator("a").first.is_visible()
    more.locator("summary").click()
    links = more.locator("a.msg-rel")
    assert links.count() >= 1 and links.first.is_visible()
    target = links.last.get_attribute("href")
    links.last.click()
    page.wait_for_function(f"location.hash === '{target}'")
    assert page.locator(f"{target} a.msg-rel", has_text="request").get_attribute("href") == f"#{request}"


def test_findings_are_grouped_the_departures_first(origin, page):  # noqa: F811
    for path in ("", "findings/"):
        page.goto(f"{origin}/{path}")
        kinds = page.locator("article p.findings-kind").all_inner_texts()
        assert len(kinds) == 2 and kinds[0].startswith("Where the SDK departs from the specification"), kinds
        departures = page.evaluate("""() => { const p = document.querySelector('p.findings-departure');
            return [...p.nextElementSibling.querySelectorAll('li li a')].map(a => a.getAttribute('href').split('#')[1]) }""")
        assert len(departures) >= 9
    # each one listed as a departure is under that heading on the findings page, with the spec linked
    page.goto(f"{origin}/findings/")
    under = page.evaluate("""(ids) => ids.map(id => { let h = document.getElementById(id);
        let el = h; while (el && el.tagName !== 'H2') el = el.previousElementSibling; return el && el.textContent })""",
                          departures)
    assert all(h and "departs" in h for h in under), under


def test_the_missing_version_finding_points_at_the_request_without_the_header(origin, page):  # noqa: F811
    page.goto(f"{origin}/findings/")
    finding = page.locator("#missing-version-means-0-3")
    text = page.evaluate("""() => { let el = document.getElementById('missing-version-means-0-3'), out = [];
        for (el = el.nextElementSibling; el && el.tagName !== 'H3' && el.tagName !== 'H2'; el = el.nextElementSibling)
          out.push(el.textContent); return out.join('\\n') }""")
    assert finding.count() == 1 and "not part of the recorded messages" not in text
    assert "was sent with no A2A-Version header" in text
    link = page.locator("a", has_text="a2a_errors, message 3").first
    link.click()
    page.wait_for_url("**/a2a/sessions/a2a_errors/#m3")
    assert "A2A-Version" not in page.locator("#m3 .msg-http").inner_text()
    assert "A2A-Version: 1.0" in page.locator("#m1 .msg-http").inner_text()


SHOTS = {"truth-session-a2a": ("a2a/sessions/a2a_stream/#m3", "#m3 details.msg-more summary"),
         "truth-as-sent": ("mcp/sessions/http_legacy_tour/#m2", "#m2 details.msg-sent summary"),
         "truth-normalised": ("mcp/sessions/http_legacy_tour/#normalised", None),
         "truth-findings": ("", None)}


def test_screenshots_light_and_dark_desktop_and_phone(origin, page):  # noqa: F811
    """tests/output/truth-<page>-<light|dark>-<desktop|phone>.png, for a person to look at."""
    OUTPUT.mkdir(exist_ok=True)
    for device, size in (("desktop", {"width": 1400, "height": 900}), ("phone", {"width": 390, "height": 844})):
        page.set_viewport_size(size)
        for name, (path, click) in SHOTS.items():
            page.goto(f"{origin}/{path}")
            if click:
                page.locator(click).click()
            if name == "truth-findings":
                page.locator("p.findings-departure").scroll_into_view_if_needed()
            light_and_dark(page, name, device)
