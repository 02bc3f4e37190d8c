"""No internal token reaches a person: many bot games of both rulesets, every event and every option as each seat
and a spectator are told it (``engine.seats.SeatStream``, the protocol's texts), and whole logs as ``annals show``
prints them (``engine.words.story``), scanned for field names, Python values, sentinels, raw zone names, card ids
and positional indices."""

from __future__ import annotations

import re
from typing import Any

import pytest

from annals.engine.botgames import bots_for
from annals.engine.registry import get_ruleset
from annals.engine.runner import Game
from annals.engine.seats import SeatStream
from annals.engine.simulate import make_header
from annals.engine.words.story import render_story
from annals.schemas.header import LogClose
from annals.schemas.logfile import GameLog

FORBIDDEN = [
    (re.compile(r"\b(True|False|None)\b"), "a Python value"),
    (re.compile(r"(?<![\w+])-1\b"), "the sentinel -1"),
    (re.compile(r"\b[a-z]+_[a-z_]+\b"), "a field or identifier name"),
    (re.compile(r"#\d"), "an instance number"),
    (re.compile(r"\b(lane|site|route):"), "a raw zone name"),
    (re.compile(r"\blane \d|\bloc\b|\b(card|ability|index|option) \d"), "a positional index"),
    (re.compile(r"[{}\[\]=]"), "a record's punctuation"),
]
CAPITALS = re.compile(r"\b(EXTERIOR|INTERIOR|SPACE)\b")


def offences(text: str, card_ids: frozenset[str]) -> list[str]:
    found = [f"{why}: {m.group(0)!r}" for pattern, why in FORBIDDEN for m in [pattern.search(text)] if m]
    found += [f"a card id: {w!r}" for w in re.findall(r"\b[a-z]+(?:-[a-z0-9]+)+\b", text) if w in card_ids]
    return found


def _games(ruleset_name: str, count: int) -> list[tuple[Any, list[str]]]:
    """Play ``count`` games; every text a seat or a spectator is sent, and the log as annals show prints it."""
    ruleset = get_ruleset(ruleset_name)
    decks = sorted(ruleset.decks())
    out = []
    for seed in range(count):
        pair = [decks[seed % len(decks)], decks[(seed * 5 + 1) % len(decks)]]
        header = make_header(ruleset, seed + 11, pair, ["heuristic", "random"], max_turns=ruleset.default_max_turns)
        game = Game(ruleset, header, bots_for(ruleset, header))
        streams = [SeatStream(ruleset, game.header, seat) for seat in (0, 1, -1)]
        texts: list[str] = []
        s = game.state
        while not s.over and not (header.max_turns and s.turn > header.max_turns):
            point = ruleset.pending(s)
            if point is not None:
                decide = streams[point.player].decide(0, point, [0, 0])
                texts += [decide.question, *(o.text for o in decide.options)]
            before = len(game.events)
            game.step()
            for event in game.events[before:]:
                texts += [stream.event(event).text for stream in streams]
        texts += [stream.game_over(s.winner, s.end_reason or "turn_cap", 0, 0).text for stream in streams]
        close = LogClose(s.winner, s.end_reason or "turn_cap", s.n, game.decision_count, s.turn)
        log = GameLog(game.header, game.events, game.decisions, close, "")
        texts += list(render_story(log))
        out.append((seed, texts))
    return out


@pytest.mark.parametrize("ruleset_name", ["miras9", "morana"])
def test_no_internal_token_reaches_a_person(ruleset_name: str) -> None:
    card_ids = frozenset(get_ruleset(ruleset_name).cards())
    bad: list[str] = []
    for seed, texts in _games(ruleset_name, 8):
        for text in texts[1:]:  # the story's first line names the game by its id
            bad += [f"game {seed}: {why} in {text!r}" for why in offences(text, card_ids)]
            if CAPITALS.search(text):  # a sentence names a lane as the rules do [M9-025], not as a heading
                bad.append(f"game {seed}: a lane in the board's capitals in {text!r}")
    assert not bad, "\n".join(bad[:20])


def test_the_scan_catches_what_it_looks_for() -> None:
    card_ids = frozenset({"char-veteran"})
    for text in [
        "Mulligan: take False",
        "Play Card: card Rally (#1021), loc -1",
        "Slava Gained: holder 1, by -1",
        "p0 plays char-veteran",
        "to lane:0:exterior",
        "Pay Point: source used, card 0",
    ]:
        assert offences(text, card_ids), text
    assert not offences("Play Rally in random-1's Exterior lane", card_ids)


def test_no_op_changes_are_said_as_nothing() -> None:
    """A MORANA Power change of 0 with nothing prevented is left out of the words (the Dusk's noise)."""
    from annals.engine.words import Words
    from annals.schemas.morana import PowerChanged

    words = Words("morana", lambda card: "Bannik", ["Ann", "Bob"])
    assert words.event(PowerChanged(5, 2, "dusk", 0, "power", 1003, 3, 0, "boost")) is None
    warded = words.event(PowerChanged(5, 2, "dusk", 0, "power", 1003, 3, 0, "damage", 1004, 2))
    assert "Ward prevents 2" in (warded or "")


def test_annals_show_says_the_log_in_sentences_and_keeps_the_records_behind_a_format(tmp_path: Any) -> None:
    from typer.testing import CliRunner

    from annals.cli.main import app

    runner = CliRunner()
    made = runner.invoke(app, ["simulate", "morana", "--games", "1", "--out", str(tmp_path)])
    assert made.exit_code == 0, made.output
    log = str(next(tmp_path.glob("*.log")))
    words = runner.invoke(app, ["show", log]).output
    records = runner.invoke(app, ["show", log, "--format", "records"]).output
    assert "commits" in words and "Committed" not in words and words.splitlines()[-1].startswith("Result: ")
    assert "Committed card=" in records


@pytest.mark.parametrize(
    ("ruleset", "reason", "said"),
    [
        ("miras9", "battle_damage", "Battle Damage"),  # [M9-024] Battle Damage that cannot be paid
        ("miras9", "survival_clock", "the survival clock"),  # [M9-023]
        ("morana", "slava_13", "13 Slava"),  # [MOR-05] the first to 13 Slava wins at once
        ("morana", "most_slava", "the most Slava"),  # [MOR-05] after Turn 8: the most Slava,
        ("morana", "most_sites", "the most Sites won"),  # then the most Sites controlled,
        ("morana", "most_power", "the most Power on the board"),  # then the most total Power
        ("morana", "draw", "level on Slava, Sites and Power"),
    ],
)
def test_every_way_a_game_ends_is_said_in_words(ruleset: str, reason: str, said: str) -> None:
    """The end of a game reads the same in the event's sentence, the table's game over and the board drawn for the
    viewer and the web client (which said ``slava 13`` and ``most sites``)."""
    from annals.engine.words import Words
    from annals.queries.pictures.svgkit import ended
    from annals.schemas import miras9, morana

    words = Words(ruleset, lambda card: "Bannik", ["Ann", "Bob"])
    winner = -1 if reason == "draw" else 1
    if ruleset == "miras9":
        event = words.event(miras9.GameOver(9, 20, "attune", -1, winner, reason))
    else:
        event = words.event(morana.GameEnded(9, 8, "end", -1, winner, reason, [9, 9], [1, 1], [4, 4]))
    assert event is not None and said in event and not offences(event, frozenset())
    assert said in words.ending(winner, reason) and ended(reason) == said


@pytest.mark.parametrize(
    ("reason", "winner", "said"),
    [
        ("slava_13", 1, "Game over: Bob reaches 13 Slava and wins (Slava 9 to 13)"),
        ("most_slava", 0, "Game over: Ann wins with the most Slava after turn 8 (Slava 10 to 9)"),
        ("most_sites", 1,
         "Game over: Slava is level after turn 8 (Slava 9 to 9); Bob wins with the most Sites won (1 to 2)"),
        ("most_power", 1,
         "Game over: Slava and Sites are level after turn 8; Bob wins with the most Power on the board (5 to 7)"),
        ("draw", -1, "Game over: a draw after turn 8: level on Slava, Sites and Power (Slava 9 to 9)"),
    ],
)  # fmt: skip
def test_morana_s_end_reads_as_mor05_decides_it(reason: str, winner: int, said: str) -> None:
    """[MOR-05] The first to 13 Slava wins at once, and after the last turn the most Slava, then the most Sites, then
    the most Power: the line says which (it read ``Bob wins with 13 Slava``, as if 13 Slava were a card played)."""
    from annals.engine.words import Words
    from annals.schemas import morana

    slava = {"slava_13": [9, 13], "most_slava": [10, 9]}.get(reason, [9, 9])
    sites = [1, 2] if reason == "most_sites" else [1, 1]
    event = morana.GameEnded(9, 8, "end", -1, winner, reason, slava, sites, [5, 7])
    assert Words("morana", lambda card: "Bannik", ["Ann", "Bob"]).event(event) == said


def test_a_change_to_a_printed_number_and_a_card_s_own_power_read_as_words() -> None:
    """A Miras 9 ATK change undone reads as the printed number again (it read ``change in all: none``); a MORANA
    card whose own Bloom grows it is not said to grow by itself (``Alkonost gains 1 Power by Alkonost``), and another
    card's damage or boost says whose it is (it read ``Alkonost loses 1 Power by Bannik from damage``)."""
    from annals.engine.words import Words
    from annals.schemas import miras9, morana

    m9 = Words("miras9", lambda card: "Interceptor", ["Ann", "Bob"])
    back = m9.event(miras9.CounterChanged(5, 10, "attune", 1, "atk_mod", 1003, 0, -1, "turn_end"))
    assert back == "Interceptor loses 1 ATK (back to its printed ATK)"
    more = m9.event(miras9.CounterChanged(5, 10, "action", 0, "atk_mod", 1003, 2, 2, "effect"))
    assert more == "Interceptor gets 2 more ATK (+2 ATK in all)"
    mor = Words("morana", lambda card: {1003: "Alkonost", 1004: "Bannik"}[card], ["Ann", "Bob"])
    bloom = mor.event(morana.PowerChanged(5, 2, "dusk", 0, "power", 1003, 4, 1, "bloom", 1003))
    assert bloom == "Alkonost gains 1 Power from Bloom (4 now)"
    hit = mor.event(morana.PowerChanged(5, 2, "dusk", 0, "power", 1003, 3, -1, "damage", 1004))
    assert hit == "Alkonost loses 1 Power: damage from Bannik (3 now)"
    boost = mor.event(morana.PowerChanged(5, 2, "dusk", 0, "power", 1003, 5, 2, "boost", 1004))
    assert boost == "Alkonost gains 2 Power: a boost from Bannik (5 now)"


def test_equipment_played_on_its_host_names_the_host_once() -> None:
    """[M9-041] Equipment attaches to a host: ``Bo plays Plate Armour on Shield Guardian`` (it read
    ``... on Shield Guardian targeting Shield Guardian``); a Generate option says what it makes."""
    from annals.engine.words import Words
    from annals.schemas import miras9

    names = {2010: "Plate Armour", 2003: "Shield Guardian", 2004: "Stalwart"}
    words = Words("miras9", lambda card: names[card], ["Ann", "Bo"])
    played = words.event(miras9.CardPlayed(5, 13, "action", 1, 2010, "eq-plate", 2003, 2003))
    assert played == "Bo plays Plate Armour on Shield Guardian"
    aimed = words.event(miras9.CardPlayed(5, 13, "action", 1, 2010, "eq-plate", 2004, 2003))
    assert aimed == "Bo plays Plate Armour on Shield Guardian targeting Stalwart"
    assert words.option(miras9.Generate(1)) == "Generate 1 resource"
    assert words.option(miras9.Generate(0)) == "Generate 0 resources"


def test_the_flip_agrees_with_how_many_cards_turn_face_up() -> None:
    """[MOR-16] Every face-down card is revealed at once: one card turns, two turn, and a Commit of nothing is said
    as such (it read "Flip: Candle for the Dead turn face up" and "Flip: nothing was committed turn face up")."""
    from annals.engine.words import Words
    from annals.schemas import morana

    words = Words("morana", lambda card: {1000: "Bannik", 2000: "Mavka"}.get(card, "?"), ["Ann", "Bob"])

    def flip(cards: list[int]) -> str | None:
        return words.event(morana.Flipped(5, 2, "dusk", -1, cards, [1] * len(cards), [], []))

    assert flip([1000]) == "Flip: Bannik turns face up"
    assert flip([1000, 2000]) == "Flip: Bannik and Mavka turn face up"
    assert flip([]) == "Flip: nothing was committed"


@pytest.mark.parametrize(
    ("ruleset", "reason", "winner", "said"),
    [
        ("morana", "slava_13", 1, "Bob reaches 13 Slava and wins"),
        ("morana", "most_slava", 0, "Ann wins with the most Slava"),
        ("miras9", "battle_damage", 1, "Bob wins by Battle Damage"),
        ("miras9", "survival_clock", 0, "Ann wins by the survival clock"),
    ],
)
def test_words_ending_reads_as_the_end_line_does(ruleset: str, reason: str, winner: int, said: str) -> None:
    """[MOR-05] ``Words.ending`` (the table's game over, a story's result, ``annals play``'s last line) says the end
    as the game's own end line does; it read ``Bob wins: 13 Slava`` beside ``Bob reaches 13 Slava and wins``."""
    from annals.engine.words import Words
    from annals.schemas import miras9, morana

    words = Words(ruleset, lambda card: "Bannik", ["Ann", "Bob"])
    if ruleset == "miras9":
        line = words.event(miras9.GameOver(9, 20, "attune", -1, winner, reason))
    else:
        line = words.event(morana.GameEnded(9, 8, "end", -1, winner, reason, [13, 9], [1, 1], [4, 4]))
    assert words.ending(winner, reason) == said
    assert line is not None and line.startswith(f"Game over: {said}")
