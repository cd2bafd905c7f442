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
