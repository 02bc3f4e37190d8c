"""The terminal client: a person plays one seat from protocol messages, locally or over WebSocket.

``TerminalUI`` reads the table's messages (``schemas.protocol``) and asks the person for each decision. At the
prompt: a number chooses that option (counted from 1, as the web page's keys; a choice that cannot be taken back,
flagged ``confirm``, asks first at a terminal);
``help``, ``board`` (the seat's view with card names, stats and counters), ``hand``, ``card NAME`` (a card's
text), ``log`` (the last events in words), ``options``, ``concede``; ``quit`` (``exit``, ``q``) says what leaving
does and, once confirmed, leaves without conceding: a local table stops with its log open, to be resumed
(``SeatLeft``), a served table waits for the seat, which the same ``annals join`` takes again. Ctrl-C asks
whether to leave; that leaving concedes, and the table records it. A spectator (``annals join`` with the
spectators' token) is shown the events and the board as they reach it (the spectator view, held back by the
table's delay). The same class serves ``annals play`` (``TerminalSeat``, in the same process) and ``annals join URL
--token T`` (``clients.join``).
"""

from __future__ import annotations

import re
import time
from collections import deque
from collections.abc import Callable
from typing import IO, Any

from rich.console import Console
from rich.table import Table

from annals.engine import forced
from annals.engine.names import BOTS, plural, turn_said
from annals.engine.players import SeatLeft
from annals.schemas import protocol as p
from annals.schemas import screen

RULESET_NAMES = {"miras9": "Miras 9", "morana": "MORANA"}  # as the rules books title them

HELP = """commands:
  N            choose option N (you are asked to confirm a choice that cannot be taken back)
  board        the board as you see it: each player's piles (sizes, hidden cards counted), Echo or Embers and
               Slava, the lanes or Sites with the cards in them and their marks
  hand         your hand
  card NAME    a card's text (any card you can see; part of the name is enough)
  log [N]      the last N events in words (20 by default)
  options      the decision again
  auto on|off  the table answers a question with one answer for you, copies of one card as one (on at the start)
  pass on|off  the table also passes for you when you hold nothing you could play (on at the start)
  stop NAME    keep asking at a stop although the answer is lone: stop my attack, stop opponent reaction
               (the same again removes it)
  quit         leave the game without conceding (exit and q too; it says what happens to the game and asks first)
  concede      give up the game (you are asked first)
  help         this list
  Ctrl-C       leave the game (it counts as a concession; you are asked first)
marks:
  *            after an option: a final answer (it ends your part of the step, or happens once a game);
               you are asked to confirm it
  stop: NAME   the question was kept by your stop NAME although it has one answer
  tapped, Attuned, wounds N, ATK/GRIT +N, shield N, Power N   a card's state on the board
  face-down    a card committed behind the screen (yours; the opponent's show as hidden cards)"""

LOG_KEPT = 500
_INSTANCE = re.compile(r"#(\d{4})\)")


CARDS_SHOWN = 5  # the cards ``card NAME`` prints at most; it says how many more match


QUIT_WORDS = ("quit", "exit", "q")
# what leaving does, asked before it is done: a local table (annals play, annals resume) keeps its log to play on
LEAVE_LOCAL = "leaving stops the game here, saved in its log: annals resume plays on from this question"


class TerminalUI:
    def __init__(
        self,
        read_line: Callable[[str], str],
        console: Console,
        *,
        confirm: bool = True,
        on_settings: Callable[[p.Settings], None] | None = None,
        cover_s: tuple[float, float] = forced.COVER_S,
        leaving: str = LEAVE_LOCAL,
    ):
        self._read = read_line
        self.leaving = leaving  # what ``quit`` does to the game, said before it is done
        self.out = console
        # what the table answers for the person (ruling R-CORE-8): lone questions and lone passes, no stops
        self.settings = p.Settings(automatic=True, auto_pass=True)
        self._on_settings = on_settings  # a client over a socket sends the new settings to the table
        self.confirming = confirm  # False for answers piped in (not a terminal): a script has no second thoughts
        self.cover_s = cover_s  # the wait before answering a question of copies for the person (R-CORE-11)
        self.hello: p.Hello | None = None
        self.board: p.Board | None = None
        self.decide: p.Decide | None = None
        self.over: p.GameOver | None = None
        self.log: deque[str] = deque(maxlen=LOG_KEPT)
        self._unseen: list[str] = []
        self._waiting_for = -1  # the other seat whose answer the table waits for, once said (-1: none said)
        self._events_had = 0  # the game's events received, over every connection to its table
        self._replayed = 0  # of the events a table sends again after a reconnection, those still to come
        self.cards: dict[str, p.Card] = {}  # by lower-case name

    @property
    def seat(self) -> int:
        return self.hello.seat if self.hello is not None else -1

    def name(self, seat: int) -> str:
        """A seat's player by name, as every text says them."""
        players = self.hello.players if self.hello is not None else []
        return next((pl.name for pl in players if pl.seat == seat and pl.name), f"player {seat + 1}")

    def _learn(self, cards: list[p.Card]) -> None:
        for card in cards:
            self.cards.setdefault(card.name.lower(), card)

    def handle(self, message: p.ServerMessage) -> None:
        """Take one message from the table (prints only what the person must see at once)."""
        t = type(message)
        if t is p.Hello:
            assert isinstance(message, p.Hello)
            if self.hello is not None and self.hello.game_id == message.game_id:
                self._rejoined(message)
                return
            self.hello = message
            self._learn(message.cards)
            you = self.name(message.seat) if message.seat >= 0 else "a spectator"
            decks = " against ".join(f"{pl.name} ({pl.deck})" for pl in message.players)
            game = RULESET_NAMES.get(message.ruleset, message.ruleset)
            self.out.print(f"{game} game {message.game_id}: {decks}; you are {you}", markup=False)
            self.out.print("type help for the commands", markup=False)
        elif t is p.EventMessage:
            assert isinstance(message, p.EventMessage)
            self._learn(message.cards)
            if self._replayed:  # seen before the connection dropped: in the log already, not printed again
                self._replayed -= 1
                return
            self._events_had += 1
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
            elif message.deciding >= 0 and message.deciding != self.seat:
                # the other seat is asked: what happened so far now, the wait said once, its plays as they come
                self._flush_events()
                if self._waiting_for != message.deciding:
                    self._waiting_for = message.deciding
                    self.out.print(f"  {self.waiting_line(message.deciding)}", markup=False)
        elif t is p.Decide:
            assert isinstance(message, p.Decide)
            self.decide = message
        elif t is p.Error:
            assert isinstance(message, p.Error)
            self.out.print(f"  not taken: {message.message}", markup=False)
        elif t is p.GameOver:
            assert isinstance(message, p.GameOver)
            self.over = message
            self._flush_events()
            self.out.print(f"game over: {message.text}", markup=False)

    def _rejoined(self, hello: p.Hello) -> None:
        """The same game's table again, after a lost connection: it sends the seat's whole view so far once more
        (``resumed_at`` events), of which the person saw the first ``_events_had``. They are told what happened
        while they were away, then the question; the board and history stay a command away."""
        self.hello = hello
        self._replayed = min(self._events_had, hello.resumed_at)
        missed = hello.resumed_at - self._replayed
        away = f"{plural(missed, 'event')} while you were away, below" if missed else "nothing new while you were away"
        self.out.print(f"back at the table: {away}; type board for the board, log for the history", markup=False)
        self._waiting_for = -1  # whose turn it is is said again

    def waiting_line(self, seat: int) -> str:
        """What the person is told while another seat decides: a bot thinks (the search bot up to a second a
        decision, several a turn), a person decides."""
        players = self.hello.players if self.hello is not None else []
        agent = next((pl.agent for pl in players if pl.seat == seat), "human")
        if agent == "human":
            return f"{self.name(seat)} is deciding..."
        bot = f" (the {agent} bot)" if agent in BOTS else ""  # an external program is named by no bot
        return f"{self.name(seat)} is thinking{bot}..."

    def _flush_events(self) -> None:
        for text in self._unseen:
            self.out.print(f"  {text}", markup=False)
        self._unseen.clear()

    def show_options(self) -> None:
        d = self.decide
        assert d is not None
        clock = "" if not any(d.clock_ms) else "  clocks " + " ".join(f"{self.name(i)} {ms // 1000}s" for i, ms
                                                                     in enumerate(d.clock_ms))  # fmt: skip
        turn = f", {turn_said(self.board.turn)}" if self.board else ""
        self.out.print(f"\nyour decision{turn}{clock}:", markup=False)
        if d.question:
            self.out.print(f"  {d.question}" + (f"  (stop: {d.stop.replace('_', ' ')})" if d.stop else ""),
                           markup=False)  # fmt: skip
        for k, o in enumerate(self.choices()):
            mark = " *" if o.confirm else ""
            self.out.print(f"  {k + 1:>3}  {o.text}{mark}", markup=False)  # counted from 1, as the web keys

    def choices(self) -> list[p.Option]:
        """The options the person chooses among: one for copies that are the same for the seat (``same_as``,
        ruling R-CORE-10), the first of them, which is what the table records."""
        return [o for o in self.decide.options if o.same_as < 0] if self.decide is not None else []

    def copies_answer(self) -> p.Answer | None:
        """The answer to a question whose options are all copies of one choice, given for the person as a lone
        question is (ruling R-CORE-11), or None. It is the person's answer in the log, sent after a cover delay
        (``engine.forced``): copies in a hidden hand must not show by how soon the answer came."""
        d, shown = self.decide, self.choices()
        if d is None or len(shown) != 1 or len(d.options) == 1 or not self.settings.automatic or d.stop:
            return None
        self.out.print(f"  answered for you: {shown[0].text} (copies of one card: the only answer)", markup=False)
        time.sleep(forced.cover_delay(self.cover_s))
        return p.Answer(shown[0].index, d.decision)

    def show_board(self) -> None:
        b = self.board
        if b is None:
            self.out.print("no board yet", markup=False)
            return
        names = [pl.name for pl in self.hello.players] if self.hello is not None else None
        self.out.print(render_board(b, self.seat, names, self.hello.ruleset if self.hello is not None else ""))

    def show_hand(self) -> None:
        b = self.board
        mine = [c for z in (b.zones if b else []) if z.zone == "hand" and z.side == f"p{self.seat}" for c in z.cards]
        if not mine:
            self.out.print("your hand is empty", markup=False)
        for c in mine:
            self.out.print(f"  {c.name}: {c.text}", markup=False)

    def show_card(self, name: str) -> None:
        """``card NAME``: the text of each card seen whose name holds NAME (the one named exactly first), up to
        ``CARDS_SHOWN`` of them and how many more; without a name, which name to type."""
        key = " ".join(name.lower().split())
        if not key:
            seen = sorted(c.name for c in self.cards.values())
            example = f" (card {seen[0].split()[0].lower()})" if seen else ""
            self.out.print(f"  which card? Type card and a name, or part of one{example}", markup=False)
            return
        hits = sorted((c for n, c in self.cards.items() if key in n), key=lambda c: (c.name.lower() != key, c.name))
        if not hits:
            self.out.print(f"  no card you can see is called {name.strip()!r}", markup=False)
        for c in hits[:CARDS_SHOWN]:
            self.out.print(f"  {c.name}: {c.text}", markup=False)
        if len(hits) > CARDS_SHOWN:
            more = len(hits) - CARDS_SHOWN
            self.out.print(f"  and {more} more {'card holds' if more == 1 else 'cards hold'} {name.strip()!r}: "
                           "type more of the name", markup=False)  # fmt: skip

    def _confirm(self, question: str) -> bool:
        if not self.confirming:
            return True
        return self._read(f"{question} [y/N] ").strip().lower() in ("y", "yes")

    def prompt(self) -> p.ClientMessage:
        """Ask the person for the current decision; returns the answer (or a concession)."""
        d = self.decide
        assert d is not None, "prompt() with no decision"
        self._flush_events()
        self._waiting_for = -1
        copies = self.copies_answer()
        if copies is not None:
            return copies
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
                shown = self.choices()
                index = int(text) - 1
                if not 0 <= index < len(shown):
                    self.out.print(f"  {text!r} is not an option: type a number from 1 to {len(shown)}",
                                   markup=False)  # fmt: skip
                    continue
                option = shown[index]
                if option.confirm and not self._confirm(f"  {option.text}: this cannot be taken back. Sure?"):
                    continue
                return p.Answer(option.index, d.decision)
            if word == "help":
                self.out.print(HELP, markup=False)
            elif word == "board":
                self.show_board()
            elif word == "hand":
                self.show_hand()
            elif word == "card":
                self.show_card(rest)
            elif word == "log":
                if rest.strip() and not rest.strip().isdigit():
                    self.out.print(f"  log takes a number of events: log 40 (it was given {rest.strip()!r})",
                                   markup=False)  # fmt: skip
                    continue
                n = int(rest) if rest.strip() else 20
                for entry in list(self.log)[-n:]:
                    self.out.print(f"  {entry}", markup=False)
            elif word in ("options", ""):
                self.show_options()
            elif word in ("auto", "pass", "stop"):
                self.change(word, rest.strip())
            elif text.lower() in QUIT_WORDS:
                # said through the console, which wraps at words; the question itself stays short
                self.out.print(f"  {self.leaving}", markup=False)
                if self._confirm("  Leave?"):
                    raise SeatLeft
            elif text.lower() == "concede":
                if self._confirm("  concede the game? It counts as a loss."):
                    return p.Concede()
            else:
                self.out.print(f"  {text!r} is not an option or a command: type a number, or help", markup=False)

    def change(self, word: str, value: str) -> None:
        """``auto on|off``, ``pass on|off``, ``stop NAME``: the settings, sent to the table at once."""
        st = self.settings
        if word == "stop":
            value = "_".join(value.lower().split())  # typed as words: stop my attack
            if value not in p.STOPS:
                said = ", ".join(s.replace("_", " ") for s in p.STOPS)
                self.out.print(f"  no stop {value.replace('_', ' ')!r}: use one of {said}", markup=False)
                return
            stops = [x for x in st.stops if x != value] + ([] if value in st.stops else [value])
            st = p.Settings(st.automatic, st.auto_pass, stops)
        elif value in ("on", "off"):
            on = value == "on"
            st = p.Settings(on, st.auto_pass, st.stops) if word == "auto" else p.Settings(st.automatic, on, st.stops)
        else:
            self.out.print(f"  {word} takes on or off", markup=False)
            return
        self.settings = st
        said = ", ".join(s.replace("_", " ") for s in st.stops) or "none"
        self.out.print(f"  lone answers {'on' if st.automatic else 'off'}, passes for you "
                       f"{'on' if st.auto_pass else 'off'}, stops: {said}", markup=False)  # fmt: skip
        if self._on_settings is not None:
            self._on_settings(st)

    def ask_leave(self) -> bool:
        try:
            return self._confirm("\nleave the game? It counts as a concession.")
        except (KeyboardInterrupt, EOFError):
            return True


def _place(zone: str, names: list[str]) -> str:
    """A zone as the rules name it [M9-025]: ``lane:0:exterior`` is Ann's Exterior lane, ``site:2`` is Site 2."""
    parts = zone.split(":")
    if len(parts) == 3 and parts[1].isdigit():
        side = names[int(parts[1])] if int(parts[1]) < len(names) else f"p{parts[1]}"
        return f"{side}: {parts[2].capitalize()} {'Site' if parts[0] == 'site' else 'lane'}"
    if len(parts) == 2 and parts[0] == "site":
        return f"Site {parts[1]}"
    return zone


def _card_of(key: str) -> int:
    """The instance a board counter's key names (``"Recruit (#1004):wounds"``), or -1."""
    found = _INSTANCE.search(key.rpartition(":")[0])
    return int(found.group(1)) if found else -1


def _marks(counters: dict[str, int], instance: int) -> str:
    """A card's state from the board's counters (``"Recruit (#1004):wounds"``): ``tapped, wounds 1``."""
    marks = []
    for key, value in counters.items():
        holder, _, counter = key.rpartition(":")
        found = _INSTANCE.search(holder)
        if found is None or int(found.group(1)) != instance:
            continue
        if counter in ("tapped", "attuned", "spotted"):
            marks.append({"tapped": "tapped", "attuned": "Attuned", "spotted": "spotted"}[counter])
        elif counter in ("atk_mod", "grit_mod"):
            marks.append(f"{'ATK' if counter == 'atk_mod' else 'GRIT'} {value:+d}")
        else:
            marks.append(f"{'Power' if counter == 'power' else counter.replace('_', ' ')} {value}")
    return f" ({', '.join(marks)})" if marks else ""


PLAYER_COUNTERS = {"miras9": ("echo",), "morana": ("embers", "slava")}  # shown at 0 too, as the SVG board does
SITES = {"morana": ("site:1", "site:2", "site:3")}  # each shown, empty or not, with each side's Power there


def render_board(b: p.Board, seat: int, names: list[str] | None = None, ruleset: str = "") -> Table:
    """The board message as the SVG board shows it: each player's piles by size (hidden cards counted), Echo or
    Embers and Slava (at 0 too: a board message leaves out counters at 0), then every lane or Site with the cards
    in it, each with its marks; a MORANA Site with each side's Power there [MOR-19], empty Sites included."""
    sides = sorted({z.side for z in b.zones if z.side.startswith("p")} | {k.split(":")[0] for k in b.piles})
    names = names or [s for s in sides]
    who = [names[int(s[1:])] if int(s[1:]) < len(names) else s for s in sides]
    title = f"{turn_said(b.turn)}, {b.step.replace('.', ': ').replace('_', ' ')}" + (
        f" - you are {names[seat]}" if 0 <= seat < len(names) else " - watching"
    )
    table = Table(title=title, show_lines=True)
    table.add_column("", style="bold")
    for name in who:
        table.add_column(name)
    known = PLAYER_COUNTERS.get(ruleset, ())
    player_counters: dict[str, list[str]] = {}
    for side in sides:  # the ruleset's own in one order for both sides (at 0 too), then any other
        held = {c: v for k, v in b.counters.items() for h, _, c in [k.rpartition(":")] if h == side}
        order = [*known, *sorted(c for c in held if c not in known)]
        player_counters[side] = [f"{c.replace('_', ' ').capitalize()} {held.get(c, 0)}" for c in order]
    table.add_row("counters", *(", ".join(player_counters[s]) or "-" for s in sides))
    piles: dict[str, list[str]] = {s: [] for s in sides}
    for key, size in b.piles.items():
        side, _, zone = key.partition(":")
        if side in piles:
            piles[side].append(f"{zone.capitalize()} {size}")
    table.add_row("piles", *(" · ".join(piles[s]) or "-" for s in sides))
    by_zone: dict[str, dict[str, list[str]]] = {_place(site, names): {} for site in SITES.get(ruleset, ())}
    power: dict[tuple[str, str], int] = {}
    for z in b.zones:
        if z.zone in ("deck", "hand", "discard", "exile", "used", "resource", "nav"):
            continue  # by size above; your hand by name with the hand command
        owner = z.zone.split(":")[1] if z.zone.count(":") == 2 else ""
        side = f"p{owner}" if owner.isdigit() else z.side
        place = _place(z.zone, names).split(": ", 1)[-1]
        place = place[:1].upper() + place[1:]
        shown = [c.name + _marks(b.counters, c.instance) for c in z.cards]
        by_zone.setdefault(place, {}).setdefault(side, []).extend(shown)
        here = {c.instance for c in z.cards}
        strength = sum(v for k, v in b.counters.items() if k.endswith(":power") and _card_of(k) in here)
        power[place, side] = power.get((place, side), 0) + strength
    sites = {_place(site, names) for site in SITES.get(ruleset, ())}
    for place, cells in by_zone.items():
        total = {s: [f"Power {power.get((place, s), 0)}"] if place in sites else [] for s in sides}
        table.add_row(place, *("\n".join(total[s] + cells.get(s, [])) for s in sides))
    if b.hidden:
        table.caption = f"{plural(b.hidden, 'card')} you cannot see"
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
        console = screen.console(stdout)  # the terminal's width, wrapped at words; lines whole in a pipe
        self.ui = TerminalUI(read_line, console, confirm=interactive)

    @property
    def settings(self) -> forced.Settings:
        """What the table answers for the person (``engine.players.run_table`` reads it at each question)."""
        return forced.from_message(self.ui.settings)

    def send(self, message: p.ServerMessage) -> None:
        self.ui.handle(message)

    def receive(self) -> p.ClientMessage:
        return self.ui.prompt()


def human_seat(stdin: IO[str], stdout: IO[str]) -> Callable[[int, Any], TerminalSeat]:
    """The ``human`` seat factory of ``engine.players.play_live``."""
    return lambda player, ruleset: TerminalSeat(stdin, stdout)
