"""Each way a log can lie with intact checksums and chain, as ``verify`` and ingest see it: the closing record,
a log cut short, no events, decisions (``n``, ``at``, ``chosen``, one appended), header fields, another game's
id, event numbers that jump inside a frame. Every edit is rechained (``tests.relog``); verify names the frame and
field, ingest quarantines it (plain ingest where the records contradict each other, ``--replay`` where only a
re-run tells)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import duckdb
import msgspec
import pytest

from annals.engine.replay import verify_log
from annals.engine.simulate import simulate
from annals.engine.words import Words
from annals.ingest.flatten import flatten_files
from annals.ingest.loader import ingest
from annals.schemas.errors import CorruptLogError, InconsistentLogError
from annals.schemas.logfile import read_log
from annals.schemas.validate import PURE_PYTHON_VARIABLE
from tests.helpers import toy_log
from tests.relog import Frame, read_frames, rederive, write_frames

Frames = list[Any]  # decoded payloads: header dict, [events, decisions] lists, close dict


@pytest.fixture(scope="module")
def toy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A toy game recorded live: one frame per decision."""
    return toy_log(tmp_path_factory.mktemp("toy"), seed=4)[0]


def rewrite(source: Path, target: Path, change: Callable[[Frames], None], *, rederive_id: bool = True) -> Path:
    """``source`` decoded, changed, encoded again with every CRC and the chain recomputed (and the header's game
    id derived again, unless told not to)."""
    preamble, frames = read_frames(source)
    values = [msgspec.msgpack.decode(f.payload) for f in frames]
    change(values)
    kinds = ["H"] + ["B"] * (len(values) - 2) + ["C"]
    payloads = [msgspec.msgpack.encode(v) for v in values]
    if rederive_id:
        payloads[0] = rederive(payloads[0])
    write_frames(target, preamble, [Frame(k, p) for k, p in zip(kinds, payloads, strict=True)])
    return target


def refused(path: Path) -> InconsistentLogError | CorruptLogError:
    """Verify's error, the same whether the reader checks frames in C or with the reference alone."""
    errors = []
    for pure in (False, True):
        with pytest.MonkeyPatch.context() as env:
            if pure:
                env.setenv(PURE_PYTHON_VARIABLE, "1")
            with pytest.raises(CorruptLogError) as info:
                verify_log(path)
        errors.append(info.value)
    assert str(errors[0]) == str(errors[1]) and type(errors[0]) is type(errors[1])
    return errors[0]


def ingest_reason(path: Path, *, replay: bool = False) -> str | None:
    """Why ingest's read-and-check stage quarantines ``path`` (C path and reference alike), or None."""
    verdicts = []
    for fast in (True, False):
        chunk = flatten_files([str(path)], {}, fast=fast, replay=replay)
        verdicts.append(chunk.bad[0] if chunk.bad else None)
    assert verdicts[0] == verdicts[1]
    bad = verdicts[0]
    if bad is not None:
        assert bad.frame is not None and bad.offset is not None, bad
    return None if bad is None else f"frame {bad.frame}: {bad.reason}"


def close_of(values: Frames) -> dict[str, Any]:
    close: dict[str, Any] = values[-1]
    return close


# ---------------------------------------------------------------- the closing record


@pytest.mark.parametrize(
    ("field", "value"), [("winner", None), ("end_reason", "conceded"), ("turns", 99), ("events", 1)]
)
def test_an_edited_closing_record_is_refused_naming_it(toy: Path, tmp_path: Path, field: str, value: Any) -> None:
    """[M9-086] the winner is who the game's end says: a closing record claiming another winner, end reason, turn
    count or event count is refused by verify and by plain ingest, naming the closing frame and the field."""
    original = read_log(toy).close

    def edit(values: Frames) -> None:
        close_of(values)[field] = 1 - original.winner if value is None else value

    path = rewrite(toy, tmp_path / "close.log", edit)
    error = refused(path)
    last = len(read_frames(path)[1]) - 1
    assert error.frame == last and error.field is not None and error.field.startswith("close"), error
    assert field in error.field or field == "events", error
    reason = ingest_reason(path)
    assert reason is not None and reason.startswith(f"frame {last}: close")


def test_an_edited_winner_is_not_stored(toy: Path, tmp_path: Path) -> None:
    """The issue's example end to end: the edited winner never reaches the games table that every report reads."""
    folder = tmp_path / "logs"
    folder.mkdir()
    winner = read_log(toy).close.winner
    path = rewrite(toy, folder / "edited.log", lambda values: close_of(values).update(winner=1 - winner))
    db = tmp_path / "w.duckdb"
    report = ingest([folder], db, workers=1)
    assert report.games_added == 0 and report.files_quarantined == 1 and report.reconciled
    con = duckdb.connect(str(db), read_only=True)
    assert con.execute("SELECT count(*) FROM games").fetchall() == [(0,)]
    last = len(read_frames(path)[1]) - 1
    assert con.execute("SELECT error, frame FROM quarantine").fetchall() == [("InconsistentLogError", last)]
    con.close()


# ---------------------------------------------------------------- a log cut short, or with no events


def test_a_log_cut_before_its_end_with_a_matching_close_is_refused(toy: Path, tmp_path: Path) -> None:
    """Batch frames dropped from the end and a closing record rewritten to count what is left: the last event is
    no end event, so the record cannot be a result (ingest and verify), and the re-run goes on (verify)."""

    def cut(values: Frames) -> None:
        del values[-4:-1]
        events = [e for _, batch in enumerate(values[1:-1]) for e in batch[0]]
        decisions = [d for batch in values[1:-1] for d in batch[1]]
        close_of(values).update(events=len(events), decisions=len(decisions), turns=events[-1][2])

    path = rewrite(toy, tmp_path / "cut.log", cut)
    error = refused(path)
    assert error.field is not None and error.field.startswith("close"), error
    assert ingest_reason(path) is not None


def test_a_cut_log_relabelled_as_capped_is_another_game(toy: Path, tmp_path: Path) -> None:
    """The same cut, at a step's end, claiming a turn cap below its last turn (game id derived again): that is a
    whole, legal game of another header, which is all a re-run can prove (who made it is a signature's to say).
    It is not the original game either: its id differs, so it cannot push the original out of a database."""

    def cut(values: Frames) -> None:
        del values[-4:-1]
        events = [e for batch in values[1:-1] for e in batch[0]]
        decisions = [d for batch in values[1:-1] for d in batch[1]]
        values[0]["max_turns"] = events[-1][2] - 1
        close_of(values).update(winner=-1, end_reason="turn_cap", events=len(events), decisions=len(decisions),
                                turns=events[-1][2])  # fmt: skip

    path = rewrite(toy, tmp_path / "cap.log", cut)
    verify_log(path)
    assert ingest_reason(path, replay=True) is None
    assert read_log(path).header.game_id != read_log(toy).header.game_id


def test_a_cut_log_with_a_turn_cap_it_does_not_reach_is_refused(toy: Path, tmp_path: Path) -> None:
    """Cut in the middle of a turn instead, with the same claim: the re-run of the capped game goes on past the
    log's end, which verify and ``ingest --replay`` name; the records agree, so plain ingest cannot tell."""

    def cut(values: Frames) -> None:
        del values[-4:-1]
        values[-2][0][-1:] = []  # the last event of the last kept frame
        values[-2][1] = [d for d in values[-2][1] if d[1] <= values[-2][0][-1][1]]
        events = [e for batch in values[1:-1] for e in batch[0]]
        decisions = [d for batch in values[1:-1] for d in batch[1]]
        values[0]["max_turns"] = events[-1][2] - 1
        close_of(values).update(winner=-1, end_reason="turn_cap", events=len(events), decisions=len(decisions),
                                turns=events[-1][2])  # fmt: skip

    path = rewrite(toy, tmp_path / "cap.log", cut)
    error = refused(path)
    assert error.field is not None and error.field.startswith(("event", "decision")), error
    assert "goes on" in str(error) or "no more decisions" in str(error)
    assert ingest_reason(path) is None
    assert ingest_reason(path, replay=True) is not None


def test_a_header_and_a_close_with_no_events_are_refused(toy: Path, tmp_path: Path) -> None:
    def empty(values: Frames) -> None:
        values[1:-1] = []
        close_of(values).update(events=0, decisions=0, turns=0)

    path = rewrite(toy, tmp_path / "empty.log", empty)
    error = refused(path)
    assert error.frame == 1 and "no events" in str(error)
    assert ingest_reason(path) is not None and "no events" in str(ingest_reason(path))


# ---------------------------------------------------------------- decisions


def first_decision_frame(values: Frames) -> int:
    return next(i for i, v in enumerate(values[1:-1], start=1) if v[1])


@pytest.mark.parametrize(
    ("field", "value", "plain"),
    [("n", 5, True), ("at", 0, False), ("chosen", -1, True), ("chosen", 7, True), ("point", "elsewhere", False)],
)
def test_an_edited_decision_is_refused_naming_it(
    toy: Path, tmp_path: Path, field: str, value: Any, plain: bool
) -> None:
    """A decision's number, event, chosen index (``-1`` is not Python's last option; 7 is past the options) or
    point: verify names the decision and field; plain ingest refuses what is impossible on its face."""
    index = {"n": 0, "at": 1, "point": 3, "chosen": 5}[field]
    values = [msgspec.msgpack.decode(f.payload) for f in read_frames(toy)[1]]
    frame = next(i for i, v in enumerate(values[1:-1], start=1) if v[1] and v[1][0][1] > 0)

    def edit(values: Frames) -> None:
        values[frame][1][0][index] = value

    path = rewrite(toy, tmp_path / "decision.log", edit)
    error = refused(path)
    assert error.frame == frame and error.field is not None and field in error.field, error
    assert (ingest_reason(path) is not None) == plain
    assert ingest_reason(path, replay=True) is not None


def test_a_decision_appended_after_the_last_is_refused(toy: Path, tmp_path: Path) -> None:
    def append(values: Frames) -> None:
        last = values[-2]
        close = close_of(values)
        last[1].append([close["decisions"], close["events"], 0, "take", [[1, 1]], 0])
        close["decisions"] += 1

    path = rewrite(toy, tmp_path / "appended.log", append)
    error = refused(path)
    assert "after the game's last question" in str(error) and error.field is not None
    assert ingest_reason(path, replay=True) is not None


def test_an_unknown_option_tag_among_those_not_chosen_is_refused_by_both(toy: Path, tmp_path: Path) -> None:
    """The reader refuses an option it cannot decode; ingest used to store it (it looked at the chosen one only)."""

    def edit(values: Frames) -> None:
        decision = values[first_decision_frame(values)][1][0]
        decision[4].append([99, 1])

    path = rewrite(toy, tmp_path / "option.log", edit)
    refused(path)
    reason = ingest_reason(path)
    assert reason is not None and "offered" in reason


# ---------------------------------------------------------------- events


def test_event_numbers_that_jump_inside_a_frame_are_refused_by_the_reader_too(toy: Path, tmp_path: Path) -> None:
    def jump(values: Frames) -> None:
        events = next(v for v in values[1:-1] if len(v[0]) >= 3)[0]
        events[1][1] += 5

    path = rewrite(toy, tmp_path / "jump.log", jump)
    with pytest.raises(InconsistentLogError, match="event number"):
        read_log(path)
    assert "event number" in str(refused(path))
    assert ingest_reason(path) is not None


# ---------------------------------------------------------------- the header


def test_a_header_carrying_another_games_id_is_refused(toy: Path, tmp_path: Path) -> None:
    """Without its own id, a log cannot push the real game out of the database: the reader refuses it."""
    other = read_log(toy_log(tmp_path, seed=9, name="other.log")[0]).header.game_id
    path = rewrite(toy, tmp_path / "id.log", lambda values: values[0].update(game_id=other), rederive_id=False)
    error = refused(path)
    assert error.frame == 0 and error.field == "header: game_id"
    assert ingest_reason(path) is not None and "game_id" in str(ingest_reason(path))


@pytest.mark.parametrize(
    ("change", "field", "plain"),
    [
        (lambda h: h.update(players=h["players"][:1], decks=h["decks"][:1]), "", True),
        (lambda h: h.update(decks=h["decks"][:1]), "header: decks", True),
        (
            lambda h: h.update(tournament={"event": "x", "round": -1, "table": 1, "match": "", "game": 1}),
            "header: tournament.round",
            True,
        ),
        (lambda h: h.update(card_pool_hash="0123456789abcdef"), "header: card_pool_hash", False),
        (lambda h: h.update(engine_version="9.9.9"), "header: engine_version", False),
        (lambda h: h.update(ruleset_version="7"), "header: ruleset_version", False),
        (lambda h: h.update(format_version=1), "header: format_version", True),
        (lambda h: h.update(max_turns=2), "", False),
        (lambda h: h.update(seed=h["seed"] + 1), "", False),
    ],
    ids=["players", "decks", "tournament", "pool", "engine", "ruleset-version", "format", "max-turns", "seed"],
)
def test_header_fields_are_checked(
    toy: Path, tmp_path: Path, change: Callable[[dict[str, Any]], None], field: str, plain: bool
) -> None:
    """Each header field, edited with the game id derived again: the shape is the reader's (plain ingest refuses
    it too), what the engine has or does is the re-run's (an unknown pool is ingest's to keep: it stores cards
    it does not describe)."""
    path = rewrite(toy, tmp_path / "header.log", lambda values: change(values[0]))
    error = refused(path)
    if field:
        assert error.field == field, error
    assert error.field is not None
    assert (ingest_reason(path) is not None) == plain
    assert ingest_reason(path, replay=True) is not None


def test_verify_says_what_it_proves_and_what_only_a_signature_does(tmp_path: Path) -> None:
    results = list(simulate("morana", 1, 3, ["clash", "glory"], ["heuristic", "random"], tmp_path))
    path = next(tmp_path.glob("*.log"))
    lines = verify_log(path).lines()
    assert lines[0].startswith(f"{path}: ok ({results[0].events} events re-run identically")
    assert lines[1].startswith("  integrity:") and lines[2].startswith("  replay:")
    # the end as the game's end line says it [MOR-05] (it read "winner 0 (slava_13)")
    players = [p.name for p in read_log(path).header.players]
    ending = Words("morana", str, players).ending(results[0].winner, results[0].end_reason)
    assert players[results[0].winner] in ending and "wins" in ending
    assert f"the game ends where the log does: {ending}, after" in lines[2], lines
    assert lines[3].startswith("  authorship: not proven") and "signature" in lines[3]


@pytest.mark.parametrize("workers", [1, 2])
def test_ingest_replay_quarantines_what_only_a_re_run_tells(toy: Path, tmp_path: Path, workers: int) -> None:
    """A decision whose point was renamed agrees with every other record, so plain ingest stores it; with
    ``replay`` (worker processes when there are workers) it is quarantined naming the decision, the rest stored."""
    folder = tmp_path / "logs"
    folder.mkdir()
    for seed in range(10, 14):
        toy_log(folder, seed=seed, name=f"good-{seed}.log")

    def rename(values: Frames) -> None:
        values[first_decision_frame(values)][1][0][3] = "elsewhere"

    bad = rewrite(toy, folder / "bad.log", rename)
    plain = ingest([folder], tmp_path / "plain.duckdb", workers=workers, chunk_files=1)
    assert plain.games_added == 5 and plain.files_quarantined == 0
    replayed = ingest([folder], tmp_path / "replay.duckdb", workers=workers, chunk_files=1, replay=True)
    assert replayed.games_added == 4 and replayed.files_quarantined == 1 and replayed.reconciled
    assert replayed.quarantined[0].startswith(f"{bad} (frame ") and "decision" in replayed.quarantined[0]
