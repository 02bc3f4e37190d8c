"""``annals serve``: the server on uvicorn, bound to 127.0.0.1 unless told otherwise."""

from __future__ import annotations

import asyncio
import gc
import os
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import uvicorn

from annals.server.app import KEEP_FINISHED_S, MAX_FRAME_BYTES, WEB, NewTable, Server, build_app
from annals.server.desk_app import desk_routes
from annals.server.event_desk import DEFAULT_CLOCK_S, EventDesk
from annals.server.tables import MARK_S

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765
ADMIN_ENV = "ANNALS_ADMIN_TOKEN"
ORGANISER_ENV = "ANNALS_ORGANISER_TOKEN"  # the desk's token (else the one kept in the event's folder, desk.token)
PROFILE_ENV = "ANNALS_SERVE_PROFILE"  # a file: the server runs under cProfile and writes its stats there on exit


def serve(
    data: Path,
    *,
    host: str = DEFAULT_HOST,
    port: int = DEFAULT_PORT,
    tables: list[NewTable] | None = None,
    say: Callable[[str], None] = print,
    keep_s: float = KEEP_FINISHED_S,
    mark_s: float = MARK_S,
    grace_s: float = 0,
    event: Path | None = None,
    paper: tuple[int, ...] = (),
    clock_s: int = DEFAULT_CLOCK_S,
) -> None:
    """Serve the tables of ``data`` until stopped: open games resume from their logs, ``tables`` are made anew.
    A finished table stays in memory ``keep_s`` seconds; a person's thinking time is marked every ``mark_s``; a
    new table waits ``grace_s`` seconds for its people to sit down (0: no limit) before a no-show loses.
    ``event``: the event folder whose round under way is played here (``event_desk``): a match table per pairing
    without a result (``paper``: tables played on paper, their results typed at the desk), each player's time bank
    ``clock_s`` seconds a game, the organiser's desk behind its token (``ANNALS_ORGANISER_TOKEN``, else the one kept
    in the event's folder, made there at the first start: ``event_desk.desk_token``)."""
    server = Server(data, os.environ.get(ADMIN_ENV) or None, keep_s=keep_s, mark_s=mark_s, grace_s=grace_s)
    base = f"http://{host}:{port}"
    desk = None
    if event is not None:
        desk = EventDesk(server, event, organiser_token=os.environ.get(ORGANISER_ENV) or None, clock_s=clock_s,
                         paper=paper)  # fmt: skip

    @asynccontextmanager
    async def lifespan(app: Any) -> AsyncIterator[None]:
        for table_id in server.resume_all():
            say(f"resumed table {table_id} from its live log")
        for spec in tables or []:
            made = server.create(spec)
            for seat, token in enumerate(made["tokens"]):
                if token:
                    say(f"table {made['table']} seat {seat}: {base}/play/{made['table']}?token={token}")
                    say(f"  or: annals join {base}/ws/{made['table']} --token {token}")
            say(f"table {made['table']} spectators: {base}/play/{made['table']}?token={made['spectator_token']}")
        if desk is not None:
            desk.open_round()
            for line in desk.links(base):
                say(line)
            watching = asyncio.get_running_loop().create_task(desk.watch(base, say))
        say(f"annals serve on {base} (data in {data}); admin token: {server.admin_token}")
        # Everything loaded so far (modules, card pools: most of the heap) lives as long as the server: kept out
        # of the collector's full passes, which otherwise walked it all and stalled every table for up to 170 ms.
        gc.collect()
        gc.freeze()
        yield
        if desk is not None:
            watching.cancel()
        await server.stop()

    config = uvicorn.Config(
        build_app(server, lifespan, desk_routes(desk, WEB) if desk is not None else None),
        host=host,
        port=port,
        # uvicorn's sans-I/O WebSocket protocol over the websockets library's core, on uvloop (a declared
        # dependency; "auto" falls back to asyncio where it cannot install): with the two, the server's CPU per
        # decision of ``python -m bench.server`` fell by about a fifth, against the legacy protocol on asyncio
        ws="websockets-sansio",
        loop="auto",
        ws_max_size=MAX_FRAME_BYTES,
        ws_per_message_deflate=False,  # compressing every frame cost a fifth of the server's time (bench.server)
        log_level="warning",
        lifespan="on",
    )
    profile = os.environ.get(PROFILE_ENV)
    if not profile:
        uvicorn.Server(config).run()
        return
    import cProfile  # ``python -m bench.server --profile FILE``: where the server's time goes under load
    import signal

    # uvicorn raises the signal that stopped it again once it has shut down: caught here, the stats get written
    signal.signal(signal.SIGTERM, lambda *_: None)
    with cProfile.Profile() as profiler:
        uvicorn.Server(config).run()
    profiler.dump_stats(profile)
