"""Reading and writing the project's JSON files: strict on the way in, atomic on the way out."""
from __future__ import annotations

import json
import marshal
import os
import tempfile
from pathlib import Path
from typing import Any

from .errors import InputError


def json_path(parts: list[str | int] | tuple[str | int, ...]) -> str:
    """``["result", "tools", 0, "name"]`` -> ``$.result.tools[0].name``."""
    out = "$"
    for part in parts:
        if isinstance(part, int):
            out += f"[{part}]"
        elif part.isidentifier():
            out += f".{part}"
        else:
            out += f"[{json.dumps(part)}]"
    return out


def copy_json(value: Any) -> Any:
    """A deep copy of a JSON value (dicts, lists, strings, numbers, booleans, null), key order kept.

    Why ``marshal`` rather than ``copy.deepcopy`` or a JSON round trip: the models copy messages
    and tasks on every step, and marshal copies these trees in C, about twice as fast as a
    recursive copy in Python and four times as fast as ``json.loads(json.dumps(...))``.
    """
    return marshal.loads(marshal.dumps(value))


def short_json(value: Any, limit: int = 200) -> str:
    """A JSON value on one line, cut to ``limit`` characters (for messages about values)."""
    shown = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    return shown if len(shown) <= limit else shown[: limit - 1] + "…"


def keys_first(mapping: dict[str, Any], first: tuple[str, ...]) -> dict[str, Any]:
    """``mapping`` with the keys of ``first`` (those present) first, the rest after, in their order:
    how a serialiser that knows some fields of a model and passes the others through writes it."""
    out = {k: mapping[k] for k in first if k in mapping}
    out.update({k: v for k, v in mapping.items() if k not in first})
    return out


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    # dict() in C, and a look for the duplicate only when one was dropped: the hook runs for
    # every object of every recording read.
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        key = next(k for k, _ in pairs if k in seen or seen.add(k))  # type: ignore[func-returns-value]
        raise ValueError(f"duplicate key {key!r}")
    return out


def load_json(path: str | os.PathLike[str]) -> Any:
    """Parse a JSON file, turning every way it can be bad into an `InputError`."""
    name = str(path)
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        raise InputError("the file does not exist", file=name) from None
    except OSError as exc:
        raise InputError(f"the file cannot be read ({exc.strerror})", file=name) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"the file is not UTF-8 (byte {exc.start} is 0x{data[exc.start]:02x})", file=name) from None
    if not text or text.isspace():  # (not text.strip(): that copies a whole recording)
        raise InputError("the file is empty", file=name)
    try:
        return json.loads(text, object_pairs_hook=_no_duplicate_keys)
    except json.JSONDecodeError as exc:
        raise InputError(f"not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})", file=name) from None
    except ValueError as exc:  # duplicate keys
        raise InputError(f"not valid here: {exc}", file=name) from None


def dump_json(data: Any) -> str:
    """The one on-disk layout of recordings: two-space indent, key order kept, UTF-8 as is."""
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def write_atomic(path: str | os.PathLike[str], text: str, *, only_if_changed: bool = False) -> bool:
    """Write ``text`` to ``path`` so that readers see the old file or the new one, never half.

    With ``only_if_changed`` a file that already holds ``text`` is left alone, mtime and all (so
    that ``mkdocs serve --dirty`` rebuilds only what changed). Returns whether it wrote. The
    temporary file has a unique name, so two writers never share one."""
    target = Path(path)
    if only_if_changed:
        try:
            if target.read_text(encoding="utf-8") == text:
                return False
        except (OSError, UnicodeDecodeError):
            pass
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes 0600; give the file the usual mode
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return True
