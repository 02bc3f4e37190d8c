"""Card data: loading and validating the pool and the shipped decks, and deck construction [M9-014]-[M9-018].

Cards live in ``data/cards.toml`` (one ``[[cards]]`` table each) and decks in ``data/decks.toml``; both are decoded
by msgspec into ``schemas.miras9`` types, so a malformed file fails with a ``CardDataError`` naming the file and
the bad value. An awakened Spirit is looked up as ``<planet id>#spirit``: a Unit built from the Planet's face.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from pathlib import Path

import msgspec

from annals.engine.miras9 import scripts
from annals.schemas.decklist import DeckProblem
from annals.schemas.errors import CardDataError, InvalidDeckError
from annals.schemas.header import DeckList
from annals.schemas.miras9 import CardDef, CardPool, DeckFile, Heal, MakeToken, Script

DATA = Path(__file__).parent / "data"
MIN_MAIN = 30  # [M9-014]
COPIES = {"unit": 3, "equipment": 3, "event": 3, "site": 2, "ship_site": 2}  # [M9-015], [M9-016]
SPIRIT_SUFFIX = "#spirit"


def _decode(path: Path, typ: type[msgspec.Struct]) -> msgspec.Struct:
    try:
        return msgspec.toml.decode(path.read_bytes(), type=typ)
    except msgspec.ValidationError as exc:
        raise CardDataError(f"{path}: {exc}; fix the field named in the message") from None
    except msgspec.DecodeError as exc:
        raise CardDataError(f"{path}: not valid TOML ({exc})") from None


def _spirit_face(planet: CardDef, where: str) -> CardDef:
    """The awakened Spirit of a Planet as a Unit [M9-104]; it shares the Planet's triggers, abilities and statics."""
    sp = planet.spirit
    if sp is None or planet.threshold <= 0:
        raise CardDataError(
            f"{where}: Planet {planet.id!r} has spirit={sp!r}, threshold={planet.threshold!r}; give it a [spirit] "
            "face and a threshold above 0 [M9-103]"
        )
    return CardDef(
        id=planet.id + SPIRIT_SUFFIX,
        name=sp.name,
        type="unit",
        traits=["spirit"],
        alignment=planet.alignment,
        atk=sp.atk,
        grit=sp.grit,
        echo=sp.echo,
        triggers=planet.triggers,
        abilities=planet.abilities,
        statics=planet.statics,
        text=planet.text,
    )


def build_pool(cards: list[CardDef], where: str = "card data") -> dict[str, CardDef]:
    """Index the cards by id, add the Spirit face of each Planet, and check cross-references."""
    pool: dict[str, CardDef] = {}
    for c in cards:
        if c.id in pool:
            raise CardDataError(f"{where}: card id {c.id!r} is defined twice; give each card a unique id")
        pool[c.id] = c
    for c in cards:
        if c.type == "planet":
            spirit = _spirit_face(c, where)
            pool[spirit.id] = spirit
        if c.type == "unit" and (not c.traits or c.grit <= 0):
            raise CardDataError(f"{where}: Unit {c.id!r} needs at least one trait and GRIT above 0")
        if c.type in ("site", "ship_site") and not c.lanes:
            raise CardDataError(f"{where}: Site {c.id!r} needs its legal lanes, e.g. lanes = [0, 1]")
        if c.type == "site" and c.abilities:  # ruling R-M9-59: a Site's abilities are its statics and entry bans
            raise CardDataError(
                f"{where}: Site {c.id!r} has activated abilities, which a Site cannot have (its abilities are its "
                "statics and keywords, lost while a Ship-Site covers or contests it [M9-065]): make it a Ship-Site, "
                "or give it statics"
            )
    for c in cards:
        effects = list(c.effects)
        for t in c.triggers:
            effects.extend(t.effects)
        for a in c.abilities:
            effects.extend(a.effects)
        if c.blackwake is not None:
            effects.extend(c.blackwake.effects)
            if any(type(e) is Heal for e in c.blackwake.effects):  # ruling R-M9-41
                raise CardDataError(
                    f"{where}: card {c.id!r} has a Blackwake that heals; Blackwake cannot undo combat damage "
                    "[M9-116]: give its Blackwake another effect"
                )
        for eff in effects:
            if type(eff) is MakeToken and (eff.card_id not in pool or pool[eff.card_id].type != "token"):
                raise CardDataError(f"{where}: card {c.id!r} makes token {eff.card_id!r}, which is not a token card")
            if type(eff) is Script and eff.name not in scripts.HOOKS:
                raise CardDataError(
                    f"{where}: card {c.id!r} names script {eff.name!r}; known hooks: {', '.join(sorted(scripts.HOOKS))}"
                )
    return pool


def decode_cards(path: Path = DATA / "cards.toml") -> list[CardDef]:
    """The card definitions of a pool file, as written (no Spirit faces, not cross-checked)."""
    pool = _decode(path, CardPool)
    assert isinstance(pool, CardPool)
    return pool.cards


def load_pool(path: Path = DATA / "cards.toml") -> dict[str, CardDef]:
    return build_pool(decode_cards(path), str(path))


def pool_hash(path: Path = DATA / "cards.toml") -> str:
    return hashlib.blake2b(path.read_bytes(), digest_size=8).hexdigest()


def deck_problems(deck: DeckList, pool: dict[str, CardDef]) -> list[DeckProblem]:
    """Every construction rule a deck list breaks [M9-013]-[M9-020], each naming the card at fault ("" for the
    deck as a whole), in the order: leader, each card's identity, size, copies, starting Site."""
    problems: list[DeckProblem] = []
    leader = pool.get(deck.leader)
    if leader is None or leader.type != "planet":
        problems.append(DeckProblem(deck.leader, (
            f"deck {deck.name!r}: leader {deck.leader!r} is not a paired Planet/Spirit card; a deck contains "
            "exactly one [M9-014]: set leader to a Planet id"
        ), leader=True))  # fmt: skip
    known: list[str] = []
    for cid in dict.fromkeys(deck.cards):
        c = pool.get(cid)
        if c is None or cid.endswith(SPIRIT_SUFFIX):
            problems.append(DeckProblem(cid, (
                f"deck {deck.name!r}: unknown card id {cid!r}; a card is identified by its card ID [M9-008]: use "
                "ids from the card pool (engine/miras9/data/cards.toml)"
            )))  # fmt: skip
        elif c.type == "planet":
            problems.append(DeckProblem(cid, (
                f"deck {deck.name!r}: {cid!r} is a second paired Planet/Spirit card; a deck has exactly one, as its "
                f"leader [M9-014]: remove {cid!r} from the cards"
            )))  # fmt: skip
        elif c.type == "token":
            problems.append(DeckProblem(cid, (
                f"deck {deck.name!r}: {cid!r} is a token; tokens are not deck cards [M9-013], [M9-017]: remove it"
            )))  # fmt: skip
        else:
            known.append(cid)
    if len(deck.cards) < MIN_MAIN:
        problems.append(DeckProblem("", (
            f"deck {deck.name!r} has {len(deck.cards)} cards besides its Planet/Spirit; at least {MIN_MAIN} are "
            f"needed [M9-014], [M9-017]: add {MIN_MAIN - len(deck.cards)} more"
        )))  # fmt: skip
    counts = Counter(deck.cards)
    for cid in sorted(known):
        n, limit = counts[cid], COPIES[pool[cid].type]
        if n > limit:
            para = "[M9-016]" if limit == 2 else "[M9-015]"
            problems.append(DeckProblem(cid, (
                f"deck {deck.name!r} has {n} copies of {cid!r} ({pool[cid].type}); at most {limit} are allowed "
                f"{para}: remove {n - limit}"
            )))  # fmt: skip
    if not any(pool[cid].type in ("site", "ship_site") for cid in known):
        problems.append(DeckProblem("", (
            f"deck {deck.name!r} has no Site or Ship-Site to start with [M9-020]: add at least one Site"
        )))  # fmt: skip
    return problems


def validate_deck(deck: DeckList, pool: dict[str, CardDef]) -> None:
    """Raise ``InvalidDeckError`` naming the first rule a deck list breaks (``deck_problems`` lists them all)."""
    problems = deck_problems(deck, pool)
    if problems:
        raise InvalidDeckError(problems[0].message)


def load_default_decks(decks: dict[str, DeckList], path: Path = DATA / "decks.toml") -> tuple[str, str]:
    """The pair ``default = [A, B]`` in decks.toml names: what ``simulate`` and ``play`` use unless told."""

    class _Default(msgspec.Struct):
        default: tuple[str, str]

    raw = _decode(path, _Default)
    assert isinstance(raw, _Default)
    for name in raw.default:
        if name not in decks:
            raise CardDataError(f"{path}: default names {name!r}, which is not a deck there; fix `default`")
    return raw.default


def load_decks(pool: dict[str, CardDef], path: Path = DATA / "decks.toml") -> dict[str, DeckList]:
    class _Decks(msgspec.Struct):
        decks: list[DeckFile]

    raw = _decode(path, _Decks)
    assert isinstance(raw, _Decks)
    out: dict[str, DeckList] = {}
    for d in raw.decks:
        cards = [cid for cid, n in d.cards.items() for _ in range(n)]
        deck = DeckList(d.name, cards, d.leader)
        validate_deck(deck, pool)
        out[d.name] = deck
    return out
