"""A whole log in sentences (``annals show``): the players, each event a person follows in words with its turn,
each decision with what was chosen, the result last. ``annals show --format records`` keeps the records."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from annals.engine.core import Ruleset
from annals.engine.registry import get_ruleset, ruleset_for
from annals.engine.words import Words, printed_for, turn_said
from annals.schemas.logfile import GameLog
from annals.schemas.records import CARDS_PER_PLAYER, Decision
from annals.schemas.text import backup_pending_note, card_names


def _namer(ruleset: Ruleset[Any], game: GameLog) -> tuple[dict[int, str], Any]:
    pool = {cid: info.name for cid, info in ruleset.cards().items()}
    pool.update({d.id: d.name for d in game.header.cards if hasattr(d, "name")})
    ids = card_names(game.header)

    def name(instance: int) -> str:
        cid = ids.get(instance)
        if instance < CARDS_PER_PLAYER or cid is None:
            return "a hidden card" if instance < CARDS_PER_PLAYER else "a token"
        return pool.get(cid, cid.split("-", 1)[-1].replace("-", " ").title())

    return ids, name


def _decision(words: Words, d: Decision[Any], numbered: bool) -> str:
    mark = f"?{d.n} " if numbered else ""  # as judge backup --to names a decision
    who = words.who(d.player)
    if d.chosen < 0:
        return f"      {mark}{who} decides ({words.point(d.point).split(':')[0].lower()})"
    chosen = words.option(d.offered[d.chosen], d.point)
    how = " (automatic: the only answer)" if getattr(d, "automatic", False) else \
        f" ({d.chosen + 1} of {len(d.offered)})" if len(d.offered) > 1 else " (the only answer)"  # fmt: skip
    return f"      {mark}{who} chose: {chosen}{how}"


def render_story(game: GameLog, *, numbered: bool = False) -> Iterator[str]:
    header = game.header
    ruleset = get_ruleset(header.ruleset)
    ids, name = _namer(ruleset, game)
    printed = printed_for(ruleset_for(header), lambda instance: ids.get(instance, ""))
    words = Words(header.ruleset, name, [p.name for p in header.players], printed=printed)
    players = [
        f"{p.name} ({p.agent}) with the deck {d.name}" for p, d in zip(header.players, header.decks, strict=True)
    ]
    yield f"{header.ruleset} game {header.game_id}: " + " against ".join(players)
    decisions = iter(game.decisions)
    pending = next(decisions, None)
    for event in game.events:
        while pending is not None and pending.at <= event.n:
            yield _decision(words, pending, numbered)
            pending = next(decisions, None)
        card, card_id = getattr(event, "card", 0), getattr(event, "card_id", "")
        if type(card) is int and card >= CARDS_PER_PLAYER and type(card_id) is str and card_id:
            ids[card] = card_id  # a token made in play, a card announced as it is played
        said = words.event(event)
        if said:
            yield f"{event.n:>6}  {turn_said(event.turn):<8} {said}"
    for seen in game.judged:
        yield f"judge, after event {seen.record.at_event - 1}: {seen.record.describe(words.players)}"
    if game.backup_pending is not None:  # no result yet: the position at the judge's cut, marked as such
        yield backup_pending_note(game.backup_pending)
        return
    c, (winner, reason) = game.close, game.result
    ended = words.ending(winner, reason)
    yield f"Result: {ended}, after {c.turns} turns, {c.events} events and {c.decisions} decisions"
