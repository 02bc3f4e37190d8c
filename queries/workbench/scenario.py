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
    expect = ["after 2: p1.echo == 2", "p1.echo == 1", "a1 in p1.discard", "decision 3 is offered",
              "event WaveDeclared before event BattleDamagePaid"]

The position is written the way a judge thinks (``engine.spec``; per ruleset ``engine.miras9.builder.from_spec``
and ``engine.morana.builder.from_spec``): cards as ``"LABEL=card-id"``, named by label afterwards. A scenario is
a sandbox: the decks are not held to the deck-building rules (the header of its game says ``sandbox``), but the
position must be consistent: each card in one place, every instance's card known to the pool, no negative
counter, legal statuses.

A **decision** is ``[pN] KIND [FIELD=VALUE ...]``: the option kind (``add_attacker`` or ``AddAttacker``) and as
many of its fields as make it one option of those offered (values: labels, lane names, numbers, true/false,
words). A Miras 9 ``board`` entry may take ``controller = "p2"``: a card the other player directs, still its
owner's. **Expectations**, checked in order after the decisions (and the automatic steps after them) are played,
or, written ``after N: EXPECTATION``, once decision N is made and the automatic steps after it have run (when
decision N + 1 is asked or play ends; ``after 0:`` is the position as written):

* ``pN.COUNTER OP N`` (``echo``, ``slava``, ``embers``), ``pN.ZONE OP N`` (how many cards: ``hand``, ``deck``,
  ``discard``, ``board``, ``exterior``, ``nav``, ``site2`` ...), ``LABEL.COUNTER OP N`` (``wounds``, ``tapped``,
  ``power`` ...), ``LABEL.zone == ZONE``; ``OP`` one of ``== != < <= > >=``;
* ``LABEL in pN.ZONE``, ``LABEL not in pN.ZONE``;
* ``winner == p0`` (``p1``, ``none``), ``over == true``, ``turn == N``, ``phase == NAME``, ``step == NAME``;
* ``decision N is refused`` (the N-th decision, counted from 1, is not among the options offered: it is recorded
  and play goes on with the next line, so one file holds several refusals), ``decision N is offered``;
* ``event KIND [LABEL]`` (such an event happened, naming the card), ``no event KIND [LABEL]``,
  ``event KIND [LABEL] before event KIND [LABEL]`` (the first of each, in that order).

Every name is checked when the file is read (``queries.workbench.expectations``): a counter, zone, label, event or
option kind or field that names nothing is refused with the closest name (``p0.slavaa``: did you mean
``slava``?), never read as 0. The file comes through the input door (``schemas.inputs``: a regular file, bounded
in size, nesting and numbers). A re-run replaces the scenario's own earlier log and says so; any other file is
never written over. ``docs/scenario-files.md`` has the whole of it with examples.

The players are ``p0`` and ``p1``, as logs, boards and judges' commands number them. A file written before
annals settled on that numbering counts ``p1`` and ``p2``: a file that names no ``p0`` is read so, each ``p1``
as ``p0`` and each ``p2`` as ``p1`` (``OLD_SPELLING``), and its output says p0 and p1.

A bad file is refused with ``ScenarioError``: the file, the line and field, and the fix.
"""

from __future__ import annotations

import importlib
import os
import re
from pathlib import Path
from typing import Any

import msgspec

from annals.engine import ENGINE_VERSION
from annals.engine.core import DecisionPoint, Ruleset, State, replaced
from annals.engine.registry import get_ruleset, ruleset_names, with_cards
from annals.engine.runner import FRAME_EVENTS, MAX_FRAME_EVENTS, Game, finalize_header
from annals.engine.spec import PLAYERS, Built, SpecError
from annals.queries.positions.files import InvalidPositionError, PositionFile, check_continuable, validate
from annals.queries.workbench.expectations import (
    Run,
    check,
    decision_problem,
    expectation_problem,
    norm,
    split_after,
    vocabulary,
    word_value,
)
from annals.queries.workbench.steps import Steps
from annals.queries.workbench.tomlpaths import line_of, value_lines
from annals.schemas.carddefs import definitions_from_tables
from annals.schemas.errors import AnnalsError, CardDataError
from annals.schemas.files import PathError, os_error, output_file
from annals.schemas.header import SCENARIO_REASON, LogClose, LogHeader, PlayerInfo
from annals.schemas.inputs import InputFileError, parse_toml, read_text
from annals.schemas.logfile import FORMAT_VERSION, LogReader, LogWriter

BUILDERS = {"miras9": "annals.engine.miras9.builder", "morana": "annals.engine.morana.builder"}
TOP = frozenset({"scenario", "ruleset", "rules", "sandbox", "cards", "wardens", "position", "p0", "p1",
                 "decisions", "expect", "wave", "battle_damage", "extra_attack"})  # fmt: skip
SANDBOX = "no deck-building rules apply (a judge's sandbox); every other consistency check does"
# A judge's position holds small numbers: a counter, a turn, a modifier. A bigger one is a typing slip, and would
# overflow the engine's integers (``wounds = 10**21``)
SCENARIO_INTS = (-1_000_000, 1_000_000)
MAX_SCENARIO_BYTES = 1 << 20


class ScenarioError(AnnalsError, ValueError):
    """A scenario file that cannot be played as written: names the file, line and field, and the fix."""


class ScenarioSyntaxError(ScenarioError):
    """A scenario file that is not TOML: the players' numbering has no part in it (renumbering keeps every line,
    column and key distinct), so its message goes without the old-spelling note."""


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
    named = {m.group(1) for m in _PLAYER_WORD.finditer(text)}
    if "0" in named or not named & {"1", "2"}:  # annals' numbering, or no player named: nothing to renumber
        return None
    return _PLAYER_WORD.sub(lambda m: f"p{int(m.group(1)) - 1}" if m.group(1) in "12" else m.group(0), text)


def load_scenario(path: str | os.PathLike[str]) -> Scenario:
    """Read and check a scenario file (``ScenarioError`` for anything wrong in it); one in the old spelling of the
    players (``renumbered``) is read in annals' numbering, and its errors say so."""
    p = str(path)
    try:
        written = read_text(path, what="scenario", max_bytes=MAX_SCENARIO_BYTES)
    except FileNotFoundError:
        raise ScenarioError(f"{p}: no such file; give the path of a .toml scenario file") from None
    except (InputFileError, PathError) as exc:  # not a regular file, too big, not UTF-8
        raise ScenarioError(str(exc)) from None
    old = renumbered(written)
    try:
        checked = _checked(p, written if old is None else old)
        return checked if old is None else msgspec.structs.replace(checked, old_spelling=True)
    except ScenarioError as exc:
        if old is None or isinstance(exc, ScenarioSyntaxError):
            raise
        raise ScenarioError(f"{exc}{OLD_SPELLING}") from None


def _checked(p: str, text: str) -> Scenario:
    try:
        doc = parse_toml(text, where=p, what="scenario", int_range=SCENARIO_INTS)
    except InputFileError as exc:
        if exc.key:  # a value out of range, or nested too deep: its line
            raise _error(p, text, exc.key, exc.reason) from None
        raise ScenarioSyntaxError(str(exc)) from None
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
    names = vocabulary(name, ruleset.schema, built.labels)
    for i, line in enumerate(lists["decisions"]):
        problem = decision_problem(line, names)
        if problem:
            raise _error(p, text, f"decisions[{i}]", f"{line!r}: {problem}")
    for i, line in enumerate(lists["expect"]):
        problem = expectation_problem(line, names, len(lists["decisions"]))
        if problem:
            raise _error(p, text, f"expect[{i}]", f"{line!r}: {problem}")
    return Scenario(p, str(doc.get("scenario", "")), name, rules, built, header, lists["decisions"],
                    lists["expect"], text)  # fmt: skip


def scenario_header(ruleset: Ruleset[Any], built: Built, title: str = "") -> LogHeader:
    """The header of a scenario's game: a sandbox game from the built position, its cards embedded."""
    state = replaced(built.state, n=0)
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


def match_option(text: str, point: DecisionPoint[Any], labels: dict[str, int], steps: Steps) -> Any:
    """The one offered option a decision line names; ``ScenarioError`` (saying what is offered) otherwise."""
    words = text.split()
    if words and words[0] in PLAYERS:
        who = PLAYERS.index(words.pop(0))
        if who != point.player:
            raise ScenarioError(f"it is {PLAYERS[point.player]}'s decision ({point.point}), not {PLAYERS[who]}'s")
    if not words:
        raise ScenarioError('write the option\'s kind, e.g. "p0 pass"')
    kind, wanted = norm(words[0]), {}
    for word in words[1:]:
        name, eq, value = word.partition("=")
        if not eq:
            raise ScenarioError(f"{word!r} is not FIELD=VALUE")
        wanted[name] = word_value(value, labels)
    hits = [
        o for o in point.options
        if norm(type(o).__name__) == kind and all(getattr(o, k, object()) == v for k, v in wanted.items())
    ]  # fmt: skip
    if len(hits) == 1:
        return hits[0]
    offered = steps.offered(point)
    if hits:
        raise ScenarioError(f"{len(hits)} options match; add fields to pick one: {offered}")
    raise ScenarioError(f"not offered at {PLAYERS[point.player]}'s {point.point!r}; offered: {offered}")


# ---------------------------------------------------------------- playing


_REFUSED = re.compile(r"^\s*decision\s+(\d+)\s+is\s+refused\s*$")


class _Script:
    """The scenario's decisions as an agent: each line matched to an offered option; a line the file expects
    refused is recorded and play goes on with the next line at the same point. Before each line (and at the end,
    ``finish``) the expectations held ``after`` the decisions so far are checked."""

    def __init__(self, sc: Scenario, steps: Steps, out: list[str], ruleset: Any, events: list[Any]):
        self.sc, self.steps, self.out = sc, steps, out
        self.ruleset, self.events = ruleset, events
        self.state: Any = None  # the game's state, set once the game is made
        self.next = 0
        self.refused: dict[int, bool] = {}
        self.expected_refusals = set()
        self.checkpoints: dict[int, list[int]] = {}  # after N -> indexes into expect
        for i, line in enumerate(sc.expect):
            at, body = split_after(line)
            m = _REFUSED.match(body)
            if m:
                self.expected_refusals.add(int(m.group(1)))
            if at is not None:
                self.checkpoints.setdefault(at, []).append(i)
        self.problems: dict[int, str] = {}  # expect index -> what was found ("" when it held)

    def checkpoint(self, after: int) -> None:
        """Check the expectations held ``after`` this many decisions (once)."""
        run = Run(self.state, self.ruleset, self.events, self.refused)
        for i in self.checkpoints.pop(after, []):
            line = self.sc.expect[i]
            problem = check(split_after(line)[1], run, self.sc.built.labels)
            self.problems[i] = problem
            self.out.append(f"  expect {line!r}: " + ("ok" if not problem else f"FAILED ({problem})"))

    def finish(self) -> None:
        """Play has ended: the checkpoints of the decisions made are checked now, those beyond never held."""
        self.checkpoint(self.next)
        for after in sorted(self.checkpoints):
            for i in self.checkpoints[after]:
                problem = f"play ended after decision {self.next}, before decision {after} was made"
                self.problems[i] = problem
                self.out.append(f"  expect {self.sc.expect[i]!r}: FAILED ({problem})")
        self.checkpoints.clear()

    def choose(self, view: object, point: DecisionPoint[Any]) -> Any:
        while True:
            k = self.next
            self.checkpoint(k)
            if k >= len(self.sc.decisions):
                raise _Stop
            line = self.sc.decisions[k]
            try:
                option = match_option(line, point, self.sc.built.labels, self.steps)
            except ScenarioError as exc:
                if k + 1 not in self.expected_refusals:
                    raise _error(self.sc.path, self.sc.text, f"decisions[{k}]", f"{line!r}: {exc}") from None
                self.refused[k + 1] = True
                self.next = k + 1
                self.out.append(f"? decision {k + 1} {line!r}: refused ({exc}); play goes on")
                continue
            self.refused[k + 1] = False
            self.next = k + 1
            self.out.append(self.steps.decision(k + 1, option, point))
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


def run_scenario(sc: Scenario, log: str | os.PathLike[str] | None = None, *, records: bool = False) -> Outcome:
    """Play the scenario's decisions from its position (and the automatic steps after each), print every step
    with card names (in words, or ``records`` as the event and option records read: ``queries.workbench.steps``),
    and check each expectation in order. ``log``: also write the game there as an annals log (a
    sandbox header whose ``start_position`` is the scenario's position; a game stopped after its decisions closes
    with ``SCENARIO_REASON``), which ``annals verify`` re-runs and ``annals show`` reads. Never over a file."""
    ruleset = with_cards(get_ruleset(sc.ruleset), sc.header.cards)
    printer = Steps(sc.ruleset, names_of(sc), sc.built.labels, words=not records)
    lines = [f"{sc.path}: {sc.title}" + (f"  [{', '.join(sc.rules)}]" if sc.rules else ""), f"  sandbox: {SANDBOX}"]
    if sc.old_spelling:
        lines.append(f"  players:{OLD_SPELLING}")
    events: list[Any] = []
    script = _Script(sc, printer, lines, ruleset, events)

    def shown(event: Any) -> None:
        events.append(event)
        said = printer.event(event)
        if said is not None:
            lines.append(said)

    replacing = False
    if log is not None:
        output_file(log, inputs=[sc.path], what="--out", exists_ok=True)  # its own earlier log is replaced
        if os.path.lexists(log):
            if not is_own_log(log, sc.header):
                raise ScenarioError(f"{log} exists and is not this scenario's log; give another --out (a log is "
                                    "never written over, but a scenario's own earlier log is replaced)")  # fmt: skip
            replacing = True
    game = Game(ruleset, sc.header, [script, script], on_event=shown, views=False)
    state: State = game.state
    script.state = state
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
    script.finish()
    point = ruleset.pending(state) if not state.over else None
    if point is not None:
        lines.extend(printer.next(point))
    elif state.over:
        lines.append(printer.over(state.winner, state.end_reason))
    written = ""
    if log is not None:
        close = LogClose(state.winner if state.over else -1, state.end_reason if state.over else SCENARIO_REASON,
                         len(events), sum(len(d) for _, d in frames), state.turn)  # fmt: skip
        written = write_log(log, game.header, frames, close, replace=replacing)
        again = "; it replaces this scenario's earlier log" if replacing else ""
        lines.append(f"  log: {written} (game {game.header.game_id}; annals verify / annals show read it{again})")
    run = Run(state, ruleset, events, script.refused)
    problems = script.problems
    for i, line in enumerate(sc.expect):
        if i in problems:  # held at a point of play: checked and printed there
            continue
        problems[i] = check(line, run, sc.built.labels)
        lines.append(f"  expect {line!r}: " + ("ok" if not problems[i] else f"FAILED ({problems[i]})"))
    failed = next((f"{sc.path}: expectation {sc.expect[i]!r} failed: {problems[i]}"
                   for i in range(len(sc.expect)) if problems[i]), "")  # fmt: skip
    played = sum(1 for refused in script.refused.values() if not refused)
    return Outcome(sc.path, lines, failed, len(events), played, written)


def is_own_log(path: str | os.PathLike[str], header: LogHeader) -> bool:
    """Whether ``path`` holds a log a run of the same scenario wrote (a scenario's sandbox game of the same
    ruleset and title): a re-run replaces it rather than piling up copies beside it."""
    if not os.path.isfile(path) or os.path.islink(path):
        return False
    try:
        with LogReader(path) as reader:
            old = reader.header
    except (AnnalsError, OSError):
        return False
    return (
        old.sandbox
        and all(p.agent == "scenario" for p in old.players)
        and (old.ruleset, old.nonce) == (header.ruleset, header.nonce)
    )


def log_in(folder: Path, sc: Scenario) -> Path:
    """Where a scenario's log goes in ``folder``: ``NAME.log`` when free or its own earlier log, else the first of
    ``NAME-2.log``, ``NAME-3.log``... that is (another scenario of the same name wrote the first)."""
    stem = Path(sc.path).stem
    candidate, k = folder / f"{stem}.log", 1
    while os.path.lexists(candidate) and not is_own_log(candidate, sc.header):
        k += 1
        candidate = folder / f"{stem}-{k}.log"
    return candidate


def write_log(
    path: str | os.PathLike[str],
    header: LogHeader,
    frames: list[tuple[list[Any], list[Any]]],
    close: LogClose,
    *,
    replace: bool = False,
) -> str:
    """Write a played game's frames (events and decisions) and closing record as a new log file; ``replace``: over
    the file there, which is only ever swapped for the whole new log (written beside it, then renamed). A log the
    disk refused is not left half-written."""
    target = Path(path)
    written = target.with_name(f".{target.name}.part") if replace else target
    try:
        writer = LogWriter(written, header, overwrite=replace)
    except FileExistsError:
        raise ScenarioError(f"{path} exists; give another --out (a log is never written over)") from None
    except OSError as exc:
        raise os_error(exc, "write the scenario's log") from None
    try:
        for batch, chosen in frames:
            if batch or chosen:
                writer.write_batch(batch, chosen)
        writer.close(close)
        if replace:
            os.replace(written, target)
    except OSError as exc:
        writer.abandon()
        written.unlink(missing_ok=True)  # a scenario's log is played again in a moment: no part of one is kept
        error = os_error(exc, "write the scenario's log")
        raise ScenarioError(f"{error}; the unfinished log {written} was removed") from None
    return os.fspath(target)


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
