"""The six card keywords and the closed effect vocabulary [MOR-21], [MOR-24], [MOR-25], [MOR-33].

The rules name Omen, Reborn and Clash [MOR-16], [MOR-21], [MOR-39]; annals rules the full six (R-MOR-07):

* **Omen** — the Spirit's on-reveal band: fires once, when the Spirit is first revealed at Dusk.
* **Reborn** — the Spirit's second-life band: fires when it is revealed after returning from Nav.
* **Clash X** — every Dusk while the Spirit is at a Site, X damage to the strongest enemy Spirit there.
* **Ward X** — damage dealt to this Spirit is reduced by X (each time).
* **Swift** — this card's effects resolve before all non-Swift effects at its Site.
* **Bloom X** — at each Dawn after its first, the Spirit gains +X Power.

Effects are typed primitives (``EFFECT_OPS``) aimed at named targets (``TARGETS``); a card too unusual for them
names a hook in ``engine.morana.scripts``. The Warden's Vigil is one of ``VIGIL_OPS``; Invocation is not a keyword.
"""

from __future__ import annotations

from typing import Final

KEYWORDS: Final = ("omen", "reborn", "clash", "ward", "swift", "bloom")
PRINTED_KEYWORDS: Final = frozenset({"clash", "ward", "swift", "bloom"})  # Omen/Reborn are the card's bands
NUMBERED_KEYWORDS: Final = frozenset({"clash", "ward", "bloom"})

EFFECT_OPS: Final = frozenset({"damage", "boost", "slava", "initiative", "draw", "script", "none"})  # none: no effect
TARGETED_OPS: Final = frozenset({"damage", "boost"})
TARGETS: Final = frozenset(
    {
        "self",
        "allies_here",
        "allies",
        "enemy_strongest_here",
        "enemy_weakest_here",
        "enemies_here",
        "enemy_strongest",
        "enemies",
    }
)
SITE_FREE_TARGETS: Final = frozenset({"allies", "enemy_strongest", "enemies"})  # usable by an Invocation

VIGIL_OPS: Final = frozenset({"reborn_discount", "clash_bonus", "ward_bonus", "reveal_boost", "none"})  # none: no Vigil
# An effect's ``condition``: it happens only if, when it resolves, its controller has more (less) Slava than the
# opponent (R-MOR-24).
CONDITIONS: Final = frozenset({"", "more_slava", "less_slava"})


def ward_after(damage: int, ward: int) -> tuple[int, int]:
    """(damage dealt, damage prevented) for ``damage`` against Ward ``ward`` (R-MOR-07)."""
    prevented = min(damage, ward)
    return damage - prevented, prevented
