"""What the HTTP recorders read a server-sent event stream with: each event as bytes arrive.

A deliberately small reader of the ``text/event-stream`` format (events end at a blank line; an
event's ``data:`` lines are joined by line breaks; any line ending), written here so that the
recorders read the wire with code of their own rather than the SDK's or the engine's. Each event
comes with its frame as sent (its lines with their own line endings, up to and including the
blank line that ends it), which the recorders keep beside the recording (``recordings/raw/``).
"""
from __future__ import annotations

import codecs
import re

LINE_END = re.compile(r"\r\n|\r|\n")


class SseReader:
    """Splits a ``text/event-stream`` body into its events, as bytes arrive."""

    def __init__(self) -> None:
        self.decoder = codecs.getincrementaldecoder("utf-8")()  # (a character may be split across chunks)
        self.buffer = ""  # the frame being read, as sent
        self.at = 0  # where its next line starts in ``buffer``
        self.data: list[str] = []

    def feed_frames(self, chunk: bytes) -> list[tuple[str, str]]:
        """(frame as sent, data) of each event ``chunk`` completes; a frame without data (a
        comment, a keep-alive) is no event."""
        self.buffer += self.decoder.decode(chunk)
        out = []
        while True:
            end = LINE_END.search(self.buffer, self.at)
            if end is None or (end.group() == "\r" and end.end() == len(self.buffer)):
                break  # no whole line yet (a "\r" at the end may be the first half of "\r\n")
            line = self.buffer[self.at:end.start()]
            self.at = end.end()
            if line:
                if line.startswith("data:"):
                    self.data.append(line[5:].removeprefix(" "))
                continue
            frame, self.buffer, self.at = self.buffer[:self.at], self.buffer[self.at:], 0
            if self.data:
                out.append((frame, "\n".join(self.data)))
            self.data = []
        return out

    def feed(self, chunk: bytes) -> list[str]:
        """The data of each event ``chunk`` completes."""
        return [data for _, data in self.feed_frames(chunk)]
