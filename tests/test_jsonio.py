from __future__ import annotations

from pathlib import Path

import pytest

from agent_loop_sim.errors import InputError
from agent_loop_sim.jsonio import json_path, load_json, write_atomic


def test_json_path_reads_like_jq():
    assert json_path(["result", "tools", 0, "name"]) == "$.result.tools[0].name"
    assert json_path(["_meta", "io.modelcontextprotocol/serverInfo"]) == '$._meta["io.modelcontextprotocol/serverInfo"]'


@pytest.mark.parametrize("content, problem", [
    (b'{"a": 1,', "not valid JSON"),
    (b"", "empty"),
    (b'{"a": 1, "a": 2}', "duplicate key 'a'"),
    (b'{"a": "caf\xe9"}', "not UTF-8"),
])
def test_bad_files_are_named(tmp_path: Path, content: bytes, problem: str):
    path = tmp_path / "x.json"
    path.write_bytes(content)
    with pytest.raises(InputError) as caught:
        load_json(path)
    assert problem in str(caught.value) and str(path) in str(caught.value)


def test_missing_file(tmp_path: Path):
    with pytest.raises(InputError, match="does not exist"):
        load_json(tmp_path / "nope.json")


def test_write_atomic_leaves_the_old_file_when_writing_fails(tmp_path: Path):
    path = tmp_path / "r.json"
    path.write_text("old\n")

    with pytest.raises(TypeError):
        write_atomic(path, 12345)  # type: ignore[arg-type]  # not text: the write fails midway
    assert path.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["r.json"]  # no temporary file left behind
    write_atomic(path, "new\n")
    assert path.read_text() == "new\n"


def test_copy_json_is_deep_and_keeps_key_order():
    from agent_loop_sim.jsonio import copy_json

    original = {"b": [1, {"c": "x"}], "a": None, "d": 1.5, "e": True}
    copied = copy_json(original)
    assert copied == original and list(copied) == ["b", "a", "d", "e"]
    copied["b"][1]["c"] = "changed"
    assert original["b"][1]["c"] == "x"


def test_copier_makes_fresh_equal_copies_in_key_order():
    from agent_loop_sim.jsonio import copier

    original = {"b": [1, {"c": "x\n'\"", "é": []}], "a": None, "d": 1.5, "e": True, "f": {}, "g": -2}
    make = copier(original)
    first, second = make(), make()
    assert first == original == second and list(first) == ["b", "a", "d", "e", "f", "g"]
    assert type(first["b"][0]) is int and type(first["d"]) is float and first["e"] is True
    assert first["b"] is not second["b"] and first["b"][1] is not second["b"][1]
    assert first["f"] is not second["f"] and first["b"][1]["é"] is not second["b"][1]["é"]
    first["b"][1]["c"] = "changed"
    assert original["b"][1]["c"] == make()["b"][1]["c"] == "x\n'\""
    unusual = copier({"n": float("nan"), 1: "a key that is not a string"})()  # copied the slow way
    assert unusual[1] == "a key that is not a string" and unusual["n"] != unusual["n"]
    deep: list = []
    for _ in range(300):  # deeper than the compiler nests a literal
        deep = [deep]
    assert copier(deep)() == deep and copier(deep)() is not deep


@pytest.mark.parametrize("text, problem, path", [
    ('{"a": [1, NaN]}', "NaN is not a JSON number", "$.a[1]"),
    ('{"a": {"b": -Infinity}}', "-Infinity is not a JSON number", "$.a.b"),
    ('{"a": [0.5, 1e400]}', "1e400 is not a JSON number", "$.a[1]"),
    ('{"a": ["ok", "x\\ud800"]}', "lone surrogate", "$.a[1]"),
    ('{"a": {"\\uDFFF": 1}}', "lone surrogate", "$.a"),
    ('{"a": [[[[]]]]}', "nesting depth", "$.a[0][0][0]"),  # the limit below is 4
])
def test_what_json_has_not_is_found_and_placed(text: str, problem: str, path: str, monkeypatch):
    """parse_json looks for these the cheap way first; whatever it finds, the walk names the path."""
    from agent_loop_sim.jsonio import parse_json

    monkeypatch.setenv("AGENT_LOOP_SIM_MAX_DEPTH", "4")
    with pytest.raises(InputError) as caught:
        parse_json(text, "f.json")
    assert problem in str(caught.value) and caught.value.path == path and "f.json" in str(caught.value)


@pytest.mark.parametrize("text", [
    '{"a": [[[]]]}',                      # 3 levels of arrays under the object: within a limit of 4
    '{"a": "\\ud83d\\ude00"}',            # a surrogate pair is one character, not a lone surrogate
    '{"a": "\\\\ud800"}',                 # an escaped backslash, then the letters "ud800"
    '{"a": [1.5, -0.0, 1e308]}',
])
def test_what_only_looks_odd_is_accepted(text: str, monkeypatch):
    from agent_loop_sim.jsonio import parse_json

    monkeypatch.setenv("AGENT_LOOP_SIM_MAX_DEPTH", "4")
    assert parse_json(text, "f.json") is not None


def test_the_depth_test_agrees_with_the_walk():
    from agent_loop_sim.jsonio import _Found, _check_json_value, _within_depth

    values = [[], {}, [[]], {"a": {"b": [1, {"c": []}]}}, [1, [2, [3, [4]]]], {"a": 1, "b": [{}, {"x": {}}]}]
    for value in values:
        for limit in range(1, 7):
            try:
                _check_json_value(value, limit)
                walked = True
            except _Found:
                walked = False
            assert _within_depth(value, limit) == walked, (value, limit)


def test_write_atomic_syncs_to_disk_unless_told_the_file_is_a_cache(tmp_path: Path, monkeypatch):
    synced = []
    monkeypatch.setattr("os.fsync", synced.append)
    write_atomic(tmp_path / "recording.json", "{}\n")
    assert len(synced) == 1
    write_atomic(tmp_path / "page.md", "# a page\n", durable=False)
    assert len(synced) == 1 and (tmp_path / "page.md").read_text() == "# a page\n"
