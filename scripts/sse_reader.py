"""What the HTTP recorders read a server-sent event stream with: the data of each event, as bytes arrive.

A deliberately small reader of the ``text/event-stream`` format (events end at a blank line; an
event's ``data:`` lines are joined by line breaks; any line ending), written here so that the
recorders read the wire with code of their own rather than the SDK's or the engine's.
"""
from __future__ import annotations


class SseReader:
    """Splits a ``text/event-stream`` body into the data of each event, as bytes arrive."""

    def __init__(self) -> None:
        self.buffer = ""

    def feed(self, chunk: bytes) -> list[str]:
        self.buffer += chunk.decode("utf-8")
        self.buffer = self.buffer.replace("\r\n", "\n").replace("\r", "\n")
        out = []
        while "\n\n" in self.buffer:
            block, self.buffer = self.buffer.split("\n\n", 1)
            data = [line[5:].removeprefix(" ") for line in block.split("\n") if line.startswith("data:")]
            if data:
                out.append("\n".join(data))
        return out
