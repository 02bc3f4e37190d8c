"""Bot events: each round paired and each match played and reported through the round loop's own steps.

``run_event`` pairs the next round when the last one is complete, plays every match of it that has no result
(``match.play_match``: the games' logs are written, signed and read back) and reports it, so a kill at any moment
resumes, on the next run, to what an uninterrupted run would have recorded: a match is reported only when its last
game's log is whole, and a game whose log a kill tore is set aside and played again.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from annals.engine.names import plural
from annals.engine.registry import get_ruleset
from annals.engine.tournament import rounds as loop
from annals.engine.tournament.event import current_standings, entrants
from annals.engine.tournament.match import FirstChooser, GamePlayer, MatchContext, bot_game, play_first, play_match
from annals.engine.tournament.record import EventError
from annals.engine.tournament.standings import Standing
from annals.engine.tournament.store import EventStore
from annals.engine.tournament.verify import require_decks
from annals.schemas.event import TOP, MatchRecord, Outcome, Pairing, Round

Progress = Callable[[int, int, str], None]  # (matches done, matches expected, what is being played)


def _context(store: EventStore, game: GamePlayer, choose_first: FirstChooser) -> MatchContext:
    state = store.state()
    players = state.players()
    if len(players) < 2:
        raise EventError(
            f"{plural(len(players), 'player')} registered: an event needs at least 2; 'annals event register'"
        )
    ruleset = get_ruleset(state.config.ruleset)
    return MatchContext(store, state.config, ruleset, {p.id: p for p in players}, game=game,
                        choose_first=choose_first, key=store.signing_key())  # fmt: skip


def play_round(
    store: EventStore,
    number: int,
    *,
    game: GamePlayer = bot_game,
    choose_first: FirstChooser = play_first,
    on_match: Callable[[str], None] | None = None,
    context: MatchContext | None = None,
) -> Round:
    """Pair round ``number`` if it is the next, and play and report each of its matches that has no result."""
    state = store.state()
    if number == len(state.rounds) + 1:
        loop.pair_next(store)
    elif not 1 <= number <= len(state.rounds):
        raise EventError(f"round {number} cannot be played: {plural(len(state.rounds), 'round')} paired")
    ctx = context or _context(store, game, choose_first)
    state = store.state()
    ctx.config = state.config
    rnd = state.rounds[number - 1].round
    seeds = {s.player: s.rank for s in current_standings(store)} if rnd.stage == TOP else {}
    for pairing in rnd.pairings:
        if not pairing.b or (number, pairing.table) in store.state().results:
            continue
        if on_match is not None:
            on_match(f"round {number} table {pairing.table}")
        play_and_report(ctx, number, rnd.stage, pairing, seeds)
    return rnd


def play_and_report(
    ctx: MatchContext, number: int, stage: str, pairing: Pairing, seeds: Mapping[str, int]
) -> MatchRecord:
    """Play one match (``match.play_match``: bots here, people at the server's tables with ``annals serve
    --event``) and report it in the event's record with its games: the one path from a match to its result."""
    m = play_match(ctx, number, stage, pairing, seeds)
    advanced = m.winner if m.ended == "seed" else ""
    outcome = Outcome(m.wins_a, m.wins_b, m.draws)
    loop.report(ctx.store, number, pairing.table, outcome, games=m.games, ended=m.ended, advanced=advanced)
    return m


def run_event(
    store: EventStore,
    *,
    game: GamePlayer = bot_game,
    choose_first: FirstChooser = play_first,
    on_progress: Progress | None = None,
    until: int = 0,
) -> list[Standing]:
    """Play every round still to play (pairing each as it comes), or up to round ``until`` (0: to the end), then
    return the Swiss standings."""
    require_decks(store)
    store.sweep()
    ctx = _context(store, game, choose_first)
    field = entrants(store.players())
    done = [len(store.state().results)]
    expected = [done[0]]

    def step(what: str) -> None:
        if on_progress is not None:
            on_progress(done[0], max(expected[0], done[0] + 1), what)
        done[0] += 1

    while True:
        state = store.state()
        if state.finished():
            break
        number = len(state.rounds)
        if not state.rounds or not state.open_tables(number):
            number += 1
        if until and number > until:
            break
        expected[0] = done[0] + (field + 1) // 2
        play_round(store, number, on_match=step, context=ctx)
    if on_progress is not None:
        on_progress(done[0], done[0], "finished")
    return current_standings(store)
