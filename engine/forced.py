"""Questions with one answer: which the table answers for a seat, and how (ruling R-CORE-8).

A decision point with a single legal option is *lone*. It is *public* when anyone at the table can see it is
lone (a Battle Damage point with one way to pay, a lone confirmation), *hidden* when only the seat's own hidden
cards make it lone: a pass at a point where a card from the hand could have been played (``Ruleset.hand_points``:
a Miras 9 reaction window or Action phase, a MORANA Commit). A seat's ``Settings`` (the protocol's ``settings``)
say which of them the table answers for it:

* a public lone question is answered at once when the seat asks for ``automatic`` answers; the decision is
  recorded like any other, marked ``automatic``;
* a hidden lone question is answered only when the seat asks for ``auto_pass``, after a cover delay drawn at
  random and charged to its clock like a quick pass made by hand, and the mark is the seat's own: the opponent's
  and the spectators' views of a decision never carry it (``engine.views.hidden_decision``). Neither the log they
  are shown nor the time it took tells them whether the seat held a card it could have played;
* a stop the seat set (``STOPS``) keeps the question, lone or not: ``opponent_reaction`` when the opponent has
  put something on the stack, ``my_attack`` in the reaction windows of the seat's own attack.

A seat that sends no settings (a program of before protocol 3) is asked every question.
"""

from __future__ import annotations

import random
from typing import Any, Final

import msgspec

from annals.engine.core import DecisionPoint, Ruleset
from annals.schemas.protocol import STOPS

PUBLIC: Final = "public"
HIDDEN: Final = "hidden"
COVER_S: Final = (0.4, 1.6)  # the range of a hidden automatic pass's cover delay, in seconds
_cover = random.SystemRandom()  # never the game's generator: a cover delay must not change the game


class Settings(msgspec.Struct, frozen=True):
    automatic: bool = False
    auto_pass: bool = False
    stops: frozenset[str] = frozenset()


ASK_ALL: Final = Settings()
ANSWER_LONE: Final = Settings(automatic=True, auto_pass=True)


def lone(ruleset: Ruleset[Any], point: DecisionPoint[Any]) -> str:
    """``PUBLIC`` or ``HIDDEN`` for a point with one option; "" for a real choice."""
    if len(point.options) != 1:
        return ""
    return HIDDEN if point.point in getattr(ruleset, "hand_points", frozenset()) else PUBLIC


def stop_at(ruleset: Ruleset[Any], state: Any, point: DecisionPoint[Any], settings: Settings) -> str:
    """The seat's stop that keeps this question ("" if none): only public facts of the position decide it."""
    if not settings.stops:
        return ""
    stops = getattr(ruleset, "stops", None)
    held: frozenset[str] = stops(state, point) if stops is not None else frozenset()
    return next((s for s in STOPS if s in held and s in settings.stops), "")


def answered_for(ruleset: Ruleset[Any], state: Any, point: DecisionPoint[Any], settings: Settings) -> str:
    """``PUBLIC`` or ``HIDDEN`` if the table answers this question for the seat (see the module), else ""."""
    kind = lone(ruleset, point)
    if not kind or (kind == PUBLIC and not settings.automatic) or (kind == HIDDEN and not settings.auto_pass):
        return ""
    return "" if stop_at(ruleset, state, point, settings) else kind


def cover_delay(cover_s: tuple[float, float] = COVER_S) -> float:
    """Seconds to wait before a hidden automatic pass: a quick pass by hand takes about as long."""
    low, high = cover_s
    return _cover.uniform(low, high) if high > 0 else 0.0


def from_message(message: Any) -> Settings:
    """A protocol ``settings`` message as ``Settings`` (unknown stops are ignored: a newer client's)."""
    return Settings(message.automatic, message.auto_pass, frozenset(s for s in message.stops if s in STOPS))
