"""[DESIGN 14] The board ``annals position`` and the demo print is said in words: the players' names over the
columns, places as the rules name them ([M9-025]: a side's Exterior, Interior and Space; MORANA's Sites 1-3), cards
by their printed names with their counters beside them. No card id, instance number, seat label, zone identifier or
raw token reaches the person; the JSON (``--format json``) keeps the ids for programs."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from rich.console import Console

from annals.cli.position import HIDDEN_ORDER_ZONES, render_board
from annals.engine.words import Words
from annals.queries.cards import pool
from annals.queries.pictures.board import Board, board, stored_board
from annals.queries.positions.timeline import StoredGame, Timeline
from annals.schemas.logfile import GameLog
from tests.queries.pictures.test_viewer_words import RAW

MACHINE = {
    **RAW,
    "a card id": re.compile(r"\b(char|ss|ev|rx|eq|veh|site|planet|spirit|mor)-[a-z-]+\b"),
    "an instance number": re.compile(r"#\d+"),
    "a zone identifier": re.compile(r"\b(lane|site|route):\d"),
    "a counter's name": re.compile(r"\b(attuned|echo|slava|embers|wounds|power)=", re.IGNORECASE),
}


def shown(b: Board) -> str:
    console = Console(width=400, file=io.StringIO(), record=True)
    console.print(render_board(b))
    return console.export_text()


def check(b: Board, names: dict[str, str], players: list[str]) -> str:
    text = shown(b)
    for what, pattern in MACHINE.items():
        found = pattern.search(text)
        assert found is None, f"{what} {found.group(0)!r} in the board of {b.game_id} at {b.coordinate}:\n{text}"
    listed = [labels for zone, sides in b.zones.items() if zone not in HIDDEN_ORDER_ZONES for labels in sides.values()]
    for label in (label for labels in listed for label in labels):  # every card shown by its printed name
        assert names[label.rpartition("#")[0]] in text, (label, text)
    header = next(line for line in text.splitlines() if "┃" in line)  # the column heads
    assert all(p in header for p in players), header
    return text


@pytest.mark.parametrize("ruleset", ["miras9", "morana"])
def test_the_board_is_said_in_names(games: dict[str, list[GameLog]], ruleset: str) -> None:
    names = {c.id: c.name for c in pool(ruleset)}
    boards = 0
    for log in games[ruleset]:
        t = Timeline(log)
        players = [p.name for p in log.header.players]
        for at in ("turn:1", "turn:3", "end"):
            for view in ("omniscient", "player0", "spectator"):
                text = check(board(t, t.resolve(at), view, at), names, players)
                boards += 1
                if at == "end" and view == "omniscient" and t.state_after(len(log.events)).winner >= 0:
                    ending = Words(ruleset, str, players).ending(log.close.winner, log.close.end_reason)
                    assert f"game over: {ending})" in " ".join(text.split())  # the end line, not 'X wins'
                    assert log.close.end_reason not in text
    assert boards >= 27


def test_a_card_carries_its_counters_in_words(games: dict[str, list[GameLog]]) -> None:
    """A Unit's wounds, tap and Attune ([M9-058]-style counters) are said beside it, a player's Echo under their
    name; MORANA's Power beside each card and Slava under the player."""
    said = {"miras9": ("wound", "tapped", "Attuned", "Echo "), "morana": ("Power ", "Slava ")}
    for ruleset, words in said.items():
        text = "".join(shown(board(Timeline(log), len(log.events) * k // 4)) for log in games[ruleset] for k in (2, 3))
        for word in words:
            assert word in text, (ruleset, word)


def test_the_board_from_the_database_is_said_alike(games: dict[str, list[GameLog]], picture_db: Path) -> None:
    """A game whose log is gone is shown from the database (the ``position()`` macro) in the same words, the
    players' names read from the ``players`` table."""
    from annals.ingest.schema import open_database

    con = open_database(picture_db, read_only=True)
    try:
        for ruleset in ("miras9", "morana"):
            log = games[ruleset][0]
            game = StoredGame(con, log.header.game_id)
            players = [p.name for p in log.header.players]
            assert game.players == players
            names = {c.id: c.name for c in pool(ruleset)}
            from_db = stored_board(game, game.resolve("turn:2"), "turn:2")
            check(from_db, names, players)
    finally:
        con.close()


def test_a_player_sees_how_many_cards_the_piles_hide(games: dict[str, list[GameLog]]) -> None:
    """In a player's view the opponent's hand (and any pile the view cannot name) is said by its size, which is
    public ([M9-021] five cards drawn; MORANA's hand likewise): ``4 hidden cards``; the deck by its size."""
    from annals.engine.words import plural

    for ruleset, logs in games.items():
        t = Timeline(logs[0])
        b = board(t, t.resolve("turn:3"), "player0", "turn:3")
        rows = {line.split("│")[1].strip(): line.split("│")[2:4] for line in shown(b).splitlines() if "│" in line}
        hand = b.piles["p1:hand"]
        assert hand and rows["hand"][1].strip() == plural(hand, "hidden card"), (ruleset, rows["hand"])
        assert rows["deck"][1].strip() == plural(b.piles["p1:deck"], "card"), (ruleset, rows["deck"])
        assert not b.zones.get("hand", {}).get("p1")  # player 0 cannot name them


def test_the_svg_boards_title_is_said_in_words(games: dict[str, list[GameLog]]) -> None:
    """``annals position --format svg``: the title names whose view in words and says where by event, turn and step,
    not by the coordinate typed (``turn:5``) or the view's name (``player0``)."""
    import html

    from annals.queries.pictures.board import board_svg

    for logs in games.values():
        t = Timeline(logs[0])
        players = [p.name for p in logs[0].header.players]
        for at, view, said in (("start", "omniscient", "setup · every card shown"),
                               ("turn:3", "player1", f"· as {players[1]} sees it"),
                               ("end", "spectator", "· as a spectator sees it")):  # fmt: skip
            svg = board_svg(t, t.resolve(at), view, at)
            title = html.unescape(re.search(r'class="title"[^>]*>([^<]*)<', svg).group(1))  # type: ignore[union-attr]
            assert title.endswith(said) and "turn:" not in title and not re.search(r"omniscient|player\d", title), title
