"""Miras 9 in words (``engine.words``): each event and option as a sentence, lanes as the rules name them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from annals.schemas.miras9 import LANES

if TYPE_CHECKING:
    from annals.engine.words import Refs, Words

POINTS = {
    "priority": "You may respond (play a Reaction or use an ability) or pass",
    "battle_damage": "Pay a point of Battle Damage",
    "attackers": "Choose attackers for the wave",
    "blockers": "Choose blockers",
    "action": "Your Action phase: play a card or end the phase",
    "attack": "Your Attack phase: pick a Site to attack or end the phase",
    "attune": "Attune: choose what to do",
    "move": "Your Move phase: move a Unit or end the phase",
    "card_flow": "Card flow: draw the top card, or put it into your resources",
    "generate": "Generate resources",
    "starting_site": "Choose your starting Site and its lane",
    "mulligan": "Keep your opening hand, or take a mulligan",
    "blackwake": "Use the revealed card's Blackwake?",
    "extra_attack": "Make the extra attack?",
}
SILENT = frozenset({"CounterChanged"})  # a counter changed by 0 is said as nothing

_REASONS = {
    "announce": "is announced", "attach": "is attached", "awaken": "awakens", "defeated": "is defeated",
    "draw": "is drawn", "drop": "is dropped", "flow": "flows", "generate": "generates", "mulligan": "is mulliganed",
    "play": "is played", "resolved": "has resolved", "resource_draw": "is drawn from the resources",
    "restore": "is restored", "setup": "is set up", "spend": "is spent",
}  # fmt: skip
_WINDOWS = {"before_blocks": "before blocks", "before_damage": "before damage", "after_wave": "after the wave"}
_REASONS_END = {"battle_damage": "Battle Damage", "survival_clock": "the survival clock", "turn_cap": "the turn cap"}


def detail(point: str, s: Any, player: int) -> str:
    """What a question needs of the asker's view: a Battle Damage point says how many are still to pay [M9-079]
    (the terminal showed the bare question; the board draws it in its Battle Damage panel)."""
    if point == "battle_damage" and s.bd_sources:
        owed = len(s.bd_sources)
        return f" ({owed - s.bd_paid} of {owed} still to pay)"
    return ""


def lane(index: int) -> str:
    return LANES[index].capitalize() if 0 <= index < len(LANES) else "no lane"


def position(w: Words, loc: int) -> str:
    """A board position ``side*3+lane`` in words."""
    return f"{w.who(loc // 3)}'s {lane(loc % 3)} lane" if loc >= 0 else "the board"


def _site_of(w: Words, site: str) -> str:
    return w.zone(site)


def event(w: Words, kind: str, e: Any) -> str | None:
    p, n = w.who(e.player), w.card
    match kind:
        case "PlanetPlaced":
            return f"{p} places the Planet {n(e.card)}"
        case "DeckPrepared":
            return f"{p}'s deck is ready ({len(e.cards)} cards)"
        case "PileShuffled":
            return f"{p} shuffles the {w.zone(e.dst)} ({len(e.cards)} cards)"
        case "FirstPlayerChosen":
            return f"{w.who(e.first)} goes first"
        case "MulliganTaken":
            return f"{p} takes a mulligan" if e.take else f"{p} keeps the opening hand"
        case "TurnBegan":
            return f"Turn {e.turn}: {w.who(e.active)}'s turn"
        case "PhaseBegan":
            return f"{e.phase.replace('.', ': ').replace('_', ' ').capitalize()} phase"
        case "GameOver":
            why = _REASONS_END.get(e.reason, e.reason.replace("_", " "))
            return f"Game over: {w.who(e.winner)} wins by {why}" if e.winner >= 0 else f"Game over: a draw ({why})"
        case "CardMoved":
            how = _REASONS.get(e.reason, "moves")
            onto = f", attached to {n(e.host)}" if e.host else ""
            what = n(e.card)
            if what == "a hidden card" and e.player >= 0:  # whose: it read "a hidden card flows: deck to resources"
                what = f"{p}'s hidden card"
            return f"{what} {how}: {w.zone(e.src)} to {w.zone(e.dst)}{onto}"
        case "TokenCreated":
            return f"{p} creates a {n(e.card)} token in {w.zone(e.dst)}"
        case "CounterChanged":
            return _counter(w, e)
        case "CardPlayed":
            aim = f" targeting {n(e.target)}" if e.target and e.target != e.host else ""  # equipment: its host
            onto = f" on {n(e.host)}" if e.host else ""
            return f"{p} plays {n(e.card)}{onto}{aim}"
        case "AbilityActivated":
            aim = f" targeting {n(e.target)}" if e.target else ""
            return f"{p} uses {n(e.card)}'s {_ordinal(e.ability)} ability{aim}"
        case "Awakened":
            return f"{p}'s Planet {n(e.card)} awakens (Echo threshold {e.threshold})"
        case "Manifested":
            return f"{n(e.card)} manifests at {_site_of(w, e.site)}"
        case "Pressured":
            return f"{n(e.card)} pressures {_site_of(w, e.site)}"
        case "Restored":
            return f"{n(e.card)} is restored"
        case "TriggerFired":
            return f"{n(e.card)}'s {e.trigger.replace('_', ' ')} trigger fires"
        case "ReplacementApplied":
            return f"{n(e.card)}: {e.instead.replace('_', ' ')} instead of {e.replaced.replace('_', ' ')}"
        case "DamagePrevented":
            return f"{e.amount} damage to {n(e.card)} is prevented"
        case "WindowOpened":
            return f"Reactions {_WINDOWS.get(e.window, e.window.replace('_', ' '))}: {w.who(e.priority)} may respond"
        case "StackPushed":
            what = n(e.card) if e.ability < 0 else f"{n(e.card)}'s {_ordinal(e.ability)} ability"
            aim = f" targeting {n(e.target)}" if e.target else ""
            return f"{w.who(e.controller)} puts {what} on the stack{aim}"
        case "PriorityPassed":
            return f"{p} passes"
        case "StackResolved":
            what = n(e.card) if e.ability < 0 else f"{n(e.card)}'s {_ordinal(e.ability)} ability"
            return f"{what} fizzles: no legal target" if e.fizzled else f"{what} resolves"
        case "WindowClosed":
            return f"No more reactions {_WINDOWS.get(e.window, e.window.replace('_', ' '))}"
        case "WaveStep":
            return f"Wave {e.wave} at {_site_of(w, e.site)}: {e.name.replace('_', ' ')}"
        case "WaveDeclared":
            pairs = [f"{n(a)} at {n(t) if t else 'the Site'}" for a, t in zip(e.attackers, e.targets, strict=False)]
            return f"{p} attacks {_site_of(w, e.site)}: " + "; ".join(pairs)
        case "BlockersDeclared":
            pairs = [f"{n(b)} blocks {n(a)}" for b, a in zip(e.blockers, e.attackers, strict=False)]
            return "; ".join(pairs) if pairs else f"{p} declares no blockers"
        case "CombatDamage":
            by = w.cards(e.sources) if len(e.sources) > 1 else n(e.source)
            return f"{by} deals {e.amount} {'wound' if e.amount == 1 else 'wounds'} to {n(e.target)}"
        case "LeftWave":
            return f"{n(e.card)} leaves the wave"
        case "WaveEnded":
            return f"Wave {e.wave} at {_site_of(w, e.site)} ends"
        case "BattleDamageAssigned":
            return f"{n(e.source)} is unblocked: {w.who(e.holder)} takes {e.amount} Battle Damage"
        case "BattleDamagePaid":
            how = "1 Echo" if e.source == "echo" else f"{n(e.card)} from the {w.zone(e.source)}"
            return f"{p} pays Battle Damage with {how} ({e.remaining} to pay)"
        case "SelectionChanged":
            if e.stage == "site":
                return f"{p} picks the {lane(e.lane)} lane to attack"
            if e.stage == "attack":
                return f"{p} sends {n(e.card)} at " + (n(e.target) if e.target else "the Site")
            return f"{p} has {n(e.card)} block {n(e.target)}"
        case "SelectionUndone":
            return f"{p} takes back " + ("the lane" if e.stage == "site" else n(e.card))
        case "UnitMoved":
            return f"{p} moves {w.cards(e.cards)} from {w.zone(e.src)} toward {w.zone(e.dst)} (cost {e.cost})"
        case "Arrived":
            return f"{w.cards(e.cards)} arrive at {w.zone(e.dst)}"
        case "Embarked":
            return f"{n(e.card)} boards {n(e.host)}"
        case "Disembarked":
            why = "" if e.reason == "disembark" else f" ({e.reason.replace('_', ' ')})"
            return f"{n(e.card)} leaves {n(e.host)}{why}"
        case "Spotted":
            return f"{n(e.source)} spots {n(e.card)}: it can be attacked this turn"
        case "BlackwakeChecked":
            found = "it has Blackwake" if e.instruction else "no Blackwake"
            return f"Battle Damage reveals {n(e.card)} from the {w.zone(e.src)}: {found}"
        case "BlackwakeResolved":
            outcome = {"declined": "is declined", "effect": "takes effect", "replaced": "replaces the payment"}
            where = f", to the {w.zone(e.to)}" if e.to else (f", on {n(e.target)}" if e.target else "")
            return f"{p}'s Blackwake of {n(e.card)} {outcome.get(e.outcome, e.outcome)}{where}"
        case "ExtraAttackGranted":
            return f"{n(e.card)} is readied for an extra attack at {_site_of(w, e.site)}"
        case "ExtraAttackTaken":
            return f"{n(e.card)} {'makes' if e.taken else 'lets go'} its extra attack"
        case "DestinationChosen":
            return f"{n(e.card)} is headed for the {w.zone(e.to)}"
        case "ShipSiteMoved":
            verb = {"contest": "contests", "return": "returns to"}.get(e.kind, "moves to")
            return f"{p}'s Ship-Site {n(e.cards[0]) if e.cards else ''} {verb} {w.zone(e.dst)} (cost {e.cost})"
        case "ShipSiteAttacked":
            back = f", which strikes back for {e.retaliation}" if e.retaliation else ""
            return f"{n(e.source)} strikes the Ship-Site {n(e.card)} for {e.amount}{back}"
    return None


def _ordinal(index: int) -> str:
    from annals.engine.words import ordinal

    return ordinal(index)


def _counter(w: Words, e: Any) -> str | None:
    if e.amount == 0:
        return None
    who = w.holder(e.holder)
    up, size = e.amount > 0, abs(e.amount)
    match e.counter:
        case "tapped":
            return f"{who} is tapped" if e.value else f"{who} is readied"
        case "attuned":
            return f"{who} is Attuned" if e.value else f"{who} is no longer Attuned"
        case "spotted":
            return f"{who} is spotted" if e.value else f"{who} is no longer spotted"
        case "wounds":
            return f"{who} takes {size} {'wound' if size == 1 else 'wounds'} ({e.value} in all)" if up else \
                f"{who} heals {size} ({e.value} wounds left)"  # fmt: skip
        case "echo":
            return f"{who} gains {size} Echo ({e.value} now)" if up else f"{who} spends {size} Echo ({e.value} left)"
        case "shield":
            return f"{who} is shielded from {e.value} damage" if e.value else f"{who}'s shield is gone"
        case "atk_mod" | "grit_mod":
            stat = "ATK" if e.counter == "atk_mod" else "GRIT"
            change = f"gets {size} more" if up else f"loses {size}"
            total = f"{e.value:+d} {stat} in all" if e.value else f"back to its printed {stat}"
            return f"{who} {change} {stat} ({total})"
    return f"{who}: {e.counter.replace('_', ' ')} {e.value}"


_CONFIRMS = {"attackers": "Confirm the attackers: the wave goes in", "blockers": "Confirm the blockers as chosen"}
_ENDS = {
    "action": "End the Action phase",
    "attack": "End the Attack phase",
    "move": "End the Move phase",
    "attune": "End the turn",
}


def ending(w: Words, winner: int, reason: str) -> str | None:
    """A Miras 9 end as the end line says it (``Ann wins by Battle Damage``); None for the table's ends."""
    why = _REASONS_END.get(reason)
    return f"{w.who(winner)} wins by {why}" if why is not None and winner >= 0 and reason != "turn_cap" else None


def option(w: Words, kind: str, o: Any, point: str = "") -> str | None:
    n = w.card
    match kind:
        case "PickSite":
            return f"Start with {n(o.card)} in the {lane(o.lane)} lane"
        case "Mulligan":
            return "Take a mulligan" if o.take else "Keep this hand"
        case "CardFlow":
            return "Put the top card into your resources" if o.to_resource else "Draw the top card"
        case "Generate":
            return f"Generate {o.amount} resource{'' if o.amount == 1 else 's'}"
        case "PlayCard":
            where = f" in {position(w, o.loc)}" if o.loc >= 0 else ""
            aim = f" on {n(o.target)}" if o.target else ""
            return f"Play {n(o.card)}{where}{aim}"
        case "Activate":
            aim = f" targeting {n(o.target)}" if o.target else ""
            return f"Use {n(o.card)}'s {_ordinal(o.ability)} ability{aim}"
        case "Awaken":
            return f"Awaken your Planet into {position(w, o.loc)}"
        case "DeclareAt":
            return f"Attack the {lane(o.lane)} lane"
        case "AddAttacker":
            return f"Attack with {n(o.card)} at " + (n(o.target) if o.target else "the Site")
        case "AssignBlocker":
            return f"Block {n(o.attacker)} with {n(o.card)}"
        case "Confirm":  # it read "Confirm" alone: what is confirmed is the selection the point asks for
            return _CONFIRMS.get(point, "Confirm")
        case "Pass":
            return _ENDS.get(point, "Pass")
        case "PayPoint":
            return {"echo": "Pay with 1 Echo", "deck": "Pay with the top card of your deck",
                    "resource": "Pay with a resource card", "used": "Pay with a used card"}.get(
                o.source, f"Pay with {n(o.card)} from your hand")  # fmt: skip
        case "DoManifest":
            return f"Manifest {n(o.card)}"
        case "DoPressure":
            return f"Pressure with {n(o.card)}"
        case "DoRestore":  # [M9-101]
            return "Restore: pay 2 Echo to put the top card of your discard pile on your used pile"
        case "ResourceToHand":
            return "Take a resource card into your hand"
        case "MoveUnit":
            return f"Move {n(o.card)} to {position(w, o.loc)}"
        case "Embark":
            return f"{n(o.card)} boards {n(o.host)}"
        case "Disembark":
            return f"{n(o.card)} disembarks"
        case "TakeBack":
            return "Take back the last pick"
        case "UseBlackwake":
            if not o.use:
                return "Decline the Blackwake"
            return "Use the Blackwake" + (f" on {n(o.target)}" if o.target else "")
        case "UseExtraAttack":
            return f"Make the extra attack with {n(o.card)}" if o.take else "Let the extra attack go"
        case "MoveShipSite":
            return f"Move the Ship-Site {n(o.card)} to {position(w, o.loc)}"
    return None


def _where(loc: int) -> str:
    return f"lane:{loc // 3}:{LANES[loc % 3]}" if loc >= 0 else ""


def refs(kind: str, o: Any) -> Refs:
    from annals.engine.words import Refs

    match kind:
        case "PickSite":
            return Refs(card=o.card, where=f"lane:{LANES[o.lane]}")
        case "PlayCard":
            return Refs(card=o.card, target=o.target, where=_where(o.loc))
        case "Activate":
            return Refs(card=o.card, target=o.target)
        case "Awaken":
            return Refs(where=_where(o.loc))
        case "DeclareAt":
            return Refs(where=f"lane:{LANES[o.lane]}")
        case "AddAttacker":
            return Refs(card=o.card, target=o.target)
        case "AssignBlocker":
            return Refs(card=o.card, target=o.attacker)
        case "PayPoint":
            return Refs(card=o.card, where=o.source if o.source != "hand" else "hand")
        case "DoManifest" | "DoPressure" | "Disembark":
            return Refs(card=o.card)
        case "MoveUnit" | "MoveShipSite":
            return Refs(card=o.card, where=_where(o.loc))
        case "Embark":
            return Refs(card=o.card, target=o.host)
        case "UseBlackwake":
            return Refs(target=o.target)
        case "UseExtraAttack":
            return Refs(card=o.card if o.take else 0)
    return Refs()
