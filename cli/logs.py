"""``annals show`` and ``annals verify``: reading logs."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Literal

import typer

from annals.cli.app import app, err, fail, out, reported
from annals.engine.names import VIEW_HELP
from annals.schemas import screen
from annals.schemas.errors import AnnalsError, one_line
from annals.schemas.files import NoMatchError, default_database, expand, is_pattern

if TYPE_CHECKING:  # the rest is imported in the commands: building the command line loads no rules or log code
    from annals.schemas.logfile import GameLog
    from annals.schemas.signing import SignatureStatus

LogsArg = typer.Argument(
    ..., metavar="LOG", help="Log files written by annals, or glob patterns (quoted or not): games/*.log."
)


@app.command()
def show(
    logs: list[str] = LogsArg,
    view: str = typer.Option("omniscient", "--view", help=f"{VIEW_HELP}: what that seat could see."),
    numbered: bool = typer.Option(
        False, "--numbered", help="Number the decisions (?N), as judge backup --to names them."
    ),
    fmt: Literal["text", "records", "json"] = typer.Option(
        "text", "--format", "-f", help="text: sentences; records: one record per line; json: one JSON record per line."
    ),
    db: Path | None = typer.Option(
        None, "--db", help="Where to look a game id up (default: ANNALS_HOME/annals.duckdb)."
    ),
) -> None:
    """Print logs in words, one sentence per event, the result last.

    Each line is an event a person follows as a sentence with card names (its number and turn first), or a
    decision and what was chosen. With --format records each line is a record: coordinates (event number, turn,
    step, player) and fields, card instances named (char-recruit#1003). With --format json each line is one JSON
    record: the header, every event and decision, and the result.

    A game id stands for the log the database's game was ingested from, rebuilt from the database when that file
    is gone (every view as from the file).

    Example: annals show games/miras9-00000007-*.log --view player1
    """
    from annals.engine.views import view_log, viewer_of
    from annals.engine.words import Words
    from annals.engine.words.story import render_story
    from annals.queries.positions.gamelog import game_log  # DuckDB: when the command runs (tests/test_cli_startup.py)
    from annals.schemas.text import render_jsonl, render_log

    with reported():
        database = db if db is not None else default_database()
        sources = _sources(logs, db is not None or database.exists())
        viewer = viewer_of(view)
        for i, source in enumerate(sources):
            found = game_log(str(source), database)
            game = view_log(found.log, viewer)
            if len(sources) > 1 and fmt != "json":
                out.print(f"{'' if i == 0 else chr(10)}== {source}", markup=False)
            if fmt == "json":
                lines = render_jsonl(game)
            elif fmt == "records":
                people = [p.name for p in game.header.players]
                ending = Words(game.header.ruleset, lambda _card: "", people).ending
                lines = render_log(game, named=True, numbered=numbered, ending=ending)
            else:
                lines = render_story(game, numbered=numbered)
            for line in lines:  # JSON lines whole even on a terminal: a record is one line (schemas.screen)
                out.print(line, markup=False, soft_wrap=fmt == "json" or None)
            if found.rebuilt:
                err.print(found.note(database), markup=False)


def _sources(logs: list[str], by_id: bool) -> list[str | Path]:
    """Files and glob patterns as ``expand`` reads them; with a database (``by_id``), a name that is no file is
    kept as a game id."""
    sources: list[str | Path] = []
    for text in logs:
        try:
            sources.extend(expand([text]))
        except NoMatchError:
            if not by_id or is_pattern(text):
                raise
            sources.append(text)
    return sources


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
    logs: list[str] = LogsArg,
    key: Path = typer.Option(None, "--key", help="The event's public key file: each log must be signed by it."),
    expect: list[str] = typer.Option(
        [], "--expect", help="FIELD=VALUE of the tournament metadata the log must carry (event, round, match, ...)."
    ),
) -> None:
    """Prove logs whole and their games legal, and say who signed them.

    Checksums and chain, the records' consistency, then a re-run of the decisions that must give every event, the
    end and the result. Only a signature proves who recorded a game; each log's last line says whether it has one.

    Every event the re-run emits is compared with the logged one; the first difference is named. The branches a
    judge's backup abandoned are re-run too, and judges' decisions reported as such. With many logs, each gets its
    lines and the command fails if any does.

    Example: annals verify games/miras9-0000000*.log
    """
    import msgspec

    from annals.engine.replay import verify_game
    from annals.schemas.header import placement_problems
    from annals.schemas.keys import load_public_key
    from annals.schemas.logfile import read_log
    from annals.schemas.signing import verify_signature
    from annals.schemas.text import backup_pending_parts

    expected = _expected(expect)
    with reported():
        trusted = load_public_key(key) if key is not None else None
        paths = expand(logs)
    failed = 0
    for path in paths:
        try:
            game = read_log(path, backup_pending=True)
            verified = verify_game(game, path)
        except AnnalsError as exc:
            failed += 1
            err.print(f"error: {one_line(str(exc))}", markup=False)
            continue
        status = verify_signature(Path(path), trusted)
        if status.state == "signed" and status.ok:
            verified = msgspec.structs.replace(verified, signature=status.message)
        misplaced = placement_problems(game.header, expected)
        for line in verified.lines(refused=not status.ok or bool(misplaced)):
            out.print(line, markup=False)
        if game.backup_pending is not None:
            lead, line = backup_pending_parts(game.backup_pending, str(path))
            screen.command(out, f"{path}: {lead}", line)
        problems = _judged_and_signed(Path(path), game, status, misplaced)
        for problem in problems:
            err.print(f"error: {one_line(f'{path}: {problem}')}", markup=False)
        failed += bool(problems)
    if failed and len(paths) > 1:
        fail(f"{failed} of {len(paths)} logs failed verification", hint="each is named above")
    if failed:
        raise typer.Exit(1)


def _judged_and_signed(log: Path, game: GameLog, status: SignatureStatus, misplaced: list[str]) -> list[str]:
    """Print the abandoned branches and the judges' records; return what fails (``misplaced``: how the log is not
    where ``--expect`` says it belongs; a signature included)."""
    from annals.engine.replay import rerun_branches
    from annals.engine.words import Words

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
    people = [p.name or f"p{seat}" for seat, p in enumerate(game.header.players)]  # as 'annals show' names them
    for seen in game.judged:
        if seen.record.kind != "backup":
            out.print(f"{log}: judge: {seen.record.describe(people)}", markup=False)
    winner, reason = game.result
    judged = (winner, reason) != (game.close.winner, game.close.end_reason) or reason.startswith("judge_")
    if judged and game.backup_pending is None:  # in words: it said "(judge_game_loss)" and "winner 0 (slava_13)"
        words = Words(game.header.ruleset, lambda _card: "", people)
        out.print(f"{log}: result by judge's decision: {words.ending(winner, reason)}; the engine's closing record "
                  f"says: {words.ending(game.close.winner, game.close.end_reason)}", markup=False)  # fmt: skip
    problems.extend(misplaced)
    if not status.ok:
        problems.append(status.message)
    return problems
