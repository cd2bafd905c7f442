"""Evidence of the findings (agent_loop_sim.site.findings.evidence): a case for each branch of a check."""
from __future__ import annotations

from agent_loop_sim.site.findings.evidence import NoReply, Recorded
from agent_loop_sim.transcript import Message, Transcript

C2S = dict(sender="client", receiver="server")
S2C = dict(sender="server", receiver="client")


def _after_a_bad_line(*answers: dict) -> Recorded:
    """A line that is not JSON, a request, then the server's ``answers``."""
    messages = [Message(**C2S, raw="{nope"), Message(**C2S, json={"jsonrpc": "2.0", "id": 2, "method": "ping"})]
    messages += [Message(**S2C, json=answer) for answer in answers]
    return Recorded({"s": Transcript("s", "raw", "t", messages)})


def _error(rid, code: int) -> dict:
    return {"jsonrpc": "2.0", "id": rid, "error": {"code": code, "message": "m"}}


PONG = {"jsonrpc": "2.0", "id": 2, "result": {}}


def test_a_message_followed_by_its_senders_next_gets_no_reply():
    assert NoReply("s", 1).check(_after_a_bad_line(PONG)) is None
    assert NoReply("s", 3).check(_after_a_bad_line(PONG)) is None  # the last message: nothing follows


def test_a_message_answered_next_gets_a_reply():
    assert NoReply("s", 2).check(_after_a_bad_line(PONG)) == "message 3 comes from the server: a reply"


def test_a_late_parse_error_without_an_id_answers_it():
    late = _after_a_bad_line(_error(None, -32700), PONG)
    assert NoReply("s", 1).check(late) == "message 3 is a parse error (-32700) answering it"


def test_a_late_error_of_another_code_or_with_an_id_is_no_answer_to_it():
    assert NoReply("s", 1).check(_after_a_bad_line(_error(None, -32600), PONG)) is None
    assert NoReply("s", 1).check(_after_a_bad_line(_error(None, -32701), PONG)) is None
    assert NoReply("s", 1).check(_after_a_bad_line(_error(2, -32700))) is None


# Each check's verdict in full: the reason a finding fails is what the build prints.

from agent_loop_sim.site.findings.evidence import (  # noqa: E402
    Absent, At, ErrorCode, Finding, IsRaw, JsonEquals, Present, ScenarioEquals, ValuesDiffer, check_finding,
    parse_path)


def _one(*messages: Message, scenarios=None) -> Recorded:
    return Recorded({"s": Transcript("s", "raw", "t", list(messages))}, scenarios or {})


REPLY = Message(**S2C, json={"jsonrpc": "2.0", "id": 1, "result": {"n": 1, "f": 1.0, "t": True}})


def test_json_equals_wants_the_value_in_its_json_type():
    rec = _one(REPLY)
    assert JsonEquals("s", 1, "$.result.n", 1).check(rec) is None
    assert JsonEquals("s", 1, "$.result.f", 1).check(rec) == "$.result.f is 1.0, the finding needs 1"
    assert JsonEquals("s", 1, "$.result.t", 1).check(rec) == "$.result.t is true, the finding needs 1"
    assert JsonEquals("s", 1, "$.result.x", None).check(rec) == "$.result.x is (absent), the finding needs null"
    assert JsonEquals("s", 1, "$.result.n", 2).check(rec) == "$.result.n is 1, the finding needs 2"


def test_present_and_absent():
    rec = _one(REPLY)
    assert Present("s", 1, "$.result.n").check(rec) is None
    assert Present("s", 1, "$.result.x").check(rec) == "$.result.x is absent, the finding needs it present"
    assert Absent("s", 1, "$.result.x").check(rec) is None
    assert Absent("s", 1, "$.result.n").check(rec) == "$.result.n is 1, the finding needs it absent"


def test_error_code_wants_an_integer_code():
    rec = _one(Message(**S2C, json={"id": 1, "error": {"code": -32600}}),
               Message(**S2C, json={"id": 1, "error": {"code": -32600.0}}), REPLY)
    assert ErrorCode("s", 1, -32600).check(rec) is None
    assert ErrorCode("s", 2, -32600).check(rec) == "$.error.code is -32600.0, the finding needs -32600"
    assert ErrorCode("s", 3, -32600).check(rec) == "$.error.code is (absent), the finding needs -32600"
    assert ErrorCode("s", 1, -32601).check(rec) == "$.error.code is -32600, the finding needs -32601"


def test_is_raw():
    rec = _one(Message(**C2S, raw="{nope"), REPLY)
    assert IsRaw("s", 1).check(rec) is None
    assert IsRaw("s", 2).check(rec) == "the message is JSON"


def test_a_raw_post_that_is_json_is_read_as_json_and_one_that_is_not_is_not_there():
    rec = _one(Message(**C2S, raw='{"method": "GetTask"}'), Message(**C2S, raw="{nope"))
    assert JsonEquals("s", 1, "$.method", "GetTask").check(rec) is None
    finding = Finding("f", "a2a", "observation", "t", "s", (JsonEquals("s", 2, "$.method", "x"),))
    assert check_finding(finding, rec, ["a2a"]).failures == (
        "finding 'f': session 's', message 2: session 's', message 2 is a raw line, not JSON",)


def test_values_differ():
    rec = _one(REPLY, Message(**S2C, json={"id": 2, "result": {"n": 1.0, "m": 1}}))
    assert ValuesDiffer(At("s", 1, "$.result.n"), At("s", 2, "$.result.n")).check(rec) is None  # 1 and 1.0
    assert ValuesDiffer(At("s", 1, "$.result.n"), At("s", 2, "$.result.m")).check(rec) == \
        "both are 1, the finding needs them to differ"
    assert ValuesDiffer(At("s", 1, "$.result.x"), At("s", 2, "$.result.m")).check(rec) == \
        "$.result.x is (absent) and $.result.m is 1: both must be present"


def test_no_http_header_reads_the_recorded_envelope():
    from agent_loop_sim.site.findings.evidence import NoHttpHeader

    without = Message(**C2S, json={"id": 1}, http={"method": "POST", "path": "/a2a",
                                                    "headers": [["Content-Type", "application/json"]]})
    rec = _one(without, Message(**C2S, json={"id": 2}, http={"method": "POST", "path": "/a2a", "headers": [
        ["Content-Type", "application/json"], ["A2A-Version", "1.0"]]}), Message(**C2S, json={"id": 3}))
    assert NoHttpHeader("s", 1, "A2A-Version").check(rec) is None
    assert NoHttpHeader("s", 2, "a2a-version").check(rec) == 'its a2a-version header is "1.0", the finding needs none'
    assert NoHttpHeader("s", 3, "A2A-Version").check(rec) == \
        "the message has no recorded HTTP envelope, the finding needs one"
    assert NoHttpHeader("s", 1, "A2A-Version").places() == [At("s", 1, "$")]


def test_scenario_equals():
    rec = _one(REPLY, scenarios={"s": {"steps": [{"version": None}, {"n": 1}]}})
    assert ScenarioEquals("s", "$.steps[0].version", None).check(rec) is None
    assert ScenarioEquals("s", "$.steps[1].n", 1.0).check(rec) == "the scenario's $.steps[1].n is 1, the finding needs 1.0"
    assert ScenarioEquals("s", "$.steps[0].version", "1.0").places() == [At("s", 0, "$.steps[0].version")]
    finding = Finding("f", "a2a", "observation", "t", "s", (ScenarioEquals("s", "$.steps[1].n", 2),))
    assert check_finding(finding, rec, ["a2a"]).failures == (
        "finding 'f': session 's', scenario: the scenario's $.steps[1].n is 1, the finding needs 2",)


def test_a_finding_lists_every_failing_evidence_and_is_checked_only_for_its_family():
    rec = _one(REPLY, scenarios={"s": {}})
    finding = Finding("f", "mcp", "observation", "t", "s", (
        JsonEquals("s", 1, "$.result.n", 1), JsonEquals("s", 1, "$.result.n", 2), Present("s", 9, "$.id"),
        JsonEquals("zz", 1, "$.id", 1)))
    result = check_finding(finding, rec, ["mcp"])
    assert result.finding is finding and result.checked is False  # a session with no scenario: not checked
    assert check_finding(finding, rec, ["a2a"]) == type(result)(finding, checked=False)
    rec = _one(REPLY)  # (no scenarios at all: every place is checked)
    result = check_finding(finding, rec, ["mcp"])
    assert result.finding is finding and result.checked is True and result.holds is False
    assert result.failures == (
        "finding 'f': session 's', message 1: $.result.n is 1, the finding needs 2",
        "finding 'f': session 's', message 9: session 's' has 1 messages, not 9",
        "finding 'f': session 'zz', message 1: there is no session 'zz' in the committed recordings")
    holding = Finding("g", "mcp", "observation", "t", "s", (JsonEquals("s", 1, "$.result.n", 1),))
    assert check_finding(holding, rec, ["mcp"]) == type(result)(holding, checked=True, failures=())


def test_a_path_that_cannot_be_read_is_named():
    assert parse_path('$.a[0]["b/c"]') == ["a", 0, "b/c"]
    for path, problem in (("a.b", "a JSON path starts with '$': 'a.b'"),
                          ("$.a..b", "cannot read the JSON path '$.a..b' at character 4")):
        try:
            parse_path(path)
        except ValueError as exc:
            assert str(exc) == problem
        else:
            raise AssertionError(path)
    rec = _one(REPLY, scenarios={})
    finding = Finding("f", "mcp", "observation", "t", "s", (ScenarioEquals("nope", "$.x", 1),))
    assert check_finding(finding, Recorded(rec.transcripts, {"s": {}}), ["mcp"]).checked is False
    assert check_finding(finding, rec, ["mcp"]).failures == (
        "finding 'f': session 'nope', scenario: there is no scenario session 'nope'",)


# --- load_findings: the findings file's data, read (a case per refusal) ---------------------------

def _finding(**more) -> dict:
    return {"id": "f1", "family": "mcp", "kind": "observation", "title": "T", "summary": "S", "evidence": [], **more}


def _refusal(data) -> tuple[str, str | None, str | None]:
    import pytest

    from agent_loop_sim.errors import InputError
    from agent_loop_sim.site.findings.evidence import load_findings

    with pytest.raises(InputError) as caught:
        load_findings(data, "findings.json")
    return caught.value.problem, caught.value.path, caught.value.file


def test_a_finding_is_read_field_by_field():
    from agent_loop_sim.site.findings.evidence import At, ErrorCode, Finding, JsonEquals, ValuesDiffer, load_findings

    data = {"findings": [_finding(kind="departure", specification="Spec says", spec="https://spec.example/a#b", evidence=[
        {"kind": "JsonEquals", "session": "s", "message": 1, "path": "$.a", "value": None},
        {"kind": "ErrorCode", "session": "s", "message": 2, "code": -32602},
        {"kind": "ValuesDiffer", "a": {"session": "s", "message": 1}, "b": {"session": "t", "message": 3, "path": "$.x"}},
    ]), _finding(id="f2")]}
    assert load_findings(data, "findings.json") == (
        Finding("f1", "mcp", "departure", "T", "S", (JsonEquals("s", 1, "$.a", None), ErrorCode("s", 2, -32602),
                                                       ValuesDiffer(At("s", 1), At("t", 3, "$.x"))),
                "Spec says", "https://spec.example/a#b"),
        Finding("f2", "mcp", "observation", "T", "S", ()),  # an observation needs no spec
    )


def test_a_findings_file_that_is_no_object_is_refused():
    assert _refusal([]) == ("a findings file must be an object, got an array", "$", "findings.json")


def test_a_spec_that_is_no_section_url_is_refused():
    assert _refusal({"findings": [_finding(spec="http://spec.example/a")]}) == (
        "a finding's spec is the https URL of the specification's section, with its #anchor", "$.findings[0].spec",
        "findings.json")


def test_a_departure_without_its_spec_is_refused():
    assert _refusal({"findings": [_finding(), _finding(kind="departure")]}) == (
        "a departure from the specification links the specification's section (spec)", "$.findings[1]", "findings.json")


def test_evidence_without_a_known_kind_is_refused():
    assert _refusal({"findings": [_finding(evidence=[{"kind": "Guess"}])]}) == (
        "evidence names its kind, one of JsonEquals, Present, Absent, ErrorCode, IsRaw, NoReply, ValuesDiffer, "
        "ScenarioEquals, SameStepsDifferAt, HttpEquals, NoHttpHeader", "$.findings[0].evidence[0].kind", "findings.json")


def test_evidence_with_a_field_of_the_wrong_type_is_refused():
    assert _refusal({"findings": [_finding(evidence=[{"kind": "ErrorCode", "session": "s", "message": 1,
                                                       "code": "-32602"}])]}) == (
        "expected an integer, got a string", "$.findings[0].evidence[0].code", "findings.json")


def test_same_steps_evidence_reads_its_message_numbers():
    from agent_loop_sim.site.findings.evidence import SameStepsDifferAt, load_findings

    (finding,) = load_findings({"findings": [_finding(evidence=[
        {"kind": "SameStepsDifferAt", "a": "s1", "b": "s2", "messages": [2, 5]}])]}, "findings.json")
    assert finding.evidence == (SameStepsDifferAt("s1", "s2", (2, 5)),)


def test_a_place_without_its_session_is_refused():
    assert _refusal({"findings": [_finding(evidence=[{"kind": "ValuesDiffer", "a": {"message": 1},
                                                      "b": {"session": "s", "message": 2}}])]}) == (
        "missing field 'session' in a place", "$.findings[0].evidence[0].a", "findings.json")
