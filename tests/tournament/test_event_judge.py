"""A judge at an event names people, not seats; inside the event's folder the log is re-signed with the event's
key without ``--key``; a judge's game loss reaches the match, in the event's record, and the standings (R-EVT-07)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from annals.cli.main import app
from annals.engine.judge import JudgeError, seat_named
from annals.engine.tournament import event as lib
from annals.engine.tournament import play
from annals.engine.tournament import rounds as loop
from annals.engine.tournament.store import EventStore
from annals.engine.tournament.verify import verify_event
from annals.schemas.event import INTENTIONAL_DRAW, MatchRecord, Outcome, Restated
from annals.schemas.eventlog import read_event_log
from annals.schemas.logfile import read_log

runner = CliRunner()


@pytest.fixture
def event(tmp_path: Path) -> EventStore:
    """A finished one-round MORANA event of 4 players, best of 3."""
    folder = tmp_path / "spring"
    made = runner.invoke(app, ["event", "new", str(folder), "--ruleset", "morana", "--rounds", "1", "--seed", "5",
                               "--max-turns", "30"])  # fmt: skip
    assert made.exit_code == 0, made.output
    store = EventStore.open(folder)
    lib.fill_with_bots(store, 4)
    play.run_event(store)
    return store


def _decided(store: EventStore) -> MatchRecord:
    return next(m for m in store.matches() if m.winner and m.b)


def test_a_judge_names_the_player_and_the_log_is_signed_with_the_events_key_found_by_itself(event: EventStore) -> None:
    match = _decided(event)
    game = match.games[0]
    log = event.folder / game.log
    seat = 1
    person = next(p for p in event.players() if p.id == game.seats[seat])
    done = runner.invoke(app, ["judge", "warn", str(log), "--judge", "R. Vance", "--player", person.name,
                               "--reason", "slow play"])  # fmt: skip
    assert done.exit_code == 0, done.output
    assert f"warning to {person.name} (p{seat}) by judge R. Vance: slow play" in done.output
    assert "re-signed with the event's key (found in the event's folder)" in done.output
    checked = runner.invoke(app, ["verify", str(log), "--key", str(event.public_key_path)])
    assert checked.exit_code == 0, checked.output
    by_id = runner.invoke(app, ["judge", "note", str(log), "--judge", "R. Vance", "--note", "deck check"])
    assert by_id.exit_code == 0
    assert [j.record.player for j in read_log(log).judged] == [seat, -1]


def test_an_unknown_player_is_refused_with_the_people_of_the_game(event: EventStore) -> None:
    log = event.folder / _decided(event).games[0].log
    before = log.read_bytes()
    done = runner.invoke(app, ["judge", "warn", str(log), "--judge", "R. Vance", "--player", "Nobody",
                               "--reason", "slow play"])  # fmt: skip
    assert done.exit_code == 1
    assert "no player 'Nobody' in this game; name one of" in done.output and "(id " in done.output
    assert log.read_bytes() == before


def test_seat_named_takes_an_id_a_name_a_seat_or_a_seat_number(event: EventStore) -> None:
    game = _decided(event).games[0]
    header = read_log(event.folder / game.log).header
    names = [info.name for info in header.players]
    for seat in (0, 1):
        assert seat_named(header, game.seats[seat]) == seat
        assert seat_named(header, names[seat].upper()) == seat
        assert seat_named(header, f"p{seat}") == seat == seat_named(header, str(seat))
    with pytest.raises(JudgeError, match="give the seat p0 to p1"):
        seat_named(header, "p2")


def test_a_judges_game_loss_reaches_the_match_and_the_standings(event: EventStore) -> None:
    """[R-EVT-07] The match's winner gets a game loss in a game they won: the match counts that game for the
    other player, and the standings follow; nothing else of the event changes."""
    match = _decided(event)
    winner = match.winner
    loser = match.b if winner == match.a else match.a
    game = next(g for g in match.games if g.winner == winner)
    wins = {winner: max(match.wins_a, match.wins_b) - 1, loser: min(match.wins_a, match.wins_b) + 1}
    points_before = {s.player: s.points for s in lib.current_standings(event)}
    done = runner.invoke(app, ["judge", "game-loss", str(event.folder / game.log), "--judge", "R. Vance",
                               "--player", winner, "--reason", "marked cards"])  # fmt: skip
    assert done.exit_code == 0, done.output
    after = event.match(match.round, match.table)
    assert after is not None
    assert (after.wins_a, after.wins_b) == (wins[after.a], wins[after.b])
    expected = "" if wins[winner] == wins[loser] else max(wins, key=lambda k: wins[k])
    assert after.winner == expected
    judged = next(g for g in after.games if g.number == game.number)
    assert (judged.winner, judged.end_reason) == (loser, "judge_game_loss")
    assert judged.digest == read_log(event.folder / game.log).digest
    points = {s.player: s.points for s in lib.current_standings(event)}
    gained = 3 if expected == loser else 1
    assert points[loser] == points_before[loser] + gained and points[winner] == points_before[winner] - 3 + (
        gained == 1
    )
    others = [m for m in event.matches() if (m.round, m.table) != (match.round, match.table)]
    assert all(points[p] == points_before[p] for m in others for p in (m.a, m.b) if p)
    assert "match round 1 table" in done.output


def test_a_judges_game_loss_is_an_act_of_the_events_record_and_the_last_act_counts(event: EventStore) -> None:
    """[R-EVT-07] With the event's record as its truth, the game loss is an act of the record (the match restated
    from its games, naming the judge and the reason; the report stays) and the event still verifies. The last act
    counts: a correction after it overrides it, and a judge's result after that correction is counted again."""
    match = _decided(event)
    game = next(g for g in match.games if g.winner == match.winner)
    log = str(event.folder / game.log)
    done = runner.invoke(app, ["judge", "game-loss", log, "--judge", "R. Vance", "--player", match.winner,
                               "--reason", "marked cards"])  # fmt: skip
    assert done.exit_code == 0, done.output
    last = read_event_log(event.record_path).acts[-1]
    assert isinstance(last, Restated) and (last.round, last.table, last.judge) == (match.round, match.table, "R. Vance")
    assert last.reason == f"game loss in game {game.number}: marked cards"
    assert event.state().results[(match.round, match.table)].reported.games == match.games  # the report stays
    assert verify_event(event.folder).ok, verify_event(event.folder).problems
    loop.correct(event, match.round, match.table, Outcome(0, 0, 3, INTENTIONAL_DRAW), judge="A. Head", reason="ID")
    corrected = event.match(match.round, match.table)
    assert corrected is not None and corrected.override is not None and lib.effective(corrected).winner == ""
    names = {p.id: p.name for p in event.players()}
    back = runner.invoke(app, ["judge", "override", log, "--judge", "R. Vance", "--winner", names[match.winner],
                               "--reason", "the game loss was given in error"])  # fmt: skip
    assert back.exit_code == 0, back.output
    after = event.match(match.round, match.table)
    assert after is not None and after.override is None
    assert (after.wins_a, after.wins_b, after.winner) == (match.wins_a, match.wins_b, match.winner)
    assert verify_event(event.folder).ok, verify_event(event.folder).problems


def test_an_override_by_name_reaches_the_match_and_extra_time_names_the_player(event: EventStore) -> None:
    """[R-EVT-07] The judge sets a game the match's winner won to the other player, by name; the match counts
    it so. Extra time for one player, by id, goes to that seat only."""
    match = _decided(event)
    loser = match.b if match.winner == match.a else match.a
    game = next(g for g in match.games if g.winner == match.winner)
    names = {p.id: p.name for p in event.players()}
    log = str(event.folder / game.log)
    done = runner.invoke(app, ["judge", "override", log, "--judge", "R. Vance", "--winner", names[loser],
                               "--reason", "misregistered result"])  # fmt: skip
    assert done.exit_code == 0, done.output
    seat = game.seats.index(loser)
    assert f"result set to {names[loser]} (p{seat}) wins" in done.output
    after = event.match(match.round, match.table)
    assert after is not None
    judged = next(g for g in after.games if g.number == game.number)
    assert (judged.winner, judged.end_reason) == (loser, "judge_override")
    assert {after.a: after.wins_a, after.b: after.wins_b}[loser] == {match.a: match.wins_a, match.b: match.wins_b}[
        loser
    ] + 1
    timed = runner.invoke(app, ["judge", "extra-time", log, "--judge", "R. Vance", "--minutes", "3", "--player",
                                loser, "--reason", "deck check"])  # fmt: skip
    assert timed.exit_code == 0, timed.output
    assert f"extra time to {names[loser]} (p{seat}) +3 min" in timed.output
    assert read_log(event.folder / game.log).judged[-1].record.player == seat
