"""The card pool and deck lists: loading, validation, and the construction rules [MOR-35].

Cards are data (``data/cards.toml``), decoded by msgspec into ``schemas.morana`` structs and checked here against
the closed vocabulary of ``keywords``: a malformed file raises ``CardDataError`` naming the card and field. Deck
lists are checked against [MOR-35] (exactly 20 cards plus 1 Warden, at most 2 copies of a card, at most 1 copy
of each Legendary: R-MOR-09) and raise ``InvalidDeckError`` naming the rule broken.
"""

from __future__ import annotations

import hashlib
import sys
from collections import Counter
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Final

import msgspec

from annals.engine.core import CardInfo
from annals.engine.morana import keywords as kw
from annals.engine.morana.scripts import HOOKS
from annals.schemas.carddefs import CardDefinition, convert, extended_pool_hash
from annals.schemas.decklist import DeckProblem
from annals.schemas.errors import CardDataError, InvalidDeckError
from annals.schemas.header import DeckList
from annals.schemas.morana import Card, CardPool, DeckBook, Effect, Warden

DATA_DIR = Path(__file__).parent / "data"
DECK_SIZE = 20
MAX_COPIES = 2
MAX_LEGENDARY_COPIES = 1
MIN_COST, MAX_COST = 1, 8
MIN_REBORN_COST = 1  # [MOR-23]
MIN_INVOCATION_COST = 1  # R-MOR-15


SECTIONS = ("cards", "wardens")  # the tables of a MORANA card file


class Pool(msgspec.Struct, frozen=True):
    """The validated pool: cards and Wardens by id, the keyword reminders, and its hash (the source bytes' for the
    shipped pool); ``extra``: the definitions it adds to the shipped pool, embedded in the games played with it.
    A game's state carries its pool (``MoranaState.pool``): rules read ``s.pool.cards[cid]``, never a global."""

    cards: dict[str, Card]
    wardens: dict[str, Warden]
    reminders: dict[str, str]
    digest: str
    extra: tuple[CardDefinition, ...] = ()

    def with_cards(self, extra: tuple[CardDefinition, ...]) -> Pool:
        """The shipped pool with ``extra`` added (a new id) or put in place of the shipped card (the same id)."""
        return with_cards(tuple(extra))


def _check_effects(effects: list[Effect], where: str, allowed_targets: frozenset[str]) -> None:
    for i, e in enumerate(effects):
        at = f"{where}[{i}]"
        if e.op not in kw.EFFECT_OPS:
            raise CardDataError(f"{at}: unknown effect op {e.op!r}; use one of {sorted(kw.EFFECT_OPS)}")
        if e.op in kw.TARGETED_OPS:
            if e.target not in allowed_targets:
                raise CardDataError(
                    f"{at}: target {e.target!r} is not allowed here; use one of {sorted(allowed_targets)}"
                )
        elif e.target:
            raise CardDataError(f"{at}: op {e.op!r} takes no target (got {e.target!r}); remove it")
        if e.op in {"damage", "boost", "slava", "draw"} and e.amount < 1:
            raise CardDataError(f"{at}: op {e.op!r} needs amount >= 1 (got {e.amount!r})")
        if e.condition not in kw.CONDITIONS:
            raise CardDataError(f"{at}: condition {e.condition!r} is unknown; use one of {sorted(kw.CONDITIONS)}")
        if e.op == "none" and (e.amount or e.target or e.condition):
            raise CardDataError(f"{at}: op 'none' (no effect) takes no amount, target or condition; remove them")
        if e.op == "script" and e.hook not in HOOKS:
            raise CardDataError(f"{at}: unknown script hook {e.hook!r}; define it in engine/morana/scripts.py")
        if e.op != "script" and e.hook:
            raise CardDataError(f"{at}: only op 'script' takes a hook (got {e.hook!r})")


def check_card(c: Card) -> None:
    where = f"card {c.id!r}"
    if c.kind not in ("spirit", "charm"):
        raise CardDataError(f"{where}: kind {c.kind!r} must be 'spirit' or 'charm'")
    if not MIN_COST <= c.cost <= MAX_COST:
        raise CardDataError(f"{where}: cost {c.cost!r} outside {MIN_COST}..{MAX_COST}")
    for name, x in c.keywords.items():
        if name not in kw.PRINTED_KEYWORDS:
            raise CardDataError(
                f"{where}: keyword {name!r} is not printable; use {sorted(kw.PRINTED_KEYWORDS)} (Omen and Reborn "
                "are the card's omen/reborn bands)"
            )
        if (name in kw.NUMBERED_KEYWORDS) != (x >= 1) or x < 0:
            raise CardDataError(f"{where}: keyword {name!r} has number {x!r}; Clash/Ward/Bloom need X >= 1, Swift 0")
    if c.kind == "spirit":
        if c.power < 1:
            raise CardDataError(f"{where}: a Spirit needs power >= 1 (got {c.power!r}) [MOR-37]")
        if c.reborn_cost < MIN_REBORN_COST:
            raise CardDataError(f"{where}: reborn_cost {c.reborn_cost!r} is below the minimum of 1 [MOR-23]")
        if not c.omen or not c.reborn:
            raise CardDataError(f"{where}: every Spirit has an Omen and a Reborn band [MOR-21]; fill both")
    else:
        if c.power or c.reborn_cost or c.reborn:
            raise CardDataError(f"{where}: a Charm has no power, reborn_cost or reborn band (R-MOR-19)")
        if set(c.keywords) - {"swift"}:
            raise CardDataError(f"{where}: a Charm may only be Swift (got {sorted(c.keywords)!r})")
        if not c.omen:
            raise CardDataError(f"{where}: a Charm needs an effect (its omen band)")
        if any(e.target == "self" for e in c.omen):
            raise CardDataError(f"{where}: a Charm has no Power, so no effect of it can target 'self'")
    _check_effects(c.omen, f"{where} omen", kw.TARGETS)
    _check_effects(c.reborn, f"{where} reborn", kw.TARGETS)


def check_warden(w: Warden) -> None:
    where = f"warden {w.id!r}"
    if w.vigil.op == "none":  # a Warden with no Vigil
        if w.vigil.amount:
            raise CardDataError(f"{where}: vigil op 'none' (no Vigil) takes amount 0 (got {w.vigil.amount!r})")
    elif w.vigil.op not in kw.VIGIL_OPS or w.vigil.amount < 1:
        raise CardDataError(f"{where}: vigil {w.vigil!r} must use one of {sorted(kw.VIGIL_OPS)} with amount >= 1")
    if w.invocation_cost < MIN_INVOCATION_COST:
        raise CardDataError(f"{where}: invocation_cost {w.invocation_cost!r} is below 1 (R-MOR-15)")
    if not w.invocation:
        raise CardDataError(f"{where}: an Invocation needs an effect [MOR-33]")
    _check_effects(w.invocation, f"{where} invocation", kw.SITE_FREE_TARGETS)


def build_pool(raw: bytes, where: str = "cards.toml") -> Pool:
    """Decode and validate a pool; ``CardDataError`` on any problem."""
    try:
        data = msgspec.toml.decode(raw, type=CardPool)
    except msgspec.ValidationError as exc:
        raise CardDataError(f"{where}: {exc}; fix the field named") from None
    names = [k.name for k in data.keywords]
    if names != list(kw.KEYWORDS):
        raise CardDataError(f"{where}: keywords {names!r} must be exactly the six {list(kw.KEYWORDS)!r} in order")
    cards: dict[str, Card] = {}
    wardens: dict[str, Warden] = {}
    for c in data.cards:
        if c.id in cards:
            raise CardDataError(f"{where}: card id {c.id!r} appears twice; ids are unique")
        check_card(c)
        cards[sys.intern(c.id)] = c  # interned, as the shipped decks' ids are (``decks``): see there
    for w in data.wardens:
        if w.id in wardens or w.id in cards:
            raise CardDataError(f"{where}: Warden id {w.id!r} is already used; ids are unique")
        check_warden(w)
        wardens[sys.intern(w.id)] = w
    digest = hashlib.blake2b(raw, digest_size=8).hexdigest()
    return Pool(cards, wardens, {k.name: k.reminder for k in data.keywords}, digest)


@cache
def shipped_pool() -> Pool:
    """The shipped pool, loaded once (a game reads its own pool, ``MoranaState.pool``)."""
    return build_pool((DATA_DIR / "cards.toml").read_bytes())


@cache
def with_cards(extra: tuple[CardDefinition, ...]) -> Pool:
    """The shipped pool with ``extra`` (cached: every state of a game shares its pool); ``CardDataError`` naming
    the card and field for a definition the pool's schema or the vocabulary refuses."""
    shipped = shipped_pool()
    if not extra:
        return shipped
    cards, wardens = dict(shipped.cards), dict(shipped.wardens)
    for d in extra:
        if d.section == "cards":
            card = convert(d, Card, "card")
            if card.id in wardens:
                raise CardDataError(f"card {card.id!r}: the id is a Warden's; give the card another id")
            check_card(card)
            cards[card.id] = card
        elif d.section == "wardens":
            warden = convert(d, Warden, "warden")
            if warden.id in cards:
                raise CardDataError(f"warden {warden.id!r}: the id is a card's; give the Warden another id")
            check_warden(warden)
            wardens[warden.id] = warden
        else:
            raise CardDataError(
                f"card {d.id!r}: section {d.section!r} is not a MORANA table; use [[cards]] or [[wardens]]"
            )
    return Pool(cards, wardens, shipped.reminders, extended_pool_hash(shipped.digest, extra), extra)


def deck_problems(deck: DeckList, p: Pool) -> list[DeckProblem]:
    """Every way a deck breaks [MOR-35] (exactly 20 cards plus 1 Warden, at most 2 copies of a card, at most 1 of
    each Legendary), each naming the card at fault ("" for the deck as a whole): Warden, size, then each card."""
    name = deck.name
    problems: list[DeckProblem] = []
    if deck.leader not in p.wardens:
        problems.append(DeckProblem(deck.leader, (
            f"deck {name!r}: Warden {deck.leader!r} is not a Warden of the pool; a deck needs exactly 1 Warden "
            f"[MOR-35]: name one of {sorted(p.wardens)} as its leader"
        ), leader=True))  # fmt: skip
    size = len(deck.cards)
    if size != DECK_SIZE:
        fix = f"add {DECK_SIZE - size}" if size < DECK_SIZE else f"remove {size - DECK_SIZE}"
        problems.append(DeckProblem("", (
            f"deck {name!r}: has {size} cards; a deck is exactly {DECK_SIZE} cards plus 1 Warden [MOR-35]: "
            f"{fix} card{'s' if abs(size - DECK_SIZE) > 1 else ''}"
        )))  # fmt: skip
    for card_id, copies in sorted(Counter(deck.cards).items()):
        message = _entry_problem(name, card_id, copies, p)
        if message:
            problems.append(DeckProblem(card_id, message))
    return problems


# Deck lists found valid, by (pool digest, Warden, cards): every game's set-up validates both decks, and checking
# one (a Counter, a sort, a lookup per card) was 2% of a MORANA bot game; a deck's validity depends on nothing else.
_VALID: set[tuple[str, str, tuple[str, ...]]] = set()
_VALID_LIMIT = 4096  # forgotten wholesale past this many (a tournament has a few dozen)


def validate_deck(deck: DeckList, p: Pool) -> None:
    """[MOR-35]: raise ``InvalidDeckError`` for the first rule broken (``deck_problems`` lists them all).

    Each ``InvalidDeckError`` quotes the bad value, names the rule, and says what to change.
    """
    key = (p.digest, deck.leader, tuple(deck.cards))
    if key in _VALID:
        return
    problems = deck_problems(deck, p)
    if problems:
        raise InvalidDeckError(problems[0].message)
    if len(_VALID) >= _VALID_LIMIT:
        _VALID.clear()
    _VALID.add(key)


def _entry_problem(deck: str, card_id: str, copies: int, p: Pool) -> str:
    """One card of a deck list: a card of the pool (not a Warden), within its copy limit [MOR-35]; "" if fine."""
    if card_id in p.wardens:
        return (
            f"deck {deck!r}: Warden {card_id!r} among the cards; a deck is 20 cards plus exactly 1 Warden "
            f"[MOR-35], named as its leader: replace {card_id!r} with a card"
        )
    card = p.cards.get(card_id)
    if card is None:
        return f"deck {deck!r}: unknown card {card_id!r}; use an id from the card pool"
    if card.legendary:
        limit, what = MAX_LEGENDARY_COPIES, "Legendary "
        rule = "at most 1 copy of each Legendary [MOR-35] (R-MOR-09)"
    else:
        limit, what = MAX_COPIES, ""
        rule = "at most 2 copies of a card [MOR-35]"
    if copies > limit:
        extra = copies - limit
        return (
            f"deck {deck!r}: {copies} copies of {what}{card_id!r}; {rule}: "
            f"remove {extra} cop{'ies' if extra > 1 else 'y'}"
        )
    return ""


@cache
def _book() -> DeckBook:
    raw = (DATA_DIR / "decks.toml").read_bytes()
    try:
        return msgspec.toml.decode(raw, type=DeckBook)
    except msgspec.ValidationError as exc:
        raise CardDataError(f"decks.toml: {exc}; fix the field named") from None


def default_decks() -> tuple[str, str]:
    """The pair ``default = [A, B]`` in decks.toml names: what ``simulate`` and ``play`` use unless told."""
    book = _book()
    pair = book.default
    unknown = [name for name in pair if name not in {d.name for d in book.decks}]
    if unknown:
        raise CardDataError(f"decks.toml: default names {unknown[0]!r}, which is not a deck there; fix `default`")
    return pair


def decks() -> Mapping[str, DeckList]:
    """The shipped decks by name, each validated."""
    book = _book()
    out: dict[str, DeckList] = {}
    for d in book.decks:
        # ids interned, as the pool's keys are: the tables the rules read per card (costs, definitions, Vigils)
        # then find a game's ids by identity, not by comparing characters
        cards = [sys.intern(e.card) for e in d.cards for _ in range(e.copies)]
        deck = DeckList(d.name, cards, sys.intern(d.warden))
        validate_deck(deck, shipped_pool())
        out[d.name] = deck
    return out


def card_text(c: Card, p: Pool) -> str:
    """The printed rules text: keywords with their reminders [MOR-25], then the Omen and Reborn bands."""
    parts = [f"{k.capitalize()}{f' {x}' if x else ''} ({p.reminders[k]})" for k, x in c.keywords.items()]
    label = "Omen" if c.kind == "spirit" else "Effect"
    parts.append(f"{label}: " + "; ".join(_effect_text(e) for e in c.omen))
    if c.reborn:
        parts.append(f"Reborn {c.reborn_cost}: " + "; ".join(_effect_text(e) for e in c.reborn))
    return ". ".join(parts) + "."


# A Vigil in words, as the rules apply it (``resolution.vigil_amount``'s readers); it read "Vigil: clash bonus 1"
VIGIL_TEXT: Final = {
    "clash_bonus": "your Spirits' Clash deals {n} more damage",
    "ward_bonus": "your Spirits prevent {n} more damage (Ward +{n})",
    "reveal_boost": "your Spirits are revealed with {n} more Power",
    "reborn_discount": "your Reborn costs {n} Ember less (never below 1 [MOR-23])",
}


def warden_text(w: Warden) -> str:
    """A Warden's Vigil and its once-per-game Invocation [MOR-33]."""
    said = VIGIL_TEXT.get(w.vigil.op, w.vigil.op.replace("_", " ") + " {n}").format(n=w.vigil.amount)
    vigil = "No Vigil" if w.vigil.op == "none" else f"Vigil: {said}"
    return f"{vigil}. Invocation {w.invocation_cost}: " + "; ".join(_effect_text(e) for e in w.invocation) + "."


def printed_numbers(p: Pool, card_id: str) -> dict[str, int]:
    """A card's printed numbers by name, as the rules read them: a Spirit's keywords and Power (``{"clash": 2,
    "power": 1}``), a Charm's keywords, a Warden's
    Vigil (``{"clash_bonus": 1}``); ``{}`` for an id not in the pool (a card the reader cannot identify)."""
    card = p.cards.get(card_id)
    if card is not None:
        return {**card.keywords, "power": card.power} if card.kind == "spirit" else dict(card.keywords)
    warden = p.wardens.get(card_id)
    return {warden.vigil.op: warden.vigil.amount} if warden is not None else {}


def catalog(p: Pool) -> dict[str, CardInfo]:
    """The pool as players read it: Spirits and Charms (cost in Embers [MOR-37]), then the Wardens."""
    out: dict[str, CardInfo] = {}
    for c in p.cards.values():
        stats = {"Power": c.power, "Reborn": c.reborn_cost} if c.kind == "spirit" else {}
        kind = f"legendary {c.kind}" if c.legendary else c.kind
        out[c.id] = CardInfo(c.id, c.name, kind, c.cost, stats, card_text(c, p))
    for w in p.wardens.values():
        out[w.id] = CardInfo(w.id, w.name, "warden", None, {"Invocation": w.invocation_cost}, warden_text(w))
    return out


def _effect_text(e: Effect) -> str:
    if e.op == "script":
        rules = (HOOKS[e.hook].__doc__ or "").strip().rstrip(".")
        return rules or f"<{e.hook}>"
    if e.op == "none":
        return "no effect"
    text = " ".join(x for x in (e.op, str(e.amount) if e.amount else "", e.target.replace("_", " ")) if x)
    if e.condition:
        text = f"if you have {e.condition.split('_')[0]} Slava than your opponent, {text}"
    return text
