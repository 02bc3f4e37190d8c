"""Position files: any position written as a documented, human-editable JSON file, and games continued from one.

The format (``annals-position/1``), one JSON object::

    {
      "format": "annals-position/1",
      "ruleset": "miras9", "ruleset_version": "1", "card_pool_hash": "...",
      "source_game": "3f2a...", "at_event": 120, "coordinate": "turn:5/attack.declare",
      "players": [{"name": "...", "agent": "..."}, ...],
      "decks":   [{"name": "...", "cards": ["c1", ...], "leader": ""}, ...],
      "cards":   {"1004": "c2", ...},        # legend only: instance -> card id (ignored when read)
      "state":   {...},                       # the ruleset's state_type, field by field
      "sandbox": false                        # optional: true for a judge's small position
    }

Card instances follow ``schemas.records.instance_id`` (seat 0's deck card i is 1000 + i, seat 1's 2000 + i). Edit
``state`` to set up a ruling (move a card between zones, change a counter), then ``annals continue FILE``.

Reading checks, and refuses with ``InvalidPositionError`` naming the problem: the decks against the construction
rules (the ruleset's ``new_state``; not for a ``"sandbox": true`` file, a judge's small position), each
instance's card against its deck list, a card in two places (see ``CHECKERS`` and ``ZONE_FIELDS``), a card that is
no instance of the decks, a negative counter (``*_mod`` counters are signed).

Continuing writes a new log whose header has ``branched_from`` (source game, event, the position's digest) and
``start_position`` (the state, msgpack); the ruleset's ``new_state`` starts from it. The continued game numbers its
events from 0 (``state.n`` is reset) and starts a fresh generator from its own seed.
"""

from __future__ import annotations

import hashlib
import importlib
import os
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import msgspec

from annals.engine import ENGINE_VERSION
from annals.engine.core import DecisionPoint, GameState, Ruleset
from annals.engine.registry import get_ruleset
from annals.engine.runner import GameResult, finalize_header, play
from annals.engine.simulate import bots_for
from annals.queries.positions import Timeline
from annals.schemas.errors import AnnalsError
from annals.schemas.header import Branch, DeckList, LogHeader, PlayerInfo
from annals.schemas.logfile import FORMAT_VERSION
from annals.schemas.records import CARDS_PER_PLAYER, TOKEN_BASE
from annals.schemas.text import card_names

FORMAT = "annals-position/1"

# How each ruleset's state says where cards are, for the "one card, one place" check: a ruleset's own consistency
# function (problems as text), its ``card_places(state)``, or the state fields that hold zones (lists of card
# instances, nested); with none of these every list of card instances in the state is read as a zone.
CHECKERS: dict[str, tuple[str, str]] = {"miras9": ("annals.engine.miras9.state", "card_zone_ok")}
ZONE_FIELDS: dict[str, tuple[str, ...]] = {"miras9": ("players", "board"), "morana": ("deck", "hand", "nav", "sites")}


class InvalidPositionError(AnnalsError, ValueError):
    """A position file describes an impossible position, or is not a position file."""


class PositionFile(msgspec.Struct, kw_only=True):
    format: str = FORMAT
    ruleset: str
    ruleset_version: str
    card_pool_hash: str
    source_game: str
    at_event: int
    coordinate: str = ""
    players: list[PlayerInfo]
    decks: list[DeckList]
    cards: dict[str, str] = {}
    state: msgspec.Raw
    sandbox: bool = False  # a judge's small position: no deck-building rules (every other check stands)


def position_file(timeline: Timeline, count: int, coordinate: str = "") -> bytes:
    """The position after ``count`` events of ``timeline`` as a position file (pretty JSON)."""
    h = timeline.header
    state = timeline.state_after(count)
    doc = PositionFile(
        ruleset=h.ruleset,
        ruleset_version=h.ruleset_version,
        card_pool_hash=h.card_pool_hash,
        source_game=h.game_id,
        at_event=count,
        coordinate=coordinate,
        players=h.players,
        decks=h.decks,
        cards={str(k): v for k, v in sorted(card_names(h).items())},
        state=msgspec.Raw(msgspec.json.encode(state)),
    )
    return msgspec.json.format(msgspec.json.encode(doc), indent=2) + b"\n"


class LoadedPosition(msgspec.Struct):
    doc: PositionFile
    state: Any
    digest: str


def _header(doc: PositionFile, seed: int = 0, start: bytes = b"", branch: Branch | None = None) -> LogHeader:
    return LogHeader(
        format_version=FORMAT_VERSION,
        engine_version=ENGINE_VERSION,
        ruleset=doc.ruleset,
        ruleset_version=doc.ruleset_version,
        card_pool_hash=doc.card_pool_hash,
        seed=seed,
        players=doc.players,
        decks=doc.decks,
        branched_from=branch,
        start_position=start,
    )


def _instance_lists(value: Any, out: list[list[int]]) -> None:
    """Every list of card instances anywhere in a builtins tree."""
    if isinstance(value, list):
        if value and all(type(v) is int and v >= CARDS_PER_PLAYER for v in value):
            out.append(value)
        else:
            for v in value:
                _instance_lists(v, out)
    elif isinstance(value, dict):
        for v in value.values():
            _instance_lists(v, out)


def instance_cards(state: Any) -> dict[int, str]:
    """Each card instance's card id as the state holds it (Miras 9 ``cards``, MORANA ``ids``; else none)."""
    cards = getattr(state, "cards", None)
    if isinstance(cards, dict):
        return {iid: cs.cid for iid, cs in cards.items() if isinstance(getattr(cs, "cid", None), str)}
    ids = getattr(state, "ids", None)
    if isinstance(ids, list):
        return {CARDS_PER_PLAYER * (p + 1) + i: cid for p, row in enumerate(ids) for i, cid in enumerate(row)}
    return {}


def validate(ruleset: Ruleset[Any], doc: PositionFile, state: GameState, *, sandbox: bool = False) -> None:
    """Refuse an impossible position with the reason (see the module docstring). ``sandbox``: a judge's small
    position, not held to the deck-building rules (every other check stands)."""
    if not sandbox:
        ruleset.new_state(_header(doc))  # the decks against the construction rules: InvalidDeckError
    names = card_names(_header(doc))
    for iid, cid in sorted(instance_cards(state).items()):
        if iid < TOKEN_BASE and iid in names and cid and names[iid] != cid:
            raise InvalidPositionError(
                f"card instance {iid} is {cid!r} in the state but {names[iid]!r} in its deck list; make them agree"
            )
    checker = CHECKERS.get(doc.ruleset)
    if checker is not None:
        module, function = checker
        problems = getattr(importlib.import_module(module), function)(state)
        if problems:
            raise InvalidPositionError(f"impossible position: {'; '.join(problems[:3])}; keep each card in one zone")
    places: list[tuple[int, str]]
    hook = getattr(ruleset, "card_places", None)
    builtins = msgspec.to_builtins(state)
    if hook is not None:
        places = list(hook(state))
    else:
        lists: list[list[int]] = []
        fields = ZONE_FIELDS.get(doc.ruleset)
        for name in fields if fields is not None else builtins:
            _instance_lists(builtins[name], lists)
        places = [(card, f"list {i}") for i, cards in enumerate(lists) for card in cards]
    counts = Counter(card for card, _ in places)
    for card, count in sorted(counts.items()):
        if count > 1:
            where = ", ".join(zone for c, zone in places if c == card)
            raise InvalidPositionError(f"card {card} ({names.get(card, '?')}) is in {count} places: {where}; "
                                       "keep it in exactly one zone")  # fmt: skip
    position = ruleset.position(state)
    for card in sorted(position.cards):
        if card < TOKEN_BASE and card not in names:
            raise InvalidPositionError(
                f"card instance {card} is not in the decks (seat 0 has 1000..{999 + len(doc.decks[0].cards)}, "
                f"seat 1 has 2000..{1999 + len(doc.decks[1].cards)}); add it to a deck list or remove it"
            )
    for key, value in sorted(position.counters.items()):
        if value < 0 and not key.endswith("_mod"):
            raise InvalidPositionError(f"counter {key!r} is {value}; counters cannot be negative, set it to 0 or more")


def load_position(path: str | os.PathLike[str]) -> LoadedPosition:
    raw = Path(path).read_bytes()
    try:
        doc = msgspec.json.decode(raw, type=PositionFile)
    except msgspec.DecodeError as exc:
        raise InvalidPositionError(f"{path}: not a position file ({exc}); see queries/positionfile.py") from None
    if doc.format != FORMAT:
        raise InvalidPositionError(f"{path}: format {doc.format!r} is not {FORMAT!r}")
    ruleset = get_ruleset(doc.ruleset)
    try:
        state = msgspec.json.decode(doc.state, type=ruleset.state_type)
    except msgspec.DecodeError as exc:
        raise InvalidPositionError(f"{path}: the state does not match {doc.ruleset}'s state: {exc}") from None
    validate(ruleset, doc, state, sandbox=doc.sandbox)
    return LoadedPosition(doc, state, hashlib.blake2b(bytes(doc.state), digest_size=16).hexdigest())


class IndexAgent:
    """Plays scripted option indexes in order (whoever decides), then hands over to a bot."""

    def __init__(self, script: list[int], bots: Sequence[Any]):
        self.script = script
        self.bots = bots

    def choose(self, state: Any, point: DecisionPoint[Any]) -> Any:
        if self.script:
            i = self.script.pop(0)
            if not 0 <= i < len(point.options):
                raise InvalidPositionError(
                    f"scripted decision {i} at {point.point!r} is out of range: {len(point.options)} options offered"
                )
            return point.options[i]
        return self.bots[point.player].choose(state, point)


def continue_game(
    loaded: LoadedPosition,
    out: str | os.PathLike[str],
    *,
    seed: int = 1,
    bots: Sequence[str] = ("random", "random"),
    script: list[int] | None = None,
    max_turns: int = 0,
) -> GameResult:
    """Play on from a loaded position with bots (after any scripted decisions) and write the new log."""
    doc = loaded.doc
    ruleset = get_ruleset(doc.ruleset)
    state = msgspec.structs.replace(loaded.state, n=0)
    branch = Branch(doc.source_game, doc.at_event, loaded.digest)
    players = [PlayerInfo(f"{bot}-{i}", bot) for i, bot in enumerate(bots)]
    header = msgspec.structs.replace(
        _header(doc, seed, msgspec.msgpack.encode(state), branch),
        players=players,
        max_turns=max_turns,
        sandbox=doc.sandbox,
    )
    header = finalize_header(header)
    scripted = IndexAgent(list(script or []), bots_for(ruleset, header))
    return play(ruleset, header, [scripted, scripted], out)
