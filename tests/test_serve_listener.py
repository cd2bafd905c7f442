"""The served peers' listening socket (`serve/listener.py`)."""
from __future__ import annotations

import asyncio
import socket

from agent_loop_sim.serve.listener import listen
from conftest import run_async


def test_connections_accepted_on_it_have_nagle_off():
    """asyncio sets TCP_NODELAY only on sockets made as TCP; without it each response's body, written
    after its head, waits for the client's delayed ACK (P7 was held to ~700 requests/s by that)."""
    bound = listen("127.0.0.1", 0, "test")
    assert bound is not None
    listener, url = bound
    seen: list[int] = []

    class Probe(asyncio.Protocol):
        def connection_made(self, transport):
            seen.append(transport.get_extra_info("socket").getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
            transport.close()

    async def accept_one():
        server = await asyncio.get_running_loop().create_server(Probe, sock=listener)
        port = int(url.rsplit(":", 1)[1])
        _, writer = await asyncio.open_connection("127.0.0.1", port)
        while not seen:
            await asyncio.sleep(0.01)
        writer.close()
        server.close()
        await server.wait_closed()

    run_async(asyncio.wait_for(accept_one(), 10))
    assert seen == [1]
