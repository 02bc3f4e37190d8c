"""``annals replay``: recorded games re-run under changed card text (``engine.errata``)."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

import typer

from annals.cli.app import app, out, reported
from annals.schemas.files import expand


def _logs(sources: list[str]) -> list[Path]:
    """Files and glob patterns as ``expand`` reads them; a folder stands for the logs in it."""
    paths: list[Path] = []
    for path in expand(sources):
        paths.extend(sorted(path.glob("*.log")) if path.is_dir() else [path])
    return paths


@app.command()
def replay(
    logs: list[str] = typer.Argument(..., metavar="LOG...", help="Log files, glob patterns or folders of logs."),
    cards: Path = typer.Option(..., "--cards", help="A TOML file of changed (or added) card definitions."),
    output: Literal["text", "json"] = typer.Option("text", "--format", help="text, or JSON lines then the summary."),
) -> None:
    """Re-run each game's decisions under changed card text: where it first differs, and its outcome (unchanged,
    same result, result changed, illegal: a recorded decision no longer legal, off log); then a summary.

    Example: annals simulate miras9 -n 4 --out season && printf '[[cards]]\\nid = "char-raider"\\nname = "Raider"\\ntype = "unit"\\ntraits = ["character"]\\ncost = 2\\natk = 4\\ngrit = 2\\necho = 1\\n' > errata.toml && annals replay season --cards errata.toml
    """  # noqa: E501
    import msgspec

    from annals.engine.errata import replay_logs, summarize
    from annals.engine.registry import load_cards
    from annals.schemas.logfile import read_log

    with reported():
        paths = _logs(logs)
        ruleset = read_log(paths[0]).header.ruleset if paths else "miras9"
        changed = load_cards(ruleset, cards)
        reports = replay_logs(paths, changed)
        for report in reports:
            line = msgspec.json.encode(report).decode() if output == "json" else report.line()
            out.print(line, markup=False, highlight=False, soft_wrap=output == "json" or None)
        summary = summarize(reports)
        out.print(msgspec.json.encode(summary).decode() if output == "json" else summary.line(), markup=False,
                  soft_wrap=output == "json" or None)  # fmt: skip
