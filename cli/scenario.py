"""``annals scenario``: judges' scenario files, played and checked (``queries.workbench.scenario``)."""

from __future__ import annotations

from pathlib import Path

import typer

from annals.cli.app import app, fail, out, reported
from annals.engine.names import plural
from annals.schemas.files import annals_home, expand, output_folder

scenario_app = typer.Typer(
    help="Scenario files: a small position, scripted decisions and expectations, played by the rules. "
    "Example: annals scenario new miras9 --output starter.toml",
    no_args_is_help=True,
)
app.add_typer(scenario_app, name="scenario")


@scenario_app.command("run")
def run(
    files: list[str] = typer.Argument(..., metavar="FILE...", help="Scenario files or glob patterns."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Print only each file's result, not every step."),
    records: bool = typer.Option(
        False, "--records", help="Print each step as its event or option record reads (every field), not in words."
    ),
    log_out: Path | None = typer.Option(
        None,
        "--out",
        help="Where each scenario's game is written as a log: the log file for one scenario, a folder (created "
        "when missing) for several or when it is one (default: ANNALS_HOME/scenarios, NAME.log). A re-run replaces "
        "its own earlier log and says so; any other file there is never written over.",
    ),
) -> None:
    """Play each scenario, print every step in words (cards by name and label; each option with the decision line
    that picks it), check its expectations, and write its game as a log (annals verify and annals show read it);
    exit 1 at the first failure.

    Example: annals scenario new morana --output r.toml && annals scenario run r.toml --out r.log
    """
    from annals.queries.workbench.scenario import load_scenario, log_in, run_scenario

    with reported():
        paths = expand(files)
        as_file = log_out is not None and len(paths) == 1 and not log_out.is_dir()
        folder = None if as_file else output_folder(log_out or annals_home() / "scenarios", what="--out")
        failed = ""
        for path in paths:
            sc = load_scenario(path)
            outcome = run_scenario(sc, log_out if folder is None else log_in(folder, sc), records=records)
            for line in outcome.lines if not quiet else [outcome.lines[0], f"  log: {outcome.log}"]:
                out.print(line, markup=False, highlight=False)
            if outcome.failed and not failed:
                failed = outcome.failed
        if failed:
            fail(failed, hint="the scenario's position, decisions or expectation are not what the rules do")
        out.print(f"{plural(len(paths), 'scenario')}: every expectation holds", markup=False)


@scenario_app.command("new")
def new(
    ruleset: str | None = typer.Argument(None, metavar="[RULESET]", help="A starter scenario for miras9 or morana."),
    source: Path | None = typer.Option(None, "--from", help="A game's log to take the position from."),
    at: str = typer.Option("", "--at", help="The coordinate of the position in that game (e.g. turn:3/commit)."),
    output: Path = typer.Option(..., "--output", "-o", help="The scenario file to write (never overwritten)."),
) -> None:
    """Write a scenario file: a starter for a ruleset, or the position of a real game at a coordinate.

    Example: annals scenario new miras9 --output ruling.toml
    """
    from annals.queries.workbench.scenario import scenario_from_log, template

    with reported():
        if source is not None:
            if not at:
                fail("--from needs --at COORD", hint="say where in the game, e.g. --at turn:3/commit", code=2)
            text = scenario_from_log(source, at)
        elif ruleset is not None:
            text = template(ruleset)
        else:
            fail("give a RULESET or --from LOG --at COORD", hint="e.g. annals scenario new miras9 -o r.toml", code=2)
        if output.exists():
            fail(f"{output} exists", hint="give another --output; a scenario file is never written over")
        output.write_text(text)
        out.print(f"wrote {output}", markup=False)
