"""``annals event``: the rounds: pairing, the round clock, results and their corrections, swaps."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import typer

from annals.cli.app import fail, out, reported
from annals.cli.event import FOLDER, FORMAT, JUDGE, OUTPUT, REASON, emit, event_app, show, width
from annals.engine.names import ROUND_MINUTES, plural
from annals.schemas import screen
from annals.schemas.commandline import quoted

if TYPE_CHECKING:
    from annals.engine.tournament.store import EventStore
    from annals.schemas.event import Outcome


def _outcome(result: str | None, draw: bool, double_loss: bool, no_show: str, store: EventStore) -> Outcome:
    from annals.engine.tournament import event as lib
    from annals.engine.tournament import rounds as loop
    from annals.schemas.event import DOUBLE_LOSS, INTENTIONAL_DRAW, NO_SHOW, Outcome

    typed = loop.parse_outcome(result) if result is not None else None  # ID and 2:1 read as the desk reads them
    if typed is not None and typed.kind == INTENTIONAL_DRAW:
        result, typed, draw = None, None, True
    named = sum((draw, double_loss, bool(no_show)))
    if named > 1 or (named and draw and result):
        fail("give one result: games (2-1), --draw, --double-loss or --no-show PLAYER", code=2)
    if draw:
        return Outcome(0, 0, 3, INTENTIONAL_DRAW)
    if no_show:
        return Outcome(0, 0, 0, NO_SHOW, lib.resolve_player(store, no_show))
    if result is None:
        if double_loss:
            return Outcome(0, 0, 0, DOUBLE_LOSS)
        fail("give the result: games won by the first player and the second (2-1, or 2-1-1 with a drawn game), "
             "or --draw, --double-loss, --no-show PLAYER", code=2)  # fmt: skip
    assert typed is not None  # result was given
    return Outcome(typed.wins_a, typed.wins_b, typed.draws, DOUBLE_LOSS) if double_loss else typed


def _said(store: EventStore, number: int, table: int) -> str:
    from annals.queries.tournament import result_parts

    state = store.state()
    p = state.pairing(number, table)
    names = state.names()
    score, note = result_parts(state, number, table)
    return f"round {number} table {table}: {names[p.a]} {score} {names[p.b]}" + (f" ({note})" if note else "")


def _clock(seconds: int | None) -> str:
    if seconds is None:
        return "not started"
    sign = "-" if seconds < 0 else ""
    m, s = divmod(abs(seconds), 60)
    return f"{sign}{m}:{s:02d}" + (" (over time)" if seconds < 0 else "")


@event_app.command("pair")
def pair(
    folder: Path = FOLDER,
    again: bool = typer.Option(False, "--again", help="Pair the last round again (before it starts)."),
    judge: str = JUDGE,
    reason: str = REASON,
) -> None:
    """Pair the next round (Swiss, then the top cut's bracket) and print its pairings by table.

    Example: annals event pair spring
    """
    from annals.engine.tournament import chart
    from annals.engine.tournament import event as lib
    from annals.engine.tournament import rounds as loop
    from annals.engine.tournament.match import unlisted
    from annals.engine.tournament.store import EventStore
    from annals.queries.tournament import pairings_frame, terminal_table

    with reported():
        store = EventStore.open(folder)
        rnd = loop.pair_again(store, judge=judge, reason=reason) if again else loop.pair_next(store)
        frame = pairings_frame(store, rnd.number, "table")
        field = lib.entrants(store.players())
    if rnd.number == 1:
        out.print(chart.advice(field) + f"; this event: {plural(store.config().rounds, 'Swiss round')}, top "
                  f"{store.config().top or 'none'}", markup=False)  # fmt: skip
    stage = "top cut" if rnd.stage == "top" else "Swiss"
    show(terminal_table(frame, width(), f"Round {rnd.number} ({stage}) pairings"))
    state = store.state()
    for pairing in rnd.pairings:  # paper results are fine; annals cannot play a game without both lists
        seated = [state.player(pairing.a)] + ([state.player(pairing.b)] if pairing.b else [])
        if pairing.b and any(p.deck is None for p in seated):
            out.print(f"note: {unlisted(seated, rnd.number, pairing.table)}", markup=False)


@event_app.command("pairings")
def pairings(
    folder: Path = FOLDER,
    round_no: int | None = typer.Option(None, "--round", min=1, help="The round (default: the last paired)."),
    by: str = typer.Option("table", "--by", help="table (one line a table) or name (one line a player, A to Z)."),
    fmt: str = FORMAT,
    output: Path | None = OUTPUT,
    links: str = typer.Option(
        "",
        "--links",
        help="With --by name: each player's own link at the server that serves the event (annals serve --event), "
        "this address first (http://HOST:PORT); the links are read from the server's data folder (--data).",
    ),
    data: Path | None = typer.Option(
        None, "--data", help="With --links: the server's data folder (default: ANNALS_HOME/server)."
    ),
) -> None:
    """A round's pairings, by table or by name (the list for the wall).

    Example: annals event pairings spring --round 2 --by name
    """
    from annals.engine.tournament.store import EventStore
    from annals.queries.tournament import BY, pairings_frame
    from annals.schemas.files import annals_home
    from annals.server.event_desk import read_tokens, tokens_path

    if by not in BY:
        fail(f"--by {by!r}: choose table or name", code=2)
    if links and by != "name":
        fail("--links: a link is a player's; give --by name", code=2)
    with reported():
        store = EventStore.open(folder)
        personal = None
        if links:
            kept = read_tokens(tokens_path(data or annals_home() / "server", store.config().event_id))
            if not kept:
                fail(f"--links: no links kept for this event in {data or annals_home() / 'server'}; start "
                     "'annals serve --event' on it (with the same --data) first", code=1)  # fmt: skip
            personal = {pid: f"{links.rstrip('/')}/me?token={token}" for pid, token in kept.items()}
        frame = pairings_frame(store, round_no, by, personal)
        number = round_no or len(store.rounds())
        emit(frame, fmt, output, f"Round {number} pairings by {by}")


@event_app.command("round")
def round_clock(
    folder: Path = FOLDER,
    action: str = typer.Argument(..., metavar="start|end", help="Start the round's clock, or end the round."),
    minutes: int = typer.Option(ROUND_MINUTES, "--minutes", min=1, help="The round's length (start)."),
) -> None:
    """Start the round under way's clock, or end it.

    Example: annals event round spring start --minutes 50
    """
    from annals.engine.tournament import rounds as loop
    from annals.engine.tournament.store import EventStore

    if action not in ("start", "end"):
        fail(f"{action!r}: say start or end", code=2)
    with reported():
        store = EventStore.open(folder)
        number = loop.start_round(store, minutes) if action == "start" else loop.end_round(store)
    out.print(f"round {number} {'started: ' + str(minutes) + ' minutes' if action == 'start' else 'ended'}",
              markup=False)  # fmt: skip


@event_app.command("extend")
def extend(
    folder: Path = FOLDER,
    table: int = typer.Option(..., "--table", min=1, help="The table."),
    minutes: int = typer.Option(..., "--minutes", min=1, help="Extra minutes."),
    judge: str = JUDGE,
    reason: str = REASON,
) -> None:
    """Extra time for one table of the round under way (a deck check, a long ruling).

    Example: annals event extend spring --table 2 --minutes 5 --judge "R. Vance" --reason "deck check"
    """
    from annals.engine.tournament import rounds as loop
    from annals.engine.tournament.store import EventStore

    with reported():
        ext = loop.extend(EventStore.open(folder), table, minutes, judge=judge, reason=reason)
    out.print(f"round {ext.round} table {table}: +{minutes} minutes", markup=False)


@event_app.command("status")
def status(folder: Path = FOLDER) -> None:
    """The round under way: its clock, and the tables still playing with their time left.

    Example: annals event status spring
    """
    import polars as pl

    from annals.engine.tournament import rounds as loop
    from annals.engine.tournament.store import EventStore
    from annals.queries.tournament import terminal_table

    with reported():
        store = EventStore.open(folder)
        st = loop.status(store)
        names = store.state().names()
    clock = "ended" if st.ended else _clock(st.seconds_left)
    stage = "top cut" if st.stage == "top" else "Swiss"
    out.print(f"round {st.round} ({stage}): {len(st.open_tables)} of {plural(st.tables, 'table')} playing; "
              f"time left {clock}", markup=False)  # fmt: skip
    if st.open_tables:
        frame = pl.DataFrame({
            "table": [t.table for t in st.open_tables],
            "player": [names[t.a] for t in st.open_tables],
            "opponent": [names[t.b] for t in st.open_tables],
            "extra_minutes": [t.extra_minutes for t in st.open_tables],
            "time_left": [_clock(t.seconds_left) for t in st.open_tables],
        })  # fmt: skip
        show(terminal_table(frame, width()))


@event_app.command("result")
def result(
    folder: Path = FOLDER,
    outcome: str | None = typer.Argument(
        None,
        metavar="[RESULT]",
        help="Games won by each player: 2-1 (2:1 and 2–1 too), or 2-1-1; id for an intentional draw.",
    ),
    round_no: int = typer.Option(..., "--round", min=1, help="The round."),
    table: int = typer.Option(..., "--table", min=1, help="The table."),
    draw: bool = typer.Option(False, "--draw", help="An intentional draw (recorded 0-0-3, MTR 2.4); or RESULT id."),
    double_loss: bool = typer.Option(False, "--double-loss", help="A match loss for both players."),
    no_show: str = typer.Option("", "--no-show", help="The player who did not come (loses 0-2, and is dropped)."),
) -> None:
    """Enter a table's result, checked against the best-of (an impossible result is refused by name).

    Example: annals event result spring --round 2 --table 1 2-1
    """
    from annals.engine.tournament import rounds as loop
    from annals.engine.tournament.store import EventStore

    with reported():
        store = EventStore.open(folder)
        o = _outcome(outcome, draw, double_loss, no_show, store)
        loop.report(store, round_no, table, o)
        said = _said(store, round_no, table)
        state = store.state()
        left = len(state.open_tables(round_no))
    if left or round_no < len(state.rounds):
        out.print(f"{said}; {plural(left, 'table')} still playing" if left else f"{said}; round {round_no} is complete",
                  markup=False)  # fmt: skip
    elif state.finished():  # the last result of the event: what the organiser prints next
        screen.command(out, f"{said}; round {round_no} is complete and the event is over: ",
                       f"annals event placings {quoted(folder)}")  # fmt: skip
    else:
        screen.command(out, f"{said}; round {round_no} is complete: pair the next round with ",
                       f"annals event pair {quoted(folder)}")  # fmt: skip


@event_app.command("correct")
def correct(
    folder: Path = FOLDER,
    outcome: str | None = typer.Argument(None, metavar="[RESULT]", help="The right result: 2-0, 1-2-1, ..."),
    round_no: int = typer.Option(..., "--round", min=1, help="The match's round."),
    table: int = typer.Option(..., "--table", min=1, help="The match's table."),
    draw: bool = typer.Option(False, "--draw", help="An intentional draw; or RESULT id."),
    double_loss: bool = typer.Option(False, "--double-loss", help="A match loss for both players."),
    no_show: str = typer.Option("", "--no-show", help="The player who did not come."),
    judge: str = JUDGE,
    reason: str = REASON,
) -> None:
    """A judge corrects an earlier result; the record keeps both, and the standings take the correction.

    It says who moved in the standings, and which rounds already paired on the old standings stand (a round under
    way is never re-paired; the last round, not started and without results, may be paired again with pair --again).

    Example: annals event correct spring --round 1 --table 2 0-2 --judge "R. Vance" --reason "slip filled in reverse"
    """
    from annals.engine.tournament import corrections
    from annals.engine.tournament.store import EventStore

    with reported():
        store = EventStore.open(folder)
        o = _outcome(outcome, draw, double_loss, no_show, store)
        effect = corrections.correct(store, round_no, table, o, judge=judge, reason=reason)
        said = _said(store, round_no, table)
        names = store.state().names()
    out.print(f"{said}, by {judge}: {reason}", markup=False)
    for line in effect.lines(names, str(folder)):
        out.print(line, markup=False)


@event_app.command("swap")
def swap(
    folder: Path = FOLDER,
    first: str = typer.Argument(..., help="A player (id or name)."),
    second: str = typer.Argument(..., help="The player to trade places with."),
    round_no: int = typer.Option(..., "--round", min=1, help="The round."),
    judge: str = JUDGE,
    reason: str = REASON,
) -> None:
    """A manual pairing change: two players trade places in a round, recorded with the judge and reason.

    Example: annals event swap spring "Bot 3" "Bot 6" --round 2 --judge "R. Vance" --reason "seated at the wrong tables"
    """
    from annals.engine.tournament import event as lib
    from annals.engine.tournament import rounds as loop
    from annals.engine.tournament.store import EventStore
    from annals.queries.tournament import pairings_frame, terminal_table

    with reported():
        store = EventStore.open(folder)
        a, b = lib.resolve_player(store, first), lib.resolve_player(store, second)
        loop.swap_players(store, round_no, a, b, judge=judge, reason=reason)
        frame = pairings_frame(store, round_no, "table")
    show(terminal_table(frame, width(), f"Round {round_no} pairings, changed by {judge}"))
