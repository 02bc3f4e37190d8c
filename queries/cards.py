"""Card pools as players read them: one card's text and stats, or a ruleset's whole pool as a table.

Each ruleset describes its cards (``Ruleset.cards``: id, name, type, cost, stats, rules text); this module finds
a card by id or name across rulesets and lays a pool out as a frame for ``queries.reports.output.render``.

A name matches a card's id or name exactly (ignoring case); failing that, a card whose name or id contains it.
Several matches raise ``AmbiguousCardError`` listing them (``ruleset=`` narrows the search), none raises
``UnknownCardError`` with the closest names.
"""

from __future__ import annotations

import difflib
from typing import TYPE_CHECKING, NamedTuple

from annals.engine.core import CardInfo
from annals.engine.registry import get_ruleset, ruleset_names
from annals.schemas.errors import AnnalsError

if TYPE_CHECKING:
    import polars as pl

SHOWN_MATCHES = 8


class UnknownCardError(AnnalsError, LookupError):
    """No card of that id or name."""


class AmbiguousCardError(AnnalsError, LookupError):
    """More than one card answers to that name."""


class PoolCard(NamedTuple):
    ruleset: str
    card: CardInfo


def pool(ruleset: str) -> list[CardInfo]:
    """The ruleset's cards in the order its data lists them (``UnknownRulesetError`` for an unknown ruleset; none
    for a plugin ruleset that does not describe its cards)."""
    describe_cards = getattr(get_ruleset(ruleset), "cards", None)
    return list(describe_cards().values()) if describe_cards is not None else []


def _all(ruleset: str | None) -> list[PoolCard]:
    names = [ruleset] if ruleset is not None else ruleset_names()
    return [PoolCard(name, card) for name in names for card in pool(name)]


def stats_text(card: CardInfo) -> str:
    return "  ".join(f"{name} {value}" for name, value in card.stats.items())


def _label(found: PoolCard) -> str:
    return f"{found.card.name} ({found.ruleset} {found.card.id})"


def find_card(name: str, ruleset: str | None = None) -> PoolCard:
    """The one card ``name`` means (see the module docstring)."""
    everything = _all(ruleset)
    wanted = name.strip().casefold()
    exact = [f for f in everything if wanted in (f.card.id.casefold(), f.card.name.casefold())]
    found = exact or [f for f in everything if wanted in f.card.id.casefold() or wanted in f.card.name.casefold()]
    if len(found) == 1:
        return found[0]
    where = f" in {ruleset}" if ruleset else ""
    if found:
        shown = ", ".join(_label(f) for f in found[:SHOWN_MATCHES])
        more = f" and {len(found) - SHOWN_MATCHES} more" if len(found) > SHOWN_MATCHES else ""
        spans = sorted({f.ruleset for f in found})
        narrow = f"pass --ruleset ({' or '.join(spans)}) or " if len(spans) > 1 else ""
        raise AmbiguousCardError(
            f"{name!r} matches {len(found)} cards{where}: {shown}{more}; {narrow}give more of the name"
        )
    by_key = {f.card.name.casefold(): f for f in everything} | {f.card.id.casefold(): f for f in everything}
    close = difflib.get_close_matches(wanted, list(by_key), n=3, cutoff=0.6)
    hint = f"did you mean {', '.join(dict.fromkeys(_label(by_key[c]) for c in close))}?" if close else ""
    listing = f"list the pool with `annals cards {ruleset or 'RULESET'}`"
    raise UnknownCardError(f"no card {name!r}{where}; {hint + ' ' if hint else ''}{listing}")


def pool_frame(ruleset: str) -> pl.DataFrame:
    """One row per card: id, name, type, cost (null when never paid), stats and rules text."""
    import polars as pl  # here: 'annals card' and the engine's callers need no polars

    cards = pool(ruleset)
    return pl.DataFrame(
        {
            "id": [c.id for c in cards],
            "name": [c.name for c in cards],
            "type": [c.type for c in cards],
            "cost": [c.cost for c in cards],
            "stats": [stats_text(c) for c in cards],
            "text": [c.text for c in cards],
        },
        schema={
            "id": pl.String,
            "name": pl.String,
            "type": pl.String,
            "cost": pl.Int64,
            "stats": pl.String,
            "text": pl.String,
        },
    )


def describe(found: PoolCard) -> list[str]:
    """A card as lines of text: name and ruleset, type and cost, stats, rules text."""
    c = found.card
    cost = "" if c.cost is None else f", cost {c.cost}"
    lines = [f"{c.name}  ({found.ruleset} card {c.id})", f"{c.type}{cost}"]
    if c.stats:
        lines.append(stats_text(c))
    lines.append(c.text or "(no rules text)")
    return lines
