"""The organiser's page, docs/organiser.md, run command by command through the CLI exactly as written (16 people,
results typed in: an intentional draw, a double loss, a drop, a late entry, an awarded bye, a correction of round 1
after round 2 is paired and the round paired again, a top 8). After each command the record has only grown; at the
end the standings are compared with an independent computation from the MTR Appendix C definitions, made here from
what the page typed and the pairings the CLI printed."""

from __future__ import annotations

import json
import re
import shlex
from collections import defaultdict
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

from annals.cli.main import app

PAGE = Path(__file__).resolve().parents[2] / "docs" / "organiser.md"
runner = CliRunner()


def commands() -> list[tuple[list[str], bool]]:
    """Each command of the page's ```sh blocks, and whether it is marked to fail."""
    text = PAGE.read_text()
    out = []
    for block in re.findall(r"```sh\n(.*?)```", text, re.S):
        for line in block.splitlines():
            words = shlex.split(line, comments=True)
            if words:
                assert words[0] == "annals", line
                out.append((words[1:], "# fails:" in line))
    return out


def typed_results(steps: list[list[str]]) -> dict[tuple[int, int], tuple[int, int, int, str]]:
    """What the page typed for each Swiss table, a correction replacing the first report: (wins a, wins b, draws,
    kind)."""
    results: dict[tuple[int, int], tuple[int, int, int, str]] = {}
    for words in steps:
        if words[:2] not in (["event", "result"], ["event", "correct"]):
            continue
        number = int(words[words.index("--round") + 1])
        table = int(words[words.index("--table") + 1])
        rest = [w for w in words[3:] if re.fullmatch(r"\d+(-\d+){1,2}|id", w)]
        if "--double-loss" in words:
            results[(number, table)] = (0, 0, 0, "double_loss")
        elif rest == ["id"] or "--draw" in words:
            results[(number, table)] = (0, 0, 3, "draw")  # MTR 2.4: an intentional draw is 0-0-3
        else:
            wa, wb, *d = (int(x) for x in rest[0].split("-"))
            results[(number, table)] = (wa, wb, d[0] if d else 0, "games")
    return results


Typed = dict[tuple[int, int], tuple[int, int, int, str]]


def mtr_standings(
    players: list[str], late: dict[str, int], rounds: list[list[dict[str, object]]], typed: Typed
) -> dict[str, tuple[int, Fraction, Fraction, Fraction]]:
    """MTR Appendix C: 3/1/0 match points; MW% = points / (3 x rounds played), at least 0.33; GW% = game points
    (3 a win, 1 a draw) / (3 x games), at least 0.33; OMW% and OGW% the means over the opponents (a bye is no
    opponent); a bye is a match won 2-0; a missed round a match lost 0-2."""
    floor = Fraction(33, 100)
    points: dict[str, int] = defaultdict(int)
    matches: dict[str, int] = defaultdict(int)
    game_points: dict[str, int] = defaultdict(int)
    games: dict[str, int] = defaultdict(int)
    opponents: dict[str, list[str]] = defaultdict(list)
    for p, missed in late.items():
        matches[p] += missed
        games[p] += 2 * missed
    for number, pairings in enumerate(rounds, start=1):
        for row in pairings:
            a, b = str(row["player"]), str(row["opponent"])
            if b == "(bye)":
                points[a] += 3
                matches[a] += 1
                game_points[a] += 6
                games[a] += 2
                continue
            wa, wb, d, kind = typed[(number, int(str(row["table"])))]
            for me, them, won, lost in ((a, b, wa, wb), (b, a, wb, wa)):
                matches[me] += 1
                opponents[me].append(them)
                games[me] += wa + wb + d
                game_points[me] += 3 * won + d
                if kind != "double_loss":
                    points[me] += 3 if won > lost else 1 if won == lost else 0
    mw = {p: max(floor, Fraction(points[p], 3 * matches[p])) if matches[p] else floor for p in players}
    gw = {p: max(floor, Fraction(game_points[p], 3 * games[p])) if games[p] else floor for p in players}

    def mean(values: dict[str, Fraction], of: list[str]) -> Fraction:
        return sum((values[o] for o in of), Fraction(0)) / len(of) if of else floor

    return {p: (points[p], mean(mw, opponents[p]), gw[p], mean(gw, opponents[p])) for p in players}


def test_the_organisers_page_runs_as_written_and_its_standings_are_the_mtrs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "160")
    steps = commands()
    assert len(steps) > 60
    before = b""
    for words, fails in steps:
        done = runner.invoke(app, words)
        if fails:
            assert done.exit_code == 2 and len(done.stderr.strip().splitlines()) == 1, (words, done.output)
        else:
            assert done.exit_code == 0, (words, done.output)
        record = tmp_path / "spring" / "event.log"
        if record.exists():
            now = record.read_bytes()
            assert now.startswith(before), words  # append-only: nothing recorded is ever rewritten
            before = now
    people = json.loads(runner.invoke(app, ["event", "players", "spring", "--format", "json"]).stdout)
    by_name = {p["name"]: p["id"] for p in people}
    assert len(people) == 16 and " " in people[0]["name"]
    rounds = []
    for number in range(1, 5):
        shown = runner.invoke(app, ["event", "pairings", "spring", "--round", str(number), "--format", "json"])
        rows = json.loads(shown.stdout)
        for row in rows:
            row["player"] = by_name[row["player"]]
            row["opponent"] = by_name.get(row["opponent"], row["opponent"])
        rounds.append(rows)
    assert "pat" not in {r["player"] for r in rounds[0]} | {r["opponent"] for r in rounds[0]}  # the late entry
    assert "ed" not in {r["player"] for r in rounds[2]} | {r["opponent"] for r in rounds[2]}  # dropped after 2
    assert {"player": "ora", "opponent": "(bye)"}.items() <= next(r for r in rounds[2] if r["player"] == "ora").items()
    typed = typed_results([w for w, fails in steps if not fails])
    mine = mtr_standings(list(by_name.values()), {"pat": 1}, rounds, typed)
    table = json.loads(runner.invoke(app, ["event", "standings", "spring", "--format", "json"]).stdout)
    assert {row["player"] for row in table} == set(mine)
    for row in table:
        pts, omw, gw, ogw = mine[row["player"]]
        assert row["points"] == pts, row
        assert (row["omw_pct"], row["gw_pct"], row["ogw_pct"]) == tuple(
            round(float(100 * x), 2) for x in (omw, gw, ogw)
        )
    keys = [mine[row["player"]] for row in table]
    assert keys == sorted(keys, reverse=True)  # ranked by points, OMW%, GW%, OGW% (a lot only among equals)
    places = json.loads(runner.invoke(app, ["event", "placings", "spring", "--format", "json"]).stdout)
    final = runner.invoke(app, ["event", "pairings", "spring", "--round", "7", "--format", "json"])
    decided = json.loads(final.stdout)[0]
    assert places[0]["name"] == decided["player"] and places[1]["name"] == decided["opponent"]  # 2-1 to the first
    assert {p["name"] for p in places[:8]} == {row["name"] for row in table[:8]}  # the cut: the Swiss top 8
    assert runner.invoke(app, ["event", "verify", "spring"]).exit_code == 0
