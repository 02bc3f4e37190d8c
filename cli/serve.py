"""``annals serve`` (the game server) and ``annals join`` (the terminal client of a served table)."""

from __future__ import annotations

from pathlib import Path

import typer

from annals.cli.app import app, fail, out, reported
from annals.engine.names import MAX_CLOCK_S, RECONNECT_S, SEAT_BOTS
from annals.schemas.files import annals_home


@app.command()
def serve(
    data: Path | None = typer.Option(
        None, "--data", help="Folder of the tables' records and live logs (default: ANNALS_HOME/server)."
    ),
    host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on (localhost unless told)."),
    port: int = typer.Option(8765, "--port", min=1, max=65535, help="Port to listen on."),
    table: list[str] = typer.Option(
        [], "--table", help=f"A table to open, repeatable: 'RULESET DECK,DECK SEAT,SEAT', a seat is {SEAT_BOTS}."
    ),
    clock: int = typer.Option(
        600, "--clock", min=0, max=MAX_CLOCK_S, help="Each seat's time bank in seconds for --table (0: none)."
    ),
    delay: int = typer.Option(
        0, "--delay", min=0, max=MAX_CLOCK_S, help="Spectators see the game this many decisions late."
    ),
    keep_finished: float = typer.Option(
        30.0, "--keep-finished", min=0, help="Seconds a finished table stays in memory (then read from its log)."
    ),
    grace: float = typer.Option(
        0,
        "--grace",
        min=0,
        help="Seconds a new table waits for its people to sit down; then a no-show loses the "
        "game (0: wait with no limit). No clock runs before they have.",
    ),
    clock_mark: float = typer.Option(
        1.0, "--clock-mark", min=0.01, help="Seconds between writes of a person's thinking time beside the log."
    ),
    event: Path | None = typer.Option(
        None,
        "--event",
        help="An event folder: its round under way is played here, a match table per pairing, with the "
        "organiser's desk at /desk and the public page at /event; each player's link is printed.",
    ),
    paper: list[int] = typer.Option(
        [], "--paper", help="With --event: a table of the round played on paper (result typed at the desk)."
    ),
    game_clock: int = typer.Option(
        1500,
        "--game-clock",
        min=0,
        max=MAX_CLOCK_S,
        help="With --event: each player's time bank per game, in seconds (0: none).",
    ),
) -> None:
    """Serve tables over WebSocket (and the browser client); open games resume from their live logs.

    Example: annals serve --table "morana clash,glory human,heuristic"  # until stopped (Ctrl-C)

    Example: annals serve --event no-such-event  # fails: no event folder there (annals event new makes one)
    """
    from annals.server.app import NewTable, table_header
    from annals.server.serve import serve as run

    specs = []
    for text in table:
        parts = text.split()
        if len(parts) != 3:
            fail(f"--table {text!r}: give 'RULESET DECK,DECK SEAT,SEAT'", code=2)
        specs.append(NewTable(parts[0], parts[1].split(","), parts[2].split(","), clock=clock, delay=delay))
    with reported():
        for spec in specs:  # a misspelt name stops the command here, not the server's startup with a traceback
            table_header(spec, 0)
        run(
            data or annals_home() / "server",
            host=host,
            port=port,
            tables=specs,
            say=lambda line: out.print(line, markup=False),
            keep_s=keep_finished,
            mark_s=clock_mark,
            grace_s=grace,
            event=event,
            paper=tuple(paper),
            clock_s=game_clock,
        )


@app.command()
def join(
    url: str = typer.Argument(
        ...,
        help="The table: http://HOST:PORT/play/ID (or ws://HOST:PORT/ws/ID); or your event link "
        "http://HOST:PORT/me?token=T, every game of your match in turn.",
    ),
    token: str = typer.Option(
        "", "--token", help="Your seat's token (not needed when the URL ends ?token=..., as serve prints it)."
    ),
    reconnect_for: float = typer.Option(
        RECONNECT_S,
        "--reconnect-for",
        min=1,
        metavar="SECONDS",
        help="How long to keep trying when the server stops answering (a wifi drop, a restart); then the command "
        "to join again is printed.",
    ),
) -> None:
    """Play your seat of a served table at this terminal: help, board, hand, card NAME, log, concede at the prompt;
    quit leaves the table, not the game (the same command takes your seat again). The address annals serve prints
    for a seat's browser (it holds the token) works as it is.

    An event's player gives the link the organiser gave them (annals serve --event prints one for each player):
    it plays each game of their match as its table opens, and says the match's result.

    Example: annals join http://127.0.0.1:8765/play/3f2a9c --token 9xQ...  # fails: no server listens there now
    """
    from annals.clients.follow import follow, player_link
    from annals.clients.join import join as play
    from annals.clients.join import read_line

    with reported():
        if player_link(url) is not None:
            follow(url, token, read_line, out, reconnect_s=reconnect_for)
            return
        result = play(url, token, read_line, out, reconnect_s=reconnect_for)
    if result is not None:
        out.print(f"result: {result.text}", markup=False)
