"""Readable one-line text for headers, events and decisions (``annals show``)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import msgspec

from annals.schemas.commandline import quoted
from annals.schemas.header import LogHeader
from annals.schemas.judge import Intervention
from annals.schemas.logfile import GameLog
from annals.schemas.records import CARDS_PER_PLAYER, LEADER_INDEX, Decision, instance_id

_ENVELOPE = ("n", "turn", "step", "player")
Ending = Callable[[int, str], str]  # (winner, end reason) -> the end in words: ``Words.ending``
# Fields that hold card instances (``schemas.records`` conventions, and the few game-specific ones).
INSTANCE_FIELDS = frozenset(
    {"card", "cards", "target", "targets", "holder", "host", "source", "sources", "attacker", "attackers", "blockers"}
)


def card_names(header: LogHeader) -> dict[int, str]:
    """Card id of each instance the header's decks define (``instance_id``): what a log's numbers stand for."""
    names: dict[int, str] = {}
    for seat, deck in enumerate(header.decks):
        for i, card in enumerate(deck.cards):
            names[instance_id(seat, i)] = card
        if deck.leader:
            names[instance_id(seat, LEADER_INDEX)] = deck.leader
    return names


def _named_here(event: Any) -> dict[int, str]:
    """The instance an event names with its card id (a token made in play, a card announced as it is played)."""
    card, card_id = getattr(event, "card", 0), getattr(event, "card_id", "")
    if type(card) is int and card >= CARDS_PER_PLAYER and type(card_id) is str and card_id:
        return {card: card_id}
    return {}


def _value(field: str, value: Any, names: dict[int, str] | None) -> str:
    if names is None or field not in INSTANCE_FIELDS:
        return repr(value)
    if type(value) is int and value >= CARDS_PER_PLAYER:
        return f"{names.get(value, '?')}#{value}"
    if type(value) is list and value and all(type(v) is int for v in value):
        return "[" + ", ".join(f"{names.get(v, '?')}#{v}" if v >= CARDS_PER_PLAYER else repr(v) for v in value) + "]"
    return repr(value)


def _fields(record: Any, skip: tuple[str, ...] = (), names: dict[int, str] | None = None) -> str:
    return " ".join(f"{f}={_value(f, getattr(record, f), names)}" for f in record.__struct_fields__ if f not in skip)


def describe_event(event: Any, names: dict[int, str] | None = None) -> str:
    """One line: number, turn, step, who, kind and fields; with ``names``, card instances as ``card-id#1003``."""
    who = f"p{event.player}" if event.player >= 0 else "--"
    fields = _fields(event, _ENVELOPE, names)
    return f"#{event.n:<6} t{event.turn:<3} {event.step:<22} {who}  {type(event).__name__} {fields}"


def describe_decision(decision: Decision[Any], names: dict[int, str] | None = None, numbered: bool = False) -> str:
    mark = f"?{decision.n}" if numbered else "?"  # the number a judge's backup names
    if decision.chosen < 0:  # another player's decision, in a player's or spectator's view
        return f"{'':8}{'':5}{'':22} p{decision.player}  {mark} {decision.point}: (hidden)"
    chosen = decision.offered[decision.chosen]
    return (
        f"{'':8}{'':5}{'':22} p{decision.player}  {mark} {decision.point}: chose "
        f"{type(chosen).__name__} {_fields(chosen, names=names)} ({decision.chosen + 1} of {len(decision.offered)})"
    )


def describe_header(header: LogHeader) -> str:
    lines = [
        f"game {header.game_id}  {header.ruleset} {header.ruleset_version}  engine {header.engine_version}  "
        f"seed {header.seed}  cards {header.card_pool_hash}",
    ]
    for i, (player, deck) in enumerate(zip(header.players, header.decks, strict=True)):
        lines.append(f"p{i}: {player.name} ({player.agent}) with deck {deck.name!r} ({len(deck.cards)} cards)")
    if header.sandbox:
        lines.append("sandbox: a judge's scenario, started from a position; no deck-building rules apply")
    if header.cards:
        lines.append("cards not in the shipped pool (embedded): " + ", ".join(d.id for d in header.cards))
    if header.tournament is not None:
        lines.append(
            "tournament: " + " ".join(f"{k}={v!r}" for k, v in msgspec.structs.asdict(header.tournament).items())
        )
    if header.branched_from is not None:
        b = header.branched_from
        lines.append(f"branched from game {b.game_id} at event {b.at_event}")
    return "\n".join(lines)


def backup_pending_note(backup: Intervention, log: str = "LOG") -> str:
    """What a log with a judge's backup pending says in place of a result."""
    return "".join(backup_pending_parts(backup, log))


def backup_pending_parts(backup: Intervention, log: str = "LOG") -> tuple[str, str]:
    """``backup_pending_note`` as its words and the command to copy (``schemas.screen.command`` keeps it whole)."""
    return (
        f"backup pending: position at decision {backup.to_decision} ({backup.events} events kept), by judge "
        f"{backup.judge}; the game goes on with: ",
        f"annals resume {quoted(log)}",
    )


def describe_result(game: GameLog, ending: Ending | None = None) -> str:
    """``result: p0 heuristic-0 with 'vanguard' won (reason) after ...``: who won, how, and how long it took; with
    ``ending`` (``Words.ending``, for a person) the end as every reader says it: ``result: p0 heuristic-0 with
    'vanguard': heuristic-0 wins by Battle Damage, after ...``."""
    c = game.close
    if game.backup_pending is not None:
        return backup_pending_note(game.backup_pending)
    winner, reason = game.result  # as judged, when a judge's record changed it
    counts = f"{c.turns} turns, {c.events} events, {c.decisions} decisions"
    seat = f"p{winner} {game.header.players[winner].name} with {game.header.decks[winner].name!r}"
    if ending is not None:
        said = f"{seat}: {ending(winner, reason)}" if 0 <= winner < len(game.header.players) else ending(winner, reason)
        return f"result: {said}, after {counts}"
    who = f"{seat} won" if 0 <= winner < len(game.header.players) else "no winner"
    return f"result: {who} ({reason}) after {counts}"


def render_log(
    game: GameLog, *, named: bool = False, numbered: bool = False, ending: Ending | None = None
) -> Iterator[str]:
    """The whole log as text: header, events with the decisions between them (``numbered``: each with its
    number), the end, judges' records, signatures and the digest.

    ``named`` (``annals show``): card instances carry their card id (``char-recruit#1003``), and the text ends
    with the digest and then the result, so the last line says who won. ``ending`` (``Words.ending``): a result
    (the judged one, the last) said in words, as every reader says it, not as its code (``judge_game_loss``).
    """
    names = card_names(game.header) if named else None
    yield describe_header(game.header)
    decisions = iter(game.decisions)
    pending = next(decisions, None)
    for event in game.events:
        while pending is not None and pending.at <= event.n:
            yield describe_decision(pending, names, numbered)
            pending = next(decisions, None)
        if names is not None:
            names.update(_named_here(event))
        yield describe_event(event, names)
    c = game.close
    if not named:
        counts = f"{c.turns} turns, {c.events} events, {c.decisions} decisions"
        yield f"end: winner {c.winner} ({c.end_reason}) after {counts}"
    for branch in game.branches:
        yield (
            f"abandoned branch: {len(branch.events)} events, {len(branch.decisions)} decisions before frame "
            f"{branch.judge_frame}"
        )
    for seen in game.judged:
        yield f"judge (frame {seen.frame}, after event {seen.record.at_event - 1}): {seen.record.describe()}"
    if game.result != (c.winner, c.end_reason):
        winner, reason = game.result
        yield (
            f"result as judged: {ending(winner, reason)}" if ending else f"result as judged: winner {winner} ({reason})"
        )
    for sig in game.signatures:
        yield f"signature (frame {sig.frame}): key {sig.record.key} {sig.record.name!r} over {sig.record.frames} frames"
    yield f"digest: {game.digest}"
    if named:
        yield describe_result(game, ending)


def _record(kind: str, struct: Any, names: dict[int, str]) -> dict[str, Any]:
    """A Struct as a dict by field name, with ``names``: the card id of each instance field that has one."""
    fields = {f: getattr(struct, f) for f in struct.__struct_fields__}
    named: dict[str, Any] = {}
    for f, value in fields.items():
        if f not in INSTANCE_FIELDS:
            continue
        if type(value) is int and value in names:
            named[f] = names[value]
        elif type(value) is list and any(type(v) is int and v in names for v in value):
            named[f] = [names.get(v, "") for v in value]
    return {"record": kind, "kind": type(struct).__name__, **fields, **({"names": named} if named else {})}


def render_jsonl(game: GameLog) -> Iterator[str]:
    """The log as JSON lines, one record per line in log order: ``{"record": "header", ...}``, then each event
    (``{"record": "event", "kind": "Drew", "n": 12, ..., "names": {"card": "char-recruit"}}``) with the
    decisions (``"record": "decision"``) between them, and ``{"record": "result", ...}`` last."""
    encode = msgspec.json.encode
    names = card_names(game.header)
    header = msgspec.to_builtins(game.header)
    yield encode({"record": "header", **header}).decode()
    decisions = iter(game.decisions)
    pending = next(decisions, None)
    for event in game.events:
        while pending is not None and pending.at <= event.n:
            d = pending
            chosen = _record("option", d.offered[d.chosen], names) if d.chosen >= 0 else None
            if chosen is not None:
                del chosen["record"]
            record = {"record": "decision", "n": d.n, "at": d.at, "player": d.player, "point": d.point,
                      "offered": len(d.offered), "chosen": d.chosen, "option": chosen}  # fmt: skip
            if d.automatic:
                record["automatic"] = True
            yield encode(record).decode()
            pending = next(decisions, None)
        names.update(_named_here(event))
        yield encode(_record("event", event, names)).decode()
    c = game.close
    yield encode({"record": "result", **msgspec.to_builtins(c), "digest": game.digest}).decode()
