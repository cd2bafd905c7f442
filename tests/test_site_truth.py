"""What the pages claim, held to the data: repository links only where a home is configured,
normalised values said and marked as such, the findings grouped, SSE events shown as frames."""
from __future__ import annotations

from agent_loop_sim.site.pages.conformance import repo_link


class _Ctx:
    repo_url = ""


def test_repository_files_are_linked_only_where_a_home_is_configured():
    ctx = _Ctx()
    assert repo_link(ctx, "recordings/x.json", "`x`") == "`x`"  # no home: named, not linked
    ctx.repo_url = "https://forge.example/p/"
    assert repo_link(ctx, "recordings/a b.json", "`x`") == "[`x`](https://forge.example/p/blob/main/recordings/a%20b.json)"


# --- the normal form, said and marked from its own rules ---------------------------------------

import json  # noqa: E402

from agent_loop_sim.exports import transcript_har  # noqa: E402
from agent_loop_sim.normalise import NORMAL_FORMS, normalise_a2a, normalise_mcp, normalise_mcp_http  # noqa: E402
from agent_loop_sim.site.pages.conformance import normal_form_said, normalised_html  # noqa: E402
from agent_loop_sim.site.parts.wirelog import json_html, message_html, normal_marks, summarise  # noqa: E402
from agent_loop_sim.transcript import Message, Transcript  # noqa: E402

UUID_1, UUID_2 = "0c789eab-44eb-4e15-84de-8bfee2d00e74", "a4ef9dac-a752-4ee6-8e67-1e1203fd181b"


def _a2a_sent() -> list[Message]:
    """What an agent sends, before the normal form: ids, a time, a page token, as a run makes them."""
    import base64

    token = base64.urlsafe_b64encode(json.dumps({"ts": 1, "id": UUID_2}).encode()).decode().rstrip("=")
    return [Message("orchestrator", "agent", json={"jsonrpc": "2.0", "id": 1, "method": "ListTasks", "params": {}}),
            Message("agent", "orchestrator", json={"jsonrpc": "2.0", "id": 1, "result": {
                "tasks": [{"id": UUID_1, "contextId": f"ctx {UUID_2}", "status": {"timestamp": "2026-12-07T07:53:04.8Z"}}],
                "nextPageToken": token}})]


def test_every_value_the_normal_form_writes_is_marked_and_nothing_else():
    messages = normalise_a2a(_a2a_sent())
    marks = normal_marks("a2a")
    assert marks.used(messages) == list(NORMAL_FORMS["a2a"])  # ids, the time, the page token: each listed
    shown, _ = json_html(messages[1].json, None, marks)
    marked = [part.split(">", 1)[1] for part in shown.split('<mark class="nf"')[1:]]
    assert [m.split("</mark>")[0] for m in marked] == [
        "&lt;id-1&gt;", "&lt;id-2&gt;", "&lt;time&gt;", "&lt;page after &lt;id-2&gt; &lt;time&gt;&gt;"]
    # the same values as sent: nothing is marked, and no rule is listed
    sent = _a2a_sent()
    assert marks.used(sent) == [] and "mark" not in json_html(sent[1].json, None, marks)[0]
    # MCP: only a message's own id (a params member of the same name is the application's)
    mcp = normalise_mcp([Message("client", "server", json={"jsonrpc": "2.0", "id": 7, "method": "m", "params": {"id": "c9"}})])
    shown, _ = json_html(mcp[0].json, None, normal_marks("mcp"))
    assert shown.count('<mark class="nf"') == 1 and '<mark class="nf" title="normalised: the SDK sent its own request number here">' \
        '<span class="s2">"c1"</span></mark>' in shown


def test_the_session_ids_an_mcp_server_issues_are_marked_in_the_envelope():
    reply = Message("server", "client", json={"jsonrpc": "2.0", "id": 1, "result": {}},
                    http={"status": 200, "headers": [["Mcp-Session-Id", "56f4aedf627243d4a01b988425a44168"]]})
    messages = normalise_mcp_http(normalise_mcp([Message("client", "server", json={"jsonrpc": "2.0", "id": 1, "method": "m"}),
                                                 reply]))
    marks = normal_marks("mcp")
    page = message_html(2, messages[1], summarise(messages)[1], "lane-b", normal=marks)
    assert ('<mark class="nf" title="normalised: the SDK sent the random session id the server issued here">'
            '&lt;session-1&gt;</mark>') in page
    assert [r.where for r in marks.used(messages)] == ["id", "header"]
    # the summary's id too (the head says "id c1")
    assert ('<span class="fk">id</span> <code><mark class="nf" title="normalised: the SDK sent its own request number '
            'here">c1</mark></code>') in page


def test_the_list_above_the_log_is_the_rules_the_session_uses():
    rules = normal_marks("a2a").used(normalise_a2a(_a2a_sent()))
    box = normalised_html(rules, as_sent=True)
    assert box.count("<li>") == 3 and "&lt;id-1&gt;, &lt;id-2&gt;, …" in box and "a random UUID" in box
    assert "as sent" in box
    assert "none in this session" in normalised_html([], as_sent=False)


def test_an_as_sent_switch_shows_the_bytes_and_its_line_ends():
    m = Message("server", "client", json={"jsonrpc": "2.0", "id": "c1", "result": {}}, sse=True,
                http={"status": 200, "headers": [["Content-Type", "text/event-stream"]]})
    sent = {"n": 1, "from": "server", "http": {"status": 200, "headers": [["content-type", "text/event-stream"]]},
            "frame": 'event: message\r\ndata: {"jsonrpc":"2.0","id":1,"result":{}}\r\n\r\n'}
    page = message_html(1, m, summarise([m])[0], "lane-b", sent=sent)
    assert '<div class="msg-frame"' in page and '<span class="fn">event:</span> message' in page
    assert ('event: message<span class="le">\\r\\n</span>\ndata: {&quot;jsonrpc&quot;:&quot;2.0&quot;,&quot;id&quot;:1,'
            '&quot;result&quot;:{}}<span class="le">\\r\\n</span>\n<span class="le">\\r\\n</span>\n') in page
    assert "as sent" not in message_html(1, m, summarise([m])[0], "lane-b")  # none recorded: no switch


def test_a_har_says_its_times_and_host_are_placeholders_and_its_bodies_normalised():
    messages = normalise_a2a([
        Message("orchestrator", "agent", json={"jsonrpc": "2.0", "id": 1, "method": "GetTask", "params": {"id": UUID_1}},
                http={"method": "POST", "path": "/a2a", "headers": []}),
        Message("agent", "orchestrator", json={"jsonrpc": "2.0", "id": 1, "result": {"id": UUID_1}},
                http={"status": 200, "headers": []})])
    har = json.loads(transcript_har(Transcript("s", "jsonrpc", "t", messages), "https://agent.example", "0"))["log"]
    assert "<id-1>, <id-2>, … stands where the SDK sent a random UUID" in har["comment"]
    entry = har["entries"][0]
    assert entry["startedDateTime"].startswith("1970-01-01") and "Not recorded: the time" in entry["comment"]
    assert "https://agent.example is the URL the agent's card names" in entry["comment"]


def test_the_missing_version_finding_fails_when_its_request_carries_the_header():
    from agent_loop_sim.site import FINDINGS
    from agent_loop_sim.site.findings.evidence import Recorded, check_finding
    from test_site_fakes import ROOT, recorded_sessions

    sessions = {name: t for name, t in recorded_sessions(ROOT / "recordings").items() if name == "a2a_errors"}
    finding = next(f for f in FINDINGS if f.id == "missing-version-means-0-3")
    assert [p.message for p in finding.places()][:2] == [1, 3]  # the messages, not the scenario
    assert check_finding(finding, Recorded(sessions), ["a2a"]).holds
    sessions["a2a_errors"].messages[2].http["headers"].append(["A2A-Version", "0.3"])
    assert check_finding(finding, Recorded(sessions), ["a2a"]).failures == (
        "finding 'missing-version-means-0-3': session 'a2a_errors', message 3: its A2A-Version header is \"0.3\", "
        "the finding needs none",)


def test_the_results_page_says_every_rule_of_each_normal_form(monkeypatch):
    """The Results page's sentence per family is made from the rules: each one's form is in it, and a
    rule added to the table is said without anyone writing it (the MCP session ids once were not)."""
    from agent_loop_sim.normalise import NormalForm, _spotting

    for family, rules in NORMAL_FORMS.items():
        said = normal_form_said(family)
        assert all(rule.form in said for rule in rules), family
    extra = NormalForm("mcp", "header", "<cursor-1>", "in order", "a cursor", _spotting("<cursor-{n}>"))
    monkeypatch.setitem(NORMAL_FORMS, "mcp", (*NORMAL_FORMS["mcp"], extra))
    assert "<cursor-1>" in normal_form_said("mcp")
