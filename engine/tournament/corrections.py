"""What a correction changed: the standings before and after it, and the rounds already paired on the old ones.

A correction of round N after round N+1 (or later) is paired changes the standings at once (they are folded from
the record), but a round already paired is never re-paired by itself: its players may be sitting at its tables.
The last round may be paired again while it has neither a started clock nor a result (``rounds.pair_again``);
any other round paired after N stands as it was paired (R-EVT-11). ``correct`` records the correction and says
all of this, so the organiser is not left to find out by comparing printouts.
"""

from __future__ import annotations

import msgspec

from annals.engine.names import plural
from annals.engine.tournament import rounds as loop
from annals.engine.tournament.event import state_standings
from annals.engine.tournament.record import EventState
from annals.engine.tournament.standings import Standing
from annals.engine.tournament.store import EventStore
from annals.schemas.commandline import quoted
from annals.schemas.event import TOP, Corrected, Outcome


class Moved(msgspec.Struct, frozen=True):
    """One player's place before and after the correction."""

    player: str
    points_before: int
    points_after: int
    rank_before: int
    rank_after: int


class LaterRound(msgspec.Struct, frozen=True):
    """A round paired after the corrected one, on the standings before the correction."""

    number: int
    may_pair_again: bool  # the last round, with no clock started and no result: it may be paired again
    why_it_stands: str  # otherwise, in words: "its clock has started", "it has results", "round 4 is paired"


class Effect(msgspec.Struct, frozen=True):
    fix: Corrected
    moved: list[Moved]  # players whose points or rank changed, by their new rank
    tiebreaks_only: list[str]  # players whose OMW%, GW% or OGW% changed but not their points or rank
    later: list[LaterRound]
    swiss_left: int  # Swiss rounds still to be paired after the last one paired
    cut_paired: bool  # the top cut was seeded from the Swiss standings before the correction
    cut_to_come: bool = False  # a top cut not yet paired: it will be seeded from the corrected standings

    def lines(self, names: dict[str, str], folder: str) -> list[str]:
        """The effect in words, a line each, for the terminal."""
        out: list[str] = []
        for m in self.moved:
            points = (f"{m.points_before} -> {plural(m.points_after, 'point')}" if m.points_before != m.points_after
                      else plural(m.points_after, "point"))  # fmt: skip
            place = (f"rank {m.rank_before} -> {m.rank_after}" if m.rank_before != m.rank_after
                     else f"still rank {m.rank_after}")  # fmt: skip
            out.append(f"standings: {names[m.player]}: {points}, {place}")
        if self.tiebreaks_only:
            who = ", ".join(names[p] for p in self.tiebreaks_only)
            out.append(f"standings: only the tiebreakers (OMW%, GW%, OGW%) changed for {who}")
        if not self.moved and not self.tiebreaks_only:
            out.append("standings: no one's points, rank or tiebreakers changed")
        standing = [r for r in self.later if not r.may_pair_again]
        for r in standing:
            out.append(f"round {r.number} was paired on the standings before this correction and stands "
                       f"({r.why_it_stands}): annals does not re-pair it")  # fmt: skip
        for r in self.later:
            if r.may_pair_again:
                out.append(f"round {r.number} was paired on the standings before this correction and has not "
                           f"started: it stands as paired unless you pair it again: annals event pair {quoted(folder)} "
                           "--again --judge NAME --reason WHY")  # fmt: skip
        if self.cut_paired:
            out.append(
                "the top cut was seeded from the Swiss standings before this correction and stands: "
                "its bracket is not seeded again"
            )
        elif standing and not any(r.may_pair_again for r in self.later):
            then = ("the top cut will be seeded from the corrected standings" if self.cut_to_come
                    else "the final standings count the correction")  # fmt: skip
            out.append(f"round {self.last_paired + 1} will be paired on the corrected standings" if self.swiss_left
                       else f"no Swiss round is left to pair: {then}")  # fmt: skip
        return out

    @property
    def last_paired(self) -> int:
        return self.later[-1].number if self.later else self.fix.round


def _why_it_stands(state: EventState, number: int) -> str:
    r = state.rounds[number - 1]
    if r.clock.started:
        return "its clock has started"
    if any(key[0] == number for key in state.results):
        return "it has results"
    return f"round {len(state.rounds)} is paired after it"


def compare(before: list[Standing], after: list[Standing]) -> tuple[list[Moved], list[str]]:
    """Players whose points or rank changed (by their new rank), and those whose tiebreakers alone changed."""
    old = {s.player: s for s in before}
    moved: list[Moved] = []
    tiebreaks: list[str] = []
    for s in after:
        o = old.get(s.player)
        if o is None:
            continue
        if (o.points, o.rank) != (s.points, s.rank):
            moved.append(Moved(s.player, o.points, s.points, o.rank, s.rank))
        elif (o.omw, o.gw, o.ogw) != (s.omw, s.gw, s.ogw):
            tiebreaks.append(s.player)
    return moved, tiebreaks


def correct(store: EventStore, number: int, table: int, outcome: Outcome, *, judge: str, reason: str) -> Effect:
    """Record the correction (``rounds.correct``) and say what it changed and which later rounds stand."""
    before = state_standings(store.state())
    fix = loop.correct(store, number, table, outcome, judge=judge, reason=reason)
    state = store.state()
    moved, tiebreaks = compare(before, state_standings(state))
    last = len(state.rounds)
    later: list[LaterRound] = []
    cut = False
    for n in range(number + 1, last + 1):
        if state.rounds[n - 1].round.stage == TOP:
            cut = True  # the cut is seeded from the Swiss once; a Swiss correction does not reach its bracket
            break
        again = n == last and loop.may_pair_again(store)
        later.append(LaterRound(n, again, "" if again else _why_it_stands(state, n)))
    swiss = sum(1 for r in state.rounds if r.round.stage != TOP)
    return Effect(fix, moved, tiebreaks, later, max(0, state.config.rounds - swiss), cut, bool(state.config.top))
