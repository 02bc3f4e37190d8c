"""The typer application and what its commands share: error reporting and console output."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import NoReturn

import typer
from rich.console import Console

from annals.schemas.errors import AnnalsError
from annals.schemas.files import os_error

app = typer.Typer(
    name="annals",
    help="Record, replay and analyse games of The Miras 9 TCG and MORANA.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
out = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False, soft_wrap=True)


def fail(message: str, *, hint: str = "", code: int = 1) -> NoReturn:
    err.print(f"error: {message}", markup=False)
    if hint:
        err.print(f"hint: {hint}", markup=False)
    raise typer.Exit(code)


@contextmanager
def reported() -> Iterator[None]:
    """Turn annals' named errors into a one-line message and exit code 1 (no traceback)."""
    try:
        yield
    except AnnalsError as exc:
        fail(f"{type(exc).__name__}: {exc}")
    except FileNotFoundError as exc:
        missing = exc.filename if exc.filename is not None else (exc.args[0] if exc.args else "?")
        fail(f"no such file or folder: {missing}", hint="check the path")
    except OSError as exc:  # a full disk, a read-only file system, no permission: what failed and what to do
        fail(str(os_error(exc)))
