"""How wide the person's screen is, for everything annals prints in words.

A terminal is used at its own width, read at every print (a window resized mid-game is followed; ``COLUMNS``
overrides it), and a line longer than that is wrapped between words. Output that is not a terminal (a pipe, a
file, a test) keeps each line whole, one line a record for ``grep``; what needs a width all the same (a table, the
board) gets ``COLUMNS``, else ``NOT_A_TERMINAL``.
"""

from __future__ import annotations

import os
import shutil
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.console import Console

NOT_A_TERMINAL = 100  # columns: wide enough for a standings row or the board, narrow enough to read


def is_terminal(stream: IO[str] | Any) -> bool:
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty()) if isatty is not None else False
    except ValueError:  # a closed stream
        return False


def columns() -> int:
    """``COLUMNS`` when set, else the terminal's width, else ``NOT_A_TERMINAL``: a table's width."""
    return shutil.get_terminal_size((NOT_A_TERMINAL, 24)).columns


def fixed_width(stream: IO[str] | Any) -> int | None:
    """The width a console writing to ``stream`` is fixed at: none for a terminal (its own, read at each print),
    ``COLUMNS`` or ``NOT_A_TERMINAL`` otherwise (rich alone would take 80, or the width of a terminal on stdin)."""
    if is_terminal(stream):
        return None
    given = os.environ.get("COLUMNS", "")
    return int(given) if given.isdigit() and int(given) > 0 else NOT_A_TERMINAL


def console(stream: IO[str] | Any, kind: type[Console] | None = None, **options: Any) -> Console:
    """A rich console writing to ``stream``: wrapped at words to a terminal's width, lines whole elsewhere."""
    from rich.console import Console

    return (kind or Console)(
        file=stream, width=fixed_width(stream), soft_wrap=not is_terminal(stream), highlight=False, **options
    )


def command(console: Console, lead: str, line: str, tail: str = "") -> None:
    """``lead``, a command for the person to copy (``line``) and ``tail`` as one line when it fits; on a terminal
    too narrow for it, the command on a line of its own, never wrapped (a copied command split over two lines runs
    as two), ``lead`` and ``tail`` wrapped at words around it."""
    from rich.cells import cell_len

    whole = f"{lead}{line}{tail}"
    if console.soft_wrap or cell_len(whole) <= console.width:
        console.print(whole, markup=False)
        return
    if lead.strip():
        console.print(lead.rstrip(), markup=False)
    console.print(line, markup=False, soft_wrap=True)  # longer than the screen: the terminal folds it, one line
    if tail.strip():
        console.print(tail.strip(), markup=False)
