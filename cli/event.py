"""``annals event``: an event (a tournament) run round by round on its own signed record, in its own folder.

Each command is one call of the library (``engine.tournament``: ``event``, ``rounds``, ``play``, ``verify``;
``queries.tournament`` and ``queries.eventpages`` for what is printed). docs/organiser.md walks through an event.
"""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from annals.cli.app import app, err, fail, out, reported
from annals.engine.names import ROUND_MINUTES, plural
from annals.schemas.commandline import quoted

if TYPE_CHECKING:
    from annals.engine.tournament.store import EventStore
    from annals.schemas.event import Outcome

event_app = typer.Typer(
    help="Run an event round by round: registration with deck lists, pairings, results, corrections, the round "
    "clock, a top cut, standings and printouts, all on the event's signed record.\n\n"
    "Example: annals event new spring --ruleset miras9 --rounds 3 --best-of 3 --top 2 --seed 7",
    no_args_is_help=True,
)
app.add_typer(event_app, name="event")

FOLDER = typer.Argument(..., metavar="EVENT", help="The event's folder.")
FORMAT = typer.Option("table", "--format", help="table, csv or json.")
OUTPUT = typer.Option(None, "--output", "-o", help="Write to this file instead.")
JUDGE = typer.Option("", "--judge", help="The judge's name.")
REASON = typer.Option("", "--reason", help="Why.")


def _width() -> int:
    return shutil.get_terminal_size((100, 24)).columns


def _show(frame_text: str | None) -> None:
    if frame_text is not None:
        out.print(frame_text, markup=False, end="")


def _emit(frame: object, fmt: str, output: Path | None, title: str = "") -> None:
    import polars as pl

    from annals.queries.reports.output import render
    from annals.queries.tournament import terminal_table

    assert isinstance(frame, pl.DataFrame)
    if fmt == "table" and output is None:
        _show(terminal_table(frame, _width(), title))
        return
    text = render(frame, fmt, output, width=_width())
    _show(text)
    if text is None and output is not None:
        out.print(f"written to {output}", markup=False)


def _outcome(result: str | None, draw: bool, double_loss: bool, no_show: str, store: EventStore) -> Outcome:
    from annals.engine.tournament import event as lib
    from annals.engine.tournament import rounds as loop
    from annals.schemas.event import DOUBLE_LOSS, INTENTIONAL_DRAW, NO_SHOW, Outcome

    if result is not None and result.casefold() in ("id", "draw"):  # how slips write an intentional draw
        result, draw = None, True
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
    o = loop.parse_outcome(result)
    return Outcome(o.wins_a, o.wins_b, o.draws, DOUBLE_LOSS) if double_loss else o


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


@event_app.command("new")
def new(
    folder: Path = FOLDER,
    name: str = typer.Option(
        "", "--name", help="The event's name as people read it, spaces welcome (default: the folder's name)."
    ),
    ruleset: str = typer.Option(..., "--ruleset", help="miras9 or morana."),
    rounds: int = typer.Option(0, "--rounds", min=0, help="Swiss rounds (0: the Swiss chart's, for the field)."),
    best_of: int = typer.Option(3, "--best-of", min=1, help="Games a match is best of (odd)."),
    top: int = typer.Option(0, "--top", min=0, help="Single-elimination cut after the Swiss: 0, 2, 4, 8, ..."),
    seed: int | None = typer.Option(None, "--seed", help="The event's seed (default: a fresh random one, recorded)."),
    max_turns: int | None = typer.Option(
        None, "--max-turns", min=0, help="Each game's turn cap, the time limit: a game reaching it is drawn."
    ),
    agent: str = typer.Option("heuristic", "--bot", help="The bot that plays seats in 'event run'."),
) -> None:
    """Create an event: a folder holding its signed record (EVENT is the folder; its name is the event's).

    Example: annals event new spring-open --ruleset miras9 --rounds 5 --best-of 3 --top 8
    """
    from annals.engine.tournament import event as lib
    from annals.engine.tournament.store import EventStore

    with reported():
        config = lib.new_event(folder, name or folder.resolve().name, ruleset, rounds=rounds, best_of=best_of,
                               top=top, seed=seed, max_turns=max_turns, agent=agent)  # fmt: skip
        public = EventStore.open(folder).public_key()
    rounds_text = str(config.rounds) if config.rounds else "recommended at round 1"
    out.print(
        f"event {config.name} (id {config.event_id}; {config.ruleset}, Swiss rounds: {rounds_text}, "
        f"best of {config.best_of}, top {config.top or 'none'}, seed {config.seed}) created in {folder}",
        markup=False,
    )
    out.print(
        f"its record and logs are signed by {public.fingerprint} (private key {folder / 'event.key'}, mode 0600: "
        f"keep it; public key {folder / 'event.pub'}: check the event with annals event verify {quoted(folder)})",
        markup=False,
    )


@event_app.command("register")
def register(
    folder: Path = FOLDER,
    player_id: str = typer.Option(
        "", "--id", help="The player's id, short and unique, typed instead of the name later (default: from the name)."
    ),
    name: str = typer.Option(..., "--name", help="The player's name, as people read it (spaces welcome)."),
    deck: Path = typer.Option(..., "--deck", help="The deck list file (see docs/deck-lists.md)."),
    agent: str = typer.Option("", "--bot", help="A bot to play this seat in 'event run' (default: a person)."),
) -> None:
    """Register a player with a deck list (every problem reported with its line); after round 1, a late entry.

    Example: annals event register spring --id ada --name "Ada Lovelace" --deck ada.txt
    """
    from annals.engine.tournament import event as lib
    from annals.engine.tournament.store import EventStore

    with reported():
        store = EventStore.open(folder)
        player = lib.register(store, player_id, name, deck, agent=agent)
        missed = lib.missed_rounds(store, player.id)
        others = lib.sharing_name(store, player.id)
    late = f"; a late entry: {plural(missed, 'round')} missed, each a match loss" if missed else ""
    out.print(f"registered {player.name} ({player.id}) with {player.deck.name!r}{late}", markup=False)
    if others:
        out.print(f"note: {player.name} is also the name of {', '.join(others)}: the pairings, the wall and the "
                  f"slips show each with their id, '{player.name} ({player.id})'; a typo? annals event rename "
                  f"{folder} {player.id} \"RIGHT NAME\"", markup=False)  # fmt: skip


@event_app.command("rename")
def rename(
    folder: Path = FOLDER,
    player: str = typer.Argument(..., help="The player (id, or the name as registered)."),
    name: str = typer.Argument(..., help="Their name as it should be read (spaces welcome: quote it)."),
) -> None:
    """Put a player's name right (a typo at registration), at any time: their id, deck and results stay.

    Example: annals event rename spring ada "Ada King, Countess of Lovelace"
    """
    from annals.engine.tournament import event as lib
    from annals.engine.tournament.store import EventStore

    with reported():
        store = EventStore.open(folder)
        pid = lib.resolve_player(store, player)
        old, new = lib.rename(store, pid, name)
        others = lib.sharing_name(store, pid)
    out.print(f"{old} ({pid}) is now {new}", markup=False)
    if others:
        out.print(f"note: {new} is also the name of {', '.join(others)}: the pairings show each with their id",
                  markup=False)  # fmt: skip


@event_app.command("run")
def run(
    folder: Path = FOLDER,
    fill: int = typer.Option(
        0, "--fill", min=0, help="First fill the field up to this many players with bots and shipped decks."
    ),
    until: int = typer.Option(0, "--until", min=0, help="Stop after this round (0: play to the end)."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar."),
) -> None:
    """Play the rest of the event (or up to round --until) with bots in every seat; run it again to resume.

    Example: annals event run spring --fill 8 --until 1
    """
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from annals.engine.tournament import event as lib
    from annals.engine.tournament import play as bots
    from annals.engine.tournament.store import EventStore
    from annals.engine.tournament.verify import require_decks
    from annals.queries.tournament import placings_frame, terminal_table

    with reported():
        store = EventStore.open(folder)
        require_decks(store)  # before the field is filled: a refusal changes nothing
        missing = fill - lib.entrants(store.players())
        if missing > 0 and not store.rounds():  # the same command resumes after a crash: the field is full by then
            bots_added = lib.fill_with_bots(store, missing)
            del bots_added
        with Progress(
            TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
            disable=quiet, transient=True,
        ) as progress:  # fmt: skip
            task = progress.add_task("event", total=None)

            def step(done: int, expected: int, what: str) -> None:
                progress.update(task, completed=done, total=max(expected, done), description=what)

            bots.run_event(store, on_progress=step, until=until)
        frame = placings_frame(store).head(8)
        ended = store.state().finished()
    said = "event finished" if ended else f"played to round {len(store.rounds())}"
    out.print(f"{said}; {len(store.matches())} matches in {folder}", markup=False)
    _show(terminal_table(frame, _width(), "Placings" if ended else "Places so far"))


@event_app.command("bye")
def bye(
    folder: Path = FOLDER,
    player: str = typer.Argument(..., help="The player's id or name."),
    round_no: int = typer.Option(..., "--round", min=1, help="The Swiss round (not yet paired)."),
    judge: str = JUDGE,
    reason: str = REASON,
) -> None:
    """Award a player a bye in a round not yet paired (a 2-0 match win).

    Example: annals event bye spring ada --round 3 --judge "R. Vance" --reason "judged a side event"
    """
    from annals.engine.tournament import event as lib
    from annals.engine.tournament.store import EventStore

    with reported():
        store = EventStore.open(folder)
        pid = lib.resolve_player(store, player)
        lib.award_bye(store, pid, round_no, judge=judge, reason=reason)
        name = store.state().player(pid).name
    out.print(f"{name} has a bye in round {round_no} (awarded by {judge})", markup=False)


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
    _show(terminal_table(frame, _width(), f"Round {rnd.number} ({stage}) pairings"))


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
        _emit(frame, fmt, output, f"Round {number} pairings by {by}")


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
        _show(terminal_table(frame, _width()))


@event_app.command("result")
def result(
    folder: Path = FOLDER,
    outcome: str | None = typer.Argument(
        None, metavar="[RESULT]", help="Games won by each player: 2-1, or 2-1-1; id for an intentional draw."
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
        left = len(store.state().open_tables(round_no))
    out.print(f"{said}; {plural(left, 'table')} still playing" if left else f"{said}; round {round_no} is complete",
              markup=False)  # fmt: skip


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
    _show(terminal_table(frame, _width(), f"Round {round_no} pairings, changed by {judge}"))


@event_app.command("drop")
def drop(
    folder: Path = FOLDER,
    player: str = typer.Argument(..., help="The player's id or name."),
    reason: str = typer.Option("", "--reason", help="Why (for the record)."),
) -> None:
    """Drop a player: they finish the round already paired and are not paired again.

    Example: annals event drop spring "Bot 5"
    """
    from annals.engine.tournament import event as lib
    from annals.engine.tournament.store import EventStore

    with reported():
        store = EventStore.open(folder)
        p = lib.drop(store, lib.resolve_player(store, player), reason=reason)
    when = f"after round {p.dropped_after}" if p.dropped_after else "before round 1 (withdrawn)"
    out.print(f"{p.name} dropped {when}", markup=False)


@event_app.command("players")
def players(folder: Path = FOLDER, fmt: str = FORMAT, output: Path | None = OUTPUT) -> None:
    """The registered players: name, id, deck, who plays (a person or a bot), and when they dropped.

    Example: annals event players spring
    """
    from annals.engine.tournament.store import EventStore
    from annals.queries.tournament import players_frame

    with reported():
        _emit(players_frame(EventStore.open(folder)), fmt, output, "Players")


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
        _emit(standings_frame(store), fmt, output, "Standings")
    if fmt == "table" and output is None:  # a person reading: how the order was made (on stderr: not a row)
        said = (
            "ranked by match points (3 a win, 1 a draw), then OMW%, GW%, OGW% (each at least 33%), then a lot "
            f"drawn from the event's seed; annals event print {quoted(folder)} standings -o FILE explains each"
        )
        err.print(textwrap.fill(said, _width(), break_on_hyphens=False, break_long_words=False), markup=False)


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
        _emit(placings_frame(store), fmt, output, "Placings")


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
            else f"{verdict.decks} deck lists and {verdict.games} game logs as recorded"
        )
        + ("; every game re-run identically" if replay else ""),
        markup=False,
    )
