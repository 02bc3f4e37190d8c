"""A player's state and the wave are dataclasses (``miras9.playerstate``, native when compiled) or, interpreted,
msgspec Structs (``state.StructPlayer``, ``state.StructWave``): either way saved states and position files keep the
bytes they had when they were always Structs, a bad field is refused the same way, and a copy shares no list."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import msgspec
import pytest

from annals.engine import compiled, statecopy
from annals.engine.miras9 import playerstate
from annals.engine.miras9.state import M9State, PlayerState, StructPlayer, StructWave, Wave


class OldPlayer(msgspec.Struct, kw_only=True):
    """The player state as it was (a Struct): the encoding saved states and position files were written with."""

    deck: list[int] = []
    hand: list[int] = []
    resource: list[int] = []
    used: list[int] = []
    discard: list[int] = []
    exile: list[int] = []
    echo: int = 0
    leader: int = 0
    sites: list[int] = msgspec.field(default_factory=lambda: [0, 0, 0])
    mulligan_done: bool = False


class OldWave(msgspec.Struct, kw_only=True):
    """The wave as it was (a Struct)."""

    number: int
    lane: int
    attacker: int
    attackers: list[int] = []
    targets: list[int] = []
    blockers: list[int] = []
    blocked: list[int] = []
    step: int = 1
    was_blocked: list[int] = []
    left: list[int] = []
    extra: int = 0
    wounded: list[tuple[int, int]] = []


PLAYER: dict[str, Any] = {
    "deck": [1004, 1005], "hand": [1006], "used": [1007], "exile": [1008], "echo": 3, "leader": 1001,
    "sites": [0, 1009, 0], "mulligan_done": True,
}  # fmt: skip
WAVE: dict[str, Any] = {
    "number": 4, "lane": 2, "attacker": 1, "attackers": [1010, 1011], "targets": [0, 2010], "blockers": [2011],
    "blocked": [1010], "step": 5, "left": [1011], "extra": 1010, "wounded": [(1010, 2011)],
}  # fmt: skip
ENCODERS = [msgspec.json.encode, msgspec.msgpack.encode]


@pytest.mark.parametrize("player", [playerstate.PlayerState, StructPlayer])
@pytest.mark.parametrize("encode", ENCODERS)
def test_a_player_encodes_as_the_struct_did(player: type[Any], encode: Callable[[object], bytes]) -> None:
    assert encode(player(**PLAYER)) == encode(OldPlayer(**PLAYER))
    assert encode(player()) == encode(OldPlayer())


@pytest.mark.parametrize("wave", [playerstate.Wave, StructWave])
@pytest.mark.parametrize("encode", ENCODERS)
def test_a_wave_encodes_as_the_struct_did(wave: type[Any], encode: Callable[[object], bytes]) -> None:
    assert encode(wave(**WAVE)) == encode(OldWave(**WAVE))
    assert encode(wave(number=1, lane=0, attacker=0)) == encode(OldWave(number=1, lane=0, attacker=0))


def test_they_are_native_where_the_engine_is_compiled() -> None:
    assert PlayerState is (playerstate.PlayerState if compiled.is_compiled() else StructPlayer)
    assert Wave is (playerstate.Wave if compiled.is_compiled() else StructWave)


def test_a_state_round_trips_its_players_and_wave() -> None:
    state = M9State(players=[PlayerState(**PLAYER), PlayerState()], wave=Wave(**WAVE))
    for encode, decode in (
        (msgspec.json.encode, msgspec.json.decode),
        (msgspec.msgpack.encode, msgspec.msgpack.decode),
    ):
        back = decode(encode(state), type=M9State)
        assert back == state
        assert type(back.players[0]) is PlayerState and back.players[0].sites == [0, 1009, 0]
        assert type(back.wave) is Wave and back.wave.wounded == [(1010, 2011)]
    missing = msgspec.json.decode(
        b'{"players": [{}], "wave": {"number": 1, "lane": 0, "attacker": 0, "step": 1}}', type=M9State
    )
    assert missing.players == [PlayerState()] and missing.players[0].sites == [0, 0, 0]
    assert missing.wave == Wave(number=1, lane=0, attacker=0)
    assert msgspec.convert(msgspec.to_builtins(state), M9State) == state


def test_a_bad_field_is_refused_by_name() -> None:
    raw = msgspec.json.encode({"players": [{**PLAYER, "echo": "x"}]})
    with pytest.raises(msgspec.ValidationError, match=r"Expected `int`, got `str` - at `\$\.players\[0\]\.echo`"):
        msgspec.json.decode(raw, type=M9State)
    raw = msgspec.json.encode({"wave": {**WAVE, "wounded": [[1, "x"]]}})
    with pytest.raises(msgspec.ValidationError, match=r"Expected `int`, got `str` - at `\$\.wave\.wounded\[0\]\[1\]`"):
        msgspec.json.decode(raw, type=M9State)
    raw = msgspec.json.encode({"players": [{**PLAYER, "hand": ["x"]}]})
    with pytest.raises(msgspec.ValidationError, match=r"Expected `int`, got `str` - at `\$\.players\[0\]\.hand\[0\]`"):
        msgspec.json.decode(raw, type=M9State)


def test_a_cloned_state_shares_no_pile_or_wave_list() -> None:
    state = M9State(players=[PlayerState(**PLAYER)], wave=Wave(**WAVE))
    twin = statecopy.clone(state)
    assert twin == state
    twin.players[0].hand.append(1099)
    twin.players[0].sites[0] = 1098
    assert twin.wave is not None
    twin.wave.attackers.remove(1011)
    twin.wave.wounded.append((1011, 2010))
    assert state.players[0].hand == [1006] and state.players[0].sites == [0, 1009, 0]
    assert state.wave is not None and state.wave.attackers == [1010, 1011] and state.wave.wounded == [(1010, 2011)]


def test_a_copy_is_equal_and_its_own() -> None:
    one, wave = playerstate.PlayerState(**PLAYER), playerstate.Wave(**WAVE)
    twin, wave_twin = copy.copy(one), copy.copy(wave)
    assert twin == one and twin is not one and wave_twin == wave
    twin.deck.pop()
    wave_twin.left.clear()
    assert one.deck == [1004, 1005] and wave.left == [1011]
