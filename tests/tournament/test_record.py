"""The event's record is tamper-evident: ``event verify`` catches every edited byte of every file in the folder,
every deleted or added file, a swap of a match's games, and a record re-chained or re-signed by another key; and
the record only ever grows (each command appends to it)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from annals.cli.main import app
from annals.engine.tournament import event as lib
from annals.engine.tournament import play
from annals.engine.tournament import rounds as loop
from annals.engine.tournament.store import EventStore
from annals.engine.tournament.verify import verify_event
from annals.schemas.event import Outcome
from annals.schemas.eventlog import read_event_log, signed_acts
from annals.schemas.keys import SigningKey

runner = CliRunner()


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished 5-player MORANA event (byes), best of 3, two rounds, with a drop and a correction."""
    folder = tmp_path_factory.mktemp("record") / "event"
    lib.new_event(folder, "record", "morana", rounds=2, best_of=3, seed=21)
    store = EventStore.open(folder)
    lib.fill_with_bots(store, 5)
    play.play_round(store, 1)
    lib.drop(store, "bot-005")
    play.run_event(store)
    m = store.match(1, 1)
    assert m is not None
    loop.correct(store, 1, 1, Outcome(m.wins_b, m.wins_a, m.draws), judge="R. Vance", reason="slip reversed")
    assert verify_event(folder).ok, verify_event(folder).problems
    return folder


@pytest.fixture
def copy(played: Path, tmp_path: Path) -> Path:
    folder = tmp_path / "event"
    shutil.copytree(played, folder)
    return folder


def files_of(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.is_file())


@pytest.fixture(scope="module")
def scratch(played: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    folder = tmp_path_factory.mktemp("scratch") / "event"
    shutil.copytree(played, folder)
    yield folder


def test_the_folder_holds_every_kind_of_file(played: Path) -> None:
    names = {str(p.relative_to(played)).split("/")[0] for p in files_of(played)}
    assert names == {"event.log", "event.key", "event.pub", "decks", "logs"}


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_every_edited_byte_of_every_file_is_caught(scratch: Path, data: st.DataObject) -> None:
    files = files_of(scratch)
    path = data.draw(st.sampled_from(files), label="file")
    raw = path.read_bytes()
    at = data.draw(st.integers(0, len(raw) - 1), label="byte")
    value = data.draw(st.integers(0, 255).filter(lambda v: v != raw[at]), label="value")
    path.write_bytes(raw[:at] + bytes([value]) + raw[at + 1 :])
    try:
        verdict = verify_event(scratch)
    finally:
        path.write_bytes(raw)
    assert not verdict.ok, (path, at)
    assert verdict.problems[0].path in (str(path.relative_to(scratch)), "event.log")


def test_the_record_is_checked_at_each_of_its_bytes(scratch: Path) -> None:
    """Every byte position of the record itself, each changed once, caught by the record's own checks (the first
    step of verify; the Hypothesis test samples the whole folder through the whole verify)."""
    path = scratch / "event.log"
    raw = path.read_bytes()
    try:
        for at in range(len(raw)):
            path.write_bytes(raw[:at] + bytes([raw[at] ^ 0x01]) + raw[at + 1 :])
            assert not verify_event(scratch, record_only=True).ok, at
    finally:
        path.write_bytes(raw)


def test_every_deleted_log_is_caught(scratch: Path) -> None:
    logs = sorted((scratch / "logs").rglob("*.log"))
    assert len(logs) >= 8
    for log in logs:
        raw = log.read_bytes()
        log.unlink()
        try:
            verdict = verify_event(scratch)
        finally:
            log.write_bytes(raw)
        rel = str(log.relative_to(scratch))
        assert [p.path for p in verdict.problems] == [rel] and "missing" in verdict.problems[0].message


def test_every_deleted_deck_list_and_key_file_is_caught(scratch: Path) -> None:
    for path in [*sorted((scratch / "decks").iterdir()), scratch / "event.pub", scratch / "event.log"]:
        raw = path.read_bytes()
        path.unlink()
        try:
            verdict = verify_event(scratch)
        finally:
            path.write_bytes(raw)
        assert not verdict.ok and "missing" in verdict.problems[0].message, path


def test_a_swap_of_a_matchs_games_is_caught(copy: Path) -> None:
    store = EventStore.open(copy)
    swapped = 0
    for m in store.matches():
        if len(m.games) < 2:
            continue
        one, two = copy / m.games[0].log, copy / m.games[1].log
        a, b = one.read_bytes(), two.read_bytes()
        one.write_bytes(b)
        two.write_bytes(a)
        verdict = verify_event(copy)
        one.write_bytes(a)
        two.write_bytes(b)
        assert not verdict.ok
        said = " ".join(p.message for p in verdict.problems)
        assert f"game {m.games[1].number}" in said and "not event" in said and "logs swapped or moved" in said
        swapped += 1
    assert swapped >= 4


def test_an_added_or_renamed_file_is_caught(copy: Path) -> None:
    (copy / "notes.txt").write_text("who won\n")
    verdict = verify_event(copy)
    assert [str(p) for p in verdict.problems] == ["notes.txt: not part of the event's record (added, or a file of "
                                                  "the record renamed)"]  # fmt: skip
    (copy / "notes.txt").unlink()
    deck = next((copy / "decks").iterdir())
    deck.rename(deck.with_name("someone-else.txt"))
    said = [p.path for p in verify_event(copy).problems]
    assert said == [str(deck.relative_to(copy)), "decks/someone-else.txt"]


def test_a_record_rechained_and_signed_by_another_key_is_caught(copy: Path) -> None:
    """Someone without the event's key appends a forged result, chained and signed with a key of their own."""
    path = copy / "event.log"
    raw = path.read_bytes()
    record = read_event_log(path)
    forger = SigningKey.generate("forger")
    last = record.acts[-1]
    path.write_bytes(raw + signed_acts(raw, record, EventStore.open(copy).config().event_id, forger, [last]))
    verdict = verify_event(copy)
    assert not verdict.ok and f"is by key {forger.fingerprint}, not the event's key" in verdict.problems[0].message


def test_an_unsigned_tail_is_caught(copy: Path) -> None:
    path = copy / "event.log"
    raw = path.read_bytes()
    record = read_event_log(path)
    key = EventStore.open(copy).signing_key()
    more = signed_acts(raw, record, EventStore.open(copy).config().event_id, key, [record.acts[-1]])
    whole = raw + more
    cut = read_event_log(path, whole).signatures[-1].offset
    path.write_bytes(whole[:cut])  # the act appended, without its signature frame
    verdict = verify_event(copy)
    assert not verdict.ok and "unsigned" in verdict.problems[0].message


def test_standings_refuse_an_event_that_fails_verify_by_name(copy: Path) -> None:
    deck = copy / "decks" / "bot-001.txt"
    deck.write_text(deck.read_text() + "\n")
    done = runner.invoke(app, ["event", "standings", str(copy)])
    assert done.exit_code == 1 and len(done.stderr.strip().splitlines()) == 1
    assert "fails verification: decks/bot-001.txt" in done.stderr
    told = runner.invoke(app, ["event", "verify", str(copy)])
    assert told.exit_code == 1 and "SHA-256 differs" in told.stderr


def test_verify_says_what_it_checked(played: Path) -> None:
    done = runner.invoke(app, ["event", "verify", str(played), "--key", str(played / "event.pub"), "--replay"])
    assert done.exit_code == 0, done.output
    store = EventStore.open(played)
    games = sum(len(m.games) for m in store.matches())
    assert f"5 deck lists and {games} game logs as recorded; every game re-run identically" in done.stdout
    record = read_event_log(played / "event.log")
    acts, signatures = len(record.acts), len(record.signatures)
    assert acts > signatures  # a command that records several acts signs them once
    assert f"{acts} acts, every one signed by " in done.stdout  # it read "23 acts ... (22 signatures)", unexplained
    assert f" (a command's acts are signed together: {signatures} signatures); " in done.stdout


def test_verify_record_only_checks_the_record_and_skips_the_files(copy: Path) -> None:
    """A deck list edited is not looked at by --record-only (it checks the record and its signatures), but an edited
    record still is; --replay with it is a usage error."""
    deck = copy / "decks" / "bot-001.txt"
    deck.write_text(deck.read_text() + "\n")
    quick = runner.invoke(app, ["event", "verify", str(copy), "--record-only"])
    assert quick.exit_code == 0, quick.output
    assert "deck lists and game logs not checked (--record-only)" in quick.stdout
    assert runner.invoke(app, ["event", "verify", str(copy)]).exit_code == 1
    both = runner.invoke(app, ["event", "verify", str(copy), "--record-only", "--replay"])
    assert both.exit_code == 2 and "--record-only" in both.stderr
    record = copy / "event.log"
    raw = bytearray(record.read_bytes())
    raw[len(raw) // 2] ^= 0xFF
    record.write_bytes(bytes(raw))
    broken = runner.invoke(app, ["event", "verify", str(copy), "--record-only"])
    assert broken.exit_code == 1 and "event.log" in broken.stderr


class SeatingChart(msgspec.Struct, frozen=True, tag_field="act", tag="seating_chart"):
    """An act of a newer annals this one does not know (acts are a tagged union: ``schemas.event.Act``)."""

    tables: list[int]


def test_an_act_of_a_newer_annals_is_said_so_not_taken_for_damage(copy: Path) -> None:
    """A record a newer annals appended to (an act unknown here, chained and signed by the event's own key) reads as
    a frame this annals cannot read but intact, with what to do; nothing in the folder is changed."""
    path = copy / "event.log"
    raw = path.read_bytes()
    record = read_event_log(path)
    store = EventStore.open(copy)
    newer = cast(Any, [SeatingChart([1, 2])])
    path.write_bytes(raw + signed_acts(raw, record, store.config().event_id, store.signing_key(), newer))
    before = path.read_bytes()
    verdict = verify_event(copy)
    assert not verdict.ok
    message = verdict.problems[0].message
    assert f"frame {record.frames}" in message and "seating_chart" in message, message
    assert "the frame is intact" in message and "a newer annals most likely wrote it: upgrade" in message, message
    shown = runner.invoke(app, ["event", "verify", str(copy)])
    assert shown.exit_code != 0 and "newer annals" in " ".join(shown.output.split()), shown.output
    assert "Traceback" not in shown.output
    assert path.read_bytes() == before
