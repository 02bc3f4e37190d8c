"""The terminal's ``board`` shows what the browser's board shows: counters at 0 and the MORANA Sites' Power."""

from __future__ import annotations

import io

from rich.console import Console

from annals.clients.terminal import render_board
from annals.schemas import protocol as p


def _printed(board: p.Board, ruleset: str) -> str:
    out = io.StringIO()
    Console(file=out, width=160, highlight=False).print(render_board(board, 0, ["Ann", "Bo"], ruleset))
    return out.getvalue()


def test_the_morana_board_shows_slava_at_0_and_every_site_with_its_power() -> None:
    """[MOR-10] [MOR-19] The board message leaves counters at 0 out, so the terminal showed no Slava track at the
    start nor Embers once spent, and a Site only once a card was face-up there, with no Power to compare. It
    shows Embers and Slava at 0, all three Sites, and each side's Power at each."""
    kiki, mavka = p.Card(1000, "kikimora", "Kikimora", ""), p.Card(2003, "mavka", "Mavka", "")
    board = p.Board(2, "commit", [p.Zone("site:1", "p0", [kiki]), p.Zone("site:1", "p1", [mavka])],
                    {"p1:slava": 2, "p1:embers": 1, "Kikimora (#1000):power": 1, "Mavka (#2003):power": 3}, 30,
                    piles={"p0:deck": 14, "p1:deck": 14})  # fmt: skip
    printed = _printed(board, "morana")
    rows = {line.split("│")[1].strip(): [c.strip() for c in line.split("│")[2:4]] for line in printed.splitlines()
            if line.startswith("│") and line.split("│")[1].strip()}  # fmt: skip
    assert rows["counters"] == ["Embers 0, Slava 0", "Embers 1, Slava 2"]
    assert rows["Site 1"] == ["Power 1", "Power 3"]
    assert rows["Site 2"] == ["Power 0", "Power 0"] and rows["Site 3"] == ["Power 0", "Power 0"]
    assert "Kikimora (Power 1)" in printed and "Mavka (Power 3)" in printed


def test_the_miras9_board_shows_echo_at_0() -> None:
    """[M9-050] Echo pays Battle Damage and Restore: at 0 it was missing from the terminal's board."""
    board = p.Board(3, "action", [], {"p1:echo": 2}, 60, piles={"p0:deck": 30, "p1:deck": 30})
    printed = _printed(board, "miras9")
    assert "Echo 0" in printed and "Echo 2" in printed
