"""MORANA in words (``engine.words``): each event and option as a sentence, Sites as the board names them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from annals.engine.words import END_REASONS
from annals.schemas.records import LEADER_INDEX, instance_id

if TYPE_CHECKING:
    from annals.engine.words import Refs, Words

POINTS = {"commit": "Commit: place cards face-down at the Sites, then seal"}
SILENT = frozenset({"PowerChanged", "SlavaGained", "EmbersChanged"})  # a change of 0 is said as nothing

_SOURCES = {
    "commit": "to commit", "dawn": "at Dawn", "invocation": "for the Invocation", "lapse": "as they lapse",
    "reborn": "to Reborn", "bloom": "from Bloom", "boost": "from a boost", "damage": "from damage",
    "revealed": "as it is revealed", "offboard": "from off the board",
}  # fmt: skip
_CAUSES = {"damage": "damage", "boost": "a boost", "bloom": "Bloom"}  # what one card does to another's Power
_WHY = {"initiative": "the Initiative", "less_slava": "less Slava", "simultaneous": "at the same time"}


def detail(point: str, s: Any, player: int) -> str:
    """What a question needs of the asker's view: the Commit says the Embers there are to spend [MOR-15] (the
    options offer only what they pay for, and nothing said how much was left after a first card)."""
    if point == "commit" and 0 <= player < len(s.embers):
        embers = s.embers[player]
        return f" ({embers} {'Ember' if embers == 1 else 'Embers'} to spend)"
    return ""


def _source(w: Words, source: str) -> str:
    if source.startswith("site:"):
        return f"from {w.zone(source)}"
    return _SOURCES.get(source, source.replace("_", " "))


def _first(w: Words, first: int, reason: str) -> str:
    if first < 0 or reason == "simultaneous":
        return "both at once"
    return f"{w.who(first)} first ({_WHY.get(reason, reason.replace('_', ' '))})"


def event(w: Words, kind: str, e: Any) -> str | None:
    p, n = w.who(e.player), w.card
    match kind:
        case "DeckShuffled":
            return f"{p} shuffles the deck ({len(e.cards)} cards)"
        case "Drew":
            return f"{p} draws {n(e.card)}" + (" into the opening hand" if e.source == "opening" else "")
        case "DrawSkipped":
            return f"{p} draws nothing ({e.reason.replace('_', ' ')})"
        case "TurnBegan":
            return f"Turn {e.turn}" + (f": {w.who(e.initiative)} has the Initiative" if e.initiative >= 0 else "")
        case "StepBegan":
            return f"{e.step.split('.')[0].capitalize()}"
        case "EmbersChanged":
            if e.amount == 0:
                return None
            verb = "gains" if e.amount > 0 else "spends"
            embers = "Ember" if abs(e.amount) == 1 else "Embers"
            return f"{w.holder(e.holder)} {verb} {abs(e.amount)} {embers} {_source(w, e.source)} ({e.value} now)"
        case "Committed":
            return f"{p} commits {n(e.card)} face-down at Site {e.site}"
        case "RebornCommitted":
            return f"{p} Reborns {n(e.card)} face-down at Site {e.site}"
        case "InvocationCommitted":
            return f"{p} seals the Invocation of {n(e.card)}"
        case "CommitDone":
            placed = f" ({e.placed} {'card' if e.placed == 1 else 'cards'} placed)" if e.placed >= 0 else ""
            return f"{p} is done committing{placed}"
        case "Sealed":
            return f"{p} places a card face-down behind the screen"
        case "Flipped":
            if not e.cards:  # it read "Flip: nothing was committed turn face up"
                return "Flip: nothing was committed"
            return f"Flip: {w.cards(e.cards)} {'turns' if len(e.cards) == 1 else 'turn'} face up"
        case "SiteResolutionBegan":
            return f"Site {e.site} resolves: {_first(w, e.first, e.reason)}"
        case "InvocationResolutionBegan":
            return f"Invocations resolve: {_first(w, e.first, e.reason)}"
        case "OmenFired":
            return f"{n(e.card)}'s Omen at Site {e.site}"
        case "RebornFired":
            return f"{n(e.card)}'s Reborn at Site {e.site}"
        case "CharmFired":
            return f"{n(e.card)}'s Charm at Site {e.site}"
        case "ClashFired":
            return f"{n(e.card)} Clashes {n(e.target)} for {e.amount} at Site {e.site}{_clash_why(w, e)}"
        case "InvocationFired":
            return f"{p} invokes {n(e.card)}"
        case "PowerChanged":
            if e.amount == 0 and e.prevented == 0:
                return None
            if e.amount == 0:  # no Power lost, Ward stopped some [MOR-24] (R-MOR-07): it read "gains 0 Power"
                by = f" from {n(e.by)}" if e.by > 0 and e.by != e.holder else ""
                return f"Ward prevents {e.prevented} damage{by} to {n(e.holder)} ({e.value} Power now)"
            kept = f", {e.prevented} prevented" if e.prevented else ""
            change = f"gains {e.amount}" if e.amount >= 0 else f"loses {-e.amount}"
            if e.by > 0 and e.by != e.holder and e.source in _CAUSES:  # another card's doing: whose damage, boost
                why = f": {_CAUSES[e.source]} from {n(e.by)}"
            else:  # the rules', or the card's own (not "Alkonost ... by Alkonost")
                why = f" {_source(w, e.source)}"
            if e.source == "revealed":  # a Vigil's Power past the printed one, said (R-MOR-25)
                extra = _vigil_why(w, e.holder, e.player, "power", "reveal_boost", e.amount)
                kept += f"; {extra}" if extra else ""
            return f"{n(e.holder)} {change} Power{why} ({e.value} now{kept})"
        case "Defeated":
            return f"{n(e.card)} is defeated at {w.zone(e.src)} and goes to the Nav"
        case "CharmSpent":
            return f"{n(e.card)} is spent and goes to the Nav"
        case "InitiativeGranted":
            return f"{n(e.by)} gives {p} the Initiative for turn {e.for_turn}"
        case "SiteScored":
            if e.winner < 0:
                return f"Site {e.site} is tied (Power {e.power[0]} to {e.power[1]})"
            return f"{w.who(e.winner)} wins Site {e.site} (Power {e.power[0]} to {e.power[1]})"
        case "SlavaGained":
            if e.amount == 0 and e.capped == 0:
                return None
            capped = f", {e.capped} over the cap lost" if e.capped else ""
            return f"{w.holder(e.holder)} gains {e.amount} Slava {_source(w, e.source)} ({e.value} now{capped})"
        case "GameEnded":
            return "Game over: " + _ending(w, e)
        case "WardenChosen":
            return f"{p}'s Warden is {n(e.card)}"
    return None


def _clash_why(w: Words, e: Any) -> str:
    """Where a Clash's amount beyond the card's printed Clash X comes from: its player's Warden's Vigil, the one
    thing that raises it (``resolution.clash_amount``, [MOR-33], R-MOR-25): `` (Clash 2, +1 from the Vigil of
    Stribog of the Winds)``; nothing when it is the printed X, or the reader does not know the card."""
    said = _vigil_why(w, e.card, e.player, "clash", "clash_bonus", e.amount)
    return f" ({said})" if said else ""


def _vigil_why(w: Words, card: int, player: int, number: str, vigil: str, amount: int) -> str:
    """``Clash 2, +1 from the Vigil of WARDEN`` when ``amount`` is ``card``'s printed ``number`` raised by its
    player's Warden's Vigil ``vigil`` (R-MOR-25); ``Clash 2, +1`` for another difference; "" when ``amount`` is
    the printed number or the reader does not know the card."""
    printed = w.printed(card).get(number, 0)
    if not printed or printed == amount:
        return ""
    said = number.capitalize()
    warden = instance_id(player, LEADER_INDEX)  # the player's Warden (``morana.state.warden_instance``)
    bonus = w.printed(warden).get(vigil, 0)
    if bonus and printed + bonus == amount:
        return f"{said} {printed}, +{bonus} from the Vigil of {w.card(warden)}"
    return f"{said} {printed}, {amount - printed:+d}"


def _ending(w: Words, e: Any) -> str:
    """The end as [MOR-05] decides it, in a sentence: ``Ann reaches 13 Slava and wins (Slava 13 to 9)``; after the
    last turn, the most Slava, then the most Sites won at the last Rite, then the most Power on the board."""
    slava = f" (Slava {e.slava[0]} to {e.slava[1]})" if len(e.slava) == 2 else ""
    who, after = w.who(e.winner), f"after turn {e.turn}"
    why = END_REASONS.get(e.reason, e.reason.replace("_", " "))
    match e.reason:
        case "most_slava":
            return f"{who} wins with {why} {after}{slava}"
        case "most_sites" if len(e.sites) == 2:
            return f"Slava is level {after}{slava}; {who} wins with {why} ({e.sites[0]} to {e.sites[1]})"
        case "most_power" if len(e.power) == 2:
            return f"Slava and Sites are level {after}; {who} wins with {why} ({e.power[0]} to {e.power[1]})"
        case "draw":
            return f"a draw {after}: {why}{slava}"
    said = ending(w, e.winner, e.reason)
    return (said if said is not None else f"{who} wins: {why}" if e.winner >= 0 else f"a draw ({why})") + slava


def ending(w: Words, winner: int, reason: str) -> str | None:
    """A MORANA end as the end line says it, without its figures (``Words.ending``, the table's game over, a
    story's result): ``Bob reaches 13 Slava and wins`` [MOR-05]; None for the table's ends (time, concession)."""
    why = END_REASONS.get(reason, reason.replace("_", " "))
    match reason:
        case "slava_13":
            return f"{w.who(winner)} reaches 13 Slava and wins"
        case "most_slava" | "most_sites" | "most_power":
            return f"{w.who(winner)} wins with {why}"
        case "draw":
            return f"a draw: {why}"
    return None


def option(w: Words, kind: str, o: Any, point: str = "") -> str | None:
    match kind:
        case "Place":
            return f"Commit {w.card(o.card)} at Site {o.site}"
        case "Rebirth":
            return f"Reborn {w.card(o.card)} at Site {o.site}"
        case "Invoke":
            return "Seal your Warden's Invocation"
        case "Done":
            return "Seal the Commit"
    return None


def refs(kind: str, o: Any) -> Refs:
    from annals.engine.words import Refs

    if kind in ("Place", "Rebirth"):
        return Refs(card=o.card, where=f"site:{o.site}")
    return Refs()
