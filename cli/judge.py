"""``annals judge``: a judge's interventions, appended to a game's log as structured records."""

from __future__ import annotations

from pathlib import Path

import typer

from annals.cli.app import app, out, reported
from annals.engine.judge import Amended, backup, intervene
from annals.schemas.judge import DRAW, Intervention, utc_now
from annals.schemas.keys import load_signing_key

judge_app = typer.Typer(
    help="A judge's records on a game's log: warn, game-loss, note, extra-time, override, backup. "
    "Example: annals judge warn game.log --judge 'R. Vance' --player 1 --reason 'slow play'",
    no_args_is_help=True,
)
app.add_typer(judge_app, name="judge")

LogArg = typer.Argument(..., help="The game's log.")
JudgeOpt = typer.Option(..., "--judge", help="The judge's name.")
KeyOpt = typer.Option(None, "--key", help="The event's private key file: re-sign the log after the record.")
PlayerOpt = typer.Option(..., "--player", min=0, help="The player it is given to (0 or 1).")
ReasonOpt = typer.Option("", "--reason", help="The reason (infraction).")
NoteOpt = typer.Option("", "--note", help="A note for the record.")


def _now() -> str:
    return utc_now()


def _apply(log: Path, record: Intervention, key: Path | None) -> None:
    with reported():
        signing = load_signing_key(key) if key is not None else None
        amended = intervene(log, record, key=signing)
    _report(log, amended)


def _report(log: Path, amended: Amended) -> None:
    out.print(f"{log}: {amended.record.describe()}", markup=False)
    if amended.closed:
        out.print(f"{log}: the game was unfinished; the judge's record ends it", markup=False)
    if amended.signed:
        out.print(f"{log}: re-signed with the event's key", markup=False)
    elif amended.was_signed:
        out.print(
            f"{log}: note: the log was signed; its signature no longer covers the judge's record until it is "
            f"re-signed: annals key sign {log} --key KEYFILE",
            markup=False,
        )


@judge_app.command()
def warn(
    log: Path = LogArg, judge: str = JudgeOpt, player: int = PlayerOpt, reason: str = ReasonOpt,
    note: str = NoteOpt, key: Path = KeyOpt,
) -> None:  # fmt: skip
    """Record a warning to a player.

    Example: annals judge warn game.log --judge "R. Vance" --player 1 --reason "slow play"
    """
    _apply(log, Intervention("warning", judge, player=player, reason=reason, note=note, time=_now()), key)


@judge_app.command("game-loss")
def game_loss(
    log: Path = LogArg, judge: str = JudgeOpt, player: int = PlayerOpt, reason: str = ReasonOpt,
    note: str = NoteOpt, key: Path = KeyOpt,
) -> None:  # fmt: skip
    """Give a player a game loss: the game's result becomes a win for the other player.

    Example: annals judge game-loss game.log --judge "R. Vance" --player 0 --reason "marked cards"
    """
    _apply(log, Intervention("game_loss", judge, player=player, reason=reason, note=note, time=_now()), key)


@judge_app.command()
def note(log: Path = LogArg, judge: str = JudgeOpt, text: str = NoteOpt, key: Path = KeyOpt) -> None:
    """Add a note to the record.

    Example: annals judge note game.log --judge "R. Vance" --note "table 5 moved to table 12"
    """
    _apply(log, Intervention("note", judge, note=text, time=_now()), key)


@judge_app.command("extra-time")
def extra_time(
    log: Path = LogArg, judge: str = JudgeOpt,
    minutes: int = typer.Option(..., "--minutes", help="Minutes added to the match's clock."),
    reason: str = ReasonOpt, key: Path = KeyOpt,
) -> None:  # fmt: skip
    """Award extra time.

    Example: annals judge extra-time game.log --judge "R. Vance" --minutes 5 --reason "deck check"
    """
    _apply(log, Intervention("extra_time", judge, minutes=minutes, reason=reason, time=_now()), key)


@judge_app.command()
def override(
    log: Path = LogArg, judge: str = JudgeOpt,
    winner: int = typer.Option(..., "--winner", min=DRAW, help="The winner (0 or 1), or -1 for a draw."),
    reason: str = ReasonOpt, note: str = NoteOpt, key: Path = KeyOpt,
) -> None:  # fmt: skip
    """Override the game's result (recorded as the judge's decision; verify reports it as such).

    Example: annals judge override game.log --judge "R. Vance" --winner -1 --reason "time called, agreed draw"
    """
    _apply(log, Intervention("override", judge, winner=winner, reason=reason, note=note, time=_now()), key)


@judge_app.command("backup")
def backup_(
    log: Path = LogArg, judge: str = JudgeOpt,
    to: int = typer.Option(..., "--to", min=0, help="The decision to back up to (it is asked again)."),
    reason: str = ReasonOpt, note: str = NoteOpt, key: Path = KeyOpt,
) -> None:  # fmt: skip
    """Back the game up to where decision --to was asked (kept as an abandoned branch); then: annals resume LOG.

    Example: annals judge backup game.log --judge "R. Vance" --to 14 --reason "drew an extra card"
    """
    with reported():
        signing = load_signing_key(key) if key is not None else None
        amended = backup(log, to, judge, reason=reason, note=note, time=_now(), key=signing)
    _report(log, amended)
    out.print(f"{log}: play on with: annals resume {log} --players human,human", markup=False)
