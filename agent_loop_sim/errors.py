"""One exception for bad input, with a message that says where the input is wrong.

Every loader (scenarios, recordings) raises `InputError` naming the file, the session,
the message number and the JSON path it could find; the command line prints it as one
paragraph and exits non-zero, so a traceback is never the only explanation.
"""
from __future__ import annotations

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
    """A message on one line (an SDK's errors, pydantic's, span several; a reader sees one)."""
    return " | ".join(line.strip() for line in str(text).splitlines() if line.strip())


class RecorderError(Exception):
    """A live recording failed (server crashed, hung, or the SDK raised); names the session."""


class EngineFailure(Exception):
    """The engine could not play a session it accepted: a gap in the model, named by session."""

    def __init__(self, session: str, cause: BaseException) -> None:
        super().__init__(f"session {session!r}: the engine failed ({type(cause).__name__}: {cause})")
        self.session = session
