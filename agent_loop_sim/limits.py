"""The limits on input the command line accepts, which a user can see and change.

Each limit has an environment variable (so that the recorders, which are other processes, obey
the same limits) and a command-line flag that sets it. A file over a limit is refused with one
line naming the limit and how to raise it, before the engine spends time or memory on it.

The defaults are several times what the committed files need (the largest recording is 1.4 MB,
the deepest file nests 15 levels, the longest scenario file has 130 sessions).
"""
from __future__ import annotations

import argparse
import os
from dataclasses import dataclass

from .errors import InputError


@dataclass(frozen=True)
class Limit:
    name: str      # in the project's words, for the error line
    env: str       # the environment variable that sets it
    flag: str      # the command-line flag that sets it
    default: int
    unit: str = ""

    def value(self) -> int:
        raw = os.environ.get(self.env)
        if raw is None or raw == "":
            return self.default
        try:
            value = int(raw)
        except ValueError:
            value = 0
        if value < 1:
            raise InputError(f"{self.env}={raw!r}: the {self.name} limit is a whole number of at least 1")
        return value

    def refuse(self, found: str) -> InputError:
        """The one-line error for input over this limit."""
        return InputError(f"{found}, over the {self.name} limit of {self.value():,}{self.unit} "
                          f"(raise it with {self.flag} N or {self.env}=N)")

    def help(self) -> str:
        return f"the {self.name} accepted (default {self.default:,}{self.unit}; env {self.env})"


FILE_BYTES = Limit("largest file", "AGENT_LOOP_SIM_MAX_FILE_BYTES", "--max-file-bytes", 16 * 1024 * 1024, " bytes")
DEPTH = Limit("nesting depth", "AGENT_LOOP_SIM_MAX_DEPTH", "--max-depth", 64, " levels")
SESSIONS = Limit("session count", "AGENT_LOOP_SIM_MAX_SESSIONS", "--max-sessions", 1000, " sessions per file")

LIMITS = (FILE_BYTES, DEPTH, SESSIONS)


def at_least_one(text: str) -> int:
    """A command-line count (``type=`` of argparse): a whole number of at least 1."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of at least 1")
    return value
