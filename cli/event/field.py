"""``annals event``: the event made and its field: new, register, rename, deck (a list handed in after registration),
bye, drop; run (bots in every seat)."""

from __future__ import annotations

from pathlib import Path

import typer

from annals.cli.app import out, reported
from annals.cli.event import FOLDER, JUDGE, REASON, event_app, show, width
from annals.engine.names import BOTS, BOTS_COST, plural
from annals.schemas import screen
from annals.schemas.commandline import quoted


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
    agent: str = typer.Option(
        "heuristic", "--bot", help=f"The bot that plays seats in 'event run': {', '.join(BOTS)} ({BOTS_COST})."
    ),
    deck_lists: str = typer.Option(
        "required",
        "--deck-lists",
        help="required, or optional: players may register without a list (results typed from paper); a game "
        "played through annals still needs both lists.",
    ),
) -> None:
    """Create an event: a folder holding its signed record (EVENT is the folder; its name is the event's).

    Example: annals event new spring-open --ruleset miras9 --rounds 5 --best-of 3 --top 8
    """
    from annals.engine.tournament import event as lib
    from annals.engine.tournament.store import EventStore

    with reported():
        config = lib.new_event(folder, name or folder.resolve().name, ruleset, rounds=rounds, best_of=best_of,
                               top=top, seed=seed, max_turns=max_turns, agent=agent,
                               deck_lists=deck_lists)  # fmt: skip
        public = EventStore.open(folder).public_key()
    rounds_text = str(config.rounds) if config.rounds else "recommended at round 1"
    out.print(
        f"event {config.name} (id {config.event_id}; {config.ruleset}, Swiss rounds: {rounds_text}, "
        f"best of {config.best_of}, top {config.top or 'none'}, seed {config.seed}"
        + (", deck lists optional" if config.deck_lists == "optional" else "")
        + f") created in {folder}",
        markup=False,
    )
    screen.command(
        out,
        f"its record and logs are signed by {public.fingerprint} (private key {folder / 'event.key'}, mode 0600: "
        f"keep it; public key {folder / 'event.pub'}: check the event with ",
        f"annals event verify {quoted(folder)}",
        ")",
    )


@event_app.command("register")
def register(
    folder: Path = FOLDER,
    player_id: str = typer.Option(
        "", "--id", help="The player's id, short and unique, typed instead of the name later (default: from the name)."
    ),
    name: str = typer.Option(..., "--name", help="The player's name, as people read it (spaces welcome)."),
    deck: Path | None = typer.Option(
        None, "--deck", help="The deck list file (see docs/deck-lists.md); optional when the event's lists are."
    ),
    agent: str = typer.Option(
        "",
        "--bot",
        help=f"A bot to play this seat in 'event run' (default: a person): {', '.join(BOTS)} ({BOTS_COST}).",
    ),
) -> None:
    """Register a player with a deck list (every problem reported with its line), or without one in an event made
    with --deck-lists optional; after round 1, a late entry.

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
    if player.deck is not None:
        out.print(f"registered {player.name} ({player.id}) with {player.deck.name!r}{late}", markup=False)
    else:  # what to do when the list comes: said here, where the organiser first meets it
        screen.command(out, f"registered {player.name} ({player.id}) without a deck list{late}; when they hand it in: ",
                       f"annals event deck {quoted(folder)} {player.id} FILE")  # fmt: skip
    if others:
        screen.command(out, f"note: {player.name} is also the name of {', '.join(others)}: the pairings, the wall "
                       f"and the slips show each with their id, '{player.name} ({player.id})'; a typo? ",
                       f"annals event rename {quoted(folder)} {player.id} \"RIGHT NAME\"")  # fmt: skip


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


@event_app.command("deck")
def deck(
    folder: Path = FOLDER,
    player: str = typer.Argument(..., help="The player (id, or the name as registered)."),
    deck_file: Path = typer.Argument(..., metavar="FILE", help="Their deck list file (see docs/deck-lists.md)."),
    judge: str = typer.Option("", "--judge", help="The judge's name: needed to replace a list already handed in."),
    reason: str = typer.Option("", "--reason", help="Why the list is replaced (needed with --judge)."),
) -> None:
    """Hand in a player's deck list after registration (late, or to put a wrong one right): checked as at
    registration; refused once they have played a game through annals.

    Example: annals event deck spring ada ada.txt  # fails: ada registered this very list (nothing to change)
    """
    from annals.engine.tournament import event as lib
    from annals.engine.tournament import lists
    from annals.engine.tournament.store import EventStore

    with reported():
        store = EventStore.open(folder)
        pid = lib.resolve_player(store, player)
        before = store.state().player(pid)
        handed = lists.hand_in(store, pid, deck_file, judge=judge, reason=reason)
    who = f"{before.name} ({pid})"
    if before.deck is None:
        said = f"{who} hands in {handed.deck.name!r}: their games through annals are played with it from now on"
    else:
        said = (f"{who}: {handed.deck.name!r} replaces {before.deck_name!r}, by {handed.judge}: {handed.reason} "
                f"(the list replaced stays in the folder, {before.deck_file})")  # fmt: skip
    out.print(said, markup=False)


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
    show(terminal_table(frame, width(), "Placings" if ended else "Places so far"))


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
