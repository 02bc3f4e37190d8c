"""Every schema round-trips through msgpack (and JSON for the human-facing ones), for every registered ruleset."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from annals.schemas.header import LogClose, LogHeader, header_record
from annals.schemas.records import Decision, instance_id, instance_owner
from annals.schemas.rulesets import ruleset_names, schema_for
from tests.strategies import members, structs

# msgpack carries 64-bit integers; every int in our schemas fits.
st.register_type_strategy(int, st.integers(-(2**63), 2**63 - 1))


def _all_record_types() -> list[tuple[str, type[Any]]]:
    found = []
    for name in ruleset_names():
        schema = schema_for(name)
        found += [(f"{name}.event.{t.__name__}", t) for t in members(schema.event_type)]
        found += [(f"{name}.option.{t.__name__}", t) for t in members(schema.option_type)]
    return found


@pytest.mark.parametrize(("label", "record_type"), _all_record_types(), ids=lambda v: v if isinstance(v, str) else "")
def test_every_event_and_option_round_trips(label: str, record_type: type[Any]) -> None:
    encoder = msgspec.msgpack.Encoder()
    decoder = msgspec.msgpack.Decoder(record_type)

    @settings(max_examples=25)
    @given(structs(record_type))
    def check(record: Any) -> None:
        assert decoder.decode(encoder.encode(record)) == record

    check()


@settings(max_examples=60)
@given(st.from_type(LogHeader))
def test_header_round_trips_msgpack_and_json(header: LogHeader) -> None:
    assert msgspec.msgpack.decode(msgspec.msgpack.encode(header), type=LogHeader) == header
    assert msgspec.json.decode(msgspec.json.encode(header), type=LogHeader) == header


@settings(max_examples=60)
@given(st.from_type(LogHeader))
def test_a_header_frame_holds_the_bytes_it_always_held(header: LogHeader) -> None:
    # ``header_record`` takes a shallow dict of the fields (nested Structs left to the encoder): the same bytes as the
    # deep ``to_builtins`` it replaced, whatever the tournament, branch, start position or nonce
    header = msgspec.structs.replace(header, cards=(), sandbox=False)
    deep = msgspec.to_builtins(header, builtin_types=(bytes,))
    del deep["cards"], deep["sandbox"]
    assert msgspec.msgpack.encode(header_record(header)) == msgspec.msgpack.encode(deep)


@given(st.from_type(LogClose))
def test_close_round_trips(record: LogClose) -> None:
    assert msgspec.msgpack.decode(msgspec.msgpack.encode(record), type=LogClose) == record


@pytest.mark.parametrize("name", ruleset_names())
def test_decisions_round_trip_with_each_rulesets_options(name: str) -> None:
    option_type = schema_for(name).option_type
    decision_type = Decision[option_type]  # type: ignore[valid-type]

    decisions = st.builds(
        Decision,
        st.integers(0, 10**6),
        st.integers(0, 10**6),
        st.integers(0, 1),
        st.text(max_size=20),
        st.lists(st.from_type(option_type), max_size=8),
        st.integers(0, 7),
    )

    @settings(max_examples=25)
    @given(decisions)
    def check(decision: Any) -> None:
        assert msgspec.msgpack.decode(msgspec.msgpack.encode(decision), type=decision_type) == decision

    check()


def test_event_tags_are_unique_per_ruleset() -> None:
    for name in ruleset_names():
        schema = schema_for(name)
        for union in (schema.event_type, schema.option_type):
            tags = [t.__struct_config__.tag for t in members(union)]
            assert len(tags) == len(set(tags)), (name, tags)


def test_old_fields_keep_their_array_positions() -> None:
    """Array-like structs only append: the envelope is always the first four fields (schema evolution rule)."""
    for name in ruleset_names():
        for event_type in members(schema_for(name).event_type):
            assert event_type.__struct_fields__[:4] == ("n", "turn", "step", "player"), event_type


@given(st.integers(0, 1), st.integers(0, 999))
def test_instance_ids_name_their_owner(player: int, index: int) -> None:
    assert instance_owner(instance_id(player, index)) == player
    assert instance_id(player, index) >= 1000
