"""Simulated batches of games: bots against bots, one log per game, with tournament metadata."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from annals.engine import ENGINE_VERSION
from annals.engine.core import Agent, Ruleset
from annals.engine.registry import get_ruleset, with_cards
from annals.engine.rng import Rng
from annals.engine.runner import GameResult, finalize_header, play
from annals.schemas.carddefs import CardDefinition
from annals.schemas.errors import AnnalsError, BadArgumentError, UnknownNameError
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


def check_seed(seed: int, games: int = 1) -> int:
    """``seed`` (and the ``games - 1`` seeds after it) within 0 .. 2**64 - 1, else ``SimulationError``."""
    if seed < 0 or seed + games - 1 >= SEED_LIMIT:
        last = "" if games == 1 else f" and seed + games - 1 = {seed + games - 1}"
        raise SimulationError(
            f"seed {seed}{last} is outside 0 .. {SEED_LIMIT - 1} (seeds are unsigned 64-bit); pick a smaller seed"
        )
    return seed


def check_max_turns(max_turns: int) -> int:
    """``max_turns`` within 0 .. 2**31 - 1 (0: no cap), else ``SimulationError``."""
    if not 0 <= max_turns < TURNS_LIMIT:
        raise SimulationError(f"--max-turns {max_turns} is outside 0 .. {TURNS_LIMIT - 1}; 0 means no cap")
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


SEAT_STREAMS = 0x5EA7  # agents' generators derive from the game seed, apart from the engine's own stream


def seat_rngs(header: LogHeader) -> list[Rng]:
    """One generator per seat, derived from the header's seed: the same game always gets the same bot choices."""
    seats = Rng(header.seed ^ SEAT_STREAMS)
    return [seats.fork(i) for i in range(len(header.players))]


def bots_for(ruleset: Ruleset[Any], header: LogHeader) -> list[Agent]:
    """The header's bots, each with its seat's generator."""
    factories = ruleset.agents()
    return [
        factories[p.agent](i, rng) for i, (p, rng) in enumerate(zip(header.players, seat_rngs(header), strict=True))
    ]


def default_decks(ruleset: Ruleset[Any]) -> list[str]:
    """The ruleset's ``default_decks()``; for a plugin ruleset without one, its first deck (by name) twice."""
    pair = getattr(ruleset, "default_decks", None)
    if pair is not None:
        return list(pair())
    return [min(ruleset.decks())] * 2


def log_name(header: LogHeader) -> str:
    """``RULESET-SEED-GAMEID.log``: how annals names a game's log file (seed zero-padded, so names sort by it)."""
    return f"{header.ruleset}-{header.seed:08d}-{header.game_id}.log"


def play_one(ruleset: Ruleset[Any], header: LogHeader, out: Path | None) -> GameResult:
    """A bot game; its log replaces a file of the same name, which holds the same game (bot games are a function
    of their header, and simulated logs are named by game id)."""
    return play(ruleset, header, bots_for(ruleset, header), out, overwrite=True)


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
) -> Iterator[GameResult]:
    """Play ``games`` games; game i uses seed ``seed + i``, round i // 8 + 1, table i % 8 + 1.

    ``decks`` None takes the ruleset's ``default_decks()``; ``max_turns`` None takes its ``default_max_turns``, 0
    plays without a cap.

    Seats alternate, so each deck and bot plays first and second equally often when ``games`` is even. ``cards``:
    play with the shipped pool plus these definitions (each log embeds them).
    """
    ruleset = with_cards(get_ruleset(ruleset_name), cards or [])
    decks = default_decks(ruleset) if decks is None else decks
    check_seed(seed, games)
    cap = ruleset.default_max_turns if max_turns is None else check_max_turns(max_turns)
    if out_dir is not None:
        output_folder(out_dir)
    for i in range(games):
        swap = i % 2 == 1
        pair_decks = decks[::-1] if swap else decks
        pair_bots = bots[::-1] if swap else bots
        info = TournamentInfo(event or f"sim-{ruleset_name}-{seed}", i // 8 + 1, i % 8 + 1, f"m{i // 2 + 1}", i % 2 + 1)
        header = make_header(ruleset, seed + i, pair_decks, pair_bots, max_turns=cap, tournament=info)
        path = out_dir / log_name(header) if out_dir is not None else None
        result = play_one(ruleset, header, path)
        if on_game is not None:
            on_game(result)
        yield result
