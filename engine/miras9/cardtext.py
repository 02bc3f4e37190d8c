"""Cards as players read them: printed text, cost and stats [M9-008], [M9-118].

A card's ``text`` in the data is its printed text; a card printed without any (a vanilla Unit, a plain Site, the
simplest Events and Equipment) gets one composed from its keywords, statics and effects, so every card reads.
"""

from __future__ import annotations

from annals.engine.core import CardInfo
from annals.engine.miras9.cards import SPIRIT_SUFFIX
from annals.schemas.miras9 import CardDef, Effect, Static

LANES = ("Exterior", "Interior", "Space")  # [M9-025]
KEYWORDS = {
    "infiltrate": "Infiltrate (may enter an enemy Site)",
    "no_enemy_entry": "Enemy Units cannot enter this Site",
    "cannot_block": "Cannot block",
    "cannot_attack": "Cannot attack",
    "reaction": "Reaction",
    "contest_interior": "May contest an enemy Interior",
    "crew_manifest": "Its crew may Manifest",
}
TARGETS = {
    "friendly_unit": "a friendly Unit",
    "enemy_unit": "an enemy Unit",
    "unit": "a Unit",
    "combatant": "a combatant",
    "friendly_combatant": "a friendly combatant",
    "enemy_combatant": "an enemy combatant",
}
SCOPES = {
    "host": "The equipped Unit gets",
    "self": "This card gets",
    "friendly_here": "Your Units in this lane get",
    "enemy_here": "Enemy Units in this lane get",
}
UNPAID = frozenset({"planet", "token"})  # a Planet awakens for Echo [M9-103]; a token is made, never played


def _signed(n: int) -> str:
    return f"+{n}" if n >= 0 else str(n)


def _static(s: Static) -> str:
    parts = [f"{_signed(v)} {name}" for name, v in (("ATK", s.atk), ("GRIT", s.grit), ("ECHO", s.echo)) if v]
    text = f"{SCOPES[s.scope]} {' and '.join(parts)}" if parts else ""
    if s.ward:
        ward = f"prevent {s.ward} of each damage dealt to them"
        text = f"{text}; {ward}" if text else f"{SCOPES[s.scope].removesuffix(' get')}: {ward}"
    return text


def _whose(e: Effect) -> str:
    return {"you": "your", "opponent": "the opponent's"}.get(getattr(e, "to", "you"), "its owner's")


def _effect(e: Effect, pool: dict[str, CardDef]) -> str:
    op = type(e).__name__
    amount = getattr(e, "amount", 0)
    if op == "Boost":
        parts = [f"{_signed(v)} {name}" for name, v in (("ATK", e.atk), ("GRIT", e.grit)) if v]  # type: ignore[union-attr]
        return f"it gets {' and '.join(parts)} this turn"
    if op == "MakeToken":
        token = pool.get(e.card_id)  # type: ignore[union-attr]
        return f"make a {token.name if token else e.card_id} token"  # type: ignore[union-attr]
    if op == "Script":
        return f"<{e.name}>"  # type: ignore[union-attr]
    words = {
        "Wound": f"wound it {amount}",
        "Heal": f"heal {amount} wounds from it",
        "Shield": f"prevent the next {amount} wounds to it this turn",
        "GainEcho": f"gain {amount} Echo",
        "Draw": f"draw {amount} card{'s' if amount != 1 else ''}",
        "GenerateEff": f"generate {amount}",
        "ReadyEff": "ready it",
        "TapEff": "tap it",
        "DefeatEff": "defeat it",
        "Bounce": "return it to its owner's Hand",
        "Withdraw": "remove it from the wave",
        "Mill": f"discard the top {amount} card{'s' if amount != 1 else ''} of {_whose(e)} Main Deck",
        "NoEffect": "no effect",
    }
    return words.get(op, op)


def composed_text(c: CardDef, pool: dict[str, CardDef]) -> str:
    """Rules text built from the card's keywords, statics and effects."""
    parts = [KEYWORDS.get(k, k) for k in c.keywords]
    parts += [text for s in c.statics if (text := _static(s))]
    if c.effects:
        body = ", then ".join(_effect(e, pool) for e in c.effects)
        parts.append(f"Choose {TARGETS[c.target]}: {body}" if c.target else body[0].upper() + body[1:])
    return ". ".join(parts) + "." if parts else ""


def card_text(c: CardDef, pool: dict[str, CardDef]) -> str:
    """The printed text, or one composed from the card's data when it prints none."""
    return c.text or composed_text(c, pool)


def stats(c: CardDef, pool: dict[str, CardDef]) -> dict[str, int]:
    if c.type in ("unit", "token"):
        numbers = {"ATK": c.atk, "GRIT": c.grit, "ECHO": c.echo}
        return numbers | ({"Crew": c.crew} if c.crew >= 0 else {})
    if c.type == "ship_site":  # [M9-030] it takes wounds (GRIT) and retaliates (ATK, while manned: R-M9-55)
        return {"Generation": c.gen, "ATK": c.atk, "GRIT": c.grit} | ({"Crew": c.crew} if c.crew >= 0 else {})
    if c.type == "site":
        return {"Generation": c.gen} | ({"Crew": c.crew} if c.crew >= 0 else {})
    if c.type == "planet":
        spirit = pool[c.id + SPIRIT_SUFFIX]
        return {"Threshold": c.threshold, "ATK": spirit.atk, "GRIT": spirit.grit, "ECHO": spirit.echo}
    return {}


def kind(c: CardDef) -> str:
    if c.type in ("site", "ship_site"):
        lanes = "/".join(LANES[lane] for lane in c.lanes)
        return f"{c.type.replace('_', '-')} ({lanes})"
    if c.traits:
        return f"{c.type} ({', '.join(c.traits)})"
    return c.type


def catalog(pool: dict[str, CardDef]) -> dict[str, CardInfo]:
    """Every card of the pool but the awakened Spirit faces, which their Planet's stats show [M9-104]."""
    return {
        c.id: CardInfo(c.id, c.name, kind(c), None if c.type in UNPAID else c.cost, stats(c, pool), card_text(c, pool))
        for c in pool.values()
        if not c.id.endswith(SPIRIT_SUFFIX)
    }
