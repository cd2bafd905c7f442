"""The a2a-sdk releases the A2A model speaks, and the wire changes between them (from the
changelog in the 1.3.0 sdist, checked against live recordings of both releases).

1.2.3 is not here: recorded live, it says exactly what 1.2.2 says on every session, because its
wire changes are in parts the fixture agent does not serve (the v0.3 adapter, push URLs).
"""
from __future__ import annotations

from pathlib import Path

from ..releases import Releases

#: The JSON-RPC dispatcher answers a request whose ``id`` is ``true`` or ``false`` with
#: ``-32600`` and a null id, before the method is looked up (1.2.2 echoes the boolean and serves it).
BOOLEAN_ID_REFUSED = "boolean_id_refused"
#: The consumer stamps the ``TASK_STATE_FAILED`` status it writes when a request fails.
FAILED_STATUS_STAMPED = "failed_status_stamped"

#: The releases and their wire changes are data (``releases.json`` beside this module).
A2A_RELEASES = Releases.from_file(Path(__file__).with_name("releases.json"))
