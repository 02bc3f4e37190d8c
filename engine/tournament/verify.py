"""``annals event verify``: an event folder checked against its own record, every problem named.

What is checked, in order (integrity first: the later checks rest on the record):

1. the record (``event.log``): every frame's CRC, index and chain link, then every signature: each must hold,
   be by the event's key (the key named in the record's first act, which ``event.pub`` must be, byte for byte as
   made; ``event.key`` too), and the record must end with a signature (no unsigned act);
2. every registered deck list: the file is there, its SHA-256 is the one registered, it is a legal deck of the
   ruleset, and it reads back to the deck recorded;
3. every game a match was played with: its log is there, whole (chain, closing record and counts as
   ``read_log`` checks them), signed by the event's key, its digest the one reported, its header naming this event,
   the match's round, table, game number and players, and its result the one reported; the match's totals are its
   games'; ``--replay`` also re-runs each game's decisions (``engine.replay``);
4. every file in the folder is one of these (or a torn log set aside and recorded by its SHA-256): anything else
   is named as not part of the record.

Integrity and authorship: the chain finds damage; the signatures, made with the private key, find an edit that was
re-chained. Whoever holds ``event.key`` can write a new record; pass ``--key`` with the organiser's published
public key to check who signed it.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import msgspec

from annals.engine.decks import parse_deck_list
from annals.engine.tournament.record import EventError, EventState, fold
from annals.engine.tournament.store import DESK_TOKEN_FILE, EVENT_FILE, PUBLIC_KEY_FILE, EventStore
from annals.schemas.commandline import quoted
from annals.schemas.errors import AnnalsError
from annals.schemas.event import GameRecord, Player, Reported, Restated
from annals.schemas.eventlog import frame_links, read_event_log, signature_problems
from annals.schemas.header import DeckList
from annals.schemas.keys import EVENT_KEY_NAME, PublicKey, load_public_key
from annals.schemas.logfile import KIND_JUDGE, KIND_SIGNATURE, read_log
from annals.schemas.signing import verify_signature

Report = Callable[[str, str], None]  # (file relative to the folder, what is wrong with it)


class EventRecordError(EventError):
    """An event folder fails ``annals event verify``: the message names the first problem."""


class Problem(msgspec.Struct, frozen=True):
    path: str  # relative to the event folder
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


class Verdict(msgspec.Struct):
    ok: bool
    problems: list[Problem]
    acts: int = 0
    signatures: int = 0
    games: int = 0
    decks: int = 0
    signer: str = ""


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def verify_event(
    folder: Path, *, trusted: PublicKey | None = None, replay: bool = False, record_only: bool = False
) -> Verdict:
    """Check the event folder against its record; every problem found, by file. ``record_only``: the record, its
    signatures and the key files only (step 1 above)."""
    folder = Path(folder)
    problems: list[Problem] = []

    def problem(path: str, message: str) -> None:
        problems.append(Problem(path, message))

    record_path = folder / EVENT_FILE
    if not record_path.is_file():
        return Verdict(False, [Problem(EVENT_FILE, "missing: this is no event folder, or its record was deleted")])
    raw = record_path.read_bytes()
    try:
        record = read_event_log(record_path, raw)
        state = fold(record.acts)
    except AnnalsError as exc:
        return Verdict(False, [Problem(EVENT_FILE, str(exc))])
    verdict = Verdict(True, problems, len(record.acts), len(record.signatures), signer=state.key)
    known: set[str] = {EVENT_FILE, DESK_TOKEN_FILE}  # the desk's token: the server's, beside the record
    key = _event_key(folder, state, trusted, problem, known)
    if key is not None:
        for message in signature_problems(raw, record, state.config.event_id, key):
            problem(EVENT_FILE, message)
    if record_only:
        verdict.ok = not problems
        return verdict
    verdict.decks = _decks(folder, state, problem, known)
    verdict.games = _games(folder, state, key, replay, problem, known)
    for aside in state.set_aside:
        known.add(aside.path)
        path = folder / aside.path
        if not path.is_file():
            problem(aside.path, "missing: a torn log set aside is part of the record")
        elif _sha(path) != aside.sha256:
            problem(aside.path, "its SHA-256 is not the one recorded when it was set aside: edited")
    for path in sorted(folder.rglob("*")):
        rel = str(path.relative_to(folder))
        if path.is_file() and rel not in known:
            problem(rel, _unknown(state, rel))
        elif path.is_symlink():
            problem(rel, "a symbolic link: the record holds files only")
    verdict.ok = not problems
    return verdict


def _unknown(state: EventState, rel: str) -> str:
    """Why a file is not part of the record: a game log of a match still without a result says so."""
    found = re.fullmatch(r"logs/round-(\d+)/table-(\d+)-game-\d+\.log", rel)
    if found:
        number, table = int(found.group(1)), int(found.group(2))
        if number == len(state.rounds) and any(p.table == table for p in state.open_tables(number)):
            return (f"a game of round {number} table {table}, whose match has no result yet (being played, or cut "
                    "short: 'annals event run' finishes it)")  # fmt: skip
    return "not part of the event's record (added, or a file of the record renamed)"


def _event_key(folder: Path, state: EventState, trusted: PublicKey | None, report: Report,
               known: set[str]) -> PublicKey | None:  # fmt: skip
    known.update((PUBLIC_KEY_FILE, EVENT_KEY_NAME))
    for name, digest in state.key_files.items():
        path = folder / name
        if not path.is_file():
            if name != EVENT_KEY_NAME:  # the private key may be kept elsewhere: the record does not need it
                report(name, "missing: the event's public key file")
        elif _sha(path) != digest:
            report(name, "not the key file made with the event (its SHA-256 differs from the one recorded)")
    if trusted is not None:
        if trusted.fingerprint != state.key:
            report(EVENT_FILE, f"the record is the work of key {state.key}, not of the trusted key "
                   f"{trusted.fingerprint}")  # fmt: skip
            return None
        return trusted
    try:
        public = load_public_key(folder / PUBLIC_KEY_FILE)
    except AnnalsError as exc:
        report(PUBLIC_KEY_FILE, str(exc))
        return None
    if public.fingerprint != state.key:
        report(PUBLIC_KEY_FILE, f"holds key {public.fingerprint}, but the record names key {state.key}")
        return None
    return public


def _deck_change(data: bytes, state: EventState, p: Player, recorded: DeckList) -> str:
    """How an edited list differs from the deck ``recorded`` at registration (the record holds every card): the
    cards whose count changed, the leader, the deck's name; or that it no longer reads; "" when only comments
    changed."""
    try:
        deck = parse_deck_list(data.decode(), state.config.ruleset, where=p.deck_file, default_name=recorded.name)
    except (AnnalsError, UnicodeDecodeError):
        return "; it no longer reads as a legal deck list"
    was, now = Counter(recorded.cards), Counter(deck.cards)
    changes = [f"{card} {was[card]} -> {now[card]}" for card in sorted(was | now) if was[card] != now[card]]
    if deck.leader != recorded.leader:
        changes.append(f"leader {recorded.leader} -> {deck.leader}")
    if deck.name != recorded.name:
        changes.append(f"name {recorded.name!r} -> {deck.name!r}")
    return f"; changed since registration: {', '.join(changes)}" if changes else "; only its comments or layout"


def _decks(folder: Path, state: EventState, report: Report, known: set[str]) -> int:
    names = state.names()  # "Tom Smith (tom2)" where two share a name
    for reg in state.registered.values():
        p = msgspec.structs.replace(reg.player, name=names[reg.player.id])
        if p.deck is None:  # registered without a list (the event's deck lists are optional): nothing to check
            continue
        known.add(p.deck_file)
        path = folder / p.deck_file
        if not path.is_file():
            report(p.deck_file, f"missing: {p.name}'s registered deck list")
            continue
        data = path.read_bytes()
        if hashlib.sha256(data).hexdigest() != reg.deck_sha256:
            changed = _deck_change(data, state, p, p.deck)
            report(p.deck_file, f"{p.name}'s deck list is not the one registered (its SHA-256 differs){changed}")
            continue
        try:
            deck = parse_deck_list(data.decode(), state.config.ruleset, where=p.deck_file, default_name=p.deck_name)
        except AnnalsError as exc:
            report(p.deck_file, f"not a legal deck: {exc}")
            continue
        if deck != p.deck:
            report(p.deck_file, f"reads as a deck other than the one recorded for {p.name}")
    for rel, sha in state.replaced_lists:  # a list handed in over: kept, as the record had it (R-EVT-15)
        known.add(rel)
        path = folder / rel
        if not path.is_file():
            report(rel, "missing: a deck list replaced by one handed in later is part of the record")
        elif _sha(path) != sha:
            report(rel, "a deck list replaced by one handed in later: its SHA-256 is not the one recorded: edited")
    return sum(reg.player.deck is not None for reg in state.registered.values())


def _games(folder: Path, state: EventState, key: PublicKey | None, replay: bool, report: Report,
           known: set[str]) -> int:  # fmt: skip
    players = {p.id: p for p in state.players()}
    count = 0
    for (number, table), match in sorted(state.results.items()):
        rep: Reported | Restated = match.current
        if not rep.games:
            continue
        pairing = state.pairing(number, table)
        where = f"round {number} table {table}"
        wins = {pairing.a: 0, pairing.b: 0}
        draws = 0
        for k, g in enumerate(rep.games, start=1):
            count += 1
            known.add(g.log)
            if g.number != k:
                report(EVENT_FILE, f"{where}: the record lists game {g.number} as game {k}")
            if g.winner:
                wins[g.winner] = wins.get(g.winner, 0) + 1
            else:
                draws += 1
            _game(folder, state, g, number, table, players, key, replay, report)
        o = rep.outcome
        if (wins.get(pairing.a, 0), wins.get(pairing.b, 0), draws) != (o.wins_a, o.wins_b, o.draws):
            report(EVENT_FILE, f"{where}: the result reported, {o.wins_a}-{o.wins_b}-{o.draws}, is not its games' "
                   f"{wins.get(pairing.a, 0)}-{wins.get(pairing.b, 0)}-{draws}")  # fmt: skip
    return count


def _game(folder: Path, state: EventState, g: GameRecord, number: int, table: int, players: dict[str, Player],
          key: PublicKey | None, replay: bool, report: Report) -> None:  # fmt: skip
    """One game's log against its record; a judge's frames appended after the report are allowed (a warning, or a
    game loss the event then records as a restatement of the match, or a correction: a changed result needs one)."""
    corrected = state.results[(number, table)].correction is not None
    path = folder / g.log
    label = f"game {g.number} of round {number} table {table}"
    if not path.is_file():
        report(g.log, f"missing: the log of {label}")
        return
    try:
        log = read_log(path)
    except AnnalsError as exc:
        report(g.log, f"{label}: {exc}")
        return
    if key is not None:
        signed = verify_signature(path, key)
        if not signed.ok:
            report(g.log, f"{label}: {signed.message}")
    if log.digest != g.digest:
        links = frame_links(path.read_bytes())
        at = next((i for i, (_, link) in enumerate(links) if link == g.digest), None)
        if at is None:
            report(g.log, f"{label}: the log is not the one reported (its chain never reaches the reported digest: "
                   "another log, or edited and re-signed)")  # fmt: skip
        elif any(kind not in (KIND_JUDGE, KIND_SIGNATURE) for kind, _ in links[at + 1 :]):
            report(g.log, f"{label}: game frames were appended after the match was reported")
    info = log.header.tournament
    want = (state.config.event_id, number, table, g.number, tuple(g.seats))
    got = None if info is None else (info.event, info.round, info.table, info.game, tuple(info.player_ids))
    if got != want:
        report(g.log, f"{label}: the log is of {_describe(got)}, not {_describe(want)} (logs swapped or moved)")
    if log.header.game_id != g.game_id:
        report(g.log, f"{label}: game id {log.header.game_id} is not the reported {g.game_id}")
    decks = [players[s].deck for s in g.seats if s in players]
    if log.header.decks != decks:
        report(g.log, f"{label}: the decks in the log are not the players' registered decks")
    winner_seat, _ = log.result
    winner = g.seats[winner_seat] if 0 <= winner_seat < len(g.seats) else ""
    if winner != g.winner and not corrected:
        report(g.log, f"{label}: the log's winner is {winner or 'nobody (a draw)'}, the record says "
               f"{g.winner or 'a draw'}, and no restatement or correction of the match records the change "
               "(a judge's act in the event's folder records one)")  # fmt: skip
    if replay:
        from annals.engine.replay import verify_game

        try:
            verify_game(log, path)
        except AnnalsError as exc:
            report(g.log, f"{label}: replay: {exc}")


def _describe(t: tuple[str, int, int, int, tuple[str, ...]] | None) -> str:
    if t is None:
        return "no event (no tournament metadata)"
    event, number, table, game, seats = t
    return f"event {event} round {number} table {table} game {game} ({' v '.join(seats)})"


def require_verified(store: EventStore) -> None:
    """Refuse an event that fails ``verify_event`` (standings, ingest and export call it), naming the problem."""
    verdict = verify_event(store.folder)
    if not verdict.ok:
        first = verdict.problems[0]
        more = f" (and {len(verdict.problems) - 1} more)" if len(verdict.problems) > 1 else ""
        raise EventRecordError(f"event {store.folder} fails verification: {first}{more}; "
                               f"'annals event verify {quoted(store.folder)}' lists every problem")  # fmt: skip


def require_decks(store: EventStore) -> None:
    """Refuse to play on an event whose registered deck lists are not all there as registered (step 2 above): the
    games would be played and the event then fail verification. ``event run`` calls it before it changes anything."""
    problems: list[Problem] = []
    _decks(store.folder, store.state(), lambda path, message: problems.append(Problem(path, message)), set())
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise EventRecordError(f"event {store.folder}: {problems[0]}{more}; put the registered deck list back in "
                               f"the folder (from a copy: the record holds its SHA-256) before playing; "
                               f"'annals event verify {quoted(store.folder)}' lists every problem")  # fmt: skip
