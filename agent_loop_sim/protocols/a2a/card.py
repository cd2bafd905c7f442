"""The agent card and how the SDK serves it at ``/.well-known/agent-card.json``.

The card is written with protobuf's JSON mapping (camelCase, empty fields left out). The answer
always carries a weak ETag, ``W/"<sha256 of the card as compact JSON with sorted keys>"``
(``signatures`` left out of the hash). A conditional GET whose ``If-None-Match`` names that tag
(weak comparison, so ``W/"x"`` and ``"x"`` match; ``*`` matches anything) gets ``304`` with the
ETag and no body; anything else gets ``200`` with the card as ``application/json``.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any, Callable

from ...jsonio import copier

WELL_KNOWN_PATH = "/.well-known/agent-card.json"


@dataclass(frozen=True)
class Skill:
    """One ``AgentSkill`` of the card."""

    id: str
    name: str
    description: str
    tags: tuple[str, ...] = ()
    examples: tuple[str, ...] = ()
    input_modes: tuple[str, ...] = ()
    output_modes: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """As protobuf's JSON writes it: the fields in their numbers' order, an empty list left out."""
        out: dict[str, Any] = {"id": self.id, "name": self.name, "description": self.description}
        for key, values in (("tags", self.tags), ("examples", self.examples), ("inputModes", self.input_modes),
                            ("outputModes", self.output_modes)):
            if values:
                out[key] = list(values)
        return out


@dataclass(frozen=True)
class AgentCard:
    """The public card of an agent that serves the JSON-RPC binding at ``base_url + rpc_path``."""

    name: str
    description: str
    version: str
    base_url: str
    rpc_path: str = "/a2a"
    protocol_version: str = "1.0"
    #: a capability the card states (True or False), or None where it is left unset (then unsaid)
    streaming: bool | None = None
    push_notifications: bool | None = None
    extended_agent_card: bool = False
    default_input_modes: tuple[str, ...] = ()
    default_output_modes: tuple[str, ...] = ()
    skills: tuple[Skill, ...] = field(default_factory=tuple)
    #: ``AgentProvider``: (organization, url), or None
    provider: tuple[str, str] | None = None
    documentation_url: str | None = None
    icon_url: str | None = None
    #: the card's ETag, derived once from the fields above (it is sent with every card served)
    tag: str = field(default="", init=False, repr=False, compare=False)
    #: makes `to_json` anew for each card served, derived once from the fields above (`jsonio.copier`)
    served: Callable[[], dict[str, Any]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "tag", self.etag())
        object.__setattr__(self, "served", copier(self.to_json()))

    def to_json(self) -> dict[str, Any]:
        """The card as the SDK writes it."""
        # (protobuf's JSON: fields in their numbers' order; one with presence written when set,
        # false included; an empty list or an unset optional left out)
        capabilities = {key: value for key, value in (("streaming", self.streaming),
                                                      ("pushNotifications", self.push_notifications),
                                                      ("extendedAgentCard", self.extended_agent_card or None))
                        if value is not None}
        out: dict[str, Any] = {
            "name": self.name,
            "description": self.description,
            "supportedInterfaces": [{"url": self.base_url + self.rpc_path, "protocolBinding": "JSONRPC",
                                     "protocolVersion": self.protocol_version}],
        }
        if self.provider is not None:
            out["provider"] = {"url": self.provider[1], "organization": self.provider[0]}
        out["version"] = self.version
        if self.documentation_url is not None:
            out["documentationUrl"] = self.documentation_url
        out["capabilities"] = capabilities
        if self.default_input_modes:
            out["defaultInputModes"] = list(self.default_input_modes)
        if self.default_output_modes:
            out["defaultOutputModes"] = list(self.default_output_modes)
        if self.skills:
            out["skills"] = [s.to_json() for s in self.skills]
        if self.icon_url is not None:
            out["iconUrl"] = self.icon_url
        return out

    def etag(self) -> str:
        """The weak ETag the SDK sends with the card."""
        unsigned = {k: v for k, v in self.to_json().items() if k != "signatures"}
        body = json.dumps(unsigned, sort_keys=True, separators=(",", ":"))
        return f'W/"{hashlib.sha256(body.encode("utf-8")).hexdigest()}"'


def if_none_match_hits(header: str, etag: str) -> bool:
    """Whether an ``If-None-Match`` value selects the entity tagged ``etag`` (RFC 9110, 13.1.2)."""
    candidates = [c.strip() for c in header.split(",")]
    if "*" in candidates:
        return True
    return any(c.removeprefix("W/") == etag.removeprefix("W/") for c in candidates)


def serve_card(card: AgentCard, if_none_match: str | None) -> tuple[int, list[tuple[str, str]], Any]:
    """``(status, headers, body)`` of the answer to ``GET /.well-known/agent-card.json``."""
    etag = card.tag
    if if_none_match and if_none_match_hits(if_none_match, etag):
        return 304, [("ETag", etag)], None
    # The SDK's route sets the ETag; Starlette's JSONResponse adds Content-Type after it.
    return 200, [("ETag", etag), ("Content-Type", "application/json")], card.served()
