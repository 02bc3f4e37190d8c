"""The Miras 9 TCG: events, decision options, card definitions and deck lists.

Events follow the field-name conventions of ``schemas.records``. Event families, for SQL views:

* **set-up and flow**: ``PlanetPlaced``, ``DeckPrepared``, ``PileShuffled``, ``FirstPlayerChosen``,
  ``MulliganTaken``, ``TurnBegan``, ``PhaseBegan``, ``GameOver``.
* **zone moves**: ``CardMoved`` (every move of a card: ``card``, ``src``, ``dst``, ``reason``), ``PileShuffled``
  (``cards`` is the whole pile, index 0 = bottom, last = top), ``TokenCreated``. Zones are ``deck``, ``hand``,
  ``resource``, ``used``, ``discard``, ``exile``, ``planet``, ``stack``, ``gone`` (a token that left play), and
  board positions ``lane:<side>:<lane>`` (Units, attached or dropped Equipment) and ``site:<side>:<lane>`` (Sites),
  where ``<side>`` is the player whose half of the lane it is and ``<lane>`` is ``exterior|interior|space``.
* **counters**: ``CounterChanged`` (``counter`` in ``echo`` (holder = player), ``wounds``, ``tapped``,
  ``attuned``, ``atk_mod``, ``grit_mod``, ``shield`` (holder = card)); ``value`` after, ``amount`` the change.
  Positions omit counters whose value is 0.
* **stack items**: ``WindowOpened``, ``StackPushed`` (a Reaction card or an ability announced: ``card``,
  ``ability`` -1 for the card itself, ``target``), ``PriorityPassed`` (``passes`` after the pass),
  ``StackResolved``, ``WindowClosed``.
* **attack waves**: ``WaveStep`` (one per step 1-7 of each wave: ``wave``, ``step_no``, ``name``, ``site``),
  ``WaveDeclared`` (``attackers`` and their ``targets``; target 0 = the defender's Site position),
  ``BlockersDeclared`` (``blockers`` and the ``attackers`` each blocks), ``CombatDamage`` (one per wound
  source/target pair, after prevention), ``LeftWave`` (a combatant, attacker, blocker or attacked Unit, leaves the
  wave for good [M9-081]), ``WaveEnded``.
* **Battle Damage**: ``BattleDamageAssigned`` (one per unblocked attacker: ``source`` = attacker card,
  ``amount``), ``BattleDamagePaid`` (one per point: ``point``, ``remaining``, ``source`` in
  ``echo|hand|deck|resource|used``, ``attacker``; a card payment also carries ``card``/``src``/``dst`` and is a
  zone move, an Echo payment carries ``counter``/``holder``/``value``/``amount`` and is a counter change).
* **actions and effects**: ``CardPlayed``, ``AbilityActivated``, ``Awakened``, ``Manifested``, ``Pressured``,
  ``Restored``, ``TriggerFired``, ``ReplacementApplied``, ``DamagePrevented``.
"""

from __future__ import annotations

from typing import ClassVar, Literal

import msgspec

from annals.schemas.records import ClockCharged, Event, Forfeited
from annals.schemas.rulesets import RulesetSchema

LANES = ("exterior", "interior", "space")

# ---------------------------------------------------------------- events


class PlanetPlaced(Event, tag=1):
    """[M9-019] the paired card, Planet-side up, in its owner's Planet zone."""

    card: int
    card_id: str
    dst: str = "planet"


class DeckPrepared(Event, tag=2):
    """The deck list as instances, in list order (index 0 = bottom), before any shuffle."""

    cards: list[int]
    dst: str = "deck"


class PileShuffled(Event, tag=3):
    """A pile's new order, drawn by the seeded generator (index 0 = bottom, last = top)."""

    cards: list[int]
    dst: str = "deck"


class FirstPlayerChosen(Event, tag=4):
    first: int


class MulliganTaken(Event, tag=5):
    take: bool


class TurnBegan(Event, tag=6):
    active: int


class PhaseBegan(Event, tag=7):
    phase: str


class GameOver(Event, tag=8):
    winner: int
    reason: str


class CardMoved(Event, tag=9):
    card: int
    src: str
    dst: str
    reason: str
    host: int = 0  # Equipment: the Unit it is attached to after the move (0: none)


class TokenCreated(Event, tag=10):
    card: int
    card_id: str
    dst: str


class CounterChanged(Event, tag=11):
    counter: str
    holder: int
    value: int
    amount: int
    source: str = ""


class CardPlayed(Event, tag=12):
    """Announcement of a card played from Hand (its zone move follows as ``CardMoved``)."""

    card: int
    card_id: str
    target: int = 0
    host: int = 0


class AbilityActivated(Event, tag=13):
    card: int
    ability: int
    target: int = 0


class Awakened(Event, tag=14):
    card: int
    threshold: int


class Manifested(Event, tag=15):
    card: int
    site: str


class Pressured(Event, tag=16):
    card: int
    site: str


class Restored(Event, tag=17):
    card: int


class TriggerFired(Event, tag=18):
    card: int
    trigger: str


class ReplacementApplied(Event, tag=19):
    card: int
    replaced: str
    instead: str


class DamagePrevented(Event, tag=20):
    card: int
    amount: int
    source: str


class WindowOpened(Event, tag=21):
    window: str
    priority: int


class StackPushed(Event, tag=22):
    card: int
    ability: int  # -1: the card itself (a Reaction); otherwise the index of the card's ability
    target: int
    controller: int
    depth: int  # stack size after the push


class PriorityPassed(Event, tag=23):
    passes: int  # consecutive passes after this one
    to: int  # who holds priority next


class StackResolved(Event, tag=24):
    card: int
    ability: int
    target: int
    fizzled: bool  # every target had become illegal [M9-111]


class WindowClosed(Event, tag=25):
    window: str


class WaveStep(Event, tag=26):
    """One of the seven steps of an attack wave [M9-074]-[M9-080]."""

    wave: int
    step_no: int
    name: str
    site: str


class WaveDeclared(Event, tag=27):
    wave: int
    site: str
    attackers: list[int]
    targets: list[int]  # per attacker: a Unit instance, or 0 for the defender's Site position


class BlockersDeclared(Event, tag=28):
    wave: int
    blockers: list[int]
    attackers: list[int]  # the attacker each blocker blocks


class CombatDamage(Event, tag=29):
    source: int  # the card dealing the wounds (for retaliation: the first of ``sources``)
    target: int
    amount: int
    sources: list[int] = []  # retaliation: every blocker whose ATK is combined in this one amount [M9-069]


class LeftWave(Event, tag=30):
    card: int
    wave: int


class WaveEnded(Event, tag=31):
    wave: int
    site: str


class BattleDamageAssigned(Event, tag=32):
    source: int  # the unblocked attacker
    holder: int  # the damaged player
    amount: int


class BattleDamagePaid(Event, tag=33):
    point: int  # 1-based point number within this wave's Battle Damage
    remaining: int
    source: str  # echo | hand | deck | resource | used
    attacker: int
    card: int = 0
    src: str = ""
    dst: str = ""
    counter: str = ""
    holder: int = -1
    value: int = 0
    amount: int = 0


class SelectionChanged(Event, tag=34):
    """A wave being selected or blockers being assigned (before the confirm; no reactions in between [M9-074])."""

    card: int  # the attacker or blocker picked (0 for stage "site")
    target: int  # the attacker's target (0: the Site position) or the attacker a blocker blocks
    stage: str  # "attack" | "block" | "site"
    lane: int = -1  # stage "site": the lane of the wave

    ABSENT: ClassVar[dict[str, int | str | None]] = {"target": None}  # 0 is a real target: ingest stores it as 0


M9Event = (
    PlanetPlaced
    | DeckPrepared
    | PileShuffled
    | FirstPlayerChosen
    | MulliganTaken
    | TurnBegan
    | PhaseBegan
    | GameOver
    | CardMoved
    | TokenCreated
    | CounterChanged
    | CardPlayed
    | AbilityActivated
    | Awakened
    | Manifested
    | Pressured
    | Restored
    | TriggerFired
    | ReplacementApplied
    | DamagePrevented
    | WindowOpened
    | StackPushed
    | PriorityPassed
    | StackResolved
    | WindowClosed
    | WaveStep
    | WaveDeclared
    | BlockersDeclared
    | CombatDamage
    | LeftWave
    | WaveEnded
    | BattleDamageAssigned
    | BattleDamagePaid
    | SelectionChanged
    | ClockCharged
    | Forfeited
)

# ---------------------------------------------------------------- decision options


class _Opt(msgspec.Struct, array_like=True, gc=False, frozen=True, forbid_unknown_fields=True):
    pass


class PickSite(_Opt, frozen=True, tag=1):
    """Set-up [M9-020]: the starting Site and its lane."""

    card: int
    lane: int


class Mulligan(_Opt, frozen=True, tag=2):
    take: bool


class CardFlow(_Opt, frozen=True, tag=3):
    """[M9-033] draw the top Main Deck card, or move it to Resource."""

    to_resource: bool


class Generate(_Opt, frozen=True, tag=4):
    amount: int


class PlayCard(_Opt, frozen=True, tag=5):
    card: int
    loc: int = -1  # board position side*3+lane for Units and Sites
    target: int = 0  # Equipment host, or the target of an Event/Reaction


class Activate(_Opt, frozen=True, tag=6):
    card: int
    ability: int
    target: int = 0


class Awaken(_Opt, frozen=True, tag=7):
    loc: int


class DeclareAt(_Opt, frozen=True, tag=8):
    """Choose the Site (lane) of the next wave."""

    lane: int


class AddAttacker(_Opt, frozen=True, tag=9):
    card: int
    target: int  # 0: the defender's Site position


class AssignBlocker(_Opt, frozen=True, tag=10):
    card: int
    attacker: int


class Confirm(_Opt, frozen=True, tag=11):
    pass


class Pass(_Opt, frozen=True, tag=12):
    """End the phase (main decisions) or pass priority (reaction windows)."""


class PayPoint(_Opt, frozen=True, tag=13):
    source: str  # echo | hand | deck | resource | used
    card: int = 0  # the Hand card, for source "hand"


class DoManifest(_Opt, frozen=True, tag=14):
    card: int


class DoPressure(_Opt, frozen=True, tag=15):
    card: int


class DoRestore(_Opt, frozen=True, tag=16):
    pass


class ResourceToHand(_Opt, frozen=True, tag=17):
    pass


M9Option = (
    PickSite
    | Mulligan
    | CardFlow
    | Generate
    | PlayCard
    | Activate
    | Awaken
    | DeclareAt
    | AddAttacker
    | AssignBlocker
    | Confirm
    | Pass
    | PayPoint
    | DoManifest
    | DoPressure
    | DoRestore
    | ResourceToHand
)

# ---------------------------------------------------------------- card definitions

# Who an effect applies to: the chosen target, the source card, its controller, the opponent, the source's host.
Who = Literal["target", "self", "you", "opponent", "host"]
TargetKind = Literal["", "friendly_unit", "enemy_unit", "unit", "combatant", "friendly_combatant", "enemy_combatant"]
Timing = Literal["reaction", "action", "attune"]
TriggerWhen = Literal["enter", "defeated", "attack", "block", "manifest", "battle_damage", "awaken"]


class _Eff(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag_field="op"):
    pass


class Wound(_Eff, frozen=True, tag="wound"):
    amount: int
    to: Who = "target"


class Heal(_Eff, frozen=True, tag="heal"):
    amount: int
    to: Who = "target"


class Shield(_Eff, frozen=True, tag="shield"):
    """Prevent the next ``amount`` wounds to the card this turn [M9-109]."""

    amount: int
    to: Who = "target"


class Boost(_Eff, frozen=True, tag="boost"):
    """Temporary ATK/GRIT modifier until end of turn [M9-110]."""

    atk: int = 0
    grit: int = 0
    to: Who = "target"


class GainEcho(_Eff, frozen=True, tag="echo"):
    """Change a player's Echo by ``amount`` (negative: lose; never below 0 [M9-050])."""

    amount: int
    to: Who = "you"


class Draw(_Eff, frozen=True, tag="draw"):
    amount: int
    to: Who = "you"


class GenerateEff(_Eff, frozen=True, tag="generate"):
    amount: int
    to: Who = "you"


class ReadyEff(_Eff, frozen=True, tag="ready"):
    to: Who = "target"


class TapEff(_Eff, frozen=True, tag="tap"):
    to: Who = "target"


class DefeatEff(_Eff, frozen=True, tag="defeat"):
    to: Who = "target"


class Bounce(_Eff, frozen=True, tag="bounce"):
    to: Who = "target"


class Withdraw(_Eff, frozen=True, tag="withdraw"):
    """Remove the card from the current wave [M9-081]."""

    to: Who = "target"


class MakeToken(_Eff, frozen=True, tag="token"):
    card_id: str


class Script(_Eff, frozen=True, tag="script"):
    """A named hook in ``engine.miras9.scripts`` for a card the vocabulary cannot express."""

    name: str


Effect = (
    Wound
    | Heal
    | Shield
    | Boost
    | GainEcho
    | Draw
    | GenerateEff
    | ReadyEff
    | TapEff
    | DefeatEff
    | Bounce
    | (Withdraw | MakeToken | Script)
)


class Trigger(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    when: TriggerWhen
    effects: list[Effect]


class Ability(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """An activated ability. ``tap`` is a cost needing a ready, Attuned source [M9-043]."""

    effects: list[Effect]
    cost: int = 0
    echo: int = 0
    tap: bool = False
    timing: Timing = "reaction"
    once_per_turn: bool = False
    target: TargetKind = ""


class Static(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A static modifier [M9-110]: ``scope`` host (Equipment), self, friendly_here, enemy_here (same lane)."""

    scope: Literal["host", "self", "friendly_here", "enemy_here"]
    atk: int = 0
    grit: int = 0
    echo: int = 0
    ward: int = 0  # prevent this much of each damage event [M9-109]


class Replacement(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """[M9-109] when the card would be defeated, do ``instead`` (bounce: return to Hand; heal: clear wounds, tap)."""

    instead: Literal["bounce", "heal"]
    once_per_turn: bool = True


class SpiritFace(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    name: str
    atk: int
    grit: int
    echo: int
    traits: list[str] = msgspec.field(default_factory=lambda: ["spirit"])


CardType = Literal["unit", "site", "ship_site", "equipment", "event", "planet", "token"]
Trait = Literal["character", "spirit", "vehicle", "ship"]
Keyword = Literal["infiltrate", "no_enemy_entry", "cannot_block", "cannot_attack", "reaction"]


class CardDef(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: str
    name: str
    type: CardType
    traits: list[Trait] = []
    alignment: str = ""
    cost: int = 0
    atk: int = 0
    grit: int = 0
    echo: int = 0
    gen: int = 0  # a Site's resource value (generation)
    crew: int = -1  # Vehicles/Ships: 0 = always manned [M9-057]; -1 not a host
    lanes: list[int] = []  # Sites: legal lanes (0 exterior, 1 interior, 2 space)
    keywords: list[Keyword] = []
    target: TargetKind = ""  # Events and Reactions
    effects: list[Effect] = []  # Events and Reactions
    triggers: list[Trigger] = []
    abilities: list[Ability] = []
    statics: list[Static] = []
    replacement: Replacement | None = None
    threshold: int = 0  # Planets: the Echo threshold [M9-103]
    spirit: SpiritFace | None = None
    text: str = ""


class CardPool(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    cards: list[CardDef]


class DeckFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    name: str
    style: str
    leader: str
    cards: dict[str, int]  # card id -> copies


ALIASES = {
    "wave": "WaveDeclared",
    "wavestep": "WaveStep",
    "window": "WindowOpened",
    "stack": "StackPushed",
    "resolve": "StackResolved",
    "damage": "BattleDamagePaid",
    "play": "CardPlayed",
}
SCHEMA = RulesetSchema("miras9", "1", M9Event, M9Option, ALIASES, end_event=GameOver)
