"""Simulated batches of games: bots against bots, one log per game, with tournament metadata."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from annals.engine import ENGINE_VERSION
from annals.engine.botgames import SEAT_STREAMS, bots_for, log_name, play_one, seat_rngs
from annals.engine.core import Ruleset
from annals.engine.registry import get_ruleset, with_cards
from annals.engine.runner import GameResult, finalize_header
from annals.engine.shards import play_parallel
from annals.schemas.carddefs import CardDefinition
from annals.schemas.errors import AnnalsError, BadArgumentError, OutOfRangeError, UnknownNameError
from annals.schemas.files import output_folder
from annals.schemas.header import DeckList, LogHeader, PlayerInfo, TournamentInfo
from annals.schemas.logfile import FORMAT_VERSION


class SimulationError(AnnalsError, ValueError):
    pass


class PairError(SimulationError, BadArgumentError):
    """Not two names, one per seat."""


class UnknownChoiceError(SimulationError, UnknownNameError):
    """A deck or bot the ruleset does not have."""


SEED_LIMIT = 1 << 64  # seeds are unsigned 64-bit (the generator's state and the database's UBIGINT column)
TURNS_LIMIT = 1 << 31  # turn caps and turns fit the database's INTEGER columns


class SeedRangeError(SimulationError, OutOfRangeError):
    """A seed, or the last seed of a run of games, outside 0 .. 2**64 - 1."""


class TurnCapRangeError(SimulationError, OutOfRangeError):
    """A turn cap outside 0 .. 2**31 - 1."""


def check_seed(seed: int, games: int = 1) -> int:
    """``seed`` (and the ``games - 1`` seeds after it) within 0 .. 2**64 - 1, else ``SeedRangeError``."""
    if seed < 0 or seed + games - 1 >= SEED_LIMIT:
        last = "" if games == 1 or seed < 0 else f" and seed + games - 1 = {seed + games - 1}"
        top = SEED_LIMIT - games
        fix = f"give a seed from 0 to {top}" + ("" if games == 1 else f" for {games} games")
        raise SeedRangeError(
            f"seed {seed}{last} is outside 0 .. {SEED_LIMIT - 1} (seeds are unsigned 64-bit numbers); "
            + (fix if top >= 0 else "play fewer games")
        )
    return seed


def check_max_turns(max_turns: int) -> int:
    """``max_turns`` within 0 .. 2**31 - 1 (0: no cap), else ``TurnCapRangeError``."""
    if not 0 <= max_turns < TURNS_LIMIT:
        raise TurnCapRangeError(
            f"--max-turns {max_turns} is outside 0 .. {TURNS_LIMIT - 1}; give a number of turns, or 0 for no cap"
        )
    return max_turns


def pick(kind: str, names: list[str], known: list[str]) -> list[str]:
    if len(names) != 2:
        raise PairError(f"give two {kind} separated by a comma (got {','.join(names)!r})")
    for name in names:
        if name not in known:
            raise UnknownChoiceError(kind[:-1], name, known)
    return names


def make_header(
    ruleset: Ruleset[Any],
    seed: int,
    decks: list[str],
    bots: list[str],
    *,
    max_turns: int = 0,
    tournament: TournamentInfo | None = None,
    known_agents: list[str] | None = None,
) -> LogHeader:
    check_seed(seed)
    check_max_turns(max_turns)
    deck_lists = ruleset.decks()
    pick("decks", decks, sorted(deck_lists))
    pick("bots", bots, sorted(known_agents if known_agents is not None else ruleset.agents()))
    players = [PlayerInfo(f"{bot}-{i}", bot) for i, bot in enumerate(bots)]
    return header_for(ruleset, seed, players, [deck_lists[d] for d in decks], tournament, max_turns)


def header_for(
    ruleset: Ruleset[Any],
    seed: int,
    players: list[PlayerInfo],
    decks: list[DeckList],
    tournament: TournamentInfo | None = None,
    max_turns: int = 0,
    nonce: str = "",
) -> LogHeader:
    """A new game's header under this engine and pool, its id stamped (``nonce``: people's games, see
    ``game_id_of``)."""
    return finalize_header(
        LogHeader(
            format_version=FORMAT_VERSION,
            engine_version=ENGINE_VERSION,
            ruleset=ruleset.schema.name,
            ruleset_version=ruleset.schema.version,
            card_pool_hash=ruleset.card_pool_hash(),
            seed=seed,
            players=players,
            decks=decks,
            tournament=tournament,
            max_turns=max_turns,
            nonce=nonce,
            cards=tuple(getattr(ruleset, "extra_cards", ())),
        )
    )


def default_decks(ruleset: Ruleset[Any]) -> list[str]:
    """The ruleset's ``default_decks()``; for a plugin ruleset without one, its first deck (by name) twice."""
    pair = getattr(ruleset, "default_decks", None)
    if pair is not None:
        return list(pair())
    return [min(ruleset.decks())] * 2


def game_headers(
    ruleset_name: str,
    games: int,
    seed: int,
    decks: list[str] | None,
    bots: list[str],
    *,
    max_turns: int | None = None,
    event: str = "",
    start: int = 0,
    cards: list[CardDefinition] | None = None,
) -> list[LogHeader]:
    """The headers of games ``start`` .. ``games - 1`` of a simulation (see ``simulate``): each a pure function of
    its index, so any slice of the range can be played anywhere (``engine.shards``) and give the same games; with
    ``cards``, each header embeds them (the game's pool is the shipped one plus those definitions)."""
    ruleset = with_cards(get_ruleset(ruleset_name), cards or [])
    decks = default_decks(ruleset) if decks is None else decks
    cap = ruleset.default_max_turns if max_turns is None else max_turns
    headers = []
    for i in range(start, games):
        swap = i % 2 == 1
        pair_decks = decks[::-1] if swap else decks
        pair_bots = bots[::-1] if swap else bots
        info = TournamentInfo(event or f"sim-{ruleset_name}-{seed}", i // 8 + 1, i % 8 + 1, f"m{i // 2 + 1}", i % 2 + 1)
        headers.append(make_header(ruleset, seed + i, pair_decks, pair_bots, max_turns=cap, tournament=info))
    return headers


AUTO_PARALLEL_GAMES = 32


def simulate(
    ruleset_name: str,
    games: int,
    seed: int,
    decks: list[str] | None,
    bots: list[str],
    out_dir: Path | None,
    *,
    max_turns: int | None = None,
    event: str = "",
    on_game: Callable[[GameResult], None] | None = None,
    cards: list[CardDefinition] | None = None,
    jobs: int = 1,
    shard_size: int = 0,
) -> Iterator[GameResult]:
    """Play ``games`` games; game i uses seed ``seed + i``, round i // 8 + 1, table i % 8 + 1.

    ``decks`` None takes the ruleset's ``default_decks()``; ``max_turns`` None takes its ``default_max_turns``, 0
    plays without a cap. ``jobs`` > 1 plays in that many processes (0: every core, from ``AUTO_PARALLEL_GAMES``
    games on; fewer are played here, as starting processes would cost more than it saves) and ``shard_size`` K > 0
    writes archives of K games each instead of one file per game (``engine.shards``); the results come in game
    order either way and the logs are the same bytes.

    Seats alternate, so each deck and bot plays first and second equally often when ``games`` is even. ``cards``:
    play with the shipped pool plus these definitions (each log embeds them).
    """
    check_seed(seed, games)
    if max_turns is not None:
        check_max_turns(max_turns)
    headers = game_headers(ruleset_name, games, seed, decks, bots, max_turns=max_turns, event=event, cards=cards)
    if out_dir is not None:  # after the names are checked: a refused run leaves no empty folder behind
        output_folder(out_dir)
    if jobs == 0:
        jobs = (os.cpu_count() or 1) if games >= AUTO_PARALLEL_GAMES else 1
    if jobs > 1 or shard_size > 0:
        results: Iterator[GameResult] = play_parallel(ruleset_name, headers, out_dir, jobs, shard_size)
    else:
        ruleset = with_cards(get_ruleset(ruleset_name), cards or [])
        results = (play_one(ruleset, h, out_dir / log_name(h) if out_dir is not None else None) for h in headers)
    for result in results:
        if on_game is not None:
            on_game(result)
        yield result


__all__ = ["SEAT_STREAMS", "bots_for", "log_name", "play_one", "seat_rngs"]  # re-exported from engine.botgames
