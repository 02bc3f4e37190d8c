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
* **movement and crews**: ``UnitMoved`` (normal movement [M9-058]: ``cards`` (the mover first, then its crew and
  Equipment) leave ``src``, a board position, for ``dst`` = ``route:<side>:<lane>``, En Route to that position;
  ``cost`` paid), ``Arrived`` (En Route cards reach their position at their controller's Awaken [M9-032]: ``src``
  the route zone, ``dst`` the board position),
  ``Embarked`` / ``Disembarked`` (``card`` boards or leaves ``host`` [M9-060]; ``reason`` ``embark``/``disembark``
  or why the crew had to leave), ``Spotted`` (an enemy En Route Unit made active and attackable until the end of
  the turn [M9-055]; ``source`` the card whose Spot effect it was).
* **Blackwake**: ``BlackwakeChecked`` (every check: a card a Battle Damage point reveals from ``src``, its
  ``instruction`` or ""), ``BlackwakeResolved`` (``outcome`` declined | replaced | effect).
* **extra attacks and declarations**: ``ExtraAttackGranted``, ``ExtraAttackTaken`` (a single-Unit wave, or let
  go), ``SelectionUndone`` (a pick taken back before the confirm), ``DestinationChosen`` (a stack item's
  announced destination, e.g. Escape Route's).
* **Ship-Sites**: a Ship-Site card on the board stands at a board position ``lane:<side>:<lane>`` like a Unit (it
  is not one [M9-030]); ``ShipSiteMoved`` (it moves at once, with its crew and Equipment [M9-063]: ``kind`` move |
  contest | return, ``cost`` paid), ``ShipSiteAttacked`` (an unblocked attacker strikes it: no Battle Damage,
  ``amount`` its wounds and ``retaliation`` the Ship-Site's [M9-072]).
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


# Tags 60 and up: movement and crews (engine.miras9.movement, engine.miras9.crews).


class UnitMoved(Event, tag=60):
    """Normal movement [M9-058] of ``cards[0]`` (tapped, ``cost`` paid), with the crew aboard it and the Equipment
    attached to it (the rest of ``cards``) [M9-062]: all leave ``src`` and are En Route (``dst`` =
    ``route:<side>:<lane>``) until their controller's next Awaken, or, when the mover's text says it arrives at once
    (``rapid``), ``dst`` is the board position itself."""

    cards: list[int]
    src: str
    dst: str
    cost: int


class Arrived(Event, tag=61):
    """En Route cards reach their destination together [M9-032]: a mover with its crew and Equipment."""

    cards: list[int]
    src: str
    dst: str


class Embarked(Event, tag=62):
    """[M9-060] ``card`` boards ``host`` (free, no tap)."""

    card: int
    host: int
    reason: str = "embark"


class Disembarked(Event, tag=63):
    """``card`` leaves ``host``: by choice [M9-060], or because the host left the board [M9-091]."""

    card: int
    host: int
    reason: str = "disembark"


class Spotted(Event, tag=64):
    """[M9-055] an enemy En Route Unit becomes active and attackable until the end of the turn."""

    card: int
    source: int


# Blackwake [M9-088], [M9-089], [M9-123] and card-granted extra attacks [M9-073], [M9-083]: tags from 70 (60..69 are
# movement and crews).


class BlackwakeChecked(Event, tag=70):
    """A Battle Damage point paid from Main Deck, Resource or Used reveals its card, which is checked for a
    Blackwake instruction [M9-088]: one event per check, ``instruction`` "" when the card has none."""

    card: int
    card_id: str
    src: str  # deck | resource | used
    instruction: str  # "" | "replace" | "effect"


class BlackwakeResolved(Event, tag=71):
    """What came of a card's Blackwake instruction [M9-089]: ``outcome`` declined | replaced | effect; ``target``
    the card chosen (0: none); ``to`` where a replaced discard went instead."""

    card: int
    outcome: str
    target: int = 0
    to: str = ""


class ExtraAttackGranted(Event, tag=72):
    """A card grants ``card`` one extra attack at the wave's Site after the wave [M9-073], [M9-083]."""

    card: int
    wave: int
    site: str
    reason: str


class ExtraAttackTaken(Event, tag=73):
    """The granted extra attack made (``taken``: a single-Unit wave begins at the Site) or let go."""

    card: int
    site: str
    taken: bool


class SelectionUndone(Event, tag=74):
    """The last pick of a declaration being built taken back before its confirm [M9-074], [M9-076]: ``stage``
    attack | block (the pick ``card``/``target`` removed) or site (the wave given up, its Site open again)."""

    card: int
    target: int  # as in SelectionChanged: 0 is the Site position at stage "attack"
    stage: str

    ABSENT: ClassVar[dict[str, int | str | None]] = {"target": None}  # 0 is a real target: ingest stores it as 0


class DestinationChosen(Event, tag=75):
    """The destination announced with the stack item just pushed (Escape Route's adjacent friendly Site)."""

    card: int
    to: str


# Ship-Sites [M9-063]-[M9-065], [M9-072]: tags from 80 (70..79 are Blackwake and extra attacks).


class ShipSiteMoved(Event, tag=80):
    """A Ship-Site moves at once [M9-063] (tapped, ``cost`` paid), with its crew and the Equipment on it (the rest
    of ``cards``): ``kind`` move (between its controller's positions), contest (onto an enemy position) or return
    (from an enemy position to its controller's)."""

    cards: list[int]
    src: str
    dst: str
    cost: int
    kind: str


class ShipSiteAttacked(Event, tag=81):
    """An unblocked attacker strikes a Ship-Site [M9-072]: no player Battle Damage; the attacker's ``amount`` of
    wounds and the Ship-Site's ``retaliation`` (0 unmanned) are dealt at once (their ``CombatDamage`` follow)."""

    source: int
    card: int
    amount: int
    retaliation: int


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
    | UnitMoved
    | Arrived
    | Embarked
    | Disembarked
    | Spotted
    | BlackwakeChecked
    | BlackwakeResolved
    | ExtraAttackGranted
    | ExtraAttackTaken
    | SelectionUndone
    | DestinationChosen
    | ShipSiteMoved
    | ShipSiteAttacked
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


# Tags 40 and up: movement and crews.


class MoveUnit(_Opt, frozen=True, tag=40):
    """Normal movement [M9-058] of ``card`` to board position ``loc``."""

    card: int
    loc: int


class Embark(_Opt, frozen=True, tag=41):
    card: int
    host: int


class Disembark(_Opt, frozen=True, tag=42):
    card: int


class TakeBack(_Opt, frozen=True, tag=50):
    """Take back the last pick of the declaration being built (the Site itself when nothing else is picked)."""


class UseBlackwake(_Opt, frozen=True, tag=51):
    """Use the revealed card's Blackwake instruction (``use`` False: decline it) on ``target`` (0: none)."""

    use: bool
    target: int = 0


class UseExtraAttack(_Opt, frozen=True, tag=52):
    """Make the granted extra attack with ``card`` (False: let it go)."""

    card: int
    take: bool


class MoveShipSite(_Opt, frozen=True, tag=60):
    """Move Ship-Site ``card`` to board position ``loc`` [M9-063]."""

    card: int
    loc: int


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
    | MoveUnit
    | Embark
    | Disembark
    | TakeBack
    | UseBlackwake
    | UseExtraAttack
    | MoveShipSite
)

# ---------------------------------------------------------------- card definitions

# Who an effect applies to: the chosen target, the source card, its controller, the opponent, the source's host.
Who = Literal["target", "self", "you", "opponent", "host"]
TargetKind = Literal[
    "", "friendly_unit", "enemy_unit", "unit", "combatant", "friendly_combatant", "enemy_combatant", "enemy_en_route"
]
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


class Spot(_Eff, frozen=True, tag="spot"):
    """[M9-055] the target enemy En Route Unit becomes active and attackable until the end of the turn."""

    to: Who = "target"


class Escape(_Eff, frozen=True, tag="escape"):
    """Escape Route [M9-117]: the target, an eligible Unit (``traits``) in the wave at the Battleground Site, leaves
    the wave and moves to the announced adjacent friendly Site position."""

    traits: list[Literal["character", "spirit", "vehicle", "ship"]] = msgspec.field(
        default_factory=lambda: ["character"]
    )
    to: Who = "target"


class MakeToken(_Eff, frozen=True, tag="token"):
    card_id: str


class Mill(_Eff, frozen=True, tag="mill"):
    """Discard the top ``amount`` cards of a player's Main Deck (from the top, in order [M9-012])."""

    amount: int
    to: Who = "you"


class NoEffect(_Eff, frozen=True, tag="none"):
    """Explicitly nothing: a slot that must hold an effect but does nothing (a vanilla trigger, a blank band)."""


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
    | (Withdraw | MakeToken | Script | Spot | Mill | NoEffect | Escape)
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
    move_cost: int = 0  # added to the cost of normal movement by the Units in scope [M9-058]


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
# rapid: the card's normal movement arrives at once instead of going En Route [M9-058] ("card text may change ...")
# killing_machine: Raithe's Killing Machine [M9-083] (ready and one extra attack when his attack defeats a Unit)
# contest_interior: a Ship-Site that may contest an enemy Interior [M9-064] ("unless card text permits it")
# crew_manifest: a host whose embarked Characters and Spirits may Manifest [M9-099] (the distinct action it grants)
Keyword = Literal[
    "infiltrate", "no_enemy_entry", "cannot_block", "cannot_attack", "reaction", "rapid", "killing_machine",
    "contest_interior", "crew_manifest",
]  # fmt: skip


class Blackwake(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A Blackwake instruction [M9-088], [M9-089]: when Battle Damage reveals the card from Main Deck, Resource or
    Used, its owner may put it ``instead`` into that pile (hand | resource) rather than Discard, or, paying ``echo``
    and ``cost`` (resources), resolve ``effects`` on a legal ``target``."""

    instead: Literal["", "hand", "resource"] = ""
    effects: list[Effect] = []
    target: TargetKind = ""
    echo: int = 0
    cost: int = 0


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
    crew: int = -1  # Vehicles/Ships: the Crew Limit; 0 = always manned and carries no crew [M9-057]; -1 not a host
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
    blackwake: Blackwake | None = None  # [M9-088]


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
