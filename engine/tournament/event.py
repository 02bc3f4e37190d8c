"""An event from registration to final standings: the library behind ``annals event``.

Everything is a function of the event folder: ``run_event`` pairs the next round only when its file is missing
(from the results recorded so far and the round's seed), plays the matches that have no record, and so resumes
after a kill at any moment to exactly what an uninterrupted run would have produced.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path

import msgspec

from annals.engine.decks import MAX_DECK_BYTES, read_deck_list
from annals.engine.registry import get_ruleset
from annals.engine.rng import Rng
from annals.engine.tournament.match import (
    FirstChooser,
    GamePlayer,
    MatchContext,
    bot_game,
    derived_seed,
    play_first,
    play_match,
)
from annals.engine.tournament.pairing import pair_next_bracket, pair_swiss, pair_top_cut, recommended_rounds
from annals.engine.tournament.standings import Result, Standing, byes, match_points, opponents, standings
from annals.engine.tournament.store import EventArgumentError, EventError, EventStore, new_event_id
from annals.schemas.event import SWISS, TOP, EventConfig, MatchRecord, Override, Player, Round
from annals.schemas.inputs import read_text

_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
Progress = Callable[[int, int, str], None]  # (matches done, matches expected, what is being played)


def new_event(
    folder: Path,
    name: str,
    ruleset: str,
    *,
    rounds: int = 0,
    best_of: int = 3,
    top: int = 0,
    seed: int | None = None,
    max_turns: int | None = None,
    agent: str = "heuristic",
) -> EventConfig:
    rs = get_ruleset(ruleset)
    if best_of < 1 or best_of % 2 == 0:
        raise EventArgumentError(f"--best-of {best_of}: a match is best of an odd number of games (1, 3, 5)")
    if top and (top < 2 or top & (top - 1)):
        raise EventArgumentError(
            f"--top {top}: a single-elimination cut is a power of two (2, 4, 8, ...), or 0 for none"
        )
    if rounds < 0:
        raise EventArgumentError(f"--rounds {rounds}: give a number of Swiss rounds, or 0 to have it recommended")
    if agent not in rs.agents():
        raise EventArgumentError(f"unknown bot {agent!r}; choose from: {', '.join(sorted(rs.agents()))}")
    if not _ID.match(name):
        raise EventArgumentError(f"event name {name!r}: use letters, digits, '-', '_' or '.' (up to 64)")
    seed = int.from_bytes(os.urandom(8), "big") >> 1 if seed is None else seed
    cap = rs.default_max_turns if max_turns is None else max_turns
    config = EventConfig(name, new_event_id(name), ruleset, rounds, best_of, top, seed, cap, agent)
    EventStore.create(folder, config)
    return config


def _check_open(store: EventStore) -> None:
    if store.rounds():
        raise EventError("registration is closed: round 1 is paired; late registration is only before round 1")


def _new_player(
    store: EventStore, taken: list[Player], player_id: str, name: str, deck_file: Path, agent: str
) -> Player:
    config = store.config()
    if not _ID.match(player_id):
        raise EventArgumentError(f"player id {player_id!r}: use letters, digits, '-', '_' or '.' (up to 64)")
    if not name.strip():
        raise EventArgumentError("a player needs a name: give --name")
    bots = get_ruleset(config.ruleset).agents()
    if agent and agent not in bots:
        raise EventArgumentError(f"unknown bot {agent!r}; choose from: {', '.join(sorted(bots))}")
    if any(p.id == player_id for p in taken):
        raise EventError(f"player id {player_id!r} is already registered; choose another id")
    deck = read_deck_list(deck_file, config.ruleset)
    rel = store.save_deck_text(player_id, read_text(deck_file, what="deck list", max_bytes=MAX_DECK_BYTES))
    return Player(player_id, name.strip(), deck, rel, agent)


def register(store: EventStore, player_id: str, name: str, deck_file: Path, *, agent: str = "") -> Player:
    """Register a player with a deck list file (validated, every problem listed); only before round 1."""
    _check_open(store)
    players = store.players()
    player = _new_player(store, players, player_id, name, deck_file, agent)
    store.save_players([*players, player])
    return player


def drop(store: EventStore, player_id: str) -> Player:
    """Drop a player after the round paired last (they play it out); before round 1 they withdraw."""
    players = store.players()
    current = len(store.rounds())
    for i, p in enumerate(players):
        if p.id == player_id:
            if p.dropped_after >= 0:
                raise EventError(f"player {player_id!r} already dropped after round {p.dropped_after}")
            players[i] = Player(p.id, p.name, p.deck, p.deck_file, p.agent, current)
            store.save_players(players)
            return players[i]
    raise EventError(f"no player {player_id!r} in this event; 'annals event players' lists them")


def active(player: Player, round_number: int) -> bool:
    return player.dropped_after < 0 or player.dropped_after >= round_number


def effective(m: MatchRecord) -> Result:
    """A match's result: the games', or a judge's override of them when there is one."""
    o = m.override
    if o is None:
        return Result(m.a, m.b, m.wins_a, m.wins_b, m.draws, m.winner)
    winner = m.a if o.wins_a > o.wins_b else m.b if o.wins_b > o.wins_a else ""
    return Result(m.a, m.b, o.wins_a, o.wins_b, o.draws, winner)


def results(matches: list[MatchRecord], stage: str = SWISS) -> list[Result]:
    return [effective(m) for m in matches if m.stage == stage]


def override_result(
    store: EventStore, number: int, table: int, wins_a: int, wins_b: int, draws: int, *, judge: str, reason: str
) -> MatchRecord:
    """A judge enters a match's result by hand: kept beside the games' result, and used instead of it. Only
    while the next round is not paired (its pairings would otherwise rest on a result that changed)."""
    record = store.match(number, table)
    if record is None:
        raise EventError(f"round {number} table {table} has no recorded match to override")
    if len(store.rounds()) > number:
        raise EventError(f"round {number + 1} is already paired: a result of round {number} can no longer change")
    if not judge.strip() or not reason.strip():
        raise EventError("an override needs the judge's name and the reason: give --judge and --reason")
    if not record.b:
        raise EventError("a bye has no result to override")
    if min(wins_a, wins_b, draws) < 0 or wins_a + wins_b + draws > 2 * store.config().best_of:
        raise EventError(f"{wins_a}-{wins_b}-{draws} is not a result of a best of {store.config().best_of}")
    if record.stage == TOP and wins_a == wins_b:
        raise EventError("a cut match needs a winner: give one player more game wins")
    changed = msgspec.structs.replace(record, override=Override(judge.strip(), reason.strip(), wins_a, wins_b, draws))
    store.save_match(changed, replace=True)
    return changed


def current_standings(store: EventStore) -> list[Standing]:
    """Every entrant (a player who withdrew before round 1 is none), dropped players included."""
    config = store.config()
    field = [p.id for p in store.players() if p.dropped_after != 0]
    return standings(field, results(store.matches()), config.seed)


def entrants(players: list[Player]) -> int:
    """Players who did not withdraw before round 1: the field the rounds are recommended for."""
    return sum(1 for p in players if p.dropped_after != 0)


def swiss_rounds(config: EventConfig, players: int) -> int:
    return config.rounds or recommended_rounds(players)


def pair_round(store: EventStore, number: int) -> Round:
    """The pairings of round ``number`` (written once; a later call reads them back)."""
    existing = store.rounds()
    if number <= len(existing):
        return existing[number - 1]
    if number != len(existing) + 1:
        raise EventError(f"round {number} cannot be paired before round {len(existing) + 1}")
    config = store.config()
    players = store.players()
    total = swiss_rounds(config, entrants(players))
    matches = store.matches()
    if number > 1 and len(matches) < sum(len(r.pairings) for r in existing):
        raise EventError(f"round {number - 1} is not finished: every match needs a result before pairing")
    if not config.rounds:
        config = msgspec.structs.replace(config, rounds=total)
        store.save_config(config)
    if number <= total:
        done = results(matches)
        ranked = [s.player for s in standings([p.id for p in players], done, config.seed)]
        act = {p.id for p in players if active(p, number)}
        ranked = [p for p in ranked if p in act]
        seed = derived_seed(config.seed, "round", number)
        pairings = pair_swiss(ranked, match_points(ranked, done), opponents(done), byes(done), Rng(seed))
        r = Round(number, SWISS, pairings, seed)
    else:
        if not config.top:
            raise EventError(f"the event has {total} Swiss rounds and no top cut: round {number} does not exist")
        if number == total + 1:
            table = [s.player for s in current_standings(store) if active(_by_id(players)[s.player], number)]
            if len(table) < config.top:
                raise EventError(f"{len(table)} active players for a top {config.top}: the cut cannot be made")
            pairings = pair_top_cut(table[: config.top])
        else:
            previous = [m for m in matches if m.round == number - 1]
            if len(previous) == 1:
                raise EventError(f"the top cut ended in round {number - 1}: round {number} does not exist")
            pairings = pair_next_bracket([effective(m).winner for m in sorted(previous, key=lambda m: m.table)])
        r = Round(number, TOP, pairings, 0)
    store.save_round(r)
    return r


def _by_id(players: list[Player]) -> dict[str, Player]:
    return {p.id: p for p in players}


def total_rounds(config: EventConfig, players: int) -> int:
    return swiss_rounds(config, players) + (config.top.bit_length() - 1 if config.top else 0)


def _context(store: EventStore, game: GamePlayer, choose_first: FirstChooser) -> MatchContext:
    config = store.config()
    players = store.players()
    if len(players) < 2:
        raise EventError(f"{len(players)} player(s) registered: an event needs at least 2; 'annals event register'")
    if config.top and config.top > entrants(players):
        raise EventError(f"a top {config.top} needs at least {config.top} players; {entrants(players)} entered")
    ruleset = get_ruleset(config.ruleset)
    return MatchContext(
        store, config, ruleset, _by_id(players), game=game, choose_first=choose_first, key=store.signing_key()
    )


def play_round(
    store: EventStore,
    number: int,
    *,
    game: GamePlayer = bot_game,
    choose_first: FirstChooser = play_first,
    on_match: Callable[[str], None] | None = None,
    context: MatchContext | None = None,
) -> Round:
    """Pair round ``number`` if it is not yet, and play each of its matches that has no record."""
    ctx = context or _context(store, game, choose_first)
    rnd = pair_round(store, number)
    ctx.config = store.config()
    seeds = {s.player: s.rank for s in current_standings(store)} if rnd.stage == TOP else {}
    for pairing in rnd.pairings:
        if store.match(number, pairing.table) is not None:
            continue
        if on_match is not None:
            on_match(f"round {number} table {pairing.table}")
        store.save_match(play_match(ctx, number, rnd.stage, pairing, seeds))
    return rnd


def run_event(
    store: EventStore,
    *,
    game: GamePlayer = bot_game,
    choose_first: FirstChooser = play_first,
    on_progress: Progress | None = None,
) -> list[Standing]:
    """Play every round still to play (pairing each as it comes), then return the Swiss standings."""
    store.sweep()
    ctx = _context(store, game, choose_first)
    players = store.players()
    field = entrants(players)
    expected = swiss_rounds(ctx.config, field) * ((field + 1) // 2) + max(ctx.config.top - 1, 0)
    done = [len(store.matches())]

    def step(what: str) -> None:
        if on_progress is not None:
            on_progress(done[0], expected, what)
        done[0] += 1

    for number in range(1, total_rounds(ctx.config, field) + 1):
        play_round(store, number, on_match=step, context=ctx)
    if on_progress is not None:
        on_progress(len(store.matches()), len(store.matches()), "finished")
    return current_standings(store)


def placings(store: EventStore) -> list[tuple[int, str]]:
    """Final places: the cut by how far each went (losers of a round by their Swiss rank), then the rest."""
    swiss = [s.player for s in current_standings(store)]
    rank = {p: i for i, p in enumerate(swiss)}
    top = [m for m in store.matches() if m.stage == TOP]
    if not top:
        return [(i + 1, p) for i, p in enumerate(swiss)]
    out: list[str] = []
    for number in sorted({m.round for m in top}, reverse=True):
        ms = [m for m in top if m.round == number]
        winners = [effective(m).winner for m in ms]
        if len(ms) == 1:
            out += winners
        out += sorted((m.b if w == m.a else m.a for m, w in zip(ms, winners, strict=True)), key=rank.__getitem__)
    out += [p for p in swiss if p not in set(out)]
    return [(i + 1, p) for i, p in enumerate(out)]


def fill_with_bots(store: EventStore, count: int, *, decks: list[str] | None = None) -> list[Player]:
    """Register ``count`` bot players (``bot-001``, ...) with the ruleset's shipped decks in turn, each through a
    deck list file like anyone's (written under ``decks/``); for simulated events."""
    from annals.engine.decks import write_deck_list

    _check_open(store)
    config = store.config()
    shipped = get_ruleset(config.ruleset).decks()
    names = decks or sorted(shipped)
    unknown = [n for n in names if n not in shipped]
    if unknown:
        raise EventError(f"unknown deck {unknown[0]!r}; choose from: {', '.join(sorted(shipped))}")
    players = store.players()
    taken = {p.id for p in players}
    added: list[Player] = []
    k = 0
    while len(added) < count:
        k += 1
        pid = f"bot-{k:03d}"
        if pid in taken:
            continue
        deck = shipped[names[len(added) % len(names)]]
        source = store.folder / "decks" / f"shipped-{deck.name}.txt"
        if not source.exists():
            source.parent.mkdir(parents=True, exist_ok=True)
            source.write_text(write_deck_list(deck, config.ruleset), encoding="utf-8")
        added.append(_new_player(store, [*players, *added], pid, f"Bot {k}", source, ""))
    store.save_players([*players, *added])  # one write: the registrations all land, or none
    return added
