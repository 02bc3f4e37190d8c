"""``annals event`` on the command line: the happy path, and bad input as one line on stderr, exit 1 (usage: 2)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from annals.cli.main import app

runner = CliRunner()


def test_new_register_drop_run_standings(tmp_path: Path) -> None:
    folder = tmp_path / "ev"
    done = runner.invoke(app, ["event", "new", str(folder), "--name", "club", "--ruleset", "morana", "--seed", "4"])
    assert done.exit_code == 0, done.output
    assert "recommended at round 1" in done.stdout
    deck = tmp_path / "mine.txt"
    deck.write_text("# my deck\nDeck: my-glory\nWarden: Lada\n" + "".join(
        f"{n} {c}\n" for c, n in [("alkonost", 2), ("bannik", 2), ("bereginya", 2), ("candle-for-the-dead", 2),
                                  ("firebird", 1), ("gift-of-prav", 2), ("harvest-rite", 1), ("koschei", 1),
                                  ("mavka", 2), ("moranas-winter", 1), ("polevik", 1), ("sirin", 2), ("veles", 1)]
    ))  # fmt: skip
    done = runner.invoke(app, ["event", "register", str(folder), "--id", "ada", "--name", "Ada", "--deck", str(deck)])
    assert done.exit_code == 0, done.output
    assert "'my-glory'" in done.stdout
    done = runner.invoke(app, ["event", "drop", str(folder), "ada"])
    assert done.exit_code == 0 and "before round 1" in done.stdout
    done = runner.invoke(app, ["event", "run", str(folder), "--fill", "6", "-q"])  # ada withdrew: 6 bots play
    assert done.exit_code == 0, done.output
    assert "event finished" in done.stdout
    again = runner.invoke(app, ["event", "run", str(folder), "--fill", "6", "-q"])  # the same command resumes
    assert again.exit_code == 0 and "event finished" in again.stdout, again.output
    table = runner.invoke(app, ["event", "standings", str(folder)])
    assert table.exit_code == 0 and "bot-006" in table.stdout
    assert "ada" not in table.stdout  # withdrew before round 1: no entrant
    listed = runner.invoke(app, ["event", "players", str(folder), "--format", "csv"])
    assert listed.stdout.splitlines()[1] == "Ada,ada,my-glory,person,withdrew before round 1"


def test_bad_input_is_one_line_on_stderr_and_exit_1_or_2_for_a_bad_argument(tmp_path: Path) -> None:
    folder = tmp_path / "ev"
    assert runner.invoke(app, ["event", "new", str(folder), "--name", "x", "--ruleset", "miras9"]).exit_code == 0
    bad = tmp_path / "bad.txt"
    bad.write_text("Planet: Kessra\n3 Recrut\nfoo\n")
    done = runner.invoke(app, ["event", "register", str(folder), "--id", "a", "--name", "A", "--deck", str(bad)])
    assert done.exit_code == 1
    assert len(done.stderr.strip().splitlines()) == 1
    assert "line 2:" in done.stderr and "line 3:" in done.stderr and "DeckListError" not in done.stderr
    again = runner.invoke(app, ["event", "new", str(folder), "--name", "x", "--ruleset", "miras9"])
    assert again.exit_code == 1 and "already holds an event" in again.stderr
    for args in (["event", "standings", str(tmp_path)], ["event", "run", str(folder)]):
        done = runner.invoke(app, args)
        assert done.exit_code == 1 and len(done.stderr.strip().splitlines()) == 1, done.stderr
    top = runner.invoke(app, ["event", "new", str(tmp_path / "t"), "--name", "t", "--ruleset", "miras9", "--top", "6"])
    assert top.exit_code == 2 and "power of two" in top.stderr and len(top.stderr.splitlines()) == 1  # a usage error
    odd = runner.invoke(app, ["event", "new", str(tmp_path / "b"), "--ruleset", "miras9", "--best-of", "2"])
    assert odd.exit_code == 2 and "odd number" in odd.stderr and len(odd.stderr.splitlines()) == 1
    usage = runner.invoke(app, ["event", "new", str(tmp_path / "u"), "--ruleset", "miras9", "--rounds", "-1"])
    assert usage.exit_code == 2


def test_tables_fit_the_terminal_and_people_are_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from annals.engine.tournament import event as lib
    from annals.engine.tournament import rounds as loop
    from annals.engine.tournament.store import EventStore
    from annals.schemas.event import Outcome

    folder = tmp_path / "ev"
    lib.new_event(folder, "club", "morana", rounds=2, seed=3)
    store = EventStore.open(folder)
    lib.fill_with_bots(store, 6)
    loop.pair_next(store)
    for p in store.state().open_tables(1):
        loop.report(store, 1, p.table, Outcome(2, 1, 0))
    dropped = store.state().players()[0]
    assert runner.invoke(app, ["event", "drop", str(folder), dropped.id]).exit_code == 0
    for columns in (60, 200):
        monkeypatch.setenv("COLUMNS", str(columns))
        for command in ("standings", "pairings", "players"):
            done = runner.invoke(app, ["event", command, str(folder)])
            assert done.exit_code == 0, done.output
            lines = done.stdout.splitlines()
            assert max(len(line) for line in lines) <= columns, (command, columns)
            if columns == 200:  # wide enough: one line a row (6 players, 3 tables), plus title, head and rules
                assert len(lines) == (3 if command == "pairings" else 6) + 5, (command, done.stdout)
            assert "Bot 1" in done.stdout
            assert not {"True", "False", "None"} & set(done.stdout.split())  # a flag in words, never Python's
            if command == "standings" and columns == 200:
                row = next(line for line in lines if f" {dropped.name} " in line)
                assert row.rstrip(" │").endswith("yes")  # the dropped column
                heads = [w.strip() for w in lines[2].strip("┃").split("┃")]  # the tiebreakers as people write them
                assert heads[-4:] == ["OMW%", "GW%", "OGW%", "dropped"], heads


def test_the_players_table_keeps_id_and_deck_at_80_columns_with_a_late_entry(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from annals.engine.decks import write_deck_list
    from annals.engine.registry import get_ruleset
    from annals.engine.tournament import event as lib
    from annals.engine.tournament import rounds as loop
    from annals.engine.tournament.store import EventStore

    folder = tmp_path / "ev"
    lib.new_event(folder, "club", "miras9", rounds=3, seed=3)
    store = EventStore.open(folder)
    deck = tmp_path / "tempest.txt"
    deck.write_text(write_deck_list(get_ruleset("miras9").decks()["tempest"], "miras9"))
    for pid, name in (("ada", "Ada Lovelace"), ("bo", "Bo Chen"), ("gus-grissom", "Gus Grissom")):
        lib.register(store, pid, name, deck)
    loop.pair_next(store)
    lib.register(store, "hal", "Hal Clement", deck)  # a late entry after round 1
    monkeypatch.setenv("COLUMNS", "80")
    shown = runner.invoke(app, ["event", "players", str(folder)]).stdout
    lines = shown.splitlines()
    assert max(len(line) for line in lines) <= 80
    assert [w.strip() for w in lines[2].strip("┃").split("┃")] == ["name", "id", "deck", "plays", "status"]
    hal = next(line for line in lines if "Hal Clement" in line)
    assert [w.strip() for w in hal.strip("│").split("│")] == ["Hal Clement", "hal", "tempest", "person",
                                                              "late entry: 1 round lost"]  # fmt: skip


def test_run_refuses_before_playing_when_a_registered_deck_list_is_missing(tmp_path: Path) -> None:
    from annals.engine.tournament import event as lib
    from annals.engine.tournament.store import EventStore

    folder = tmp_path / "ev"
    lib.new_event(folder, "club", "morana", rounds=1, seed=3)
    store = EventStore.open(folder)
    lib.fill_with_bots(store, 4)
    gone = store.players()[1]
    (folder / gone.deck_file).unlink()
    done = runner.invoke(app, ["event", "run", str(folder), "--fill", "6", "-q"])
    assert done.exit_code == 1 and len(done.stderr.strip().splitlines()) == 1, done.output
    assert gone.deck_file in done.stderr and "missing" in done.stderr and "put the registered deck" in done.stderr
    assert not store.rounds() and len(store.players()) == 4  # nothing paired, played or filled


def test_pairings_show_the_points_each_player_brought_into_the_round_the_bye_not_counted_yet(tmp_path: Path) -> None:
    """Swiss pairings show match points going into the round: the bye of round 1 showed 3 points beside everyone's
    0 (the bye counted before it was played), and an earlier round's pairings took later results in."""
    import json

    folder, deck = tmp_path / "ev", tmp_path / "v.txt"
    assert (
        runner.invoke(
            app, ["event", "new", str(folder), "--ruleset", "miras9", "--rounds", "3", "--seed", "5"]
        ).exit_code
        == 0
    )
    assert runner.invoke(app, ["deck", "miras9", "vanguard", "--output", str(deck)]).exit_code == 0
    for pid in ("ada", "bo", "cy", "di", "ed"):
        done = runner.invoke(
            app, ["event", "register", str(folder), "--id", pid, "--name", pid.title(), "--deck", str(deck)]
        )
        assert done.exit_code == 0, done.output

    def pairings(number: int) -> list[dict[str, object]]:
        shown = runner.invoke(app, ["event", "pairings", str(folder), "--round", str(number), "--format", "json"])
        assert shown.exit_code == 0, shown.output
        return list(json.loads(shown.stdout))

    assert runner.invoke(app, ["event", "pair", str(folder)]).exit_code == 0
    first = pairings(1)
    assert [r["points"] for r in first] == [0, 0, 0] and first[-1]["result"] == "bye"
    for row in first[:2]:
        done = runner.invoke(app, ["event", "result", str(folder), "--round", "1", "--table", str(row["table"]), "2-0"])
        assert done.exit_code == 0, done.output
    assert runner.invoke(app, ["event", "pair", str(folder)]).exit_code == 0
    assert [r["points"] for r in pairings(1)] == [0, 0, 0]  # still what round 1 was paired on
    second = {str(r["player"]): r["points"] for r in pairings(2)}
    second.update({str(r["opponent"]): r["opponent_points"] for r in pairings(2) if r["opponent"] != "(bye)"})
    winners = {str(r["player"]) for r in first}  # the first-named won 2-0, and the bye is a match win
    assert second == {name: 3 if name in winners else 0 for name in ("Ada", "Bo", "Cy", "Di", "Ed")}
    assert runner.invoke(app, ["event", "round", str(folder), "start"]).exit_code == 0
    status = runner.invoke(app, ["event", "status", str(folder)]).stdout.splitlines()[0]
    assert status.startswith("round 2 (Swiss): 2 of 3 tables playing; time left "), status  # it said (swiss)


def test_an_event_of_one_player_is_refused_in_the_singular(tmp_path: Path) -> None:
    """It said "1 player(s) registered"."""
    folder, deck = tmp_path / "one", tmp_path / "v.txt"
    assert runner.invoke(app, ["event", "new", str(folder), "--ruleset", "miras9", "--rounds", "2"]).exit_code == 0
    assert runner.invoke(app, ["deck", "miras9", "vanguard", "--output", str(deck)]).exit_code == 0
    assert (
        runner.invoke(
            app, ["event", "register", str(folder), "--id", "a", "--name", "A", "--deck", str(deck)]
        ).exit_code
        == 0
    )
    for command in ("pair", "run"):
        done = runner.invoke(app, ["event", command, str(folder)])
        assert done.exit_code == 1
        assert done.stderr == "error: 1 player registered: an event needs at least 2; 'annals event register'\n"


def test_narrow_pairings_keep_both_players_names(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """At 80 columns the pairings left out their "player" column (taken for the id the standings print
    beside a name), so each table showed one name: who plays whom was lost. Both names stay; the standings still
    leave the id out first."""
    from annals.engine.tournament import event as lib
    from annals.engine.tournament import rounds as loop
    from annals.engine.tournament.store import EventStore

    folder = tmp_path / "ev"
    lib.new_event(folder, "club", "miras9", rounds=2, seed=3)
    store = EventStore.open(folder)
    lib.fill_with_bots(store, 4)
    names = {p.id: p.name for p in store.state().players()}
    renamed = {pid: f"{name} has a longer name" for pid, name in names.items()}
    for pid, name in renamed.items():
        assert runner.invoke(app, ["event", "rename", str(folder), pid, name]).exit_code == 0
    loop.pair_next(store)
    monkeypatch.setenv("COLUMNS", "80")
    for command in (["event", "pairings", str(folder)], ["event", "pairings", str(folder), "--by", "table"]):
        shown = runner.invoke(app, command).stdout
        for pairing in store.state().open_tables(1):
            row = next(line for line in shown.splitlines() if line.startswith(f"│ {pairing.table:>5} │"))
            assert renamed[pairing.a] in row and renamed[pairing.b] in row, (command, shown)
    standings = runner.invoke(app, ["event", "standings", str(folder)]).stdout
    assert " player " not in standings.splitlines()[2] and " name " in standings.splitlines()[2]
