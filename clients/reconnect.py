"""How long ``annals join`` keeps trying to reach a server that stopped answering, and what it says meanwhile.

A person at a club table loses the server when the wifi drops (20 s is common, a laptop's reconnection and new
address can take a minute) or when the organiser restarts ``annals serve`` (the game waits in its log, and the
same token takes the seat again). So a connection lost after the table was reached is tried again for
``RECONNECT_S`` (two minutes, ``annals join --reconnect-for``): it used to give up after five tries, about 9 s.
An address never reached is more likely mistyped, or its server not started yet: ``FIRST_S``. Either way, giving
up (or Ctrl-C while waiting) prints the exact command that joins again, the same link and token, and ends with
``JoinError`` (exit 1), never a traceback.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import NoReturn

from rich.console import Console
from websockets.exceptions import ConnectionClosed
from websockets.frames import CloseCode

from annals.engine.names import RECONNECT_S
from annals.schemas import screen
from annals.schemas.errors import AnnalsError

FIRST_S = 10.0  # an address never reached yet
# The socket's keepalive (websockets' own ping_interval/ping_timeout): a ping every PING_EVERY_S, the server gone
# when no pong comes within PING_WAIT_S; then up to CLOSE_WAIT_S for the closing handshake a silent server never
# answers. A person thinking at a prompt hears of a dropped connection within their sum, 25 s, not at their answer.
PING_EVERY_S = 10.0
PING_WAIT_S = 10.0
CLOSE_WAIT_S = 5.0
STEP_S = 3.0  # the longest wait between two tries: a table back is seen within 3 s
SAY_EVERY_S = 30.0  # "still trying", so a quiet terminal is not taken for a stuck one


class JoinError(AnnalsError, ConnectionError):
    """The table refused the token, or cannot be reached."""


def said_of(exc: BaseException) -> str:
    """Why a try failed, in words: ``connection refused``, not ``[Errno 111] Connection refused``."""
    if isinstance(exc, ConnectionClosed):  # not "received 1012 (service restart); then sent 1012 ..."
        code = exc.rcvd.code if exc.rcvd is not None else None
        if code is None and exc.sent is not None and exc.sent.code == CloseCode.INTERNAL_ERROR:
            return f"the server stopped answering: no reply to a keepalive ping in {PING_WAIT_S:.0f} s"
        return {1012: "the server is stopping or restarting", 1001: "the server went away"}.get(
            code or 0, "the connection closed"
        )
    reason = getattr(exc, "reason", None)  # urllib's URLError wraps the socket's error
    if isinstance(reason, BaseException):
        exc = reason
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror.lower()
    return str(reason or exc) or type(exc).__name__


class Patience:
    """Tries to reach one server: ``reached()`` after each success, ``wait(why)`` after each failure (it sleeps
    before the next try, or gives up with ``JoinError`` once the time is spent)."""

    def __init__(
        self,
        console: Console,
        where: str,
        again: str,
        *,
        reconnect_s: float = RECONNECT_S,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.console, self.where, self.again = console, where, again
        self.reconnect_s, self.sleep, self.clock = reconnect_s, sleep, clock
        self.ever = False  # reached at least once: the link and token are good
        self.lost_at: float | None = None
        self.said_at = 0.0
        self.tries = 0

    def reached(self) -> None:
        if self.lost_at is not None and self.ever:
            self.console.print(f"reached {self.where} again", markup=False)
        self.ever, self.lost_at, self.tries = True, None, 0

    def budget(self) -> float:
        return self.reconnect_s if self.ever else min(FIRST_S, self.reconnect_s)

    def wait(self, why: str) -> None:
        now = self.clock()
        budget = self.budget()
        if self.lost_at is None:
            self.lost_at, self.said_at = now, now
            lost = "lost the connection to" if self.ever else "cannot reach"
            self.console.print(f"{lost} {self.where} ({why}); trying again for up to {budget:.0f} s (Ctrl-C stops)",
                               markup=False)  # fmt: skip
        spent = now - self.lost_at
        if spent >= budget:
            self._give_up(f"gave up reaching {self.where} after {spent:.0f} s ({why})")
        if now - self.said_at >= SAY_EVERY_S:
            self.said_at = now
            self.console.print(f"still trying to reach {self.where}: {budget - spent:.0f} s left", markup=False)
        self.tries += 1
        try:
            self.sleep(min(0.25 * 2**self.tries, STEP_S, budget - spent))
        except KeyboardInterrupt:
            self._give_up(f"stopped trying to reach {self.where} ({why})")

    def _give_up(self, said: str) -> NoReturn:
        screen.command(self.console, "when it is back, join again with: ", self.again)
        hint = "; is annals serve running there, and the address right?" if not self.ever else ""
        raise JoinError(said + hint) from None
