"""``annals show`` and ``annals verify``: reading one log."""

from __future__ import annotations

from pathlib import Path

import typer

from annals.cli.app import app, fail, out, reported
from annals.engine.replay import rerun, rerun_branches
from annals.engine.views import view_log, viewer_of
from annals.schemas.header import placement_problems
from annals.schemas.keys import PublicKey, load_public_key
from annals.schemas.logfile import GameLog, read_log
from annals.schemas.signing import verify_signature
from annals.schemas.text import render_log

LogArg = typer.Argument(..., help="A log file written by annals.", exists=False, dir_okay=False)


@app.command()
def show(
    log: Path = LogArg,
    view: str = typer.Option(
        "omniscient", "--view", help="omniscient, player0, player1 or spectator: what that seat could see."
    ),
    numbered: bool = typer.Option(
        False, "--numbered", help="Number the decisions (?N), as judge backup --to names them."
    ),
) -> None:
    """Print a log as readable text: the header, then one line per event with its coordinates.

    Example: annals show games/miras9-00000001-3f2a.log --view player1
    """
    with reported():
        game = view_log(read_log(log), viewer_of(view))
    for line in render_log(game, numbered=numbered):
        out.print(line, markup=False)


def _expected(pairs: list[str]) -> dict[str, str]:
    expected = {}
    for pair in pairs:
        field, sep, value = pair.partition("=")
        if not sep or not field:
            fail(f"--expect takes FIELD=VALUE (such as match=r2-t5), not {pair!r}", code=2)
        expected[field.strip()] = value.strip()
    return expected


@app.command()
def verify(
    log: Path = LogArg,
    key: Path = typer.Option(None, "--key", help="The event's public key file: the log must be signed by it."),
    expect: list[str] = typer.Option(
        [], "--expect", help="FIELD=VALUE of the tournament metadata the log must carry (event, round, match, ...)."
    ),
) -> None:
    """Check a log's checksums and chain, then re-run its decisions and compare every event; re-run the branches a
    judge's backup abandoned; report judges' decisions and who signed the log.

    Example: annals verify games/miras9-00000001-3f2a.log --key spring-open.pub --expect match=r2-t5
    """
    expected = _expected(expect)
    with reported():
        trusted = load_public_key(key) if key is not None else None
        game = read_log(log)
        report = rerun(game)
    if not report.ok:
        detail = f"event {report.first_difference}: {report.reason}"
        if report.expected or report.actual:
            detail += f"\n  logged:  {report.expected}\n  re-run:  {report.actual}"
        fail(f"{log}: re-run differs at {detail}")
    out.print(f"{log}: ok ({report.events_checked} events re-run identically, digest {game.digest})", markup=False)
    problems = _judged_and_signed(log, game, trusted, expected)
    for problem in problems[1:]:
        out.print(f"{log}: FAILS: {problem}", markup=False)
    if problems:
        fail(f"{log}: {problems[0]}" + (f" (and {len(problems) - 1} more above)" if len(problems) > 1 else ""))


def _judged_and_signed(log: Path, game: GameLog, trusted: PublicKey | None, expected: dict[str, str]) -> list[str]:
    """Print the abandoned branches, the judges' records and the signature; return what fails."""
    problems = []
    for branch in rerun_branches(game):
        b = branch.backup
        if not branch.report.ok:
            problems.append(f"abandoned branch before backup to decision {b.to_decision} does not re-run: event "
                            f"{branch.report.first_difference}: {branch.report.reason}")  # fmt: skip
        elif branch.shared:
            problems.append(f"backup to decision {b.to_decision}: {branch.shared}")
        else:
            end = "to its end" if branch.finished else "to where it stopped"
            out.print(f"{log}: abandoned branch: {branch.events} events, {branch.decisions} decisions re-run "
                      f"identically {end}; {b.describe()}", markup=False)  # fmt: skip
    for seen in game.judged:
        if seen.record.kind != "backup":
            out.print(f"{log}: judge: {seen.record.describe()}", markup=False)
    winner, reason = game.result
    if (winner, reason) != (game.close.winner, game.close.end_reason) or reason.startswith("judge_"):
        who = "a draw" if winner < 0 else f"p{winner} wins"
        out.print(f"{log}: result by judge's decision: {who} ({reason}); the engine's closing record says "
                  f"winner {game.close.winner} ({game.close.end_reason})", markup=False)  # fmt: skip
    problems.extend(placement_problems(game.header, expected))
    status = verify_signature(log, trusted)
    if status.ok:
        out.print(f"{log}: {status.message}", markup=False)
    else:
        problems.append(status.message)
    return problems
