"""``annals judge``: a judge's interventions, appended to a game's log as structured records."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from annals.cli.app import app, out, reported
from annals.schemas import screen
from annals.schemas.commandline import quoted
from annals.schemas.judge import DRAW, Intervention, utc_now

if TYPE_CHECKING:  # the rest is imported in the commands: building the command line loads no log code or keys
    from annals.engine.judge import Amended
    from annals.schemas.keys import SigningKey

judge_app = typer.Typer(
    help="A judge's records on a game's log: warn, game-loss, note, extra-time, override, backup. A player is named "
    "by their id in the event or their name as the log records them (or the seat: p0, p1). In an event's folder the "
    "log is re-signed with the event's key and the match follows the judge's result. "
    "Example: annals judge warn game.log --judge 'R. Vance' --player p1 --reason 'slow play'",
    no_args_is_help=True,
)
app.add_typer(judge_app, name="judge")

LogArg = typer.Argument(..., help="The game's log.")
JudgeOpt = typer.Option(..., "--judge", help="The judge's name.")
KeyOpt = typer.Option(
    None,
    "--key",
    help="The event's private key file: re-sign the log after the record (found by itself for a log "
    "in an event's folder).",
)
PlayerOpt = typer.Option(..., "--player", help="The player it is given to: id, name, or seat (p0, p1).")
ReasonOpt = typer.Option("", "--reason", help="The reason (infraction).")
NoteOpt = typer.Option("", "--note", help="A note for the record.")


class _Act:
    """What a judge's command needs of the log before it acts: its header, its event (if any) and the key."""

    def __init__(self, log: Path, key: Path | None):
        from annals.engine.event_judge import event_of
        from annals.engine.judge import people
        from annals.schemas.keys import load_signing_key
        from annals.schemas.logfile import LogReader

        with LogReader(log) as reader:
            self.header = reader.header
        self.event = event_of(log, self.header)
        self.people = people(self.header)
        if key is not None:
            self.key: SigningKey | None = load_signing_key(key)
        else:
            self.key = self.event.signing_key() if self.event is not None else None

    def seat(self, who: str) -> int:
        from annals.engine.judge import seat_named

        return seat_named(self.header, who)

    def winner(self, who: str) -> int:
        return DRAW if who.strip().lower() in ("draw", "-1") else self.seat(who)


def _apply(log: Path, key: Path | None, make: Callable[[_Act], Intervention]) -> None:
    from annals.engine.judge import intervene

    with reported():
        act = _Act(log, key)
        amended = intervene(log, make(act), key=act.key)
    _report(log, act, amended)


def _report(log: Path, act: _Act, amended: Amended) -> None:
    out.print(f"{log}: {amended.record.describe(act.people)}", markup=False)
    if amended.closed:
        out.print(f"{log}: the game was unfinished; the judge's record ends it", markup=False)
    if amended.signed:
        found = " (found in the event's folder)" if act.event is not None else ""
        out.print(f"{log}: re-signed with the event's key{found}", markup=False)
    elif amended.was_signed:
        screen.command(
            out,
            f"{log}: note: the log was signed; its signature no longer covers the judge's record until it is "
            "re-signed: ",
            f"annals key sign {quoted(log)} --key KEYFILE",
        )
    if act.event is not None and amended.record.result() is not None:
        from annals.engine.event_judge import restate_match

        with reported():
            match = restate_match(act.event, log)
        if match is not None:
            names = {p.id: p.name for p in act.event.players()}
            won = f"{names.get(match.winner, match.winner)} wins" if match.winner else "drawn"
            out.print(
                f"{log}: match round {match.round} table {match.table}: {names.get(match.a, match.a)} "
                f"{match.wins_a}-{match.wins_b}-{match.draws} {names.get(match.b, match.b)}, {won}",
                markup=False,
            )


@judge_app.command()
def warn(
    log: Path = LogArg, judge: str = JudgeOpt, player: str = PlayerOpt, reason: str = ReasonOpt,
    note: str = NoteOpt, key: Path = KeyOpt,
) -> None:  # fmt: skip
    """Record a warning to a player.

    Example: annals judge warn game.log --judge "R. Vance" --player 1 --reason "slow play"
    """
    _apply(log, key, lambda act: Intervention("warning", judge, player=act.seat(player), reason=reason, note=note,
                                              time=utc_now()))  # fmt: skip


@judge_app.command("game-loss")
def game_loss(
    log: Path = LogArg, judge: str = JudgeOpt, player: str = PlayerOpt, reason: str = ReasonOpt,
    note: str = NoteOpt, key: Path = KeyOpt,
) -> None:  # fmt: skip
    """Give a player a game loss: the game's result becomes a win for the other player.

    Example: annals judge game-loss game.log --judge "R. Vance" --player 0 --reason "marked cards"
    """
    _apply(log, key, lambda act: Intervention("game_loss", judge, player=act.seat(player), reason=reason, note=note,
                                              time=utc_now()))  # fmt: skip


@judge_app.command()
def note(log: Path = LogArg, judge: str = JudgeOpt, text: str = NoteOpt, key: Path = KeyOpt) -> None:
    """Add a note to the record.

    Example: annals judge note game.log --judge "R. Vance" --note "table 5 moved to table 12"
    """
    _apply(log, key, lambda act: Intervention("note", judge, note=text, time=utc_now()))


@judge_app.command("extra-time")
def extra_time(
    log: Path = LogArg, judge: str = JudgeOpt,
    minutes: int = typer.Option(..., "--minutes", help="Minutes added to the match's clock."),
    player: str = typer.Option("", "--player", help="Only this player's bank (id, name or seat); default: both."),
    reason: str = ReasonOpt, key: Path = KeyOpt,
) -> None:  # fmt: skip
    """Award extra time.

    Example: annals judge extra-time game.log --judge "R. Vance" --minutes 5 --reason "deck check"
    """
    _apply(log, key, lambda act: Intervention("extra_time", judge, player=act.seat(player) if player else -1,
                                              minutes=minutes, reason=reason, time=utc_now()))  # fmt: skip


@judge_app.command()
def override(
    log: Path = LogArg, judge: str = JudgeOpt,
    winner: str = typer.Option(..., "--winner", help="The winner (id, name or seat p0, p1), or 'draw'."),
    reason: str = ReasonOpt, note: str = NoteOpt, key: Path = KeyOpt,
) -> None:  # fmt: skip
    """Override the game's result (recorded as the judge's decision; verify reports it as such).

    Example: annals judge override game.log --judge "R. Vance" --winner -1 --reason "time called, agreed draw"
    """
    _apply(log, key, lambda act: Intervention("override", judge, winner=act.winner(winner), reason=reason, note=note,
                                              time=utc_now()))  # fmt: skip


@judge_app.command("backup")
def backup_(
    log: Path = LogArg, judge: str = JudgeOpt,
    to: int = typer.Option(..., "--to", min=0, help="The decision to back up to (it is asked again)."),
    reason: str = ReasonOpt, note: str = NoteOpt, key: Path = KeyOpt,
) -> None:  # fmt: skip
    """Back the game up to where decision --to was asked (kept as an abandoned branch); then: annals resume LOG.

    Example: annals judge backup game.log --judge "R. Vance" --to 14 --reason "drew an extra card"
    """
    from annals.engine.judge import backup

    with reported():
        act = _Act(log, key)
        amended = backup(log, to, judge, reason=reason, note=note, time=utc_now(), key=act.key)
    _report(log, act, amended)
    screen.command(out, f"{log}: play on with: ", f"annals resume {quoted(log)} --players human,human")
