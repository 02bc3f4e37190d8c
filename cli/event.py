"""``annals event``: an event (a tournament) from registration to final standings, kept in its own folder."""

from __future__ import annotations

from pathlib import Path

import typer

from annals.cli.app import app, fail, out, reported

event_app = typer.Typer(
    help="Run an event: registration with deck lists, Swiss rounds, a top cut, standings.\n\n"
    "Example: annals event new spring --ruleset miras9 --rounds 3 --best-of 3 --top 4",
    no_args_is_help=True,
)
app.add_typer(event_app, name="event")

FOLDER = typer.Argument(..., metavar="EVENT", help="The event's folder.")


@event_app.command("new")
def new(
    folder: Path = FOLDER,
    name: str = typer.Option("", "--name", help="The event's name (default: the folder's name)."),
    ruleset: str = typer.Option(..., "--ruleset", help="miras9 or morana."),
    rounds: int = typer.Option(0, "--rounds", min=0, help="Swiss rounds (0: recommended from the field)."),
    best_of: int = typer.Option(3, "--best-of", min=1, help="Games a match is best of (odd)."),
    top: int = typer.Option(0, "--top", min=0, help="Single-elimination cut after the Swiss: 0, 2, 4, 8, ..."),
    seed: int | None = typer.Option(None, "--seed", help="The event's seed (default: a fresh random one, recorded)."),
    max_turns: int | None = typer.Option(
        None, "--max-turns", min=0, help="Each game's turn cap, the time limit: a game reaching it is drawn."
    ),
    agent: str = typer.Option("heuristic", "--bot", help="The bot that plays seats in 'event run'."),
) -> None:
    """Create an event: a folder holding its state (EVENT is the folder; its name is the event's unless --name).

    Example: annals event new spring-open --ruleset miras9 --rounds 5 --best-of 3 --top 8
    """
    from annals.engine.tournament import event as lib
    from annals.engine.tournament.store import EventStore

    with reported():
        config = lib.new_event(
            folder,
            name or folder.resolve().name,
            ruleset,
            rounds=rounds,
            best_of=best_of,
            top=top,
            seed=seed,
            max_turns=max_turns,
            agent=agent,
        )
    rounds_text = str(config.rounds) if config.rounds else "recommended at round 1"
    out.print(
        f"event {config.event_id} ({config.ruleset}, Swiss rounds: {rounds_text}, best of {config.best_of}, "
        f"top {config.top or 'none'}, seed {config.seed}) created in {folder}",
        markup=False,
    )
    with reported():
        public = EventStore.open(folder).public_key()
    out.print(
        f"its logs are signed by {public.fingerprint} (private key {folder / 'event.key'}, mode 0600: keep it; "
        f"public key {folder / 'event.pub'}: check a log with annals verify LOG --key {folder / 'event.pub'})",
        markup=False,
    )


@event_app.command("register")
def register(
    folder: Path = FOLDER,
    player_id: str = typer.Option(..., "--id", help="The player's id (unique in the event)."),
    name: str = typer.Option(..., "--name", help="The player's name."),
    deck: Path = typer.Option(..., "--deck", help="The deck list file (see docs/deck-lists.md)."),
    agent: str = typer.Option("", "--bot", help="A bot to play this seat in 'event run' (default: the event's)."),
) -> None:
    """Register a player with a deck list; every problem of the list is reported with its line number.

    Example: annals event register spring --id ada --name "Ada L." --deck ada.txt
    """
    from annals.engine.tournament import event as lib
    from annals.engine.tournament.store import EventStore

    with reported():
        player = lib.register(EventStore.open(folder), player_id, name, deck, agent=agent)
    out.print(f"registered {player.id} ({player.name}) with {player.deck.name!r}", markup=False)


@event_app.command("drop")
def drop(folder: Path = FOLDER, player_id: str = typer.Argument(..., help="The player's id.")) -> None:
    """Drop a player: they finish the round already paired and are not paired again.

    Example: annals event drop spring ada
    """
    from annals.engine.tournament import event as lib
    from annals.engine.tournament.store import EventStore

    with reported():
        player = lib.drop(EventStore.open(folder), player_id)
    when = f"after round {player.dropped_after}" if player.dropped_after else "before round 1"
    out.print(f"{player.id} dropped {when}", markup=False)


@event_app.command("run")
def run(
    folder: Path = FOLDER,
    fill: int = typer.Option(
        0, "--fill", min=0, help="First fill the field up to this many players with bots and shipped decks."
    ),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar."),
) -> None:
    """Play the rest of the event with bots in every seat; after a crash, run it again to resume.

    Example: annals event run spring --fill 8
    """
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from annals.engine.tournament import event as lib
    from annals.engine.tournament.store import EventStore
    from annals.queries.reports.output import render
    from annals.queries.tournament import placings_frame

    with reported():
        store = EventStore.open(folder)
        missing = fill - len(store.players())
        if missing > 0:  # so the same command resumes after a crash: the field is full by then
            lib.fill_with_bots(store, missing)
        with Progress(
            TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
            disable=quiet, transient=True,
        ) as progress:  # fmt: skip
            task = progress.add_task("event", total=None)

            def step(done: int, expected: int, what: str) -> None:
                progress.update(task, completed=done, total=max(expected, done), description=what)

            lib.run_event(store, on_progress=step)
        text = render(placings_frame(store).head(8), "table", None)
    out.print(f"event finished; {len(store.matches())} matches in {folder}", markup=False)
    out.print(text or "", markup=False)


@event_app.command("standings")
def standings(
    folder: Path = FOLDER,
    fmt: str = typer.Option("table", "--format", help="table, csv or json."),
    output: Path | None = typer.Option(None, "--output", "-o", help="Write to this file instead."),
) -> None:
    """The Swiss standings: match points, OMW%, GW%, OGW% (each floored at 33%).

    Example: annals event standings spring --format csv -o standings.csv
    """
    from annals.engine.tournament.store import EventStore
    from annals.queries.reports.output import render
    from annals.queries.tournament import standings_frame

    with reported():
        text = render(standings_frame(EventStore.open(folder)), fmt, output)
    if text is not None:
        out.print(text, markup=False)


@event_app.command("players")
def players(folder: Path = FOLDER) -> None:
    """The registered players: id, name, deck, and when they dropped.

    Example: annals event players spring
    """
    from annals.engine.tournament.store import EventStore

    with reported():
        rows = EventStore.open(folder).players()
    for p in rows:
        status = "active" if p.dropped_after < 0 else f"dropped after round {p.dropped_after}"
        status = "withdrew before round 1" if p.dropped_after == 0 else status
        out.print(f"{p.id}\t{p.name}\t{p.deck.name}\t{status}", markup=False)


@event_app.command("override")
def override(
    folder: Path = FOLDER,
    round_no: int = typer.Option(..., "--round", min=1, help="The match's round."),
    table: int = typer.Option(..., "--table", min=1, help="The match's table."),
    result: str = typer.Option(..., "--result", help="Games won by the first player, the second, drawn: 2-1-0."),
    judge: str = typer.Option(..., "--judge", help="The judge's name."),
    reason: str = typer.Option(..., "--reason", help="Why the games' result is replaced."),
) -> None:
    """A judge enters a match's result by hand; it is recorded as an override beside the games' own result.

    Example: annals event override spring --round 5 --table 1 --result 2-0-0 --judge "J. Doe" --reason "game loss"
    """
    from annals.engine.tournament import event as lib
    from annals.engine.tournament.store import EventStore

    parts = result.split("-")
    if len(parts) != 3 or not all(p.isdigit() for p in parts):
        fail(f"--result {result!r}: write the games won by each player and drawn, as W-L-D (e.g. 2-1-0)", code=2)
    wa, wb, d = (int(p) for p in parts)
    with reported():
        record = lib.override_result(EventStore.open(folder), round_no, table, wa, wb, d, judge=judge, reason=reason)
    out.print(
        f"round {round_no} table {table}: {record.a} {wa}-{wb}-{d} {record.b}, by {judge} (override)", markup=False
    )
