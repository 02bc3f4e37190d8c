"""A command annals prints for a person to copy stays on one line on a narrow terminal (``schemas.screen.command``):
wrapped at words with the sentence around it, a copied ``annals key export PATH`` split over two lines ran as two."""

from __future__ import annotations

import io
import shlex
from pathlib import Path

from rich.console import Console

from annals.schemas import screen
from tests.test_screen import _in_a_terminal

LEAD = "fingerprint 3f2a 9c01 77de; export the public key with: "


def _terminal(width: int) -> tuple[Console, io.StringIO]:
    """A console that wraps at words as annals' does at a terminal ``width`` columns wide."""
    text = io.StringIO()
    return Console(file=text, width=width, soft_wrap=False, highlight=False, color_system=None), text


def test_a_command_longer_than_the_line_gets_a_line_of_its_own_unbroken() -> None:
    line = "annals key export '/home/ann/events/the thursday club at the old mill/event.key'"
    console, text = _terminal(60)
    screen.command(console, LEAD, line, " (keep the private key)")
    lines = text.getvalue().splitlines()
    assert line in lines  # whole, on its own line, longer than the screen: the terminal folds it, one line to copy
    assert lines[0] == "fingerprint 3f2a 9c01 77de; export the public key with:"
    assert lines[-1] == "(keep the private key)" and all(len(x) <= 60 for x in lines if x != line)


def test_a_line_that_fits_is_one_line_and_a_pipe_keeps_every_line_whole() -> None:
    console, text = _terminal(120)
    screen.command(console, LEAD, "annals key export k.key")
    assert text.getvalue() == f"{LEAD}annals key export k.key\n"
    piped = io.StringIO()
    screen.command(screen.console(piped), LEAD * 3, "annals key export k.key")
    assert piped.getvalue() == f"{LEAD * 3}annals key export k.key\n"


def test_annals_key_new_at_60_columns_prints_the_export_command_whole(tmp_path: Path) -> None:
    """At a pseudo-terminal 60 columns wide (as ``script -qc`` gives): the line printed is the command, whole."""
    folder = tmp_path / "a folder with a long name for the spring open"
    shown = _in_a_terminal(["key", "new", str(folder)], 60)
    printed = [line for line in shown.splitlines() if line.startswith("annals key export")]
    assert printed and shlex.split(printed[0]) == ["annals", "key", "export", str(folder / "event.key")], shown


def test_the_demos_commands_and_pages_stay_whole_at_60_columns(tmp_path: Path) -> None:
    """``annals demo`` in a folder with a space, at a terminal 60 columns wide: each command it suggests is one line
    that the shell reads as the command (its --db the database), and each page to open is one line naming a file."""
    folder = tmp_path / "my demo"
    shown = _in_a_terminal(["demo", "--dir", str(folder), "--games", "20"], 60)
    lines = shown.splitlines()
    suggested = [shlex.split(line) for line in lines if line.startswith("annals ")]
    assert len(suggested) >= 5, shown  # the five to try, and "all of them: annals report ..." of a report cut short
    assert all(words[words.index("--db") + 1] == str(folder / "annals.duckdb") for words in suggested)
    pages = lines[lines.index("charts and replay pages (open in a browser):") + 1 :]
    opened = [Path(line.strip()) for line in pages if line.startswith(f"  {folder}")]
    assert opened and all(path.is_file() for path in opened)
