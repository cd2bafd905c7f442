"""The a2a-sdk releases the A2A model speaks, and the wire changes between them (from the
changelog in the 1.3.0 sdist, checked against live recordings of both releases).

1.2.3 is not here: recorded live, it says exactly what 1.2.2 says on every session, because its
wire changes are in parts the fixture agent does not serve (the v0.3 adapter, push URLs).
"""
from __future__ import annotations

from ..releases import Releases, WireChange

CHANGELOG = "https://github.com/a2aproject/a2a-python/blob/v1.3.0/CHANGELOG.md"

#: The JSON-RPC dispatcher answers a request whose ``id`` is ``true`` or ``false`` with
#: ``-32600`` and a null id, before the method is looked up (1.2.2 echoes the boolean and serves it).
BOOLEAN_ID_REFUSED = "boolean_id_refused"
#: The consumer stamps the ``TASK_STATE_FAILED`` status it writes when a request fails.
FAILED_STATUS_STAMPED = "failed_status_stamped"

A2A_RELEASES = Releases(
    package="a2a-sdk",
    versions=("1.2.2", "1.3.0"),
    changelog=CHANGELOG,
    changes=(
        WireChange(BOOLEAN_ID_REFUSED, "1.3.0", "server: reject boolean JSON-RPC request IDs (#1350)",
                   "https://github.com/a2aproject/a2a-python/issues/1350",
                   "a request whose id is true or false is refused with -32600 and answered with a null id"),
        WireChange(FAILED_STATUS_STAMPED, "1.3.0", "server: record executor failures through the event consumer (#1366)",
                   "https://github.com/a2aproject/a2a-python/issues/1366",
                   "the FAILED status written when a request fails carries a timestamp"),
    ),
)
