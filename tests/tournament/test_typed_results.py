"""A match result as organisers type it: ``2:1``, ``2–1`` (a phone's dash), ``2 - 1``, ``2—1`` are ``2-1``, at the
terminal (``annals event result``) and in the desk's box (``POST /api/desk/result`` of a real server), one parser
for both; what is no result stays refused by name, and so does a result no best of 3 can have [R-EVT-16]."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from annals.cli.main import app
from annals.engine.tournament import event as lib
from annals.engine.tournament import rounds as loop
from annals.engine.tournament.store import EventStore
from annals.schemas.event import INTENTIONAL_DRAW, TOP
from tests.eventkit import ORGANISER, call
from tests.serverkit import server

runner = CliRunner()

# (typed, the games it says: won by the first-named, by the second, drawn)
SPELLINGS = [("2:1", (2, 1, 0)), ("2–1", (2, 1, 0)), (" 2 - 0 ", (2, 0, 0)), ("1—1-1", (1, 1, 1))]
NO_RESULT = ["2/1", "2 1", "2--1", "2-1-", "2-1-1-1", "²-1", "two-one"]


def _event(folder: Path) -> EventStore:
    made = runner.invoke(app, ["event", "new", str(folder), "--ruleset", "miras9", "--rounds", "1", "--seed", "5"])
    assert made.exit_code == 0, made.output
    store = EventStore.open(folder)
    lib.fill_with_bots(store, 2 * len(SPELLINGS))
    loop.pair_next(store)
    return store


def _games(store: EventStore) -> dict[int, tuple[int, int, int]]:
    return {m.table: (m.wins_a, m.wins_b, m.draws) for m in store.matches()}


def test_annals_event_result_takes_a_result_as_people_type_it_R_EVT_16(tmp_path: Path) -> None:
    store = _event(tmp_path / "club")
    for table, (typed, _) in enumerate(SPELLINGS, start=1):
        args = ["event", "result", str(store.folder), "--round", "1", "--table", str(table), typed]
        done = runner.invoke(app, args)
        assert done.exit_code == 0, (typed, done.output)
    assert _games(store) == {table: games for table, (_, games) in enumerate(SPELLINGS, start=1)}

    fix = ["event", "correct", str(store.folder), "--round", "1", "--table", "1", "--judge", "J", "--reason", "r"]
    for typed in NO_RESULT:
        bad = runner.invoke(app, [*fix, typed])
        assert bad.exit_code == 2 and f"result {typed!r}: write the games won" in bad.stderr, (typed, bad.stderr)
    bad = runner.invoke(app, [*fix, "3–0"])  # a result by its spelling, not of a best of 3
    assert bad.exit_code == 2 and "3-0-0 is not a result of a best of 3" in bad.stderr, bad.stderr
    assert _games(store)[1] == SPELLINGS[0][1]  # nothing refused was recorded


def test_the_desks_box_takes_the_same_spellings_and_refuses_the_same_R_EVT_16(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = _event(tmp_path / "club")
    monkeypatch.setenv("ANNALS_ORGANISER_TOKEN", ORGANISER)
    papers = [a for table in range(1, len(SPELLINGS) + 1) for a in ("--paper", str(table))]
    with server(tmp_path / "data", "--event", str(store.folder), *papers) as running:
        for typed in NO_RESULT:
            status, refused = call(running, "/api/desk/result", {"table": 1, "result": typed})
            assert (status, refused["error"].split(":")[0]) == (400, f"result {typed!r}"), (typed, refused)
        status, refused = call(running, "/api/desk/result", {"table": 1, "result": "3:0"})
        assert (status, refused["error"]) == (
            400,
            "3-0-0 is not a result of a best of 3: a match ends when a player wins 2 games",
        ), refused
        for table, (typed, games) in enumerate(SPELLINGS, start=1):
            status, said = call(running, "/api/desk/result", {"table": table, "result": typed})
            assert (status, said["result"]) == (201, "-".join(map(str, games))), (typed, said)
    assert _games(store) == {table: games for table, (_, games) in enumerate(SPELLINGS, start=1)}


def test_id_is_an_intentional_draw_at_the_terminal_and_at_the_desk_and_refused_in_the_cut_R_EVT_10_R_EVT_16(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A slip's ``ID`` (any case, ``draw`` too) is an intentional draw, 0-0-3 (R-EVT-10), typed at the terminal or in
    the desk's box of a real server; a cut match has none, refused by the same words at both. The desk's API took
    ``2-1`` but answered ``ID`` with a length error, its box 3 characters at least."""
    swiss = _event(tmp_path / "club")
    monkeypatch.setenv("ANNALS_ORGANISER_TOKEN", ORGANISER)
    done = runner.invoke(app, ["event", "result", str(swiss.folder), "--round", "1", "--table", "1", "id"])
    assert done.exit_code == 0, done.output
    papers = ["--paper", "2", "--paper", "3", "--paper", "4"]
    with server(tmp_path / "data", "--event", str(swiss.folder), *papers) as running:
        for table, typed in ((2, "ID"), (3, " Draw ")):
            status, said = call(running, "/api/desk/result", {"table": table, "result": typed})
            assert (status, said["result"]) == (201, "0-0-3"), (typed, said)
            row = next(t for t in call(running, "/api/desk")[1]["tables"] if t["table"] == table)
            assert (row["result"], row["winner"], row["named"]) == ("0-0-3", "", "intentional draw"), row
        for typed in ("I", "IDD", "I D"):  # what is not ID stays no result, said by name
            status, refused = call(running, "/api/desk/result", {"table": 4, "result": typed})
            assert (status, refused["error"].split(":")[0]) == (400, f"result {typed!r}"), refused
        # each player's own page (/me) says it as the desk does, not "drawn 0-0-3"; a played draw stays drawn
        status, said = call(running, "/api/desk/result", {"table": 4, "result": "1-1-1"})
        assert (status, said["result"]) == (201, "1-1-1"), said
        desk = call(running, "/api/desk")[1]
        tokens = {p["name"]: p["link"].split("token=")[1] for p in desk["players"]}
        for t in desk["tables"][:4]:  # 1 at the terminal, 2 and 3 at the desk, 4 played
            for name in (t["a"], t["b"]):
                status, me = call(running, f"/api/me?token={tokens[name]}", token="")
                said_there = "drawn 1-1-1" if t["table"] == 4 else "intentional draw"
                assert (status, me["result"]) == (200, said_there), (t, me)
    for table in (1, 2, 3):
        m = swiss.match(1, table)
        assert m is not None and (m.wins_a, m.wins_b, m.draws, m.ended) == (0, 0, 3, INTENTIONAL_DRAW), m

    made = runner.invoke(app, ["event", "new", str(tmp_path / "cut"), "--ruleset", "miras9", "--rounds", "1",
                               "--top", "2", "--seed", "5"])  # fmt: skip
    assert made.exit_code == 0, made.output
    cut = EventStore.open(tmp_path / "cut")
    lib.fill_with_bots(cut, 4)
    loop.pair_next(cut)
    for table in (1, 2):
        loop.report(cut, 1, table, loop.parse_outcome("2-0"))
    assert loop.pair_next(cut).stage == TOP
    said = "a cut match needs a winner: there is no intentional draw in the top cut"
    refused_here = runner.invoke(app, ["event", "result", str(cut.folder), "--round", "2", "--table", "1", "ID"])
    assert refused_here.exit_code == 2 and said in refused_here.stderr, refused_here.stderr
    with server(tmp_path / "data2", "--event", str(cut.folder), "--paper", "1") as running:
        status, refused = call(running, "/api/desk/result", {"table": 1, "result": "ID"})
        assert (status, refused["error"]) == (400, said), refused
    assert cut.match(2, 1) is None  # nothing refused was recorded
