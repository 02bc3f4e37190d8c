"""The records of an event (a tournament): the acts of its record, and the views folded from them.

An event is its record, ``event.log`` (``schemas.eventlog``): every act of the organiser or a judge is one ``Act``
(creation, a registration, a drop, a pairing, a result, a correction, the round clock, ...), appended, chained and
signed, never edited. ``EventConfig``, ``Player``, ``Round`` and ``MatchRecord`` are the views the fold of those acts
gives (``engine.tournament.record``). Schema evolution follows ``schemas/__init__``: new fields go last and have
defaults; a new act is a new tagged struct.
"""

from __future__ import annotations

import msgspec

from annals.schemas.header import DeckList

EVENT_FORMAT = 1
SWISS, TOP = "swiss", "top"
REQUIRED, OPTIONAL = "required", "optional"  # an event's deck lists (``EventConfig.deck_lists``)
NO_LIST = "(no list)"  # a player registered without a deck list, where a deck's name is shown


class EventConfig(msgspec.Struct, frozen=True):
    name: str
    event_id: str  # the name and a random suffix drawn at creation: unique, and in every game's header
    ruleset: str
    rounds: int  # Swiss rounds; 0 until round 1 is paired when not given (then recommended from the field)
    best_of: int
    top: int  # the single-elimination cut: 0 (none), 2, 4, 8, ...
    seed: int  # every random draw of the event (pairings, first players, game seeds) derives from it
    max_turns: int  # each game's turn cap, the match's time limit: a game reaching it is drawn
    agent: str = "heuristic"  # the bot that plays a seat whose player has no agent of their own
    format: int = EVENT_FORMAT
    deck_lists: str = REQUIRED  # OPTIONAL: players may register without one (a club night's paper results)


class Player(msgspec.Struct, frozen=True):
    id: str
    name: str
    deck: DeckList | None  # None: registered without a list (an event whose deck lists are optional)
    deck_file: str  # the list as registered, copied into the event folder (relative path); "" without one
    agent: str = ""  # the bot playing this seat in ``event run``; "" takes the event's agent
    dropped_after: int = -1  # -1: active; N: dropped after round N (0: withdrew before round 1)

    @property
    def deck_name(self) -> str:
        return self.deck.name if self.deck is not None else NO_LIST


class Pairing(msgspec.Struct, frozen=True):
    table: int
    a: str
    b: str  # "" for a bye


class Round(msgspec.Struct, frozen=True):
    number: int
    stage: str  # "swiss" or "top"
    pairings: list[Pairing]
    seed: int  # the generator seed that ordered the point groups (swiss) or 0 (top)


class GameRecord(msgspec.Struct, frozen=True):
    number: int
    log: str  # relative to the event folder
    game_id: str
    seats: list[str]  # player ids by seat
    first: str  # the player who played first ("" for MORANA, which has no first player [MOR-13])
    decider: str  # who chose the first player ("" for MORANA): the lot's winner in game 1, then the loser
    # "lot" (game 1), "loser" (the previous game's loser chose), "drawn" (the same decider after a drawn game),
    # "seats" (MORANA: seats by lot, then swapped each game)
    method: str
    winner: str  # player id, "" for a drawn game
    end_reason: str
    turns: int
    digest: str  # the log's final chain digest


class Override(msgspec.Struct, frozen=True):
    """A judge's correction of a result: it replaces what the games (or the first report) said, and says so."""

    judge: str
    reason: str
    wins_a: int
    wins_b: int
    draws: int
    kind: str = "games"  # or a named result: "intentional_draw", "double_loss", "no_show"


class MatchRecord(msgspec.Struct, frozen=True):
    round: int
    stage: str
    table: int
    a: str
    b: str  # "" for a bye
    games: list[GameRecord]
    wins_a: int
    wins_b: int
    draws: int
    winner: str  # player id, "" for a drawn match
    # "games" (a player won the majority), "time" (the games ran out, a drawn game among them), "bye",
    # "seed" (a level cut match: the higher seed advances)
    ended: str
    turn_cap: int
    override: Override | None = None


# ---------------------------------------------------------------------------------------------- the record's acts
# Named results a match can have besides its games (``Outcome.kind``); "games" is a result of games won and drawn.
GAMES, INTENTIONAL_DRAW, DOUBLE_LOSS, NO_SHOW = "games", "intentional_draw", "double_loss", "no_show"
OUTCOME_KINDS = (GAMES, INTENTIONAL_DRAW, DOUBLE_LOSS, NO_SHOW)


class Outcome(msgspec.Struct, frozen=True):
    """A match's result as reported or corrected: games won by ``a`` and ``b`` and drawn, and its kind. A no-show
    names the ``absent`` player (they lose, 0-2, and are dropped); an intentional draw is 0-0-3 (MTR 2.4); a double
    loss is a match loss for both."""

    wins_a: int
    wins_b: int
    draws: int
    kind: str = GAMES
    absent: str = ""


class Act(msgspec.Struct, frozen=True, tag_field="act", kw_only=True):
    """One entry of an event's record; ``at`` the UTC time it was recorded (ISO 8601: informative, and the round
    clock's source)."""

    at: str


class Created(Act, frozen=True, tag="created"):
    config: EventConfig
    key: str  # the fingerprint of the key that signs the record and every game log
    key_files: dict[str, str]  # SHA-256 of event.pub and event.key as made: the folder's key files are checked by it


class Registered(Act, frozen=True, tag="registered"):
    player: Player
    deck_sha256: str  # of the deck list file copied into the folder (``player.deck_file``)
    missed: int = 0  # a late entry: the rounds paired before it, each a match loss (R-EVT-09)


class Dropped(Act, frozen=True, tag="dropped"):
    player: str
    after: int  # the last round they play (0: withdrew before round 1)
    reason: str = ""


class ByeAwarded(Act, frozen=True, tag="bye_awarded"):
    player: str
    round: int
    judge: str
    reason: str


class Paired(Act, frozen=True, tag="paired"):
    round: Round
    swiss_rounds: int = 0  # round 1 of an event created without --rounds: the number recommended for its field


class Unpaired(Act, frozen=True, tag="unpaired"):
    """A round's pairings withdrawn before it started, to be paired again (after a correction, say)."""

    round: int
    judge: str
    reason: str


class PairingChanged(Act, frozen=True, tag="pairing_changed"):
    round: int
    pairings: list[Pairing]  # the whole round as changed
    judge: str
    reason: str


class Reported(Act, frozen=True, tag="reported"):
    round: int
    table: int
    outcome: Outcome
    games: list[GameRecord] = []  # the games played at annals (their logs in the folder); none for a typed result
    ended: str = ""  # for played games: "games", "time", "seed" (see MatchRecord)
    advanced: str = ""  # a level cut match ("seed"): the higher seed, who advances


class Corrected(Act, frozen=True, tag="corrected"):
    round: int
    table: int
    outcome: Outcome
    judge: str
    reason: str


class Restated(Act, frozen=True, tag="restated"):
    """A reported match's games read again from their logs, after a judge's act on one of them changed its result (a
    game loss, an override, a game played on from a backup): its games and result as they now stand (R-EVT-07). The
    report stays in the record; the match is this act's from here on, and a correction recorded after it overrides
    it as one overrides a report."""

    round: int
    table: int
    outcome: Outcome
    games: list[GameRecord]
    ended: str  # "games", "time" or "seed" (see MatchRecord)
    advanced: str = ""  # a level cut match ("seed"): the higher seed, who advances
    judge: str = ""  # the judge whose act on a game changed it ("" for a game played on after a crash)
    reason: str = ""


class ClockStarted(Act, frozen=True, tag="clock_started"):
    round: int
    minutes: int


class ClockEnded(Act, frozen=True, tag="clock_ended"):
    round: int


class TimeExtended(Act, frozen=True, tag="time_extended"):
    round: int
    table: int
    minutes: int
    judge: str = ""
    reason: str = ""


class Renamed(Act, frozen=True, tag="renamed"):
    """A registered player's name as people read it, put right (a typo at registration); the id stays."""

    player: str
    name: str


class DeckHandedIn(Act, frozen=True, tag="deck_handed_in"):
    """A registered player's deck list handed in after registration: a list handed in late (deck lists optional) or
    one put right. The player's deck is this one from here on; a list it replaces stays in the folder, checked by
    its SHA-256 (R-EVT-15). A replacement names the judge and why; a first list need not."""

    player: str
    deck: DeckList
    deck_file: str  # the list copied into the event folder (relative path): a new file, never over the last one
    deck_sha256: str
    judge: str = ""
    reason: str = ""


class LogSetAside(Act, frozen=True, tag="log_set_aside"):
    """A game log cut short by a crash, moved under ``torn/`` and its game played again."""

    path: str
    sha256: str


AnyAct = (
    Created | Registered | Dropped | ByeAwarded | Paired | Unpaired | PairingChanged | Reported | Corrected
    | ClockStarted | ClockEnded | TimeExtended | LogSetAside | Restated | Renamed | DeckHandedIn
)  # fmt: skip
