"""Decision reviews in the database (issue 32, item 5): ``annals review LOGS --save`` writes LOG.review.json beside each
log, ``annals ingest`` loads them into ``decision_reviews``, and the review reports agree with a recount made from
the review files and the logs themselves (never from the reports' SQL). A re-ingest adds nothing twice; a damaged
review, or one of a game not in the database, is skipped and named."""

from __future__ import annotations

import shutil
from collections import defaultdict
from pathlib import Path
from typing import Any

import duckdb
import msgspec
import pytest
from typer.testing import CliRunner

from annals.cli.main import app
from annals.ingest.remove import remove_game
from annals.queries.reports.filters import Filters
from annals.queries.reports.run import run_report
from annals.queries.review import move_accuracy, review_game
from annals.schemas.logfile import GameLog, read_log
from annals.schemas.records import LEADER_INDEX, instance_id
from annals.schemas.review import ReviewFile, read_review, review_path

runner = CliRunner()
ITERATIONS = 12
POOLED = Filters(pool=True)
WRONG = ("inaccuracy", "mistake", "blunder")


class Reviewed(msgspec.Struct):
    folder: Path
    db: Path
    logs: list[Path]
    before: dict[Path, bytes]  # each log's bytes before it was reviewed


@pytest.fixture(scope="module")
def reviewed(tmp_path_factory: pytest.TempPathFactory) -> Reviewed:
    root = tmp_path_factory.mktemp("reviewdb")
    folder = root / "games"
    made = runner.invoke(app, ["simulate", "morana", "--games", "3", "--seed", "5", "--decks", "clash,glory",
                               "--bots", "heuristic,random", "--out", str(folder), "-q"])  # fmt: skip
    assert made.exit_code == 0, made.output
    logs = sorted(folder.glob("*.log"))
    before = {log: log.read_bytes() for log in logs}
    result = runner.invoke(app, ["review", str(folder), "--iterations", str(ITERATIONS), "--save"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert len(lines) == 3 and all(f"-> {review_path(log)}" in line for line, log in zip(lines, logs, strict=True))
    db = root / "db.duckdb"
    ingested = runner.invoke(app, ["ingest", str(folder), "--db", str(db), "-q"])
    assert ingested.exit_code == 0, ingested.output
    assert "decision reviews: 3 loaded" in ingested.output and "0 skipped" in ingested.output
    return Reviewed(folder, db, logs, before)


def _reviews(r: Reviewed) -> list[tuple[GameLog, ReviewFile]]:
    return [(read_log(log), read_review(review_path(log))) for log in r.logs]


def _table(db: Path, sql: str) -> list[tuple[Any, ...]]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return sorted(con.execute(sql).fetchall())
    finally:
        con.close()


def _stored(db: Path) -> list[tuple[Any, ...]]:
    return _table(db, "SELECT g.game_id, g.game = r.game, r.seat, r.decision, r.turn, r.point, r.chance_before, "
                      "r.chance_made, r.chance_best, r.loss, r.verdict, r.made, r.best, r.iterations "
                      "FROM decision_reviews r JOIN games g ON g.game_id = r.game_id")  # fmt: skip


def _from_files(pairs: list[tuple[GameLog, ReviewFile]]) -> list[tuple[Any, ...]]:
    return sorted(
        (doc.game_id, True, d.seat, d.decision, d.turn, d.point, d.chance_before, d.chance_made, d.chance_best,
         d.loss, d.verdict, d.made, d.best, doc.iterations)
        for _, doc in pairs for d in doc.decisions
    )  # fmt: skip


def test_save_writes_the_review_beside_each_log_and_never_changes_the_log(reviewed: Reviewed) -> None:
    for log in reviewed.logs:
        assert log.read_bytes() == reviewed.before[log]
        game, doc = read_log(log), read_review(review_path(log))
        assert (doc.game_id, doc.digest, doc.ruleset) == (game.header.game_id, game.digest, "morana")
        assert doc.iterations == ITERATIONS and doc.seats == [0, 1] and doc.thresholds.blunder == 0.20
        assert doc.decisions == review_game(game, iterations=ITERATIONS)  # the review as the library gives it
        assert doc.decisions  # a game of MORANA has decisions to rate


def test_the_table_holds_every_saved_review_under_its_game(reviewed: Reviewed) -> None:
    assert _stored(reviewed.db) == _from_files(_reviews(reviewed))


def test_the_export_carries_the_reviews_in_the_omniscient_view_only(reviewed: Reviewed, tmp_path: Path) -> None:
    """``annals export``: the reviews as the other game tables (keyed by ruleset and month, every row naming its
    game by id), the same rows as the files; the spectator view has none (a seat's chances are read from its hand)."""
    for view in ("omniscient", "spectator"):
        done = runner.invoke(app, ["export", str(tmp_path / view), "--view", view, "--db", str(reviewed.db)])
        assert done.exit_code == 0, done.output
    reader = duckdb.connect()
    rows = reader.sql(
        f"SELECT game_id, true, seat, decision, turn, point, chance_before, chance_made, chance_best, loss, verdict, "
        f"made, best, iterations, ruleset, month FROM read_parquet('{tmp_path / 'omniscient'}/decision_reviews/**/"
        "*.parquet', hive_partitioning = true)"
    ).fetchall()
    assert sorted(r[:-2] for r in rows) == _from_files(_reviews(reviewed))
    assert {r[-2] for r in rows} == {"morana"}
    manifest = msgspec.json.decode((tmp_path / "omniscient" / "manifest.json").read_bytes())
    assert manifest["tables"]["decision_reviews"]["rows"] == len(rows) > 0
    assert "### decision_reviews" in (tmp_path / "omniscient" / "README.md").read_text()  # in the data dictionary
    assert not (tmp_path / "spectator" / "decision_reviews").exists()
    assert (
        "decision_reviews" not in msgspec.json.decode((tmp_path / "spectator" / "manifest.json").read_bytes())["tables"]
    )


def _accuracy_recount(pairs: list[tuple[GameLog, ReviewFile]]) -> dict[str, tuple[Any, ...]]:
    """deck -> (seat-games, decisions, accuracy, mean loss, best, good, inaccuracies, mistakes, blunders, wrong),
    from the review files and the logs' deck lists."""
    by: dict[str, list[tuple[str, int, Any]]] = defaultdict(list)
    for game, doc in pairs:
        for d in doc.decisions:
            by[game.header.decks[d.seat].name].append((doc.game_id, d.seat, d))
    out = {}
    for deck, rows in by.items():
        ds = [d for _, _, d in rows]
        counts = tuple(sum(d.verdict == c for d in ds) for c in ("best", "good", *WRONG))
        out[deck] = (len({(g, s) for g, s, _ in rows}), len(ds),
                     round(sum(move_accuracy(d.loss) for d in ds) / len(ds), 2),
                     round(sum(d.loss for d in ds) / len(ds), 4), *counts, sum(counts[2:]))  # fmt: skip
    return out


COUNTED = ["games", "decisions", "accuracy", "mean_loss", "best", "good", "inaccuracies", "mistakes", "blunders",
           "wrong"]  # fmt: skip


def test_review_accuracy_by_deck_agrees_with_a_recount_from_the_files(reviewed: Reviewed) -> None:
    want = _accuracy_recount(_reviews(reviewed))
    con = duckdb.connect(str(reviewed.db), read_only=True)
    try:
        result = run_report(con, "review_accuracy", min_games=0, filters=POOLED, database=str(reviewed.db))
    finally:
        con.close()
    got = {row["deck"]: tuple(row[c] for c in COUNTED) for row in result.frame.iter_rows(named=True)}
    assert got.keys() == want.keys() == {"clash", "glory"}
    for deck, row in want.items():
        assert got[deck][:2] == row[:2] and got[deck][4:] == row[4:]
        assert got[deck][2] == pytest.approx(row[2], abs=0.011) and got[deck][3] == pytest.approx(row[3], abs=1e-4)
    decisions = sum(len(doc.decisions) for _, doc in _reviews(reviewed))
    assert f"6 seat-games (6 of them reviewed: {decisions} decisions)" in result.sample
    for named in result.frame.iter_rows(named=True):
        assert named["wrong_rate"] == pytest.approx(named["wrong"] / named["decisions"], abs=1e-4)


def _card_recount(pairs: list[tuple[GameLog, ReviewFile]]) -> dict[tuple[str, str | None], tuple[Any, ...]]:
    """(option kind, card id of the choice made) -> the counts of ``_accuracy_recount``, from the logs' decisions."""
    by: dict[tuple[str, str | None], list[tuple[str, int, Any]]] = defaultdict(list)
    for game, doc in pairs:
        cards = {}
        for seat, deck in enumerate(game.header.decks):
            cards.update({instance_id(seat, i): c for i, c in enumerate(deck.cards)})
            cards[instance_id(seat, LEADER_INDEX)] = deck.leader
        chosen = {d.n: d.offered[d.chosen] for d in game.decisions}
        for d in doc.decisions:
            option = chosen[d.decision]
            card = getattr(option, "card", None)
            by[(type(option).__name__, None if card is None else cards[card])].append((doc.game_id, d.seat, d))
    out = {}
    for key, rows in by.items():
        ds = [d for _, _, d in rows]
        counts = tuple(sum(d.verdict == c for d in ds) for c in ("best", "good", *WRONG))
        out[key] = (len({(g, s) for g, s, _ in rows}), len(ds),
                    round(sum(move_accuracy(d.loss) for d in ds) / len(ds), 2),
                    round(sum(d.loss for d in ds) / len(ds), 4), *counts, sum(counts[2:]))  # fmt: skip
    return out


def test_review_cards_agrees_with_a_recount_from_the_logs_decisions(reviewed: Reviewed) -> None:
    want = _card_recount(_reviews(reviewed))
    con = duckdb.connect(str(reviewed.db), read_only=True)
    try:
        frame = run_report(con, "review_cards", min_games=0, filters=POOLED).frame
    finally:
        con.close()
    got = {(row["kind"], row["card_id"]): tuple(row[c] for c in COUNTED) for row in frame.iter_rows(named=True)}
    assert got.keys() == want.keys() and any(card is not None for _, card in got)
    for key, row in want.items():
        assert got[key][:2] == row[:2] and got[key][4:] == row[4:], key
        assert got[key][2] == pytest.approx(row[2], abs=0.011) and got[key][3] == pytest.approx(row[3], abs=1e-4)
    named = {row["card_id"]: row["card"] for row in frame.iter_rows(named=True) if row["card_id"] is not None}
    assert all(name for name in named.values())  # every card named from the game's pool
    accuracies = frame["accuracy"].to_list()
    assert accuracies == sorted(accuracies)  # worst first


def _copy(r: Reviewed, tmp_path: Path) -> tuple[Path, Path]:
    folder, db = tmp_path / "games", tmp_path / "db.duckdb"
    shutil.copytree(r.folder, folder)
    shutil.copy(r.db, db)
    return folder, db


def test_a_reingest_adds_nothing_twice_and_a_review_written_again_replaces_its_game(
    reviewed: Reviewed, tmp_path: Path
) -> None:
    folder, db = _copy(reviewed, tmp_path)
    before = _table(db, "SELECT * EXCLUDE (file) FROM decision_reviews")
    again = runner.invoke(app, ["ingest", str(folder), "--db", str(db), "-q"])
    assert again.exit_code == 0 and "3 already stored" in again.output
    assert _table(db, "SELECT * EXCLUDE (file) FROM decision_reviews") == before
    log = sorted(folder.glob("*.log"))[0]
    redone = runner.invoke(app, ["review", str(log), "--iterations", "5", "--seat", "0", "--save", "-f", "csv"])
    assert redone.exit_code == 0, redone.output
    runner.invoke(app, ["ingest", str(folder), "--db", str(db), "-q"])
    gid = read_log(log).header.game_id
    rows = _table(db, f"SELECT seat, iterations FROM decision_reviews WHERE game_id = '{gid}'")
    assert {row for row in rows} == {(0, 5)} and len(rows) == len(read_review(review_path(log)).decisions)
    others = _table(db, f"SELECT * EXCLUDE (file) FROM decision_reviews WHERE game_id <> '{gid}'")
    assert others == [row for row in before if row[1] != gid]


def test_a_damaged_review_is_skipped_and_named_and_the_stored_one_kept(reviewed: Reviewed, tmp_path: Path) -> None:
    folder, db = _copy(reviewed, tmp_path)
    before = _table(db, "SELECT * EXCLUDE (file) FROM decision_reviews")
    damaged = review_path(sorted(folder.glob("*.log"))[1])
    damaged.write_bytes(damaged.read_bytes()[:200])
    result = runner.invoke(app, ["ingest", str(folder), "--db", str(db), "-q"])
    assert result.exit_code == 0, result.output
    assert "decision reviews: 2 loaded" in result.output and "1 skipped" in result.output
    assert f"review skipped: {damaged}: DamagedReviewError: {damaged}: not a review file" in result.output
    assert _table(db, "SELECT * EXCLUDE (file) FROM decision_reviews") == before
    strict = runner.invoke(app, ["ingest", str(folder), "--db", str(db), "--strict", "-q"])
    assert strict.exit_code == 1 and f"--strict: {damaged}: DamagedReviewError" in strict.output
    assert isinstance(strict.exception, SystemExit)  # a named error, not a traceback
    out_of_range = msgspec.json.decode(review_path(sorted(folder.glob("*.log"))[0]).read_bytes())
    out_of_range["decisions"][0]["loss"] = 1.5
    damaged.write_bytes(msgspec.json.encode(out_of_range))
    result = runner.invoke(app, ["ingest", str(folder), "--db", str(db), "-q"])
    assert "loss 1.5 is not a chance between 0 and 1" in result.output


def test_a_review_of_a_game_not_in_the_database_or_of_other_decisions_is_skipped(
    reviewed: Reviewed, tmp_path: Path
) -> None:
    folder = tmp_path / "games"
    shutil.copytree(reviewed.folder, folder)
    logs = sorted(folder.glob("*.log"))
    logs[0].write_bytes(logs[0].read_bytes()[:-40])  # its log cut short: quarantined, so its game is not stored
    doc = read_review(review_path(logs[1]))
    wrong = msgspec.structs.replace(doc, decisions=[msgspec.structs.replace(doc.decisions[0], decision=99999)])
    review_path(logs[1]).write_bytes(msgspec.json.encode(wrong))
    db = tmp_path / "fresh.duckdb"
    result = runner.invoke(app, ["ingest", str(folder), "--db", str(db), "-q"])
    assert result.exit_code == 0, result.output
    assert "2 games added" in result.output and "1 quarantined" in result.output
    assert f"review skipped: {review_path(logs[0])}: ReviewGameNotStoredError:" in result.output
    assert "is not in the database" in result.output
    assert f"review skipped: {review_path(logs[1])}: ReviewMismatchError:" in result.output
    assert "decision 99999 by seat" in result.output
    assert _table(db, "SELECT DISTINCT game_id FROM decision_reviews") == [(read_log(logs[2]).header.game_id,)]


def test_a_removed_game_takes_its_review_rows_with_it(reviewed: Reviewed, tmp_path: Path) -> None:
    _, db = _copy(reviewed, tmp_path)
    gid = read_log(reviewed.logs[0]).header.game_id
    remove_game(db, gid, "a test of the review rows")
    assert _table(db, f"SELECT count(*) FROM decision_reviews WHERE game_id = '{gid}'") == [(0,)]
    assert _table(db, "SELECT count(DISTINCT game_id) FROM decision_reviews") == [(2,)]


def test_several_logs_take_the_table_format_only(reviewed: Reviewed) -> None:
    result = runner.invoke(app, ["review", *map(str, reviewed.logs), "-f", "json", "--iterations", "2"])
    assert result.exit_code == 2 and "--format json reviews one log" in result.output


def test_a_superseded_game_keeps_its_review_under_its_new_game_number(reviewed: Reviewed, tmp_path: Path) -> None:
    """A judge's warning appended to a log: the grown log replaces the stored game (a new game number, the old
    rows withdrawn), and the review beside it is loaded again for the new game: its decisions are the same."""
    folder, db = tmp_path / "games", tmp_path / "here.duckdb"  # the stored games read from these very files
    shutil.copytree(reviewed.folder, folder)
    assert runner.invoke(app, ["ingest", str(folder), "--db", str(db), "-q"]).exit_code == 0
    log = sorted(folder.glob("*.log"))[0]
    warned = runner.invoke(app, ["judge", "warn", str(log), "--judge", "R. Vance", "--player", "p1", "--reason",
                                 "slow play"])  # fmt: skip
    assert warned.exit_code == 0, warned.output
    said = runner.invoke(app, ["ingest", str(folder), "--db", str(db), "-q"]).output
    assert "1 stored games superseded" in said and "decision reviews: 3 loaded" in said
    assert _stored(db) == _from_files(_reviews(reviewed))  # every row under its game's current number, none twice
    gid = read_log(log).header.game_id
    assert _table(db, f"SELECT DISTINCT r.game = g.game FROM decision_reviews r JOIN games g ON g.game_id = "
                      f"r.game_id WHERE r.game_id = '{gid}'") == [(True,)]  # fmt: skip


def test_a_review_of_a_decision_asked_at_another_moment_is_skipped(reviewed: Reviewed, tmp_path: Path) -> None:
    """The decision's number and seat match but not the moment it was asked (a review of another version of the
    game, say one backed up and resumed): the review is refused, the stored rows kept."""
    folder, db = _copy(reviewed, tmp_path)
    before = _table(db, "SELECT * EXCLUDE (file) FROM decision_reviews")
    path = review_path(sorted(folder.glob("*.log"))[2])
    doc = read_review(path)
    moved = msgspec.structs.replace(doc.decisions[-1], at=doc.decisions[-1].at + 1)
    path.write_bytes(msgspec.json.encode(msgspec.structs.replace(doc, decisions=[*doc.decisions[:-1], moved])))
    result = runner.invoke(app, ["ingest", str(folder), "--db", str(db), "-q"])
    assert f"review skipped: {path}: ReviewMismatchError: {path}: decision {moved.decision} by seat" in result.output
    assert f"at event {moved.at} ({moved.point}) is not one of stored game" in result.output
    assert _table(db, "SELECT * EXCLUDE (file) FROM decision_reviews") == before
