"""Reading and writing the project's JSON files: strict on the way in, atomic on the way out."""
from __future__ import annotations

import gc
import json
import marshal
import math
import os
import re
import stat
import sys
import time
import tempfile
from itertools import compress
from pathlib import Path
from typing import Any, Callable

from .errors import InputError
from .limits import DEPTH, FILE_BYTES


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


def copier(value: Any) -> Callable[[], Any]:
    """A function that returns a fresh deep copy of ``value``, a JSON value that never changes
    (a fixture's tool listing): what ``copy_json`` would return, made twice as fast.

    How: the value is written once as a Python literal and compiled into a function that
    evaluates it, so that each call builds every array and object anew, as the interpreter
    builds a literal, and decodes nothing (marshal decodes every string on every copy). Only
    JSON's own types are written so (``repr`` of each is its literal); any other value, a number
    with no literal (``nan``, ``inf``), or one nested deeper than the compiler takes, is copied
    as ``copy_json`` copies it instead.
    """
    try:
        source = _literal(value)
        if source is not None:
            return eval(compile(f"lambda: {source}", "<jsonio.copier>", "eval"), {"__builtins__": {}})  # noqa: S307
    except (RecursionError, SyntaxError, MemoryError):  # (nested too deep for a literal)
        pass
    frozen = marshal.dumps(value)
    return lambda: marshal.loads(frozen)


def _literal(value: Any) -> str | None:
    """``value`` as a Python literal that evaluates to an equal JSON value, or None."""
    kind = type(value)
    if kind is dict:
        items = []
        for k, v in value.items():
            inner = _literal(v)
            if type(k) is not str or inner is None:
                return None
            items.append(f"{k!r}: {inner}")
        return "{" + ", ".join(items) + "}"
    if kind is list:
        inner_items = [_literal(v) for v in value]
        return None if None in inner_items else "[" + ", ".join(inner_items) + "]"  # type: ignore[arg-type]
    if kind is float:
        return repr(value) if math.isfinite(value) else None
    if kind in (str, int, bool) or value is None:
        return repr(value)
    return None


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
        raise _Duplicate(key)
    return out


class _Duplicate(ValueError):
    pass


class _NotJSON:
    """A token Python's parser accepts but JSON (RFC 8259) has not: ``NaN``, ``Infinity``, or a
    number out of a double's range (``1e400``); kept as a marker so the walk can say where it is."""

    def __init__(self, literal: str) -> None:
        self.literal = literal


def _float(literal: str) -> Any:
    value = float(literal)
    return _NotJSON(literal) if math.isinf(value) else value


#: A JSON escape of a surrogate (``\\ud800``-``\\udfff``): the only way a lone surrogate gets into
#: text that was valid UTF-8. (A pair of them, or an escaped backslash before ``ud8..``, matches too:
#: the walk then decides.) The served peers look for it too, in a line or a body (`serve`).
SURROGATE_ESCAPE = r"\\u[dD][89a-fA-F]"
_SURROGATE_ESCAPE = re.compile(SURROGATE_ESCAPE)
_CONTAINERS = frozenset({dict, list})


def _within_depth(value: Any, limit: int) -> bool:
    """Whether no array or object of ``value`` is ``limit`` or more levels down, told a level at a
    time in C: ``gc.get_referents`` lists what a level's dicts and lists hold (every value, as the
    garbage collector's traversal must), ``map``/``compress`` keep the arrays and objects among
    them. (A walk in Python over every value costs more than parsing the JSON did.)"""
    level = [value] if type(value) in _CONTAINERS else []
    depth = 0
    while level:
        if depth >= limit:
            return False
        children = gc.get_referents(*level)
        level = list(compress(children, map(_CONTAINERS.__contains__, map(type, children))))
        depth += 1
    return True


def _lone_surrogate(text: str) -> bool:
    if text.isascii():
        return False
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _where(root: Any, path: tuple[str | int, ...]) -> dict[str, Any]:
    """The session (by name) and message (numbered from 1) a JSON path of a scenario or recording
    file is in, as far as the path says: ``$.sessions[2].messages[4]...`` -> that session, message 5."""
    where: dict[str, Any] = {"path": json_path(path)}
    if len(path) >= 2 and path[0] == "sessions" and isinstance(path[1], int) and isinstance(root, dict):
        session = root["sessions"][path[1]]
        if isinstance(session, dict) and isinstance(session.get("name"), str):
            where["session"] = session["name"]
        if len(path) >= 4 and path[2] == "messages" and isinstance(path[3], int):
            where["message"] = path[3] + 1
    return where


class _Duplicated(dict):  # type: ignore[type-arg]
    """An object with a key twice (as `_where_marked` parses it again, to say where it is)."""


def _keep_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out = dict(pairs)
    return _Duplicated(out) if len(out) != len(pairs) else out


class _LongInteger:
    """An integer literal of more digits than Python converts (4300), kept as a marker."""


def _integer(literal: str) -> Any:
    return _LongInteger() if len(literal) > 4300 else int(literal)


def _where_marked(text: str, marker: type, **hooks: Any) -> dict[str, Any]:
    """The session, message and JSON path of the first value of type ``marker`` in ``text`` parsed
    with ``hooks`` (which make a marker of what `parse_json` refused: `_Duplicated`, `_LongInteger`),
    or nothing if it cannot be told. Only on that error."""
    try:
        root = json.loads(text, **hooks)
    except (ValueError, RecursionError):
        return {}
    return _where_first(root, lambda item: type(item) is marker)


def _where_first(root: Any, found: Callable[[Any], bool]) -> dict[str, Any]:
    """`_where` of the first value of ``root`` (depth first, first member first) that is ``found``."""
    stack: list[tuple[Any, tuple[str | int, ...]]] = [(root, ())]
    while stack:
        item, path = stack.pop()
        if found(item):
            return _where(root, path)
        if isinstance(item, dict):
            stack.extend((child, path + (key,)) for key, child in reversed(item.items()))
        elif isinstance(item, list):
            stack.extend((item[i], path + (i,)) for i in range(len(item) - 1, -1, -1))
    return {}


def check_json_value(value: Any, depth: int | None = None) -> None:
    """Refuse what is not JSON as the SDKs send it, naming its JSON path: ``NaN``/``Infinity``/
    ``1e400``, a string holding a lone surrogate (``"\\ud800"``: not encodable as UTF-8), and
    nesting deeper than ``depth`` (the user's depth limit unless given). Iterative, so no input can
    exhaust Python's stack. The error names the session and message the path is in, if any."""
    try:
        _check_json_value(value, DEPTH.value() if depth is None else depth)
    except _Found as found:
        raise found.error.within(**_where(value, found.path)) from None


class _Found(Exception):
    def __init__(self, error: InputError, path: tuple[str | int, ...]) -> None:
        self.error, self.path = error, path


def _check_json_value(value: Any, limit: int) -> None:
    stack: list[tuple[Any, tuple[str | int, ...]]] = [(value, ())]
    while stack:
        item, path = stack.pop()
        if len(path) >= limit and isinstance(item, (dict, list)):
            raise _Found(_over_depth(limit, "the JSON is nested too deep"), path)
        if isinstance(item, dict):
            for key in item:
                if _lone_surrogate(key):
                    raise _Found(InputError("a key holds a lone surrogate (\\ud800-\\udfff), which is not "
                                            "text: it cannot be sent as UTF-8"), path)
            # pushed last to first, so that the first problem in the file is the one reported
            stack.extend((child, path + (key,)) for key, child in reversed(item.items()))
        elif isinstance(item, list):
            stack.extend((item[i], path + (i,)) for i in range(len(item) - 1, -1, -1))
        elif isinstance(item, str):
            if _lone_surrogate(item):
                raise _Found(InputError("the string holds a lone surrogate (\\ud800-\\udfff), which is not "
                                        "text: it cannot be sent as UTF-8"), path)
        elif isinstance(item, _NotJSON):
            raise _Found(InputError(f"{item.literal} is not a JSON number: JSON numbers are finite doubles "
                                    f"(no NaN, no Infinity, nothing out of range like 1e400)"), path)


def _over_depth(limit: int, found: str) -> InputError:
    if limit == DEPTH.value():
        return DEPTH.refuse(found)
    return InputError(f"{found} (more than {limit} levels)")


def _deeper_than_the_parser(found: str) -> InputError:
    """Python's JSON parser raised RecursionError: the text nests deeper than it goes (about the
    interpreter's recursion limit, some 1,000 levels). That is over the depth limit, unless the
    user raised the limit past it; then the line says what stopped it, not that limit."""
    goes = sys.getrecursionlimit()
    if DEPTH.value() < goes:
        return DEPTH.refuse(found)
    return InputError(f"{found} for Python's JSON parser, which goes about {goes:,} levels deep "
                      f"(under the nesting depth limit of {DEPTH.value():,}, but no limit can take it deeper)")


def check_embedded_json(text: str, path: list[str | int]) -> None:
    """A raw line or body a scenario sends as it is: it may be any text, even bad JSON, but when it
    parses, what it says must be something a recording can hold (`check_json_value`: no NaN, no
    lone surrogate, no nesting over the depth limit). ``path`` is the text's own JSON path."""
    try:
        value = json.loads(text, parse_constant=_NotJSON, parse_float=_float)
    except RecursionError:
        raise _deeper_than_the_parser("the text is nested too deep").within(path=json_path(path)) from None
    except json.JSONDecodeError:  # not JSON at all: sent as it is, recorded as raw text
        return
    except ValueError as exc:  # an integer of over 4300 digits: JSON, but no parser here takes it
        raise InputError(f"in the text: not valid here: {exc}", path=json_path(path)) from None
    try:
        check_json_value(value)
    except InputError as exc:
        inner = exc.path or "$"
        raise InputError(f"in the text, at {inner}: {exc.problem}", path=json_path(path)) from None


def read_file(path: str | os.PathLike[str], limited: bool = True) -> bytes:
    """The bytes of a regular file no larger than the file-size limit. A FIFO, a device or a
    folder is refused without blocking (opened non-blocking, then checked by ``fstat``)."""
    name = str(path)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except FileNotFoundError:
        raise InputError("the file does not exist", file=name) from None
    except OSError as exc:
        raise InputError(f"the file cannot be read ({exc.strerror})", file=name) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise InputError(f"the file is {_kind(info.st_mode)}, not a regular file", file=name)
        limit = FILE_BYTES.value() if limited else max(info.st_size, 1) * 2
        if info.st_size > limit:
            raise FILE_BYTES.refuse(f"the file is {info.st_size:,} bytes").within(file=name)
        chunks, size = [], 0
        while size <= limit:  # read at most limit + 1 bytes: a file that grew is caught too
            # os.read allocates what it is asked for: the file's size and one byte (so that the next
            # read sees the end), never the whole limit (a limit of 10**12 would be a MemoryError)
            chunk = os.read(fd, min(limit + 1 - size, max(info.st_size + 1 - size, 1 << 16)))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise InputError(f"the file cannot be read ({exc.strerror})", file=name) from None
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if len(data) > limit:
        raise FILE_BYTES.refuse(f"the file is over {limit:,} bytes").within(file=name)
    return data


def parse_json(text: str, name: str, limited: bool = True) -> Any:
    """Parse JSON text strictly: no duplicate keys, nothing JSON has not (`check_json_value`).

    What `check_json_value` refuses is first looked for the cheap way, so that its walk over every
    value runs only when something may be there: a ``NaN``/``Infinity``/``1e400`` as the parser
    meets it, a lone surrogate by a search of the text (valid UTF-8 holds none, so only a
    ``\\udXXX`` escape can make one), the depth by `_within_depth`. The walk then names the path."""
    odd: list[str] = []  # the literals JSON has not, as the parser met them

    def constant(literal: str) -> _NotJSON:
        odd.append(literal)
        return _NotJSON(literal)

    def number(literal: str) -> Any:
        value = _float(literal)
        if type(value) is _NotJSON:
            odd.append(literal)
        return value

    try:
        value = json.loads(text, object_pairs_hook=_no_duplicate_keys, parse_constant=constant, parse_float=number)
    except json.JSONDecodeError as exc:
        raise InputError(f"not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})", file=name) from None
    except _Duplicate as exc:
        raise InputError(f"not valid here: duplicate key {exc.args[0]!r}", file=name,
                         **_where_marked(text, _Duplicated, object_pairs_hook=_keep_duplicates)) from None
    except RecursionError:  # deeper than Python's parser goes: over the depth limit, unless raised
        raise _deeper_than_the_parser("the JSON is nested too deep").within(file=name) from None
    except ValueError as exc:  # e.g. an integer of more than 4300 digits
        raise InputError(f"not valid here: {exc}", file=name,
                         **_where_marked(text, _LongInteger, parse_int=_integer)) from None
    depth = DEPTH.value() if limited else sys.getrecursionlimit()
    if not odd and _SURROGATE_ESCAPE.search(text) is None and not _lone_surrogate(text) and _within_depth(value, depth):
        return value
    try:
        check_json_value(value, depth)
    except InputError as exc:
        raise exc.within(file=name) from None
    return value


def read_text(path: str | os.PathLike[str], limited: bool = True) -> str:
    """The text of a JSON file as `read_file` reads it: UTF-8, not empty; else an `InputError`."""
    return decode_text(read_file(path, limited), str(path))


def decode_text(data: bytes, name: str) -> str:
    """The text of a JSON file's bytes (`read_text`), ``name`` naming the file in an `InputError`."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"the file is not UTF-8 (byte {exc.start} is 0x{data[exc.start]:02x})", file=name) from None
    if not text or text.isspace():  # (not text.strip(): that copies a whole recording)
        raise InputError("the file is empty", file=name)
    return text


def load_json(path: str | os.PathLike[str], limited: bool = True) -> Any:
    """Parse a JSON file, turning every way it can be bad into an `InputError`. ``limited=False``
    for the package's own data (family words, release tables): the user's limits are for input."""
    return parse_json(read_text(path, limited), str(path), limited)


def _not_json(value: Any) -> Any:
    raise TypeError(f"{type(value).__name__} is not a JSON value")


# What ``json.JSONEncoder(ensure_ascii=False, allow_nan=False, check_circular=False).encode``
# makes for an array or object, made as it makes it (`json.encoder.JSONEncoder.iterencode`: the C
# encoder, built once here rather than on every call: the check writes every message it compares).
# Where the interpreter has no C encoder, the encoder itself.
if json.encoder.c_make_encoder is not None:
    _encode_line = json.encoder.c_make_encoder(None, _not_json, json.encoder.encode_basestring, None, ": ", ", ",
                                                False, False, False)
else:  # pragma: no cover (CPython and Pyodide have the C encoder)
    _encode_line = json.JSONEncoder(ensure_ascii=False, allow_nan=False, check_circular=False).iterencode


def one_line(value: Any) -> str:
    """A JSON value on one line, as ``json.dumps(value, ensure_ascii=False, allow_nan=False)``
    writes it: ``", "`` and ``": "`` between members, UTF-8 as is. Raises ``ValueError`` for
    ``NaN``/``Infinity`` and ``TypeError`` for what JSON has no type for."""
    return "".join(_encode_line(value, 0))


def _kind(mode: int) -> str:
    return ("a folder" if stat.S_ISDIR(mode) else "a FIFO" if stat.S_ISFIFO(mode)
            else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode)
            else "a socket" if stat.S_ISSOCK(mode) else "not a regular file")


def check_output(path: str | os.PathLike[str], folder: bool = False) -> None:
    """Refuse, naming it, a path `write_atomic` cannot or must not write: one that is a folder,
    a FIFO, a device or a socket (its rename would put a regular file in the node's place: run as
    root, over ``/dev/null``), or one whose folder is a file; with ``folder``, a folder to write
    into, which must be a folder or not yet exist. Raises `InputError` naming the path."""
    target = Path(path)
    for at in (target, *target.parents):  # the nearest that exists decides (mkdir makes the rest)
        try:
            mode = os.stat(at).st_mode
        except (FileNotFoundError, NotADirectoryError):  # (under a file: the walk up names it)
            continue
        except OSError as exc:
            raise InputError(f"the output cannot be written ({exc.strerror})", file=str(at)) from None
        if at == target and not folder:
            if not stat.S_ISREG(mode):
                raise InputError(f"the output is {_kind(mode)}, not a regular file", file=str(at))
        elif not stat.S_ISDIR(mode):
            kind = "a file" if stat.S_ISREG(mode) else _kind(mode)
            raise InputError(f"the output {'folder' if at == target else 'path'} holds {kind} here, "
                             f"not a folder", file=str(at))
        return


def write_atomic(path: str | os.PathLike[str], text: str, *, only_if_changed: bool = False,
                 durable: bool = True) -> bool:
    """Write ``text`` to ``path`` so that readers see the old file or the new one, never half.

    With ``only_if_changed`` a file that already holds ``text`` is left alone, mtime and all (so
    that ``mkdocs serve --dirty`` rebuilds only what changed). Returns whether it wrote. The
    temporary file has a unique name, so two writers never share one. ``durable=False`` leaves out
    the ``fsync`` (about 0.4 ms a file here): for a cache the build writes again whenever what it
    holds is not what it should (the generated pages), where surviving a power cut is not needed."""
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
            if durable:
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


def write_output(path: str | os.PathLike[str], text: str) -> None:
    """`write_atomic` to a path the user named (``--output``): refused by `check_output` first, and
    any error of the file system (no space, no permission, read-only) one `InputError` naming it."""
    check_output(path)
    try:
        write_atomic(path, text)
    except OSError as exc:
        raise InputError(f"the output cannot be written ({exc.strerror})", file=str(path)) from None


def remove_stale_temps(folder: str | os.PathLike[str], older_than: float = 60.0) -> list[Path]:
    """Remove what a `write_atomic` killed mid-write (SIGKILL) left under ``folder``: its
    ``.NAME.XXXX.tmp`` files older than ``older_than`` seconds (a live writer's are milliseconds old)."""
    removed = []
    now = time.time()
    for path in Path(folder).rglob(".*.tmp"):
        try:
            if path.is_file() and now - path.stat().st_mtime > older_than:
                path.unlink()
                removed.append(path)
        except OSError:
            pass
    return removed
