"""The A2A-Version header rule (agent_loop_sim.protocols.a2a.version)."""
from __future__ import annotations

import random

import pytest

from agent_loop_sim.protocols.a2a.version import is_supported, major_version, refusal_message, requested_version


def test_a_missing_or_empty_header_reads_as_0_3():
    assert requested_version([]) == "0.3"
    assert requested_version([("A2A-Version", "")]) == "0.3"
    assert requested_version([("a2a-version", "1.0")]) == "1.0"


@pytest.mark.parametrize("version, ok", [
    ("1.0", True), ("1.0.1", True), ("1", True), ("v1.0", True), ("1.0-beta", True), (" 1.0 ", True),
    ("01.0", True), ("1.5", True), ("0.3", False), ("2.0", False), ("garbage", False), ("1!0.5", False),
    ("1.x", False), ("", False),
])
def test_versions_are_compared_by_major_number(version, ok):
    assert is_supported(version) is ok


def test_the_refusal_names_both_versions():
    assert refusal_message("0.3") == "A2A version '0.3' is not supported by this handler. Expected version '1.0'."


def test_major_version_agrees_with_packaging():
    from packaging.version import InvalidVersion, Version  # what the SDK uses; the engine does not
    alphabet = list("0123456789.v!-_+ abcdeprost") + ["post", "dev", "rc", "alpha", "beta", "pre", "rev"]
    rng = random.Random(7)
    for _ in range(5000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 7)))
        try:
            expected = Version(text).major
        except InvalidVersion:
            expected = None
        assert major_version(text) == expected, text
