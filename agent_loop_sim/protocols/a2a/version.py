"""The ``A2A-Version`` header rule of the SDK's JSON-RPC binding.

A request without the header (or with an empty one) is read as protocol ``0.3``. The agent
serves ``1.0``; a version is accepted when it is exactly ``1.0`` or when it parses as a
PEP 440 version whose major number is 1, so ``1.0.1``, ``1``, ``v1.0`` and ``1.0-beta`` pass
while ``0.3``, ``2.0``, ``1!0.5`` (epoch 1, major 0) and ``garbage`` are refused with
``VersionNotSupportedError``. The check runs after the method is looked up and its parameters
parsed, and before anything else the method does.
"""
from __future__ import annotations

import re

HEADER = "A2A-Version"
SERVED = "1.0"
ASSUMED_WHEN_ABSENT = "0.3"
_HEADER_LOWER = HEADER.lower()  # header names are compared in lower case

# PEP 440, as the `packaging` library reads it (whitespace around is allowed, case ignored).
_PEP440 = re.compile(
    r"""
    \s*v?
    (?:(?P<epoch>[0-9]+)!)?
    (?P<release>[0-9]+(?:\.[0-9]+)*)
    (?:[._-]?(?:alpha|a|beta|b|preview|pre|c|rc)[._-]?(?:[0-9]+)?)?
    (?:-[0-9]+|[._-]?(?:post|rev|r)[._-]?(?:[0-9]+)?)?
    (?:[._-]?dev[._-]?(?:[0-9]+)?)?
    (?:\+[a-z0-9]+(?:[._-][a-z0-9]+)*)?
    \s*
    """,
    re.VERBOSE | re.IGNORECASE | re.ASCII,
)


def requested_version(headers: list[tuple[str, str]]) -> str:
    """The version a request asks for: its ``A2A-Version`` header, or ``0.3`` without one."""
    for name, value in headers:
        if (name == HEADER or name.lower() == _HEADER_LOWER) and value:  # (the models send it spelt so)
            return value
    return ASSUMED_WHEN_ABSENT


def major_version(version: str) -> int | None:
    """The major number of a PEP 440 version string, or ``None`` if it does not parse."""
    match = _PEP440.fullmatch(version)
    if match is None:
        return None
    return int(match.group("release").split(".")[0])


def is_supported(version: str) -> bool:
    """Whether the agent (serving 1.0) takes a request that asks for ``version``."""
    return version == SERVED or major_version(version) == major_version(SERVED)


def refusal_message(version: str) -> str:
    """The message of the ``VersionNotSupportedError`` for ``version``."""
    return f"A2A version '{version}' is not supported by this handler. Expected version '{SERVED}'."
