"""An event from registration to final placings: the library behind ``annals event``.

Every function here reads the event's state folded from its record, checks what is asked against it, and records
the act (``EventStore.acting``); a refusal changes nothing. The round loop is ``rounds.py`` (pair, results,
corrections, the clock); ``play.py`` plays a round's matches with bots through the same steps.

Registration, drops and byes (R-EVT-08, R-EVT-09, R-EVT-11):

* a player registers before round 1 or, as a late entry, while Swiss rounds remain to be paired: each round
  paired before the entry is a match loss for them, as the MTR treats a late entrant, 0-2 in games, with no
  opponent (R-EVT-09);
* a drop takes effect after the round paired last (the player plays it out); a drop before round 1 is a
  withdrawal (the player is no entrant); a drop is refused once the top cut has begun or the event has ended;
* an awarded bye is given by a judge for a round not yet paired: the player is left out of that round's pairing
  and has a bye (a 2-0 match win), as the odd player's bye.
"""

from __future__ import annotations

import os
import re
import tempfile
import unicodedata
from collections.abc import Iterable
from pathlib import Path

from annals.engine.decks import MAX_DECK_BYTES, read_deck_list
from annals.engine.registry import get_ruleset
from annals.engine.simulate import check_max_turns, check_seed
from annals.engine.tournament.record import EventArgumentError, EventError, EventState
from annals.engine.tournament.standings import Result, Standing, standings
from annals.engine.tournament.store import EventStore, new_event_id, now, sha256_file
from annals.schemas.errors import did_you_mean
from annals.schemas.event import (
    DOUBLE_LOSS,
    OPTIONAL,
    REQUIRED,
    SWISS,
    TOP,
    ByeAwarded,
    Dropped,
    EventConfig,
    MatchRecord,
    Player,
    Registered,
    Renamed,
)
from annals.schemas.inputs import read_text
from annals.schemas.names import name_problem

_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
# Far past any event people run (the Swiss chart's largest field plays 10 rounds and a top 8), and within what
# the record holds: a number beyond 64 bits crashed writing the record, leaving a folder with a key and no event.
MAX_ROUNDS = 100
MAX_BEST_OF = 99
MAX_TOP = 1024
MAX_FIELD = 4096  # players bots may fill a field up to (the chart's largest row is 410 and more)


def event_slug(name: str) -> str:
    """The event id's stem from its name as people read it ("Thursday Club, Łódź" -> "Thursday-Club-Lodz"): the
    id goes into every game log's header and file names, so it keeps to letters, digits, '-', '_' and '.'."""
    return name if _ID.match(name) else _ascii_slug(name)[:64] or "event"


# Latin letters that are no accented letter, so that NFKD leaves them whole (and "ignore" would drop them); and
# apostrophes, which join a name's parts ("O'Neil" is oneil, not o-neil)
_LATIN = str.maketrans({"Æ": "AE", "æ": "ae", "Ø": "O", "ø": "o", "Œ": "OE", "œ": "oe", "Ł": "L", "ł": "l",
                        "ß": "ss", "Đ": "D", "đ": "d", "Ð": "D", "ð": "d", "Þ": "Th", "þ": "th", "ı": "i",
                        "'": "", "’": ""})  # fmt: skip


def _ascii_slug(text: str) -> str:
    """Letters and digits of ``text`` without their accents, runs of anything else as one '-'."""
    plain = unicodedata.normalize("NFKD", text.translate(_LATIN))
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", plain.encode("ascii", "ignore").decode()).strip("-_.")


def free_id(state: EventState, name: str) -> str:
    """An id for a player registered without one: their name in plain lower-case letters ("José María" ->
    "jose-maria"), numbered when taken ("tom-smith-2"); "player-N" for a name with no Latin letters."""
    stem = _ascii_slug(name).lower()[:32].strip("-_.") or f"player-{len(state.registered) + 1}"
    pid, n = stem, 1
    while pid in state.registered:
        n += 1
        pid = f"{stem}-{n}"
    return pid


def new_event(
    folder: Path,
    name: str,
    ruleset: str,
    *,
    rounds: int = 0,
    best_of: int = 3,
    top: int = 0,
    seed: int | None = None,
    max_turns: int | None = None,
    agent: str = "heuristic",
    deck_lists: str = REQUIRED,
) -> EventConfig:
    rs = get_ruleset(ruleset)
    if deck_lists not in (REQUIRED, OPTIONAL):
        raise EventArgumentError(f"--deck-lists {deck_lists!r}: give {REQUIRED} or {OPTIONAL}")
    if best_of < 1 or best_of % 2 == 0 or best_of > MAX_BEST_OF:
        raise EventArgumentError(
            f"--best-of {best_of}: a match is best of an odd number of games (1, 3, 5, ... {MAX_BEST_OF})"
        )
    if top and (top < 2 or top & (top - 1) or top > MAX_TOP):
        raise EventArgumentError(
            f"--top {top}: a single-elimination cut is a power of two (2, 4, 8, ... {MAX_TOP}), or 0 for none"
        )
    if not 0 <= rounds <= MAX_ROUNDS:
        raise EventArgumentError(
            f"--rounds {rounds}: give a number of Swiss rounds up to {MAX_ROUNDS}, or 0 to have it recommended"
        )
    if seed is not None:  # checked before the folder and key are made: a refusal leaves nothing behind
        check_seed(seed)
    if max_turns is not None:
        check_max_turns(max_turns)
    if agent not in rs.agents():
        raise EventArgumentError(_unknown_bot(agent, rs.agents()))
    name = " ".join(name.split())
    if not name:
        raise EventArgumentError("an event needs a name: give --name (or a folder with a name)")
    if problem := name_problem(name, "event name"):  # shown on the wall, the desk and the public page
        raise EventArgumentError(problem)
    seed = int.from_bytes(os.urandom(8), "big") >> 1 if seed is None else seed
    cap = rs.default_max_turns if max_turns is None else max_turns
    config = EventConfig(name, new_event_id(event_slug(name)), ruleset, rounds, best_of, top, seed, cap, agent,
                         deck_lists=deck_lists)  # fmt: skip
    EventStore.create(folder, config)
    return config


def _unknown_bot(agent: str, bots: Iterable[str]) -> str:
    """A misspelt bot in words, the closest named as everywhere else a bot is chosen (``did_you_mean``)."""
    names = sorted(bots)
    return f"unknown bot {agent!r};{did_you_mean(agent, names)} choose from: {', '.join(names)}"


# ---------------------------------------------------------------------------------------------- registration


def _registration(store: EventStore, state: EventState, player_id: str, name: str, deck_file: Path | None,
                  agent: str) -> Registered:  # fmt: skip
    config = state.config
    player_id = player_id or free_id(state, player_name(name))
    if not _ID.match(player_id):
        raise EventArgumentError(f"player id {player_id!r}: use letters, digits, '-', '_' or '.' (up to 64)")
    name = player_name(name)
    bots = get_ruleset(config.ruleset).agents()
    if agent and agent not in bots:
        raise EventArgumentError(_unknown_bot(agent, bots))
    if player_id in state.registered:
        raise EventError(f"player id {player_id!r} is already registered; choose another id")
    if state.rounds and state.rounds[-1].round.stage == TOP:
        raise EventError("registration is closed: the top cut has begun")
    if state.rounds and len(state.rounds) >= config.rounds:
        raise EventError(f"registration is closed: all {config.rounds} Swiss rounds are paired")
    if deck_file is None:
        if config.deck_lists != OPTIONAL:
            raise EventArgumentError(f"{name}: this event's deck lists are required: give --deck FILE (see "
                                     "docs/deck-lists.md), or make the event with --deck-lists optional")  # fmt: skip
        if agent:
            raise EventArgumentError(f"{name}: a bot plays its games through annals, which needs a deck list: "
                                     "give --deck FILE")  # fmt: skip
        return Registered(at=now(), player=Player(player_id, name, None, "", agent), deck_sha256="",
                          missed=len(state.rounds))  # fmt: skip
    deck = read_deck_list(deck_file, config.ruleset)
    rel = store.save_deck_text(player_id, read_text(deck_file, what="deck list", max_bytes=MAX_DECK_BYTES))
    digest = sha256_file(store.folder / rel)
    player = Player(player_id, name, deck, rel, agent)
    return Registered(at=now(), player=player, deck_sha256=digest, missed=len(state.rounds))


def player_name(name: str) -> str:
    """A player's name as typed, spaces tidied; refused when empty, too long or holding a control character."""
    if not name.strip():
        raise EventArgumentError("a player needs a name: give --name")
    name = " ".join(name.split())
    if problem := name_problem(name, "player name"):  # the server's bound, so a registered player can sit there
        raise EventArgumentError(problem)
    return name


def sharing_name(store: EventStore, player_id: str) -> list[str]:
    """The other players registered under the same name as ``player_id`` (any case): the organiser is told, and the
    pairings show each with their id."""
    state = store.state()
    name = state.player(player_id).name.casefold()
    return [p.id for p in state.players() if p.id != player_id and p.name.casefold() == name]


def rename(store: EventStore, player_id: str, name: str) -> tuple[str, str]:
    """Put a player's name right (a typo at registration), at any time: the id, the deck and every result stay;
    the record keeps the old name in the registration and the new one in its own act. Returns (old, new)."""
    with store.acting() as act:
        old = act.state.player(player_id).name
        new = player_name(name)
        if new == old:
            raise EventArgumentError(f"{player_id!r} is already named {old!r}: nothing to change")
        act.record(Renamed(at=now(), player=player_id, name=new))
    return old, new


def register(store: EventStore, player_id: str, name: str, deck_file: Path | None, *, agent: str = "") -> Player:
    """Register a player with a deck list file (validated, every problem listed), or without one where the event's
    lists are optional (R-EVT-14); after round 1 is paired, as a late entry with a match loss for each round paired
    before (R-EVT-09). A person plays with no bot."""
    with store.acting() as act:
        reg = _registration(store, act.state, player_id, name, deck_file, agent)
        act.record(reg)
    return reg.player


def missed_rounds(store: EventStore, player_id: str) -> int:
    return store.state().registered[player_id].missed


def drop(store: EventStore, player_id: str, *, reason: str = "") -> Player:
    """Drop a player after the round paired last (they play it out); before round 1 they withdraw."""
    with store.acting() as act:
        state = act.state
        player = state.player(player_id)
        if player.dropped_after >= 0:
            raise EventError(f"player {player_id!r} already dropped after round {player.dropped_after}")
        if state.finished():
            raise EventError(f"the event has ended: {player.name} cannot drop from it")
        if state.rounds and state.rounds[-1].round.stage == TOP:
            raise EventError(f"the top cut has begun: {player.name} concedes their match instead (enter its result)")
        act.record(Dropped(at=now(), player=player_id, after=len(state.rounds), reason=reason))
    return store.state().player(player_id)


def award_bye(store: EventStore, player_id: str, number: int, *, judge: str, reason: str) -> ByeAwarded:
    """A judge awards a player a bye in a Swiss round not yet paired."""
    need_judge(judge, reason)
    with store.acting() as act:
        state = act.state
        player = state.player(player_id)
        if number <= len(state.rounds):
            raise EventError(f"round {number} is already paired: a bye is awarded before its round is paired")
        if state.config.rounds and number > state.config.rounds:
            raise EventError(f"round {number} is not a Swiss round (the event has {state.config.rounds})")
        if player.dropped_after >= 0:
            raise EventError(f"{player.name} has dropped: no bye for them")
        if player_id in state.awarded.get(number, {}):
            raise EventError(f"{player.name} already has a bye in round {number}")
        bye = ByeAwarded(at=now(), player=player_id, round=number, judge=judge.strip(), reason=reason.strip())
        act.record(bye)
    return bye


def need_judge(judge: str, reason: str) -> None:
    """A judge's act names the judge and says why (a usage error otherwise)."""
    if not judge.strip() or not reason.strip():
        raise EventArgumentError("a judge's act needs the judge's name and the reason: give --judge and --reason")


def active(player: Player, round_number: int) -> bool:
    return player.dropped_after < 0 or player.dropped_after >= round_number


# ---------------------------------------------------------------------------------------------- standings


def effective(m: MatchRecord) -> Result:
    """A match's result as standings see it: the last correction's when there is one, else the report's."""
    o = m.override
    if o is None:
        return Result(m.a, m.b, m.wins_a, m.wins_b, m.draws, m.winner, double_loss=m.ended == DOUBLE_LOSS)
    if o.kind == DOUBLE_LOSS:
        return Result(m.a, m.b, o.wins_a, o.wins_b, o.draws, "", double_loss=True)
    winner = m.a if o.wins_a > o.wins_b else m.b if o.wins_b > o.wins_a else ""
    return Result(m.a, m.b, o.wins_a, o.wins_b, o.draws, winner)


def results(matches: list[MatchRecord], stage: str = SWISS) -> list[Result]:
    return [effective(m) for m in matches if m.stage == stage]


def swiss_results(state: EventState) -> list[Result]:
    """Every Swiss result: the matches', and a match loss for each round a late entrant missed."""
    out = results(state.matches())
    for pid, reg in state.registered.items():
        out += [Result(pid, "", 0, 2, 0, "", missed=True)] * reg.missed
    return out


def entrants(players: list[Player]) -> int:
    """Players who did not withdraw before round 1."""
    return sum(1 for p in players if p.dropped_after != 0)


def state_standings(state: EventState) -> list[Standing]:
    field = [p.id for p in state.players() if p.dropped_after != 0]
    return standings(field, swiss_results(state), state.config.seed)


def current_standings(store: EventStore) -> list[Standing]:
    """Every entrant (a player who withdrew before round 1 is none), dropped players included."""
    return state_standings(store.state())


def placings(store: EventStore) -> list[tuple[int, str]]:
    """Places at any time: the cut by how far each went (losers of a round by their Swiss rank; players still in
    it by their seed), then the rest by Swiss standings."""
    state = store.state()
    swiss = [s.player for s in state_standings(state)]
    rank = {p: i for i, p in enumerate(swiss)}
    top_rounds = [r.round for r in state.rounds if r.round.stage == TOP]
    if not top_rounds:
        return [(i + 1, p) for i, p in enumerate(swiss)]
    out: list[str] = []
    last = top_rounds[-1]
    decided = [state.match(last.number, p.table) for p in last.pairings]
    if all(decided):
        if len(last.pairings) == 1 and decided[0] is not None:
            out.append(effective(decided[0]).winner)
    else:  # the round under way: everyone still in it, by seed
        out += sorted((x for p in last.pairings for x in (p.a, p.b)), key=rank.__getitem__)
    for r in reversed(top_rounds):
        ms = [state.match(r.number, p.table) for p in r.pairings]
        if not all(ms):
            continue
        losers = []
        for m in ms:
            assert m is not None
            w = effective(m).winner
            losers.append(m.b if w == m.a else m.a)
        out += sorted((x for x in losers if x not in out), key=rank.__getitem__)
    out += [p for p in swiss if p not in set(out)]
    return [(i + 1, p) for i, p in enumerate(out)]


def fill_with_bots(store: EventStore, count: int, *, decks: list[str] | None = None) -> list[Player]:
    """Register ``count`` bot players (``bot-001``, ...) with the ruleset's shipped decks in turn, each through a
    deck list file like anyone's (copied under ``decks/`` as every list is); for simulated events. Only before
    round 1."""
    from annals.engine.decks import write_deck_list

    if count + len(store.players()) > MAX_FIELD:  # each is a deck list written: 10**23 of them ran until killed
        raise EventArgumentError(f"--fill: bots fill a field of at most {MAX_FIELD} players, not {count} more")
    with store.acting() as act:
        state = act.state
        if state.rounds:
            raise EventError("bots fill a field before round 1 is paired; round 1 is paired")
        config = state.config
        shipped = get_ruleset(config.ruleset).decks()
        names = decks or sorted(shipped)
        unknown = [n for n in names if n not in shipped]
        if unknown:
            raise EventArgumentError(f"unknown deck {unknown[0]!r}; choose from: {', '.join(sorted(shipped))}")
        added: list[Player] = []
        k = 0
        with tempfile.TemporaryDirectory() as scratch:  # each list goes through a file, like anyone's
            while len(added) < count:
                k += 1
                pid = f"bot-{k:03d}"
                if pid in state.registered:
                    continue
                deck = shipped[names[len(added) % len(names)]]
                source = Path(scratch) / f"{deck.name}.txt"
                source.write_text(write_deck_list(deck, config.ruleset), encoding="utf-8")
                reg = _registration(store, state, pid, f"Bot {k}", source, "")
                act.record(reg)
                added.append(reg.player)
    return added


def resolve_player(store: EventStore, who: str) -> str:
    """A player's id from what the organiser typed: their id, or their name (any case, spaces as typed) when one
    player has it."""
    state = store.state()
    if who in state.registered:
        return who
    wanted = " ".join(who.split()).casefold()
    found = [pid for pid, reg in state.registered.items() if reg.player.name.casefold() == wanted]
    if len(found) == 1:
        return found[0]
    if found:
        raise EventArgumentError(f"{who!r} is the name of {len(found)} players ({', '.join(found)}): give the id")
    raise EventArgumentError(f"no player {who!r} in this event (neither an id nor a name); 'annals event players "
                             f"{store.typed}' lists them")  # fmt: skip
