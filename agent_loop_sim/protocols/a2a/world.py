"""An A2A world file: an agent described as data, read into its card and its `Script`.

A world file describes what an ``AgentExecutor`` written with the SDK's helpers does
(``"kind": "a2a-agent"``)::

    {"kind": "a2a-agent", "about": TEXT?,
     "card": {"name": N, "description": D, "version": V, "url": "https://host/path",
              "streaming": BOOL?, "push_notifications": BOOL?,
              "default_input_modes": [MIME, ...]?, "default_output_modes": [MIME, ...]?,
              "provider": {"organization": TEXT, "url": URL}?, "documentation_url": URL?, "icon_url": URL?,
              "skills": [{"id", "name", "description", "tags"?: [...], "examples"?: [...],
                          "input_modes"?: [MIME, ...], "output_modes"?: [MIME, ...]}]?},
     "subject_prefix": TEXT?,
     "first_message": [RULE, ...], "follow_up": [RULE, ...]}

A RULE is ``{"when": WHEN, "do": [STEP, ...]}``; the first rule whose WHEN holds runs. WHEN is
``{"starts_with": TEXT}``, ``{"is": TEXT}`` (the user's text), ``{"waiting_in": STATE}`` (the
state the continued task was left in) or ``"otherwise"``. A STEP is ``{"reply": TEXT}`` (one
agent message, no task), ``{"create_task": true}`` (the task made from the user's message),
``{"status": STATE, "text": TEXT?}`` (a status update, with an agent message) or
``{"artifact": NAME, "chunks": [CHUNK, ...]}`` (one artifact; each chunk after the first is
appended, the last of several closes it; a CHUNK is a text, or a part as the wire writes one:
``{"data": JSON}``, ``{"url": U}``, ``{"raw": BASE64}`` or ``{"text": T}``, with ``mediaType``
and ``filename``). STATE is ``working``, ``input_required``,
``auth_required``, ``completed``, ``failed``, ``rejected`` or ``canceled``. Texts may hold
``{text}`` (the user's text) and ``{subject}`` (the same without ``subject_prefix``).

A capability given (``streaming``, ``push_notifications``), true or false, is stated on the card
(protobuf writes a set false too); one left out is unsaid.

The recorders build the SDK's agent from the same file (``conformance/a2a_world.py``).
"""
from __future__ import annotations

import string
from typing import Any
from urllib.parse import urlsplit

from ...errors import InputError
from ...jsonio import json_path
from ...schema import Field, check_object, describe
from . import states, types
from .card import AgentCard, Skill
from .scenario import PART_CONTENT, check_parts
from .script import CreateTask, Otherwise, Reply, Rule, Script, SendArtifact, SetStatus, TextIs, TextStartsWith, WaitingIn

KIND = "a2a-agent"
MAX_ITEMS = 1000
#: the states a step may name, by the names a world file uses
STATES = {"working": states.WORKING, "input_required": states.INPUT_REQUIRED, "auth_required": states.AUTH_REQUIRED,
          "completed": states.COMPLETED, "failed": states.FAILED, "rejected": states.REJECTED,
          "canceled": states.CANCELED}

_WORLD_FIELDS = {"kind": Field(str, choices=(KIND,)), "about": Field(str, required=False), "card": Field(dict),
                 "subject_prefix": Field(str, required=False), "first_message": Field(list),
                 "follow_up": Field(list, required=False)}
_CARD_FIELDS = {"name": Field(str), "description": Field(str), "version": Field(str), "url": Field(str),
                "streaming": Field(bool, required=False), "push_notifications": Field(bool, required=False),
                "default_input_modes": Field(list, required=False), "default_output_modes": Field(list, required=False),
                "skills": Field(list, required=False), "provider": Field(dict, required=False),
                "documentation_url": Field(str, required=False), "icon_url": Field(str, required=False)}
_PROVIDER_FIELDS = {"organization": Field(str), "url": Field(str)}
_SKILL_FIELDS = {"id": Field(str), "name": Field(str), "description": Field(str), "tags": Field(list, required=False),
                 "examples": Field(list, required=False), "input_modes": Field(list, required=False),
                 "output_modes": Field(list, required=False)}
_STEP_FIELDS = {"reply": {"reply": Field(str)}, "create_task": {"create_task": Field(bool, choices=(True,))},
                "status": {"status": Field(str, choices=tuple(STATES)), "text": Field(str, required=False)},
                "artifact": {"artifact": Field(str), "chunks": Field(list)}}
_TEMPLATE_NAMES = ("text", "subject")

Path = list[str | int]


def _problem(text: str, path: Path) -> InputError:
    return InputError(text, path=json_path(path))


def _texts(raw: list[Any], path: Path, what: str) -> tuple[str, ...]:
    if len(raw) > MAX_ITEMS or not all(type(v) is str for v in raw):
        raise _problem(f"{what} are at most {MAX_ITEMS:,} strings", path)
    return tuple(raw)


def _template(text: str, path: Path) -> str:
    try:
        fields = [(name, spec, conv) for _, name, spec, conv in string.Formatter().parse(text) if name is not None]
    except ValueError as exc:
        raise _problem(f"not a template: {exc}", path) from None
    for name, spec, conversion in fields:
        if name not in _TEMPLATE_NAMES or spec or conversion:
            raise _problem(f"{{{name}}} is not {{text}} or {{subject}} (no format specs or conversions)", path)
    return text


def _card(raw: Any, path: Path) -> AgentCard:
    check_object(raw, _CARD_FIELDS, path, "a card")
    url = urlsplit(raw["url"])
    if url.scheme not in ("http", "https") or not url.netloc or url.query or url.fragment:
        raise _problem("the card's url is an http(s) address with a path, such as https://host/a2a", path + ["url"])
    skills = []
    for i, s in enumerate(raw.get("skills", [])):
        where = path + ["skills", i]
        check_object(s, _SKILL_FIELDS, where, "a skill")
        skills.append(Skill(s["id"], s["name"], s["description"], _texts(s.get("tags", []), where + ["tags"], "tags"),
                            _texts(s.get("examples", []), where + ["examples"], "examples"),
                            _texts(s.get("input_modes", []), where + ["input_modes"], "input modes"),
                            _texts(s.get("output_modes", []), where + ["output_modes"], "output modes")))
    provider = None
    if "provider" in raw:
        check_object(raw["provider"], _PROVIDER_FIELDS, path + ["provider"], "a provider")
        provider = (raw["provider"]["organization"], raw["provider"]["url"])
    return AgentCard(name=raw["name"], description=raw["description"], version=raw["version"],
                     base_url=f"{url.scheme}://{url.netloc}", rpc_path=url.path or "/",
                     streaming=raw.get("streaming"), push_notifications=raw.get("push_notifications"),
                     provider=provider, documentation_url=raw.get("documentation_url"), icon_url=raw.get("icon_url"),
                     default_input_modes=_texts(raw.get("default_input_modes", []), path + ["default_input_modes"],
                                                "input modes"),
                     default_output_modes=_texts(raw.get("default_output_modes", []), path + ["default_output_modes"],
                                                 "output modes"),
                     skills=tuple(skills))


def _when(raw: Any, path: Path) -> Any:
    if raw == "otherwise":
        return Otherwise()
    if type(raw) is not dict or len(raw) != 1:
        raise _problem(f"a rule's when is \"otherwise\" or one of starts_with, is, waiting_in, not {describe(raw)}", path)
    (key, value), = raw.items()
    if key in ("starts_with", "is") and type(value) is str:
        return TextStartsWith(value) if key == "starts_with" else TextIs(value)
    if key == "waiting_in" and value in ("input_required", "auth_required"):
        return WaitingIn(STATES[value])
    raise _problem(f"unknown condition {key!r}: {value!r} (known: starts_with TEXT, is TEXT, waiting_in "
                   f"input_required or auth_required)", path)


def _step(raw: Any, path: Path) -> Any:
    kinds = [k for k in _STEP_FIELDS if type(raw) is dict and k in raw]
    if len(kinds) != 1:
        raise _problem(f"a step is one of {', '.join(_STEP_FIELDS)}", path)
    kind = kinds[0]
    check_object(raw, _STEP_FIELDS[kind], path, f"a {kind} step")
    if kind == "reply":
        return Reply(_template(raw["reply"], path + ["reply"]))
    if kind == "create_task":
        return CreateTask()
    if kind == "status":
        text = raw.get("text")
        return SetStatus(STATES[raw["status"]], None if text is None else _template(text, path + ["text"]))
    chunks = raw["chunks"]
    if not chunks or len(chunks) > MAX_ITEMS:
        raise _problem(f"an artifact has 1 to {MAX_ITEMS:,} chunks", path + ["chunks"])
    return SendArtifact(raw["artifact"], tuple(_chunk(c, path + ["chunks", i]) for i, c in enumerate(chunks)))


def _chunk(raw: Any, path: Path) -> str | dict[str, Any]:
    """A chunk: a text template, or a part (text, data, url or raw, with mediaType and filename) as
    protobuf holds it (numbers in data as doubles, fields at their defaults left out)."""
    if type(raw) is str:
        return _template(raw, path)
    if type(raw) is not dict:
        raise _problem(f"a chunk is a text or a part, not {describe(raw)}", path)
    check_parts([raw], path[:-1], index=path[-1])
    if "metadata" in raw:
        raise _problem("a chunk's metadata is not modelled", path + ["metadata"])
    if not any(key in raw for key in PART_CONTENT):
        raise _problem(f"a part holds one of {', '.join(PART_CONTENT)}", path)
    if "filename" in raw and ("text" in raw or "data" in raw):
        raise _problem("a text or data part's filename is not modelled (the SDK's helpers take none)", path + ["filename"])
    return types.parse("Part", raw)


def _rules(raw: list[Any], path: Path) -> tuple[Rule, ...]:
    if len(raw) > MAX_ITEMS:
        raise _problem(f"{len(raw):,} rules, over the limit of {MAX_ITEMS:,}", path)
    out = []
    for i, rule in enumerate(raw):
        check_object(rule, {"when": Field((str, dict)), "do": Field(list)}, path + [i], "a rule")
        steps = tuple(_step(s, path + [i, "do", j]) for j, s in enumerate(rule["do"][:MAX_ITEMS]))
        out.append(Rule(_when(rule["when"], path + [i, "when"]), steps))
    return tuple(out)


def read_world(raw: Any, source: str) -> tuple[AgentCard, Script]:
    """A world file's JSON as the agent it describes: its card and its script."""
    try:
        check_object(raw, _WORLD_FIELDS, [], "an A2A world")
        card = _card(raw["card"], ["card"])
        script = Script(_rules(raw["first_message"], ["first_message"]),
                        _rules(raw.get("follow_up", []), ["follow_up"]), raw.get("subject_prefix", ""))
    except InputError as exc:
        raise exc.within(file=source) from None
    return card, script
