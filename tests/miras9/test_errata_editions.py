"""Errata replay keeps each log's rules edition (ruling R-M9-61, on R-M9-45): the committed logs of edition 1 (the
first pool, no Move-phase decision [M9-031], [M9-037]) and edition 2 (movement, no Ship-Sites in play [M9-030])
are re-run by their own edition's rules with the changed cards on their pool, the output says so, and the counts
equal an independent re-run: the runner playing each game again, by the recorded choices, under a header naming the
changed cards' hash over the log's own pool. That re-run's log verifies; the same game stamped with today's pool is
refused by verify, named as an earlier edition's game with the hash its header should have named."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
import pytest
from typer.testing import CliRunner

from annals.cli.main import app
from annals.engine.errata import errata_header, replay_logs, summarize
from annals.engine.miras9.pool import EARLIER_POOLS, SHIPPED
from annals.engine.miras9.ruleset import RULESET
from annals.engine.registry import get_ruleset, load_cards, ruleset_for
from annals.engine.replay import rerun, verify_log
from annals.engine.runner import finalize_header, play
from annals.schemas import miras9 as ev
from annals.schemas.carddefs import extended_pool_hash
from annals.schemas.errors import EditionMismatchError
from annals.schemas.logfile import read_log
from tests.test_errata import ERRATA, _Illegal, _OffLog, _Recorded

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
OLD_LOGS = [
    FIXTURES / "miras9-edition1.log",
    FIXTURES / "miras9-pool-cdbf1905.log",
    FIXTURES / "miras9-pool-ff31c769.log",
]
SAME = ERRATA.replace("atk = 4", "atk = 3")  # Raider's shipped text
# Frontier Outpost made a Ship-Site: edition 2 places a Ship-Site in a Site slot, edition 3 in play on the board
OUTPOST_SHIP = """
[[cards]]
id = "site-outpost"
name = "Frontier Outpost"
type = "ship_site"
gen = 1
atk = 1
grit = 3
lanes = [0, 1]
"""


def cards_of(tmp_path: Path, text: str) -> list[Any]:
    (tmp_path / "errata.toml").write_text(text)
    return load_cards("miras9", tmp_path / "errata.toml")


def test_the_shipped_text_replays_each_old_edition_log_event_for_event_R_M9_45_M9_031_M9_037(tmp_path: Path) -> None:
    """[M9-031], [M9-037] The shipped text as an errata changes nothing in a game of any edition: the edition-1 logs
    (no Move-phase decision) replay event for event only because the re-run keeps edition 1, whose Move phase asks
    nothing (today's rules ask a Move-phase decision every turn); each line says which edition it was."""
    reports = replay_logs(OLD_LOGS, cards_of(tmp_path, SAME))
    for path, report in zip(OLD_LOGS, reports, strict=True):
        edition = EARLIER_POOLS[read_log(path).header.card_pool_hash]
        assert report.outcome == "unchanged" and report.replays, report.line()
        assert report.edition.startswith(f"rules edition {edition} (card pool ")
        assert f"[rules edition {edition} " in report.line() and "not today's edition 3" in report.line()
    summary = summarize(reports)
    assert (summary.games, summary.unchanged, summary.earlier_edition) == (3, 3, 3)
    assert "3 of them of an earlier rules edition, each re-run by its own" in summary.line()
    # today's rules would not have re-run the edition-1 game as it was: its first Move phase asks a decision
    log = read_log(OLD_LOGS[0])
    _, header = errata_header(log, cards_of(tmp_path, SAME))
    today = msgspec.structs.replace(header, card_pool_hash=extended_pool_hash(SHIPPED.digest, header.cards))
    assert RULESET.edition(header) == 1 and RULESET.edition(today) == 3
    state = ruleset_for(today).new_state(today)
    assert state.edition == 3


def _independent(path: Path, cards: list[Any], out: Path, *, today: bool = False) -> tuple[str, Path]:
    """Play ``path``'s game again by its recorded choices under ``cards`` on its own pool (``today``: on today's, by
    today's rules): the outcome, and the log written."""
    old = read_log(path)
    base = SHIPPED.digest if today else old.header.card_pool_hash
    header = msgspec.structs.replace(
        old.header, cards=tuple(cards), card_pool_hash=extended_pool_hash(base, cards), game_id=""
    )
    header = finalize_header(header)
    ruleset = ruleset_for(header)
    agent = _Recorded(list(old.decisions))
    try:
        play(ruleset, header, [agent, agent], out)
    except _Illegal:
        return "illegal", out
    except _OffLog:
        return "off_log", out
    new = read_log(out)
    if (new.close.winner, new.close.end_reason) != (old.close.winner, old.close.end_reason):
        return "result_changed", out
    return ("unchanged" if new.events == old.events and not agent.choices else "same_result"), out


@pytest.mark.parametrize("errata", ["atk", "ship"])
def test_errata_on_old_edition_logs_equal_an_independent_rerun_by_their_edition_R_M9_45(
    tmp_path: Path, errata: str
) -> None:
    """Raider's ATK raised, or Frontier Outpost made a Ship-Site: each outcome equals the runner's own re-play on
    the log's pool and edition; where that re-play reached its end its log verifies, as a game of that edition
    (ruling R-M9-61)."""
    cards = cards_of(tmp_path, ERRATA if errata == "atk" else OUTPOST_SHIP)
    reports = replay_logs(OLD_LOGS, cards)
    for i, (path, report) in enumerate(zip(OLD_LOGS, reports, strict=True)):
        outcome, out = _independent(path, cards, tmp_path / f"again-{i}.log")
        assert report.outcome == outcome, report.line()
        if outcome in ("unchanged", "same_result", "result_changed"):
            again = read_log(out)
            assert RULESET.edition(again.header) == EARLIER_POOLS[read_log(path).header.card_pool_hash]
            assert verify_log(out).events == len(again.events)
    if errata == "atk":
        assert any(r.outcome != "unchanged" for r in reports)
    else:  # edition 2 places the new Ship-Site in a Site slot as the game did; today's rules would put it in play
        assert reports[2].outcome == "unchanged"
        assert _independent(OLD_LOGS[2], cards, tmp_path / "today.log", today=True)[0] == "same_result"
    result = CliRunner().invoke(app, ["replay", *map(str, OLD_LOGS), "--cards", str(tmp_path / "errata.toml"),
                                      "--format", "json"])  # fmt: skip
    assert result.exit_code == 0, result.stderr
    lines = [json.loads(line) for line in result.stdout.strip().splitlines()]
    assert [line["edition"].split(" (")[0] for line in lines[:-1]] == ["rules edition 1", "rules edition 1",
                                                                       "rules edition 2"]  # fmt: skip
    assert lines[-1]["earlier_edition"] == 3


def test_an_old_edition_game_stamped_with_todays_pool_is_named_by_verify_M9_037_M9_030(tmp_path: Path) -> None:
    """The re-run of an edition-1 game under an errata, its header stamped with today's pool (what errata replay
    did before ruling R-M9-61), is refused by verify as an earlier edition's game [M9-037], naming the hash of the
    cards over edition 1's pool; an edition-2 game in which an errata made a Ship-Site of its starting Site is
    refused the same way [M9-030]: a Ship-Site went into a Site slot, as only edition 2 puts one."""
    cards = cards_of(tmp_path, ERRATA)
    outcome, out = _independent(OLD_LOGS[0], cards, tmp_path / "edition1.log")
    assert outcome in ("unchanged", "same_result", "result_changed")
    stamped = _restamp(out, tmp_path / "stamped-1.log")
    message = _refusal(stamped)
    assert "passes with no Move-phase decision" in message and "stamped with today's pool" in message
    assert repr(extended_pool_hash("cdbf1905cc74e766", cards)) in message
    report = rerun(read_log(stamped))
    assert not report.ok and report.pool and report.events_checked == 0

    ships = cards_of(tmp_path, OUTPOST_SHIP)
    outcome, out = _independent(OLD_LOGS[2], ships, tmp_path / "edition2.log")
    log = read_log(out)
    placed = [e for e in log.events if type(e) is ev.CardMoved and e.dst.startswith("site:")]
    names = {c: cid for p, d in enumerate(log.header.decks) for c, cid in _ids(p, d.cards)}
    assert any(names.get(e.card) == "site-outpost" for e in placed)  # the Ship-Site went into a Site slot
    message = _refusal(_restamp(out, tmp_path / "stamped-2.log"))
    assert "a Ship-Site goes into a Site slot" in message and "stamped with today's pool" in message
    assert repr(extended_pool_hash("ff31c769e9757719", ships)) in message


def _refusal(stamped: Path) -> str:
    """What verify says refusing a log whose header names the wrong edition's pool."""
    with pytest.raises(EditionMismatchError) as caught:
        verify_log(stamped)
    return str(caught.value)


def _ids(p: int, cards: list[str]) -> list[tuple[int, str]]:
    from annals.schemas.records import instance_id

    return [(instance_id(p, i), cid) for i, cid in enumerate(cards)]


def _restamp(source: Path, out: Path) -> Path:
    """``source`` with its header naming its cards' hash over today's pool (the game id re-derived)."""
    from tests.miras9.test_pool_headers import edited

    header = read_log(source).header
    today = get_ruleset("miras9").with_cards(list(header.cards))  # type: ignore[attr-defined]
    assert today.card_pool_hash() == extended_pool_hash(SHIPPED.digest, header.cards) != header.card_pool_hash
    return edited(source, out, card_pool_hash=today.card_pool_hash())
