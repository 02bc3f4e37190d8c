"""The round loop: pair the next round, enter results, correct them, change a pairing, run the round's clock.

Each function checks what is asked against the event's state and records one act (or refuses, changing nothing).
A result is checked against the match's best-of (``check_outcome``): an impossible one is refused by name as a
usage error. Corrections keep the first report and every correction in the record; standings take the last.
"""

from __future__ import annotations

import datetime
import re

import msgspec

from annals.engine.names import ROUND_MINUTES, plural
from annals.engine.rng import Rng
from annals.engine.tournament import chart
from annals.engine.tournament.event import (
    active,
    effective,
    entrants,
    need_judge,
    state_standings,
    swiss_results,
)
from annals.engine.tournament.match import derived_seed
from annals.engine.tournament.pairing import pair_next_bracket, pair_swiss, pair_top_cut
from annals.engine.tournament.record import EventArgumentError, EventError, EventState, RoundState
from annals.engine.tournament.standings import byes, match_points, opponents
from annals.engine.tournament.store import EventStore, now
from annals.schemas.event import (
    DOUBLE_LOSS,
    GAMES,
    INTENTIONAL_DRAW,
    NO_SHOW,
    SWISS,
    TOP,
    ClockEnded,
    ClockStarted,
    Corrected,
    Dropped,
    GameRecord,
    Outcome,
    Paired,
    Pairing,
    PairingChanged,
    Reported,
    Round,
    TimeExtended,
    Unpaired,
)

DEFAULT_MINUTES = ROUND_MINUTES
# A round or an extension of at most a day: more is no event's, and beyond 64 bits the record could not hold it,
# or past the year 9999 the round's end (``status``) could not be a date, breaking the event for good.
MAX_MINUTES = 24 * 60


# ---------------------------------------------------------------------------------------------- pairing


def _next_round(state: EventState) -> tuple[Round, int]:
    """The pairings of the next round (not recorded), and the Swiss rounds to record with round 1 (0 otherwise)."""
    config = state.config
    number = len(state.rounds) + 1
    if state.finished():
        raise EventError("the event has ended: every round is paired and every result is in")
    if state.rounds and state.open_tables(len(state.rounds)):
        open_ = ", ".join(str(p.table) for p in state.open_tables(len(state.rounds)))
        raise EventError(f"round {len(state.rounds)} is not finished: tables {open_} have no result; "
                         "enter them with 'annals event result'")  # fmt: skip
    players = state.players()
    field = entrants(players)
    if field < 2:
        raise EventError(f"{plural(field, 'player')} registered: an event needs at least 2; 'annals event register'")
    total = config.rounds or chart.recommended_rounds(field)
    if number == 1 and config.top and config.top >= field:
        raise EventError(f"a top {config.top} of a field of {field} cuts no one: the cut must be smaller than the "
                         f"field ({chart.advice(field)}); make the event again with a smaller --top")  # fmt: skip
    if number <= total:
        done = swiss_results(state)
        awarded = state.awarded.get(number, {})
        ranked = [s.player for s in state_standings(state)]
        act = {p.id for p in players if active(p, number) and p.dropped_after != 0 and p.id not in awarded}
        ranked = [p for p in ranked if p in act]
        seed = derived_seed(config.seed, "round", number)
        pairings = pair_swiss(ranked, match_points(ranked, done), opponents(done), byes(done), Rng(seed))
        pairings += [Pairing(len(pairings) + k, p, "") for k, p in enumerate(awarded, start=1)]
        return Round(number, SWISS, pairings, seed), (total if not config.rounds else 0)
    if not config.top:
        raise EventError(f"the event has {total} Swiss rounds and no top cut: round {number} does not exist")
    if number == total + 1:
        by_id = {p.id: p for p in players}
        table = [s.player for s in state_standings(state) if active(by_id[s.player], number)]
        if len(table) < config.top:
            raise EventError(f"{len(table)} active players for a top {config.top}: the cut cannot be made")
        return Round(number, TOP, pair_top_cut(table[: config.top]), 0), 0
    previous = state.rounds[-1].round
    winners = []
    for p in previous.pairings:
        m = state.match(previous.number, p.table)
        assert m is not None
        winners.append(effective(m).winner)
    return Round(number, TOP, pair_next_bracket(winners), 0), 0


def pair_next(store: EventStore) -> Round:
    """Pair the next round (Swiss, then the top cut's bracket) and record it."""
    with store.acting() as act:
        rnd, total = _next_round(act.state)
        act.record(Paired(at=now(), round=rnd, swiss_rounds=total))
    return rnd


def pair_again(store: EventStore, *, judge: str, reason: str) -> Round:
    """Withdraw the last round's pairings and pair it again: only before its clock starts and before any result
    (after a correction of an earlier round, say). Both acts are recorded."""
    need_judge(judge, reason)
    with store.acting() as act:
        state = act.state
        if not state.rounds:
            raise EventError("no round is paired yet: pair round 1 with 'annals event pair'")
        r = state.rounds[-1]
        number = r.round.number
        if r.clock.started:
            raise EventError(f"round {number} has started (its clock runs since {r.clock.started}): it stands")
        if any(key[0] == number for key in state.results):
            raise EventError(f"round {number} has results: it stands; correct them instead")
        act.record(Unpaired(at=now(), round=number, judge=judge.strip(), reason=reason.strip()))
        rnd, total = _next_round(act.state)
        act.record(Paired(at=now(), round=rnd, swiss_rounds=total))
    return rnd


def swap_players(store: EventStore, number: int, first: str, second: str, *, judge: str, reason: str) -> Round:
    """A manual pairing change: two players of round ``number`` trade places (tables or a bye), recorded with the
    judge and the reason. Neither of their tables may have a result yet."""
    need_judge(judge, reason)
    with store.acting() as act:
        state = act.state
        rnd = _round(state, number).round
        seat = {}
        for p in rnd.pairings:
            for side, who in (("a", p.a), ("b", p.b)):
                if who:
                    seat[who] = (p.table, side)
        for who in (first, second):
            if who not in seat:
                raise EventError(f"{state.player(who).name} is not paired in round {number}")
            if (number, seat[who][0]) in state.results:
                raise EventError(f"table {seat[who][0]} of round {number} has a result: correct it instead")
        if first == second:
            raise EventArgumentError("a pairing change swaps two different players")
        swap = {first: second, second: first}
        pairings = [Pairing(p.table, swap.get(p.a, p.a), swap.get(p.b, p.b)) for p in rnd.pairings]
        for p in pairings:
            if p.a and p.a == p.b:
                raise EventArgumentError(f"{first} and {second} play each other: swapping them changes nothing")
        act.record(PairingChanged(at=now(), round=number, pairings=pairings, judge=judge.strip(),
                                  reason=reason.strip()))  # fmt: skip
        return act.state.rounds[number - 1].round


def _round(state: EventState, number: int) -> RoundState:
    if not 1 <= number <= len(state.rounds):
        raise EventError(f"round {number} is not paired (rounds paired: {len(state.rounds)})")
    return state.rounds[number - 1]


# ---------------------------------------------------------------------------------------------- results


# Between the counts, what organisers type for "to": a hyphen, a colon, the dashes a phone or a word processor
# puts in its place (en and em dash, minus sign, non-breaking hyphen), spaces around any of them.
_RESULT = re.compile(r"\s*[0-9]{1,9}(?:\s*[-:\u2010-\u2015\u2212\ufe63\uff0d\uff1a]\s*[0-9]{1,9}){1,2}\s*")
_COUNT = re.compile(r"[0-9]+")


# How a match slip writes an intentional draw (R-EVT-10), in any case: ``ID``, ``id``, ``Draw``.
_DRAW_WORDS = ("id", "draw")


def parse_outcome(text: str) -> Outcome:
    """``2-1`` or ``2-1-1``: games won by the first-named player, by the second, and drawn; as people type it too
    (``2:1``, ``2–1``, ``2 - 1``); ``ID`` (or ``draw``) is an intentional draw. The desk's box and ``annals event
    result`` both read a result here; ``check_outcome`` then refuses what the match cannot have (an ID in the cut)."""
    if text.strip().casefold() in _DRAW_WORDS:
        return Outcome(0, 0, 3, INTENTIONAL_DRAW)
    if not _RESULT.fullmatch(text):
        raise EventArgumentError(f"result {text!r}: write the games won by each player and drawn, as 2-1 or 2-1-1, "
                                 "or ID for an intentional draw (at the terminal also --double-loss or --no-show "
                                 "PLAYER)")  # fmt: skip
    wa, wb, *d = (int(n) for n in _COUNT.findall(text))
    return Outcome(wa, wb, d[0] if d else 0)


def check_outcome(o: Outcome, pairing: Pairing, stage: str, best_of: int) -> Outcome:
    """The outcome as it will be recorded, or ``EventArgumentError`` naming why it cannot be a result of this
    match (a best of 3 never has more than 2 wins a side, nor more than 3 games in the Swiss)."""
    need = best_of // 2 + 1
    text = f"{o.wins_a}-{o.wins_b}-{o.draws}"
    if o.kind == INTENTIONAL_DRAW:
        if stage == TOP:
            raise EventArgumentError("a cut match needs a winner: there is no intentional draw in the top cut")
        return Outcome(0, 0, 3, INTENTIONAL_DRAW)  # MTR 2.4: intentional draws are reported as 0-0-3
    if o.kind == NO_SHOW:
        if o.absent not in (pairing.a, pairing.b):
            raise EventArgumentError(f"--no-show {o.absent!r}: name one of the table's players, {pairing.a} or "
                                     f"{pairing.b}")  # fmt: skip
        return Outcome(0, need, 0, NO_SHOW, o.absent) if o.absent == pairing.a else Outcome(need, 0, 0, NO_SHOW,
                                                                                            o.absent)  # fmt: skip
    if min(o.wins_a, o.wins_b, o.draws) < 0:
        raise EventArgumentError(f"{text}: games are counted from 0")
    if max(o.wins_a, o.wins_b) > need:
        raise EventArgumentError(f"{text} is not a result of a best of {best_of}: a match ends when a player wins "
                                 f"{need} games")  # fmt: skip
    if o.wins_a == need and o.wins_b == need:
        raise EventArgumentError(f"{text} is not a result of a best of {best_of}: both players cannot win {need}")
    games = o.wins_a + o.wins_b + o.draws
    cap = best_of if stage == SWISS else 2 * best_of
    if games > cap:
        raise EventArgumentError(f"{text} is {games} games: a best of {best_of} plays at most {cap}"
                                 + (" in the Swiss" if stage == SWISS else " in the cut"))  # fmt: skip
    if o.kind == DOUBLE_LOSS:
        if stage == TOP:
            raise EventArgumentError("a cut match needs a winner: there is no double loss in the top cut")
        return Outcome(o.wins_a, o.wins_b, o.draws, DOUBLE_LOSS)
    if games == 0:
        raise EventArgumentError("0-0-0: no game was played; give the games, or a named result (--draw for an "
                                 "intentional draw, --double-loss, --no-show PLAYER)")  # fmt: skip
    if stage == TOP and o.wins_a == o.wins_b:
        raise EventArgumentError(f"{text}: a cut match needs a winner; give one player more game wins")
    return Outcome(o.wins_a, o.wins_b, o.draws, GAMES)


def report(
    store: EventStore,
    number: int,
    table: int,
    outcome: Outcome,
    *,
    games: list[GameRecord] | None = None,
    ended: str = "",
    advanced: str = "",
) -> Reported:
    """Enter the result of the match at ``table`` of round ``number`` (once; a later change is a correction). A
    no-show also drops the absent player after this round."""
    with store.acting() as act:
        state = act.state
        pairing = state.pairing(number, table, event=store.typed)
        if not pairing.b:
            raise EventError(f"round {number} table {table} is {state.names()[pairing.a]}'s bye: it has its result")
        if (number, table) in state.results:
            m = state.match(number, table)
            assert m is not None
            r, names = effective(m), state.names()  # as it stands, a correction included
            stands = f"{names[r.a]} {r.wins_a}-{r.wins_b}" + (f"-{r.draws}" if r.draws else "") + f" {names[r.b]}"
            raise EventError(f"round {number} table {table} already has a result ({stands}); to change it, a judge "
                             f"corrects it: annals event correct {store.typed} --round {number} --table {table} "
                             "RESULT --judge NAME --reason WHY")  # fmt: skip
        stage = state.rounds[number - 1].round.stage
        checked = outcome if games else check_outcome(outcome, pairing, stage, state.config.best_of)
        done = Reported(
            at=now(), round=number, table=table, outcome=checked, games=games or [], ended=ended, advanced=advanced
        )
        act.record(done)
        absent = checked.absent
        if checked.kind == NO_SHOW and absent not in state.dropped:
            act.record(Dropped(at=now(), player=absent, after=number, reason="no-show"))
    return done


def correct(store: EventStore, number: int, table: int, outcome: Outcome, *, judge: str, reason: str) -> Corrected:
    """A judge corrects an earlier result (any round): the record keeps the report and every correction, and the
    standings take the last. A cut match's result stands once the next cut round is paired (the bracket rests on
    its winner)."""
    need_judge(judge, reason)
    with store.acting() as act:
        state = act.state
        pairing = state.pairing(number, table, event=store.typed)
        if not pairing.b:
            raise EventError(
                f"round {number} table {table} is {state.names()[pairing.a]}'s bye: there is no result to correct"
            )
        if (number, table) not in state.results:
            raise EventError(f"round {number} table {table} has no result yet: enter it with 'annals event result'")
        stage = state.rounds[number - 1].round.stage
        if stage == TOP and len(state.rounds) > number:
            raise EventError(f"round {number + 1} is paired from this cut match's winner: its result stands")
        checked = check_outcome(outcome, pairing, stage, state.config.best_of)
        fix = Corrected(at=now(), round=number, table=table, outcome=checked, judge=judge.strip(),
                        reason=reason.strip())  # fmt: skip
        act.record(fix)
    return fix


def may_pair_again(store: EventStore) -> bool:
    """The last round is paired, has not started and has no result: the organiser may pair it again."""
    state = store.state()
    if not state.rounds:
        return False
    r = state.rounds[-1]
    return not r.clock.started and not any(k[0] == r.round.number for k in state.results)


# ---------------------------------------------------------------------------------------------- the clock


def _current(state: EventState) -> RoundState:
    if not state.rounds:
        raise EventError("no round is paired yet: pair round 1 with 'annals event pair'")
    return state.rounds[-1]


def start_round(store: EventStore, minutes: int = DEFAULT_MINUTES) -> int:
    if not 1 <= minutes <= MAX_MINUTES:
        raise EventArgumentError(f"--minutes {minutes}: a round lasts from a minute to a day ({MAX_MINUTES})")
    with store.acting() as act:
        r = _current(act.state)
        if r.clock.started:
            raise EventError(f"round {r.round.number} has already started ({r.clock.started})")
        act.record(ClockStarted(at=now(), round=r.round.number, minutes=minutes))
        return r.round.number


def end_round(store: EventStore) -> int:
    with store.acting() as act:
        r = _current(act.state)
        if not r.clock.started:
            n = r.round.number
            if not act.state.open_tables(n):  # a round played without its clock: nothing to end, what comes next
                after = (f"the event is over: 'annals event standings {store.typed}'" if act.state.finished()
                         else f"pair the next round with 'annals event pair {store.typed}'")  # fmt: skip
                raise EventError(f"round {n}'s clock was never started, so there is none to end; its results are all "
                                 f"in: {after}")  # fmt: skip
            raise EventError(f"round {n}'s clock has not started: 'annals event round {store.typed} start' starts "
                             "it")  # fmt: skip
        if r.clock.ended:
            raise EventError(f"round {r.round.number} has already ended ({r.clock.ended})")
        act.record(ClockEnded(at=now(), round=r.round.number))
        return r.round.number


def extend(store: EventStore, table: int, minutes: int, *, judge: str = "", reason: str = "") -> TimeExtended:
    """Extra minutes for one table of the round under way (a deck check, a long ruling)."""
    if not 1 <= minutes <= MAX_MINUTES:
        raise EventArgumentError(f"--minutes {minutes}: an extension is from a minute to a day ({MAX_MINUTES})")
    with store.acting() as act:
        r = _current(act.state)
        act.state.pairing(r.round.number, table, event=store.typed)
        if not r.clock.started or r.clock.ended:
            raise EventError(f"round {r.round.number} is not under way: time is extended while the clock runs")
        ext = TimeExtended(at=now(), round=r.round.number, table=table, minutes=minutes, judge=judge, reason=reason)
        act.record(ext)
    return ext


class TableStatus(msgspec.Struct, frozen=True):
    table: int
    a: str
    b: str
    extra_minutes: int
    seconds_left: int | None  # None while the clock has not started


class RoundStatus(msgspec.Struct, frozen=True):
    round: int
    stage: str
    minutes: int
    started: str
    ended: str
    seconds_left: int | None
    open_tables: list[TableStatus]
    tables: int


def status(store: EventStore, at: datetime.datetime | None = None) -> RoundStatus:
    """The round under way: its clock, and each table still without a result with its own time left."""
    state = store.state()
    r = _current(state)
    when = at or datetime.datetime.now(datetime.UTC)
    clock = r.clock

    def left(extra: int) -> int | None:
        if not clock.started:
            return None
        end = datetime.datetime.fromisoformat(clock.started) + datetime.timedelta(minutes=clock.minutes + extra)
        stop = datetime.datetime.fromisoformat(clock.ended) if clock.ended else when
        return int((end - stop).total_seconds())

    tables = [TableStatus(p.table, p.a, p.b, clock.extensions.get(p.table, 0), left(clock.extensions.get(p.table, 0)))
              for p in state.open_tables(r.round.number)]  # fmt: skip
    return RoundStatus(r.round.number, r.round.stage, clock.minutes, clock.started, clock.ended, left(0), tables,
                       len(r.round.pairings))  # fmt: skip
