"""The typer application and what its commands share: error reporting and console output.

Exit codes: 0 done; 2 a usage error (typer's own: a missing argument, an unknown option, a value of the wrong
type; annals' ``BadArgumentError``: a name annals does not know, a coordinate that does not parse; and a file or
folder named on the command line that is missing or cannot be read, as click's ``exists=True`` has it); 1 an error
found while running (a damaged log, a file the command found missing itself, such as the default database, a game
that cannot be played). Every error is one line on stderr, ``error: WHAT; HOW TO FIX IT``, never a traceback.
"""

from __future__ import annotations

import errno
import os
import re
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, NoReturn

import typer
import typer.core
from typer._click import core as click_core
from typer._click import exceptions as click_exceptions

from annals.cli import coerce
from annals.schemas import screen
from annals.schemas.errors import AnnalsError, BadArgumentError, OutOfRangeError, one_line
from annals.schemas.files import os_error

# The order of a user's journey through annals, which `annals --help` lists: make games, look at them, check them,
# analyse them, pick a position out and play on; then the rest in the order they were registered.
COMMAND_ORDER = (
    "demo", "simulate", "play", "show", "verify", "ingest", "tables", "report", "sql", "position", "continue",
    "cards", "card", "deck", "event", "key", "judge", "resume",
)  # fmt: skip


EXAMPLE = re.compile(r"\s*\bExample: ")


def examples_on_their_own_lines(help_text: str) -> str:
    """The help with each ``Example:`` on a line of its own, kept as written: click rewraps a paragraph's lines
    into one, which ran two examples together, unless the paragraph starts with a ``\\b`` line."""
    paragraphs = []
    for paragraph in help_text.split("\n\n"):
        found = EXAMPLE.search(paragraph)
        if found is None or paragraph.startswith("\b"):
            paragraphs.append(paragraph)
            continue
        examples = [f"Example: {line.strip()}" for line in EXAMPLE.split(paragraph[found.start() :]) if line.strip()]
        before = paragraph[: found.start()].strip()
        paragraphs.extend(([before] if before else []) + ["\b\n" + "\n".join(examples)])
    return "\n\n".join(paragraphs)


def _commands(group: typer.core.TyperGroup) -> Iterator[click_core.Command]:
    for command in group.commands.values():
        yield command
        if isinstance(command, typer.core.TyperGroup):
            yield from _commands(command)


def closed_pipe() -> NoReturn:
    """The reader went away (``annals show ... | head``): not an error. Later writes, the interpreter's last flush
    among them, go to /dev/null, and the command ends with 0, printing nothing more."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    raise SystemExit(0)


class _Argument(typer.core.TyperArgument):
    """An argument in the usage line as click writes it (``annals card [OPTIONS] NAME``): plain when required,
    ``[NAME]`` when not, ``LOG...`` for many, nothing when hidden. Typer wrote ``{name}`` and ``[[RESULT]]``."""

    def get_usage_pieces(self, ctx: Any) -> list[str]:
        if self.hidden:
            return []
        name = self.display_name_raw + ("..." if self.nargs != 1 else "")
        return [name if self.required else f"[{name}]"]


def usual_arguments(command: click_core.Command) -> None:
    """Each of ``command``'s arguments named upper case, as the usage line and a usage error say it (``Missing
    argument 'NAME'``; typer said ``'name'``); a metavar written ``[RESULT]`` or ``LOG...`` loses what the usage
    line adds itself. A metavar of literal words (``start|end``) stays as written."""
    for param in command.params:
        if isinstance(param, typer.core.TyperArgument):
            written = param.metavar
            bare = (written or "").strip("[]").removesuffix("...")
            param.metavar = bare if bare else (param.name or "ARG").upper()
            param.__class__ = _Argument


class AnnalsGroup(typer.core.TyperGroup):
    """Commands listed in ``COMMAND_ORDER``; usage errors printed as one line (typer prints a usage block); every
    command's examples each on a line of its own in ``--help``; a closed output pipe ends a command quietly; plain
    values coerced without pydantic (``cli.coerce``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for command in [self, *_commands(self)]:
            usual_arguments(command)
            if command.help:
                command.help = examples_on_their_own_lines(command.help)

    def list_commands(self, ctx: Any) -> list[str]:
        names = list(self.commands)
        return sorted(names, key=lambda n: COMMAND_ORDER.index(n) if n in COMMAND_ORDER else len(COMMAND_ORDER))

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        windows_expand_args: bool = True,
        **extra: Any,
    ) -> Any:
        standalone = standalone_mode
        try:
            code = super().main(args, prog_name, complete_var, False, windows_expand_args, **extra)
        except BrokenPipeError:
            closed_pipe()
        except click_exceptions.NoArgsIsHelpError as exc:
            exc.show()
            code = exc.exit_code
        except click_exceptions.ClickException as exc:
            if not standalone:
                raise
            ctx = getattr(exc, "ctx", None)
            where = f"; see '{ctx.command_path} --help'" if ctx is not None else ""
            message = one_line(exc.format_message()).replace(": Value error, ", ": ").rstrip(".")
            err.print(f"error: {message}{where}", markup=False)
            code = exc.exit_code
        except typer.Abort:
            if not standalone:
                raise
            err.print("error: aborted", markup=False)
            code = 1
        if not standalone:
            return code
        sys.exit(code if isinstance(code, int) else 0)


coerce.install()
app = typer.Typer(
    name="annals",
    cls=AnnalsGroup,
    help="Record, replay and analyse games of The Miras 9 TCG and MORANA.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


if TYPE_CHECKING:
    from rich.console import Console


# Text rich writes as it is (soft wrap, no highlighting, no markup): printable ASCII and newlines, with no
# ``:name:`` that rich could read as an emoji code.
PLAIN_TEXT = re.compile(r"[ -~\n]*")
EMOJI_LIKE = re.compile(r":\S*?:")


class _LazyConsole:
    """A rich ``Console`` made at its first use: rich costs ~20-30 ms to import, which ``--version``, ``--help``,
    every usage error and a report's sample line would pay for nothing. Wrapped at words to a terminal's width, lines
    whole elsewhere (``schemas.screen``); so plain text printed with ``markup=False`` to a file or pipe is written as
    rich would write it (``PLAIN_TEXT``) without importing rich."""

    def __init__(self, stderr: bool) -> None:
        self._stderr = stderr
        self._console: Console | None = None

    def _stream(self) -> Any:
        return sys.stderr if self._stderr else sys.stdout

    def print(self, *objects: Any, **kwargs: Any) -> None:
        plain = not screen.is_terminal(self._stream()) and _plain(objects, kwargs)  # a terminal wraps: rich does
        if self._console is None and plain:
            try:
                typer.echo(objects[0], err=self._stderr)
            except BrokenPipeError:  # as the console's own: quiet on stdout; click ends with 1 on stderr, as rich
                if self._stderr:
                    raise
                closed_pipe()
            return
        self.__getattr__("print")(*objects, **kwargs)

    def __getattr__(self, name: str) -> Any:
        if self._console is None:
            from rich.console import Console

            class _Console(Console):
                def on_broken_pipe(self) -> None:  # rich's own ends with 1 and a closed pipe is no error
                    closed_pipe()

            kind = Console if self._stderr else _Console  # a closed pipe on stdout ends quietly
            stream = self._stream()
            self._console = kind(
                stderr=self._stderr,
                highlight=False,
                width=screen.fixed_width(stream),
                soft_wrap=not screen.is_terminal(stream),
            )
        return getattr(self._console, name)


def _plain(objects: tuple[Any, ...], kwargs: dict[str, Any]) -> bool:
    """Whether ``print(*objects, **kwargs)`` is one plain string rich would write unchanged, then a newline."""
    if kwargs != {"markup": False} or len(objects) != 1 or type(objects[0]) is not str:
        return False
    text: str = objects[0]
    return PLAIN_TEXT.fullmatch(text) is not None and EMOJI_LIKE.search(text) is None


if TYPE_CHECKING:
    out: Console
    err: Console
else:
    out = _LazyConsole(stderr=False)
    err = _LazyConsole(stderr=True)


def fail(message: str, *, hint: str = "", code: int = 1) -> NoReturn:
    """One line on stderr, ``error: MESSAGE; HINT``, and exit ``code``."""
    text = one_line(message) + (f"; {hint}" if hint else "")
    err.print(f"error: {text}", markup=False)
    raise typer.Exit(code)


def see_help() -> str:
    """``see 'annals simulate --help'`` for the command running, as a usage error caught by typer ends."""
    from typer._click.globals import get_current_context

    ctx = get_current_context(silent=True)
    return f"see '{ctx.command_path} --help'" if ctx is not None else "see the command's --help"


MISSING_OR_UNREADABLE = (errno.ENOENT, errno.EACCES, errno.EPERM, errno.ENOTDIR, errno.ELOOP)


def named_on_the_command_line(exc: Exception) -> bool:
    """Whether ``exc`` says that a path typed as an argument or option of the running command is missing or cannot
    be read (``AnnalsError.about``, or the operating system's error on it): a usage error (exit 2). A file the
    command looked for itself (in a folder it was given, or a default) is found missing while running (exit 1)."""
    path = exc.file if isinstance(exc, AnnalsError) else None
    if path is None and isinstance(exc, OSError) and not isinstance(exc, AnnalsError):
        unreadable = isinstance(exc, FileNotFoundError) or exc.errno in MISSING_OR_UNREADABLE
        path = exc.filename if unreadable else None
    if path is None:
        return False
    from typer._click.globals import get_current_context

    ctx = get_current_context(silent=True)
    typed: set[str] = set()
    while ctx is not None:
        for value in ctx.params.values():
            for item in value if isinstance(value, list | tuple) else [value]:
                if isinstance(item, str | os.PathLike):
                    typed.add(os.fspath(item))
        ctx = ctx.parent
    return os.fspath(path) in typed


@contextmanager
def reported() -> Iterator[None]:
    """Turn annals' named errors, and the operating system's, into one line on stderr and an exit code (2 for a
    ``BadArgumentError``, and an ``OutOfRangeError`` also says where to read the command's help; 2 for a path typed
    on the command line that is missing or unreadable; else 1); never a traceback."""
    try:
        yield
    except OutOfRangeError as exc:
        fail(str(exc), hint=see_help(), code=2)
    except BadArgumentError as exc:
        fail(str(exc), code=2)
    except BrokenPipeError:  # not an error: the reader has what it wanted (AnnalsGroup.main)
        raise
    except (AnnalsError, OSError) as exc:  # OSError: a full disk, a read-only file system, no permission
        code = 2 if named_on_the_command_line(exc) else 1
        if isinstance(exc, AnnalsError):
            fail(str(exc), code=code)
        if isinstance(exc, FileNotFoundError):
            missing = exc.filename if exc.filename is not None else (exc.args[0] if exc.args else "?")
            fail(f"no such file or folder: {missing}", hint="check the path", code=code)
        fail(str(os_error(exc)), code=code)
    except Exception as exc:
        duckdb = sys.modules.get("duckdb")  # not imported here: the commands that open a database import it
        if duckdb is None or not isinstance(exc, duckdb.Error):
            raise
        fail(f"the database refused: {exc}", hint="check --db names an annals database")
