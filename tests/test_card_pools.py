"""The card pool is a value: games with extra or changed cards, their logs embedding the definitions, and a fresh
process replaying and verifying such a log without the card file; an edited embedded card is named."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import msgspec
import pytest

from annals.engine.miras9.pool import DECKS, SHIPPED
from annals.engine.miras9.ruleset import RULESET as M9
from annals.engine.morana.cards import decks as morana_decks
from annals.engine.morana.cards import shipped_pool
from annals.engine.morana.ruleset import RULESET as MOR
from annals.engine.registry import load_cards
from annals.engine.replay import verify_log
from annals.engine.runner import play
from annals.engine.simulate import bots_for, header_for
from annals.schemas.carddefs import CardDefinition, convert, definition, extended_pool_hash
from annals.schemas.errors import CardDataError, InconsistentLogError
from annals.schemas.header import DeckList, PlayerInfo
from annals.schemas.logfile import read_log
from tests.relog import edit_payload, read_frames

GIANT = """
[[cards]]
id = "t-giant"
name = "Test Giant"
type = "unit"
traits = ["character"]
cost = 2
atk = 7
grit = 4
echo = 1
"""

WISP = """
[[cards]]
id = "t-wisp"
name = "Test Wisp"
kind = "spirit"
cost = 1
power = 6
reborn_cost = 1
omen = [{ op = "slava", amount = 2 }]
reborn = [{ op = "slava", amount = 1 }]
"""


def _m9_game(tmp_path: Path, text: str = GIANT) -> Path:
    card_file = tmp_path / "giant.toml"
    card_file.write_text(text)
    ruleset = M9.with_cards(load_cards("miras9", card_file))
    card_file.unlink()  # the log must stand on its own
    base = DECKS["vanguard"]
    cards = ["t-giant" if c == "char-recruit" else c for c in base.cards]
    deck = DeckList("giants", cards, base.leader)
    players = [PlayerInfo("a", "heuristic"), PlayerInfo("b", "heuristic")]
    header = header_for(ruleset, 3, players, [deck, DECKS["bastion"]], max_turns=200)
    out = tmp_path / "giant.log"
    play(ruleset, header, bots_for(ruleset, header), out)
    return out


def test_a_game_with_an_extra_card_embeds_it_and_verifies_in_a_fresh_process(tmp_path: Path) -> None:
    log = _m9_game(tmp_path)
    header = read_log(log).header
    assert [d.id for d in header.cards] == ["t-giant"]
    assert header.card_pool_hash == extended_pool_hash(SHIPPED.digest, header.cards) != SHIPPED.digest
    state = M9.new_state(header)
    assert state.pool["t-giant"].atk == 7 and "t-giant" not in SHIPPED  # the game's pool, not the shipped one
    # a fresh interpreter that never saw the card file reads, replays and verifies it
    exe = Path(sys.executable).parent / "annals"
    done = subprocess.run([str(exe), "verify", str(log)], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert "re-run identically" in done.stdout
    shown = subprocess.run(
        [str(exe), "show", "--format", "records", str(log)], capture_output=True, text=True, check=False
    )
    assert "embedded" in shown.stdout and "t-giant" in shown.stdout


def test_an_edited_embedded_card_fails_verification_naming_the_card(tmp_path: Path) -> None:
    log = _m9_game(tmp_path)
    _, frames = read_frames(log)
    fields = msgspec.msgpack.decode(frames[0].payload)
    section, cid, table, digest = fields["cards"][0]
    fields["cards"][0] = [section, cid, table.replace('"atk":7', '"atk":9'), digest]
    edited = edit_payload(log, 0, fields, target=tmp_path / "edited.log", rederive_id=True)
    with pytest.raises(InconsistentLogError, match="t-giant"):
        verify_log(edited)
    # a forger who also fixes the digest (and the id) is caught by the pool hash, naming the embedded cards
    again = definition("cards", {**msgspec.json.decode(table), "atk": 9})
    fields["cards"][0] = [again.section, again.id, again.table, again.digest]
    forged = edit_payload(log, 0, fields, target=tmp_path / "forged.log", rederive_id=True)
    with pytest.raises(InconsistentLogError, match="t-giant"):
        verify_log(forged)


def test_changed_shipped_card_changes_the_hash_and_the_shipped_hash_is_the_files(tmp_path: Path) -> None:
    assert M9.card_pool_hash() == SHIPPED.digest  # old logs name this hash: it is the data file's, as always
    errata = GIANT.replace("t-giant", "char-raider").replace("Test Giant", "Raider").replace("atk = 7", "atk = 4")
    raider = M9.with_cards(load_cards_text("miras9", errata, tmp_path))
    assert raider.pool["char-raider"].atk == 4 and SHIPPED["char-raider"].atk == 3
    assert raider.card_pool_hash() != M9.card_pool_hash()
    assert MOR.card_pool_hash() == shipped_pool().digest


def load_cards_text(ruleset: str, text: str, folder: Path) -> list[CardDefinition]:
    path = folder / "cards.toml"
    path.write_text(text)
    return list(load_cards(ruleset, path))


def test_a_bad_card_definition_names_the_card_and_field(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(GIANT.replace("atk = 7", 'atk = "seven"'))
    with pytest.raises(CardDataError, match=r"t-giant.*atk"):
        load_cards("miras9", bad)
    bad.write_text(WISP.replace("power = 6", "power = 0"))
    with pytest.raises(CardDataError, match=r"t-wisp.*power"):
        load_cards("morana", bad)
    bad.write_text("[[units]]\nid = 'x'\n")
    with pytest.raises(CardDataError, match="units"):
        load_cards("miras9", bad)


def test_a_card_number_past_any_card_is_refused_by_name_from_a_file_or_a_log(tmp_path: Path) -> None:
    """An attack of 2**63 - 1 ran the engine out of memory (a MemoryError traceback) in the first battle."""
    bad = tmp_path / "bad.toml"
    bad.write_text(GIANT.replace("atk = 7", f"atk = {2**63 - 1}"))
    with pytest.raises(CardDataError, match=r"t-giant'?: atk: 9223372036854775807 is outside -999 \.\. 999"):
        load_cards("miras9", bad)
    bad.write_text(WISP.replace("power = 6", "power = 1000"))
    with pytest.raises(CardDataError, match=r"t-wisp'?: power: 1000 is outside"):
        load_cards("morana", bad)
    embedded = definition("cards", {"id": "t-giant", "type": "unit", "atk": -1000})  # as a log carries it
    with pytest.raises(CardDataError, match=r"t-giant'?: atk: -1000 is outside"):
        convert(embedded, dict)


def test_a_morana_game_with_an_extra_spirit_verifies(tmp_path: Path) -> None:
    card_file = tmp_path / "wisp.toml"
    card_file.write_text(WISP)
    ruleset = MOR.with_cards(load_cards("morana", card_file))
    card_file.unlink()
    base = morana_decks()["starter-sun"]
    cards = ["t-wisp" if i < 2 else c for i, c in enumerate(base.cards)]
    deck = DeckList("wisps", cards, base.leader)
    header = header_for(ruleset, 5, [PlayerInfo("a", "heuristic"), PlayerInfo("b", "random")], [deck, base])
    out = tmp_path / "wisp.log"
    play(ruleset, header, bots_for(ruleset, header), out)
    log = read_log(out)
    assert [d.id for d in log.header.cards] == ["t-wisp"]
    assert verify_log(out).events == len(log.events)
    state = MOR.new_state(log.header)
    assert state.pool.cards["t-wisp"].power == 6 and "t-wisp" not in shipped_pool().cards
