"""Errata replay (``engine.errata``, ``annals replay --cards``) against an independent re-simulation: a folder of
simulated games, one card's ATK changed, and the counts of games that still replay, diverged, changed result and
met an illegal decision must equal what playing each game again with the runner (and its log writer) gives."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from annals.cli.main import app
from annals.engine.core import DecisionPoint
from annals.engine.errata import replay_logs, summarize
from annals.engine.registry import get_ruleset, load_cards
from annals.engine.runner import finalize_header, play
from annals.engine.simulate import simulate
from annals.schemas.errors import TruncatedLogError
from annals.schemas.logfile import LogReader, read_log

ERRATA = """
[[cards]]
id = "char-raider"
name = "Raider"
type = "unit"
traits = ["character"]
cost = 2
atk = 4
grit = 2
echo = 1
triggers = [{ when = "battle_damage", effects = [{ op = "echo", amount = 1 }] }]
"""


class _Illegal(Exception):
    pass


class _Recorded:
    """The recorded choices in order, refused when not among the options (an independent scripted player)."""

    def __init__(self, decisions: list[Any]):
        self.choices = [(d.player, d.point, d.offered[d.chosen]) for d in decisions]

    def choose(self, view: object, point: DecisionPoint[Any]) -> Any:
        if not self.choices:
            raise _Illegal("out of decisions")
        player, name, choice = self.choices.pop(0)
        if (player, name) != (point.player, point.point) or choice not in point.options:
            raise _Illegal(name)
        return choice


def test_errata_replay_counts_equal_an_independent_resimulation(tmp_path: Path) -> None:
    games = tmp_path / "season"
    list(simulate("miras9", 12, 40, ["vanguard", "bastion"], ["heuristic", "random"], games, max_turns=60))
    (tmp_path / "errata.toml").write_text(ERRATA)
    cards = load_cards("miras9", tmp_path / "errata.toml")
    logs = sorted(games.glob("*.log"))
    summary = summarize(replay_logs(logs, cards))

    changed_rules = get_ruleset("miras9").with_cards(cards)  # type: ignore[attr-defined]
    counts = {"replayed": 0, "diverged": 0, "result_changed": 0, "illegal": 0}
    for i, path in enumerate(logs):
        old = read_log(path)
        header = changed_rules_header(old.header, changed_rules)
        agent = _Recorded(list(old.decisions))
        out = tmp_path / f"again-{i}.log"
        try:
            play(changed_rules, header, [agent, agent], out)
        except _Illegal:
            counts["illegal"] += 1
            new_events = _events_of_cut_log(out)
        else:
            new = read_log(out)
            new_events = new.events
            left_over = bool(agent.choices)
            counts["replayed"] += not left_over
            counts["result_changed"] += (not left_over) and (new.close.winner, new.close.end_reason) != (
                old.close.winner, old.close.end_reason)  # fmt: skip
        counts["diverged"] += new_events != old.events
    assert summary.games == len(logs) == 12
    assert (summary.replayed, summary.diverged, summary.result_changed, summary.illegal) == (
        counts["replayed"], counts["diverged"], counts["result_changed"], counts["illegal"]), counts  # fmt: skip
    assert summary.diverged > 0  # ATK 4 instead of 3 does change these games

    result = CliRunner().invoke(app, ["replay", str(games), "--cards", str(tmp_path / "errata.toml"), "--format",
                                      "json"])  # fmt: skip
    assert result.exit_code == 0, result.stderr
    last = json.loads(result.stdout.strip().splitlines()[-1])
    assert last == {"games": 12, "replayed": summary.replayed, "diverged": summary.diverged,
                    "result_changed": summary.result_changed, "illegal": summary.illegal}  # fmt: skip


def test_the_shipped_text_changes_nothing(tmp_path: Path) -> None:
    """The errata of a card to its own shipped text: every game replays event for event."""
    games = tmp_path / "g"
    list(simulate("miras9", 3, 5, None, ["heuristic", "heuristic"], games, max_turns=40))
    (tmp_path / "same.toml").write_text(ERRATA.replace("atk = 4", "atk = 3"))
    reports = replay_logs(sorted(games.glob("*.log")), load_cards("miras9", tmp_path / "same.toml"))
    assert all(r.replays and r.first_difference < 0 and not r.result_changed for r in reports)


def _events_of_cut_log(path: Path) -> list[Any]:
    """The events of a log cut short (the runner keeps every event that happened when a player fails)."""
    events: list[Any] = []
    with LogReader(path) as reader:
        try:
            for batch in reader.batches():
                events.extend(batch.events)
        except TruncatedLogError:
            pass
    return events


def changed_rules_header(header: Any, ruleset: Any) -> Any:
    import msgspec

    changed = msgspec.structs.replace(
        header, cards=tuple(ruleset.extra_cards), card_pool_hash=ruleset.card_pool_hash(), game_id=""
    )
    return finalize_header(changed)
