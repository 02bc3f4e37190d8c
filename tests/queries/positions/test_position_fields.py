"""A hand-edited Miras 9 position file read alike by the compiled and the pure engine: a missing required field of a
card or the wave refused by its path and what it holds, a missing field with a default given its default, never 0.

Compiled (``make fast``), a card, a player and the wave are mypyc native classes, into which msgspec decoded a
missing int field as 0: a card without ``owner`` became seat 0's, one without ``loc`` stood at board position 0
(Exterior of seat 0) instead of off the board (-1), a wave without ``lane`` attacked the Exterior. The state is now
read against the Struct twins (``miras9.savedstate``); these tests hold both builds to that (CI runs them on the
compiled build, ``ANNALS_REQUIRE_C=1``).
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import msgspec
import pytest

from annals.engine.errors import SavedStateError
from annals.engine.miras9.savedstate import FIXES
from annals.engine.miras9.state import StructCard, StructPlayer, StructWave
from annals.engine.registry import get_ruleset
from annals.engine.simulate import simulate
from annals.queries.positions.files import InvalidPositionError, continue_game, load_position, position_file
from annals.queries.positions.timeline import Timeline
from annals.schemas.logfile import read_log

REQUIRED_CARD = [f.name for f in msgspec.structs.fields(StructCard) if f.required]
REQUIRED_WAVE = [f.name for f in msgspec.structs.fields(StructWave) if f.required]


def defaults(kind: type[msgspec.Struct]) -> dict[str, Any]:
    return {
        f.name: f.default if f.default is not msgspec.NODEFAULT else f.default_factory()
        for f in msgspec.structs.fields(kind)
        if not f.required
    }


def load(tmp_path: Path, doc: dict[str, Any]) -> Any:
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(doc))
    return load_position(path).state


def refusal(tmp_path: Path, doc: dict[str, Any]) -> str:
    with pytest.raises(InvalidPositionError) as caught:
        load(tmp_path, doc)
    return str(caught.value)


@pytest.mark.parametrize("field", REQUIRED_CARD)
def test_a_card_without_a_required_field_is_refused_by_its_path(
    wave_position: dict[str, Any], tmp_path: Path, field: str
) -> None:
    assert REQUIRED_CARD == ["iid", "cid", "owner", "ctrl", "zone"]
    doc = copy.deepcopy(wave_position)
    del doc["state"]["cards"]["2004"][field]
    message = refusal(tmp_path, doc)
    assert f'$.state.cards["2004"].{field}: a required field is missing; add it: {FIXES[f"cards.{field}"]}' in message
    assert message.startswith(str(tmp_path / "edited.json"))  # the file, then the field


@pytest.mark.parametrize("field", REQUIRED_WAVE)
def test_a_wave_without_a_required_field_is_refused_by_its_path(
    wave_position: dict[str, Any], tmp_path: Path, field: str
) -> None:
    """The wave in progress [M9-073]: its number, lane and attacking player have no default."""
    assert REQUIRED_WAVE == ["number", "lane", "attacker"]
    doc = copy.deepcopy(wave_position)
    del doc["state"]["wave"][field]
    assert f"$.state.wave.{field}: a required field is missing; add it: {FIXES[f'wave.{field}']}" in refusal(
        tmp_path, doc
    )


@pytest.mark.parametrize("field", sorted(defaults(StructCard)))
def test_a_card_field_left_out_takes_its_default(wave_position: dict[str, Any], tmp_path: Path, field: str) -> None:
    """Every card field with a default, left out of every card that holds its default: the same position (a card
    in the deck without ``loc`` is off the board, -1; compiled it stood at position 0)."""
    doc = copy.deepcopy(wave_position)
    edited = 0
    for card in doc["state"]["cards"].values():
        if card[field] == defaults(StructCard)[field]:
            del card[field]
            edited += 1
    assert edited
    assert load(tmp_path, doc) == load(tmp_path, wave_position)


def test_loc_and_origin_default_to_off_the_board(wave_position: dict[str, Any], tmp_path: Path) -> None:
    """A card in the deck, its ``loc`` and ``origin`` left out: -1, off the board [M9-054], not position 0."""
    doc = copy.deepcopy(wave_position)
    deck_card = next(k for k, c in doc["state"]["cards"].items() if c["zone"] == "deck")
    del doc["state"]["cards"][deck_card]["loc"], doc["state"]["cards"][deck_card]["origin"]
    card = load(tmp_path, doc).cards[int(deck_card)]
    assert (card.loc, card.origin) == (-1, -1)


@pytest.mark.parametrize("kind,where", [(StructPlayer, "players"), (StructWave, "wave")])
def test_player_and_wave_fields_left_out_take_their_defaults(
    wave_position: dict[str, Any], tmp_path: Path, kind: type[msgspec.Struct], where: str
) -> None:
    for field, default in defaults(kind).items():
        doc = copy.deepcopy(wave_position)
        holders = doc["state"][where] if where == "players" else [doc["state"][where]]
        if not any(h[field] == default for h in holders):
            continue
        for h in holders:
            if h[field] == default:
                del h[field]
        assert load(tmp_path, doc) == load(tmp_path, wave_position), field


def test_a_wrong_type_and_a_bad_key_are_refused_by_their_path(wave_position: dict[str, Any], tmp_path: Path) -> None:
    doc = copy.deepcopy(wave_position)
    doc["state"]["cards"]["1007"]["ctrl"] = "one"
    expected = '$.state.cards["1007"].ctrl: Expected int, got str; give it: the seat that controls'
    assert expected in refusal(tmp_path, doc)
    doc = copy.deepcopy(wave_position)
    doc["state"]["cards"]["one"] = doc["state"]["cards"].pop("1007")
    assert "$.state.cards: a key is not of its type (Expected int, got str)" in refusal(tmp_path, doc)
    doc = copy.deepcopy(wave_position)
    doc["state"]["wave"]["wounded"] = [[1, 2, 3]]
    assert "$.state.wave.wounded[0]" in refusal(tmp_path, doc)


def test_an_extra_field_is_ignored(wave_position: dict[str, Any], tmp_path: Path) -> None:
    """A field annals does not know (a note a judge left in the file) changes nothing: msgspec skips it."""
    doc = copy.deepcopy(wave_position)
    doc["state"]["cards"]["1004"]["note"] = "checked by the judge"
    doc["state"]["wave"]["comment"] = 3
    assert load(tmp_path, doc) == load(tmp_path, wave_position)


def test_a_start_position_in_a_log_header_is_read_the_same_way(wave_position: dict[str, Any], tmp_path: Path) -> None:
    """``annals continue`` writes the state into the new log's header (``start_position``, msgpack); every reader
    of that log decodes it again (replay, views, timelines): a header written without ``loc`` (an older annals)
    gets -1, one without ``owner`` is refused naming it."""
    path = tmp_path / "p.json"
    path.write_text(json.dumps(wave_position))
    continue_game(load_position(path), tmp_path / "c.log", seed=2, max_turns=1)
    header = read_log(tmp_path / "c.log").header
    ruleset = get_ruleset("miras9")
    raw = msgspec.msgpack.decode(header.start_position)
    card = next(k for k, c in raw["cards"].items() if c["zone"] == "deck")
    del raw["cards"][card]["loc"]
    state = ruleset.new_state(msgspec.structs.replace(header, start_position=msgspec.msgpack.encode(raw)))
    assert state.cards[card].loc == -1
    del raw["cards"][card]["owner"]
    with pytest.raises(SavedStateError) as caught:
        ruleset.new_state(msgspec.structs.replace(header, start_position=msgspec.msgpack.encode(raw)))
    assert caught.value.path == f"$.cards[{card}].owner"


def test_a_morana_state_names_the_entry_of_a_keyed_field(tmp_path: Path) -> None:
    """MORANA's state has no native classes, but the same reading: an entry of ``power`` (keyed by card instance)
    of the wrong type is named by its key, where msgspec says ``$.power[...]``."""
    for _ in simulate("morana", 1, 3, ["clash", "glory"], ["heuristic", "heuristic"], tmp_path / "games"):
        pass
    timeline = Timeline.from_file(next((tmp_path / "games").glob("*.log")))
    doc = json.loads(position_file(timeline, len(timeline.events)))
    key = next(iter(doc["state"]["power"]))
    doc["state"]["power"][key] = "strong"
    assert f'$.state.power["{key}"]: Expected int, got str' in refusal(tmp_path, doc)


def test_a_state_nested_too_deep_is_refused_by_name(wave_position: dict[str, Any], tmp_path: Path) -> None:
    """Lists nested a hundred thousand deep in the state (a paste gone wrong): a named refusal, where msgspec's
    RecursionError ran out as a traceback."""
    text = json.dumps(wave_position).replace('"2004": {', '"9999": ' + "[" * 100_000 + "]" * 100_000 + ', "2004": {')
    path = tmp_path / "deep.json"
    path.write_text(text)
    with pytest.raises(InvalidPositionError, match="nested too deep"):
        load_position(path)
