"""Card pools as players read them: ``annals card NAME`` and ``annals cards RULESET`` over ``queries.cards``."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from annals.cli.main import app
from annals.engine.miras9.cards import SPIRIT_SUFFIX, load_pool
from annals.engine.morana.cards import shipped_pool as morana_pool
from annals.queries.cards import AmbiguousCardError, UnknownCardError, find_card, pool, pool_frame

runner = CliRunner()


def test_every_miras9_card_reads_with_its_printed_identity_M9_008_M9_118() -> None:
    data = load_pool()
    cards = {c.id: c for c in pool("miras9")}
    assert set(cards) == {cid for cid in data if not cid.endswith(SPIRIT_SUFFIX)}  # Spirit faces ride on Planets
    for cid, info in cards.items():
        d = data[cid]
        assert (info.name, info.type.split(" ")[0].replace("-", "_")) == (d.name, d.type)
        if d.type == "unit":
            assert (info.stats["ATK"], info.stats["GRIT"], info.stats["ECHO"]) == (d.atk, d.grit, d.echo)
            assert info.cost == d.cost
        if d.text:
            assert info.text == d.text
        elif d.effects or d.statics or d.keywords:
            assert info.text, f"{cid} has rules but no text"


def test_a_planet_shows_its_threshold_and_its_spirit_M9_103_M9_104() -> None:
    kessra = find_card("Kessra", "miras9").card
    spirit = load_pool()["planet-kessra" + SPIRIT_SUFFIX]
    assert kessra.cost is None and kessra.stats == {"Threshold": 6, "ATK": spirit.atk, "GRIT": spirit.grit, "ECHO": 2}


def test_composed_text_for_cards_printed_without_it() -> None:
    assert find_card("ev-strike").card.text == "Choose an enemy Unit: wound it 2."
    assert find_card("eq-jetpack").card.text == "The equipped Unit gets +1 ATK and +1 GRIT."
    assert find_card("rx-shield").card.text.startswith("Reaction. Choose a friendly combatant")


def test_a_morana_spirit_shows_cost_power_and_both_bands_MOR_21_MOR_37() -> None:
    p = morana_pool()
    for info in pool("morana"):
        if info.type == "warden":
            w = p.wardens[info.id]
            assert info.cost is None and info.stats == {"Invocation": w.invocation_cost}  # [MOR-33]
            assert f"Invocation {w.invocation_cost}:" in info.text
            continue
        c = p.cards[info.id]
        assert info.cost == c.cost
        if c.kind == "spirit":
            assert info.stats == {"Power": c.power, "Reborn": c.reborn_cost}
            assert "Omen:" in info.text and f"Reborn {c.reborn_cost}:" in info.text
    assert len(pool("morana")) == len(p.cards) + len(p.wardens)


def test_a_script_card_prints_its_hook_rules_text() -> None:
    scripted = [c for c in morana_pool().cards.values() if any(e.op == "script" for e in c.reborn + c.omen)]
    assert scripted
    for c in scripted:
        text = find_card(c.id).card.text
        assert "<" not in text and "Power" in text


def test_find_by_id_name_any_case_and_part() -> None:
    assert find_card("EMBER SPRITE").card.id == "ember-sprite"
    assert find_card("ember-sprite").ruleset == "morana"
    assert find_card("planet-kes").card.name == "Kessra"


def test_misspelled_name_suggests_the_closest() -> None:
    with pytest.raises(UnknownCardError, match="did you mean Ember Sprite"):
        find_card("Ember Sprit3")


def test_a_name_in_both_pools_asks_for_the_ruleset() -> None:
    with pytest.raises(AmbiguousCardError, match=r"pass --ruleset \(miras9 or morana\)"):
        find_card("sh")
    with pytest.raises(AmbiguousCardError) as narrowed:
        find_card("sh", "morana")
    assert "--ruleset" not in str(narrowed.value) and "in morana" in str(narrowed.value)


def test_card_command_prints_text_and_stats() -> None:
    result = runner.invoke(app, ["card", "Ember Sprite"])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [
        "Ember Sprite  (morana card ember-sprite)",
        "spirit, cost 1",
        "Power 2  Reborn 1",
        "Omen: boost 1 self. Reborn 1: boost 1 self.",
    ]


def test_card_command_takes_the_ruleset_first_as_deck_does() -> None:
    result = runner.invoke(app, ["card", "miras9", "recruit"])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0] == "Recruit  (miras9 card char-recruit)"


def test_cards_command_lists_the_pool_as_csv_and_json() -> None:
    frame = pool_frame("miras9")
    as_csv = runner.invoke(app, ["cards", "miras9", "--format", "csv"])
    assert as_csv.exit_code == 0 and as_csv.output.endswith("\n") and not as_csv.output.endswith("\n\n")
    rows = list(csv.DictReader(io.StringIO(as_csv.output)))
    assert [r["id"] for r in rows] == frame["id"].to_list()
    assert rows[0].keys() == {"id", "name", "type", "cost", "stats", "text"}
    as_json = runner.invoke(app, ["cards", "morana", "-f", "json"])
    cards = json.loads(as_json.output)
    assert len(cards) == len(pool("morana")) and cards[0]["name"] == "Ember Sprite"
    table = runner.invoke(app, ["cards", "morana"])
    assert table.exit_code == 0 and "Ember Sprite" in table.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["card", "Ember Sprit3"], "did you mean Ember Sprite"),
        (["card", "sh"], "--ruleset"),
        (["cards", "chess"], "unknown ruleset 'chess'"),
        (["cards", "morana", "--format", "xml"], "unknown format 'xml'"),
        (["card", "miras9", ""], "the card name is empty"),  # it said "extra argument"
        (["card", " "], "the card name is empty"),  # it listed every card as a match
        (["card", "Ember", "Sprite"], 'quoted if it has spaces: annals card "Ember Sprite"'),
        (["card", "morana", "Recruit", "--ruleset", "miras9"], "give one ruleset"),
    ],
)
def test_wrong_arguments_exit_2_with_one_line(args: list[str], message: str) -> None:
    done = subprocess.run(
        [Path(sys.executable).with_name("annals"), *args], capture_output=True, text=True, check=False
    )
    assert done.returncode == 2, done
    assert done.stdout == "" and len(done.stderr.splitlines()) == 1 and message in done.stderr
    assert "Traceback" not in done.stderr


def test_a_board_names_its_cards_from_the_pool_it_was_played_with(tmp_path: Path) -> None:
    import msgspec

    import annals
    from annals.queries.pictures.board import board
    from annals.queries.positions.timeline import Timeline

    [log] = annals.simulate("miras9", 1, decks=["vanguard", "tempest"], out=tmp_path, seed=3)
    shown = annals.position(log, at="turn:4")
    labels = [label for sides in shown.zones.values() for labels in sides.values() for label in labels]
    ids = {label.rpartition("#")[0] for label in labels}
    assert ids and set(shown.names) == ids
    assert all(shown.names[i] == find_card(i, "miras9").card.name for i in ids)
    assert shown.name_of(labels[0]) == shown.names[labels[0].rpartition("#")[0]]
    other_pool = Timeline.from_file(log)
    other_pool.header = msgspec.structs.replace(other_pool.header, card_pool_hash="another-pool")
    unnamed = board(other_pool, other_pool.resolve("turn:4"))
    assert unnamed.names == {} and unnamed.zones == shown.zones and unnamed.name_of(labels[0]) in ids


def test_a_board_from_the_database_names_its_cards_too(tmp_path: Path) -> None:
    import annals
    from annals.ingest.schema import open_database
    from annals.queries.pictures.board import stored_board
    from annals.queries.positions.timeline import StoredGame

    [log] = annals.simulate("morana", 1, decks=["clash", "glory"], out=tmp_path / "logs")
    annals.ingest_logs([tmp_path / "logs"], tmp_path / "annals.duckdb")
    from_log = annals.position(log, at="turn:5")
    con = open_database(tmp_path / "annals.duckdb", read_only=True)
    try:
        game = StoredGame(con, from_log.game_id)
        from_db = stored_board(game, game.resolve("turn:5"), "turn:5")
    finally:
        con.close()
    assert from_db.zones == from_log.zones and from_db.names == from_log.names and from_db.names
