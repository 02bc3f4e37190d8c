"""A deck list handed in after registration (``annals event deck``, ruling R-EVT-15): a late list in a club night,
or a wrong list put right by a judge; a signed act of the record that verify checks, refused once the player has
played a game through annals."""

from __future__ import annotations

from pathlib import Path

import duckdb
from typer.testing import CliRunner

from annals.cli.main import app
from annals.engine.tournament import lists
from annals.engine.tournament import play as bots
from annals.engine.tournament.match import bot_game, play_first
from annals.engine.tournament.store import EventStore
from annals.engine.tournament.verify import verify_event
from annals.schemas.event import DeckHandedIn
from annals.schemas.eventlog import read_event_log

runner = CliRunner()


def _run(*args: str) -> tuple[int, str, str]:
    done = runner.invoke(app, list(args))
    return done.exit_code, done.stdout, done.stderr


def _ok(*args: str) -> str:
    code, stdout, stderr = _run(*args)
    assert code == 0, (args, stdout, stderr)
    return stdout


def _club(tmp_path: Path, deck_lists: str = "optional") -> Path:
    """Four people, MORANA (games end by turn 8: quick): ada and cy without a list where lists are optional."""
    folder = tmp_path / "club"
    _ok("event", "new", str(folder), "--ruleset", "morana", "--rounds", "2", "--seed", "3", "--deck-lists", deck_lists)
    for deck in ("clash", "glory"):
        _ok("deck", "morana", deck, "--output", str(tmp_path / f"{deck}.txt"))
    for pid in ("ada", "bo", "cy", "di"):
        listed = [] if deck_lists == "optional" and pid in ("ada", "cy") else ["--deck", str(tmp_path / "clash.txt")]
        _ok("event", "register", str(folder), "--id", pid, "--name", pid.title(), *listed)
    return folder


def _acts(folder: Path) -> list[DeckHandedIn]:
    record = read_event_log(folder / "event.log", (folder / "event.log").read_bytes())
    return [a for a in record.acts if isinstance(a, DeckHandedIn)]


def test_a_late_list_is_a_signed_act_that_verify_standings_and_ingest_follow_R_EVT_15(tmp_path: Path) -> None:
    folder = _club(tmp_path)
    said = _ok("event", "deck", str(folder), "Ada", str(tmp_path / "glory.txt"))  # by name, as registered
    assert said == "Ada (ada) hands in 'glory': their games through annals are played with it from now on\n"
    (handed,) = _acts(folder)
    assert (handed.player, handed.deck.name, handed.deck_file, handed.judge) == ("ada", "glory", "decks/ada.txt", "")
    assert (folder / "decks" / "ada.txt").read_text() == (tmp_path / "glory.txt").read_text()
    verdict = verify_event(folder)
    assert verdict.ok and verdict.decks == 3 and verdict.signatures == verdict.acts, verdict.problems
    (folder / "decks" / "ada.txt").write_text((tmp_path / "clash.txt").read_text())  # the file swapped behind it
    assert [p.path for p in verify_event(folder).problems] == ["decks/ada.txt"]
    (folder / "decks" / "ada.txt").write_text((tmp_path / "glory.txt").read_text())
    players = _ok("event", "players", str(folder), "--format", "csv")
    assert {line.split(",")[1]: line.split(",")[2] for line in players.splitlines()[1:]}["ada"] == "glory"
    db = tmp_path / "club.duckdb"
    _ok("ingest", str(folder), "--db", str(db), "-q")
    rows = duckdb.connect(str(db), read_only=True).execute("SELECT player_id, deck FROM entrants ORDER BY 1").fetchall()
    assert rows == [("ada", "glory"), ("bo", "clash"), ("cy", "(no list)"), ("di", "clash")]


def test_a_list_with_problems_or_for_no_one_is_refused_and_nothing_recorded_R_EVT_15(tmp_path: Path) -> None:
    folder = _club(tmp_path)
    bad = tmp_path / "bad.txt"
    bad.write_text("Warden: Marzanna\n3 Bannik\n")
    code, _, stderr = _run("event", "deck", str(folder), "ada", str(bad))
    assert code == 1 and stderr.startswith(f"error: {bad}: ") and "line 2: " in stderr and "[MOR-35]" in stderr
    code, _, stderr = _run("event", "deck", str(folder), "nobody", str(tmp_path / "glory.txt"))
    assert code == 2 and stderr == (f"error: no player 'nobody' in this event (neither an id nor a name); "
                                    f"'annals event players {folder}' lists them\n")  # fmt: skip
    code, _, stderr = _run("event", "deck", str(folder), "ada", str(tmp_path / "none.txt"))
    assert code == 2 and "none.txt" in stderr
    assert not _acts(folder) and not (folder / "decks" / "ada.txt").exists()
    assert verify_event(folder).ok


def test_a_wrong_list_is_replaced_by_a_judge_and_the_first_kept_R_EVT_15(tmp_path: Path) -> None:
    folder = _club(tmp_path, deck_lists="required")
    code, _, stderr = _run("event", "deck", str(folder), "bo", str(tmp_path / "glory.txt"))
    assert code == 2 and stderr == ("error: Bo (bo) already has a list ('clash'); replacing it is a judge's act: "
                                    "give --judge NAME --reason WHY\n")  # fmt: skip
    code, _, stderr = _run("event", "deck", str(folder), "bo", str(tmp_path / "clash.txt"), "--judge", "Rae",
                           "--reason", "again")  # fmt: skip
    assert code == 2 and "already plays this list ('clash', decks/bo.txt): nothing to change" in stderr
    said = _ok("event", "deck", str(folder), "bo", str(tmp_path / "glory.txt"), "--judge", "Rae Vance", "--reason",
               "registered the wrong file")  # fmt: skip
    assert said == ("Bo (bo): 'glory' replaces 'clash', by Rae Vance: registered the wrong file (the list replaced "
                    "stays in the folder, decks/bo.txt)\n")  # fmt: skip
    (handed,) = _acts(folder)
    assert (handed.deck_file, handed.judge, handed.reason) == ("decks/bo/list-2.txt", "Rae Vance",
                                                               "registered the wrong file")  # fmt: skip
    assert EventStore.open(folder).state().player("bo").deck == handed.deck
    verdict = verify_event(folder)
    assert verdict.ok and verdict.decks == 4, verdict.problems
    first = folder / "decks" / "bo.txt"
    first.write_text(first.read_text() + "# edited\n")  # the list replaced is still held to the record
    assert [(p.path, "SHA-256 is not the one recorded" in p.message) for p in verify_event(folder).problems] == [
        ("decks/bo.txt", True)
    ]
    first.unlink()
    assert [(p.path, p.message.startswith("missing")) for p in verify_event(folder).problems] == [
        ("decks/bo.txt", True)
    ]


def test_a_list_is_refused_once_its_player_has_played_through_annals_R_EVT_15(tmp_path: Path) -> None:
    folder = _club(tmp_path)
    store = EventStore.open(folder)
    _ok("event", "deck", str(folder), "ada", str(tmp_path / "glory.txt"))
    _ok("event", "deck", str(folder), "cy", str(tmp_path / "glory.txt"))
    bots.run_event(store, until=1)  # every table of round 1 played by bots, through annals
    played = store.state().matches()[0]
    assert played.games and "ada" in (played.a, played.b)
    assert verify_event(folder).ok  # every game log holds its players' lists as the record has them
    code, _, stderr = _run("event", "deck", str(folder), "ada", str(tmp_path / "clash.txt"), "--judge", "Rae",
                           "--reason", "late find")  # fmt: skip
    assert code == 1
    assert f"Ada (ada) has played through annals with 'glory' (round 1 table {played.table}: " in stderr
    assert "those games' logs hold that list, so it stays" in stderr
    assert len(_acts(folder)) == 2 and verify_event(folder).ok


def test_a_game_begun_after_a_list_is_handed_in_plays_it_though_its_match_opened_before_R_EVT_15(
    tmp_path: Path,
) -> None:
    folder = _club(tmp_path)
    store = EventStore.open(folder)
    _ok("event", "deck", str(folder), "cy", str(tmp_path / "clash.txt"))
    _ok("event", "pair", str(folder))
    ctx = bots._context(store, bot_game, play_first)  # the players as the match opened (the server's)
    lists.hand_in(store, "ada", tmp_path / "glory.txt")
    pairing = next(p for p in store.rounds()[0].pairings if "ada" in (p.a, p.b))
    seats = [pairing.a, pairing.b]
    header = ctx.header(1, pairing, 1, seats, 0)
    handed = store.state().player("ada").deck
    assert handed is not None and handed.name == "glory"
    assert header.decks[seats.index("ada")] == handed
