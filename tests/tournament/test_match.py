"""One match: who plays first in each game [M9-022] (R-EVT-02), MORANA's seats [MOR-13] (R-EVT-03), the time
limit as a turn cap and drawn matches (R-EVT-04), results read from the logs."""

from __future__ import annotations

from pathlib import Path

from annals.engine.registry import get_ruleset
from annals.engine.replay import rerun
from annals.engine.tournament import event as lib
from annals.engine.tournament.match import MatchContext, play_match
from annals.engine.tournament.store import EventStore
from annals.schemas.event import SWISS, TOP, Pairing
from annals.schemas.logfile import read_log
from annals.schemas.miras9 import FirstPlayerChosen


def two_players(folder: Path, ruleset: str, cap: int, best_of: int = 5) -> MatchContext:
    lib.new_event(folder, "m", ruleset, rounds=1, best_of=best_of, seed=41, max_turns=cap)
    store = EventStore.open(folder)
    lib.fill_with_bots(store, 2)
    return MatchContext(store, store.config(), get_ruleset(ruleset), {p.id: p for p in store.players()})


def test_the_decider_may_choose_to_play_second_and_the_loser_decides_next_M9_022(tmp_path: Path) -> None:
    ctx = two_players(tmp_path / "e", "miras9", cap=40)
    asked: list[tuple[str, int]] = []

    def draw_first(decider: str, game: int) -> bool:  # this decider always chooses to play second
        asked.append((decider, game))
        return False

    ctx.choose_first = draw_first
    record = play_match(ctx, 1, SWISS, Pairing(1, "bot-001", "bot-002"), {})
    assert [g for _, g in asked] == [g.number for g in record.games]
    for prev, g in zip([None, *record.games], record.games, strict=False):
        assert g.first != g.decider  # asked, they chose to play second
        if prev is None:
            assert g.method == "lot"
        elif prev.winner:
            assert (g.method, g.decider) == ("loser", ({"bot-001", "bot-002"} - {prev.winner}).pop())
        else:
            assert (g.method, g.decider) == ("drawn", prev.decider)
        log = read_log(ctx.store.folder / g.log)
        (chosen,) = [e for e in log.events if isinstance(e, FirstPlayerChosen)]
        assert g.seats[chosen.first] == g.first  # the engine started the game with the chosen player [M9-022]
        assert log.header.tournament is not None and log.header.tournament.first_player == chosen.first
        assert rerun(log).ok  # verify: re-running the decisions from the header gives the same events


def test_a_turn_cap_draws_every_game_so_a_swiss_match_is_drawn_on_time(tmp_path: Path) -> None:
    ctx = two_players(tmp_path / "e", "miras9", cap=2, best_of=3)
    record = play_match(ctx, 1, SWISS, Pairing(1, "bot-001", "bot-002"), {})
    assert [g.end_reason for g in record.games] == ["turn_cap"] * 3  # at most N games
    assert (record.wins_a, record.wins_b, record.draws, record.winner, record.ended) == (0, 0, 3, "", "time")
    assert record.turn_cap == 2
    assert [g.method for g in record.games] == ["lot", "drawn", "drawn"]  # the same decider after a draw
    assert len({g.decider for g in record.games}) == 1


def test_a_level_cut_match_plays_on_then_the_higher_seed_advances(tmp_path: Path) -> None:
    ctx = two_players(tmp_path / "e", "miras9", cap=2, best_of=3)
    record = play_match(ctx, 2, TOP, Pairing(1, "bot-001", "bot-002"), {"bot-001": 5, "bot-002": 2})
    assert len(record.games) == 6  # N games, then up to N more while level
    assert (record.winner, record.ended) == ("bot-002", "seed")


def test_morana_has_no_first_player_seats_swap_each_game_MOR_13(tmp_path: Path) -> None:
    ctx = two_players(tmp_path / "e", "morana", cap=0)
    record = play_match(ctx, 1, SWISS, Pairing(1, "bot-001", "bot-002"), {})
    assert record.winner and record.ended == "games"
    for g1, g2 in zip(record.games, record.games[1:], strict=False):
        assert g2.seats == g1.seats[::-1]
    assert all((g.first, g.decider, g.method) == ("", "", "seats") for g in record.games)
    for g in record.games:  # the result is the log's closing record
        log = read_log(ctx.store.folder / g.log)
        assert (g.seats[log.close.winner] if log.close.winner >= 0 else "") == g.winner


def test_morana_games_end_by_turn_8_so_its_events_need_no_cap_MOR_05(tmp_path: Path) -> None:
    ctx = two_players(tmp_path / "e", "morana", cap=0)
    assert ctx.config.max_turns == 0
    record = play_match(ctx, 1, SWISS, Pairing(1, "bot-001", "bot-002"), {})
    assert all(g.turns <= 8 and g.end_reason != "turn_cap" for g in record.games)
