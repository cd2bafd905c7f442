"""SDK releases of a protocol family, and the wire changes between them, as data.

A family's model speaks every release in `Releases.versions`: the pinned one (the first, what the
rest of the project means by "the SDK") and the others. Where releases differ on the wire, the
difference is one `WireChange`, named after the changelog entry that announces it; the model
asks `Releases.rules(version)` which changes are in effect and branches on their keys. A
release's rules are derived from the table (a change is in effect from its release on), so the
model never looks at another release's recordings.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..errors import InputError
from ..jsonio import load_json


def version_key(version: str) -> tuple[int, ...]:
    """``"1.3.0"`` -> ``(1, 3, 0)``: releases in the order they were published."""
    return tuple(int(part) for part in version.split("."))


@dataclass(frozen=True)
class WireChange:
    """One change on the wire between two releases, as the changelog announces it."""

    key: str          #: what the model tests for: ``"boolean_id_refused"``
    since: str        #: the first release that has it
    entry: str        #: the changelog entry, word for word (the issue's title, where the package ships no changelog)
    url: str          #: the upstream pull request or issue the entry links to
    effect: str       #: what it changes on the wire, in one sentence


@dataclass(frozen=True)
class Releases:
    """The SDK releases a family's model speaks, and what changes between them."""

    package: str                       #: the package index name: ``a2a-sdk``
    versions: tuple[str, ...]          #: the pinned release first, then the others
    changes: tuple[WireChange, ...] = ()
    _rules: dict[str, frozenset[str]] = field(default_factory=dict, init=False, compare=False, repr=False)
    changelog: str = ""                #: the upstream changelog or release notes, for the site's links

    @classmethod
    def from_file(cls, path: Path) -> "Releases":
        """The table as data: ``{"package", "versions", "changelog", "changes": [{key, since, entry,
        url, effect}, ...]}``."""
        data = load_json(path, limited=False)
        changes = tuple(WireChange(**c) for c in data.pop("changes", []))
        return cls(**{**data, "versions": tuple(data["versions"])}, changes=changes)

    @property
    def pinned(self) -> str:
        return self.versions[0]

    @property
    def others(self) -> tuple[str, ...]:
        return self.versions[1:]

    def slug(self, version: str) -> str:
        """The release's folder name (its environment, its recordings): ``a2a-sdk-1.3.0``."""
        return f"{self.package}-{version}"

    def check(self, version: str | None) -> str:
        """The release ``version`` names (the pinned one for ``None``); bad input if unknown."""
        if version is None:
            return self.pinned
        if version not in self.versions:
            raise InputError(f"{self.package} {version!r} is not a release the model speaks "
                             f"(known: {', '.join(self.versions)})")
        return version

    def rules(self, version: str | None = None) -> frozenset[str]:
        """The keys of the wire changes in effect in ``version`` (the pinned release by default)."""
        version = self.check(version)
        if version not in self._rules:  # asked once per session played: derived once per release
            self._rules[version] = frozenset(c.key for c in self.changes if version_key(c.since) <= version_key(version))
        return self._rules[version]

    def between(self, old: str, new: str) -> tuple[WireChange, ...]:
        """The changes in effect in ``new`` and not in ``old``."""
        differing = self.rules(new) ^ self.rules(old)
        return tuple(c for c in self.changes if c.key in differing)

