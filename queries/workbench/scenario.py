"""Scenario files: a ruling set up as a small position, played a few decisions, and checked (``annals scenario``).

A scenario is a TOML file (the README shows worked examples; ``tests/scenarios/`` holds many)::

    scenario = "What the ruling is about"
    ruleset = "miras9"                      # or "morana"
    rules = ["M9-086", "M9-087"]            # the paragraphs it decides
    sandbox = "no deck-building rules"      # optional note: every scenario is a sandbox

    [[cards]]                               # optional: card definitions added or changed (the pool's schema)
    ...
    [position]                              # turn, phase / committing, active, initiative ...
    [p0]                                    # each player's piles (top card first), hand, board, counters
    [p1]

    decisions = ["p0 declare_at lane=exterior", "p0 add_attacker card=a1", "p0 confirm"]
    expect = ["p1.echo == 1", "a1 in p1.discard", "winner == p0", "decision 4 is refused",
              "event WaveDeclared before event BattleDamagePaid"]

The position is written the way a judge thinks (``engine.spec``; per ruleset ``engine.miras9.builder.from_spec``
and ``engine.morana.builder.from_spec``): cards as ``"LABEL=card-id"``, named by label afterwards. A scenario is
a sandbox: the decks are not held to the deck-building rules (the header of its game says ``sandbox``), but the
position must be consistent: each card in one place, every instance's card known to the pool, no negative
counter, legal statuses.

A **decision** is ``[pN] KIND [FIELD=VALUE ...]``: the option kind (``add_attacker`` or ``AddAttacker``) and as
many of its fields as make it one option of those offered (values: labels, lane names, numbers, true/false,
words). **Expectations**, checked in order after the decisions (and the automatic steps after them) are played:

* ``pN.COUNTER OP N`` (``echo``, ``slava``, ``embers``), ``pN.ZONE OP N`` (how many cards: ``hand``, ``deck``,
  ``discard``, ``board``, ``exterior``, ``nav``, ``site2`` ...), ``LABEL.COUNTER OP N`` (``wounds``, ``tapped``,
  ``power`` ...), ``LABEL.zone == ZONE``; ``OP`` one of ``== != < <= > >=``;
* ``LABEL in pN.ZONE``, ``LABEL not in pN.ZONE``;
* ``winner == p0`` (``p1``, ``none``), ``over == true``, ``turn == N``, ``phase == NAME``, ``step == NAME``;
* ``decision N is refused`` (the N-th decision, counted from 1, is not among the options offered: play stops
  there), ``decision N is offered``;
* ``event KIND [LABEL]`` (such an event happened, naming the card), ``no event KIND [LABEL]``,
  ``event KIND [LABEL] before event KIND [LABEL]`` (the first of each, in that order).

The players are ``p0`` and ``p1``, as logs, boards and judges' commands number them. A file written before
annals settled on that numbering counts ``p1`` and ``p2``: a file that names no ``p0`` is read so, each ``p1``
as ``p0`` and each ``p2`` as ``p1`` (``OLD_SPELLING``), and its output says p0 and p1.

A bad file is refused with ``ScenarioError``: the file, the line and field, and the fix.
"""

from __future__ import annotations

import difflib
import importlib
import operator
import os
import re
import tomllib
import typing
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec

from annals.engine import ENGINE_VERSION
from annals.engine.core import DecisionPoint, GameState, Ruleset
from annals.engine.registry import get_ruleset, ruleset_names, with_cards
from annals.engine.runner import FRAME_EVENTS, MAX_FRAME_EVENTS, Game, finalize_header
from annals.engine.spec import PLAYERS, Built, SpecError
from annals.queries.positions.files import InvalidPositionError, PositionFile, check_continuable, validate
from annals.queries.workbench.tomlpaths import line_of, value_lines
from annals.schemas.carddefs import definitions_from_tables
from annals.schemas.errors import AnnalsError, CardDataError
from annals.schemas.files import os_error, output_file
from annals.schemas.header import SCENARIO_REASON, LogClose, LogHeader, PlayerInfo
from annals.schemas.logfile import FORMAT_VERSION, LogWriter
from annals.schemas.records import CARDS_PER_PLAYER, instance_owner
from annals.schemas.text import INSTANCE_FIELDS, describe_event

BUILDERS = {"miras9": "annals.engine.miras9.builder", "morana": "annals.engine.morana.builder"}
TOP = frozenset({"scenario", "ruleset", "rules", "sandbox", "cards", "wardens", "position", "p0", "p1",
                 "decisions", "expect", "wave", "battle_damage", "extra_attack"})  # fmt: skip
SANDBOX = "no deck-building rules apply (a judge's sandbox); every other consistency check does"
LANE_WORDS = {"exterior": 0, "interior": 1, "space": 2}
_OPS: dict[str, Callable[[Any, Any], bool]] = {
    "==": operator.eq, "!=": operator.ne, "<=": operator.le, ">=": operator.ge, "<": operator.lt, ">": operator.gt,
}  # fmt: skip


class ScenarioError(AnnalsError, ValueError):
    """A scenario file that cannot be played as written: names the file, line and field, and the fix."""


class Scenario(msgspec.Struct):
    path: str
    title: str
    ruleset: str
    rules: list[str]
    built: Built
    header: LogHeader
    decisions: list[str]
    expect: list[str]
    text: str  # the file, to find lines in (in annals' numbering of the players)
    old_spelling: bool = False  # the file counts its players p1, p2 (``renumbered``)


class Outcome(msgspec.Struct):
    """What playing a scenario did: every line it printed, and the first expectation that failed ("" if none)."""

    path: str
    lines: list[str]
    failed: str
    events: int
    decisions: int
    log: str = ""  # the log written ("" when none was)


def _error(path: str, text: str, field: str, message: str, *at: str) -> ScenarioError:
    """``FILE:LINE: FIELD: MESSAGE``, the line that of the value at key path ``field`` as the TOML is written (or
    of the first of ``at`` found, or of the nearest enclosing value; no line when none is written)."""
    lines = value_lines(text)
    line = next((n for n in (line_of(lines, key) for key in (*at, field)) if n), 0)
    where = f"{path}:{line}" if line else path
    return ScenarioError(f"{where}: {field}: {message}")


def _card_path(doc: dict[str, Any], sections: tuple[str, ...], message: str) -> str:
    """The key path of the card table (and field) a ``CardDataError`` names: ``cards[1].power``."""
    named = re.search(r"'([^']+)'", message)
    field = re.search(r"at `\$\.(\w+)", message)
    for section in sections:
        tables = doc.get(section)
        if not isinstance(tables, list) or named is None:
            continue
        for i, table in enumerate(tables):
            if isinstance(table, dict) and table.get("id") == named.group(1):
                return f"{section}[{i}]" + (f".{field.group(1)}" if field and field.group(1) in table else "")
    return sections[0] if sections else "cards"


_PLAYER_WORD = re.compile(r"\bp([0-9])\b")
OLD_SPELLING = " (this file counts its players p1 and p2, the old spelling: read as p0 and p1)"


def renumbered(text: str) -> str | None:
    """A scenario written in the old spelling (players ``p1``, ``p2``: it names no ``p0``) in annals' numbering
    (``p0``, ``p1``: each name the same length, so every line and column stays where it was); None for a file
    already in it."""
    if any(m.group(1) == "0" for m in _PLAYER_WORD.finditer(text)):
        return None
    return _PLAYER_WORD.sub(lambda m: f"p{int(m.group(1)) - 1}" if m.group(1) in "12" else m.group(0), text)


def load_scenario(path: str | os.PathLike[str]) -> Scenario:
    """Read and check a scenario file (``ScenarioError`` for anything wrong in it); one in the old spelling of the
    players (``renumbered``) is read in annals' numbering, and its errors say so."""
    p = str(path)
    try:
        written = Path(path).read_text()
    except (FileNotFoundError, IsADirectoryError, UnicodeDecodeError) as exc:
        raise ScenarioError(f"{p}: cannot read the scenario ({exc}); give the path of a .toml scenario file") from None
    old = renumbered(written)
    try:
        checked = _checked(p, written if old is None else old)
        return checked if old is None else msgspec.structs.replace(checked, old_spelling=True)
    except ScenarioError as exc:
        if old is None:
            raise
        raise ScenarioError(f"{exc}{OLD_SPELLING}") from None


def _checked(p: str, text: str) -> Scenario:
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(f"{p}: not valid TOML ({exc}); fix the syntax there") from None
    unknown = sorted(set(doc) - TOP)
    if unknown:
        raise _error(p, text, unknown[0], f"unknown key; a scenario has {', '.join(sorted(TOP))}")
    name = doc.get("ruleset")
    if name not in ruleset_names():
        raise _error(p, text, "ruleset", f"{name!r} is not a ruleset; use one of {ruleset_names()}")
    if name not in BUILDERS:
        raise _error(p, text, "ruleset", f"ruleset {name!r} has no position builder for scenarios")
    ruleset = get_ruleset(name)
    sections = getattr(ruleset, "card_sections", ("cards",))
    tables: dict[str, Any] = {k: doc[k] for k in ("cards", "wardens") if k in doc}
    try:
        cards = definitions_from_tables(tables, sections, p)
        ruleset = with_cards(ruleset, cards)
    except CardDataError as exc:
        raise _error(p, text, "cards", f"{exc}", _card_path(doc, tuple(tables), str(exc))) from None
    pool = getattr(ruleset, "pool", None)
    builder = importlib.import_module(BUILDERS[name])
    try:
        built: Built = builder.from_spec(doc, pool) if pool is not None else builder.from_spec(doc)
    except SpecError as exc:
        raise _error(p, text, exc.field, str(exc).split(": ", 1)[1]) from None
    header = scenario_header(ruleset, built, str(doc.get("scenario", "")))
    position = PositionFile(
        ruleset=name, ruleset_version=header.ruleset_version, card_pool_hash=header.card_pool_hash,
        source_game="", at_event=0, players=header.players, decks=header.decks,
        state=msgspec.Raw(msgspec.json.encode(built.state)), sandbox=True,
    )  # fmt: skip
    try:
        validate(ruleset, position, built.state)
        check_continuable(ruleset, position, built.state)  # the rules can go on from it (a wave's step, say)
    except InvalidPositionError as exc:
        raise _error(p, text, "position", f"{exc}", "position", "p0") from None
    rules = doc.get("rules", [])
    if not isinstance(rules, list) or not all(isinstance(r, str) and re.fullmatch(r"(M9|MOR)-\d+", r) for r in rules):
        raise _error(p, text, "rules", 'list the paragraphs it decides, e.g. rules = ["M9-086"]')
    lists = {}
    for key in ("decisions", "expect"):
        value = doc.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise _error(p, text, key, f'{key} is a list of strings, e.g. {key} = ["..."]')
        lists[key] = value
    kinds = frozenset(t.__name__ for t in typing.get_args(ruleset.schema.event_type))
    for i, line in enumerate(lists["expect"]):
        problem = _expectation_problem(line, built.labels, kinds)
        if problem:
            raise _error(p, text, f"expect[{i}]", f"{line!r}: {problem}")
    return Scenario(p, str(doc.get("scenario", "")), name, rules, built, header, lists["decisions"],
                    lists["expect"], text)  # fmt: skip


def scenario_header(ruleset: Ruleset[Any], built: Built, title: str = "") -> LogHeader:
    """The header of a scenario's game: a sandbox game from the built position, its cards embedded."""
    state = msgspec.structs.replace(built.state, n=0)
    return finalize_header(
        LogHeader(
            format_version=FORMAT_VERSION,
            engine_version=ENGINE_VERSION,
            ruleset=ruleset.schema.name,
            ruleset_version=ruleset.schema.version,
            card_pool_hash=ruleset.card_pool_hash(),
            seed=1,
            players=[PlayerInfo(PLAYERS[0], "scenario"), PlayerInfo(PLAYERS[1], "scenario")],
            decks=built.decks,
            start_position=msgspec.msgpack.encode(state),
            cards=tuple(getattr(ruleset, "extra_cards", ())),
            sandbox=True,
            nonce=title.encode().hex()[:32],
        )
    )


# ---------------------------------------------------------------- decisions


def _norm(kind: str) -> str:
    return kind.replace("_", "").replace("-", "").lower()


def _value(word: str, labels: dict[str, int]) -> Any:
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


def _option_text(option: Any, names: dict[int, str]) -> str:
    fields = []
    for f in option.__struct_fields__:
        v = getattr(option, f)
        fields.append(f"{f}={names.get(v, v) if f in INSTANCE_FIELDS else v}")
    return " ".join([type(option).__name__, *fields])


def match_option(text: str, point: DecisionPoint[Any], labels: dict[str, int], names: dict[int, str]) -> Any:
    """The one offered option a decision line names; ``ScenarioError`` (saying what is offered) otherwise."""
    words = text.split()
    if words and words[0] in PLAYERS:
        who = PLAYERS.index(words.pop(0))
        if who != point.player:
            raise ScenarioError(f"it is {PLAYERS[point.player]}'s decision ({point.point}), not {PLAYERS[who]}'s")
    if not words:
        raise ScenarioError('write the option\'s kind, e.g. "p0 pass"')
    kind, wanted = _norm(words[0]), {}
    for word in words[1:]:
        name, eq, value = word.partition("=")
        if not eq:
            raise ScenarioError(f"{word!r} is not FIELD=VALUE")
        wanted[name] = _value(value, labels)
    hits = [
        o for o in point.options
        if _norm(type(o).__name__) == kind and all(getattr(o, k, object()) == v for k, v in wanted.items())
    ]  # fmt: skip
    if len(hits) == 1:
        return hits[0]
    offered = "; ".join(_option_text(o, names) for o in point.options[:12])
    more = f" (and {len(point.options) - 12} more)" if len(point.options) > 12 else ""
    if hits:
        raise ScenarioError(f"{len(hits)} options match; add fields to pick one: {offered}{more}")
    raise ScenarioError(f"not offered at {PLAYERS[point.player]}'s {point.point!r}; offered: {offered}{more}")


# ---------------------------------------------------------------- expectations

_CMP = re.compile(r"^\s*([\w.]+)\s*(==|!=|<=|>=|<|>)\s*([\w.:\-]+)\s*$")
_IN = re.compile(r"^\s*(\w+)\s+(not\s+in|in)\s+(p[01])\.(\w+)\s*$")
_DECISION = re.compile(r"^\s*decision\s+(\d+)\s+is\s+(refused|offered)\s*$")
_EVENT = r"event\s+(\w+)(?:\s+(\w+))?"
_ORDER = re.compile(rf"^\s*{_EVENT}\s+before\s+{_EVENT}\s*$")
_HAPPENED = re.compile(rf"^\s*(no\s+)?{_EVENT}\s*$")
GAME_FIELDS = ("winner", "over", "turn", "phase", "step")


def _expectation_problem(line: str, labels: dict[str, int], kinds: frozenset[str] = frozenset()) -> str:
    for pattern in (_ORDER, _HAPPENED, _DECISION, _IN):
        m = pattern.match(line)
        if m:
            if kinds and pattern in (_ORDER, _HAPPENED):  # "no event KIND" of a kind that does not exist holds always
                named = [m.group(2)] if pattern is _HAPPENED else [m.group(1), m.group(3)]
                unknown = [k for k in named if k not in kinds]
                if unknown:
                    close = difflib.get_close_matches(unknown[0], sorted(kinds), n=3)
                    hint = f"; did you mean {', '.join(close)}?" if close else ""
                    return f"{unknown[0]!r} is no event kind of the ruleset{hint}"
            if pattern is _IN and m.group(1) not in labels:
                return f"{m.group(1)!r} is no card label of the position"
            if pattern in (_ORDER, _HAPPENED):
                cards = [m.group(3)] if pattern is _HAPPENED else [m.group(2), m.group(4)]
                bad = [c for c in cards if c and c not in labels]
                if bad:
                    return f"{bad[0]!r} is no card label of the position"
            return ""
    m = _CMP.match(line)
    if m is None:
        return ("not an expectation; write e.g. 'p1.echo == 1', 'a1 in p1.discard', 'winner == p0', "
                "'decision 2 is refused' or 'event KIND before event KIND'")  # fmt: skip
    left = m.group(1)
    head, _, tail = left.partition(".")
    if head in GAME_FIELDS and not tail:
        return ""
    if (head in PLAYERS or head in labels) and tail:
        return ""
    return f"{left!r} names no player (p0, p1), card label or game field ({', '.join(GAME_FIELDS)})"


class _Run(msgspec.Struct):
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


def _members(run: _Run, player: int, name: str) -> list[int]:
    position = run.ruleset.position(run.state)
    return [c for c, z in position.cards.items() if _zone_matches(z, c, player, name)]


def _lookup(run: _Run, left: str, labels: dict[str, int]) -> Any:
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


def _first(run: _Run, kind: str, label: str | None, labels: dict[str, int]) -> int:
    for i, e in enumerate(run.events):
        if type(e).__name__ == kind and (label is None or _mentions(e, labels[label])):
            return i
    return -1


def check(line: str, run: _Run, labels: dict[str, int]) -> str:
    """ "" when the expectation holds, else what was found instead."""
    m = _DECISION.match(line)
    if m:
        k, wanted = int(m.group(1)), m.group(2)
        if k not in run.refused:
            return f"decision {k} was never asked (the scenario has fewer decisions, or play stopped earlier)"
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
    want: Any = _value(right, {}) if not isinstance(have, str) else right
    if isinstance(have, bool):
        want = right == "true"
    if isinstance(have, int) and isinstance(want, str) and want in PLAYERS:
        want = PLAYERS.index(want)
    try:
        ok = _OPS[op](have, want)
    except TypeError:
        ok = False
    return "" if ok else f"{left} is {have!r}"


# ---------------------------------------------------------------- playing


class _Script:
    def __init__(self, sc: Scenario, names: dict[int, str], out: list[str]):
        self.sc, self.names, self.out = sc, names, out
        self.next = 0
        self.refused: dict[int, bool] = {}

    def choose(self, view: object, point: DecisionPoint[Any]) -> Any:
        k = self.next
        if k >= len(self.sc.decisions):
            raise _Stop
        line = self.sc.decisions[k]
        try:
            option = match_option(line, point, self.sc.built.labels, self.names)
        except ScenarioError as exc:
            if f"decision {k + 1} is refused" in [" ".join(e.split()) for e in self.sc.expect]:
                self.refused[k + 1] = True
                self.out.append(f"? decision {k + 1} {line!r}: refused ({exc})")
                raise _Stop from None
            raise _error(self.sc.path, self.sc.text, f"decisions[{k}]", f"{line!r}: {exc}") from None
        self.refused[k + 1] = False
        self.next = k + 1
        self.out.append(f"? decision {k + 1} ({PLAYERS[point.player]} at {point.point}): "
                        f"{_option_text(option, self.names)}")  # fmt: skip
        return option


class _Stop(Exception):
    pass


def names_of(sc: Scenario) -> dict[int, str]:
    """Each instance as ``Name[label]`` for the printed steps."""
    ruleset = with_cards(get_ruleset(sc.ruleset), sc.header.cards)
    info = ruleset.cards()
    by_label = {iid: label for label, iid in sc.built.labels.items()}
    from annals.schemas.text import card_names

    out = {}
    for iid, cid in card_names(sc.header).items():
        name = info[cid].name if cid in info else cid
        out[iid] = f"{name}[{by_label[iid]}]" if iid in by_label else name
    return out


def run_scenario(sc: Scenario, log: str | os.PathLike[str] | None = None) -> Outcome:
    """Play the scenario's decisions from its position (and the automatic steps after each), print every step
    with card names, and check each expectation in order. ``log``: also write the game there as an annals log (a
    sandbox header whose ``start_position`` is the scenario's position; a game stopped after its decisions closes
    with ``SCENARIO_REASON``), which ``annals verify`` re-runs and ``annals show`` reads. Never over a file."""
    ruleset = with_cards(get_ruleset(sc.ruleset), sc.header.cards)
    names = names_of(sc)
    lines = [f"{sc.path}: {sc.title}" + (f"  [{', '.join(sc.rules)}]" if sc.rules else ""), f"  sandbox: {SANDBOX}"]
    if sc.old_spelling:
        lines.append(f"  players:{OLD_SPELLING}")
    script = _Script(sc, names, lines)
    events: list[Any] = []

    def shown(event: Any) -> None:
        events.append(event)
        lines.append("  " + describe_event(event, names))

    if log is not None:
        output_file(log, inputs=[sc.path], what="--out")
        if Path(log).exists():
            raise ScenarioError(f"{log} exists; give another --out (a log is never written over)")
    game = Game(ruleset, sc.header, [script, script], on_event=shown, views=False)
    state: GameState = game.state
    frames: list[tuple[list[Any], list[Any]]] = []  # as the runner frames a game: whole turns, FRAME_EVENTS or more
    frame_turn = state.turn
    steps = 0
    try:
        while not state.over and steps < 100_000:
            point = ruleset.pending(state)
            if point is not None and script.next >= len(sc.decisions):
                break
            game.step()
            steps += 1
            if (state.turn != frame_turn and len(game.events) >= FRAME_EVENTS) or len(game.events) >= MAX_FRAME_EVENTS:
                frames.append(game.take_batch())
                frame_turn = state.turn
    except _Stop:
        pass
    frames.append(game.take_batch())
    point = ruleset.pending(state) if not state.over else None
    if point is not None:
        offered = "; ".join(_option_text(o, names) for o in point.options[:12])
        lines.append(f"  next: {PLAYERS[point.player]} decides {point.point!r}: {offered}")
    elif state.over:
        lines.append(f"  game over: {'winner ' + PLAYERS[state.winner] if state.winner >= 0 else 'no winner'} "
                     f"({state.end_reason})")  # fmt: skip
    written = ""
    if log is not None:
        close = LogClose(state.winner if state.over else -1, state.end_reason if state.over else SCENARIO_REASON,
                         len(events), sum(len(d) for _, d in frames), state.turn)  # fmt: skip
        written = write_log(log, game.header, frames, close)
        lines.append(f"  log: {written} (game {game.header.game_id}; annals verify / annals show read it)")
    run = _Run(state, ruleset, events, script.refused)
    failed = ""
    for line in sc.expect:
        problem = check(line, run, sc.built.labels)
        lines.append(f"  expect {line!r}: " + ("ok" if not problem else f"FAILED ({problem})"))
        if problem and not failed:
            failed = f"{sc.path}: expectation {line!r} failed: {problem}"
    return Outcome(sc.path, lines, failed, len(events), script.next, written)


def write_log(
    path: str | os.PathLike[str], header: LogHeader, frames: list[tuple[list[Any], list[Any]]], close: LogClose
) -> str:
    """Write a played game's frames (events and decisions) and closing record as a new log file."""
    try:
        writer = LogWriter(path, header)
    except FileExistsError:
        raise ScenarioError(f"{path} exists; give another --out (a log is never written over)") from None
    except OSError as exc:
        raise os_error(exc, "write the scenario's log") from None
    for batch, chosen in frames:
        if batch or chosen:
            writer.write_batch(batch, chosen)
    writer.close(close)
    return os.fspath(writer.path)


def run_file(path: str | os.PathLike[str], log: str | os.PathLike[str] | None = None) -> Outcome:
    return run_scenario(load_scenario(path), log)


# ---------------------------------------------------------------- writing one from a real game


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_toml_value(v)}" for k, v in value.items()) + " }"
    raise TypeError(f"no TOML for {value!r}")


def scenario_text(spec: dict[str, Any], *, title: str, ruleset: str, note: str = "") -> str:
    """A scenario file for ``spec`` (a builder's ``to_spec``): the title, the sandbox note, the position."""
    lines = [f"# {note}" if note else "", f"scenario = {_toml_value(title)}", f"ruleset = {_toml_value(ruleset)}",
             "rules = []  # the paragraphs this scenario decides, e.g. [\"M9-086\"]",
             f"sandbox = {_toml_value(SANDBOX)}", "decisions = []", "expect = []"]  # fmt: skip
    for key, section in spec.items():
        lines += ["", f"[{key}]"] + [f"{k} = {_toml_value(v)}" for k, v in section.items()]
    return "\n".join(line for i, line in enumerate(lines) if line or i) + "\n"


def scenario_from_log(log: str | os.PathLike[str], at: str) -> str:
    """A scenario file holding the position of a real game at coordinate ``at`` (``queries.positions.timeline``)."""
    from annals.queries.positions.timeline import Timeline
    from annals.schemas.logfile import read_log

    game = read_log(log)
    if game.header.ruleset not in BUILDERS:
        raise ScenarioError(f"{log}: ruleset {game.header.ruleset!r} has no scenario builder")
    timeline = Timeline(game)
    count = timeline.resolve(at)
    state = timeline.state_after(count)
    builder = importlib.import_module(BUILDERS[game.header.ruleset])
    try:
        spec = builder.to_spec(state)
    except SpecError as exc:
        raise ScenarioError(f"{log} at {at} (after event {count - 1}): {str(exc).split(': ', 1)[1]}") from None
    from annals.queries.positions.stops import NotAStopError, check_stop

    try:
        check_stop(game, count)
    except NotAStopError as exc:
        raise ScenarioError(f"{log} at {at}: {exc}") from None
    title = f"game {game.header.game_id} at {at}"
    note = f"From {Path(log).name} at {at} (after {count} events). Sandbox: {SANDBOX}."
    if game.header.cards:
        note += " The game's own cards are not copied: add their [[cards]] tables."
    return scenario_text(spec, title=title, ruleset=game.header.ruleset, note=note)


TEMPLATES = Path(__file__).parent / "templates"


def template(ruleset: str) -> str:
    """A starter scenario for ``ruleset`` (a worked example of the README) to edit."""
    path = TEMPLATES / f"{ruleset}.toml"
    if not path.exists():
        from annals.schemas.errors import UnknownNameError

        raise UnknownNameError("ruleset", ruleset, sorted(BUILDERS))
    return path.read_text()
