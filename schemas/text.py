"""Readable one-line text for headers, events and decisions (``annals show``)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import msgspec

from annals.schemas.header import LogHeader
from annals.schemas.logfile import GameLog
from annals.schemas.records import Decision

_ENVELOPE = ("n", "turn", "step", "player")


def _fields(record: Any, skip: tuple[str, ...] = ()) -> str:
    return " ".join(f"{f}={getattr(record, f)!r}" for f in record.__struct_fields__ if f not in skip)


def describe_event(event: Any) -> str:
    who = f"p{event.player}" if event.player >= 0 else "--"
    return f"#{event.n:<6} t{event.turn:<3} {event.step:<22} {who}  {type(event).__name__} {_fields(event, _ENVELOPE)}"


def describe_decision(decision: Decision[Any], numbered: bool = False) -> str:
    mark = f"?{decision.n}" if numbered else "?"  # the number a judge's backup names
    if decision.chosen < 0:  # another player's decision, in a player's or spectator's view
        return f"{'':8}{'':5}{'':22} p{decision.player}  {mark} {decision.point}: (hidden)"
    chosen = decision.offered[decision.chosen]
    return (
        f"{'':8}{'':5}{'':22} p{decision.player}  {mark} {decision.point}: chose "
        f"{type(chosen).__name__} {_fields(chosen)} ({decision.chosen + 1} of {len(decision.offered)})"
    )


def describe_header(header: LogHeader) -> str:
    lines = [
        f"game {header.game_id}  {header.ruleset} {header.ruleset_version}  engine {header.engine_version}  "
        f"seed {header.seed}  cards {header.card_pool_hash}",
    ]
    for i, (player, deck) in enumerate(zip(header.players, header.decks, strict=True)):
        lines.append(f"p{i}: {player.name} ({player.agent}) with deck {deck.name!r} ({len(deck.cards)} cards)")
    if header.tournament is not None:
        lines.append(
            "tournament: " + " ".join(f"{k}={v!r}" for k, v in msgspec.structs.asdict(header.tournament).items())
        )
    if header.branched_from is not None:
        b = header.branched_from
        lines.append(f"branched from game {b.game_id} at event {b.at_event}")
    return "\n".join(lines)


def render_log(game: GameLog, *, numbered: bool = False) -> Iterator[str]:
    """The whole log as text: header, events with the decisions between them (``numbered``: each with its
    number), the end, judges' records, signatures and the digest."""
    yield describe_header(game.header)
    decisions = iter(game.decisions)
    pending = next(decisions, None)
    for event in game.events:
        while pending is not None and pending.at <= event.n:
            yield describe_decision(pending, numbered)
            pending = next(decisions, None)
        yield describe_event(event)
    c = game.close
    yield f"end: winner {c.winner} ({c.end_reason}) after {c.turns} turns, {c.events} events, {c.decisions} decisions"
    for branch in game.branches:
        yield (
            f"abandoned branch: {len(branch.events)} events, {len(branch.decisions)} decisions before frame "
            f"{branch.judge_frame}"
        )
    for seen in game.judged:
        yield f"judge (frame {seen.frame}, after event {seen.record.at_event - 1}): {seen.record.describe()}"
    if game.result != (c.winner, c.end_reason):
        winner, reason = game.result
        yield f"result as judged: winner {winner} ({reason})"
    for sig in game.signatures:
        yield f"signature (frame {sig.frame}): key {sig.record.key} {sig.record.name!r} over {sig.record.frames} frames"
    yield f"digest: {game.digest}"
