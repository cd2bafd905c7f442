"""Deterministic identifiers and timestamps for the models.

The SDK draws random UUIDs (``uuid4``) and reads the wall clock; the models draw UUID-shaped
strings from a counter and read a clock that ticks one microsecond per reading. Transcripts
are compared after normalisation (UUIDs become ``<id-N>`` in order of appearance, timestamps
``<time>``), so only which identifiers are equal matters, never their values.
"""
from __future__ import annotations

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
        return str(uuid.uuid5(_NAMESPACE, f"{self.party}/{self.count}"))


class Clock:
    """A clock that moves one microsecond each time it is read, formatted as protobuf writes it."""

    def __init__(self, start: datetime = datetime(2026, 1, 1, tzinfo=timezone.utc)) -> None:
        self.now_value = start

    def now(self) -> str:
        self.now_value += timedelta(microseconds=1)
        return self.now_value.strftime("%Y-%m-%dT%H:%M:%S.%fZ")
