"""The server answers every frame: a binary frame, JSON nested past what a decoder follows, any text it cannot read
gets a named error and the seat plays on; a frame the socket cannot take closes it with a code and a reason; a
table's parameters are range-checked with a 400 naming the field. Nothing reaches the server's output as a
traceback. The frames are also fuzzed (Hypothesis: a few dozen by default, thousands with ``--soak``)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection

from annals.schemas import protocol as p
from tests.fuzzing import fuzz_settings
from tests.serverkit import Running, recv, start, stop

TABLE: dict[str, Any] = {"ruleset": "morana", "decks": ["clash", "glory"], "seats": ["human", "heuristic"]}


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    """One server for the module; its whole output is checked for tracebacks once it stops."""
    s = start(tmp_path_factory.mktemp("frames"))
    try:
        yield s
    finally:
        output = stop(s)
        assert "Traceback" not in output and "KeyError" not in output, output[-2000:]


@pytest.fixture(scope="module")
def seat(running: Running) -> Iterator[ClientConnection]:
    """A seat of a table waiting for its decision."""
    table = running.table(TABLE["ruleset"], TABLE["decks"], TABLE["seats"])
    with running.socket(table["table"], table["tokens"][0]) as ws:
        while recv(ws, 10)["type"] != "decide":
            pass
        yield ws


def _error_for(ws: ClientConnection, frame: str | bytes) -> dict[str, Any]:
    ws.send(frame)
    while (reply := recv(ws, 10))["type"] != "error":
        pass
    return dict(reply)


@pytest.mark.parametrize(
    ("frame", "says"),
    [
        (b"\x00\x01binary", "a binary frame (8 bytes); send JSON in text frames"),
        (b"", "a binary frame (0 bytes)"),
        ("[" * 1000 + "]" * 1000, "nested too deep"),
        ('{"type": "answer", "choose": ' + "[" * 5000 + "]" * 5000 + "}", "nested too deep"),
        ("{not json", "not JSON"),
    ],
)
def test_a_frame_the_server_cannot_read_gets_a_named_error(
    seat: ClientConnection, frame: str | bytes, says: str
) -> None:
    reply = _error_for(seat, frame)
    assert reply["code"] == p.MALFORMED and says in reply["message"], reply
    assert reply["decision"] >= 0  # the question is asked again: the seat plays on


@given(
    st.one_of(
        st.binary(max_size=256),
        st.text(max_size=256),
        st.recursive(
            st.none() | st.booleans() | st.integers() | st.text(max_size=8),
            lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
            max_leaves=30,
        ).map(json.dumps),
    )
)
@fuzz_settings(default=40, soak=3000)
def test_fuzzed_frames_get_an_answer_never_a_traceback(seat: ClientConnection, frame: str | bytes) -> None:
    """Any frame: an error naming its code, or (a well-formed answer) the game goes on; the socket stays open."""
    if isinstance(frame, str) and ('"choose"' in frame or "concede" in frame):
        return  # might be a legal answer or a concession: the game would move on, which is no failure
    reply = _error_for(seat, frame)
    assert reply["code"] in p.ERROR_CODES and reply["message"]


def test_a_frame_past_the_socket_limit_closes_it_with_a_code(running: Running) -> None:
    table = running.table(TABLE["ruleset"], TABLE["decks"], TABLE["seats"])
    with running.socket(table["table"], table["tokens"][0]) as ws, pytest.raises(ConnectionClosed) as closed:
        ws.send("x" * (2 * 1024 * 1024))
        while True:
            recv(ws, 10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009  # message too big


@pytest.mark.parametrize(
    ("extra", "says"),
    [
        ({"clock": -1}, "clock: expected int >= 0"),
        ({"delay": -3}, "delay: expected int >= 0"),
        ({"clock": 10**9}, "clock: expected int <= 86400"),
        ({"max_turns": -2}, "max_turns: expected int >= 0"),
        ({"seed": -1}, "seed: expected int >= 0"),
        ({"colck": 60}, "colck: unknown field; did you mean 'clock'?"),
        ({"decks": ["clash"]}, "decks: expected array of length >= 2"),
        ({"seats": ["human", "heuristic", "random"]}, "seats: expected array of length <= 2"),
        ({"ruleset": ""}, "ruleset: expected str of length >= 1"),
    ],
)
def test_a_tables_parameters_are_range_checked(running: Running, extra: dict[str, Any], says: str) -> None:
    status, answer = running.api("/api/tables", {**TABLE, **extra})
    assert status == 400 and says in answer["error"], answer


def test_a_table_body_that_is_not_parameters_is_a_400(running: Running) -> None:
    bodies: list[Any] = [[], "x", {"ruleset": "morana"}]
    for body in bodies:
        status, answer = running.api("/api/tables", body)
        assert status == 400 and answer["error"], answer
