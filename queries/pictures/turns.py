"""A one-line summary of each turn, for the replay viewer's turn list: who played what, attacked where, and what it
cost whom, in the words of ``engine.words`` (card names, players' names, places as the rules name them: Bo's
Interior, Site 2).

``turn_summaries(ruleset, events, words)`` reads the events as the view saw them (a hidden card stays hidden) and
returns, per turn, the position its ``TurnBegan`` leads to and the line: ``Turn 5 — Ann: played Raider, attacked
Bo's Exterior; 3 Battle Damage to Bo``. The events before turn 1 make a ``Setup`` line at position 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from annals.engine.words import Words
from annals.schemas.records import CARDS_PER_PLAYER, instance_owner

MAX_NAMES = 4  # cards named in one phrase; the rest counted


class Turn:
    """What one turn did, gathered event by event."""

    def __init__(self, words: Words, turn: int, position: int, active: int):
        self.w = words
        self.turn = turn
        self.position = position
        self.active = active
        self.acts: dict[int, list[str]] = {}  # player -> phrases in order
        self.played: dict[int, list[str]] = {}
        self.damage: dict[int, int] = {}
        self.sites: dict[int, list[int]] = {}
        self.slava: dict[int, int] = {}
        self.committed: dict[int, int] = {}
        self.ending = ""

    def act(self, player: int, phrase: str) -> None:
        self.acts.setdefault(player, [])
        if phrase not in self.acts[player]:
            self.acts[player].append(phrase)

    def line(self) -> str:
        head = "Setup" if self.turn == 0 else f"Turn {self.turn}"
        who = sorted(set(self.acts) | set(self.played) | set(self.committed), key=lambda p: (p != self.active, p))
        parts = []
        for p in who:
            mine = []
            if self.committed.get(p):
                n = self.committed[p]
                mine.append(f"committed {n} card{'s' if n != 1 else ''}")
            if self.played.get(p):
                mine.append("played " + _listed(self.played[p]))
            mine += self.acts.get(p, [])
            parts.append(f"{self.w.who(p)}: {', '.join(mine)}")
        for p, points in sorted(self.damage.items()):
            parts.append(f"{points} Battle Damage to {self.w.who(p)}")
        for p, sites in sorted(self.sites.items(), key=lambda kv: (kv[0] < 0, kv[0])):
            won = _sites(sites)
            parts.append(f"{self.w.who(p)} won {won}" if p >= 0 else f"{won} tied")
        if self.slava:
            seats = range(max(len(self.w.players), max(self.slava) + 1))
            parts.append("Slava: " + ", ".join(f"{self.w.who(p)} {self.slava.get(p, 0)}" for p in seats))
        if self.ending:
            parts.append(self.ending)
        if not parts:
            parts.append(f"{self.w.who(self.active)}: nothing played" if self.active >= 0 else "nothing happened")
        return f"{head} — " + "; ".join(parts)


def _sites(sites: list[int]) -> str:
    if len(sites) == 1:
        return f"Site {sites[0]}"
    return "Sites " + ", ".join(map(str, sites[:-1])) + f" and {sites[-1]}"


def _listed(names: list[str]) -> str:
    counted: dict[str, int] = {}
    for n in names:
        counted[n] = counted.get(n, 0) + 1
    said = [n if k == 1 else f"{n} ×{k}" for n, k in counted.items()]
    if len(said) > MAX_NAMES:
        said = [*said[:MAX_NAMES], f"{len(said) - MAX_NAMES} more"]
    return ", ".join(said)


def _miras9(t: Turn, kind: str, e: Any) -> None:
    w = t.w
    if kind == "CardPlayed":
        t.played.setdefault(e.player, []).append(w.card(e.card))
    elif kind == "AbilityActivated":
        t.act(e.player, f"used {w.card(e.card)}")
    elif kind == "WaveDeclared":
        t.act(e.player, f"attacked {w.place(e.site, kind=False)}")
    elif kind == "UnitMoved":
        t.act(e.player, f"moved {w.cards(e.cards)}")
    elif kind == "BattleDamageAssigned":
        t.damage[e.holder] = t.damage.get(e.holder, 0) + e.amount
    elif kind == "MulliganTaken" and e.take:
        t.act(e.player, "took a mulligan")
    elif kind == "FirstPlayerChosen":
        t.act(e.first, "goes first")
    elif kind == "GameOver":
        t.ending = w.event(e) or ""


def _morana(t: Turn, kind: str, e: Any) -> None:
    w = t.w
    if kind in ("Committed", "Sealed"):
        t.committed[e.player] = t.committed.get(e.player, 0) + 1
    elif kind == "RebornCommitted":
        t.act(e.player, f"Reborn {w.card(e.card)}")
    elif kind == "InvocationFired":
        t.act(e.player, f"invoked {w.card(e.card)}")
    elif kind == "Flipped":
        shown: dict[int, list[str]] = {}
        for c in e.cards:
            if c >= CARDS_PER_PLAYER:
                shown.setdefault(instance_owner(c), []).append(w.card(c))
        for p, names in sorted(shown.items()):
            t.act(p, "revealed " + _listed(names))
    elif kind == "SiteScored":
        t.sites.setdefault(e.winner if e.winner >= 0 else -1, []).append(e.site)
    elif kind == "SlavaGained" and 0 <= e.holder < CARDS_PER_PLAYER:
        t.slava[e.holder] = e.value
    elif kind == "WardenChosen":
        t.act(e.player, f"chose the Warden {w.card(e.card)}")
    elif kind == "GameEnded":
        t.ending = w.event(e) or ""


GATHER = {"miras9": _miras9, "morana": _morana}


def turn_summaries(ruleset: str, events: Sequence[Any], words: Words) -> list[tuple[int, int, str]]:
    """Per turn (and the set-up before turn 1): (turn, position of its first event, one line in words)."""
    gather = GATHER.get(ruleset)
    turns: list[Turn] = [Turn(words, 0, 0, -1)]
    for count, e in enumerate(events, start=1):
        kind = type(e).__name__
        if kind == "TurnBegan":
            turns.append(Turn(words, e.turn, count, getattr(e, "active", -1)))
            turns[-1].slava = dict(turns[-2].slava)  # the score so far, said every turn once it has begun
        elif gather is not None:
            gather(turns[-1], kind, e)
    first = turns[0]
    if not (first.acts or first.played or first.committed or first.ending):
        turns = turns[1:]
    return [(t.turn, t.position, t.line()) for t in turns]
