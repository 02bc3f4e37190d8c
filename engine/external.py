"""A child program spoken to in lines over its stdin and stdout, with every wait and every line bounded.

``ChildProgram`` starts the program in a process group of its own and ends it whatever happens: ``close()``
closes its stdin (end of input), waits ``EXIT_GRACE`` seconds, then sends SIGTERM and at last SIGKILL to the
whole group. On Linux the child also gets SIGKILL if annals itself dies (``PR_SET_PDEATHSIG``, so even a
``kill -9`` of annals leaves no player running), and every child still open when the interpreter exits is ended by
an ``atexit`` hook. Writes wait at most ``timeout`` seconds for the program to read (a program that stops reading
would otherwise block annals once the pipe is full); a line is read with a deadline and at most ``max_line``
bytes, so a program that floods its output costs annals that much memory and no more. Errors quote a prefix.
Its stderr goes to a temporary file, so that when it closes a pipe or exits early the error can quote its last line.
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import os
import select
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import weakref
from typing import Final

from annals.schemas.errors import AnnalsError

MAX_LINE: Final = 1 << 20  # 1 MiB: far above any answer ({"choose": N}), far below a memory problem
EXIT_GRACE: Final = 2.0  # seconds a program gets to exit after its input ends, before SIGTERM
KILL_GRACE: Final = 1.0  # seconds after SIGTERM before SIGKILL
QUOTE: Final = 80  # characters of a bad line quoted in an error
STDERR_TAIL: Final = 4096  # bytes of the end of a program's stderr searched for its last line


class ExternalProgramError(AnnalsError, RuntimeError):
    """An external program could not be started, or broke the protocol (closed a pipe, flooded, exited)."""


class ProgramTimeout(ExternalProgramError):
    """The program did not answer (or did not read its input) within the time limit."""


def quoted(data: bytes) -> str:
    """A bad line as the error shows it: its first ``QUOTE`` characters, and its length when longer."""
    text = data.decode("utf-8", "replace").rstrip("\r\n")
    if len(text) <= QUOTE:
        return repr(text)
    return f"{text[:QUOTE]!r}... ({len(data):,} bytes)"


def parse_command(command: str) -> list[str]:
    """The command's words, checked before anything starts: not empty, balanced quotes, an executable program."""
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        raise ExternalProgramError(
            f'external command {command!r} cannot be read ({exc}); close the quote, e.g. external:"python bot.py"'
        ) from None
    if not argv:
        raise ExternalProgramError(
            "external: needs a command after the colon; give one, e.g. external:python my_bot.py"
        )
    program = argv[0]
    if shutil.which(program) is None:
        where = "does not exist" if os.sep in program and not os.path.exists(program) else "is not found on PATH"
        if os.path.isdir(program):
            where = "is a folder"
        elif os.path.exists(program) or shutil.which(program, mode=os.F_OK) is not None:
            where = "is not executable"
        raise ExternalProgramError(
            f"external program {program!r} {where}; give an executable (chmod +x) or run it through its "
            f"interpreter, e.g. external:python {program}"
        )
    return argv


def _die_with_parent() -> None:  # pragma: no cover - runs in the child between fork and exec
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


_open: weakref.WeakSet[ChildProgram] = weakref.WeakSet()


@atexit.register
def _end_all() -> None:
    for child in list(_open):
        child.close(grace=0.0)


class ChildProgram:
    """One running program; see the module docstring."""

    def __init__(self, argv: list[str], name: str, *, timeout: float, max_line: int = MAX_LINE):
        self.name = name
        self.timeout = timeout
        self.max_line = max_line
        self._stderr = tempfile.TemporaryFile()  # noqa: SIM115 - closed by close(); quoted when the program exits
        try:
            self.proc = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self._stderr,
                start_new_session=True,  # its own process group: ended as a whole, not hit by the terminal's ^C
                preexec_fn=_die_with_parent if sys.platform == "linux" else None,
            )
        except OSError as exc:
            self._stderr.close()
            raise ExternalProgramError(
                f"external program {name!r} could not start: {exc.strerror}; check the program's name and path"
            ) from None
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self._in = self.proc.stdin.fileno()
        self._out = self.proc.stdout.fileno()
        os.set_blocking(self._in, False)
        self._buffer = bytearray()
        self._closed = False
        _open.add(self)

    def last_stderr_line(self) -> str:
        """The last non-empty line the program wrote to its stderr (read from the end: bounded), or ""."""
        try:
            size = os.fstat(self._stderr.fileno()).st_size
            self._stderr.seek(max(0, size - STDERR_TAIL))
            tail = self._stderr.read(STDERR_TAIL).decode("utf-8", "replace")
        except (OSError, ValueError):
            return ""
        lines = [line.strip() for line in tail.splitlines() if line.strip()]
        return lines[-1][:200] if lines else ""

    def _exited(self, what: str, at: str) -> ExternalProgramError:
        try:  # a program that closed a pipe is usually exiting: a moment for its status
            code: int | None = self.proc.wait(timeout=0.5)
        except subprocess.TimeoutExpired:
            code = None
        status = "is still running" if code is None else f"exited with status {code}"
        where = f" at {at!r}" if at else ""
        said = self.last_stderr_line()
        last = f"; its last stderr line: {said}" if said else " (nothing on stderr)"
        return ExternalProgramError(f"external program {self.name!r} {what} ({status}){where}; it must keep both "
                                    f"open until annals closes its input at the end of the game{last}")  # fmt: skip

    def send(self, line: bytes, timeout: float | None = None, *, at: str = "") -> None:
        """Write one line, waiting at most ``timeout`` seconds for the program to make room (``at``: the decision
        it is for, named in errors)."""
        view = memoryview(line)
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        while view:
            try:
                written = os.write(self._in, view)
            except BlockingIOError:
                left = deadline - time.monotonic()
                if left <= 0 or not select.select([], [self._in], [], left)[1]:
                    raise ProgramTimeout(
                        f"external program {self.name!r} stopped reading its input for {self.timeout:g} s"
                    ) from None
                continue
            except (BrokenPipeError, ConnectionResetError):
                raise self._exited("closed its input (stdin)", at) from None
            view = view[written:]

    def read_line(self, timeout: float | None = None, *, at: str = "") -> bytes:
        """The next line (without its newline), within ``timeout`` seconds and ``max_line`` bytes."""
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        while True:
            end = self._buffer.find(b"\n")
            if end >= 0:
                line = bytes(self._buffer[:end])
                del self._buffer[: end + 1]
                return line
            if len(self._buffer) > self.max_line:
                raise ExternalProgramError(
                    f"external program {self.name!r} wrote a line longer than {self.max_line:,} bytes: "
                    f"{quoted(bytes(self._buffer[:200]))}; answer with one short JSON line"
                )
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._out], [], [], left)[0]:
                raise ProgramTimeout(f"external program {self.name!r} did not answer within {self.timeout:g} s")
            chunk = os.read(self._out, 1 << 16)
            if not chunk:
                raise self._exited("closed its output (stdout) before answering", at)
            self._buffer += chunk

    def close(self, grace: float = EXIT_GRACE) -> int | None:
        """End the program: close its input, wait ``grace`` s, then SIGTERM and SIGKILL its process group."""
        if self._closed:
            return self.proc.returncode
        self._closed = True
        _open.discard(self)
        for stream in (self.proc.stdin, self.proc.stdout):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
        code: int | None = None
        for sig, wait in ((None, grace), (signal.SIGTERM, KILL_GRACE), (signal.SIGKILL, 5.0)):
            if sig is not None:
                self._signal(sig)
            try:
                code = self.proc.wait(timeout=wait)
                break
            except subprocess.TimeoutExpired:
                continue
        self._signal(signal.SIGKILL)  # anything the program started and left behind in its group
        self._stderr.close()
        return code

    def _signal(self, sig: int) -> None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, sig)
