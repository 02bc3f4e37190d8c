"""A scenario's expectations and decisions, read against the names the position and the ruleset know.

A ruling test must not pass for nothing: ``p1.slavaa == 0`` would read a counter that is never set, as 0, and hold.
So every name an expectation or a decision writes, a player, a counter, a zone, a card label, an event kind, an
option kind or field, is looked up when the file is read (``Vocabulary``), and one that names nothing is refused
with the closest name (``'slavaa' is no counter or zone of a player; did you mean 'slava'?``).

An expectation may be held at a point of play: ``after N: EXPECTATION`` is checked once decision N has been
played (or refused) and the automatic steps after it have run, when decision N + 1 is asked or play ends;
``after 0:`` checks the position as written. Without ``after`` it is checked at the end.
"""

from __future__ import annotations

import operator
import re
import typing
from collections.abc import Callable, Iterable
from typing import Any

import msgspec

from annals.engine.miras9.state import CARD_COUNTERS as M9_CARD_COUNTERS
from annals.engine.miras9.state import PILES as M9_PILES
from annals.engine.morana.builder import ZONES as MORANA_ZONES
from annals.engine.spec import PLAYERS
from annals.schemas.errors import did_you_mean
from annals.schemas.records import CARDS_PER_PLAYER, instance_owner
from annals.schemas.text import INSTANCE_FIELDS

LANE_WORDS = {"exterior": 0, "interior": 1, "space": 2}
GAME_FIELDS = ("winner", "over", "turn", "phase", "step")
# The words ``pN.WORD`` and ``LABEL.WORD`` may use, per ruleset: what ``Ruleset.position`` counts and where it puts
# cards (a counter it leaves out is 0; a zone with no card holds 0 cards)
PLAYER_COUNTERS = {"miras9": ("echo",), "morana": ("slava", "embers")}
PLAYER_ZONES = {
    "miras9": (*M9_PILES, "board", "sites", "planet", *LANE_WORDS),
    "morana": (*MORANA_ZONES, "warden"),
}
CARD_WORDS = {"miras9": (*M9_CARD_COUNTERS, "zone"), "morana": ("power", "zone")}

OPS: dict[str, Callable[[Any, Any], bool]] = {
    "==": operator.eq, "!=": operator.ne, "<=": operator.le, ">=": operator.ge, "<": operator.lt, ">": operator.gt,
}  # fmt: skip
_AFTER = re.compile(r"^\s*after\s+(\d+)\s*:\s*(.*)$")
_CMP = re.compile(r"^\s*([\w.]+)\s*(==|!=|<=|>=|<|>)\s*([\w.:\-]+)\s*$")
_IN = re.compile(r"^\s*(\w+)\s+(not\s+in|in)\s+(p[01])\.(\w+)\s*$")
_DECISION = re.compile(r"^\s*decision\s+(\d+)\s+is\s+(refused|offered)\s*$")
_EVENT = r"event\s+(\w+)(?:\s+(\w+))?"
_ORDER = re.compile(rf"^\s*{_EVENT}\s+before\s+{_EVENT}\s*$")
_HAPPENED = re.compile(rf"^\s*(no\s+)?{_EVENT}\s*$")


class Vocabulary(msgspec.Struct):
    """Every name a scenario of this ruleset and position may write (empty tuples: a ruleset listed in none of the
    tables here, its names not checked)."""

    labels: dict[str, int]
    event_kinds: frozenset[str]
    options: dict[str, tuple[str, tuple[str, ...]]]  # normalised kind -> (snake_case kind, its fields)
    player_counters: tuple[str, ...]
    player_zones: tuple[str, ...]
    card_words: tuple[str, ...]


def norm(kind: str) -> str:
    return kind.replace("_", "").replace("-", "").lower()


def snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def vocabulary(ruleset_name: str, schema: Any, labels: dict[str, int]) -> Vocabulary:
    """The names of ``schema`` (a ``RulesetSchema``) and of a position's ``labels``."""
    options = {norm(t.__name__): (snake(t.__name__), t.__struct_fields__) for t in typing.get_args(schema.option_type)}
    return Vocabulary(
        labels,
        frozenset(t.__name__ for t in typing.get_args(schema.event_type)),
        options,
        PLAYER_COUNTERS.get(ruleset_name, ()),
        PLAYER_ZONES.get(ruleset_name, ()),
        CARD_WORDS.get(ruleset_name, ()),
    )


def split_after(line: str) -> tuple[int | None, str]:
    """``after N: BODY`` as ``(N, BODY)``; any other line as ``(None, line)``."""
    m = _AFTER.match(line)
    return (int(m.group(1)), m.group(2)) if m else (None, line)


def _unknown(word: str, what: str, known: Iterable[str]) -> str:
    names = sorted(set(known))
    hint = did_you_mean(word, names)
    return f"{word!r} is no {what};" + (hint if hint else f" use one of: {', '.join(names)}")


def expectation_problem(line: str, v: Vocabulary, decisions: int) -> str:
    """What is wrong with an expectation line ("" when nothing is): its form, and every name in it."""
    at, body = split_after(line)
    if at is not None and at > decisions:
        return f"after {at}: the scenario has {decisions} decision(s); write after 0 .. after {decisions}"
    m = _DECISION.match(body)
    if m:
        k = int(m.group(1))
        return "" if 1 <= k <= decisions else f"decision {k}: the scenario has {decisions} decision(s)"
    for pattern in (_ORDER, _HAPPENED):
        m = pattern.match(body)
        if m:
            kinds = [m.group(2)] if pattern is _HAPPENED else [m.group(1), m.group(3)]
            cards = [m.group(3)] if pattern is _HAPPENED else [m.group(2), m.group(4)]
            for kind in kinds:
                if v.event_kinds and kind not in v.event_kinds:
                    return _unknown(kind, "event kind of the ruleset", v.event_kinds)
            for card in cards:
                if card and card not in v.labels:
                    return _unknown(card, "card label of the position", v.labels)
            return ""
    m = _IN.match(body)
    if m:
        if m.group(1) not in v.labels:
            return _unknown(m.group(1), "card label of the position", v.labels)
        return _player_word(m.group(4), v, zones_only=True)
    m = _CMP.match(body)
    if m is None:
        return ("not an expectation; write e.g. 'p1.echo == 1', 'a1 in p1.discard', 'winner == p0', "
                "'decision 2 is refused', 'event KIND before event KIND' or 'after 3: a1.wounds == 2'")  # fmt: skip
    left, _, right = m.groups()
    head, _, tail = left.partition(".")
    if head in GAME_FIELDS and not tail:
        if head == "winner" and right not in (*PLAYERS, "none"):
            return f"winner == {right}: write winner == p0, p1 or none"
        return ""
    if head in PLAYERS and tail:
        return _player_word(tail, v)
    if head in v.labels and tail:
        if v.card_words and tail not in v.card_words:
            return _unknown(tail, "counter of a card", v.card_words)
        return ""
    known = [*PLAYERS, *v.labels, *GAME_FIELDS]
    return f"{left!r} names no player (p0, p1), card label or game field ({', '.join(GAME_FIELDS)});" + (
        did_you_mean(head, known) or " write e.g. p1.echo or a1.wounds"
    )


def _player_word(word: str, v: Vocabulary, *, zones_only: bool = False) -> str:
    if not v.player_zones or word in v.player_zones:
        return ""
    if not zones_only and word in v.player_counters:
        return ""
    known = v.player_zones if zones_only else (*v.player_counters, *v.player_zones)
    return _unknown(word, "zone of a player" if zones_only else "counter or zone of a player", known)


def decision_problem(line: str, v: Vocabulary) -> str:
    """What is wrong with a decision line's names ("" when nothing is): the option kind and its fields. Whether
    the option is offered is for play to say."""
    words = line.split()
    if words and words[0] in PLAYERS:
        words.pop(0)
    if not words:
        return 'write the option\'s kind, e.g. "p0 pass"'
    if not v.options:
        return ""
    found = v.options.get(norm(words[0]))
    if found is None:
        return _unknown(words[0], "option kind of the ruleset", (kind for kind, _ in v.options.values()))
    kind, fields = found
    for word in words[1:]:
        name, eq, _ = word.partition("=")
        if not eq:
            return f"{word!r} is not FIELD=VALUE"
        if name not in fields:
            return _unknown(name, f"field of {kind} (its fields: {', '.join(fields) or 'none'})", fields)
    return ""


# ---------------------------------------------------------------- checking against play


def word_value(word: str, labels: dict[str, int]) -> Any:
    """A value as a decision or an expectation writes it: a label, a lane, a board position, a player, a flag,
    a number, or the word itself."""
    if word in labels:
        return labels[word]
    if word in LANE_WORDS:
        return LANE_WORDS[word]
    place = re.fullmatch(r"(p[01])[.:](exterior|interior|space)", word)
    if place:  # a Miras 9 board position: that player's half of the lane
        return PLAYERS.index(place.group(1)) * 3 + LANE_WORDS[place.group(2)]
    if word in PLAYERS:
        return PLAYERS.index(word)
    if word in ("true", "false"):
        return word == "true"
    if re.fullmatch(r"-?\d+", word):
        return int(word)
    return word


class Run(msgspec.Struct):
    """Play as far as it has gone: the state, the events so far, and each decision asked (refused or not)."""

    state: Any
    ruleset: Any
    events: list[Any]
    refused: dict[int, bool]  # decision number (from 1) -> refused


def _zone_matches(zone: str, card: int, player: int, name: str) -> bool:
    owner = instance_owner(card) if card < CARDS_PER_PLAYER * 100 else -1
    if name == "board":
        return zone.startswith(f"lane:{player}:")
    if name in LANE_WORDS:
        return zone == f"lane:{player}:{name}"
    if name == "sites":
        return zone.startswith(f"site:{player}:")
    m = re.fullmatch(r"site(\d)", name)
    if m:
        return zone == f"site:{m.group(1)}" and owner == player
    return zone == name and owner == player


def _members(run: Run, player: int, name: str) -> list[int]:
    position = run.ruleset.position(run.state)
    return [c for c, z in position.cards.items() if _zone_matches(z, c, player, name)]


def _lookup(run: Run, left: str, labels: dict[str, int]) -> Any:
    s = run.state
    head, _, tail = left.partition(".")
    if head == "winner":
        return PLAYERS[s.winner] if s.over and s.winner >= 0 else "none"
    if head in GAME_FIELDS:
        return getattr(s, head)
    position = run.ruleset.position(s)
    if head in PLAYERS:
        p = PLAYERS.index(head)
        key = f"{p}:{tail}"
        if key in position.counters or tail in ("echo", "slava", "embers"):
            return position.counters.get(key, 0)
        return len(_members(run, p, tail))
    card = labels[head]
    if tail == "zone":
        return position.cards.get(card, "")
    return position.counters.get(f"{card}:{tail}", 0)


def _mentions(event: Any, card: int) -> bool:
    for f in (*INSTANCE_FIELDS, "by"):  # ``by``: the card whose effect it was
        v = getattr(event, f, None)
        if v == card or (isinstance(v, list) and card in v):
            return True
    return False


def _first(run: Run, kind: str, label: str | None, labels: dict[str, int]) -> int:
    for i, e in enumerate(run.events):
        if type(e).__name__ == kind and (label is None or _mentions(e, labels[label])):
            return i
    return -1


def check(line: str, run: Run, labels: dict[str, int]) -> str:
    """ "" when the expectation (without its ``after N:``) holds, else what was found instead."""
    m = _DECISION.match(line)
    if m:
        k, wanted = int(m.group(1)), m.group(2)
        if k not in run.refused:
            return f"decision {k} was never asked (play stopped earlier, or has not reached it)"
        refused = run.refused[k]
        return "" if refused == (wanted == "refused") else f"decision {k} was {'refused' if refused else 'offered'}"
    m = _ORDER.match(line)
    if m:
        a, b = _first(run, m.group(1), m.group(2), labels), _first(run, m.group(3), m.group(4), labels)
        if a < 0 or b < 0:
            return f"{'the first' if a < 0 else 'the second'} event never happened"
        return "" if a < b else f"event {b} ({m.group(3)}) came before event {a} ({m.group(1)})"
    m = _HAPPENED.match(line)
    if m:
        found = _first(run, m.group(2), m.group(3), labels) >= 0
        if m.group(1):
            return "" if not found else "it happened"
        return "" if found else "no such event"
    m = _IN.match(line)
    if m:
        card, neg, p, zone = labels[m.group(1)], m.group(2) != "in", PLAYERS.index(m.group(3)), m.group(4)
        inside = card in _members(run, p, zone)
        where = run.ruleset.position(run.state).cards.get(card, "nowhere")
        return "" if inside != neg else f"{m.group(1)} is in {where}"
    m = _CMP.match(line)
    assert m is not None  # checked when the file was read
    left, op, right = m.groups()
    have = _lookup(run, left, labels)
    want: Any = word_value(right, {}) if not isinstance(have, str) else right
    if isinstance(have, bool):
        want = right == "true"
    if isinstance(have, int) and isinstance(want, str) and want in PLAYERS:
        want = PLAYERS.index(want)
    try:
        ok = OPS[op](have, want)
    except TypeError:
        ok = False
    return "" if ok else f"{left} is {have!r}"
