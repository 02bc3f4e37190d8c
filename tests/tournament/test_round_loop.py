"""The round loop with people: results typed in and checked against the best-of, named results, drops, late
entries, awarded byes, a manual pairing change, pairing again, the round clock, corrections and the chart."""

from __future__ import annotations

import datetime
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from annals.cli.main import app
from annals.engine.decks import write_deck_list
from annals.engine.registry import get_ruleset
from annals.engine.tournament import chart
from annals.engine.tournament import event as lib
from annals.engine.tournament import rounds as loop
from annals.engine.tournament.record import EventArgumentError, EventError
from annals.engine.tournament.store import EventStore
from annals.engine.tournament.verify import verify_event
from annals.schemas.event import DOUBLE_LOSS, INTENTIONAL_DRAW, NO_SHOW, Outcome

runner = CliRunner()


def people(folder: Path, count: int, *, best_of: int = 3, rounds: int = 3, top: int = 0) -> EventStore:
    """An event of ``count`` people (no bots) registered with MORANA's shipped decks."""
    lib.new_event(folder, "club", "morana", rounds=rounds, best_of=best_of, top=top, seed=5)
    store = EventStore.open(folder)
    deck = folder.parent / "deck.txt"
    deck.write_text(write_deck_list(get_ruleset("morana").decks()["clash"], "morana"))
    for k in range(count):
        lib.register(store, f"p{k:02d}", f"Player {k:02d}", deck)
    return store


def finish_round(store: EventStore, number: int, result: Outcome = Outcome(2, 1, 0)) -> None:
    for p in store.state().open_tables(number):
        loop.report(store, number, p.table, result)


def test_impossible_results_are_refused_by_name_as_usage_errors(tmp_path: Path) -> None:
    store = people(tmp_path / "ev", 4)
    loop.pair_next(store)
    pairing = store.rounds()[0].pairings[0]
    for wrong, why in [((3, 0, 0), "a match ends when a player wins 2 games"),
                       ((2, 2, 0), "both players cannot win 2"),
                       ((2, 1, 1), "is 4 games: a best of 3 plays at most 3 in the Swiss"),
                       ((0, 0, 0), "no game was played")]:  # fmt: skip
        with pytest.raises(EventArgumentError, match=why):
            loop.check_outcome(Outcome(*wrong), pairing, "swiss", 3)
    assert loop.check_outcome(Outcome(2, 1, 1), pairing, "swiss", 5) == Outcome(2, 1, 1)  # best of 5: fine
    assert loop.check_outcome(Outcome(1, 1, 1), pairing, "swiss", 3) == Outcome(1, 1, 1)  # drawn on time
    drawn = loop.check_outcome(Outcome(0, 0, 0, INTENTIONAL_DRAW), pairing, "swiss", 3)
    assert drawn == Outcome(0, 0, 3, INTENTIONAL_DRAW)  # MTR 2.4
    for named in (Outcome(1, 1, 0), Outcome(0, 0, 0, INTENTIONAL_DRAW), Outcome(0, 0, 0, DOUBLE_LOSS)):
        with pytest.raises(EventArgumentError, match="a cut match needs a winner"):
            loop.check_outcome(named, pairing, "top", 3)
    bad = runner.invoke(app, ["event", "result", str(store.folder), "--round", "1", "--table", "1", "2-2"])
    assert bad.exit_code == 2 and bad.stderr.count("\n") == 1 and "both players cannot win 2" in bad.stderr
    assert not store.state().results  # nothing was recorded


def test_a_table_or_round_that_names_nothing_is_a_usage_error_that_says_how_to_list_the_tables(tmp_path: Path) -> None:
    store = people(tmp_path / "ev", 4)  # 2 tables
    loop.pair_next(store)
    folder = str(store.folder)
    for where, said in [(("--round", "1", "--table", "5"), "round 1 has no table 5 (its tables: 1 to 2); "
                         f"'annals event pairings {folder} --round 1' lists them"),
                        (("--round", "3", "--table", "1"), "round 3 is not paired (rounds paired: 1); "
                         f"'annals event pairings {folder}' lists the last round's tables")]:  # fmt: skip
        for command in (["result", folder, *where, "2-0"],
                        ["correct", folder, *where, "2-0", "--judge", "Rae", "--reason", "slip"]):  # fmt: skip
            bad = runner.invoke(app, ["event", *command])
            assert bad.exit_code == 2, bad.output
            assert bad.stderr == f"error: {said}\n"
    assert not store.state().results  # nothing was recorded
    loop.report(store, 1, 1, Outcome(2, 0, 0))
    twice = runner.invoke(app, ["event", "result", folder, "--round", "1", "--table", "1", "2-0"])
    assert twice.exit_code == 1 and f"annals event correct {folder} --round 1 --table 1 RESULT" in twice.stderr


def test_a_result_is_entered_once_a_bye_has_its_own_and_a_no_show_drops_the_absent(tmp_path: Path) -> None:
    store = people(tmp_path / "ev", 5)
    rnd = loop.pair_next(store)
    bye = rnd.pairings[-1]
    assert not bye.b
    with pytest.raises(EventError, match="bye: it has its result"):
        loop.report(store, 1, bye.table, Outcome(2, 0, 0))
    loop.report(store, 1, 1, Outcome(2, 0, 0))
    names = store.state().names()
    said = f"already has a result ({names[rnd.pairings[0].a]} 2-0 {names[rnd.pairings[0].b]}); to change it, a judge"
    with pytest.raises(EventError, match=re.escape(said)):  # what stands, and the command that changes it
        loop.report(store, 1, 1, Outcome(2, 0, 0))
    absent = rnd.pairings[1].b
    done = runner.invoke(app, ["event", "result", str(store.folder), "--round", "1", "--table", "2",
                               "--no-show", store.state().player(absent).name])  # fmt: skip
    assert done.exit_code == 0, done.output
    m = store.match(1, 2)
    assert m is not None and (m.wins_a, m.wins_b, m.winner, m.ended) == (2, 0, rnd.pairings[1].a, NO_SHOW)
    assert store.state().player(absent).dropped_after == 1


def test_a_double_loss_is_a_loss_for_both_and_an_intentional_draw_a_point_each(tmp_path: Path) -> None:
    store = people(tmp_path / "ev", 4)
    rnd = loop.pair_next(store)
    loop.report(store, 1, 1, Outcome(0, 0, 0, DOUBLE_LOSS))
    loop.report(store, 1, 2, Outcome(0, 0, 0, INTENTIONAL_DRAW))
    rows = {s.player: s for s in lib.current_standings(store)}
    one, two = rnd.pairings
    assert [(rows[p].points, rows[p].losses) for p in (one.a, one.b)] == [(0, 1), (0, 1)]
    assert [(rows[p].points, rows[p].draws, round(rows[p].gw, 6)) for p in (two.a, two.b)] == [(1, 1, 0.333333)] * 2


def test_a_late_entry_loses_each_missed_round_and_registration_closes_with_the_swiss(tmp_path: Path) -> None:
    store = people(tmp_path / "ev", 4, rounds=3)
    loop.pair_next(store)
    finish_round(store, 1)
    loop.pair_next(store)
    deck = tmp_path / "deck.txt"
    late = lib.register(store, "late", "Lee  Late", deck)  # spaces as typed are kept, one between words
    assert late.name == "Lee Late" and lib.missed_rounds(store, "late") == 2
    rows = {s.player: s for s in lib.current_standings(store)}
    lee = rows["late"]
    assert (lee.points, lee.losses, lee.byes, round(lee.gw, 6)) == (0, 2, 0, 0.33)  # 0 of 6 game points: the floor
    finish_round(store, 2)
    rnd = loop.pair_next(store)
    assert "late" in {x for p in rnd.pairings for x in (p.a, p.b)}
    with pytest.raises(EventError, match="registration is closed: all 3 Swiss rounds are paired"):
        lib.register(store, "later", "Too Late", deck)


def test_drops_between_rounds_and_none_once_the_event_has_ended(tmp_path: Path) -> None:
    store = people(tmp_path / "ev", 4, rounds=2, top=2)
    loop.pair_next(store)
    lib.drop(store, "p00")  # plays round 1 out
    finish_round(store, 1)
    rnd = loop.pair_next(store)
    assert "p00" not in {x for p in rnd.pairings for x in (p.a, p.b)}
    assert any(not p.b for p in rnd.pairings)  # three left: a bye
    finish_round(store, 2)
    loop.pair_next(store)
    with pytest.raises(EventError, match="the top cut has begun"):
        lib.drop(store, "p01")
    finish_round(store, 3)
    assert store.state().finished()
    with pytest.raises(EventError, match="the event has ended"):
        lib.drop(store, "p02")
    with pytest.raises(EventError, match="the event has ended"):
        loop.pair_next(store)


def test_an_awarded_bye_and_a_manual_pairing_change_are_recorded_with_the_judge(tmp_path: Path) -> None:
    store = people(tmp_path / "ev", 6)
    lib.award_bye(store, "p03", 1, judge="Rae Vance", reason="travelled far")
    with pytest.raises(EventArgumentError, match="--judge and --reason"):
        lib.award_bye(store, "p04", 1, judge="", reason="")
    rnd = loop.pair_next(store)
    byes = [p.a for p in rnd.pairings if not p.b]
    assert len(rnd.pairings) == 4 and len(byes) == 2  # five paired: a bye to the odd one, and the awarded one
    assert rnd.pairings[-1].a == "p03" and "p03" not in {p.b for p in rnd.pairings}
    one, two = rnd.pairings[0], rnd.pairings[1]
    changed = loop.swap_players(store, 1, one.a, two.a, judge="Rae Vance", reason="seated wrong")
    assert (changed.pairings[0].a, changed.pairings[1].a) == (two.a, one.a)
    change = store.state().rounds[0].changes[0]
    assert (change.judge, change.reason) == ("Rae Vance", "seated wrong")
    loop.report(store, 1, 1, Outcome(2, 0, 0))
    with pytest.raises(EventError, match="has a result: correct it instead"):
        loop.swap_players(store, 1, changed.pairings[0].a, changed.pairings[1].a, judge="R", reason="r")
    rows = {s.player: s for s in lib.current_standings(store)}
    assert (rows["p03"].points, rows["p03"].byes) == (3, 1)
    assert verify_event(store.folder).ok


def test_a_correction_keeps_both_results_and_a_round_not_started_may_be_paired_again(tmp_path: Path) -> None:
    store = people(tmp_path / "ev", 8)
    loop.pair_next(store)
    finish_round(store, 1)
    loop.pair_next(store)
    fix = loop.correct(store, 1, 1, Outcome(0, 2, 0), judge="Rae Vance", reason="slip reversed")
    state = store.state().results[(1, 1)]
    assert state.reported.outcome == Outcome(2, 1, 0) and state.outcome == fix.outcome  # both kept
    assert loop.may_pair_again(store)
    again = loop.pair_again(store, judge="Rae Vance", reason="round 1 corrected")
    assert again.number == 2 and store.state().withdrawn[0].reason == "round 1 corrected"
    loop.start_round(store, 40)
    with pytest.raises(EventError, match="has started"):
        loop.pair_again(store, judge="Rae Vance", reason="again")


def test_the_round_clock_and_each_tables_time(tmp_path: Path) -> None:
    store = people(tmp_path / "ev", 6)
    loop.pair_next(store)
    assert loop.status(store).seconds_left is None
    loop.start_round(store, 50)
    loop.extend(store, 2, 5, judge="Rae Vance", reason="deck check")
    loop.report(store, 1, 1, Outcome(2, 0, 0))
    started = datetime.datetime.fromisoformat(store.state().rounds[0].clock.started)
    st = loop.status(store, at=started + datetime.timedelta(minutes=20))
    assert st.seconds_left == 30 * 60 and [t.table for t in st.open_tables] == [2, 3]
    assert [t.seconds_left for t in st.open_tables] == [35 * 60, 30 * 60]
    loop.end_round(store)
    with pytest.raises(EventError, match="not under way"):
        loop.extend(store, 2, 5)


def test_ending_a_round_whose_clock_never_started_says_what_comes_next(tmp_path: Path) -> None:
    store = people(tmp_path / "ev", 4, rounds=2)
    loop.pair_next(store)
    folder = str(store.folder)
    with pytest.raises(EventError, match=re.escape(f"round 1's clock has not started: 'annals event round {folder} "
                                                   "start' starts it")):  # fmt: skip
        loop.end_round(store)
    finish_round(store, 1)  # results typed, the clock never started
    with pytest.raises(EventError, match=re.escape("its results are all in: pair the next round with 'annals event "
                                                   f"pair {folder}'")):  # fmt: skip
        loop.end_round(store)
    loop.pair_next(store)
    finish_round(store, 2)
    with pytest.raises(EventError, match=re.escape(f"the event is over: 'annals event standings {folder}'")):
        loop.end_round(store)


def test_the_last_result_of_a_round_says_what_comes_next(tmp_path: Path) -> None:
    store = people(tmp_path / "ev", 4, rounds=2)  # 2 tables a round
    folder = str(store.folder)
    loop.pair_next(store)

    def typed(number: int, table: int) -> str:
        done = runner.invoke(app, ["event", "result", folder, "--round", str(number), "--table", str(table), "2-0"])
        assert done.exit_code == 0, done.output
        return done.stdout

    assert typed(1, 1).endswith("; 1 table still playing\n")
    assert typed(1, 2).endswith(f"; round 1 is complete: pair the next round with annals event pair {folder}\n")
    loop.pair_next(store)
    typed(2, 1)
    assert typed(2, 2).endswith(f"; round 2 is complete and the event is over: annals event placings {folder}\n")


def test_a_round_or_extension_longer_than_a_day_is_refused_and_the_clock_still_reads(tmp_path: Path) -> None:
    """10**10 minutes was recorded, and every 'event status' after crashed (the round's end past the year 9999);
    10**23 crashed writing the record."""
    store = people(tmp_path / "ev", 4)
    loop.pair_next(store)
    for minutes in (0, 24 * 60 + 1, 10**10, 10**23):
        with pytest.raises(EventArgumentError, match=f"--minutes {minutes}: a round lasts from a minute to a day"):
            loop.start_round(store, minutes)
    loop.start_round(store, 24 * 60)
    for minutes in (24 * 60 + 1, 10**23):
        with pytest.raises(EventArgumentError, match=f"--minutes {minutes}: an extension is from a minute to a day"):
            loop.extend(store, 1, minutes)
    loop.extend(store, 1, 24 * 60)
    started = datetime.datetime.fromisoformat(store.state().rounds[0].clock.started)
    assert loop.status(store, at=started).open_tables[0].seconds_left == 2 * 24 * 3600


def test_a_top_cut_as_large_as_the_field_is_refused_with_the_reason(tmp_path: Path) -> None:
    store = people(tmp_path / "ev", 8, top=8)
    with pytest.raises(EventError, match=r"a top 8 of a field of 8 cuts no one.*advises 3 Swiss round"):
        loop.pair_next(store)
    done = runner.invoke(app, ["event", "pair", str(store.folder)])
    assert done.exit_code == 1 and "cuts no one" in done.stderr


def test_a_cut_result_stands_once_the_next_cut_round_is_paired(tmp_path: Path) -> None:
    store = people(tmp_path / "ev", 6, rounds=1, top=4)
    loop.pair_next(store)
    finish_round(store, 1)
    loop.pair_next(store)
    finish_round(store, 2)
    loop.correct(store, 2, 1, Outcome(0, 2, 0), judge="R", reason="game loss")  # before the final is paired: fine
    loop.pair_next(store)
    with pytest.raises(EventError, match="round 3 is paired from this cut match's winner"):
        loop.correct(store, 2, 1, Outcome(2, 0, 0), judge="R", reason="again")


@pytest.mark.parametrize(
    ("players", "rounds", "top"),
    [(2, 1, 0), (4, 2, 0), (5, 3, 0), (8, 3, 0), (9, 5, 4), (16, 5, 4), (17, 5, 8), (64, 6, 8), (65, 7, 8),
     (226, 8, 8), (227, 9, 8), (409, 9, 8), (410, 10, 8), (2000, 10, 8)],
)  # fmt: skip
def test_round_and_cut_advice_follow_the_published_swiss_chart(players: int, rounds: int, top: int) -> None:
    assert (chart.recommended_rounds(players), chart.recommended_top_cut(players)) == (rounds, top)


def test_results_entered_at_once_from_several_terminals_are_all_recorded(tmp_path: Path) -> None:
    """The record is appended under a lock: commands run at the same time each land whole, in some order."""
    import subprocess
    import sys

    store = people(tmp_path / "ev", 8)
    loop.pair_next(store)
    annals = str(Path(sys.executable).parent / "annals")
    procs = [
        subprocess.Popen([annals, "event", "result", str(store.folder), "--round", "1", "--table", str(t), "2-1"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for t in (1, 2, 3, 4)
    ]  # fmt: skip
    for proc in procs:
        _, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
    assert sorted(store.state().results) == [(1, 1), (1, 2), (1, 3), (1, 4)]
    assert verify_event(store.folder).ok
