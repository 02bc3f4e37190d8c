"""What a person is asked and how many clicks it takes: bot-vs-bot games through the web protocol, one seat played
by a scripted "person" over the table's WebSocket with the web client's settings (automatic answers and automatic
passes on, no stops), the other by the server's heuristic bot.

Run: ``python -m bench.clicks [--games 20]`` (half Miras 9, half MORANA; a real ``annals serve``).
Printed per ruleset and in all: the seat's decisions in the log (the ceiling: what a client without the table's
answers is asked, measured in the same run), the decisions that reached the person and their share of the
ceiling, the clicks they took (each board pick of the option the person chose, as the web client reads options:
the card it acts with, the card it aims at, the place it goes; a button for an answer that names nothing; one
more to confirm a final answer), and the share of the questions that reached the person with a single answer
(goal: 0). The automatic answers are split into public and hidden ones (``engine.forced``).
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from annals.engine import forced
from annals.engine.core import DecisionPoint
from annals.engine.registry import get_ruleset
from annals.schemas.logfile import read_log
from tests.serverkit import Running, recv, start, stop

QUICK = ["--games", "2", "--turns", "4"]  # that it runs, for tests: the figures mean nothing
DECKS = {"miras9": ["vanguard", "tempest"], "morana": ["clash", "glory"]}
EAGER = ("AddAttacker", "Confirm", "DeclareAt", "PlayCard", "Place", "Rebirth", "AssignBlocker", "PayPoint")
PILES = {"echo", "deck", "resource", "used", "hand"}


def clicks_for(option: dict[str, Any], options: list[dict[str, Any]]) -> int:
    """The clicks the web client takes to send ``option`` (clients/web/board.js): its picks, or one button; one
    more where the board cannot tell it from another option (the chooser) and where it asks to confirm."""

    def picks(o: dict[str, Any]) -> tuple[Any, ...]:
        where = o["where"] if not (o["card"] and o["where"] in PILES) else ""
        return tuple(x for x in (o["card"], o["target"] or ("site" if o["kind"] == "AddAttacker" else 0), where) if x)

    mine = picks(option)
    same = sum(1 for o in options if picks(o) == mine) if mine else 1
    return max(len(mine), 1) + (same > 1) + bool(option["confirm"])


def person(running: Running, ruleset: str, seed: int, turns: int) -> dict[str, Any]:
    table = running.table(ruleset, DECKS[ruleset], ["human", "heuristic"], seed=seed, max_turns=turns, cover_ms=20)
    rng = random.Random(seed)
    asked = lone = clicks = 0
    with running.socket(table["table"], table["tokens"][0], "&boards=0&automatic=1&auto_pass=1") as ws:
        while (message := recv(ws, 120))["type"] != "close":
            if message["type"] != "decide" or message["player"] != 0:
                continue
            options = message["options"]
            asked += 1
            lone += len(options) == 1
            eager = [o for o in options if o["kind"] in EAGER]
            calm = [o for o in options if o["kind"] not in ("TakeBack",)]
            chosen = rng.choice(eager if eager and rng.random() < 0.7 else calm or options)
            clicks += clicks_for(chosen, options)
            ws.send(json.dumps({"type": "answer", "choose": chosen["index"], "decision": message["decision"]}))
    game = read_log(running.wait_over(table["table"], timeout=300)["log"])
    rules = get_ruleset(ruleset)
    mine = [d for d in game.decisions if d.player == 0]
    auto = [d for d in mine if d.automatic]
    hidden = sum(1 for d in auto if forced.lone(rules, DecisionPoint(d.player, d.point, d.offered)) == forced.HIDDEN)
    return {"ruleset": ruleset, "ceiling": len(mine), "asked": asked, "lone": lone, "clicks": clicks,
            "public": len(auto) - hidden, "hidden": hidden}  # fmt: skip


def report(name: str, rows: list[dict[str, Any]]) -> None:
    total = {k: sum(r[k] for r in rows) for k in ("ceiling", "asked", "lone", "clicks", "public", "hidden")}
    share = total["asked"] / total["ceiling"] if total["ceiling"] else 0.0
    lone = total["lone"] / total["asked"] if total["asked"] else 0.0
    per = total["clicks"] / total["asked"] if total["asked"] else 0.0
    print(f"{name:<8} games {len(rows):>3}  seat's decisions (ceiling) {total['ceiling']:>6}  reached the person "
          f"{total['asked']:>5} ({share:.1%} of the ceiling)  clicks {total['clicks']:>5} ({per:.2f} a question)  "
          f"single-answer share {lone:.1%} (goal 0)  answered by the table: public {total['public']}, "
          f"hidden {total['hidden']}")  # fmt: skip


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--turns", type=int, default=12, help="the Miras 9 turn cap (MORANA ends by itself)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as data:
        running = start(Path(data))
        try:
            games = [("miras9" if i % 2 == 0 else "morana", 100 + i) for i in range(args.games)]
            with ThreadPoolExecutor(max_workers=4) as pool:
                rows = list(pool.map(lambda g: person(running, g[0], g[1], args.turns if g[0] == "miras9" else 0),
                                     games))  # fmt: skip
        finally:
            stop(running)
    for ruleset in DECKS:
        report(ruleset, [r for r in rows if r["ruleset"] == ruleset])
    report("all", rows)


if __name__ == "__main__":
    main()
