"""``annals position``: the board at any coordinate of a game, from its log or by game id from the database."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Literal

import typer

from annals.cli.app import app, err, fail, out, reported
from annals.engine.names import BOTS_HELP, VIEW_HELP, view_named

if TYPE_CHECKING:
    from rich.table import Table

    from annals.queries.pictures.board import Board
    from annals.queries.positions.gamelog import LogGoneError
from annals.schemas import screen
from annals.schemas.commandline import quoted
from annals.schemas.errors import BadArgumentError
from annals.schemas.files import default_database, default_games, expand, is_pattern, output_file, unused


def board_from_database(game_id: str, log: Path, db: Path, at: str, gone: LogGoneError) -> Board:
    """The omniscient board from the database's ``position()`` macro, for a game whose log is gone from ``log`` and
    which the database cannot rebuild (``gone`` says why)."""
    from annals.ingest.schema import open_database
    from annals.queries.pictures.board import stored_board
    from annals.queries.positions.timeline import StoredGame

    con = open_database(db, read_only=True)
    try:
        game = StoredGame(con, game_id)
        b = stored_board(game, game.resolve(at), at)
    finally:
        con.close()
    err.print(
        f"note: the log at {log} was not found and the database cannot rebuild the game ({gone.why}), so this "
        f"position comes from the database {db} (the position() macro: omniscient; turn and step are the last "
        "event's); pass the log's path for views",
        markup=False,
    )
    return b


class TooManyLogsError(BadArgumentError):
    """A glob for ``annals position`` that matches more than one log."""


HIDDEN_ORDER_ZONES = ("deck",)  # listed as a count on the board (the order is in the JSON)


def _side(holder: str) -> str:
    """The board column a counter's holder sits in: p0/p1 for players and their cards."""
    if holder.startswith("p") and holder[1:].isdigit():
        return holder
    _, _, instance = holder.rpartition("#")
    return f"p{int(instance) // 1000 - 1}" if instance.isdigit() and int(instance) < 10_000 else "game"


RULESET_NAMES = {"miras9": "Miras 9", "morana": "MORANA"}


def render_board(b: Board) -> Table:
    """The board in words for a person: the players' names over the columns, places and cards by name, each card's
    counters beside it (``Warden (2 wounds, tapped)``), a player's own counters under their column. The card ids
    and instance numbers stay in the JSON (``--format json``)."""
    from rich.table import Table

    from annals.engine.words import SET_UP, Words, plural, words_of
    from annals.queries.pictures.board import view_words

    w = Words(b.ruleset, lambda _instance: "", b.players)
    by_card: dict[str, list[str]] = {}
    counters: dict[str, list[str]] = {}
    for key, value in b.counters.items():
        holder, _, counter = key.rpartition(":")
        said = Words.state(counter, value)
        if (holder.startswith("p") and holder[1:].isdigit()) or holder == "game":
            counters.setdefault(holder, []).append(said)
        else:
            by_card.setdefault(holder, []).append(said)
    shown = {label for zone in b.zones.values() for labels in zone.values() for label in labels}
    for holder in sorted(set(by_card) - shown):  # a card's counters where the card is not shown
        counters.setdefault(_side(holder), []).append(f"{b.name_of(holder)}: {', '.join(by_card[holder])}")

    def card(label: str) -> str:
        marks = by_card.get(label)
        return f"{b.name_of(label)} ({', '.join(marks)})" if marks else b.name_of(label)

    def column(side: str) -> str:
        if side.startswith("p") and side[1:].isdigit():
            return w.who(int(side[1:]))
        return {"token": "tokens", "game": "the game"}.get(side, side)

    view = view_words(b.view, b.players)
    when = (f"turn {b.turn}, {words_of(b.step)}" if b.step else f"turn {b.turn}") if b.turn else SET_UP
    status = ""
    if b.over:
        said = w.ending(b.winner, b.end_reason) if b.end_reason else f"{w.who(b.winner)} wins" if b.winner >= 0 \
            else "no winner"  # fmt: skip
        status = f"; game over: {said}"  # the end line, as every reader says it
    title = (
        f"{RULESET_NAMES.get(b.ruleset, b.ruleset)} game {b.game_id}, after event {b.events_applied - 1}: "
        f"{when} ({view}{status})"
    )
    table = Table(title=title, show_lines=True)
    table.add_column("", style="bold")
    sides = sorted({side for zone in b.zones.values() for side in zone} | set(counters) | {k[:2] for k in b.piles})
    for side in sides:
        table.add_column(column(side))
    unseen = {}  # (zone, side) -> cards of a pile this view cannot name (its size is public)
    if b.view != "omniscient":
        for key, size in b.piles.items():
            side, _, zone = key.partition(":")
            hidden = size - len(b.zones.get(zone, {}).get(side, []))
            if hidden > 0:
                unseen[zone, side] = hidden
    zones = {**{zone: {} for zone, _ in unseen}, **b.zones}

    def cell(zone: str, side: str) -> str:
        labels, hidden = zones[zone].get(side, []), unseen.get((zone, side), 0)
        if zone in HIDDEN_ORDER_ZONES:
            return plural(len(labels) + hidden, "card") if labels or hidden else ""
        named = [card(label) for label in labels]
        if hidden:
            named.append(plural(hidden, "hidden card"))
        return ", ".join(named)

    for zone in sorted(zones, key=_row_order):
        table.add_row(w.place(zone), *(cell(zone, side) for side in sides))
    if counters:
        table.add_row("counters", *("\n".join(counters.get(side, [])) for side in sides))
    elsewhere = b.hidden - sum(unseen.values())  # hidden where no pile counts them (MORANA's sealed commits)
    if elsewhere > 0:
        more = "more " if unseen else ""
        table.caption = f"{elsewhere} {more}{'card' if elsewhere == 1 else 'cards'} hidden from this view"
    return table


ROWS = ("planet", "warden", "site", "lane", "route", "stack", "hand", "nav", "resource", "used", "deck", "discard")
LANE_ORDER = ("exterior", "interior", "space")


def _row_order(zone: str) -> tuple[int, str, int, int, str]:
    """Rows as a player looks over the board: the board itself (each side's Sites with their lanes, in the
    rules' order from the front line [M9-025]), then hands and piles; zones not listed last, by name."""
    parts = zone.split(":")
    group = ROWS.index(parts[0]) if parts[0] in ROWS else len(ROWS)
    if parts[0] in ("site", "lane", "route") and len(parts) == 3 and parts[2] in LANE_ORDER:
        return ROWS.index("site"), parts[1], LANE_ORDER.index(parts[2]), ROWS.index(parts[0]), zone
    return group, "", 0, 0, zone


@app.command()
def position(
    source: str = typer.Argument(..., metavar="LOG|GAME_ID", help="A log file, or a game id in the database."),
    at: str = typer.Option(
        "end", "--at", help="N (event N), event:N, turn:T, turn:T/STEP, step:S, KIND:K, start or end."
    ),
    view: str = typer.Option("omniscient", "--view", help=f"One of: {VIEW_HELP}."),
    fmt: Literal["board", "json", "svg"] = typer.Option("board", "--format", "-f", help="board, json or svg."),
    db: Path | None = typer.Option(
        None, "--db", help="Where to look a game id up (default: ANNALS_HOME/annals.duckdb)."
    ),
    save: Path | None = typer.Option(None, "--save", help="Also write the position to this position file (JSON)."),
    output: Path | None = typer.Option(
        None, "--output", "-o", help="Write the json or svg here instead of printing it."
    ),
) -> None:
    """Show the board at any coordinate of a game, as a board, JSON or an SVG picture.

    The position is rebuilt from the log (or the database), for any view.

    Example: annals position games/miras9-00000009-*.log --at turn:5/attack.declare --save ruling-17.json
    Example: annals position games/miras9-00000009-*.log --at damage:1 --format svg --output board.svg
    """
    import msgspec

    from annals.engine.views import viewer_of
    from annals.queries.pictures.board import board, board_svg
    from annals.queries.positions.files import position_file, save_position
    from annals.queries.positions.gamelog import LogGoneError, game_log, log_path
    from annals.queries.positions.stops import check_stop
    from annals.queries.positions.timeline import Timeline

    db = db if db is not None else default_database()
    if output is not None and fmt == "board":
        fail("--output writes --format json or svg; the board format is for the terminal", code=2)
    with reported():
        paths = expand([source]) if is_pattern(source) else []
        if len(paths) > 1:
            raise TooManyLogsError(f"{source!r} matches {len(paths)} logs; name one (a position is of one game)")
        view = view_named(view)
        viewer_of(view)
        log = paths[0] if paths else log_path(source, db)
        if output is not None:
            output_file(output, inputs=[log, db], what="--output")
        pending = None
        try:
            found = game_log(source, db, log)
        except LogGoneError as gone:  # the omniscient board is still the database's; anything else needs the log
            if view != "omniscient" or fmt == "svg" or save is not None:
                raise
            b = board_from_database(source, log, db, at, gone)
        else:
            pending = found.log.backup_pending
            timeline = Timeline(found.log)
            count = timeline.resolve(at)
            b = board(timeline, count, view, at)
            svg = board_svg(timeline, count, view, at) if fmt == "svg" else ""
            if save is not None:
                check_stop(timeline.log, count)  # inside one action of the rules no position holds (issue 13)
                save_position(save, position_file(timeline, count, at), inputs=[log, db])
            if found.rebuilt:  # said once it worked: an error stays the one line on stderr
                err.print(found.note(db), markup=False)
    if fmt != "board" and output is not None:
        text = svg if fmt == "svg" else msgspec.json.format(msgspec.json.encode(b)).decode()
        output.write_text(text + "\n", encoding="utf-8")
        out.print(f"{fmt} of {b.game_id} at {at} ({view}) written to {output}", markup=False)
    elif fmt == "svg":
        out.print(svg, markup=False)
    elif fmt == "json":
        out.print(msgspec.json.format(msgspec.json.encode(b)).decode(), markup=False, soft_wrap=True)
    else:
        out.print(render_board(b))
    if pending is not None:  # said beside the board; on stderr when stdout is JSON or SVG
        from annals.schemas.text import backup_pending_parts

        screen.command(out if fmt == "board" else err, *backup_pending_parts(pending, str(log)))
    if save is not None:
        screen.command(out, f"position written to {save}; edit it, then: ", f"annals continue {quoted(save)}")


@app.command("continue")
def continue_(
    position_path: Path = typer.Argument(
        ..., metavar="POSITION", help="A position file written by `annals position --save`."
    ),
    out_path: Path | None = typer.Option(None, "--out", help="The new log (default: a new file in ANNALS_HOME/games)."),
    seed: int = typer.Option(1, "--seed", help="Seed of the continued game."),
    bots: str = typer.Option("random,random", "--bots", help=BOTS_HELP),
    decisions: Path | None = typer.Option(None, "--decisions", help="JSON list of option indexes to play first."),
    max_turns: int | None = typer.Option(
        None, "--max-turns", min=0, help="Stop after this many turns (0: none; default: the ruleset's bot-game cap)."
    ),
) -> None:
    """Play on from a position file with bots, into a new log.

    Scripted decisions (a JSON list of option indexes) are played first, then the bots play on.

    Example: annals continue ruling-17.json --bots random,random --out ruling-17.log
    """
    from annals.engine.words import Words
    from annals.queries.positions.files import continue_game, load_position, read_decisions
    from annals.schemas.logfile import LogReader

    with reported():
        loaded = load_position(position_path)
        script = read_decisions(decisions) if decisions is not None else None
        if out_path is None:
            out_path = unused(default_games() / f"continued-{position_path.stem}.log")
            out_path.parent.mkdir(parents=True, exist_ok=True)
        output_file(out_path, inputs=[position_path, *([decisions] if decisions is not None else [])], what="--out")
        result = continue_game(loaded, out_path, seed=seed, bots=bots.split(","), script=script, max_turns=max_turns)
        with LogReader(out_path) as reader:  # the seats' names, as the new log's header has them
            players = [p.name for p in reader.header.players]
    ending = Words(loaded.doc.ruleset, lambda _card: "", players).ending
    out.print(
        f"{out_path}: game {result.game_id} branched from {loaded.doc.source_game} at event {loaded.doc.at_event}; "
        f"{ending(result.winner, result.end_reason)}, after {result.events} events",
        markup=False,
    )
