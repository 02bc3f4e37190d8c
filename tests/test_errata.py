"""Errata replay (``engine.errata``, ``annals replay --cards``) against an independent re-simulation: a folder of
simulated games, one card's ATK changed (or its cost raised, which makes recorded plays illegal), and the count of
each outcome (unchanged, same result, result changed, a decision that became illegal, off the log) must equal
what playing each game again with the runner (and its log writer) gives."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from annals.cli.main import app
from annals.engine.core import DecisionPoint
from annals.engine.errata import OUTCOMES, replay_logs, summarize
from annals.engine.registry import get_ruleset, load_cards
from annals.engine.runner import finalize_header, play
from annals.engine.simulate import simulate
from annals.schemas.logfile import read_log
from annals.schemas.text import card_names

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


# A real errata: Recruit costs 2, not 1: a Recruit played off a single Resource is no longer offered (costs are paid
# in full before a card is played [M9-005], [M9-047]).
COSTLIER = """
[[cards]]
id = "char-recruit"
name = "Recruit"
type = "unit"
traits = ["character"]
cost = 2
atk = 1
grit = 2
echo = 1
"""


class _Illegal(Exception):
    pass


class _OffLog(Exception):
    pass


class _Recorded:
    """The recorded choices in order (an independent scripted player): a question the log did not answer there is
    off the log; the logged choice not among the options offered is illegal."""

    def __init__(self, decisions: list[Any]):
        self.choices = [(d.player, d.point, d.offered[d.chosen]) for d in decisions]
        self.asked = 0

    def choose(self, view: object, point: DecisionPoint[Any]) -> Any:
        if not self.choices:
            raise _OffLog("out of decisions")
        player, name, choice = self.choices.pop(0)
        if (player, name) != (point.player, point.point):
            raise _OffLog(name)
        if choice not in point.options:
            raise _Illegal(name)
        self.asked += 1
        return choice


@pytest.fixture(scope="module")
def season(tmp_path_factory: pytest.TempPathFactory) -> Path:
    games = tmp_path_factory.mktemp("errata") / "season"
    list(simulate("miras9", 12, 40, ["vanguard", "bastion"], ["heuristic", "random"], games, max_turns=60))
    return games


@pytest.mark.parametrize("errata", ["atk", "cost"])
def test_errata_replay_counts_equal_an_independent_resimulation(tmp_path: Path, season: Path, errata: str) -> None:
    (tmp_path / "errata.toml").write_text(ERRATA if errata == "atk" else COSTLIER)
    cards = load_cards("miras9", tmp_path / "errata.toml")
    logs = sorted(season.glob("*.log"))
    reports = replay_logs(logs, cards)
    summary = summarize(reports)

    changed_rules = get_ruleset("miras9").with_cards(cards)  # type: ignore[attr-defined]
    counts = dict.fromkeys(OUTCOMES, 0)
    illegal_at: dict[str, int] = {}
    for i, path in enumerate(logs):
        old = read_log(path)
        header = changed_rules_header(old.header, changed_rules)
        agent = _Recorded(list(old.decisions))
        out = tmp_path / f"again-{i}.log"
        try:
            play(changed_rules, header, [agent, agent], out)
        except _Illegal:
            counts["illegal"] += 1
            illegal_at[str(path)] = agent.asked
        except _OffLog:
            counts["off_log"] += 1
        else:
            new = read_log(out)
            if (new.close.winner, new.close.end_reason) != (old.close.winner, old.close.end_reason):
                counts["result_changed"] += 1
            elif new.events == old.events and not agent.choices:
                counts["unchanged"] += 1
            else:
                counts["same_result"] += 1
    assert summary.games == len(logs) == 12
    assert {name: getattr(summary, name) for name in OUTCOMES} == counts
    assert summary.diverged == 12 - counts["unchanged"] > 0  # either errata changes some of these games
    for report in reports:  # an illegal decision is its own outcome, never a changed result
        assert (report.outcome == "illegal") == (report.path in illegal_at), report.line()
        if report.outcome == "illegal":
            assert report.illegal_decision == illegal_at[report.path] and not report.result_changed
            assert "could not have been played as it was" in report.line()
    if errata == "cost":
        # where the game was still the log's, event for event, the play refused is a Recruit's off one Resource
        # [M9-005] (after an earlier difference it may be another card's: a Rifle for a Recruit never played)
        direct = [r for r in reports if r.outcome == "illegal" and r.first_difference >= r.illegal_at >= 0]
        assert direct, summary.line()
        for report in direct:
            logged = read_log(report.path).decisions[report.illegal_decision]
            chosen = logged.offered[logged.chosen]
            assert type(chosen).__name__ == "PlayCard"
            assert card_names(read_log(report.path).header)[chosen.card] == "char-recruit"
            assert "the game was the log's, event for event, until then" in report.line()

    result = CliRunner().invoke(app, ["replay", str(season), "--cards", str(tmp_path / "errata.toml"), "--format",
                                      "json"])  # fmt: skip
    assert result.exit_code == 0, result.stderr
    last = json.loads(result.stdout.strip().splitlines()[-1])
    assert last == {"games": 12, "unchanged": summary.unchanged, "diverged": summary.diverged, **counts,
                    "earlier_edition": 0}  # fmt: skip


def test_the_shipped_text_changes_nothing(tmp_path: Path) -> None:
    """The errata of a card to its own shipped text: every game replays event for event."""
    games = tmp_path / "g"
    list(simulate("miras9", 3, 5, None, ["heuristic", "heuristic"], games, max_turns=40))
    (tmp_path / "same.toml").write_text(ERRATA.replace("atk = 4", "atk = 3"))
    reports = replay_logs(sorted(games.glob("*.log")), load_cards("miras9", tmp_path / "same.toml"))
    assert all(r.replays and r.first_difference < 0 and not r.result_changed for r in reports)
    assert all(r.outcome == "unchanged" for r in reports)


def changed_rules_header(header: Any, ruleset: Any) -> Any:
    import msgspec

    changed = msgspec.structs.replace(
        header, cards=tuple(ruleset.extra_cards), card_pool_hash=ruleset.card_pool_hash(), game_id=""
    )
    return finalize_header(changed)
