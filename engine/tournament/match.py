"""One match: best-of-N games, each recorded in its own log, the result read back from the logs' closing records.

Who plays first (R-EVT-02): Miras 9 draws lots for game 1 ([M9-022]'s "agreed random method", from the event's
seed, recorded as the game's ``decider`` with method "lot"); afterwards the loser of the previous game decides,
and after a drawn game the same player decides again. The decider's choice is asked of ``choose_first`` (bots
always play first). MORANA has no first player [MOR-13]: lots decide the seats of game 1 and the seats swap
every game (R-EVT-03).

The time limit is the event's turn cap: a game reaching it is drawn (end reason ``turn_cap``); a Swiss match
plays at most N games, so a drawn game can leave it level: a drawn match, ended by "time" (R-EVT-04). A level
cut match plays on, one game at a time, up to N more; still level, the higher seed advances ("seed").
"""

from __future__ import annotations

import contextlib
import hashlib
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import msgspec

from annals.engine import ENGINE_VERSION
from annals.engine.core import Ruleset
from annals.engine.rng import Rng
from annals.engine.runner import finalize_header, play
from annals.engine.simulate import bots_for
from annals.engine.table import read_prefix
from annals.engine.tournament.record import EventError
from annals.engine.tournament.store import EventStore
from annals.schemas.errors import AnnalsError, CorruptLogError, TruncatedLogError
from annals.schemas.event import TOP, EventConfig, GameRecord, MatchRecord, Pairing, Player
from annals.schemas.header import LogHeader, PlayerInfo, TournamentInfo
from annals.schemas.keys import SigningKey
from annals.schemas.logfile import FORMAT_VERSION, read_log
from annals.schemas.signing import sign_log

GamePlayer = Callable[[Ruleset[Any], LogHeader, Path], None]  # plays one game, writing its log at the path
FirstChooser = Callable[[str, int], bool]  # (deciding player's id, game number) -> does the decider play first?
NO_FIRST_PLAYER = ("morana",)  # rulesets without a first player [MOR-13]


def bot_game(ruleset: Ruleset[Any], header: LogHeader, path: Path) -> None:
    """The default: each seat's bot (the header's agent), with its seat's generator, writes the log."""
    play(ruleset, header, bots_for(ruleset, header), path)


def play_first(decider: str, game: int) -> bool:
    return True


def derived_seed(seed: int, *parts: object) -> int:
    """A 63-bit seed for one draw of the event, from the event's seed and where it is used."""
    text = ":".join(str(p) for p in (seed, *parts))
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big") >> 1


def bye_record(number: int, stage: str, pairing: Pairing, turn_cap: int) -> MatchRecord:
    """A bye: a match win, 2-0 in games, with no game played."""
    return MatchRecord(number, stage, pairing.table, pairing.a, "", [], 2, 0, 0, pairing.a, "bye", turn_cap)


def unlisted(people: Sequence[Player], number: int, table: int) -> str:
    """Why the match of ``people`` at round ``number``, ``table`` cannot be played through annals: a player registered
    without a deck list (R-EVT-14), and what the organiser does instead."""
    names = " and ".join(f"{p.name} ({p.id})" for p in people if p.deck is None)
    return (f"round {number} table {table}: {names} registered without a deck list, and a game played through "
            "annals needs one: the match is played on paper, its result typed (annals event result, or at the "
            "desk)")  # fmt: skip


class MatchContext:
    """What every match of an event shares."""

    def __init__(
        self,
        store: EventStore,
        config: EventConfig,
        ruleset: Ruleset[Any],
        players: Mapping[str, Player],
        *,
        game: GamePlayer = bot_game,
        choose_first: FirstChooser = play_first,
        key: SigningKey | None = None,
        resumes: bool = False,
    ):
        self.store = store
        self.config = config
        self.ruleset = ruleset
        self.players = players
        self.game = game
        self.choose_first = choose_first
        self.key = key
        self.resumes = resumes  # ``game`` goes on with a torn log of its game (the server's tables resume)

    def header(self, number: int, pairing: Pairing, game: int, seats: list[str], first: int) -> LogHeader:
        cfg, rs = self.config, self.ruleset
        # each player's list as it stands when the game begins: one handed in since the match opened counts (R-EVT-15)
        lists = self.store.state().registered
        people = [
            self.players[p] if p not in lists else msgspec.structs.replace(self.players[p], deck=lists[p].player.deck)
            for p in seats
        ]
        decks = [p.deck for p in people if p.deck is not None]
        if len(decks) != len(people):
            raise EventError(unlisted(people, number, pairing.table))
        info = TournamentInfo(
            cfg.event_id, number, pairing.table, f"r{number}-t{pairing.table}", game, tuple(seats), first
        )
        return finalize_header(
            LogHeader(
                format_version=FORMAT_VERSION,
                engine_version=ENGINE_VERSION,
                ruleset=rs.schema.name,
                ruleset_version=rs.schema.version,
                card_pool_hash=rs.card_pool_hash(),
                seed=derived_seed(cfg.seed, "game", number, pairing.table, game),
                players=[PlayerInfo(p.name, p.agent or cfg.agent) for p in people],
                decks=decks,
                tournament=info,
                max_turns=cfg.max_turns,
            )
        )

    def recorded_game(self, header: LogHeader, path: Path) -> tuple[int, str, int, str]:
        """The game's (winner seat, end reason, turns, digest), from its log: an existing whole log is read, a
        torn one (a crash) is set aside under ``torn/`` and the game played again — or, when the game player
        ``resumes``, left for it to go on with —, a missing one played. Every finished log is signed with the
        event's key (``schemas.signing.sign_log``; again, for a log finished before a crash, is a no-op when it is
        already signed by the key). ``digest`` is the signed log's."""
        reuse = torn = False
        if path.exists():
            try:
                reuse = read_log(path).header == header
            except TruncatedLogError:
                torn = self.resumes and _torn_header(path) == header
            except CorruptLogError:
                pass
            if not reuse and not torn:
                self.store.set_aside(path)
        if not reuse:
            path.parent.mkdir(parents=True, exist_ok=True)
            self.game(self.ruleset, header, path)
        sign_log(path, self.key)
        log = read_log(path)
        winner, reason = log.result  # as it stands: a judge's game loss or override counts (R-EVT-07)
        return winner, reason, log.close.turns, log.digest


def _torn_header(path: Path) -> LogHeader | None:
    """The header of a log cut short, or None when not even that much of it is whole."""
    with contextlib.suppress(AnnalsError):
        return read_prefix(path)[0]
    return None


def play_match(ctx: MatchContext, number: int, stage: str, pairing: Pairing, seeds: Mapping[str, int]) -> MatchRecord:
    """Play (or finish, after a crash) the match at ``pairing`` of round ``number``; ``seeds`` ranks a cut."""
    cfg = ctx.config
    if not pairing.b:
        return bye_record(number, stage, pairing, cfg.max_turns)
    a, b = pairing.a, pairing.b
    need = cfg.best_of // 2 + 1
    games: list[GameRecord] = []
    seen: list[tuple[int, int]] = []  # each game's log as last read (size, mtime): read again when it changes
    lots = Rng(derived_seed(cfg.seed, "lots", number, pairing.table))
    decider = (a, b)[lots.below(2)]
    no_first = ctx.ruleset.schema.name in NO_FIRST_PLAYER

    def tally() -> tuple[dict[str, int], int]:
        """Game wins and draws so far, each game's result as it stands: a judge's game loss or override on a game
        already played (``annals judge`` while the match goes on, R-EVT-07) counts from the next game on."""
        for i, g in enumerate(games):
            path = ctx.store.folder / g.log
            if _stat(path) != seen[i]:
                with contextlib.suppress(TruncatedLogError, CorruptLogError):  # being written: read it next time
                    log = read_log(path)
                    seat, reason = log.result
                    winner = g.seats[seat] if seat >= 0 else ""
                    games[i] = msgspec.structs.replace(g, winner=winner, end_reason=reason, digest=log.digest)
                    seen[i] = _stat(path)
        wins = {a: sum(g.winner == a for g in games), b: sum(g.winner == b for g in games)}
        return wins, sum(not g.winner for g in games)

    def more_games() -> bool:
        wins = tally()[0]
        if max(wins.values()) >= need:
            return False
        if len(games) < cfg.best_of:
            return True
        return stage == TOP and wins[a] == wins[b] and len(games) < 2 * cfg.best_of

    while more_games():
        g = len(games) + 1
        if no_first:
            seats = [a, b] if (decider == a) == (g % 2 == 1) else [b, a]
            first_seat, method, who, first_id = -1, "seats", "", ""
        else:
            if g == 1:
                method = "lot"
            elif games[-1].winner:
                decider = a if games[-1].winner == b else b
                method = "loser"
            else:
                method = "drawn"
            other = b if decider == a else a
            first_id = decider if ctx.choose_first(decider, g) else other
            seats, first_seat, who = [a, b], [a, b].index(first_id), decider
        header = ctx.header(number, pairing, g, seats, first_seat)
        path = ctx.store.log_path(number, pairing.table, g)
        winner_seat, reason, turns, digest = ctx.recorded_game(header, path)
        winner = seats[winner_seat] if winner_seat >= 0 else ""
        rel = str(path.relative_to(ctx.store.folder))
        games.append(GameRecord(g, rel, header.game_id, seats, first_id, who, method, winner, reason, turns, digest))
        seen.append(_stat(path))
    wins, draws = tally()
    if wins[a] != wins[b]:
        winner = a if wins[a] > wins[b] else b
        ended = "games" if max(wins.values()) >= need else "time"
    elif stage == TOP:
        winner, ended = (a if seeds.get(a, 0) <= seeds.get(b, 0) else b), "seed"
    else:
        winner, ended = "", "time"
    return MatchRecord(number, stage, pairing.table, a, b, games, wins[a], wins[b], draws, winner, ended, cfg.max_turns)


def _stat(path: Path) -> tuple[int, int]:
    st = path.stat()
    return st.st_size, st.st_mtime_ns
