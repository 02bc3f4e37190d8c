"""Position files: written from any position, read back to the same state, refused when impossible, and continued
into a new log that verifies and says where it branched from."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from annals.engine.miras9.state import ZONE_LOC
from annals.engine.replay import rerun
from annals.ingest.flatten import collect
from annals.queries.positions.files import InvalidPositionError, continue_game, load_position, position_file
from annals.queries.positions.timeline import Timeline
from annals.schemas.logfile import read_log


@pytest.fixture
def timeline(logs_dir: Path) -> Timeline:
    return Timeline.from_file(collect([logs_dir / "cardtoy"])[2])


def write(tmp_path: Path, doc: dict[str, object]) -> Path:
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(doc))
    return path


def test_round_trip_at_every_event(timeline: Timeline, tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    for count in range(len(timeline.events) + 1):
        path.write_bytes(position_file(timeline, count))
        assert load_position(path).state == timeline.state_after(count)


def test_continue_from_every_position_after_setup(timeline: Timeline, tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    start = timeline.resolve("turn:1")
    for count in range(start, len(timeline.events) + 1):
        path.write_bytes(position_file(timeline, count, f"event:{count - 1}"))
        out = tmp_path / f"c{count}.log"
        result = continue_game(load_position(path), out, seed=count)
        log = read_log(out)
        assert log.header.branched_from is not None
        assert (log.header.branched_from.game_id, log.header.branched_from.at_event) == (
            timeline.header.game_id,
            count,
        )
        assert rerun(log).ok and result.events == len(log.events)
        assert log.close.winner in (0, 1) or timeline.final.over


def test_scripted_decisions_are_played_first(timeline: Timeline, tmp_path: Path) -> None:
    count = timeline.resolve("turn:2/main")
    path = tmp_path / "p.json"
    path.write_bytes(position_file(timeline, count))
    loaded = load_position(path)
    hand = loaded.state.hands[loaded.state.active]
    continue_game(loaded, tmp_path / "s.log", script=[len(hand)])  # the last option: Pass
    log = read_log(tmp_path / "s.log")
    assert type(log.decisions[0].offered[log.decisions[0].chosen]).__name__ == "Pass"
    assert type(log.events[0]).__name__ == "TurnBegan"


def test_card_in_two_places_is_refused(timeline: Timeline, tmp_path: Path) -> None:
    doc = json.loads(position_file(timeline, timeline.resolve("turn:2")))
    card = doc["state"]["hands"][0][0]
    doc["state"]["boards"][1].append(card)
    with pytest.raises(InvalidPositionError, match=rf"card {card} .* is in 2 places"):
        load_position(write(tmp_path, doc))


def test_negative_counter_is_refused(timeline: Timeline, tmp_path: Path) -> None:
    doc = json.loads(position_file(timeline, timeline.resolve("turn:3")))
    doc["state"]["score"][1] = -3
    with pytest.raises(InvalidPositionError, match=r"state.score\[1\] = -3 is not allowed: it is a whole number"):
        load_position(write(tmp_path, doc))


def test_illegal_deck_is_refused(timeline: Timeline, tmp_path: Path) -> None:
    doc = json.loads(position_file(timeline, timeline.resolve("turn:2")))
    doc["decks"][0]["cards"] = ["c5"] * 12
    with pytest.raises(InvalidPositionError, match="decks: deck 'low' of seat 0 has 12 copies of 'c5'"):
        load_position(write(tmp_path, doc))


def test_card_outside_the_decks_is_refused(timeline: Timeline, tmp_path: Path) -> None:
    doc = json.loads(position_file(timeline, timeline.resolve("turn:2")))
    doc["state"]["boards"][0].append(1077)
    with pytest.raises(InvalidPositionError, match=r"state.boards\[0\]\[0\] = 1077 is not allowed: a card instance"):
        load_position(write(tmp_path, doc))


def test_not_a_position_file(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_text('{"hello": 1}')
    with pytest.raises(InvalidPositionError, match="not a position file"):
        load_position(path)


def test_toy_continues_from_a_position(logs_dir: Path, tmp_path: Path) -> None:
    timeline = Timeline.from_file(collect([logs_dir / "toy"])[0])
    path = tmp_path / "nim.json"
    path.write_bytes(position_file(timeline, timeline.resolve("turn:2")))
    continue_game(load_position(path), tmp_path / "nim.log")
    log = read_log(tmp_path / "nim.log")
    assert rerun(log).ok and log.events[0].turn >= 2


def test_a_position_with_cards_en_route_and_aboard_round_trips_and_continues(real_logs: Path, tmp_path: Path) -> None:
    """[M9-054], [M9-027] a position file holds a card En Route (its route zone is the destination, ``origin`` the
    position it left) and an embarked one (``aboard``); it reads back to the same state and a game continues."""
    for log_path in collect([real_logs / "miras9"]):
        timeline = Timeline.from_file(log_path)
        counts = [
            n + 1 for n in range(len(timeline.events))
            if type(timeline.events[n]).__name__ == "UnitMoved" and timeline.events[n].dst.startswith("route:")
        ]  # fmt: skip
        if counts:
            break
    count = counts[0]
    path = tmp_path / "route.json"
    path.write_bytes(position_file(timeline, count))
    doc = json.loads(path.read_text())
    moved = timeline.events[count - 1]
    card = doc["state"]["cards"][str(moved.cards[0])]
    assert (card["zone"], card["origin"]) == (moved.dst, ZONE_LOC[moved.src])
    loaded = load_position(path)
    assert loaded.state == timeline.state_after(count)
    out = tmp_path / "route.log"
    continue_game(loaded, out, seed=3)
    assert rerun(read_log(out)).ok
    card["aboard"] = 4242  # aboard a host that does not exist: refused
    with pytest.raises(InvalidPositionError, match="aboard"):
        load_position(write(tmp_path, doc))
