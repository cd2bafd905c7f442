"""The one rule for names that become paths and URLs: a session's name (its page, its exports, its
era page) and a recording's file name.

A session name is lower-case ASCII letters, digits and ``_``, starting with a letter, at most
`MAX_NAME` characters. Matched to the end of the text (``\\Z``: ``$`` also matches before a final
newline, which let ``"x\\n"`` through). Lower case only, so that a case-folding file system cannot
merge two pages; short, so that the longest file made from a name (``.NAME.jsonl.XXXXXXXX.tmp``
while written, ``NAME/index.html`` once MkDocs has built it) stays far under the 255 bytes a file
name may have. A page's slug is the name itself: names are unique, so slugs are too.
"""
from __future__ import annotations

import re

from .errors import InputError

MAX_NAME = 100
_SESSION_NAME = re.compile(r"\A[a-z][a-z0-9_]*\Z")
# A recording is named, not pointed at: a file name in recordings/ (no folder, no "..", no hidden
# or temporary file), so `record` writes only there.
_RECORDING_NAME = re.compile(r"\A[A-Za-z0-9][A-Za-z0-9_.-]*\.json\Z")

SESSION_RULE = f"a session name is lower case letters, digits and _, starting with a letter, at most {MAX_NAME} characters"


def is_session_name(name: object) -> bool:
    return isinstance(name, str) and len(name) <= MAX_NAME and _SESSION_NAME.match(name) is not None


def is_recording_name(name: object) -> bool:
    return (isinstance(name, str) and len(name) <= MAX_NAME and _RECORDING_NAME.match(name) is not None
            and ".." not in name)


def path_part(name: str) -> str:
    """``name`` as a part of a path or URL, refused (`InputError` naming it) unless it keeps the
    rule: every function that makes a path of a session name goes through here."""
    if not is_session_name(name):
        raise InputError(f"{SESSION_RULE}, not {_shown(name)}")
    return name


def _shown(name: str) -> str:
    return repr(name if len(name) <= 60 else name[:60] + "…") + (f" ({len(name)} characters)" if len(name) > 60 else "")
