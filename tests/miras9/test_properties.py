"""Properties over seeded whole games with both bots: no exceptions; after EVERY event every card instance is in
exactly one place and no value in the state is negative; effective ATK/GRIT/ECHO never below 0; the fold of the log
equals the engine state; re-running decisions gives the same log bytes.

Two dozen games run by default; two thousand behind ``--soak``.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from annals.engine.miras9.board import atk, echo_of, grit, is_unit
from annals.engine.miras9.ruleset import DEFAULT_MAX_TURNS, RULESET
from annals.engine.miras9.shipsites import is_ship_site
from annals.engine.miras9.state import M9State, card_zone_ok
from annals.engine.replay import rerun
from annals.engine.runner import Game
from annals.engine.simulate import bots_for, make_header, play_one
from annals.schemas import miras9 as ev
from annals.schemas.logfile import read_log

DECKS = sorted(RULESET.decks())
BOTS = ["random", "heuristic"]


# Fields that may hold -1, meaning "none": no player / no position (also: not En Route) / the card itself rather
# than an ability.
SENTINELS = frozenset({"winner", "first", "priority", "bd_player", "loc", "ability", "origin", "extra_lane", "dest",
                       "boundary"})  # fmt: skip
# Modifiers may be negative; the effective values they feed are checked instead [M9-007].
MODIFIERS = frozenset({"atk_mod", "grit_mod"})


def negatives(obj: Any, path: str = "state") -> list[str]:
    """Every negative int in a state struct, walking every int, list[int], nested struct, list and dict of structs by
    the field types (so a field added later is checked too), except the -1 sentinels and the modifiers."""
    out: list[str] = []
    names = [f.name for f in dataclasses.fields(obj)] if dataclasses.is_dataclass(obj) else type(obj).__struct_fields__
    for name in names:  # a card (``miras9.cardstate``) is a dataclass, the rest Structs
        value = getattr(obj, name)
        where = f"{path}.{name}"
        if type(value) is int:
            if value < 0 and name not in MODIFIERS and not (name in SENTINELS and value == -1):
                out.append(f"{where} = {value}")
        elif type(value) is list and value and type(value[0]) is int:
            if min(value) < 0:
                out.append(f"{where} = {value}")
        elif isinstance(value, msgspec.Struct) or dataclasses.is_dataclass(value):
            out += negatives(value, where)
        elif type(value) in (list, dict):
            items = value.items() if type(value) is dict else enumerate(value)
            walked = [(k, v) for k, v in items if isinstance(v, msgspec.Struct) or dataclasses.is_dataclass(v)]
            out += [p for k, v in walked for p in negatives(v, f"{where}[{k}]")]
    return out


def _check(s: M9State) -> None:
    """Every card instance in exactly one place and no negative value in the state: run after every event."""
    problems = card_zone_ok(s)
    assert not problems, (s.n, problems)
    bad = negatives(s)
    assert not bad, (s.n, bad)
    assert all(cs.tapped in (0, 1) and cs.attuned in (0, 1) for cs in s.cards.values()), s.n
    assert s.passes in (0, 1, 2) and 0 <= s.bd_paid <= len(s.bd_sources), s.n


_PHASE_ACTIONS = (ev.PhaseBegan, ev.TurnBegan, ev.Awakened, ev.Manifested, ev.Pressured, ev.Restored, ev.WaveDeclared)


def _check_wave_event(s: M9State, e: Any) -> None:
    """Rules of the reaction windows, checked on every event of real games (state already updated by ``e``):
    [M9-075] [M9-077] [M9-080] who gets the first opportunity; [M9-115] priority returns to the attacker after a
    resolution, with a fresh pass count; [M9-114] no phase action, phase change or new wave inside a wave, and only
    Reactions are played from Hand there."""
    kind = type(e)
    w = s.wave
    if kind is ev.WindowOpened:
        assert w is not None and e.priority == (1 - w.attacker if e.window == "before_blocks" else w.attacker), e
    elif kind is ev.StackResolved:
        assert w is not None and s.priority == w.attacker and s.passes == 0, e
    elif w is not None and w.step > 1 and kind in _PHASE_ACTIONS:
        raise AssertionError(f"{e!r} inside wave {w.number}")
    elif w is not None and kind is ev.CardPlayed:
        assert "reaction" in s.pool[e.card_id].keywords, e


def _check_effective(s: M9State) -> None:
    """[M9-007] effective ATK, GRIT and ECHO of every Unit are never below 0: run after every decision."""
    for cs in s.cards.values():
        if is_unit(s, cs):
            assert min(atk(s, cs), grit(s, cs), echo_of(s, cs)) >= 0, (s.n, cs)


def tally(fired: Counter[str], s: M9State, e: Any) -> None:
    """Count the movement and crew rules happening, by event (state already updated by ``e``)."""
    kind = type(e)
    if kind is ev.UnitMoved:
        fired["move [M9-058]"] += 1
        fired["move arriving at once (rapid)" if e.dst.startswith("lane:") else "move En Route [M9-054]"] += 1
        fired["move with crew or Equipment aboard [M9-062]"] += len(e.cards) > 1
        fired["move at a changed cost"] += e.cost != 1
    elif kind is ev.Arrived:
        fired["arrival [M9-032]"] += 1
    elif kind is ev.Embarked:
        fired[f"embark in {s.phase} [M9-060]"] += 1
    elif kind is ev.Disembarked:
        fired[f"disembark ({e.reason})"] += 1
    elif kind is ev.Spotted:
        fired["Spot [M9-055]"] += 1
    elif kind is ev.WaveDeclared:
        fired["attack on a Spotted Unit"] += sum(1 for c in e.targets if c and s.cards[c].spotted)
        fired["attack by a manned host [M9-057]"] += sum(1 for c in e.attackers if s.cards[c].crew)
    elif kind is ev.CardMoved and e.reason == "host_lost":
        fired["crew discarded with its host [M9-091]"] += 1
    elif kind is ev.CounterChanged and e.source == "host_defeated":
        fired["crew surviving tapped [M9-091]"] += 1
    elif kind is ev.Awakened and s.phase == "move":
        fired["Awaken in the Move phase"] += 1
    elif (kind is ev.Manifested or kind is ev.Pressured) and s.cards[e.card].crew:
        fired["Manifest or Pressure by a manned host [M9-098]"] += 1
    elif kind is ev.Manifested and s.cards[e.card].aboard:
        fired["crew Manifest granted by its host [M9-099]"] += 1
    elif kind is ev.ShipSiteMoved and e.kind == "contest" and e.dst == f"lane:{1 - e.player}:interior":
        fired["Ship-Site contesting an enemy Interior [M9-064]"] += 1
    elif kind is ev.AbilityActivated and is_ship_site(s, s.cards[e.card]):
        fired["Ship-Site ability [M9-043]"] += 1


FIRED: Counter[str] = Counter()  # what the invariant games made happen (printed by the soak test)


def play_folding(g: Game, fold_every: int, after_step: Callable[[M9State], None] | None = None) -> M9State:
    """Play ``g`` to its end or the turn cap, folding its events into a state of their own (returned) and comparing
    it with the engine's every ``fold_every`` decisions; ``after_step`` checks the engine's state after each."""
    folded = RULESET.new_state(g.header)
    steps = 0
    while not g.state.over and g.state.turn <= DEFAULT_MAX_TURNS:
        g.step()
        for e in g.events:
            RULESET.apply(folded, e)
        g.events.clear()
        steps += 1
        if after_step is not None:
            assert isinstance(g.state, M9State)
            after_step(g.state)
        if steps % fold_every == 0:
            assert msgspec.msgpack.encode(folded) == msgspec.msgpack.encode(g.state)
    return folded


def _game(seed: int, fold_every: int = 1) -> Game:
    """Play one seeded game (decks and bots chosen by the seed), checking the invariants after EVERY event and the
    fold of the log against the engine state every ``fold_every`` decisions and at the end."""
    d = [DECKS[seed % len(DECKS)], DECKS[(seed // len(DECKS)) % len(DECKS)]]
    bots = [BOTS[seed % 2], BOTS[(seed // 2) % 2]]
    h = make_header(RULESET, seed, d, bots, max_turns=DEFAULT_MAX_TURNS)
    agents = bots_for(RULESET, h)
    checked = [0]

    def check_event(event: Any) -> None:  # the runner calls this after applying each event
        assert isinstance(g.state, M9State)
        _check(g.state)
        _check_wave_event(g.state, event)
        tally(FIRED, g.state, event)
        checked[0] += 1

    g = Game(RULESET, h, agents, on_event=check_event)
    folded = play_folding(g, fold_every, _check_effective)
    assert msgspec.msgpack.encode(folded) == msgspec.msgpack.encode(g.state)
    assert checked[0] == g.state.n  # every event was checked
    return g


@settings(max_examples=24, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=2**32))
def test_random_games_hold_invariants_at_every_event_M9_007(seed: int) -> None:
    """[M9-007] at every event of a seeded game (both bots, all decks): no negative value in the state and no
    negative effective ATK/GRIT/ECHO; every card instance in exactly one place; the fold equals the engine state;
    and the window rules of ``_check_wave_event`` hold ([M9-114], [M9-115], first opportunities)."""
    _game(seed, fold_every=7)


@pytest.mark.soak
def test_thousands_of_games_hold_invariants_at_every_event() -> None:
    FIRED.clear()
    for seed in range(2000):
        _game(seed, fold_every=25)
    print("\nmovement and crew rules fired in 2000 games:", dict(sorted(FIRED.items())))


def test_movement_crews_and_spot_happen_in_bot_games_M9_058_M9_060_M9_055() -> None:
    """The new rules are not only in hand-built tests: 40 seeded bot games with the windrunner deck on one side
    move [M9-058], arrive [M9-032], embark and disembark [M9-060], Spot [M9-055], attack with manned hosts
    [M9-057], and lose hosts with crew aboard [M9-091]."""
    fired: Counter[str] = Counter()
    for seed in range(40):
        other = DECKS[seed % len(DECKS)]
        d = ["windrunner", other] if seed % 2 else [other, "windrunner"]
        h = make_header(RULESET, seed, d, [BOTS[seed % 2], BOTS[(seed // 2) % 2]], max_turns=DEFAULT_MAX_TURNS)
        g = Game(RULESET, h, bots_for(RULESET, h))
        while not g.state.over and g.state.turn <= DEFAULT_MAX_TURNS:
            g.step()
            assert isinstance(g.state, M9State)
            for e in g.events:  # the state after the step: each tallied fact still holds there
                tally(fired, g.state, e)
            g.events.clear()
    for rule in ("move [M9-058]", "move En Route [M9-054]", "move arriving at once (rapid)", "arrival [M9-032]",
                 "embark in action [M9-060]", "embark in move [M9-060]", "disembark (disembark)", "Spot [M9-055]",
                 "move with crew or Equipment aboard [M9-062]", "move at a changed cost",
                 "attack by a manned host [M9-057]", "disembark (host_defeated)", "crew surviving tapped [M9-091]",
                 "Manifest or Pressure by a manned host [M9-098]"):  # fmt: skip
        assert fired[rule], (rule, dict(fired))


def test_invariant_checks_can_fail() -> None:
    """The checks above are not vacuous: a card listed twice, a negative counter and a -2 sentinel are caught."""
    g = _game(3, fold_every=1000)
    s = g.state
    assert isinstance(s, M9State)
    broken = msgspec.convert(msgspec.to_builtins(s), M9State)
    broken.players[0].discard.append(broken.players[0].hand[0] if broken.players[0].hand else broken.board[0])
    assert card_zone_ok(broken)
    broken.players[1].echo = -1
    broken.priority = -1  # a sentinel: fine
    broken.bd_player = -2
    broken.cards[broken.players[0].leader].atk_mod = -3  # a modifier: fine
    assert negatives(broken) == ["state.players[1].echo = -1", "state.bd_player = -2"]


def test_logs_rerun_identically(tmp_path: Path) -> None:
    """Re-running a written log's decisions reproduces every event; the same seed writes the same bytes."""
    for seed in (5, 6, 7):
        d = [DECKS[seed % 4], DECKS[(seed + 1) % 4]]
        h = make_header(RULESET, seed, d, ["random", "heuristic"], max_turns=30)
        a, b = tmp_path / f"a{seed}.log", tmp_path / f"b{seed}.log"
        ra, rb = play_one(RULESET, h, a), play_one(RULESET, h, b)
        assert a.read_bytes() == b.read_bytes() and (ra.path, rb.path) == (str(a), str(b))
        assert msgspec.structs.replace(ra, path="") == msgspec.structs.replace(rb, path="")
        report = rerun(read_log(a))
        assert report.ok, report


def test_games_end_with_a_reason() -> None:
    """Heuristic games finish by the rules (Battle Damage or the survival clock), not only by the turn cap."""
    reasons: dict[str, Any] = {}
    for seed in range(6):
        h = make_header(RULESET, seed, [DECKS[seed % 4], DECKS[(seed + 2) % 4]], ["heuristic", "heuristic"])
        h = msgspec.structs.replace(h, max_turns=DEFAULT_MAX_TURNS)
        r = play_one(RULESET, h, None)
        reasons[r.end_reason] = reasons.get(r.end_reason, 0) + 1
    assert set(reasons) & {"battle_damage", "survival_clock"}


def test_redacted_stream_folds_to_the_public_position_M9_011() -> None:
    """[M9-011] a player's view (opponent's hidden cards and all deck orders unknown) still folds, and agrees with
    the real game on every public zone and on the viewer's own hand."""
    g = _game(11, fold_every=1000)
    for viewer in (0, 1):
        h = g.header
        view = RULESET.new_state(h)
        for e in _all_events(11):
            RULESET.apply(view, RULESET.redact(e, viewer))
        s = g.state
        assert isinstance(s, M9State)
        assert view.board == s.board and [p.sites for p in view.players] == [p.sites for p in s.players]
        assert [p.discard for p in view.players] == [p.discard for p in s.players]
        assert view.players[viewer].hand == s.players[viewer].hand
        assert all(c == -1 for c in view.players[1 - viewer].hand)
        assert [len(p.deck) for p in view.players] == [len(p.deck) for p in s.players]


def _all_events(seed: int) -> list[Any]:
    events: list[Any] = []
    d = [DECKS[seed % len(DECKS)], DECKS[(seed // len(DECKS)) % len(DECKS)]]
    bots = [BOTS[seed % 2], BOTS[(seed // 2) % 2]]
    h = make_header(RULESET, seed, d, bots, max_turns=DEFAULT_MAX_TURNS)
    g = Game(RULESET, h, bots_for(RULESET, h), on_event=events.append)
    while not g.state.over and g.state.turn <= DEFAULT_MAX_TURNS:
        g.step()
    return events


@pytest.mark.soak
def test_hundreds_of_logs_rerun_identically(tmp_path: Path) -> None:
    """Re-running the decisions of many written logs reproduces them event for event."""
    for seed in range(300):
        h = make_header(RULESET, seed, [DECKS[seed % len(DECKS)], DECKS[(seed // len(DECKS)) % len(DECKS)]],
                        [BOTS[seed % 2], "random"],
                        max_turns=DEFAULT_MAX_TURNS)  # fmt: skip
        path = tmp_path / f"{seed}.log"
        play_one(RULESET, h, path)
        assert rerun(read_log(path)).ok
        path.unlink()
