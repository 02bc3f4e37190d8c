"""``annals join LINK``: a player's event link (``http://HOST:PORT/me?token=T``, as ``annals serve --event`` prints
it) played at the terminal, every game of their match in turn.

The link names no table: a match is several games, each at a table of its own opened when the one before ends. So
the player's page (``/api/me``) is asked which game is theirs now; that game is played (``clients.join.join``, the
same token opening their seat), then the page is asked again, until it says the match is over (its result is in
the event's record) or the person leaves. Before the round is paired, or between games, it waits and says so.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any
from urllib.error import HTTPError, URLError
from urllib.parse import parse_qs, quote, urlsplit
from urllib.request import urlopen

from rich.console import Console

from annals.clients.join import join
from annals.clients.reconnect import JoinError, Patience, said_of
from annals.engine.names import RECONNECT_S
from annals.schemas import protocol as p
from annals.schemas.commandline import quoted


class Unreachable(JoinError):
    """The event's server did not answer (not a refusal): tried again while ``Patience`` allows."""


OVER = ("finished", "paper", "failed")  # the desk's states of a match this terminal has nothing more to play in
POLL_S = 1.0


def player_link(url: str) -> tuple[str, str] | None:
    """``(base, token)`` of a player's event link ``http(s)://HOST:PORT/me?token=T``; None for another address."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or parts.path.rstrip("/") != "/me":
        return None
    return f"{parts.scheme}://{parts.netloc}", parse_qs(parts.query).get("token", [""])[0]


def ask(base: str, token: str) -> dict[str, Any]:
    """The player's page as JSON: their name, their match's state and the game to play now (``table``), if any."""
    try:
        with urlopen(f"{base}/api/me?token={quote(token)}", timeout=10) as response:
            return dict(json.loads(response.read()))
    except HTTPError as exc:
        try:
            said = json.loads(exc.read()).get("error", "")
        except ValueError:
            said = ""
        raise JoinError(
            f"the server refused the link ({exc.code}): {said or 'not a player link of its event'}"
        ) from None
    except (URLError, OSError, ValueError) as exc:
        raise Unreachable(said_of(exc)) from None


def follow(
    url: str,
    token: str,
    read_line: Callable[[str], str],
    console: Console,
    *,
    sleep: Callable[[float], None] = time.sleep,
    reconnect_s: float = RECONNECT_S,
) -> list[p.GameOver]:
    """Play every game of the player's match of the round under way; returns each game's result. It stops when the
    match is over, or when the person leaves a game (conceding it, or quit: the game waits for them). A server that
    stops answering is tried again for ``reconnect_s`` seconds (``clients.reconnect``), then the command to come
    back is printed."""
    again = f"annals join {quoted(url)}" + (f" --token {quoted(token)}" if token else "")  # for one who quits
    link = player_link(url)
    if link is None:
        raise JoinError(f"{url!r} is not a player's event link; give http://HOST:PORT/me?token=TOKEN")
    base, token = link[0], token or link[1]
    if not token:
        raise JoinError(f"{url} holds no token: give the whole link the organiser gave you (…/me?token=…)")
    played: set[str] = set()
    results: list[p.GameOver] = []
    waiting = ""
    patience = Patience(console, f"the event at {base}", again, reconnect_s=reconnect_s, sleep=sleep)
    while True:
        try:
            me = ask(base, token)
        except Unreachable as exc:
            patience.wait(str(exc))
            continue
        patience.reached()
        table = me.get("table")
        if table and table not in played:
            console.print(f"round {me['round']}, table {me['at']}, game {me['game']}: {me['name']} against "
                          f"{me['opponent']}", markup=False)  # fmt: skip
            over = join(f"{base}/play/{table}", token, read_line, console, again=again, reconnect_s=reconnect_s)
            played.add(table)
            if over is None:
                return results  # left the game
            results.append(over)
            console.print(f"game {me['game']}: {over.text}", markup=False)
            waiting = ""
            continue
        state, where = me.get("match"), f"round {me.get('round')}, table {me.get('at')}"
        if me.get("result") and (played or state in OVER):
            console.print(f"{where}: your match is over: {me['result']}", markup=False)
            return results
        if state in ("paper", "failed"):
            why = "is played on paper" if state == "paper" else "could not go on online"
            console.print(f"{where}: your match {why}: play it at the table and give its result to the desk",
                          markup=False)  # fmt: skip
            return results
        now = (
            "the next game of your match is being set up"
            if played
            else "no game of yours is waiting yet: waiting for the round's pairing or your table to open"
        )
        if now != waiting:
            console.print(f"{now} (Ctrl-C to stop waiting)", markup=False)
            waiting = now
        try:
            sleep(POLL_S)
        except KeyboardInterrupt:
            console.print("stopped waiting: run the same command again to play on", markup=False)
            return results
