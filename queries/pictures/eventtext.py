"""Events in words with card names, for the replay viewer's event list: "p0 plays Stalwart (lane:0:exterior)".

``describe(event, name)`` takes an event as the viewer saw it (redacted: a hidden card is ``-1``) and ``name``, a
function from a card instance to its name; a hidden card reads "a hidden card". A kind without a sentence of its
own is written as its class name and fields, card instances named.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from annals.schemas.miras9 import LANES
from annals.schemas.records import CARDS_PER_PLAYER

Namer = Callable[[int], str]
_ENVELOPE = frozenset({"n", "turn", "step", "player"})
_CARD_FIELDS = frozenset({"card", "target", "attacker", "by", "host"})


def _who(p: int) -> str:
    return f"p{p}" if p >= 0 else "the game"


def _cards(cards: list[int], name: Namer) -> str:
    return ", ".join(name(c) for c in cards) if cards else "nothing"


def _m9(kind: str, e: Any, n: Namer) -> str | None:
    p = _who(e.player)
    match kind:
        case "TurnBegan":
            return f"Turn {e.turn} begins: p{e.active} is active"
        case "PhaseBegan":
            return f"{e.phase} begins"
        case "CardMoved":
            return f"{n(e.card)}: {e.src} → {e.dst} ({e.reason})"
        case "CardPlayed":
            aim = f" targeting {n(e.target)}" if e.target else ""
            return f"{p} plays {n(e.card)}{aim}"
        case "CounterChanged":
            holder = _who(e.holder) if e.holder < CARDS_PER_PLAYER else n(e.holder)
            return f"{holder} {e.counter} {e.value} ({e.amount:+d})" + (f" from {e.source}" if e.source else "")
        case "StackPushed":
            what = n(e.card) + (f" ability {e.ability + 1}" if e.ability >= 0 else "")
            aim = f" → {n(e.target)}" if e.target else ""
            return f"{p} puts {what}{aim} on the stack (depth {e.depth})"
        case "StackResolved":
            return f"{n(e.card)} resolves" + (" (fizzles: no legal target)" if e.fizzled else "")
        case "PriorityPassed":
            return f"{p} passes priority ({e.passes} in a row) to p{e.to}"
        case "WindowOpened":
            return f"reaction window {e.window}: p{e.priority} has priority"
        case "WaveDeclared":
            return f"Wave {e.wave} at {e.site}: {_cards(e.attackers, n)} attack"
        case "WaveStep":
            return f"Wave {e.wave} step {e.step_no}: {e.name}"
        case "BlockersDeclared":
            pairs = [f"{n(b)} blocks {n(a)}" for b, a in zip(e.blockers, e.attackers, strict=False)]
            return "blockers: " + ("; ".join(pairs) if pairs else "none")
        case "CombatDamage":
            return f"{n(e.source)} deals {e.amount} wound{'s' if e.amount != 1 else ''} to {n(e.target)}"
        case "BattleDamageAssigned":
            return f"{n(e.source)} is unblocked: p{e.holder} owes {e.amount} Battle Damage"
        case "BattleDamagePaid":
            how = "1 Echo" if e.source == "echo" else f"{n(e.card)} from {e.source}"
            return f"Battle Damage point {e.point}: {p} pays {how} ({e.remaining} left)"
        case "WindowClosed":
            return f"reaction window {e.window} closes"
        case "SelectionChanged":
            if e.stage == "site":
                return f"{p} picks the {LANES[e.lane]} lane for a wave"
            if e.stage == "attack":
                return f"{p} adds {n(e.card)} to the wave → " + (n(e.target) if e.target else "the Site position")
            return f"{p} assigns {n(e.card)} to block {n(e.target)}"
        case "SelectionUndone":
            what = "the Site" if e.stage == "site" else n(e.card)
            return f"{p} takes back {what}"
        case "BlackwakeChecked":
            found = f"Blackwake ({e.instruction})" if e.instruction else "no Blackwake"
            return f"Battle Damage reveals {n(e.card)} from {e.src}: {found}"
        case "BlackwakeResolved":
            where = f" → {e.to}" if e.to else (f" → {n(e.target)}" if e.target else "")
            return f"{p}'s {n(e.card)} Blackwake: {e.outcome}{where}"
        case "ExtraAttackGranted":
            return f"{n(e.card)} is readied and granted an extra attack at {e.site} ({e.reason})"
        case "ExtraAttackTaken":
            return f"{n(e.card)} {'makes' if e.taken else 'lets go'} its extra attack at {e.site}"
        case "DestinationChosen":
            return f"{n(e.card)} is headed for {e.to}"
        case "LeftWave":
            return f"{n(e.card)} leaves wave {e.wave}"
        case "WaveEnded":
            return f"Wave {e.wave} at {e.site} ends"
        case "TokenCreated":
            return f"{p} creates a {n(e.card)} token at {e.dst}"
        case "AbilityActivated":
            return f"{p} activates {n(e.card)} ability {e.ability + 1}" + (f" → {n(e.target)}" if e.target else "")
        case "Manifested" | "Pressured":
            return f"{n(e.card)} {kind.lower()} at {e.site}"
        case "Awakened":
            return f"{p} awakens {n(e.card)} (threshold {e.threshold})"
        case "TriggerFired":
            return f"{n(e.card)}: {e.trigger} trigger"
        case "DamagePrevented":
            return f"{e.amount} damage to {n(e.card)} prevented ({e.source})"
        case "PlanetPlaced":
            return f"{p} places Planet {n(e.card)}"
        case "DeckPrepared" | "PileShuffled":
            return f"{p} {'prepares' if kind == 'DeckPrepared' else 'shuffles'} {e.dst} ({len(e.cards)} cards)"
        case "FirstPlayerChosen":
            return f"p{e.first} goes first"
        case "MulliganTaken":
            return f"{p} {'takes a mulligan' if e.take else 'keeps'}"
        case "GameOver":
            return f"game over: {_who(e.winner)} wins ({e.reason})" if e.winner >= 0 else f"game over ({e.reason})"
    return None


def _morana(kind: str, e: Any, n: Namer) -> str | None:
    p = _who(e.player)
    match kind:
        case "TurnBegan":
            return f"Turn {e.turn} begins" + (f": p{e.initiative} has Initiative" if e.initiative >= 0 else "")
        case "StepBegan":
            return f"{e.step.capitalize()} begins"
        case "Drew":
            return f"{p} draws {n(e.card)} ({e.source})"
        case "EmbersChanged" | "PowerChanged" | "SlavaGained":
            holder = _who(e.holder) if e.holder < CARDS_PER_PLAYER else n(e.holder)
            return f"{holder} {e.counter} {e.value} ({e.amount:+d}, {e.source})"
        case "Committed" | "RebornCommitted":
            verb = "Reborns" if kind == "RebornCommitted" else "commits"
            return f"{p} {verb} {n(e.card)} face-down at Site {e.site}"
        case "Sealed":
            return f"{p} seals something behind the screen"
        case "CommitDone":
            return f"{p} is done committing" + (f" ({e.placed} placed)" if e.placed >= 0 else "")
        case "Flipped":
            return "Flip: " + _cards(e.cards, n)
        case "SiteResolutionBegan":
            return f"Site {e.site} resolves: p{e.first} first ({e.reason})"
        case "OmenFired" | "RebornFired" | "CharmFired":
            return f"{n(e.card)}: {kind[: -len('Fired')]} at Site {e.site}"
        case "ClashFired":
            return f"{n(e.card)} Clashes {n(e.target)} for {e.amount} at Site {e.site}"
        case "Defeated":
            return f"{n(e.card)} is defeated → {e.dst}"
        case "SiteScored":
            won = f"p{e.winner} wins it" if e.winner >= 0 else "tied"
            return f"Rite: Site {e.site} {won} (Power {e.power[0]}:{e.power[1]})"
        case "WardenChosen":
            return f"{p} seats Warden {n(e.card)}"
        case "DeckShuffled":
            return f"{p} shuffles the deck ({len(e.cards)} cards)"
        case "DrawSkipped":
            return f"{p} draws nothing ({e.reason})"
        case "InvocationCommitted":
            return f"{p} seals the Invocation of {n(e.card)}"
        case "InvocationResolutionBegan":
            return f"Invocations resolve: p{e.first} first ({e.reason})"
        case "InvocationFired":
            return f"{p} invokes {n(e.card)}"
        case "CharmSpent":
            return f"{n(e.card)} is spent → {e.dst}"
        case "InitiativeGranted":
            return f"{n(e.by)} grants {p} Initiative for turn {e.for_turn}"
        case "GameEnded":
            return f"game over: {_who(e.winner)} wins ({e.reason})" if e.winner >= 0 else f"game ends: {e.reason}"
    return None


_BY_RULESET = {"miras9": _m9, "morana": _morana}


def describe(ruleset: str, event: Any, name: Namer) -> str:
    kind = type(event).__name__
    words = _BY_RULESET.get(ruleset, lambda k, e, n: None)(kind, event, name)
    if words is not None:
        return words
    parts = []
    for f in event.__struct_fields__:
        if f in _ENVELOPE:
            continue
        v = getattr(event, f)
        if f in _CARD_FIELDS and type(v) is int and v:
            v = name(v)
        elif f == "cards" and isinstance(v, list):
            v = "[" + _cards(v, name) + "]"
        parts.append(f"{f}={v}")
    return f"{_who(event.player)} {kind} " + " ".join(parts)
