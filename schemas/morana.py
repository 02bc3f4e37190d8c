"""MORANA records: the event union, the decision options, and the card, Warden, keyword and deck schemas.

Events follow the field conventions of ``schemas.records`` so that ingest and the SQL ``position()`` macro read
them by name: ``card``/``cards`` + ``src``/``dst`` for moves, ``counter``/``holder``/``value``/``amount`` for the
``"slava"``, ``"embers"`` and ``"power"`` counters. Zones are ``"deck"``, ``"hand"``, ``"nav"``, ``"site:1"`` ..
``"site:3"`` (left to right) and ``"warden"``. Tags are never reused; new fields are appended with defaults.

Sealed commits [MOR-15], [MOR-16]: every commit event (``Committed``, ``RebornCommitted``,
``InvocationCommitted`` and the ``EmbersChanged`` paying for them, all with ``step == "commit"``) carries the real
card in the omniscient log. ``engine.morana.ruleset.redact`` turns each of them into a bare ``Sealed`` (envelope
only) for everyone but the committing player, and hides ``CommitDone.placed``, so the opponent learns only how
many actions were taken (R-MOR-14); the ``Flipped`` event at Dusk then
reveals every sealed card, its Site, and every Invocation at once. Hands and deck order are hidden
the same way (``Drew`` and ``DeckShuffled``); Nav, the Sites after Dusk, Slava and the Wardens are open [MOR-07].
"""

from __future__ import annotations

from typing import Any, ClassVar

import msgspec

from annals.schemas.records import ClockCharged, Event, Forfeited
from annals.schemas.rulesets import RulesetSchema

UNKNOWN = -1  # a hidden card instance in a redacted event
HIDDEN = -1  # a hidden amount in a redacted event

# --- set-up and the turn's steps ------------------------------------------------------------------------------


class DeckShuffled(Event, tag=1):
    """A player's deck in its shuffled order, top card last (chance is an event). Hidden from every viewer."""

    cards: list[int]
    dst: str = "deck"


class Drew(Event, tag=2):
    """One card from the top of the deck to the hand (the opening hand, Dawn, or a draw effect)."""

    card: int
    src: str = "deck"
    dst: str = "hand"
    source: str = "dawn"  # "opening", "dawn", or the drawing card's effect "effect"


class DrawSkipped(Event, tag=3):
    """A draw that could not happen: ``reason`` is ``"empty_deck"`` or ``"hand_full"`` (R-MOR-16)."""

    reason: str


class TurnBegan(Event, tag=4):
    """Dawn of ``turn`` [MOR-14]; ``initiative`` is who holds Initiative this turn (-1: nobody) [MOR-29]."""

    initiative: int


class StepBegan(Event, tag=5):
    """The turn enters the step named in the envelope: ``"commit"``, ``"dusk"`` or ``"rite"`` [MOR-13]."""


class EmbersChanged(Event, tag=6):
    """The Embers counter [MOR-12]: ``source`` is ``"dawn"`` (gain), ``"commit"``/``"reborn"``/``"invocation"``
    (payment, sealed) or ``"lapse"`` (unspent Embers vanish at Dusk, right after the flip: R-MOR-11)."""

    counter: str
    holder: int
    value: int
    amount: int
    source: str


# --- Commit (sealed) ---------------------------------------------------------------------------------------------


class Committed(Event, tag=7):
    """A Spirit or Charm placed face-down at a Site [MOR-15]. Sealed: the card is hidden from the opponent."""

    card: int
    site: int
    src: str = "hand"
    dst: str = ""  # "site:N"


class RebornCommitted(Event, tag=8):
    """A Spirit returned from Nav face-down to a Site during Commit [MOR-21], [MOR-23]. Sealed like a Commit."""

    card: int
    site: int
    src: str = "nav"
    dst: str = ""


class InvocationCommitted(Event, tag=9):
    """The Warden's Invocation is fired (once per game) [MOR-33]; it resolves at Dusk. Sealed."""

    card: int


class CommitDone(Event, tag=10):
    """The player has sealed their Commit (public: the opponent sees they are done, not what they did)."""

    placed: int  # how many cards the player put face-down this turn (HIDDEN in the opponent's view)


class Sealed(Event, tag=11):
    """What a viewer sees instead of each of the opponent's Commit events until Dusk. Never in a real log."""


# --- Dusk --------------------------------------------------------------------------------------------------------


class Flipped(Event, tag=12):
    """Dusk: every face-down card is revealed at once [MOR-16]. ``cards`` in commit order with their ``sites``;
    ``reborn`` is the subset that came back from Nav; ``invocations`` lists players whose Invocation fires;
    ``embers`` is each player's Embers after paying for their sealed actions, public from now on (the payments
    were behind the screen, so without it a player's view kept the opponent's Embers from before the Commit)."""

    cards: list[int]
    sites: list[int]
    reborn: list[int]
    invocations: list[int]
    embers: list[int] = []


class SiteResolutionBegan(Event, tag=13):
    """A Site starts resolving (left to right) [MOR-16], [MOR-19]. ``first`` resolves its effects first, or -1 when
    both resolve simultaneously; ``reason`` is ``"less_slava"``, ``"initiative"`` or ``"simultaneous"``
    [MOR-28], [MOR-29]. ``slava`` is both players' Slava at that moment (R-MOR-05)."""

    site: int
    first: int
    reason: str
    slava: list[int]


class InvocationResolutionBegan(Event, tag=14):
    """Invocations resolve after the flip, before the Sites, in the same order rule as a Site (R-MOR-15)."""

    first: int
    reason: str
    slava: list[int]


class OmenFired(Event, tag=15):
    """A Spirit's Omen fires as it is first revealed [MOR-21]; its effects follow as their own events."""

    card: int
    site: int


class RebornFired(Event, tag=16):
    """A returned Spirit's Reborn effect fires as it is revealed at Dusk [MOR-21] (R-MOR-10)."""

    card: int
    site: int


class CharmFired(Event, tag=17):
    """A Charm's effect fires as it is revealed (R-MOR-19)."""

    card: int
    site: int


class ClashFired(Event, tag=18):
    """Clash X fires at its Site: X damage to the strongest enemy Spirit there (R-MOR-07). ``target`` -1: none."""

    card: int
    site: int
    amount: int
    target: int

    ABSENT: ClassVar[dict[str, int | str | None]] = {"target": -1}  # ingest stores "no target" as NULL


class InvocationFired(Event, tag=19):
    """The Warden's Invocation resolves [MOR-33]."""

    card: int


class PowerChanged(Event, tag=20):
    """A card's Power [MOR-19], [MOR-37]: ``source`` ``"revealed"``, ``"damage"``, ``"boost"``, ``"bloom"``;
    ``by`` is the card causing it (-1: the rules); ``prevented`` is damage stopped by Ward."""

    counter: str
    holder: int
    value: int
    amount: int
    source: str
    by: int = -1
    prevented: int = 0


class Defeated(Event, tag=21):
    """A Spirit at 0 Power is defeated and crosses to its owner's Nav face-up [MOR-21]."""

    card: int
    src: str
    dst: str = "nav"


class CharmSpent(Event, tag=22):
    """A Charm, its effect resolved, leaves its Site for its owner's Nav (R-MOR-13)."""

    card: int
    src: str
    dst: str = "nav"


class InitiativeGranted(Event, tag=23):
    """An effect grants Initiative [MOR-29]; it takes hold on ``for_turn`` (R-MOR-06)."""

    by: int
    for_turn: int


# --- Rite and the end --------------------------------------------------------------------------------------------


class SiteScored(Event, tag=24):
    """The Rite compares total Power at a Site [MOR-17], [MOR-19]: ``winner`` -1 on a tie."""

    site: int
    winner: int
    power: list[int]


class SlavaGained(Event, tag=25):
    """Slava [MOR-10]: ``source`` ``"site:N"`` (unlimited) or ``"offboard"`` (capped at 4 a turn, [MOR-31], and at
    13, the top of the track, R-MOR-17); ``capped`` is what the caps cut from the gain; ``by`` the card that caused
    an off-board gain."""

    counter: str
    holder: int
    value: int
    amount: int
    source: str
    by: int = -1
    capped: int = 0


class GameEnded(Event, tag=26):
    """The end [MOR-05]: ``reason`` ``"slava_13"``, ``"most_slava"``, ``"most_sites"``, ``"most_power"`` or
    ``"draw"``; ``slava``, ``sites`` and ``power`` are the compared values for players 0 and 1."""

    winner: int
    reason: str
    slava: list[int]
    sites: list[int]
    power: list[int]


class WardenChosen(Event, tag=27):
    """Set-up: the player's Warden, chosen before the game, face-up all game [MOR-33]."""

    card: int
    warden: str
    dst: str = "warden"


MoranaEvent = (
    DeckShuffled
    | Drew
    | DrawSkipped
    | TurnBegan
    | StepBegan
    | EmbersChanged
    | Committed
    | RebornCommitted
    | InvocationCommitted
    | CommitDone
    | Sealed
    | Flipped
    | SiteResolutionBegan
    | InvocationResolutionBegan
    | OmenFired
    | RebornFired
    | CharmFired
    | ClashFired
    | InvocationFired
    | PowerChanged
    | Defeated
    | CharmSpent
    | InitiativeGranted
    | SiteScored
    | SlavaGained
    | GameEnded
    | WardenChosen
    | ClockCharged
    | Forfeited
)

# --- decision options (Commit is the only decision point) --------------------------------------------------------


class Place(msgspec.Struct, array_like=True, gc=False, frozen=True, forbid_unknown_fields=True, tag=1):
    """Commit a card from hand face-down at a Site (1..3), paying its cost [MOR-15]."""

    card: int
    site: int


class Rebirth(msgspec.Struct, array_like=True, gc=False, frozen=True, forbid_unknown_fields=True, tag=2):
    """Reborn a Spirit from Nav face-down at a Site, paying its Reborn cost [MOR-21], [MOR-23]."""

    card: int
    site: int


class Invoke(msgspec.Struct, array_like=True, gc=False, frozen=True, forbid_unknown_fields=True, tag=3):
    """Fire the Warden's Invocation, paying X Embers [MOR-33]."""


class Done(msgspec.Struct, array_like=True, gc=False, frozen=True, forbid_unknown_fields=True, tag=4):
    """Seal the Commit."""


MoranaOption = Place | Rebirth | Invoke | Done

# --- card data ---------------------------------------------------------------------------------------------------


class Effect(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One effect primitive from the closed vocabulary (``engine.morana.keywords.EFFECT_OPS``)."""

    op: str  # "damage", "boost", "slava", "initiative", "draw", "script"
    amount: int = 0
    target: str = ""  # see engine.morana.keywords.TARGETS
    hook: str = ""  # the named script for op "script"
    condition: str = ""  # "", "more_slava", "less_slava": see engine.morana.keywords.CONDITIONS


class Card(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A Spirit or a Charm [MOR-37]. ``keywords`` maps a keyword to its number (0 for a bare keyword)."""

    id: str
    name: str
    kind: str  # "spirit" or "charm"
    cost: int
    power: int = 0
    reborn_cost: int = 0
    legendary: bool = False
    rarity: str = "common"  # cosmetic only [MOR-37]
    keywords: dict[str, int] = {}
    omen: list[Effect] = []  # Spirits: the Omen band; Charms: the Charm's effect
    reborn: list[Effect] = []  # Spirits: the Reborn band
    flavor: str = ""  # printed rules text is composed by engine.morana.cards.card_text


class Vigil(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A Warden's passive (``engine.morana.keywords.VIGIL_OPS``)."""

    op: str
    amount: int


class Warden(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Face-up all game: a Vigil and an Invocation X, once per game, paid in Embers during Commit [MOR-33]."""

    id: str
    name: str
    vigil: Vigil
    invocation_cost: int
    invocation: list[Effect]


class Keyword(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One of the six card keywords [MOR-24], [MOR-25] with the reminder text cards print."""

    name: str
    reminder: str
    numbered: bool  # printed with a number X


class CardPool(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    keywords: list[Keyword]
    cards: list[Card]
    wardens: list[Warden]


class DeckEntry(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    card: str
    copies: int = 1


class DeckFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A shipped deck: 20 cards plus 1 Warden [MOR-35]."""

    name: str
    warden: str
    cards: list[DeckEntry]
    starter: bool = False


class DeckBook(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    decks: list[DeckFile]
    default: tuple[str, str] = ("", "")  # the pair used when no decks are named


ALIASES = {
    "commit": "Committed",
    "flip": "Flipped",
    "site": "SiteResolutionBegan",
    "rite": "SiteScored",
    "reborn": "RebornFired",
    "clash": "ClashFired",
}


def as_version_1(event: Any) -> Any:
    """An event as version 1 recorded it: the same rules, but ``Flipped`` without the Embers left [MOR-16]."""
    return msgspec.structs.replace(event, embers=[]) if type(event) is Flipped else event


# version 2: Flipped.embers; simultaneous turns [MOR-13]. Version 1 logs re-run and verify (``as_version_1``).
SCHEMA = RulesetSchema("morana", "2", MoranaEvent, MoranaOption, ALIASES, simultaneous_turns=True, end_event=GameEnded,
                       earlier={"1": as_version_1})  # fmt: skip
