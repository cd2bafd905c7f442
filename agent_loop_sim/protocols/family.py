"""What the project knows about one protocol family, in one object.

Every protocol package (``protocols/<family>/``) exports one `Family` as ``FAMILY``: its
model, its scenario schema, its normal form, its recorder, the rule tables the site draws, and
the words the site uses for it. Nothing outside the package needs to know more.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, Callable, NamedTuple

from ..jsonio import load_json

from .releases import Releases

if TYPE_CHECKING:  # the registry is imported by scenarios.py, which these import
    from ..scenarios import Session
    from ..transcript import Message


class Code(str):
    """A table cell to show as code, not as prose."""


@dataclass(frozen=True)
class RuleTable:
    """One of the engine's rule tables, drawn as a table: the site renders it, never retypes it."""

    title: str
    about: str
    head: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


class FixtureServer(NamedTuple):
    """The program written with the official SDK that the recordings were made against."""

    path: str
    title: str
    about: str


@dataclass(frozen=True)
class Family:
    name: str                       #: as scenario and recording files spell it: ``mcp``
    title: str                      #: as prose spells it: ``MCP``
    parties: tuple[str, str]        #: who talks: (the side the scenario drives, its peer)
    #: the model: a session in, its messages out; ``release=`` names the SDK release it speaks,
    #: ``rules=`` puts a set of its `releases` wire changes in effect instead
    run_session: Callable[..., list["Message"]]
    normalise: Callable[[list["Message"]], list["Message"]]  #: the normal form both sides are compared in
    scenario: ModuleType            #: ``SESSION_FIELDS`` and ``validate(raw, path)`` for its sessions
    recorder: str                   #: the live recorder, relative to the checkout
    transport: str                  #: how the recorder reaches the SDK, as its recordings say (checked)
    fixture: FixtureServer
    intro: str                      #: what the family's index page says first
    normal_form: str                #: what its normal form keeps as sent (the renamings: normalise.NORMAL_FORMS)
    mode_notes: dict[str, str] = field(default_factory=dict)  #: what each session mode means
    rule_tables: Callable[[], list[RuleTable]] = list  #: the engine's own tables, for the site
    releases: Releases | None = None  #: the SDK releases the model speaks (the pinned one first)
    #: a world file's JSON and its path -> what ``run_session`` plays against (``Session.world``)
    read_world: Callable[[Any, str], Any] = lambda raw, source: None
    #: the other ways the recorder may run the SDK, that a scenario file can name (``"harness"``),
    #: each with the transport its recordings say; the model plays a session under its harness
    harnesses: dict[str, str] = field(default_factory=dict)
    #: the transports other than ``transport`` a scenario file may name (``"transport": "http"``):
    #: each one's recorder and the transport its recordings say
    transports: dict[str, dict[str, str]] = field(default_factory=dict)

    def recorder_for(self, transport: str = "stdio") -> str:
        """The live recorder of a scenario file over ``transport``."""
        return self.transports[transport]["recorder"] if transport in self.transports else self.recorder

    def recorded_transport(self, harness: str | None = None, transport: str = "stdio") -> str:
        """What a recording of a scenario file says its transport is: made under ``harness`` (None:
        the default), over ``transport``."""
        if harness is not None:
            return self.harnesses[harness]
        return self.transports[transport]["transport"] if transport in self.transports else self.transport

    @classmethod
    def from_file(cls, path: Path, **code: Any) -> "Family":
        """A family whose words (name, parties, recorder, fixture, prose) are in a JSON file beside
        its code; ``code`` names the rest (model, normal form, scenario schema, rule tables)."""
        words = load_json(path, limited=False)
        words.update(parties=tuple(words["parties"]), fixture=FixtureServer(**words["fixture"]))
        return cls(**words, **code)
