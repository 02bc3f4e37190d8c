"""A deck list handed in after registration (ruling R-EVT-15): ``annals event deck``.

A player registered without a list (an event whose lists are optional) hands one in late, or a list registered
by mistake (the wrong file) is put right. Either is a ``DeckHandedIn`` act of the record, signed like every other;
the list is checked as at registration and copied into the folder under a new name, so that a list it replaces
stays there, checked by ``event verify`` against its SHA-256 as the record has it.

A player's games through annals are played with their list as it stands when each game begins; their logs name
that list, and ``event verify`` holds every game to its player's list. So a list is refused, by name, once the
player has a game through annals (recorded, or a log under way in the folder): from then on a list found wrong is
a judge's matter over the games played, not an edit of the record.
"""

from __future__ import annotations

from pathlib import Path

from annals.engine.decks import MAX_DECK_BYTES, read_deck_list
from annals.engine.names import plural
from annals.engine.tournament.record import EventArgumentError, EventError, EventState
from annals.engine.tournament.store import EventStore, atomic_write, now, sha256_file
from annals.schemas.event import DeckHandedIn, Reported, Restated
from annals.schemas.inputs import read_text


def played_through_annals(store: EventStore, state: EventState, player_id: str) -> list[str]:
    """Where ``player_id`` has played a game through annals: each match with game logs in the record ("round 2
    table 1: 3 games"), and a match under way whose logs are in the folder but not yet reported."""
    where = []
    for (number, table), match in sorted(state.results.items()):
        reports: list[Reported | Restated] = [match.reported, *match.restated]
        games = [g for m in reports for g in m.games if player_id in g.seats]
        if games:
            where.append(f"round {number} table {table}: {plural(len({g.log for g in games}), 'game')}")
    if state.rounds:
        number = len(state.rounds)
        for pairing in state.open_tables(number):
            if player_id in (pairing.a, pairing.b) and store.log_path(number, pairing.table, 1).exists():
                where.append(f"round {number} table {pairing.table}: a game under way")
    return where


def hand_in(store: EventStore, player_id: str, deck_file: Path, *, judge: str = "", reason: str = "") -> DeckHandedIn:
    """Record ``deck_file`` as the player's deck list (checked as at registration, every problem with its line). A
    first list needs no judge; a list replacing one names the judge and why. Refused once the player has played a
    game through annals: its log holds the list it was played with."""
    with store.acting() as act:
        state = act.state
        player = state.player(player_id)
        deck = read_deck_list(deck_file, state.config.ruleset)
        played = played_through_annals(store, state, player_id)
        if played:
            raise EventError(f"{player.name} ({player.id}) has played through annals with {player.deck_name!r} "
                             f"({'; '.join(played)}): those games' logs hold that list, so it stays; a list found "
                             "wrong after games is a judge's ruling on them (docs/judge.md)")  # fmt: skip
        if player.deck is not None:
            if deck == player.deck:
                raise EventArgumentError(f"{player.name} ({player.id}) already plays this list ({deck.name!r}, "
                                         f"{player.deck_file}): nothing to change")  # fmt: skip
            if not judge.strip() or not reason.strip():
                raise EventArgumentError(f"{player.name} ({player.id}) already has a list ({player.deck_name!r}); "
                                         "replacing it is a judge's act: give --judge NAME --reason WHY")  # fmt: skip
        text = read_text(deck_file, what="deck list", max_bytes=MAX_DECK_BYTES)
        path = _free_deck_path(store, state, player_id)
        atomic_write(path, text.encode())
        rel = str(path.relative_to(store.folder))
        handed = DeckHandedIn(at=now(), player=player_id, deck=deck, deck_file=rel, deck_sha256=sha256_file(path),
                              judge=judge.strip(), reason=reason.strip())  # fmt: skip
        act.record(handed)
    return handed


def _free_deck_path(store: EventStore, state: EventState, player_id: str) -> Path:
    """Where a list handed in goes: ``decks/ID.txt`` for a player's first list, then ``decks/ID/list-N.txt`` (a
    folder: no other player's id can reach it), never over a file the record names."""
    taken = {reg.player.deck_file for reg in state.registered.values()} | {f for f, _ in state.replaced_lists}
    first = store.deck_path(player_id)
    if str(first.relative_to(store.folder)) not in taken and not first.exists():
        return first
    n = 2
    while True:
        path = store.folder / "decks" / player_id / f"list-{n}.txt"
        if str(path.relative_to(store.folder)) not in taken and not path.exists():
            return path
        n += 1


__all__ = ["hand_in", "played_through_annals"]
