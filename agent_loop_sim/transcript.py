"""Transcripts: numbered messages between two parties, as the engine and the recorders make them.

The engine produces a `Transcript` per session; a recorder produces the same shape from the
live SDK. The file that holds a recorder's transcripts is read by `agent_loop_sim.recording`.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any



@dataclass(slots=True)
class Message:
    sender: str
    receiver: str
    json: Any = None
    raw: str | None = None
    sse: bool = False
    http: dict[str, Any] | None = None  # A2A: the HTTP envelope (`agent_loop_sim.http_log`)

    @classmethod
    def from_line(cls, sender: str, receiver: str, line: str) -> "Message":
        """A line as it crossed the wire: its JSON, or the line itself when it is not JSON."""
        try:
            return cls(sender, receiver, json=json.loads(line))
        except json.JSONDecodeError:
            return cls(sender, receiver, raw=line)

    @property
    def is_raw(self) -> bool:
        return self.raw is not None

    def to_dict(self, n: int) -> dict[str, Any]:
        out: dict[str, Any] = {"n": n, "from": self.sender, "to": self.receiver, "sse": self.sse}
        if self.http is not None:
            out["http"] = self.http
        if self.raw is not None:
            out["raw"] = self.raw
        else:
            out["json"] = self.json
        return out


@dataclass
class Transcript:
    name: str
    mode: str
    title: str
    messages: list[Message] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "mode": self.mode,
            "title": self.title,
            "messages": [m.to_dict(i) for i, m in enumerate(self.messages, 1)],
        }
