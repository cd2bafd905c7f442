from __future__ import annotations

from agent_loop_sim.project import Project


def test_paths_are_named_relative_to_the_checkout(tmp_path):
    root = tmp_path / "checkout"
    (root / "scenarios").mkdir(parents=True)
    project = Project(root)
    for _ in range(2):  # (the second time from what the first worked out)
        assert project.relative(root / "scenarios" / "a.json") == "scenarios/a.json"
        assert project.relative(str(root / "scenarios" / "a.json")) == "scenarios/a.json"
        assert project.relative(tmp_path / "elsewhere.json") == str(tmp_path / "elsewhere.json")


def test_a_relative_path_is_named_from_the_folder_it_is_read_in(tmp_path, monkeypatch):
    root = tmp_path / "checkout"
    (root / "scenarios").mkdir(parents=True)
    project = Project(root)
    monkeypatch.chdir(root / "scenarios")
    assert project.relative("a.json") == "scenarios/a.json"
    monkeypatch.chdir(root)  # the same words, another file
    assert project.relative("a.json") == "a.json"
    monkeypatch.chdir(tmp_path)
    assert project.relative("a.json") == "a.json"  # outside the checkout: as given
