"""A real event's logs signed by the event's key, and issue 11's tampering cases caught by ``annals verify --key``:
an edited result, an edited event, a game swapped between matches, a forged signature (the same cases over toy
logs, byte by byte, are in tests/records/test_signing.py). The private key never reaches a log or the database;
the judge's records (a log's J frame, a match override) reach ``interventions``."""

from __future__ import annotations

import shutil
import stat
from pathlib import Path

import duckdb
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from typer.testing import CliRunner

from annals.cli.main import app
from annals.engine.judge import intervene
from annals.engine.tournament import event as lib
from annals.engine.tournament import play
from annals.engine.tournament import rounds as loop
from annals.engine.tournament.store import EventStore
from annals.engine.tournament.verify import verify_event
from annals.schemas.event import Outcome
from annals.schemas.judge import Intervention
from annals.schemas.keys import SigningKey
from annals.schemas.logfile import KIND_CLOSE, KIND_HEADER, KIND_SIGNATURE, read_log
from annals.schemas.signing import SIGNED, sign_log, verify_signature
from tests.records.tampering import edit_frame, frames_of, write_frames

runner = CliRunner()
ROUNDS = 2


@pytest.fixture(scope="module")
def fresh(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 4-player MORANA event, best of 3, registered and not started."""
    folder = tmp_path_factory.mktemp("signed") / "spring"
    result = runner.invoke(app, ["event", "new", str(folder), "--ruleset", "morana", "--rounds", str(ROUNDS),
                                 "--seed", "11", "--max-turns", "30"])  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "its record and logs are signed by ed25519:" in result.output
    lib.fill_with_bots(EventStore.open(folder), 4)
    return folder


@pytest.fixture(scope="module")
def event(fresh: Path, tmp_path_factory: pytest.TempPathFactory) -> EventStore:
    """The event played to its end."""
    folder = tmp_path_factory.mktemp("played") / "spring"
    shutil.copytree(fresh, folder)
    store = EventStore.open(folder)
    play.run_event(store)
    return store


def logs_of(store: EventStore) -> list[Path]:
    return [store.folder / g.log for m in store.matches() for g in m.games]


def verify(path: Path, public: Path, *expect: str) -> tuple[int, str]:
    args = ["verify", str(path), "--key", str(public)]
    for pair in expect:
        args += ["--expect", pair]
    result = runner.invoke(app, args)
    return result.exit_code, result.output


def test_the_event_key_pair_is_made_at_event_new_private_0600(event: EventStore) -> None:
    key = event.folder / "event.key"
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    assert event.public_key() == event.signing_key().public
    assert event.public_key().name == event.config().event_id  # verify names the event


def test_every_log_of_the_event_verifies_signed_by_the_event(event: EventStore) -> None:
    public = event.public_key_path
    logs = logs_of(event)
    assert len(logs) >= 2 * ROUNDS * 2  # two matches a round, at least two games each
    for path in logs:
        status = verify_signature(path, event.public_key())
        assert status.state == SIGNED and status.signatures == 1, (path, status.message)
        code, output = verify(path, public)
        assert code == 0 and f"signed by {event.config().event_id} (ed25519:" in output, output


def test_a_resumed_event_signs_a_finished_unsigned_log_and_leaves_a_signed_one(
    fresh: Path, event: EventStore, tmp_path: Path
) -> None:
    """A crash between a game's end and its signature: the next run signs the log it finds whole, once."""
    folder = tmp_path / "copy"
    shutil.copytree(fresh, folder)
    store = EventStore.open(folder)
    play.play_round(store, 1)
    loop.pair_next(store)
    last = next(m for m in event.matches() if m.round == ROUNDS and m.b)
    path = folder / last.games[0].log
    signed = (event.folder / last.games[0].log).read_bytes()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(signed)
    preamble, raw = frames_of(path)
    assert raw[-1][0] == KIND_SIGNATURE
    write_frames(path, preamble, raw[:-1])  # the log as the game left it, before its signature
    play.run_event(store)
    assert path.read_bytes() == signed  # Ed25519 is deterministic: the same signature again
    play.run_event(store)
    assert path.read_bytes() == signed and store.match(last.round, last.table) == last
    assert verify_event(folder).ok


def test_an_edited_result_is_caught(event: EventStore, tmp_path: Path) -> None:
    path = tmp_path / "edited.log"
    shutil.copy(logs_of(event)[0], path)
    winner = read_log(path).close.winner

    def flip(close: dict[str, object]) -> None:
        close["winner"] = 1 - winner if winner >= 0 else 0

    edit_frame(path, KIND_CLOSE, flip)  # re-chained; the closing record no longer matches the game's end event
    code, output = verify(path, event.public_key_path)
    assert code == 1 and "close: winner" in output


def test_an_edited_event_is_caught(event: EventStore, tmp_path: Path) -> None:
    path = tmp_path / "renamed.log"
    shutil.copy(logs_of(event)[0], path)

    def another_event(header: dict[str, object]) -> None:
        info = header["tournament"]
        assert isinstance(info, dict)
        info["event"] = "autumn-00000000"
        info["round"] = 5

    edit_frame(path, KIND_HEADER, another_event, which=0, rederive=True)
    assert read_log(path).header.tournament is not None  # consistent, game id and all: only the signature tells
    code, output = verify(path, event.public_key_path)
    assert code == 1 and "signature invalid" in output and "it was made for game" in output


def test_a_game_swapped_between_matches_is_caught(event: EventStore, tmp_path: Path) -> None:
    """An authentic log of table 2 put in table 1's place: signed by the event, but not this match's game."""
    first = [m for m in event.matches() if m.round == 1]
    a, b = (next(m for m in first if m.table == t) for t in (1, 2))
    place = event.folder / a.games[0].log
    swapped = shutil.copy(event.folder / b.games[0].log, tmp_path / "swapped.log")
    code, output = verify(Path(swapped), event.public_key_path, "match=r1-t1", "table=1")
    assert code == 1
    assert "the log belongs to match 'r1-t2', not 'r1-t1'" in output
    assert f"signed by {event.config().event_id}" in output
    assert verify(place, event.public_key_path, "match=r1-t1", "table=1")[0] == 0
    copy = tmp_path / "event"
    shutil.copytree(event.folder, copy)
    shutil.copy(swapped, copy / a.games[0].log)
    verdict = verify_event(copy)  # the event's own check names the swapped log, though it is the event's
    assert not verdict.ok and any("logs swapped or moved" in p.message for p in verdict.problems)


def test_a_forged_signature_is_caught(event: EventStore, tmp_path: Path) -> None:
    forger = SigningKey.generate(event.config().event_id)  # the event's name does not help
    path = tmp_path / "forged.log"
    shutil.copy(logs_of(event)[0], path)
    preamble, raw = frames_of(path)
    write_frames(path, preamble, raw[:-1])
    sign_log(path, forger)
    code, output = verify(path, event.public_key_path)
    assert code == 1 and f"signed by key {forger.fingerprint}, not by the trusted key" in output
    real = event.public_key()

    def pose_as_the_event(record: dict[str, object]) -> None:
        record["key"] = real.fingerprint
        record["public_key"] = real.raw

    edit_frame(path, KIND_SIGNATURE, pose_as_the_event)
    code, output = verify(path, event.public_key_path)
    assert code == 1 and f"the Ed25519 signature does not verify with key {real.fingerprint}" in output


def test_judge_records_reach_the_database_and_the_key_never_does(event: EventStore, tmp_path: Path) -> None:
    folder = tmp_path / "judged"
    shutil.copytree(event.folder, folder)
    store = EventStore.open(folder)
    last = next(m for m in store.matches() if m.round == ROUNDS and m.b)
    log = folder / last.games[0].log
    intervene(log, Intervention("warning", "J. Doe", player=1, reason="slow play"), key=store.signing_key())
    assert verify_signature(log, store.public_key()).state == SIGNED  # re-signed by the judge's command
    loop.correct(store, ROUNDS, last.table, Outcome(2, 0, 0), judge="A. Head", reason="game loss: deck error")
    assert verify_event(folder).ok, verify_event(folder).problems  # a judge's frames after the report are fine
    db = tmp_path / "annals.duckdb"
    done = runner.invoke(app, ["ingest", str(folder), "--db", str(db), "-q"])
    assert done.exit_code == 0 and "0 quarantined" in done.output, done.output
    con = duckdb.connect(str(db), read_only=True)
    rows = con.execute(
        "SELECT kind, judge, player_id, reason, round, table_no, game_no, game_id, frame IS NOT NULL, "
        "data->>'$.reason' FROM interventions ORDER BY kind"
    ).fetchall()
    con.close()
    info = read_log(log).header
    assert info.tournament is not None
    seat1 = info.tournament.player_ids[1]
    assert rows == [
        ("match_override", "A. Head", None, "game loss: deck error", ROUNDS, last.table, None, None, False,
         "game loss: deck error"),
        ("warning", "J. Doe", seat1, "slow play", ROUNDS, last.table, 1, info.game_id, True, "slow play"),
    ]  # fmt: skip
    again = runner.invoke(app, ["ingest", str(folder), "--db", str(db), "-q"])
    assert again.exit_code == 0, again.output
    con = duckdb.connect(str(db), read_only=True)
    assert con.execute("SELECT count(*) FROM interventions").fetchall() == [(2,)]  # re-ingest: the same rows
    con.close()
    pem = (folder / "event.key").read_bytes()
    private = serialization.load_pem_private_key(pem, password=None)
    assert isinstance(private, Ed25519PrivateKey)
    secrets = (pem[pem.index(b"-----BEGIN") :], private.private_bytes_raw())
    for blob in [db.read_bytes(), *(p.read_bytes() for p in (folder / "logs").rglob("*.log"))]:
        assert not any(s in blob for s in secrets)
