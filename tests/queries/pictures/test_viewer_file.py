"""The replay file itself: the boards it stores are the renderer's, position by position; a player's or the
spectator's file of many games holds none of the cards that view never saw (no instance, no name), and no board in
it shows a card before the view saw it; notes files are checked; the command line writes and refuses as it says."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import msgspec
import pytest
from typer.testing import CliRunner

from annals.cli.main import app
from annals.engine.miras9.pool import SHIPPED
from annals.engine.morana.cards import shipped_pool as morana_pool
from annals.engine.simulate import simulate
from annals.queries.pictures.annotations import AnnotationError, load_notes, notes_path
from annals.queries.pictures.svgboard import render_svg
from annals.queries.pictures.viewer import write_viewer
from annals.queries.positions.viewstate import ViewState
from annals.schemas.logfile import GameLog, read_log
from annals.schemas.records import instance_id

runner = CliRunner()
DATA = re.compile(r'<script id="annals-data" type="application/json">(.*?)</script>', re.S)
ENVELOPE = {"n", "turn", "step", "player"}


def page_data(html: str) -> dict[str, Any]:
    match = DATA.search(html)
    assert match is not None
    data: dict[str, Any] = json.loads(match.group(1))
    return data


def boards(data: dict[str, Any]) -> list[str]:
    """Every position's SVG rebuilt from the file's keyframes and diffs, as the page's script does."""
    lines, out, cur = data["lines"], [], []
    for count, entry in enumerate(data["boards"]):
        if count % data["keyframe_every"] == 0:
            cur = list(entry)
        else:
            sep = entry.index(-1)
            drops = set(entry[:sep])
            cur = [x for i, x in enumerate(cur) if i not in drops]
            for k in range(sep + 1, len(entry), 2):
                cur.insert(entry[k], entry[k + 1])
        out.append("\n".join(lines[i] for i in cur))
    return out


def shown_ids(event: Any) -> set[int]:
    """The card instances an event (as a view saw it) names."""
    out: set[int] = set()
    for field in event.__struct_fields__:
        if field in ENVELOPE:
            continue
        value = getattr(event, field)
        for v in value if isinstance(value, list) else [value]:
            if type(v) is int and v >= 1000:
                out.add(v)
    return out


@pytest.mark.parametrize("ruleset", ["miras9", "morana"])
def test_the_files_boards_are_the_renderers_at_every_position(
    games: dict[str, list[GameLog]], tmp_path: Path, ruleset: str
) -> None:
    log = games[ruleset][2 % len(games[ruleset])]
    path = tmp_path / "g.html"
    write_viewer(log, path, "player1")
    rebuilt = boards(page_data(path.read_text()))
    seen = ViewState(log.header, 1)
    assert len(rebuilt) == len(log.events) + 1
    players = [p.name for p in log.header.players]
    assert rebuilt[0] == render_svg(ruleset, seen.state, 1, players=players)
    for count, event in enumerate(log.events, start=1):
        seen.apply(event)
        assert rebuilt[count] == render_svg(ruleset, seen.state, 1, players=players), count


def card_name(ruleset: str, card_id: str) -> str:
    return SHIPPED[card_id].name if ruleset == "miras9" else morana_pool().cards[card_id].name


REDACTION_GAMES = {"miras9": (5, ["vanguard", "wayfarer"]), "morana": (6, ["starter-sun", "starter-winter"])}


@pytest.mark.parametrize("ruleset", ["miras9", "morana"])
def test_a_views_file_holds_no_card_that_view_never_saw(tmp_path: Path, ruleset: str) -> None:
    """[M9-011], [M9-012], [M9-046]: another player's Hand, deck, Resource and Used; [MOR-07], [MOR-15]: another
    player's hand and sealed Commit. Absent from the file, not hidden in it: no instance id, no name of a card the
    view never saw, and no board showing a card before the view saw it."""
    games, decks = REDACTION_GAMES[ruleset]
    checked = hidden_ids = 0
    list(simulate(ruleset, games, 101, decks, ["heuristic", "random"], tmp_path / "logs"))
    for log_path in sorted((tmp_path / "logs").glob("*.log")):
        log = read_log(log_path)
        for view, viewer in (("player0", 0), ("player1", 1), ("spectator", -1)):
            path = tmp_path / f"{view}.html"
            write_viewer(log, path, view)
            html = path.read_text()
            data = page_data(html)
            redact = ViewState(log.header, viewer).redact
            revealed: set[int] = set()
            revealed_by: list[set[int]] = [set()]
            for event in log.events:
                revealed |= shown_ids(redact(event))
                revealed_by.append(set(revealed))
            own = {instance_id(viewer, i) for i in range(len(log.header.decks[viewer].cards))} if viewer >= 0 else set()
            others = [p for p in (0, 1) if p != viewer]
            unseen = {instance_id(p, i): cid for p in others for i, cid in enumerate(log.header.decks[p].cards)
                      if instance_id(p, i) not in revealed}  # fmt: skip
            hidden_ids += len(unseen)  # a game lost by paying the whole deck as Battle Damage reveals every card
            for card in unseen:
                assert f'data-card="{card}"' not in html and f"card {card}" not in html, (view, card)
            mine = log.header.decks[viewer].cards if viewer >= 0 else []
            visible_names = {card_name(ruleset, cid) for cid in mine}
            for p in (0, 1):
                visible_names |= {card_name(ruleset, cid) for i, cid in enumerate(log.header.decks[p].cards)
                                  if instance_id(p, i) in revealed}  # fmt: skip
            for cid in set(unseen.values()):
                if card_name(ruleset, cid) not in visible_names:
                    assert card_name(ruleset, cid) not in html, (view, cid)
                    checked += 1
            for count, svg in enumerate(boards(data)):
                drawn_ids = {int(c) for c in re.findall(r'data-card="(\d+)"', svg)}
                leaders = {instance_id(p, 999) for p in (0, 1)}
                assert drawn_ids <= own | revealed_by[count] | leaders, (view, count)
    assert hidden_ids > 0 and checked > 0, "some cards (and names) were only ever hidden, and were checked absent"


def test_annotate_and_view_from_the_command_line(picture_logs: dict[str, list[Path]], tmp_path: Path) -> None:
    log = tmp_path / "game.log"
    log.write_bytes(picture_logs["miras9"][0].read_bytes())
    before = log.read_bytes()
    r = runner.invoke(app, ["annotate", str(log), "--at", "turn:3", "Turn three.", "--author", "commentator"])
    assert r.exit_code == 0, r.output
    r = runner.invoke(app, ["annotate", str(log), "--at", "damage:1", "Judge only", "--only", "omniscient"])
    assert r.exit_code == 0, r.output
    assert log.read_bytes() == before  # the log itself is never modified
    notes = load_notes(log, read_log(log).header.game_id)
    assert [(n.at, n.text, n.author, n.views) for n in notes] == [
        ("turn:3", "Turn three.", "commentator", []),
        ("damage:1", "Judge only", "", ["omniscient"]),
    ]
    bad = runner.invoke(app, ["annotate", str(log), "--at", "turn:999", "x"])
    assert bad.exit_code == 1 and "turn 999 does not occur" in bad.stderr
    out = tmp_path / "game.html"
    r = runner.invoke(app, ["view", str(log), "--view", "player0", "--output", str(out)])
    assert r.exit_code == 0, r.output
    data = page_data(out.read_text())
    assert [n[1:] for n in data["notes"]] == [["turn:3", "commentator", "Turn three."]]
    again = runner.invoke(app, ["view", str(log), "--view", "omniscient", "--output", str(out)])
    assert again.exit_code == 1 and "exists" in again.stderr  # never over a file, as every command
    assert [n[1:] for n in page_data(out.read_text())["notes"]] == [["turn:3", "commentator", "Turn three."]]
    out = tmp_path / "omniscient.html"
    r = runner.invoke(app, ["view", str(log), "--view", "omniscient", "--output", str(out)])
    assert [n[1] for n in page_data(out.read_text())["notes"]] == ["turn:3", "damage:1"]
    bad = runner.invoke(app, ["view", str(log), "--view", "judge", "--output", str(out)])
    assert bad.exit_code == 2 and "unknown view 'judge'" in bad.stderr  # a bad argument
    svg = tmp_path / "b.svg"
    r = runner.invoke(app, ["position", str(log), "--at", "damage:1", "--format", "svg", "--output", str(svg)])
    assert r.exit_code == 0 and svg.read_text().startswith("<svg ")


def test_a_notes_file_for_another_game_or_broken_is_refused(picture_logs: dict[str, list[Path]]) -> None:
    log = picture_logs["morana"][0]
    path = notes_path(log)
    try:
        path.write_text('{"game_id": "someone-else", "notes": []}')
        with pytest.raises(AnnotationError, match="notes are for game 'someone-else'"):
            load_notes(log, read_log(log).header.game_id)
        path.write_text("{not json")
        with pytest.raises(AnnotationError, match=r"not a notes file .*; fix the JSON there, or move the file aside"):
            load_notes(log, read_log(log).header.game_id)
        game_id = read_log(log).header.game_id
        path.write_bytes(
            b"\xef\xbb\xbf" + msgspec.json.encode({"game_id": game_id, "notes": [{"at": "start", "text": "x"}]})
        )
        assert [n.text for n in load_notes(log, game_id)] == ["x"]  # a byte order mark (Notepad's) is no content
        doc = {"game_id": read_log(log).header.game_id, "notes": [{"at": "start", "text": "x", "views": ["judge"]}]}
        path.write_bytes(msgspec.json.encode(doc))
        with pytest.raises(AnnotationError, match="unknown view"):
            load_notes(log, read_log(log).header.game_id)
    finally:
        path.unlink()


def test_view_by_game_id_reads_the_log_the_database_names(picture_logs: dict[str, list[Path]], tmp_path: Path) -> None:
    from annals.ingest.loader import ingest

    db = tmp_path / "a.duckdb"
    ingest([picture_logs["morana"][0]], db, workers=1)
    game_id = read_log(picture_logs["morana"][0]).header.game_id
    out = tmp_path / "v.html"
    r = runner.invoke(app, ["view", game_id, "--db", str(db), "--output", str(out)])
    assert r.exit_code == 0, r.output
    assert page_data(out.read_text())["game"]["game_id"] == game_id
    assert page_data(out.read_text())["game"]["view"] == "spectator"
