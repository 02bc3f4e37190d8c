"""The terminal client: a person plays one seat from protocol messages, locally or over WebSocket.

``TerminalUI`` reads the table's messages (``schemas.protocol``) and asks the person for each decision. At the
prompt: a number chooses that option (a choice that cannot be taken back, flagged ``confirm``, asks first at a
terminal);
``help``, ``board`` (the seat's view with card names, stats and counters), ``hand``, ``card NAME`` (a card's
text), ``log`` (the last events in words), ``options``. Ctrl-C asks whether to leave; leaving concedes, and the
table records it. A spectator (``annals join`` with the spectators' token) is shown the events and the board
as they reach it (the spectator view, held back by the table's delay). The same class serves ``annals play``
(``TerminalSeat``, in the same process) and ``annals join URL --token T`` (``clients.join``).
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Callable
from typing import IO, Any

from rich.console import Console
from rich.table import Table

from annals.schemas import protocol as p

HELP = """commands:
  N            choose option N (you are asked to confirm a choice that cannot be taken back)
  board        the board as you see it: cards by zone with their names, counters
  hand         your hand
  card NAME    a card's text (any card you can see; part of the name is enough)
  log [N]      the last N events in words (20 by default)
  options      the decision again
  help         this list
  Ctrl-C       leave the game (it counts as a concession)"""

LOG_KEPT = 500
_INSTANCE = re.compile(r"#(\d{4})\)")


class Leave(Exception):
    """The person chose to leave the game."""


class TerminalUI:
    def __init__(self, read_line: Callable[[str], str], console: Console, *, confirm: bool = True):
        self._read = read_line
        self.out = console
        self.confirming = confirm  # False for answers piped in (not a terminal): a script has no second thoughts
        self.hello: p.Hello | None = None
        self.board: p.Board | None = None
        self.decide: p.Decide | None = None
        self.over: p.GameOver | None = None
        self.log: deque[str] = deque(maxlen=LOG_KEPT)
        self._unseen: list[str] = []
        self.cards: dict[str, p.Card] = {}  # by lower-case name

    @property
    def seat(self) -> int:
        return self.hello.seat if self.hello is not None else -1

    def _learn(self, cards: list[p.Card]) -> None:
        for card in cards:
            self.cards.setdefault(card.name.lower(), card)

    def handle(self, message: p.ServerMessage) -> None:
        """Take one message from the table (prints only what the person must see at once)."""
        t = type(message)
        if t is p.Hello:
            assert isinstance(message, p.Hello)
            self.hello = message
            self._learn(message.cards)
            you = f"seat {message.seat}" if message.seat >= 0 else "a spectator"
            decks = ", ".join(f"p{pl.seat} {pl.name} ({pl.deck})" for pl in message.players)
            self.out.print(f"{message.ruleset} game {message.game_id}: you are {you}; {decks}", markup=False)
            self.out.print("type help for the commands", markup=False)
        elif t is p.EventMessage:
            assert isinstance(message, p.EventMessage)
            self._learn(message.cards)
            self.log.append(message.text)
            self._unseen.append(message.text)
        elif t is p.Board:
            assert isinstance(message, p.Board)
            self.board = message
            for zone in message.zones:
                self._learn(zone.cards)
            if self.seat < 0:  # a spectator is never asked: it is shown what happened, then the board as it stands
                self._flush_events()
                self.show_board()
        elif t is p.Decide:
            assert isinstance(message, p.Decide)
            self.decide = message
        elif t is p.Error:
            assert isinstance(message, p.Error)
            self.out.print(f"  not taken ({message.code}): {message.message}", markup=False)
        elif t is p.GameOver:
            assert isinstance(message, p.GameOver)
            self.over = message
            self._flush_events()
            self.out.print(f"game over: {message.text}", markup=False)

    def _flush_events(self) -> None:
        for text in self._unseen:
            self.out.print(f"  {text}", markup=False)
        self._unseen.clear()

    def show_options(self) -> None:
        d = self.decide
        assert d is not None
        clock = "" if not any(d.clock_ms) else "  clocks " + " ".join(f"p{i} {ms // 1000}s" for i, ms in
                                                                     enumerate(d.clock_ms))  # fmt: skip
        self.out.print(f"\nyour decision ({d.point}), turn {self.board.turn if self.board else '?'}{clock}:",
                       markup=False)  # fmt: skip
        for o in d.options:
            mark = " *" if o.confirm else ""
            self.out.print(f"  {o.index:>3}  {o.text}{mark}", markup=False)

    def show_board(self) -> None:
        b = self.board
        if b is None:
            self.out.print("no board yet", markup=False)
            return
        self.out.print(render_board(b, self.seat))

    def show_hand(self) -> None:
        b = self.board
        mine = [c for z in (b.zones if b else []) if z.zone == "hand" and z.side == f"p{self.seat}" for c in z.cards]
        if not mine:
            self.out.print("your hand is empty", markup=False)
        for c in mine:
            self.out.print(f"  {c.name} (#{c.instance}): {c.text}", markup=False)

    def show_card(self, name: str) -> None:
        key = name.strip().lower()
        hits = [c for n, c in sorted(self.cards.items()) if key and key in n]
        if not hits:
            self.out.print(f"no card you can see is called {name!r}", markup=False)
        for c in hits[:5]:
            self.out.print(f"  {c.name}: {c.text}", markup=False)

    def _confirm(self, question: str) -> bool:
        if not self.confirming:
            return True
        return self._read(f"{question} [y/N] ").strip().lower() in ("y", "yes")

    def prompt(self) -> p.ClientMessage:
        """Ask the person for the current decision; returns the answer (or a concession)."""
        d = self.decide
        assert d is not None, "prompt() with no decision"
        self._flush_events()
        self.show_options()
        while True:
            try:
                line = self._read("> ")
            except KeyboardInterrupt:
                if self.ask_leave():
                    return p.Concede()
                continue
            except EOFError:
                self.out.print("input ended: leaving the game (a concession)", markup=False)
                return p.Concede()
            text = line.strip()
            word, _, rest = text.partition(" ")
            if text.isdigit():
                index = int(text)
                if index >= len(d.options):
                    self.out.print(f"  {text!r} is not an option: type a number from 0 to {len(d.options) - 1}",
                                   markup=False)  # fmt: skip
                    continue
                option = d.options[index]
                if option.confirm and not self._confirm(f"  {option.text}: this cannot be taken back. Sure?"):
                    continue
                return p.Answer(index, d.decision)
            if word == "help":
                self.out.print(HELP, markup=False)
            elif word == "board":
                self.show_board()
            elif word == "hand":
                self.show_hand()
            elif word == "card":
                self.show_card(rest)
            elif word == "log":
                n = int(rest) if rest.strip().isdigit() else 20
                for entry in list(self.log)[-n:]:
                    self.out.print(f"  {entry}", markup=False)
            elif word in ("options", ""):
                self.show_options()
            else:
                self.out.print(f"  {text!r} is not an option or a command: type a number, or help", markup=False)

    def ask_leave(self) -> bool:
        try:
            return self._confirm("\nleave the game? It counts as a concession.")
        except (KeyboardInterrupt, EOFError):
            return True


def render_board(b: p.Board, seat: int) -> Table:
    """The board message as a rich table: a column per side, a row per zone, counters last."""
    sides = sorted({z.side for z in b.zones} | {k.partition(":")[0] for k in b.counters if k.startswith("p")})
    title = f"turn {b.turn}, {b.step}" + (f" - you are p{seat}" if seat >= 0 else " - spectator")
    table = Table(title=title, show_lines=True)
    table.add_column("zone", style="bold")
    for side in sides:
        table.add_column(side)
    by_zone: dict[str, dict[str, str]] = {}
    for z in b.zones:
        cards = f"{len(z.cards)} cards" if z.zone == "deck" else ", ".join(c.name for c in z.cards)
        by_zone.setdefault(z.zone, {})[z.side] = cards
    for zone, cells in by_zone.items():
        table.add_row(zone, *(cells.get(side, "") for side in sides))
    counters: dict[str, list[str]] = {}
    for key, value in b.counters.items():
        holder, _, counter = key.rpartition(":")
        found = _INSTANCE.search(holder)
        side = holder if holder in sides else f"p{int(found.group(1)) // 1000 - 1}" if found else "game"
        counters.setdefault(side, []).append(f"{'' if holder == side else holder + ' '}{counter}={value}")
    table.add_row("counters", *("\n".join(counters.get(side, [])) for side in sides))
    if b.hidden:
        table.caption = f"{b.hidden} card(s) you cannot see"
    return table


class TerminalSeat:
    """A person at this terminal as a local seat of ``engine.players.run_table``."""

    def __init__(self, stdin: IO[str], stdout: IO[str]):
        def read_line(prompt: str) -> str:
            stdout.write(prompt)
            stdout.flush()
            line = stdin.readline()
            if not line:
                raise EOFError
            return line

        interactive = stdin.isatty() if hasattr(stdin, "isatty") else False
        console = Console(file=stdout, highlight=False, soft_wrap=True, width=120)
        self.ui = TerminalUI(read_line, console, confirm=interactive)

    def send(self, message: p.ServerMessage) -> None:
        self.ui.handle(message)

    def receive(self) -> p.ClientMessage:
        return self.ui.prompt()


def human_seat(stdin: IO[str], stdout: IO[str]) -> Callable[[int, Any], TerminalSeat]:
    """The ``human`` seat factory of ``engine.players.play_live``."""
    return lambda player, ruleset: TerminalSeat(stdin, stdout)
