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

_NAMESPACE = uuid.UUID("6f1c1f8e-2d4b-4b7a-9a53-a2a000000000")


class IdSource:
    """UUIDs of one party, drawn in order: ``uuid5(namespace, "<party>/<n>")``."""

    def __init__(self, party: str) -> None:
        self.party = party
        self.count = 0

    def new(self) -> str:
        self.count += 1
        return uuid5(_NAMESPACE, f"{self.party}/{self.count}")


def uuid5(namespace: uuid.UUID, name: str) -> str:
    """``str(uuid.uuid5(namespace, name))``, written out: the same SHA-1, version and variant bits,
    without building a `uuid.UUID` (the models draw one or more ids for every message)."""
    digest = bytearray(hashlib.sha1(namespace.bytes + name.encode(), usedforsecurity=False).digest()[:16])
    digest[6] = (digest[6] & 0x0F) | 0x50  # version 5
    digest[8] = (digest[8] & 0x3F) | 0x80  # the RFC 4122 variant
    x = digest.hex()
    return f"{x[:8]}-{x[8:12]}-{x[12:16]}-{x[16:20]}-{x[20:]}"


class Clock:
    """A clock that moves one microsecond each time it is read, formatted as protobuf writes it."""

    def __init__(self, start: datetime = datetime(2026, 1, 1, tzinfo=timezone.utc)) -> None:
        self.now_value = start

    def now(self) -> str:
        self.now_value += timedelta(microseconds=1)
        return self.now_value.strftime("%Y-%m-%dT%H:%M:%S.%fZ")
