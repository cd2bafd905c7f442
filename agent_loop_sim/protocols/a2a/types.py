"""The A2A 1.0 protocol types the agent parses, as data: fields, JSON names, REQUIRED marks.

The SDK reads a request's ``params`` into the method's protobuf type (unknown fields are
ignored), then checks every field the protocol marks REQUIRED, and writes its answers back
with protobuf's JSON mapping. In JSON terms that round trip means: fields are camelCase;
a field without presence (a plain string, number, enum or list) disappears when it holds its
default value; numbers inside ``google.protobuf.Struct``/``Value`` come back as floats; bytes
come back as standard base64 with padding. `parse` does that round trip and
`required_violations` the REQUIRED check, in the SDK's words
(``message.parts``: "Field must contain at least one element.").
"""
from __future__ import annotations

import base64
import binascii
import re
import calendar
from datetime import datetime
from dataclasses import dataclass, field
from typing import Any

from ...jsonio import copy_json

STRING, INT32, BOOL, BYTES, STRUCT, VALUE, TIMESTAMP = "string", "int32", "bool", "bytes", "struct", "value", "timestamp"


@dataclass(frozen=True)
class FieldSpec:
    """One field of a protocol type.

    ``kind`` is a scalar kind, ``"enum:<Enum>"`` or ``"message:<Type>"``; ``presence`` says
    whether the field is kept when it holds its default (messages, oneof members, ``optional``).
    """

    name: str
    json: str
    kind: str
    required: bool = False
    repeated: bool = False
    presence: bool = False
    oneof: str | None = None
    # Derived from the above once (every message the agent reads or writes asks them):
    inner: str | None = field(default=None, init=False, compare=False)  #: the message type of a message field
    default: Any = field(default=None, init=False, compare=False)  #: the value protobuf leaves out, if any
    enum: tuple[str, ...] | None = field(default=None, init=False, compare=False)  #: an enum field's names

    def __post_init__(self) -> None:
        object.__setattr__(self, "inner", self.kind[8:] if self.kind.startswith("message:") else None)
        object.__setattr__(self, "enum", ENUMS[self.kind[5:]] if self.kind.startswith("enum:") else None)
        object.__setattr__(self, "default", [] if self.repeated else ENUMS[self.kind[5:]][0]
                           if self.kind.startswith("enum:") else _SCALAR_DEFAULTS.get(self.kind, _NO_DEFAULT))


_SCALAR_DEFAULTS: dict[str, Any] = {STRING: "", BYTES: "", INT32: 0, BOOL: False}
_NO_DEFAULT = object()  # a kind with no default value: equal to nothing a message holds


def _f(name: str, kind: str, **flags: Any) -> FieldSpec:
    head, *rest = name.split("_")
    camel = head + "".join(word.title() for word in rest)
    if kind.startswith("message:") or kind in (STRUCT, TIMESTAMP) or flags.get("oneof"):
        flags.setdefault("presence", not flags.get("repeated", False))
    return FieldSpec(name, camel, kind, **flags)


ENUMS: dict[str, tuple[str, ...]] = {
    "Role": ("ROLE_UNSPECIFIED", "ROLE_USER", "ROLE_AGENT"),
    "TaskState": ("TASK_STATE_UNSPECIFIED", "TASK_STATE_SUBMITTED", "TASK_STATE_WORKING", "TASK_STATE_COMPLETED",
                  "TASK_STATE_FAILED", "TASK_STATE_CANCELED", "TASK_STATE_INPUT_REQUIRED", "TASK_STATE_REJECTED",
                  "TASK_STATE_AUTH_REQUIRED"),
}

#: The protocol types by name (package ``lf.a2a.v1``), fields in declaration order.
TYPES: dict[str, tuple[FieldSpec, ...]] = {
    "SendMessageRequest": (
        _f("tenant", STRING), _f("message", "message:Message", required=True),
        _f("configuration", "message:SendMessageConfiguration"), _f("metadata", STRUCT)),
    "Message": (
        _f("message_id", STRING, required=True), _f("context_id", STRING), _f("task_id", STRING),
        _f("role", "enum:Role", required=True), _f("parts", "message:Part", required=True, repeated=True),
        _f("metadata", STRUCT), _f("extensions", STRING, repeated=True),
        _f("reference_task_ids", STRING, repeated=True)),
    "Part": (
        _f("text", STRING, oneof="content"), _f("raw", BYTES, oneof="content"), _f("url", STRING, oneof="content"),
        _f("data", VALUE, oneof="content"), _f("metadata", STRUCT), _f("filename", STRING),
        _f("media_type", STRING)),
    "SendMessageConfiguration": (
        _f("accepted_output_modes", STRING, repeated=True),
        _f("task_push_notification_config", "message:TaskPushNotificationConfig"),
        _f("history_length", INT32, presence=True), _f("return_immediately", BOOL)),
    "TaskPushNotificationConfig": (
        _f("tenant", STRING), _f("id", STRING), _f("task_id", STRING), _f("url", STRING, required=True),
        _f("token", STRING), _f("authentication", "message:AuthenticationInfo")),
    "AuthenticationInfo": (_f("scheme", STRING, required=True), _f("credentials", STRING)),
    "GetTaskRequest": (_f("tenant", STRING), _f("id", STRING, required=True), _f("history_length", INT32, presence=True)),
    "CancelTaskRequest": (_f("tenant", STRING), _f("id", STRING, required=True), _f("metadata", STRUCT)),
    "SubscribeToTaskRequest": (_f("tenant", STRING), _f("id", STRING, required=True)),
    "GetExtendedAgentCardRequest": (_f("tenant", STRING),),
    "ListTasksRequest": (
        _f("tenant", STRING), _f("context_id", STRING), _f("status", "enum:TaskState"),
        _f("page_size", INT32, presence=True), _f("page_token", STRING), _f("history_length", INT32, presence=True),
        _f("status_timestamp_after", TIMESTAMP), _f("include_artifacts", BOOL, presence=True)),
    "GetTaskPushNotificationConfigRequest": (
        _f("tenant", STRING), _f("task_id", STRING, required=True), _f("id", STRING, required=True)),
    "ListTaskPushNotificationConfigsRequest": (
        _f("tenant", STRING), _f("task_id", STRING, required=True), _f("page_size", INT32), _f("page_token", STRING)),
    "DeleteTaskPushNotificationConfigRequest": (
        _f("tenant", STRING), _f("task_id", STRING, required=True), _f("id", STRING, required=True)),
    # Answer-side types, for the listing that prints every field (ListTasks).
    "Task": (
        _f("id", STRING, required=True), _f("context_id", STRING), _f("status", "message:TaskStatus", required=True),
        _f("artifacts", "message:Artifact", repeated=True), _f("history", "message:Message", repeated=True),
        _f("metadata", STRUCT)),
    "TaskStatus": (
        _f("state", "enum:TaskState", required=True), _f("message", "message:Message"), _f("timestamp", TIMESTAMP)),
    "Artifact": (
        _f("artifact_id", STRING, required=True), _f("name", STRING), _f("description", STRING),
        _f("parts", "message:Part", required=True, repeated=True), _f("metadata", STRUCT),
        _f("extensions", STRING, repeated=True)),
    # The answers' own types, for the order in which their fields are written (`written`).
    "SendMessageResponse": (_f("task", "message:Task", oneof="payload"), _f("message", "message:Message", oneof="payload")),
    "StreamResponse": (
        _f("task", "message:Task", oneof="payload"), _f("message", "message:Message", oneof="payload"),
        _f("status_update", "message:TaskStatusUpdateEvent", oneof="payload"),
        _f("artifact_update", "message:TaskArtifactUpdateEvent", oneof="payload")),
    "TaskStatusUpdateEvent": (
        _f("task_id", STRING, required=True), _f("context_id", STRING, required=True),
        _f("status", "message:TaskStatus", required=True), _f("metadata", STRUCT)),
    "TaskArtifactUpdateEvent": (
        _f("task_id", STRING, required=True), _f("context_id", STRING, required=True),
        _f("artifact", "message:Artifact", required=True), _f("append", BOOL), _f("last_chunk", BOOL),
        _f("metadata", STRUCT)),
    "ListTasksResponse": (
        _f("tasks", "message:Task", repeated=True), _f("next_page_token", STRING), _f("page_size", INT32),
        _f("total_size", INT32)),
}


#: Each type's fields by JSON name, and by JSON name or proto name (protobuf's parser takes both).
_BY_JSON: dict[str, dict[str, FieldSpec]] = {name: {s.json: s for s in specs} for name, specs in TYPES.items()}
_BY_KEY: dict[str, dict[str, FieldSpec]] = {name: {s.json: s for s in specs} | {s.name: s for s in specs}
                                            for name, specs in TYPES.items()}


class ParseFailure(Exception):
    """``params`` that protobuf's JSON parser refuses; ``str()`` is the parser's own message
    (``google.protobuf.json_format.ParseDict`` with ``ignore_unknown_fields``, as the SDK calls it)."""


class _PyError(Exception):
    """A ``TypeError``/``ValueError`` Python raises inside the parser: wrapped by every field it crosses."""


class _Bare(Exception):
    """An ``OverflowError``: no handler of the parser catches it, so the SDK prints it as it is."""


_PACKAGE = "lf.a2a.v1."
_EXTENSION_NAME = re.compile(r"\[[a-zA-Z0-9\._]*\]$")
_UNPAIRED_SURROGATE = re.compile("[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]")
#: What upb's name lookup leaks when the name holds a lone surrogate (it cannot encode it as UTF-8).
_LOOKUP_LEAK = "<method 'get' of 'google._upb._message._ByNameMap' objects> returned a result with an exception set"
_SKIP = object()  # an enum name protobuf does not define: ``ignore_unknown_fields`` leaves the field unset


def _type_name(value: Any) -> str:
    return type(value).__name__


def _struct_value(value: Any, path: str) -> Any:
    # google.protobuf.Value holds every number as a double, and a string as UTF-8.
    if isinstance(value, str):
        _utf8(value)
        return value
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, (int, float)):
        try:
            return float(value)
        except OverflowError as exc:
            raise _Bare(str(exc)) from None
    if isinstance(value, list):
        return [_struct_value(v, f"{path}[{i}]") for i, v in enumerate(value)]
    return _struct(value, path)


def _utf8(text: str) -> None:
    if _UNPAIRED_SURROGATE.search(text):
        try:
            text.encode()
        except UnicodeEncodeError as exc:
            raise _PyError(str(exc)) from None


def _struct(value: Any, path: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ParseFailure(f"Struct must be in a dict which is {value} at {path}")
    out = {}
    for k, v in value.items():
        _utf8(k)
        out[k] = _struct_value(v, f"{path}.{k}")
    return out


def _integer(value: Any, path: str) -> int:
    """protobuf's ``_ConvertInteger``, then the range an int32 field takes."""
    if isinstance(value, float) and not value.is_integer():
        raise ParseFailure(f"Couldn't parse integer: {value} at {path}")
    if isinstance(value, str) and " " in value:
        raise ParseFailure(f'Couldn\'t parse integer: "{value}" at {path}')
    if isinstance(value, bool):
        raise ParseFailure(f"Bool value {value} is not acceptable for integer field at {path}")
    if isinstance(value, (list, dict)) or value is None:
        raise _PyError(f"int() argument must be a string, a bytes-like object or a real number, not '{_type_name(value)}'")
    try:
        number = int(value)
    except ValueError:
        try:
            f = float(value)
        except ValueError:
            raise _PyError(f"invalid literal for int() with base 10: {value!r}") from None
        if not f.is_integer():
            raise ParseFailure(f'Couldn\'t parse non-integer string: "{value}" at {path}') from None
        number = int(f)
    if not -2**31 <= number < 2**31:
        raise _PyError(f"Value out of range: {number}")
    return number


def _enum(names: tuple[str, ...], value: Any) -> Any:
    """A name, a number (an undefined one is kept: proto3 enums are open), or `_SKIP`."""
    if isinstance(value, (list, dict)):
        raise _PyError(f"unhashable type: '{_type_name(value)}'")
    if isinstance(value, str) and value in names:
        return value
    if isinstance(value, str) and _UNPAIRED_SURROGATE.search(value):
        raise _Bare(_LOOKUP_LEAK)
    try:
        number = int(value)
    except ValueError:
        return _SKIP
    except OverflowError as exc:
        raise _Bare(str(exc)) from None
    if not -2**31 <= number < 2**31:
        raise _PyError(f"Value out of range: {number}")
    return names[number] if 0 <= number < len(names) else number


def _scalar(spec: FieldSpec, value: Any, path: str) -> Any:
    kind = spec.kind
    if kind == STRING:
        if not isinstance(value, str):
            raise _PyError(f"expected string or bytes-like object, got '{_type_name(value)}'")
        if _UNPAIRED_SURROGATE.search(value):
            raise ParseFailure(f"Unpaired surrogate at {path}")
        return value
    if spec.inner is not None:  # (before the other kinds: messages are the next most common)
        return _parse(spec.inner, value, path)
    names = spec.enum
    if names is not None:  # (then enums: a message's role)
        return _enum(names, value)
    if kind == INT32:
        return _integer(value, path)
    if kind == BOOL:
        if not isinstance(value, bool):
            raise ParseFailure(f"Expected true or false without quotes at {path}")
        return value
    if kind == BYTES:
        try:
            encoded = value.encode() if isinstance(value, str) else value  # (protobuf pads with 1 to 4 "=" and decodes leniently; what it raises, Python raises here)
            raw = base64.urlsafe_b64decode(encoded + b"=" * (4 - len(encoded) % 4))  # type: ignore[operator]
        except (ValueError, TypeError) as exc:
            raise _PyError(str(exc)) from None
        return base64.b64encode(raw).decode()
    if kind == STRUCT:
        return _struct(value, path)
    if kind == VALUE:
        return _struct_value(value, path)
    try:
        return _timestamp_nanoseconds(value)
    except ValueError as exc:  # (protobuf's ``_ConvertGenericMessage`` adds where)
        raise ParseFailure(f"{exc} at {path}") from None


#: ``datetime.strptime``'s pattern for ``%Y-%m-%dT%H:%M:%S`` (CPython's ``_strptime``, the same in every
#: version since 3.7)
_SECONDS_FORMAT = "%Y-%m-%dT%H:%M:%S"
_SECONDS_TEXT = re.compile(r"(?P<Y>\d\d\d\d)-(?P<m>1[0-2]|0[1-9]|[1-9])-(?P<d>3[01]|[12]\d|0[1-9]|[1-9]| [1-9])"
                           r"[Tt](?P<H>2[0-3]|[0-1]\d|\d):(?P<M>[0-5]\d|\d):(?P<S>6[0-1]|[0-5]\d|\d)", re.IGNORECASE)


def _strptime(text: str) -> datetime:
    """``datetime.strptime(text, "%Y-%m-%dT%H:%M:%S")`` with the texts of its ``ValueError`` as
    CPython 3.11 (the SDK's interpreter) writes them, whatever Python runs the engine (later
    versions reword the date checks; Pyodide's is 3.14)."""
    found = _SECONDS_TEXT.match(text)
    if found is None:
        raise ValueError(f"time data {text!r} does not match format {_SECONDS_FORMAT!r}")
    if found.end() != len(text):
        raise ValueError(f"unconverted data remains: {text[found.end():]}")
    year, month, day, hour, minute, second = (int(found.group(k)) for k in "YmdHMS")
    if year < 1:
        raise ValueError(f"year {year} is out of range")
    if day > calendar.monthrange(year, month)[1]:
        raise ValueError("day is out of range for month")
    if second > 59:
        raise ValueError("second must be in 0..59")
    return datetime(year, month, day, hour, minute, second)


def _timestamp_nanoseconds(value: Any) -> int:
    """protobuf's ``Timestamp.FromJsonString``, as nanoseconds since the epoch (what the SDK's
    store compares); its ``ValueError`` texts, Python's own where it lets Python's through."""
    if not isinstance(value, str):
        raise ValueError(f"Timestamp JSON value not a string: {value!r}")
    offset = value.find("Z")
    if offset == -1:
        offset = value.find("+")
    if offset == -1:
        offset = value.rfind("-")
    if offset == -1:
        raise ValueError("Failed to parse timestamp: missing valid timezone offset.")
    seconds_text, point, nano_text = value[:offset].partition(".")
    if "t" in seconds_text:
        raise ValueError(f"time data '{seconds_text}' does not match format '%Y-%m-%dT%H:%M:%S', "
                         "lowercase 't' is not accepted")
    moment = _strptime(seconds_text) - datetime(1970, 1, 1)
    seconds = moment.seconds + moment.days * 86400
    if len(nano_text) > 9:
        raise ValueError(f"Failed to parse Timestamp: nanos {nano_text} more than 9 fractional digits.")
    nanos = round(float("0." + nano_text) * 1e9) if nano_text else 0
    if value[offset] == "Z":
        if len(value) != offset + 1:
            raise ValueError(f"Failed to parse timestamp: invalid trailing data {value}.")
    else:
        zone = value[offset:]
        colon = zone.find(":")
        if colon == -1:
            raise ValueError(f"Invalid timezone offset value: {zone}.")
        shift = (int(zone[1:colon]) * 60 + int(zone[colon + 1:])) * 60
        seconds += -shift if zone[0] == "+" else shift
    if not -62135596800 <= seconds <= 253402300799:
        raise ValueError(f"Timestamp is not valid: Seconds {seconds} must be in range [-62135596800, 253402300799].")
    return seconds * 1_000_000_000 + nanos


def _is_default(spec: FieldSpec, value: Any) -> bool:
    return spec.default == value


def _wrapped(spec: FieldSpec) -> bool:
    """Whether the parser names the field in its error: not for a oneof's member, nor for a proto3
    ``optional`` scalar (a oneof of its own to protobuf)."""
    return not spec.oneof and not (spec.presence and spec.inner is None and spec.kind not in (STRUCT, TIMESTAMP))


def parse(type_name: str, obj: Any, path: str | None = None) -> dict[str, Any]:
    """``obj`` read into ``type_name`` and written back as JSON, the way the SDK round-trips it;
    `ParseFailure` with protobuf's message where its parser refuses ``obj``."""
    try:
        return _parse(type_name, obj, path or type_name)
    except (_PyError, _Bare) as exc:  # (raised outside any field: not iterable at all)
        raise ParseFailure(str(exc)) from None


def _parse(type_name: str, obj: Any, path: str) -> dict[str, Any]:
    specs = TYPES[type_name]
    by_key = _BY_KEY[type_name]
    values: dict[str, Any] = {}
    if isinstance(obj, (int, float)) or obj is None:  # protobuf iterates ``obj`` as a mapping's names
        raise _PyError(f"'{_type_name(obj)}' object is not iterable")
    names: list[Any] = []
    for key in obj:
        spec = None
        try:
            if isinstance(key, (list, dict)):
                raise _PyError(f"unhashable type: '{_type_name(key)}'")
            spec = by_key.get(key)
            if spec is None:
                if isinstance(key, str) and _UNPAIRED_SURROGATE.search(key):
                    raise _Bare(_LOOKUP_LEAK)
                if not isinstance(key, str):
                    raise _PyError(f"expected string or bytes-like object, got '{_type_name(key)}'")
                if _EXTENSION_NAME.match(key):
                    raise ParseFailure(f"Message type {_PACKAGE}{type_name} does not have extensions at {path}")
                continue  # unknown fields are ignored
            names.append(key)
            if not isinstance(obj, dict):
                raise _PyError(f"{_type_name(obj)} indices must be integers or slices, not str")
            value = obj[key]
            oneof = spec.oneof or (f"_{spec.name}" if not _wrapped(spec) else None)
            if oneof and value is not None:
                if oneof in names:
                    raise ParseFailure(f'Message type "{_PACKAGE}{type_name}" should not have multiple '
                                       f'"{oneof}" oneof fields at "{path}".')
                names.append(oneof)
            if value is None and spec.kind != VALUE:
                values.pop(spec.json, None)
                continue
            if spec.repeated:
                if not isinstance(value, list):
                    raise ParseFailure(f"repeated field {key} must be in [] which is {value} at {path}")
                items = []
                for index, item in enumerate(value):
                    item_path = f"{path}.{key}[{index}]"
                    if item is None:
                        raise ParseFailure(f"null is not allowed to be used as an element in a repeated field at {item_path}")
                    items.append(_scalar(spec, item, item_path))
                values[spec.json] = items
            elif spec.kind == STRING and type(value) is str and value.isascii():  # most fields, as they are
                values[spec.json] = value
            else:
                scalar = _scalar(spec, value, f"{path}.{key}")
                if scalar is _SKIP:
                    values.pop(spec.json, None)
                else:
                    values[spec.json] = scalar
        except ParseFailure as exc:
            if spec is not None and _wrapped(spec):
                raise ParseFailure(f"Failed to parse {key} field: {exc}.") from None
            raise
        except _PyError as exc:
            raise ParseFailure(f"Failed to parse {key} field: {exc}.") from None
    if len(values) == 1:  # one field (a part's text) is in order: only its default is dropped
        ((name, value),) = values.items()
        spec = _BY_JSON[type_name][name]
        return values if spec.presence or spec.default != value else {}
    out = {}
    for spec in specs:  # declaration order, defaults of fields without presence dropped
        name = spec.json
        if name in values and (spec.presence or spec.default != values[name]):  # (`_is_default`, inline)
            out[name] = values[name]
    return out


def required_violations(type_name: str, obj: dict[str, Any]) -> list[dict[str, str]]:
    """Every REQUIRED field missing from ``obj`` (already parsed), nested ones as ``a.b`` / ``a[0].b``."""
    errors: list[dict[str, str]] = []
    for spec in _CHECKED.get(type_name, ()):
        value = obj.get(spec.json)
        if spec.required:
            if spec.repeated and not value:
                errors.append({"field": spec.name, "message": "Field must contain at least one element."})
            elif not spec.repeated and (value is None or (not spec.presence and _is_default(spec, value))):
                errors.append({"field": spec.name, "message": "Field is required."})
        if spec.inner in _CHECKED and value is not None:  # (a message type with something to check)
            items = list(enumerate(value)) if spec.repeated else [(None, value)]
            for index, item in items:
                subs = required_violations(spec.inner, item)
                if not subs:  # (nearly always: the prefix is written only for an error)
                    continue
                prefix = spec.name if index is None else f"{spec.name}[{index}]"
                for sub in subs:
                    errors.append({"field": f"{prefix}.{sub['field']}" if sub["field"] else prefix,
                                   "message": sub["message"]})
    return errors


def _checked(type_name: str) -> tuple[FieldSpec, ...]:
    """The fields of a type that `required_violations` looks at: the REQUIRED ones and the messages
    that have some of their own (a part, say, has none, and is not looked into at all)."""
    return tuple(s for s in TYPES[type_name] if s.required or (s.inner is not None and _checked(s.inner)))


#: Each type that has fields `required_violations` looks at (`_checked`), and those fields.
_CHECKED: dict[str, tuple[FieldSpec, ...]] = {name: checked for name in TYPES if (checked := _checked(name))}


def written(type_name: str, obj: dict[str, Any]) -> dict[str, Any]:
    """``obj`` with its keys in the order protobuf's JSON writer (``MessageToDict``) emits them:
    the fields that hold a value in declaration order, then those that hold their default (only
    there when every field is printed), in declaration order; nested messages likewise. A
    ``Struct``'s keys are left as they are (protobuf writes a map in no fixed order).

    Every array and object of the answer is new: the value of a field that can hold one (a
    ``Struct``, a ``Value``, a repeated scalar, a field the type does not declare) is copied, so
    that what the agent keeps (its stored tasks, which share what they do not change) is never
    part of an answer."""
    if len(obj) == 1:  # one key is in order whatever it holds (a part's text, an answer's payload)
        ((name, value),) = obj.items()
        inner, repeated, copied = _INNER[type_name].get(name, _UNDECLARED)
        if inner is None and not copied:  # a plain scalar (a part's text): as it is, without a call
            return {name: value}
        return {name: _field_written(value, inner, repeated, copied)}
    out: dict[str, Any] = {}
    defaults = None
    for name, presence, default, inner, repeated, copied in _WRITING[type_name]:
        if name in obj:
            value = obj[name]
            if not presence and default == value:
                defaults = (defaults or []) + [(name, inner, repeated, copied)]
            elif inner is None and not copied:  # a plain scalar, as most fields are (`_field_written`, inline)
                out[name] = value
            else:
                out[name] = _field_written(value, inner, repeated, copied)
    for name, inner, repeated, copied in defaults or ():
        out[name] = _field_written(obj[name], inner, repeated, copied)
    if len(out) != len(obj):  # not a field of the type: kept, last
        known = _BY_JSON[type_name]
        out.update((k, copy_json(v)) for k, v in obj.items() if k not in known)
    return out


def _field_written(value: Any, inner: str | None, repeated: bool, copied: bool) -> Any:
    """A field's value as `written` writes it: a message (or each of them) in its order, a value
    that can hold arrays or objects copied, any other as it is."""
    if inner is None or value is None:
        return copy_json(value) if copied else value
    return [written(inner, v) for v in value] if repeated else written(inner, value)


def _holds_containers(spec: FieldSpec) -> bool:
    """Whether a field that is not a message can hold an array or an object (`written` copies its value)."""
    return spec.inner is None and (spec.repeated or spec.kind in (STRUCT, VALUE))


#: What `written` asks of each field, type by type, as plain tuples in declaration order (JSON
#: name, presence, default, message type, repeated, value copied): it runs for every answer's every level.
_WRITING: dict[str, tuple[tuple[str, bool, Any, str | None, bool, bool], ...]] = {
    name: tuple((s.json, s.presence, s.default, s.inner, s.repeated, _holds_containers(s)) for s in specs)
    for name, specs in TYPES.items()}
#: A key the type does not declare: its value is copied as it is.
_UNDECLARED: tuple[None, bool, bool] = (None, False, True)
#: Each type's fields by JSON name -> (message type, repeated, value copied), for an object of one key.
_INNER: dict[str, dict[str, tuple[str | None, bool, bool]]] = {
    name: {s.json: (s.inner, s.repeated, _holds_containers(s)) for s in specs} for name, specs in TYPES.items()}


def with_every_field(type_name: str, obj: dict[str, Any]) -> dict[str, Any]:
    """``obj`` as protobuf writes it when asked to print fields without presence too."""
    out = dict(obj)
    for spec in TYPES[type_name]:
        if spec.json not in out:
            if spec.repeated:
                out[spec.json] = []  # (a new list each time, not the shared `default`)
            elif not spec.presence:
                out[spec.json] = spec.default  # ("", 0, false or the enum's first name: derived once)
        elif spec.inner is not None:
            inner = spec.inner
            value = out[spec.json]
            out[spec.json] = ([with_every_field(inner, v) for v in value] if spec.repeated
                              else with_every_field(inner, value))
    return out
