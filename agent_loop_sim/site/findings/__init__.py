"""The findings: what the recordings showed about the SDKs, each with the evidence for it.

The findings are data, in ``findings.json`` beside this module: our prose (Markdown) and, for
each, the places in the committed recordings that show it and what must hold there (`evidence`
holds the kinds). The site checks every one on every build, so a finding cannot outlive the
behaviour it describes: when the SDK changes and the recordings are made again, the build fails
naming the finding and the message. Paths are written as the rest of the project writes them
(``$.result.tools[0].name``, ``$.params._meta["io.modelcontextprotocol/protocolVersion"]``).
"""
from __future__ import annotations

from pathlib import Path

from ...jsonio import load_json
from .evidence import Finding, load_findings

FINDINGS_FILE = Path(__file__).with_name("findings.json")
FINDINGS: tuple[Finding, ...] = load_findings(load_json(FINDINGS_FILE, limited=False), str(FINDINGS_FILE))
