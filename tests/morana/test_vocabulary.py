"""The vocabulary gaps closed: an explicit "no effect" band, a Warden with no Vigil, and conditional effects."""

from __future__ import annotations

from pathlib import Path

import pytest

from annals.engine.morana.cards import card_text, check_card, check_warden, shipped_pool, warden_text
from annals.queries.workbench.scenario import run_file
from annals.schemas.errors import CardDataError
from annals.schemas.morana import Card, Effect, Vigil, Warden

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios" / "morana"


def test_r_mor_22_a_condition_is_checked_when_the_effect_resolves() -> None:
    """R-MOR-22: "if you have more Slava than your opponent" is read as the effect resolves at Dusk [MOR-16]: a
    Slava gained at an earlier Site the same Dusk counts (the scenario's Proud Candle fires only because of it)."""
    outcome = run_file(SCENARIOS / "conditional-more-slava.toml")
    assert outcome.failed == "", "\n".join(outcome.lines)
    candle = Card("x", "X", "charm", 1, omen=[Effect("slava", 1, condition="more_slava")])
    check_card(candle)
    assert "if you have more Slava than your opponent, slava 1" in card_text(candle, shipped_pool())
    with pytest.raises(CardDataError, match="condition 'richer'"):
        check_card(Card("x", "X", "charm", 1, omen=[Effect("slava", 1, condition="richer")]))


def test_no_effect_band_and_no_vigil_mor21_mor33() -> None:
    """[MOR-21] every Spirit has an Omen and a Reborn band: "none" fills one explicitly; [MOR-33] a Warden may have
    no Vigil."""
    hollow = Card("h", "H", "spirit", 2, power=2, reborn_cost=2, omen=[Effect("none")], reborn=[Effect("none")])
    check_card(hollow)
    assert "Omen: no effect" in card_text(hollow, shipped_pool())
    with pytest.raises(CardDataError, match="no effect"):
        check_card(
            Card("h", "H", "spirit", 2, power=2, reborn_cost=2, omen=[Effect("none", 1)], reborn=[Effect("none")])
        )
    silent = Warden("w", "W", Vigil("none", 0), 3, [Effect("slava", 1)])
    check_warden(silent)
    assert warden_text(silent).startswith("No Vigil")
    outcome = run_file(SCENARIOS / "no-effect-and-no-vigil.toml")
    assert outcome.failed == "", "\n".join(outcome.lines)
