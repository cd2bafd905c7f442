from __future__ import annotations

from agent_loop_sim.compare import MISSING, diff_json, diff_sessions, identical, key_order_json
from agent_loop_sim.transcript import Message, Transcript


def test_key_order_and_types_count():
    assert list(diff_json({"a": 1, "b": 2}, {"a": 1, "b": 2})) == []
    assert list(diff_json({"a": 1, "b": 2}, {"b": 2, "a": 1})) == []  # the same JSON
    assert list(key_order_json({"a": 1, "b": 2}, {"b": 2, "a": 1})) == [("$", ["a", "b"], ["b", "a"])]
    assert list(key_order_json({"x": [{"a": 1, "b": 2}]}, {"x": [{"b": 2, "a": 1}]})) == [
        ("$.x[0]", ["a", "b"], ["b", "a"])]
    assert list(key_order_json({"a": 1, "b": 2}, {"b": 2, "c": 1})) == []  # other keys: a value difference
    assert list(diff_json({"a": 1}, {"a": 1.0})) == [("$.a", 1, 1.0)]
    assert list(diff_json({"a": 1}, {"a": True})) == [("$.a", 1, True)]
    assert list(diff_json([1, 2], [1])) == [("$[1]", 2, MISSING)]


def test_identical_is_strict_about_types_and_key_order():
    assert identical({"a": [1, "x", None, 1.5, True]}, {"a": [1, "x", None, 1.5, True]})
    for other in ({"a": [1.0, "x", None, 1.5, True]}, {"a": [True, "x", None, 1.5, True]},
                  {"a": [1, "x", None, 1.5, 1]}, {"a": [1, "x", 0, 1.5, True]}, {"a": [1, "x", None, 1.5]}):
        assert not identical({"a": [1, "x", None, 1.5, True]}, other), other
    assert not identical({"a": 1, "b": 2}, {"b": 2, "a": 1})
    assert not identical({"a": (1,)}, {"a": [1]})  # not JSON data: left to the walk


def test_a_message_in_another_key_order_is_a_key_order_difference_only():
    (d,) = diff_sessions([_t("s", {"id": "c1", "result": {"a": 1, "b": 2}})],
                         [_t("s", {"id": "c1", "result": {"b": 2, "a": 1}})])
    assert (d.message, d.path, d.key_order) == (1, "$.result", True)
    assert d.render() == 'session \'s\', message 1, $.result (key order): committed ["a","b"], engine ["b","a"]'


def _t(name, *jsons):
    return Transcript(name, "legacy", "t", [Message("client", "server", json=j) for j in jsons])


def test_differences_name_session_message_and_path():
    expected = [_t("s", {"id": "c1", "result": {"x": [1, 2]}})]
    actual = [_t("s", {"id": "c1", "result": {"x": [1, 3]}})]
    (d,) = diff_sessions(expected, actual)
    assert (d.session, d.message, d.path, d.expected, d.actual) == ("s", 1, "$.result.x[1]", 2, 3)
    assert d.render() == "session 's', message 1, $.result.x[1]: committed 2, engine 3"


def test_missing_and_extra_messages_and_sessions():
    diffs = diff_sessions([_t("a", {"x": 1}, {"y": 2}), _t("b", {})], [_t("a", {"x": 1}), _t("c", {})])
    rendered = [d.render() for d in diffs]
    assert "session 'a', message 2, $: committed {\"y\":2}, engine (absent)" in rendered
    assert any(r.startswith("session 'b', session") for r in rendered)
    assert any(r.startswith("session 'c', session") for r in rendered)


def test_only_the_messages_that_differ_are_reported_among_many_alike():
    same = [{"id": f"c{i}", "result": {"n": i}} for i in range(1, 6)]
    changed = [dict(m) for m in same]
    changed[1] = {"id": "c2", "result": {"n": 2.0}}  # a type: 2 and 2.0 differ
    changed[3] = {"result": {"n": 4}, "id": "c4"}  # a key order
    found = [(d.message, d.path, d.key_order) for d in diff_sessions([_t("s", *same)], [_t("s", *changed)])]
    assert found == [(2, "$.result.n", False), (4, "$", True)]
    # what marshal cannot write (not JSON data) is walked, message by message
    unwritable = object()
    odd = [_t("s", {"x": unwritable}, {"y": 1})]
    assert [(d.message, d.path) for d in diff_sessions(odd, [_t("s", {"x": unwritable}, {"y": True})])] == [(2, "$.y")]


def test_a_session_only_one_side_has_is_named_with_its_side():
    from agent_loop_sim.compare import Difference

    assert diff_sessions([_t("a", {})], [_t("b", {})]) == [Difference("a", None, "session", "present", MISSING),
                                                           Difference("b", None, "session", MISSING, "present")]


def test_a_key_only_one_side_has_is_absent_on_the_other():
    assert list(diff_json({"k": 1, "n": None}, {"n": None, "j": 2})) == [("$.k", 1, MISSING), ("$.j", MISSING, 2)]


def test_a_session_of_another_mode_or_title_says_which():
    from agent_loop_sim.compare import Difference

    assert diff_sessions([Transcript("s", "legacy", "T")], [Transcript("s", "auto", "U")]) == [
        Difference("s", None, "mode", "legacy", "auto"), Difference("s", None, "title", "T", "U")]


def test_an_envelope_field_keeps_its_name_and_the_json_loses_its_own():
    one = Transcript("s", "raw", "t", [Message(sender="client", receiver="server", json={"id": 1})])
    other = Transcript("s", "raw", "t", [Message(sender="server", receiver="client", json={"id": 2})])
    assert [(d.path, d.expected, d.actual) for d in diff_sessions([one], [other])] == [
        ("$.from", "client", "server"), ("$.to", "server", "client"), ("$.id", 1, 2)]


def test_show_cuts_a_value_to_its_limit_and_names_an_absent_one():
    from agent_loop_sim.compare import show

    assert (show([1, 2, 3, 4, 5], 5), show([1, 2], 5), show(MISSING, 5)) == ("[1,2…", "[1,2]", "(absent)")
