"""An A2A agent executor that never answers (``AGENT_LOOP_SIM_A2A_AGENT=<this file>:HangingAgent``):
``execute`` leaves a mark in its temp folder (the recorder's own, which the owner removes) so
a test knows a session is waiting on it, then waits for ever."""
from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

ENTERED = "a2a-agent-entered"


class HangingAgent:
    async def execute(self, context, event_queue) -> None:  # noqa: ANN001
        Path(tempfile.gettempdir(), ENTERED).touch()
        await asyncio.Event().wait()

    async def cancel(self, context, event_queue) -> None:  # noqa: ANN001
        pass
