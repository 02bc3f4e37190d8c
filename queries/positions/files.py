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
no instance of the decks, a negative counter (``*_mod`` counters are signed), a state inside one action of the
rules (``queries.positions.midway``: the field, what is half done, the fix).

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
from annals.engine.core import DecisionPoint, GameState, Ruleset, from_event_zero
from annals.engine.errors import SavedStateError
from annals.engine.registry import get_ruleset
from annals.engine.runner import Game, GameResult, StalledGameError, finalize_header, play
from annals.engine.savedstate import decode_for
from annals.engine.simulate import bots_for, check_max_turns, check_seed, pick
from annals.ingest.cardpools import definitions
from annals.queries.positions.checks import CHECKS, check_for
from annals.queries.positions.domains import Fields, check_ints
from annals.queries.positions.domains import InvalidPositionError as InvalidPositionError
from annals.queries.positions.midway import check_not_midway
from annals.queries.positions.timeline import Timeline
from annals.schemas.errors import AnnalsError, InvalidDeckError
from annals.schemas.files import os_error, output_file, read_regular
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
        sandbox=doc.sandbox,
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


def _check_document(ruleset: Ruleset[Any], doc: PositionFile) -> None:
    """The fields around the state: the ruleset's version and card pool, two players, legal decks (any decks for
    a ``sandbox`` file: its header says so, and the ruleset's ``new_state`` then skips the deck-building rules)."""
    if check_for(doc.ruleset, ruleset) is None:
        raise InvalidPositionError(
            f"ruleset {doc.ruleset!r} has no position files (its engine offers no check_position); they are for: "
            f"{', '.join(sorted(CHECKS))} and rulesets that offer one"
        )
    if doc.ruleset_version != ruleset.schema.version:
        raise InvalidPositionError(
            f"ruleset_version {doc.ruleset_version!r} is not this annals' {doc.ruleset} version "
            f"{ruleset.schema.version!r}; save the position again with this annals"
        )
    if doc.card_pool_hash != ruleset.card_pool_hash():
        raise InvalidPositionError(
            f"card_pool_hash {doc.card_pool_hash!r} is not this annals' {doc.ruleset} card pool "
            f"{ruleset.card_pool_hash()!r}; the position was saved with other cards; save it again with this annals"
        )
    if not doc.source_game.strip() and not doc.sandbox:  # a sandbox position (a scenario's) may come from none
        raise InvalidPositionError(
            "source_game is empty; a position names the game it was taken from (its game id, as saved), which the "
            "continued game's log records"
        )
    if not 0 <= doc.at_event < 1 << 31:
        raise InvalidPositionError(f"at_event {doc.at_event} is outside 0 .. {(1 << 31) - 1}; it counts events")
    if len(doc.players) != 2 or len(doc.decks) != 2:
        raise InvalidPositionError(
            f"players and decks list {len(doc.players)} and {len(doc.decks)} entries; give exactly 2 of each"
        )
    try:
        ruleset.new_state(_header(doc))  # the decks against the construction rules
    except InvalidDeckError as exc:
        raise InvalidPositionError(f"decks: {exc}") from None
    except (KeyError, IndexError, TypeError, ValueError) as exc:
        raise InvalidPositionError(f"decks: not legal deck lists ({exc!s:.120}); give the decks as saved") from None


def _pool(doc: PositionFile) -> set[str]:
    known = set(definitions(doc.ruleset, doc.card_pool_hash))
    return known or {c for d in doc.decks for c in [*d.cards, d.leader] if c}


def instance_cards(state: Any) -> dict[int, str]:
    """Each card instance's card id as the state holds it (Miras 9 ``cards``, MORANA ``ids``; else none)."""
    cards = getattr(state, "cards", None)
    if isinstance(cards, dict):
        return {iid: cs.cid for iid, cs in cards.items() if isinstance(getattr(cs, "cid", None), str)}
    ids = getattr(state, "ids", None)
    if isinstance(ids, list):
        return {CARDS_PER_PLAYER * (p + 1) + i: cid for p, row in enumerate(ids) for i, cid in enumerate(row)}
    return {}


def validate(ruleset: Ruleset[Any], doc: PositionFile, state: GameState) -> None:
    """Refuse an impossible position with the reason (see the module docstring); a ``sandbox`` file (a judge's
    small position) is not held to the deck-building rules, every other check stands."""
    _check_document(ruleset, doc)
    check_ints(state)
    check = check_for(doc.ruleset, ruleset)
    assert check is not None  # _check_document refused the ruleset otherwise
    check(state, Fields(doc.decks, _pool(doc), ruleset.new_state(_header(doc))))
    check_not_midway(doc.ruleset, state)  # half an action done: named before play, not found when it stalls
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


MAX_FILE_BYTES = 64 << 20  # a position file is tens of KiB; a decisions list a few


def save_position(path: str | os.PathLike[str], data: bytes, *, inputs: Sequence[str | os.PathLike[str]] = ()) -> None:
    """Write a position file, refusing a folder, a missing folder or an input (the log it comes from)."""
    output_file(path, inputs=inputs, what="--save")
    try:
        Path(path).write_bytes(data)
    except OSError as exc:
        raise os_error(exc, "write the position file") from None


def read_decisions(path: str | os.PathLike[str]) -> list[int]:
    """A ``--decisions`` file: a JSON list of option indexes (``[0, 2, 1]``)."""
    raw = read_regular(path, what="decisions", max_bytes=MAX_FILE_BYTES)
    try:
        script = msgspec.json.decode(raw, type=list[int])
    except msgspec.DecodeError as exc:
        raise InvalidPositionError(
            f"--decisions {path}: {exc}; it must hold a JSON list of option indexes, e.g. [0, 2, 1]"
        ) from None
    negative = [i for i in script if not 0 <= i < 1 << 31]
    if negative:
        raise InvalidPositionError(
            f"--decisions {path}: option index {negative[0]} is out of range; indexes are 0 or more"
        )
    return script


PROBE_STEPS = 10_000  # automatic steps the probe allows before the first decision (a whole turn takes far fewer)


def check_continuable(ruleset: Ruleset[Any], doc: PositionFile, state: GameState) -> None:
    """The rules can go on from here to the next decision (or the end). A position is a point between events, but
    an action of the rules can emit several; saved between two of them (or edited into such a point), the engine
    has nothing to do next (``StalledGameError``)."""
    probe = Game(ruleset, _header(doc), [], state=msgspec.convert(msgspec.to_builtins(state), ruleset.state_type))
    for _ in range(PROBE_STEPS):
        if probe.state.over or ruleset.pending(probe.state) is not None:
            return
        try:
            probe.step()
        except StalledGameError as exc:
            raise InvalidPositionError(
                f"the game cannot go on from this position: {exc}; save it at a decision point instead "
                "(e.g. --at turn:T/STEP), or undo the edit"
            ) from None
        except Exception as exc:  # the field checks missed an inconsistency: still a named refusal, not a crash
            raise InvalidPositionError(
                f"the rules cannot continue from this position ({str(exc)[:120]!r}): the state's fields contradict "
                "each other; undo the last edit"
            ) from None


def load_position(path: str | os.PathLike[str]) -> LoadedPosition:
    raw = read_regular(path, what="position", max_bytes=MAX_FILE_BYTES)
    try:
        doc = msgspec.json.decode(raw, type=PositionFile)
    except msgspec.DecodeError as exc:
        raise InvalidPositionError(f"{path}: not a position file ({exc}); see queries/positions/files.py") from None
    except RecursionError:
        raise InvalidPositionError(
            f"{path}: not a position file: lists or objects nested too deep; save the position again"
        ) from None
    if doc.format != FORMAT:
        raise InvalidPositionError(f"{path}: format {doc.format!r} is not {FORMAT!r}")
    try:
        ruleset = get_ruleset(doc.ruleset)
    except AnnalsError as exc:
        raise InvalidPositionError(f"{path}: ruleset: {exc}") from None
    try:
        state = decode_for(ruleset, bytes(doc.state), json=True)
    except SavedStateError as exc:
        where = exc.path.replace("$", "$.state", 1)
        raise InvalidPositionError(f"{path}: {where}: {exc.problem}; {exc.fix}") from None
    try:
        validate(ruleset, doc, state)
        check_continuable(ruleset, doc, state)
    except InvalidPositionError as exc:
        raise InvalidPositionError(f"{path}: {exc}") from None
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
    max_turns: int | None = None,
) -> GameResult:
    """Play on from a loaded position with bots (after any scripted decisions) and write the new log; ``max_turns``
    None takes the ruleset's cap for bot games (as ``simulate`` does: bots need not finish a game), 0 none."""
    doc = loaded.doc
    check_seed(seed)
    ruleset = get_ruleset(doc.ruleset)
    max_turns = ruleset.default_max_turns if max_turns is None else check_max_turns(max_turns)
    bots = pick("bots", list(bots), sorted(ruleset.agents()))  # two the ruleset has, else a usage error
    state = from_event_zero(loaded.state)  # numbered afresh: a position held at a boundary still is
    branch = Branch(doc.source_game, doc.at_event, loaded.digest) if doc.source_game.strip() else None
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
