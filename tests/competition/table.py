"""Run protocol clients against the standalone platform on a loopback port."""

from __future__ import annotations

import asyncio
from typing import Any

from server.competition import run_standalone

from .protocol_client import ProtocolClient


async def run_table(clients: list[ProtocolClient], matches: int, seed: int = 1, **kw: Any) -> dict:
    """The platform's summary once every client is done; clients connect in list order (their seats)."""
    ready = asyncio.get_running_loop().create_future()
    server = asyncio.create_task(
        run_standalone("127.0.0.1", 0, matches, seed=seed, on_listening=ready.set_result, **kw)
    )
    port = await asyncio.wait_for(ready, 10)
    tasks = []
    for c in clients:  # connection order makes the seats: the platform seats a client in its handshake
        tasks.append(asyncio.create_task(c.run(f"ws://127.0.0.1:{port}")))
        await asyncio.wait_for(c.opened.wait(), 10)
    summary = await asyncio.wait_for(server, 300)
    await asyncio.wait_for(asyncio.gather(*tasks), 30)
    return summary
