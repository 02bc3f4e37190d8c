"""The Miras 9 vocabulary gaps closed: "discard the top card of Main Deck" and an explicit "no effect"."""

from __future__ import annotations

from pathlib import Path

import msgspec

from annals.engine.miras9.cardtext import composed_text
from annals.engine.miras9.pool import SHIPPED
from annals.queries.workbench.scenario import run_file
from annals.schemas.miras9 import CardDef, Mill, NoEffect

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios" / "miras9"


def test_mill_takes_the_top_cards_in_order_M9_012() -> None:
    """[M9-012] the Main Deck keeps its order: the top cards go to Discard, the rest stays as it was."""
    outcome = run_file(SCENARIOS / "discard-top-of-main-deck.toml")
    assert outcome.failed == "", "\n".join(outcome.lines)
    card = CardDef("m", "M", "event", cost=1, effects=[Mill(2, "opponent")])
    assert composed_text(card, SHIPPED.cards) == "Discard the top 2 cards of the opponent's Main Deck."
    assert msgspec.convert({"op": "mill", "amount": 1}, Mill) == Mill(1)


def test_explicit_no_effect_M9_006() -> None:
    """[M9-006] instructions resolve in written order: "none" is an instruction that does nothing."""
    outcome = run_file(SCENARIOS / "explicit-no-effect.toml")
    assert outcome.failed == "", "\n".join(outcome.lines)
    assert composed_text(CardDef("n", "N", "event", cost=1, effects=[NoEffect()]), SHIPPED.cards) == "No effect."
