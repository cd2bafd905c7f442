"""Deterministic identifiers and timestamps for the models.

The SDK draws random UUIDs (``uuid4``) and reads the wall clock; the models draw UUID-shaped
strings from a counter and read a clock that ticks one microsecond per reading. Transcripts
are compared after normalisation (UUIDs become ``<id-N>`` in order of appearance, timestamps
``<time>``), so only which identifiers are equal matters, never their values.
"""
from __future__ import annotations

import hashlib
import uuid
from datetime import datetime, timedelta, timezone
from functools import lru_cache

_NAMESPACE = uuid.UUID("6f1c1f8e-2d4b-4b7a-9a53-a2a000000000")
_TIME_FORMAT = "%Y-%m-%dT%H:%M:%S.%fZ"  # protobuf's Timestamp in JSON, as the SDK writes it


class IdSource:
    """UUIDs of one party, drawn in order: the party's own ``uuid5(namespace, party)`` with its
    last twelve hex digits (the node) replaced by the count, so no two ids of a party are equal
    and the parties' ids never meet."""

    def __init__(self, party: str) -> None:
        self.party = party
        self.count = 0
        self._head = _head(party)

    def new(self) -> str:
        self.count += 1
        return f"{self._head}{self.count:012x}"


@lru_cache(maxsize=64)
def _head(party: str) -> str:
    """The fixed part of a party's ids, ``uuid5(namespace, party)`` up to its node: "xxxxxxxx-xxxx-5xxx-yxxx-".
    (Cached: a pure function of the party's name, and every session makes a source per party.)"""
    return uuid5(_NAMESPACE, party)[:24]


def uuid5(namespace: uuid.UUID, name: str) -> str:
    """``str(uuid.uuid5(namespace, name))``, written out: the same SHA-1, version and variant bits,
    without building a `uuid.UUID`."""
    digest = bytearray(hashlib.sha1(namespace.bytes + name.encode(), usedforsecurity=False).digest()[:16])
    digest[6] = (digest[6] & 0x0F) | 0x50  # version 5
    digest[8] = (digest[8] & 0x3F) | 0x80  # the RFC 4122 variant
    x = digest.hex()
    return f"{x[:8]}-{x[8:12]}-{x[12:16]}-{x[16:20]}-{x[20:]}"


_START = datetime(2026, 1, 1, tzinfo=timezone.utc)
_START_SECOND = _START.strftime(_TIME_FORMAT)[:-7]  # "2026-01-01T00:00:00."


class Clock:
    """A clock that moves one microsecond each time it is read, formatted as protobuf writes it.

    Within the start's second only the microseconds change, so a reading is that second's text
    and six digits."""

    def __init__(self, start: datetime = _START) -> None:
        self.start = start
        self.ticks = 0
        self._second = _START_SECOND if start is _START else start.strftime(_TIME_FORMAT)[:-7]  # with the "."
        self._micro = start.microsecond

    def now(self) -> str:
        self.ticks += 1
        micro = self._micro + self.ticks
        if micro < 1_000_000:
            return f"{self._second}{micro:06d}Z"
        return (self.start + timedelta(microseconds=self.ticks)).strftime(_TIME_FORMAT)
