"""``annals event``: what an event prints: its players, standings, placings, printed pages, and its verification."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import typer

from annals.cli.app import err, fail, out, reported
from annals.cli.event import FOLDER, FORMAT, OUTPUT, emit, event_app
from annals.engine.names import plural
from annals.schemas import screen
from annals.schemas.commandline import quoted

if TYPE_CHECKING:
    pass


@event_app.command("players")
def players(folder: Path = FOLDER, fmt: str = FORMAT, output: Path | None = OUTPUT) -> None:
    """The registered players: name, id, deck, who plays (a person or a bot), and when they dropped.

    Example: annals event players spring
    """
    from annals.engine.tournament.store import EventStore
    from annals.queries.tournament import players_frame

    with reported():
        emit(players_frame(EventStore.open(folder)), fmt, output, "Players")


@event_app.command("standings")
def standings(folder: Path = FOLDER, fmt: str = FORMAT, output: Path | None = OUTPUT) -> None:
    """The Swiss standings: match points, OMW%, GW%, OGW% (each floored at 33%); refused if the event fails verify.

    Example: annals event standings spring --format csv -o standings.csv
    """
    from annals.engine.tournament.store import EventStore
    from annals.engine.tournament.verify import require_verified
    from annals.queries.tournament import standings_frame

    with reported():
        store = EventStore.open(folder)
        require_verified(store)
        emit(standings_frame(store), fmt, output, "Standings")
    if fmt == "table" and output is None:  # a person reading: how the order was made (on stderr: not a row)
        said = (
            "ranked by match points (3 a win, 1 a draw), then OMW%, GW%, OGW% (each at least 33%), then a lot "
            "drawn from the event's seed; "
        )
        screen.command(err, said, f"annals event print {quoted(folder)} standings -o FILE", " explains each")


@event_app.command("placings")
def placings(folder: Path = FOLDER, fmt: str = FORMAT, output: Path | None = OUTPUT) -> None:
    """Places at any time: the top cut by how far each went, then the Swiss standings.

    Example: annals event placings spring
    """
    from annals.engine.tournament.store import EventStore
    from annals.engine.tournament.verify import require_verified
    from annals.queries.tournament import placings_frame

    with reported():
        store = EventStore.open(folder)
        require_verified(store)
        emit(placings_frame(store), fmt, output, "Placings")


@event_app.command("print")
def print_page(
    folder: Path = FOLDER,
    page: str = typer.Argument(..., metavar="PAGE", help="wall, tables, slips or standings."),
    output: Path = typer.Option(..., "--output", "-o", help="The HTML file to write."),
    round_no: int | None = typer.Option(None, "--round", min=1, help="The round (default: the last paired)."),
) -> None:
    """A printable page: pairings by name for the wall, by table, result slips, or standings with the tiebreakers
    explained.

    Example: annals event print spring wall -o wall.html
    """
    from annals.engine.tournament.store import EventStore
    from annals.engine.tournament.verify import require_verified
    from annals.queries.eventpages import PAGES, page_html

    if page not in PAGES:
        fail(f"unknown page {page!r}; choose one of: {', '.join(PAGES)}", code=2)
    with reported():
        store = EventStore.open(folder)
        if page == "standings":
            require_verified(store)
        html = page_html(store, page, round_no)
        from annals.schemas.files import output_file

        output_file(output, what="--output")
        output.write_text(html, encoding="utf-8")
    out.print(f"written to {output}", markup=False)


@event_app.command("verify")
def verify(
    folder: Path = FOLDER,
    key: Path | None = typer.Option(None, "--key", help="The organiser's published public key to trust."),
    replay: bool = typer.Option(False, "--replay", help="Also re-run every game's decisions (slow)."),
    record_only: bool = typer.Option(
        False, "--record-only", help="Check the record's chain and signatures only, not the deck lists and logs (fast)."
    ),
) -> None:
    """Check the event folder against its signed record: the chain and signatures, every deck list, every game log
    (digest, match and game number, result), and that no file is missing or added. Exit 1 naming each problem.
    ``--record-only`` checks the record itself, for a quick look during a round.

    Example: annals event verify spring --key spring/event.pub
    """
    from annals.engine.tournament.verify import verify_event
    from annals.schemas.keys import load_public_key

    if replay and record_only:
        fail("--replay re-runs the game logs, which --record-only skips: give one of the two", code=2)
    if not folder.exists():  # a typo, not an event that fails: a usage error, as for any path that names nothing
        fail(f"no such event folder: {folder}", hint="check the path (annals event new makes one)", code=2)
    with reported():
        trusted = load_public_key(key) if key is not None else None
        verdict = verify_event(folder, trusted=trusted, replay=replay, record_only=record_only)
    if not verdict.ok:
        for p in verdict.problems[1:]:
            out.print(f"problem: {p}", markup=False)
        fail(
            f"event {folder} fails verification: {verdict.problems[0]}"
            + (f" (and {len(verdict.problems) - 1} more, listed above)" if len(verdict.problems) > 1 else "")
        )
    out.print(
        f"{folder}: ok: {plural(verdict.acts, 'act')}, every one signed by {verdict.signer} (a command's acts "
        f"are signed together: {plural(verdict.signatures, 'signature')}); "
        + (
            "deck lists and game logs not checked (--record-only)"
            if record_only
            else f"{plural(verdict.decks, 'deck list')} and {plural(verdict.games, 'game log')} as recorded"
        )
        + ("; every game re-run identically" if replay else ""),
        markup=False,
    )
