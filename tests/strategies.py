"""Hypothesis strategies for the shared schemas."""

from __future__ import annotations

import typing
from typing import Any

import msgspec
from hypothesis import strategies as st

from annals.engine.runner import finalize_header
from annals.schemas.header import Branch, DeckList, LogHeader, PlayerInfo, TournamentInfo
from tests.toyrules.toy_schema import FirstPlayerChosen, GameOver, PileShuffled, Took, TurnBegan

text = st.text(max_size=12)
ints = st.integers(min_value=0, max_value=2**31 - 1)


def headers() -> st.SearchStrategy[LogHeader]:
    """Headers that pass ``schemas.validate.check_header``: one deck per player, fields in their domains, and the
    game id derived from the rest."""
    name = st.text(min_size=1, max_size=12)
    seats = st.integers(min_value=1, max_value=2)
    players = seats.flatmap(
        lambda k: st.tuples(
            st.lists(st.builds(PlayerInfo, name, name), min_size=k, max_size=k),
            st.lists(st.builds(DeckList, text, st.lists(text, max_size=5), text), min_size=k, max_size=k),
        )
    )
    tournament = st.none() | st.builds(TournamentInfo, text, ints, ints, text, st.integers(1, 2**31 - 1))
    branch = st.none() | st.builds(Branch, name, ints, text)
    return st.builds(
        lambda seated, **fields: finalize_header(LogHeader(players=seated[0], decks=seated[1], **fields)),
        players,
        format_version=st.just(1),
        engine_version=text,
        ruleset=st.just("toy"),
        ruleset_version=text,
        card_pool_hash=text,
        seed=st.integers(min_value=0, max_value=2**64 - 1),
        tournament=tournament,
        max_turns=st.integers(min_value=0, max_value=2**31 - 1),
        branched_from=branch,
        start_position=st.binary(max_size=16),
    )


def toy_events() -> st.SearchStrategy[Any]:
    env = (ints, ints, text, st.integers(min_value=-1, max_value=1))
    return st.one_of(
        st.builds(PileShuffled, *env, ints),
        st.builds(FirstPlayerChosen, *env, st.integers(0, 1)),
        st.builds(TurnBegan, *env),
        st.builds(Took, *env, ints, ints),
        st.builds(GameOver, *env, st.integers(-1, 1), text),
    )


def members(union: Any) -> list[type[Any]]:
    """The classes of a union type (or the one class)."""
    return list(typing.get_args(union)) or [union]


def structs(record_type: type[Any]) -> st.SearchStrategy[Any]:
    """Every field drawn from its type, defaults included (hypothesis would pass a list field's default factory)."""
    fields = {f.name: st.from_type(f.type) for f in msgspec.structs.fields(record_type)}
    return st.builds(record_type, **fields)
