from __future__ import annotations

from agent_loop_sim.compare import MISSING, diff_json, diff_sessions
from agent_loop_sim.transcript import Message, Transcript


def test_key_order_does_not_count_but_types_do():
    assert list(diff_json({"a": 1, "b": 2}, {"b": 2, "a": 1})) == []
    assert list(diff_json({"a": 1}, {"a": 1.0})) == [("$.a", 1, 1.0)]
    assert list(diff_json({"a": 1}, {"a": True})) == [("$.a", 1, True)]
    assert list(diff_json([1, 2], [1])) == [("$[1]", 2, MISSING)]


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
