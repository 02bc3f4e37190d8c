"""A position as data: cards grouped by zone and owner with their card ids, counters by holder, the names of the
cards and the players (``cli.position.render_board`` says it in words for people).

Used by ``annals position`` (a rich board, JSON or SVG) and by the demo.
"""

from __future__ import annotations

import msgspec

from annals.engine.core import Position
from annals.engine.names import SET_UP
from annals.engine.registry import get_ruleset
from annals.engine.views import viewer_of
from annals.queries.cards import pool
from annals.queries.pictures.svgboard import render_svg
from annals.queries.positions.timeline import StoredGame, Timeline
from annals.queries.positions.viewstate import ViewState
from annals.schemas.errors import AnnalsError
from annals.schemas.records import CARDS_PER_PLAYER, TOKEN_BASE, instance_owner
from annals.schemas.text import card_names


class Board(msgspec.Struct):
    """A position for people: cards by zone and side (``"p0"``/``"p1"``/``"token"``) labelled
    ``CARD-ID#INSTANCE``, counters by holder (``"p0:echo"``, ``"ember-sprite#1004:power"``), how many cards the
    view hides, and the name of each card id shown (when the game used the card pool this annals ships)."""

    game_id: str
    ruleset: str
    coordinate: str
    events_applied: int  # the position is after event events_applied - 1
    turn: int
    step: str
    view: str
    zones: dict[str, dict[str, list[str]]]  # zone -> "p0"/"p1" -> ["c3#1004", ...]
    counters: dict[str, int]  # "p0:echo", "c3#1004:wounds", ...
    hidden: int  # cards the viewer cannot identify
    over: bool
    winner: int
    names: dict[str, str] = {}  # card id -> card name, for the card ids in ``zones``
    players: list[str] = []  # the seats' names, seat 0 first (empty: unknown)
    piles: dict[str, int] = {}  # "p0:hand" -> its size, hidden cards counted (public: what a seat's board shows)
    end_reason: str = ""  # once ``over``: how the game ended (its code; people read it as ``Words.ending`` says it)

    def name_of(self, label: str) -> str:
        """The card name of a ``CARD-ID#INSTANCE`` label (the card id when its name is not known)."""
        card_id = label.rpartition("#")[0] or label
        return self.names.get(card_id, card_id)


def _names(ruleset: str, pool_hash: str, zones: dict[str, dict[str, list[str]]]) -> dict[str, str]:
    """Names of the card ids on the board, from the ruleset's pool if the game was played with it."""
    try:
        if get_ruleset(ruleset).card_pool_hash() != pool_hash:
            return {}
    except AnnalsError:
        return {}
    shown = {label.rpartition("#")[0] for sides in zones.values() for labels in sides.values() for label in labels}
    return {c.id: c.name for c in pool(ruleset) if c.id in shown}


def _label(instance: int, names: dict[int, str]) -> str:
    return f"{names.get(instance, 'token' if instance >= TOKEN_BASE else '?')}#{instance}"


def _holder(holder: int, names: dict[int, str]) -> str:
    if holder < 0:
        return "game"
    if holder < CARDS_PER_PLAYER:
        return f"p{holder}"
    return _label(holder, names)


def board(timeline: Timeline, count: int, view: str = "omniscient", coordinate: str = "") -> Board:
    names = card_names(timeline.header)
    state = timeline.state_after(count)
    pos: Position = timeline.position(count, view)
    total = len(timeline.ruleset.position(state).cards) if view != "omniscient" else len(pos.cards)
    zones, counters = _grouped(pos, names)
    return Board(
        timeline.header.game_id,
        timeline.header.ruleset,
        coordinate,
        count,
        state.turn,
        state.step,
        view,
        zones,
        counters,
        max(total - len(pos.cards), 0),
        state.over,
        state.winner,
        _names(timeline.header.ruleset, timeline.header.card_pool_hash, zones),
        [p.name for p in timeline.header.players],
        _piles(timeline, state),
        state.end_reason,
    )


def _piles(timeline: Timeline, state: object) -> dict[str, int]:
    sizes = getattr(timeline.ruleset, "pile_sizes", None)
    return dict(sizes(state)) if sizes is not None else {}


def stored_board(game: StoredGame, count: int, coordinate: str = "") -> Board:
    """The omniscient board from the database alone (the ``position()`` macro), for a game whose log is not at
    hand. The turn and step are those of the last event applied (``start``: turn 0, step ``""``), which can
    differ from the state's own (an event that begins a step carries the step it was emitted in); the game is
    over after its last event."""
    zones, counters = _grouped(game.position(count), game.card_ids)
    last = count - 1
    over = count == len(game.kinds)
    return Board(
        game.game_id,
        game.ruleset,
        coordinate,
        count,
        game.turns[last] if last >= 0 else 0,
        game.steps[last] if last >= 0 else "",
        "omniscient",
        zones,
        counters,
        0,
        over,
        game.winner if over else -1,
        _names(game.ruleset, game.card_pool_hash, zones),
        game.players,
        end_reason=game.end_reason if over else "",
    )


def _grouped(pos: Position, names: dict[int, str]) -> tuple[dict[str, dict[str, list[str]]], dict[str, int]]:
    """Cards by zone and side (``p0``/``p1``/``token``) with their card ids; counters by named holder."""
    zones: dict[str, dict[str, list[str]]] = {}
    for card in sorted(pos.cards):
        owner = instance_owner(card) if card < TOKEN_BASE else -1
        side = f"p{owner}" if owner >= 0 else "token"
        zones.setdefault(pos.cards[card], {}).setdefault(side, []).append(_label(card, names))
    counters = {}
    for key in sorted(pos.counters):
        holder, _, counter = key.partition(":")
        counters[f"{_holder(int(holder), names)}:{counter}"] = pos.counters[key]
    return dict(sorted(zones.items())), counters


def view_words(view: str, players: list[str]) -> str:
    """Whose view a board is drawn in, said for a person: ``every card shown``, ``as Ann sees it``, ``as a spectator
    sees it``."""
    seat = view[6:] if view.startswith("player") and view[6:].isdigit() else ""
    if seat:
        who = players[int(seat)] if int(seat) < len(players) and players[int(seat)] else f"player {int(seat) + 1}"
        return f"as {who} sees it"
    return {"omniscient": "every card shown", "spectator": "as a spectator sees it"}.get(view, view)


def board_title(timeline: Timeline, count: int, view: str, coordinate: str, turn: int, step: str) -> str:
    """The SVG board's title: the game, where in it (the event, turn and step: the coordinate typed is said by
    them) and whose view, in words."""
    from annals.queries.pictures.svgkit import said

    ruleset = {"miras9": "Miras 9", "morana": "MORANA"}.get(timeline.header.ruleset, timeline.header.ruleset)
    players = [p.name for p in timeline.header.players]
    at = f"after event {count - 1}" if count else "before any event"
    when = f"turn {turn} · {said(step)}" if turn else SET_UP
    return f"{ruleset} · game {timeline.header.game_id} · {at} · {when} · {view_words(view, players)}"


def board_svg(timeline: Timeline, count: int, view: str = "omniscient", coordinate: str = "") -> str:
    """The SVG board after ``count`` events as ``view`` saw it: drawn from that viewer's own fold of the redacted
    events, so a player's board holds nothing that player could not see."""
    viewer = viewer_of(view)
    if viewer is None:
        state = timeline.state_after(count)
    else:
        state = ViewState(timeline.header, viewer).apply_all(timeline.events[:count])
    players = [p.name for p in timeline.header.players]
    title = board_title(timeline, count, view, coordinate, state.turn, state.step)
    return render_svg(timeline.header.ruleset, state, viewer, title=title, players=players)
