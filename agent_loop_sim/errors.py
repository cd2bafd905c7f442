"""One exception for bad input, with a message that says where the input is wrong.

Every loader (scenarios, recordings) raises `InputError` naming the file, the session,
the message number and the JSON path it could find; the command line prints it as one
paragraph and exits non-zero, so a traceback is never the only explanation.
"""
from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass
class InputError(Exception):
    problem: str
    file: str | None = None
    session: str | None = None
    message: int | None = None
    path: str | None = None

    def __str__(self) -> str:
        where = []
        if self.file:
            where.append(str(self.file))
        if self.session is not None:
            where.append(f"session {self.session!r}")
        if self.message is not None:
            where.append(f"message {self.message}")
        if self.path:
            where.append(f"at {self.path}")
        return (", ".join(where) + ": " if where else "") + self.problem

    def within(self, **where: object) -> "InputError":
        """Fill in the location fields that are not known yet (inner code knows less)."""
        for key, value in where.items():
            if getattr(self, key) is None:
                setattr(self, key, value)
        return self


def one_line(text: str) -> str:
    """A message on one line (an SDK's errors, pydantic's, span several; a reader sees one), with
    every character a terminal would act on shown escaped (`printable`)."""
    return printable(" | ".join(line.strip() for line in str(text).splitlines() if line.strip()))


#: What a terminal acts on rather than shows: C0 controls but tab and newline, DEL, C1 controls
#: (ESC [ ... recolours, ESC ] 0; ... BEL retitles), and the bidirectional overrides and isolates
#: (which reorder the text around them).
_NOT_SHOWN = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def printable(text: str) -> str:
    """``text`` with each character a terminal would act on written as its escape (``\\x1b``,
    ``\\u202e``), as ``repr`` writes it: a file name or a message from a scenario or recording
    is shown as the text it is, never as colours, a new window title or reordered text."""
    return _NOT_SHOWN.sub(lambda m: repr(m.group())[1:-1], text)


class RecorderError(Exception):
    """A live recording failed (server crashed, hung, or the SDK raised); names the session."""


class EngineFailure(Exception):
    """The engine could not play a session it accepted: a gap in the model, named by session."""

    def __init__(self, session: str, cause: BaseException) -> None:
        super().__init__(f"session {session!r}: the engine failed ({type(cause).__name__}: {cause})")
        self.session = session
