"""An event's round played at the server (``annals serve --event FOLDER``): a match table per pairing, the desk.

Each pairing of the round under way without a result is played by ``engine.tournament.play.play_and_report`` (the
path ``annals event run`` plays bots by), in a worker thread of its own: its ``GamePlayer`` opens a server table for
each game, whose log is the game's log in the event's folder (``EventStore.log_path``), and waits for the game to
end; ``play_match`` then signs and reads it, decides whether another game is played and who plays first in it
(R-EVT-02; online the decider plays first, R-EVT-12; MORANA's seats swap, R-EVT-03), and the match's result and
games go into the event's record (``rounds.report``), where ``annals event verify`` finds them.

Every registered player has a personal token, printed at start and on the desk, kept in the server's data folder
(``DATA/events/EVENT_ID.json``) so that a restart keeps the links: it opens their seat at every table of theirs
(the seats' token hashes are the player's), and ``/me?token=T`` leads them to the game they are to play. After a
restart, a game that was being played goes on from its live log where it stopped (``LiveTable.resume``, its clocks
as recorded); one whose log cannot be re-run is set aside (under ``torn/``, recorded) and played again from its
start. Games finished before it stand. The organiser's token opens the desk (kept in the event's folder, owner-only,
``desk.token``, so that a restart keeps the desk link too); a pairing may be played on paper instead (before its
first game has begun), its result typed at the desk through the same ``rounds.report``.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import os
import re
import stat
import threading
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import msgspec

from annals.engine.core import Ruleset
from annals.engine.names import plural
from annals.engine.registry import get_ruleset
from annals.engine.table import LiveTable, open_path
from annals.engine.tournament import rounds as loop
from annals.engine.tournament.event import current_standings, drop, resolve_player
from annals.engine.tournament.match import MatchContext, unlisted
from annals.engine.tournament.play import play_and_report
from annals.engine.tournament.record import EventArgumentError, EventError
from annals.engine.tournament.store import DESK_TOKEN_FILE, EventStore
from annals.schemas.commandline import quoted
from annals.schemas.errors import AnnalsError
from annals.schemas.event import INTENTIONAL_DRAW, TOP, MatchRecord, Pairing
from annals.schemas.header import LogHeader
from annals.server.store import TableRecord, new_table_id, new_token, token_hash
from annals.server.tables import Table

WAITING, PLAYING, FINISHED, PAPER, FAILED = "waiting", "playing", "finished", "paper", "failed"
DEFAULT_CLOCK_S = 25 * 60  # each player's time bank per game
TOKEN = re.compile(r"[A-Za-z0-9_-]{16,}")  # a desk token as kept: new_token's URL-safe letters


def tokens_path(data: Path, event_id: str) -> Path:
    """Where a server keeps an event's players' tokens: ``DATA/events/EVENT_ID.json`` (owner-only)."""
    return data / "events" / f"{event_id}.json"


def read_tokens(path: Path) -> dict[str, str]:
    """The players' tokens kept at ``path`` (none if it is missing or unreadable)."""
    if path.is_file():
        with contextlib.suppress(msgspec.DecodeError):
            return msgspec.json.decode(path.read_bytes(), type=dict[str, str])
    return {}


def desk_token(folder: Path) -> str:
    """The organiser's desk token kept in the event's folder (``DESK_TOKEN_FILE``, owner-only), made and kept there
    the first time: a restarted server keeps the organiser's bookmarked desk link. Deleting the file revokes it (the
    next start makes a new one). A file others may read, or that holds no token, is refused by name."""
    path = folder / DESK_TOKEN_FILE
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        if stat.S_IMODE(path.stat().st_mode) & 0o077:
            raise EventError(f"{path} may be read by others (mode {stat.S_IMODE(path.stat().st_mode):o}): it opens "
                             f"the desk; make it private with: chmod 600 {quoted(path)}, or delete it for a new "
                             "desk link") from None  # fmt: skip
        token = path.read_text(encoding="utf-8", errors="replace").strip()
        if not TOKEN.fullmatch(token):
            raise EventError(f"{path} holds no desk token; delete it and start again for a new desk link") from None
        return token
    token = new_token()
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        os.fchmod(f.fileno(), 0o600)  # whatever the umask
        f.write(token + "\n")
    return token


class MovedToPaper(EventError):
    """The organiser moved a table to paper before its first game began: its match is not played here."""


class ServedMatch:
    """One pairing of the round as the desk shows it: which game is being played, at which server table."""

    def __init__(self, number: int, pairing: Pairing):
        self.number = number
        self.pairing = pairing
        self.state = WAITING
        self.game = 0  # the game being played (0: none yet)
        self.table_id = ""  # the server table of that game
        self.path: Path | None = None  # its log
        self.spectators = new_token()  # one token for the spectators of every game of the match
        self.paper = False
        self.error = ""
        self.thread: threading.Thread | None = None


def _intentional_draw(match: MatchRecord) -> bool:
    """A match recorded as an intentional draw (and not overruled since): its 0-0-3 is no three drawn games, and
    the desk and a player's own page say which."""
    return match.ended == INTENTIONAL_DRAW and match.override is None


class EventDesk:
    """The event of ``folder`` played at ``server``'s tables; everything the desk and the players' pages show."""

    def __init__(
        self,
        server: Any,  # annals.server.app.Server (imported there: the app imports this module)
        folder: Path,
        *,
        organiser_token: str | None = None,
        clock_s: int = DEFAULT_CLOCK_S,
        paper: tuple[int, ...] = (),
    ):
        self.server = server
        self.store = EventStore.open(folder)
        self.organiser_token = organiser_token or desk_token(self.store.folder)
        self.clock_s = clock_s
        self.paper_tables = set(paper)  # tables of the round under way the organiser plays on paper from the start
        self.tokens_path = tokens_path(server.store.folder.parent, self.store.config().event_id)
        self.tokens = self._tokens(self.tokens_path)
        self.matches: dict[tuple[int, int], ServedMatch] = {}
        self.seats: dict[str, ServedMatch] = {}  # player id -> the match they are playing now
        self.loop: asyncio.AbstractEventLoop | None = None
        self.lock = threading.Lock()  # the desk's own acts, one at a time (the match threads have their stores)

    # ------------------------------------------------------------------ who is who

    def _tokens(self, path: Path) -> dict[str, str]:
        """Each registered player's token: those given before (kept in the server's data folder, readable by its
        owner only, so that a restarted server keeps every player's link), a new one for a player without."""
        kept = read_tokens(path)
        tokens = {p.id: kept.get(p.id) or new_token() for p in self.store.players()}
        if tokens != kept:  # written whole, and never readable by others, not even for a moment
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_name(f".{path.name}.tmp")
            with os.fdopen(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "wb") as f:
                f.write(msgspec.json.encode(tokens))
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, path)
        return tokens

    def is_organiser(self, token: str) -> bool:
        return bool(token) and hmac.compare_digest(token.encode(), self.organiser_token.encode())

    def player_for(self, token: str) -> str | None:
        found = None
        for pid, mine in self.tokens.items():  # every token compared, in constant time each
            if token and hmac.compare_digest(token.encode(), mine.encode()):
                found = pid
        return found

    def names(self) -> dict[str, str]:
        return self.store.state().names()

    # ------------------------------------------------------------------ the round's matches

    def open_round(self) -> list[ServedMatch]:
        """Start a match (a worker thread) for every pairing of the round paired last without a result; the
        tables in ``paper_tables`` wait for a result typed at the desk. Called in the server's event loop."""
        self.loop = asyncio.get_running_loop()
        state = self.store.state()
        if not state.rounds:
            return []
        rnd = state.rounds[-1].round
        seeds = {s.player: s.rank for s in current_standings(self.store)} if rnd.stage == TOP else {}
        started = []
        for pairing in rnd.pairings:
            key = (rnd.number, pairing.table)
            if not pairing.b or key in self.matches:
                continue
            match = self.matches[key] = ServedMatch(rnd.number, pairing)
            if key in state.results:
                match.state = FINISHED
                continue
            seated = [state.player(pairing.a), state.player(pairing.b)]
            if pairing.table in self.paper_tables or any(p.deck is None for p in seated):
                match.state, match.paper = PAPER, True  # a player without a deck list plays on paper (R-EVT-14)
                match.error = "" if all(p.deck for p in seated) else unlisted(seated, rnd.number, pairing.table)
                continue
            match.thread = threading.Thread(target=self._play, args=(match, rnd.stage, seeds), daemon=True,
                                            name=f"match r{rnd.number} t{pairing.table}")  # fmt: skip
            match.thread.start()
            started.append(match)
        return started

    def _play(self, match: ServedMatch, stage: str, seeds: Mapping[str, int]) -> None:
        """A match's thread: its games at the server's tables, then its result in the record."""
        store = EventStore.open(self.store.folder)  # its own: the record's file lock orders the threads' writes
        state = store.state()
        people = {p.id: msgspec.structs.replace(p, agent="human") for p in state.players()}
        ruleset = get_ruleset(state.config.ruleset)

        def game(rs: Ruleset[Any], header: LogHeader, path: Path) -> None:
            self._game(match, rs, header, path)

        ctx = MatchContext(store, state.config, ruleset, people, game=game, key=store.signing_key(), resumes=True)
        try:
            play_and_report(ctx, match.number, stage, match.pairing, seeds)
            match.state = FINISHED
        except MovedToPaper:
            if match.path is not None and match.path.exists():
                store.set_aside(match.path)  # a game never begun: kept under torn/, recorded, not counted
            match.state = PAPER
        except Exception as exc:  # shown on the desk by name; the match can still be played on paper
            match.error, match.state = f"{type(exc).__name__}: {exc}", FAILED
        finally:
            for pid in (match.pairing.a, match.pairing.b):
                if self.seats.get(pid) is match:
                    del self.seats[pid]

    def _game(self, match: ServedMatch, ruleset: Ruleset[Any], header: LogHeader, path: Path) -> None:
        """The ``GamePlayer`` of a served match (in its thread): a table for the game, waited on until it ends."""
        assert self.loop is not None
        if match.paper:
            raise MovedToPaper(f"round {match.number} table {match.pairing.table} is played on paper")
        live = self._resumed(path) if path.exists() else None
        if live is None:
            # the time a question of a game set aside had been open (a restart): not this new game's
            open_path(path).unlink(missing_ok=True)
            live = LiveTable(ruleset, header, path, bank_ms=self.clock_s * 1000)
        # the log is on disk now: a move to paper before the table opens sets it aside by this (it was left behind,
        # a file the event's record did not know)
        match.path = path
        opened = asyncio.run_coroutine_threadsafe(self._open_table(match, live, header, path), self.loop)
        table = opened.result()
        asyncio.run_coroutine_threadsafe(table.done.wait(), self.loop).result()
        if match.paper:
            raise MovedToPaper(f"round {match.number} table {match.pairing.table} is played on paper")

    def _resumed(self, path: Path) -> LiveTable | None:
        """The game torn by a restart, going on from its live log; None (the log set aside) if it cannot."""
        try:
            return LiveTable.resume(path, bank_ms=self.clock_s * 1000)
        except AnnalsError:
            EventStore.open(self.store.folder).set_aside(path)  # kept under torn/ and recorded; played again
            return None

    async def _open_table(self, match: ServedMatch, live: LiveTable, header: LogHeader, path: Path) -> Table:
        if match.paper:  # moved to paper while this was on its way to the loop
            raise MovedToPaper(f"round {match.number} table {match.pairing.table} is played on paper")
        info = header.tournament
        assert info is not None
        seats = list(info.player_ids)
        record = TableRecord(
            new_table_id(), header.ruleset, [d.name for d in header.decks], ["human", "human"], header.seed,
            header.max_turns, self.clock_s * 1000, 0, [token_hash(self.tokens[pid]) for pid in seats],
            token_hash(match.spectators), int(self.server.grace_s * 1000),
        )  # fmt: skip
        table = Table(record, live, mark_s=self.server.mark_s)
        self.server.tables[record.table_id] = table  # kept while the server runs: a restart resumes it from its log
        self.server.tasks[record.table_id] = asyncio.get_running_loop().create_task(table.run())
        match.table_id, match.path, match.game, match.state = record.table_id, path, info.game, PLAYING
        for pid in seats:
            self.seats[pid] = match
        return table

    # ------------------------------------------------------------------ the organiser's acts

    def _match(self, table: int) -> ServedMatch:
        state = self.store.state()
        if not state.rounds:
            raise EventError("no round is paired yet: pair round 1 at the desk")
        number = state.rounds[-1].round.number
        found = self.matches.get((number, table))
        if found is None:
            tables = sorted(t for n, t in self.matches if n == number)
            raise EventError(f"round {number} has no match at table {table}; its tables: {tables}")
        return found

    async def to_paper(self, table: int) -> ServedMatch:
        """Play table ``table`` of the round on paper: refused once its first game has begun, unless the match failed
        (its games played online are set aside under ``torn/``: the result typed at the desk is the whole match's)."""
        match = self._match(table)
        if match.state in (FINISHED, PAPER):
            raise EventError(f"table {table} is {match.state}: nothing to move to paper")
        if match.state == FAILED:
            return self._failed_to_paper(match)
        held = self.server.tables.get(match.table_id)
        if match.game > 1 or (held is not None and (held.started or held.live.decision_count > 0)):
            raise EventError(f"table {table} has begun its game {match.game}: it is played out online")
        match.paper = True
        if held is not None:
            task = self.server.tasks.pop(match.table_id, None)
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            self.server.tables.pop(match.table_id, None)
            held.hang_up()
            held.done.set()  # the match's thread goes on: it sees ``paper`` and stops
        if match.thread is not None:
            await asyncio.to_thread(match.thread.join, 30)
        match.state = PAPER
        return match

    def _failed_to_paper(self, match: ServedMatch) -> ServedMatch:
        store = EventStore.open(self.store.folder)
        cap = 2 * store.config().best_of + 1  # a level cut match plays up to N more games
        with self.lock:
            for game in range(1, cap + 1):
                path = store.log_path(match.number, match.pairing.table, game)
                if path.is_file():
                    store.set_aside(path)
        match.paper, match.state, match.error = True, PAPER, ""
        return match

    def paper_result(self, table: int, result: str) -> dict[str, Any]:
        """A paper table's result typed at the desk (``2-1``, ``2-1-1``, ``ID``): the same report as ``event
        result``."""
        match = self._match(table)
        if match.state != PAPER:
            raise EventError(f"table {table} is played online ({match.state}): its result comes from its games")
        with self.lock:
            outcome = loop.report(self.store, match.number, table, loop.parse_outcome(result)).outcome  # checked
        match.state = FINISHED
        return {"table": table, "result": f"{outcome.wins_a}-{outcome.wins_b}-{outcome.draws}"}

    def catch_up(self, base: str) -> list[str]:
        """What was done at the terminal while the server runs reaches it: a round paired with ``annals event pair``
        opens its tables, a player registered since (a late entry) gets a link. Returns the lines to print."""
        state = self.store.state()
        said: list[str] = []
        if set(state.registered) - set(self.tokens):
            new = set(state.registered) - set(self.tokens)
            self.tokens = self._tokens(self.tokens_path)
            said += [line for line in self.links(base) if any(f"({pid}): " in line for pid in new)]
        if state.rounds:
            rnd = state.rounds[-1].round
            if any(p.b and (rnd.number, p.table) not in self.matches for p in rnd.pairings):
                if not any(key[0] == rnd.number for key in self.matches):
                    self.paper_tables = set()  # --paper named the tables of the round under way at start
                opened = self.open_round()
                said.append(f"round {rnd.number} was paired at the terminal: {plural(len(opened), 'table')} open")
        return said

    async def watch(self, base: str, say: Callable[[str], None], every_s: float = 2.0) -> None:
        """``catch_up`` every ``every_s`` seconds while the server runs (a record unchanged costs a stat)."""
        failing = ""  # the record's problem said last: said once, not every few seconds, until it changes
        while True:
            await asyncio.sleep(every_s)
            try:
                lines = self.catch_up(base)
                if failing:
                    lines = ["the event's record reads again", *lines]
                failing = ""
            except AnnalsError as exc:  # an edited or damaged record: said, and the tables already open go on
                said = f"the event's record cannot be read: {exc}"
                lines = [] if said == failing else [said]
                failing = said
            for line in lines:
                say(line)

    def pair(self) -> int:
        """Pair the next round and open its tables."""
        with self.lock:
            rnd = loop.pair_next(self.store)
        self.tokens = self._tokens(self.tokens_path)  # a late entry's link
        self.paper_tables = set()
        self.open_round()
        return rnd.number

    def clock(self, action: str, minutes: int) -> int:
        with self.lock:
            if action == "start":
                return loop.start_round(self.store, minutes)
            if action == "end":
                return loop.end_round(self.store)
        raise EventArgumentError(f"clock action {action!r}: give start or end")

    def drop(self, who: str, reason: str) -> str:
        with self.lock:
            player = drop(self.store, resolve_player(self.store, who), reason=reason)
        return player.id

    # ------------------------------------------------------------------ what the pages show

    def view(self, *, private: bool) -> dict[str, Any]:
        """The event as the pages show it: the round, its clock, each table, the standings; ``private`` (the desk)
        adds the players' links and each table's spectator link. The public view holds no token."""
        state = self.store.state()
        names = self.names()
        out: dict[str, Any] = {"event": state.config.name, "ruleset": state.config.ruleset,
                               "best_of": state.config.best_of, "round": 0, "tables": []}  # fmt: skip
        if state.rounds:
            status = loop.status(self.store)
            out.update(round=status.round, stage=status.stage, minutes=status.minutes, started=status.started,
                       ended=status.ended, seconds_left=status.seconds_left)  # fmt: skip
            rnd = state.rounds[-1].round
            for pairing in rnd.pairings:
                out["tables"].append(self._table_view(rnd.number, pairing, names, private))
        out["complete"] = bool(state.rounds) and not state.open_tables(len(state.rounds))
        out["finished"] = state.finished()
        standings = current_standings(self.store) if state.results else []
        out["standings"] = [{"rank": s.rank, "name": names.get(s.player, s.player), "points": s.points,
                             "record": f"{s.wins}-{s.losses}-{s.draws}", "omw": round(s.omw * 100, 1),
                             "gw": round(s.gw * 100, 1)} for s in standings]  # fmt: skip
        if private:
            out["players"] = [{"id": p.id, "name": p.name, "dropped": p.dropped_after >= 0,
                               "link": f"/me?token={self.tokens[p.id]}" if p.id in self.tokens else ""}
                              for p in state.players()]  # fmt: skip
        return out

    def _table_view(self, number: int, pairing: Pairing, names: dict[str, str], private: bool) -> dict[str, Any]:
        state = self.store.state()
        row: dict[str, Any] = {"table": pairing.table, "a": names.get(pairing.a, pairing.a),
                               "b": names.get(pairing.b, pairing.b) if pairing.b else "(bye)"}  # fmt: skip
        match = self.matches.get((number, pairing.table))
        result = state.match(number, pairing.table)
        if result is not None:
            row["state"] = "finished"
            row["result"] = f"{result.wins_a}-{result.wins_b}-{result.draws}"
            row["winner"] = names.get(result.winner, result.winner) if result.winner else ""
            row["paper"] = bool(pairing.b) and not result.games
            if _intentional_draw(result):
                row["named"] = "intentional draw"
        elif match is None:
            row["state"] = WAITING
        elif match.state == PLAYING:
            held = self.server.tables.get(match.table_id)
            row["state"] = f"game {match.game}" if held is not None and held.started else WAITING
            row["game"] = match.game
        else:
            row["state"] = match.state
        if match is not None and match.error:
            row["error"] = match.error
        if private and match is not None and match.table_id and result is None and not match.paper:
            row["spectate"] = f"/play/{match.table_id}?token={match.spectators}"
        return row

    def me(self, pid: str) -> dict[str, Any]:
        """What a player's page shows: their name and the game they are to play now (its table), if any; ``match``
        says where their match stands (waiting, playing, finished, paper, failed: ``annals join`` on this link
        stops once it is over) and ``result`` its result once recorded, as the desk shows it."""
        state = self.store.state()
        names = state.names()
        out: dict[str, Any] = {"player": pid, "name": names.get(pid, pid), "table": None, "match": ""}
        rnd = state.rounds[-1].round if state.rounds else None
        pairing = next((p for p in rnd.pairings if pid in (p.a, p.b)), None) if rnd is not None else None
        if rnd is not None and pairing is not None:  # where their match of the round under way stands
            served = self.matches.get((rnd.number, pairing.table))
            out.update(round=rnd.number, at=pairing.table, match=served.state if served is not None else WAITING)
            recorded = state.match(rnd.number, pairing.table)
            if recorded is not None:
                winner = names.get(recorded.winner, "") if recorded.winner else ""
                score = f"{recorded.wins_a}-{recorded.wins_b}" + (f"-{recorded.draws}" if recorded.draws else "")
                said = "a bye" if not pairing.b else f"{winner} wins {score}" if winner else f"drawn {score}"
                if _intentional_draw(recorded):
                    said = "intentional draw"  # as the desk says it (_table_view)
                out.update(match=FINISHED, result=said)
        match = self.seats.get(pid)
        if match is not None and match.table_id:
            other = match.pairing.b if match.pairing.a == pid else match.pairing.a
            out.update(table=match.table_id, game=match.game, round=match.number, at=match.pairing.table,
                       opponent=names.get(other, other))  # fmt: skip
        return out

    def links(self, base: str) -> list[str]:
        """The lines ``serve --event`` prints: the desk, the public page, every player's link."""
        names = self.names()
        lines = [f"desk (organiser): {base}/desk?token={self.organiser_token}", f"public page: {base}/event"]
        lines += [f"player {names.get(pid, pid)} ({pid}): {base}/me?token={tok}" for pid, tok in self.tokens.items()]
        return lines
