"""The fold of an event's record: its acts, in order, into the state every command reads (``EventState``).

Nothing here does I/O or decides anything: the library (``engine.tournament.event``) checks an act before it is
recorded; the fold only applies it, as a game's reducer applies an event. An act that does not fit the state
before it (a result for a table that was never paired) can only come from a record written by something else:
it raises ``EventError`` naming the act.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import msgspec

from annals.schemas.errors import AnnalsError, BadArgumentError
from annals.schemas.event import (
    DOUBLE_LOSS,
    NO_SHOW,
    TOP,
    AnyAct,
    ByeAwarded,
    ClockEnded,
    ClockStarted,
    Corrected,
    Created,
    DeckHandedIn,
    Dropped,
    EventConfig,
    LogSetAside,
    MatchRecord,
    Outcome,
    Override,
    Paired,
    Pairing,
    PairingChanged,
    Player,
    Registered,
    Renamed,
    Reported,
    Restated,
    Round,
    TimeExtended,
    Unpaired,
)


class EventError(AnnalsError, ValueError):
    """An event folder or an action on it is not valid: the message says what and how to fix it."""


class EventArgumentError(EventError, BadArgumentError):
    """What was asked cannot be (a best of 2, an impossible result): a usage error, exit 2."""


@dataclass
class Clock:
    """A round's clock: started at ``started`` (UTC, ISO) for ``minutes``, ended at ``ended``; extra minutes a
    table."""

    minutes: int = 0
    started: str = ""
    ended: str = ""
    extensions: dict[int, int] = field(default_factory=dict)


@dataclass
class RoundState:
    round: Round
    clock: Clock = field(default_factory=Clock)
    changes: list[PairingChanged] = field(default_factory=list)


@dataclass
class MatchState:
    """A paired table's result: the report, every restatement of its games from their logs (a judge's act on a game,
    R-EVT-07) and every correction. The last of them counts: the games are the last restatement's (the report's when
    there is none), and a correction overrides them only if recorded after that restatement."""

    reported: Reported
    corrections: list[Corrected] = field(default_factory=list)
    restated: list[Restated] = field(default_factory=list)
    superseded: int = 0  # the corrections recorded before the last restatement, which stands over them

    @property
    def current(self) -> Reported | Restated:
        """The games and the result they give: the last restatement's, or the report's."""
        return self.restated[-1] if self.restated else self.reported

    @property
    def correction(self) -> Corrected | None:
        """The correction that counts: the last one, if recorded after the last restatement."""
        return self.corrections[-1] if len(self.corrections) > self.superseded else None

    @property
    def outcome(self) -> Outcome:
        fix = self.correction
        return fix.outcome if fix is not None else self.current.outcome


@dataclass
class EventState:
    config: EventConfig
    key: str
    key_files: dict[str, str]
    registered: dict[str, Registered] = field(default_factory=dict)
    dropped: dict[str, Dropped] = field(default_factory=dict)
    awarded: dict[int, dict[str, ByeAwarded]] = field(default_factory=dict)  # round -> player -> act
    rounds: list[RoundState] = field(default_factory=list)
    results: dict[tuple[int, int], MatchState] = field(default_factory=dict)
    set_aside: list[LogSetAside] = field(default_factory=list)
    withdrawn: list[Unpaired] = field(default_factory=list)
    replaced_lists: list[tuple[str, str]] = field(default_factory=list)  # (file, SHA-256) of each list handed in over
    acts: int = 0

    # ------------------------------------------------------------------ views

    def players(self) -> list[Player]:
        out = []
        for pid, reg in self.registered.items():
            d = self.dropped.get(pid)
            out.append(msgspec.structs.replace(reg.player, dropped_after=d.after if d else -1))
        return out

    def names(self) -> dict[str, str]:
        """Each player's name as the pairings, the wall and the slips show it: a name two players share is
        followed by the id ("Tom Smith (tom)"), so that each finds their own table."""
        players = self.players()
        count = Counter(p.name.casefold() for p in players)
        return {p.id: p.name if count[p.name.casefold()] == 1 else f"{p.name} ({p.id})" for p in players}

    def player(self, pid: str) -> Player:
        for p in self.players():
            if p.id == pid:
                return p
        raise EventError(f"no player {pid!r} in this event; 'annals event players' lists them")

    def round_list(self) -> list[Round]:
        return [r.round for r in self.rounds]

    def find_pairing(self, number: int, table: int) -> Pairing | None:
        """The pairing at ``table`` of round ``number``, if the round is paired and has that table."""
        if not 1 <= number <= len(self.rounds):
            return None
        return next((p for p in self.rounds[number - 1].round.pairings if p.table == table), None)

    def pairing(self, number: int, table: int, *, event: str = "EVENT") -> Pairing:
        """The pairing at ``table`` of round ``number``; a round or table typed that names nothing is a usage error
        that says how to list the tables (``event``: the folder as the command was given it)."""
        found = self.find_pairing(number, table)
        if found is not None:
            return found
        if not 1 <= number <= len(self.rounds):
            raise EventArgumentError(f"round {number} is not paired (rounds paired: {len(self.rounds)}); "
                                     f"'annals event pairings {event}' lists the last round's tables")  # fmt: skip
        pairings = self.rounds[number - 1].round.pairings
        raise EventArgumentError(f"round {number} has no table {table} (its tables: 1 to {len(pairings)}); "
                                 f"'annals event pairings {event} --round {number}' lists them")  # fmt: skip

    def match(self, number: int, table: int) -> MatchRecord | None:
        """The match at a table as a record (a bye's is implied by its pairing), or None while it has no result."""
        p = self.pairing(number, table)
        stage = self.rounds[number - 1].round.stage
        if not p.b:
            return MatchRecord(number, stage, table, p.a, "", [], 2, 0, 0, p.a, "bye", self.config.max_turns)
        state = self.results.get((number, table))
        if state is None:
            return None
        first = state.current
        o = first.outcome
        winner = first.advanced or _winner(p, o)
        ended = first.ended or o.kind
        override = None
        c = state.correction
        if c is not None:
            override = Override(c.judge, c.reason, c.outcome.wins_a, c.outcome.wins_b, c.outcome.draws, c.outcome.kind)
        return MatchRecord(number, stage, table, p.a, p.b, first.games, o.wins_a, o.wins_b, o.draws, winner, ended,
                           self.config.max_turns, override)  # fmt: skip

    def matches(self) -> list[MatchRecord]:
        out = []
        for r in self.rounds:
            for p in r.round.pairings:
                m = self.match(r.round.number, p.table)
                if m is not None:
                    out.append(m)
        return out

    def open_tables(self, number: int) -> list[Pairing]:
        """The tables of round ``number`` still without a result (byes have theirs)."""
        return [p for p in self.rounds[number - 1].round.pairings if p.b and (number, p.table) not in self.results]

    def finished(self) -> bool:
        """Every round the event will have is paired and has every result."""
        if not self.rounds or self.open_tables(len(self.rounds)):
            return False
        last = self.rounds[-1].round
        if last.stage == TOP:
            return len(last.pairings) == 1
        return not self.config.top and self.config.rounds > 0 and last.number >= self.config.rounds


def _winner(p: Pairing, o: Outcome) -> str:
    if o.kind == NO_SHOW:
        return p.b if o.absent == p.a else p.a
    if o.kind == DOUBLE_LOSS:
        return ""
    return p.a if o.wins_a > o.wins_b else p.b if o.wins_b > o.wins_a else ""


def fold(acts: list[AnyAct]) -> EventState:
    """The state after ``acts``, the first of which must create the event."""
    if not acts or not isinstance(acts[0], Created):
        raise EventError("the event record does not begin with the event's creation; it is not an event's record")
    first = acts[0]
    state = EventState(first.config, first.key, first.key_files)
    for i, act in enumerate(acts[1:], start=1):
        try:
            apply(state, act)
        except (KeyError, IndexError) as exc:
            raise EventError(f"act {i} ({type(act).__name__}) does not fit the record before it ({exc}); the "
                             "record was written by something other than annals") from None  # fmt: skip
        state.acts = i + 1
    return state


def apply(state: EventState, act: AnyAct) -> None:
    t = type(act)
    if t is Registered:
        assert isinstance(act, Registered)
        state.registered[act.player.id] = act
    elif t is Renamed:
        assert isinstance(act, Renamed)
        reg = state.registered[act.player]
        state.registered[act.player] = msgspec.structs.replace(
            reg, player=msgspec.structs.replace(reg.player, name=act.name)
        )
    elif t is DeckHandedIn:
        assert isinstance(act, DeckHandedIn)
        reg = state.registered[act.player]
        if reg.player.deck is not None:
            state.replaced_lists.append((reg.player.deck_file, reg.deck_sha256))
        player = msgspec.structs.replace(reg.player, deck=act.deck, deck_file=act.deck_file)
        state.registered[act.player] = msgspec.structs.replace(reg, player=player, deck_sha256=act.deck_sha256)
    elif t is Dropped:
        assert isinstance(act, Dropped)
        state.dropped[act.player] = act
    elif t is ByeAwarded:
        assert isinstance(act, ByeAwarded)
        state.awarded.setdefault(act.round, {})[act.player] = act
    elif t is Paired:
        assert isinstance(act, Paired)
        if act.round.number != len(state.rounds) + 1:
            raise IndexError(f"round {act.round.number} paired after round {len(state.rounds)}")
        state.rounds.append(RoundState(act.round))
        if act.swiss_rounds:
            state.config = msgspec.structs.replace(state.config, rounds=act.swiss_rounds)
    elif t is Unpaired:
        assert isinstance(act, Unpaired)
        if act.round != len(state.rounds):
            raise IndexError(f"round {act.round} withdrawn, but the last round paired is {len(state.rounds)}")
        state.rounds.pop()
        state.withdrawn.append(act)
    elif t is PairingChanged:
        assert isinstance(act, PairingChanged)
        r = state.rounds[act.round - 1]
        r.round = msgspec.structs.replace(r.round, pairings=act.pairings)
        r.changes.append(act)
    elif t is Reported:
        assert isinstance(act, Reported)
        if state.find_pairing(act.round, act.table) is None:
            raise KeyError(f"round {act.round} has no table {act.table}")  # a record written by something else
        state.results[(act.round, act.table)] = MatchState(act)
    elif t is Corrected:
        assert isinstance(act, Corrected)
        state.results[(act.round, act.table)].corrections.append(act)
    elif t is Restated:
        assert isinstance(act, Restated)
        match = state.results[(act.round, act.table)]
        match.restated.append(act)
        match.superseded = len(match.corrections)
    elif t is ClockStarted:
        assert isinstance(act, ClockStarted)
        clock = state.rounds[act.round - 1].clock
        clock.minutes, clock.started = act.minutes, act.at
    elif t is ClockEnded:
        assert isinstance(act, ClockEnded)
        state.rounds[act.round - 1].clock.ended = act.at
    elif t is TimeExtended:
        assert isinstance(act, TimeExtended)
        ext = state.rounds[act.round - 1].clock.extensions
        ext[act.table] = ext.get(act.table, 0) + act.minutes
    elif t is LogSetAside:
        assert isinstance(act, LogSetAside)
        state.set_aside.append(act)
    elif t is Created:
        raise KeyError("a second creation act")
    else:  # pragma: no cover - the union is closed
        raise NotImplementedError(act)


__all__ = [
    "Clock",
    "EventArgumentError",
    "EventError",
    "EventState",
    "MatchState",
    "RoundState",
    "apply",
    "fold",
]
