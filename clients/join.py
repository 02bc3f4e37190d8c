"""``annals join URL --token T``: the terminal client over WebSocket (the token may be in the URL instead).

It connects to a table's socket with the seat's token, shows what the table sends (``clients.terminal``) and
answers each decision the person makes. Ctrl-C while waiting asks whether to leave (a concession); ``quit`` at
the prompt leaves the table without conceding: the game waits for the seat, and the command printed takes it
again (the server's table waits for a seat's answer as long as its clock allows: for ever without one). A dropped
connection is tried again with the same token for as long as ``clients.reconnect`` allows (two minutes: a club's
wifi drops for longer than the 9 s it once gave): the table sends the seat's view again. Giving up says so and
prints the command that joins again. The socket's keepalive pings find a server gone silent, and a connection
closed while the person thinks at a prompt ends the prompt at once (``Dropped``): they hear of it then, not when
they answer into a dead socket, and the question comes back once the table is reached again.
"""

from __future__ import annotations

import contextlib
import logging
import os
import select
import signal
import sys
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit, urlunsplit

from rich.console import Console
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.protocol import State
from websockets.sync.client import ClientConnection, connect

from annals.clients.reconnect import CLOSE_WAIT_S, PING_EVERY_S, PING_WAIT_S, JoinError, Patience, said_of
from annals.clients.terminal import TerminalUI
from annals.engine.names import RECONNECT_S
from annals.engine.players import SeatLeft
from annals.schemas import protocol as p
from annals.schemas import screen
from annals.schemas.commandline import quoted

__all__ = ["Dropped", "JoinError", "join", "read_line", "seat_token", "socket_url"]

LEAVE_ONLINE = (
    "leaving closes your connection, not the game: the table waits for your answer (your clock runs, if it has "
    "one), the same annals join takes your seat again, and concede gives the game up"
)


def socket_url(url: str, token: str, *, boards: bool = True, settings: p.Settings | None = None) -> str:
    """``http(s)://HOST/play/ID`` or ``ws(s)://HOST/ws/ID`` as the seat's socket address with its token (and the
    seat's settings, which then hold from its first question: ruling R-CORE-8)."""
    how = "give http://HOST:PORT/play/ID or ws://HOST:PORT/ws/ID"
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - read to check it: a port past 65535 or a torn [IPv6] raises ValueError
    except ValueError as exc:
        raise JoinError(f"{url!r} is not a table's address ({exc}); {how}") from None
    scheme = {"http": "ws", "https": "wss"}.get(parts.scheme, parts.scheme)
    if scheme not in ("ws", "wss"):
        raise JoinError(f"{url!r} is not a table's address; {how}")
    path = parts.path.replace("/play/", "/ws/", 1)
    said = {} if settings is None else {"automatic": int(settings.automatic), "auto_pass": int(settings.auto_pass),
                                        "stops": ",".join(settings.stops)}  # fmt: skip
    query = urlencode({"token": token, **({} if boards else {"boards": "0"}), **said})
    return urlunsplit((scheme, parts.netloc, path, query, ""))


def _query_token(url: str) -> str:
    try:
        return parse_qs(urlsplit(url).query).get("token", [""])[0]
    except ValueError:
        return ""


def seat_token(url: str, token: str) -> str:
    """The seat's token: ``--token``, else the one in the address as ``annals serve`` prints it for the browser
    (``/play/ID?token=T``: pasted into ``annals join`` it was refused for the missing ``--token``)."""
    if token:
        return token
    given = _query_token(url)
    if not given:
        raise JoinError(f"no token for {url!r}: give the seat's token with --token TOKEN, or the address annals serve "
                        "printed for the seat (it ends ?token=...); an event's player: the whole link the organiser "
                        "gave (http://HOST:PORT/me?token=...)")  # fmt: skip
    return given


def _main_thread_takes_ctrl_c() -> contextlib.AbstractContextManager[None]:
    """The socket's reader thread starts with Ctrl-C (SIGINT) blocked, so the kernel delivers it to the main
    thread, where it interrupts the prompt (a signal that lands on another thread leaves ``input()`` waiting)."""
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    return contextlib.nullcontext()


def _unblock_ctrl_c() -> None:
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


class Dropped(Exception):
    """The table's connection closed while the person was at a prompt (``read_line`` gives up waiting for them)."""


def _open() -> bool:
    return True


# Whether the connection the prompt answers is still open: set by ``join`` while it holds one.
_connected: ContextVar[Callable[[], bool]] = ContextVar("annals_join_connected", default=_open)


@contextlib.contextmanager
def _watched(ws: ClientConnection) -> Iterator[None]:
    token = _connected.set(lambda: ws.state is State.OPEN)
    try:
        yield
    finally:
        _connected.reset(token)


# The socket library's own log (a keepalive ping unanswered, a closing handshake timed out) is no one's to read at
# the terminal: it printed a traceback under the prompt. What happened is said in words (``said_of``) instead. The
# whole "websockets" logger, as its keepalive thread does not always log through the logger given to ``connect``.
_SOCKET_LOG = logging.getLogger("websockets")
_SOCKET_LOG.addHandler(logging.NullHandler())
_SOCKET_LOG.propagate = False

_typed = bytearray()  # what was read from the terminal past the last whole line: never dropped


def read_line(prompt: str) -> str:
    """``input()`` that Ctrl-C always interrupts: it waits in short ``select`` calls, so Python runs its signal
    handler in the main thread even when the kernel delivered SIGINT to the socket's thread. It reads the file
    descriptor itself and keeps what follows a line for the next call: keys typed right after Ctrl-C, before the
    question it asks is printed, wait for it rather than vanish in a buffer ``select`` cannot see. Between two
    waits it looks at the table's connection: closed (the server stopped, a keepalive ping unanswered), it raises
    ``Dropped``, and what was typed stays for the question asked again."""
    sys.stdout.write(prompt)
    sys.stdout.flush()
    fd = sys.stdin.fileno()
    connected = _connected.get()
    while b"\n" not in _typed:
        if not connected():
            raise Dropped
        if not select.select([fd], [], [], 0.1)[0]:
            continue
        chunk = os.read(fd, 4096)
        if not chunk:
            if _typed:
                break
            raise EOFError
        _typed.extend(chunk)
    line, sep, rest = bytes(_typed).partition(b"\n")
    _typed[:] = rest
    return (line + sep).decode(errors="replace")


def join(
    url: str,
    token: str,
    read_line: Callable[[str], str],
    console: Console,
    *,
    again: str = "",
    reconnect_s: float = RECONNECT_S,
) -> p.GameOver | None:
    """Play the seat to the end of the game (or until the person leaves: None); returns the result. ``again`` is
    the command that takes the seat again, said to a person who leaves or when the table cannot be reached for
    ``reconnect_s`` seconds (by default ``annals join`` as given)."""
    sockets: list[Any] = []  # the socket of the moment: the person's new settings go to the table at once

    def send_settings(settings: p.Settings) -> None:
        if sockets:
            sockets[-1].send(p.encode(settings).decode())

    token = seat_token(url, token)
    socket_url(url, token)  # an address no table can have is refused at once, not tried again and again
    ui = TerminalUI(read_line, console, on_settings=send_settings, leaving=LEAVE_ONLINE)
    in_url = _query_token(url) == token  # not a substring test: a token "t" is "in" every http://... address
    again = again or f"annals join {quoted(url)}" + ("" if in_url else f" --token {quoted(token)}")
    patience = Patience(console, f"the table at {url.partition('?')[0]}", again, reconnect_s=reconnect_s)
    while ui.over is None:
        try:
            address = socket_url(url, token, settings=ui.settings)  # as they are now, after a reconnection too
            with (
                _main_thread_takes_ctrl_c(),
                # websockets' own keepalive: a server gone silent is found while the person thinks; the frames
                # that arrive meanwhile are all kept (max_queue=None), as a paused reader would miss the pong
                connect(
                    address,
                    open_timeout=10,
                    max_size=p.MAX_MESSAGE_BYTES * 64,
                    ping_interval=PING_EVERY_S,
                    ping_timeout=PING_WAIT_S,
                    close_timeout=CLOSE_WAIT_S,
                    max_queue=None,
                ) as ws,  # fmt: skip
                _watched(ws),
            ):
                _unblock_ctrl_c()
                sockets[:] = [ws]
                patience.reached()
                waiting: list[p.ServerMessage] = []
                while ui.over is None:
                    try:
                        if _play_one(ws, ui, waiting):
                            break
                    except SeatLeft:
                        screen.command(console, "you left the table; the game waits for you. Back to it: ", again)
                        return None  # the socket closes: the table sees the seat gone, not a concession
                    except Dropped:  # the question goes unanswered: what the table sent last is read, then tried again
                        console.print()
        except InvalidStatus as exc:
            _unblock_ctrl_c()
            raise JoinError(
                f"the table refused the connection ({exc.response.status_code}): wrong token or table"
            ) from None
        except (ConnectionClosed, OSError) as exc:
            _unblock_ctrl_c()
            patience.wait(said_of(exc))  # gives up with JoinError, the command to come back said
    return ui.over


def _play_one(ws: ClientConnection, ui: TerminalUI, waiting: list[p.ServerMessage]) -> bool:
    """The table's next message, shown, and the person's answer if it asks them; True once the table closes."""
    try:
        while not waiting:  # a frame holds one or more messages
            waiting[:] = p.decode_frame(ws.recv())
    except KeyboardInterrupt:
        if ui.ask_leave():
            ws.send(p.encode(p.Concede()).decode())
        return False
    message = waiting.pop(0)
    ui.handle(message)
    if type(message) is p.Decide and message.player == ui.seat:
        ws.send(p.encode(ui.prompt()).decode())
    return type(message) is p.Close
