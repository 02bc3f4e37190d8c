"""A position inside one action of the rules, named from the state alone (issue 13, "stop anywhere").

A real game stops between two moves of the rules and at the boundaries a state holds (``queries.positions.stops``). A
position file edited by hand can hold a state no rule ever leaves the game in: half of an action done (a card
resolving, wounds placed and the defeats not yet checked, Embers paid and the card not sealed). The loader refuses
it before play with ``InvalidPositionError`` naming the field, what is half done and the fix, instead of finding
out when the game stalls or goes on wrongly. Each check holds at every stop of real games
(``tests/queries/positions/test_stops.py`` tries every event index); what a state cannot show (a card played, its cost
not yet paid) is still caught where the game cannot go on (``positionfile.check_continuable``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from annals.queries.positions.domains import bad

INSIDE = "inside one action of the rules"


def _miras9(s: Any) -> None:
    from annals.engine.miras9.board import grit, grit_reached, units
    from annals.engine.miras9.reducer import OPENING
    from annals.engine.miras9.shipsites import ship_sites
    from annals.engine.miras9.turn import WINDOW_FIRST, at_boundary

    w = s.wave
    held = at_boundary(s)
    resolving = sorted(set(s.stack_cards) - {item.card for item in s.stack})
    if resolving:
        raise bad("stack_cards", resolving, f"only cards waiting on the stack (in stack): {resolving[0]} is resolving, "
                  f"{INSIDE} [M9-042]; move it to its owner's discard (resolved) or hand (not played)")  # fmt: skip
    if s.window and (w is None or w.step not in WINDOW_FIRST):
        raise bad("window", s.window, "'' outside a wave's reaction step: windows open in steps 2, 4 and 7 of a "
                  "wave [M9-075], [M9-077], [M9-080]; clear window or put the wave at its step")  # fmt: skip
    if s.window and s.passes >= 2:
        raise bad("passes", s.passes, f"0 or 1: two passes in a row close the window or resolve the top item at "
                  f"once [M9-115], so a second pass recorded is {INSIDE}; write 1, or close the window")  # fmt: skip
    if w is not None and w.step == 1 and not w.extra and w.lane in s.attacked:
        raise bad("wave.step", 1, f"2 or later: the wave is confirmed (its lane is in attacked), and confirming "
                  f"taps the attackers and opens step 2 at once [M9-074], {INSIDE}; set the step, or take the "
                  "lane out of attacked")  # fmt: skip
    if s.bd_player >= 0 and (w is None or w.step != 6):
        raise bad("bd_player", s.bd_player, "-1 outside a wave's consequences step: Battle Damage is settled there "
                  "[M9-079]; set bd_player -1 and empty bd_sources, or put the wave at step 6")  # fmt: skip
    if s.bw_card and s.bd_player < 0:
        raise bad("bw_card", s.bw_card, "0: a Blackwake choice waits only while Battle Damage is paid [M9-089]")
    if w is not None and w.step == 5 and not held:
        raise bad("wave.step", 5, f"not 5 here: combat damage is dealt at once, {INSIDE} [M9-078]; set boundary to "
                  f"n ({s.n}: the damage step just begun) or the wave to step 6 with the wounds placed")  # fmt: skip
    if s.phase == "awaken" and not held:
        raise bad("phase", "awaken", f"not 'awaken' here: the Awaken phase's arrivals and readying run at once, "
                  f"{INSIDE} [M9-032]; set boundary to n ({s.n}: the phase just begun) or phase to "
                  "awaken.flow (its work done)")  # fmt: skip
    if held:
        at_step = w is not None and w.step in OPENING and not s.window
        at_turn = w is None and s.phase in ("awaken", "attune", "setup.mulligan") and s.bd_player < 0
        if not (at_step or at_turn):
            raise bad("boundary", s.boundary, f"not n ({s.n}) here: the position is held only just after a turn, "
                      "its Awaken phase or a wave step began; set boundary to -1")  # fmt: skip
    consequences_begun = held and w is not None and w.step == 6
    if not consequences_begun:
        for cs in units(s) + ship_sites(s):
            if cs.wounds and grit_reached(s, cs):
                raise bad(f"cards[{cs.iid}].wounds", cs.wounds, f"below its GRIT {grit(s, cs)}: defeats are "
                          f"checked after every action [M9-084], so wounds that reach GRIT on the board are "
                          f"{INSIDE}; lower them or move the card to its owner's discard")  # fmt: skip


def _morana(s: Any) -> None:
    from annals.engine.morana.turn import SITE_STEPS, STAGES

    if s.paying:
        raise bad("paying", True, f"false: Embers paid for a Commit action not yet sealed are {INSIDE} [MOR-15]; "
                  "set it false and give the Embers back, or seal the card at its Site")  # fmt: skip
    if s.step in STAGES and not s.boundary and not s.over:
        raise bad("boundary", False, f"true at {s.step!r}: {s.step} runs without a stop once begun, so its work "
                  f"half done is {INSIDE} [MOR-13]; undo that work and set boundary true (the stage just begun), "
                  "or move on to the next stop")  # fmt: skip
    if s.step in SITE_STEPS and s.site_begun != s.n:
        raise bad("site_begun", s.site_begun, f"n ({s.n}) at {s.step!r}: a Site resolves at once once begun, so "
                  f"its effects half done are {INSIDE} [MOR-16]; undo them and set site_begun to n")  # fmt: skip
    if s.step == "dusk.invocation":
        raise bad("step", s.step, f"a stop: Invocations resolve at once after the flip, {INSIDE} [MOR-33]; use "
                  "dusk (before the flip) or dusk.site1")  # fmt: skip
    if s.revealed and s.step not in SITE_STEPS:
        raise bad("revealed", s.revealed, f"[] at {s.step!r}: revealed cards fire at their Site's resolution "
                  f"[MOR-16]; waiting outside it is {INSIDE}; empty revealed (and reborning)")  # fmt: skip
    if s.sealed and not (s.step == "commit" or (s.step == "dusk" and s.boundary)):
        raise bad("sealed", s.sealed, f"[] at {s.step!r}: everything sealed flips as Dusk begins [MOR-16]; move "
                  "the cards face-up (out of sealed and sealed_sites)")  # fmt: skip


CHECKS: dict[str, Callable[[Any], None]] = {"miras9": _miras9, "morana": _morana}


def check_not_midway(ruleset: str, state: Any) -> None:
    """``InvalidPositionError`` naming the field when ``state`` is inside one action of the rules (a ruleset
    without a check here passes)."""
    check = CHECKS.get(ruleset)
    if check is not None:
        check(state)
