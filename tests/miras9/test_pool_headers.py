"""A header naming the wrong card pool is refused with a named error (ruling R-M9-45 re-runs an earlier pool's logs
by that pool's edition, so a wrong hash would re-run a game by the wrong rules [M9-031]).

Real logs, written by the engine, hand-edited through ``LogReader``/``LogWriter`` (the game id re-derived, so only
the pool check can refuse them): an edition-1 header over decks or events with cards edition 1 did not have; over
events and decisions of movement [M9-058] and Blackwake [M9-088]; an unknown pool; and the reverse, today's pool
over an edition-1 game, whose Move phase [M9-037] never asked anything. Each through ``verify`` (library and CLI),
``ingest --replay`` and ``annals replay``.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import msgspec
import pytest

import annals
from annals.engine.errata import replay_logs
from annals.engine.miras9.cards import SPIRIT_SUFFIX, pool_hash
from annals.engine.miras9.editions import ADDED_TAGS, EARLIER_FILES, earlier_cards
from annals.engine.miras9.pool import EARLIER_POOLS, SHIPPED
from annals.engine.registry import get_ruleset, ruleset_for
from annals.engine.replay import rerun, verify_log
from annals.engine.runner import finalize_header, play
from annals.engine.simulate import bots_for, header_for
from annals.ingest.loader import ingest
from annals.schemas import miras9 as ev
from annals.schemas.carddefs import definition, extended_pool_hash
from annals.schemas.errors import (
    CardNotInPoolError,
    CardPoolError,
    EditionMismatchError,
    InconsistentLogError,
    UnknownCardPoolError,
)
from annals.schemas.header import DeckList, PlayerInfo, game_id_of
from annals.schemas.logfile import LogReader, LogWriter, read_log
from annals.schemas.records import instance_id

OLD = "cdbf1905cc74e766"  # the first shipped pool: edition 1
EDITION_1_LOG = Path(__file__).resolve().parents[1] / "fixtures" / "miras9-edition1.log"
# the kinds issue 14 added: movement, crews, Spot, Blackwake, extra attacks, take back, Escape Route destinations
NEW_KINDS = {"UnitMoved", "Arrived", "Embarked", "Disembarked", "Spotted", "BlackwakeChecked", "BlackwakeResolved",
             "ExtraAttackGranted", "ExtraAttackTaken", "SelectionUndone", "DestinationChosen"}  # fmt: skip


def old_ids() -> frozenset[str]:
    ids = earlier_cards(OLD)
    assert ids is not None
    return ids


def edited(source: Path, out: Path, *, events: Any = None, **fields: Any) -> Path:
    """A copy of ``source`` with header fields replaced (the game id re-derived) and, with ``events``, each event
    passed through it; frames and closing record as they were."""
    with LogReader(source) as reader:
        frames = [(b.events, b.decisions) for b in reader.batches()]
        header, close = reader.header, reader.close_record
    assert close is not None
    header = msgspec.structs.replace(header, **fields)
    header = msgspec.structs.replace(header, game_id=game_id_of(header))
    writer = LogWriter(out, header)
    for batch, decisions in frames:
        writer.write_batch([events(e) for e in batch] if events else batch, decisions)
    writer.close(close)
    return out


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Real edition-2 games: windrunner (movement and crews cards) against vanguard; and old decks only (every
    card in edition 1), whose games still move and check Blackwake."""
    folder = tmp_path_factory.mktemp("games")
    out = {"windrunner": annals.simulate("miras9", 1, decks=["windrunner", "vanguard"], out=folder / "w", seed=3)[0]}
    for seed in range(1, 9):
        path = annals.simulate("miras9", 1, decks=["vanguard", "bastion"], out=folder / f"o{seed}", seed=seed)[0]
        kinds = [type(e).__name__ for e in read_log(path).events]
        first = next((k for k in kinds if k in NEW_KINDS), "")
        if first in ("UnitMoved", "BlackwakeChecked") and first not in out:
            out[first] = path
    assert {"UnitMoved", "BlackwakeChecked"} <= set(out), sorted(out)
    return out


def refused(path: Path, kind: type[CardPoolError]) -> CardPoolError:
    """``verify`` refuses ``path`` with ``kind`` (and the re-run reports it, not a later difference)."""
    with pytest.raises(kind) as caught:
        verify_log(path)
    report = rerun(read_log(path))
    assert not report.ok and report.pool and report.events_checked == 0
    assert report.field == caught.value.field
    return caught.value


def test_the_edition_1_pool_file_is_that_pool_R_M9_45() -> None:
    """The kept pool file hashes to its pool's name, and its cards are fewer than today's (today's adds cards)."""
    for digest, path in EARLIER_FILES.items():
        assert pool_hash(path) == digest and digest in EARLIER_POOLS
    assert set(EARLIER_POOLS) == set(EARLIER_FILES)
    ids = old_ids()
    assert earlier_cards(SHIPPED.digest) is None
    assert "char-recruit" in ids and "veh-hauler" not in ids and "char-salvager" not in ids
    assert ids < {cid for cid in SHIPPED}


def test_an_edition_1_header_over_a_deck_of_later_cards_is_refused_M9_031(
    logs: dict[str, Path], tmp_path: Path
) -> None:
    """[M9-031] The windrunner game with its header made to name the first pool: refused at the header, naming
    the first of its deck's cards that pool did not have, and the hash that would fit."""
    bad = edited(logs["windrunner"], tmp_path / "claims-edition-1.log", card_pool_hash=OLD)
    header = read_log(bad).header
    ids = old_ids()
    p, deck = next((p, d) for p, d in enumerate(header.decks) if d.name == "windrunner")
    first = next(c for c in (deck.leader, *deck.cards) if c not in ids)
    error = refused(bad, CardNotInPoolError)
    assert error.field == "header: decks" and error.frame == 0
    assert str(error).startswith(f"{bad}: frame 0 at byte ")
    assert (f"player {p}'s deck 'windrunner' holds {first!r}, which is not in the card pool {OLD!r} (edition 1"
            in str(error))  # fmt: skip
    assert f"the header's card_pool_hash must be {SHIPPED.digest!r}" in str(error)


def test_an_edition_1_header_over_events_of_later_cards_is_refused_M9_031(
    logs: dict[str, Path], tmp_path: Path
) -> None:
    """[M9-031] The same header, its decks also edited to edition-1 cards: the events still name the cards played
    (the leader placed first), and the first such event is named."""
    source = read_log(logs["windrunner"])
    ids = old_ids()
    decks = [DeckList(d.name, [c if c in ids else "char-recruit" for c in d.cards],
                      d.leader if d.leader in ids else "planet-kessra") for d in source.header.decks]  # fmt: skip
    bad = edited(logs["windrunner"], tmp_path / "old-decks.log", card_pool_hash=OLD, decks=decks)
    first = next(e for e in source.events if getattr(e, "card_id", "") not in ids | {""} and hasattr(e, "card_id"))
    error = refused(bad, CardNotInPoolError)
    assert error.field == f"event {first.n}: card_id"
    assert f"{type(first).__name__} names {first.card_id!r}, which is not in the card pool {OLD!r}" in str(error)


@pytest.mark.parametrize("kind", ["UnitMoved", "BlackwakeChecked"])
def test_an_edition_1_header_over_movement_or_blackwake_is_refused_M9_058_M9_088(
    logs: dict[str, Path], tmp_path: Path, kind: str
) -> None:
    """[M9-058] [M9-088] A game of old decks only (every card in edition 1) with the first pool's hash: its first
    move, or its first Blackwake check, is an event edition 1 never made."""
    source = read_log(logs[kind])
    bad = edited(logs[kind], tmp_path / f"{kind}.log", card_pool_hash=OLD)
    first = next(e for e in source.events if type(e).__name__ in NEW_KINDS)
    assert type(first).__name__ == kind
    error = refused(bad, EditionMismatchError)
    assert error.field == f"event {first.n}: kind"
    assert f"{kind} is an event the rules of the card pool {OLD!r} (edition 1: before movement" in str(error)
    assert error.frame == read_log(bad).frame_of_event(first.n)[0]


def test_an_edition_1_header_over_a_move_decision_is_refused_M9_037(logs: dict[str, Path], tmp_path: Path) -> None:
    """[M9-037] With every later event taken out, the Move-phase decisions alone give the header away."""
    source = logs["UnitMoved"]
    bad = edited(source, tmp_path / "moves.log", card_pool_hash=OLD, events=_renamed_kinds)
    first = next(d for d in read_log(source).decisions if d.point == "move")
    error = refused(bad, EditionMismatchError)
    assert error.field == f"decision {first.n}: point"
    assert f"decision {first.n} is asked at point 'move', which the rules of the card pool {OLD!r}" in str(error)


def _renamed_kinds(e: Any) -> Any:
    """An event of a kind issue 14 added, as a plain phase event (the check reads kinds, not the game)."""
    from annals.schemas import miras9 as ev

    if type(e).__name__ in NEW_KINDS:
        return ev.PhaseBegan(e.n, e.turn, e.step, e.player, e.step)
    return e


def test_an_unknown_pool_is_refused(logs: dict[str, Path], tmp_path: Path) -> None:
    """A hash neither today's nor an earlier pool's: named, with both the engine knows."""
    bad = edited(logs["windrunner"], tmp_path / "unknown.log", card_pool_hash="0123456789abcdef")
    error = refused(bad, UnknownCardPoolError)
    assert error.field == "header: card_pool_hash"
    assert f"card pool '0123456789abcdef' is not one this engine re-runs: its own is {SHIPPED.digest!r}, " \
           f"earlier ones {OLD!r}" in str(error)  # fmt: skip


def test_todays_pool_over_an_edition_1_game_is_refused_M9_037(tmp_path: Path) -> None:
    """[M9-037] The reverse: the committed edition-1 log with its header made to name today's pool. Its first Move
    phase goes straight on to Attune, which today's rules never do without a decision."""
    source = read_log(EDITION_1_LOG)
    bad = edited(EDITION_1_LOG, tmp_path / "claims-today.log", card_pool_hash=SHIPPED.digest)
    i = next(i for i, e in enumerate(source.events) if type(e).__name__ == "PhaseBegan" and e.phase == "move")
    error = refused(bad, EditionMismatchError)
    assert error.field == f"event {i + 1}: kind"
    assert f"the Move phase of turn {source.events[i].turn} passes with no Move-phase decision" in str(error)
    assert f"its header's card_pool_hash must be that pool's ({OLD!r} (edition 1))" in str(error)
    verify_log(EDITION_1_LOG)  # the log as written still verifies


def test_the_cli_ingest_and_errata_replay_refuse_it(logs: dict[str, Path], tmp_path: Path) -> None:
    """``annals verify`` exits 1 with the one line; ``ingest --replay`` quarantines the log with it and stores
    nothing of it; ``annals replay`` refuses it before re-running anything."""
    bad = edited(logs["windrunner"], tmp_path / "claims-edition-1.log", card_pool_hash=OLD)
    done = subprocess.run([str(Path(sys.executable).with_name("annals")), "verify", str(bad)],
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    assert done.returncode == 1 and done.stdout == "", done
    (line,) = done.stderr.splitlines()
    assert line.startswith(f"error: {bad}: frame 0 at byte ") and "header: decks: player " in line
    report = ingest([str(bad), str(logs["UnitMoved"])], tmp_path / "annals.duckdb", workers=1, replay=True)
    assert report.games_added == 1
    (problem,) = report.quarantined
    assert "CardNotInPoolError" in problem and "is not in the card pool" in problem, problem
    with pytest.raises(CardNotInPoolError):
        replay_logs([bad], [])


def test_the_errors_are_inconsistent_logs() -> None:
    """Each is an ``InconsistentLogError`` (every frame intact, the records contradict the header), so whatever
    handles a damaged log handles these."""
    for kind in (UnknownCardPoolError, CardNotInPoolError, EditionMismatchError):
        assert issubclass(kind, CardPoolError) and issubclass(kind, InconsistentLogError)


def test_an_edition_2_header_over_a_ship_site_deck_is_refused_M9_031_M9_030(tmp_path: Path) -> None:
    """[M9-031] [M9-030] A corsairs game (a Ship-Site deck, edition 3) with its header made to name the pool
    before Ship-Sites: refused at the header, naming a card that pool did not have; the kept file of that pool
    has no Ship-Site card of today's pool."""
    before = "ff31c769e9757719"
    assert EARLIER_POOLS[before] == 2
    ids = earlier_cards(before)
    assert ids is not None and old_ids() < ids
    game = annals.simulate("miras9", 1, decks=["corsairs", "vanguard"], out=tmp_path / "g", seed=5)[0]
    assert any(type(e).__name__ == "ShipSiteMoved" for e in read_log(game).events)  # the deck's rules happened
    bad = edited(game, tmp_path / "claims-edition-2.log", card_pool_hash=before)
    error = refused(bad, CardNotInPoolError)
    assert error.field == "header: decks"
    named = str(error).split(" holds ", 1)[1].split("'")[1]
    assert named not in ids and named in {cid for cid in SHIPPED}
    assert f"card pool {before!r} (edition 2)" in str(error)


def test_a_header_of_the_pool_before_the_ship_site_text_cards_is_refused_over_them_R_M9_62(tmp_path: Path) -> None:
    """Ruling R-M9-62: the pool before Boarding Hulk, Salvage Workship and Echo Tender is an earlier pool of
    today's edition 3, its kept file today's cards but those three and Halden (the shipwrights deck's Planet). A
    shipwrights game (all three in its deck) with its header made to name that pool is refused at the header,
    naming one of them and today's hash [M9-031]; the committed log of that pool made to name today's pool still
    verifies: same rules, and every card of its game today's card unchanged, so no check could tell the two apart,
    and none need."""
    before = "0b0fc7bf2d3f4083"
    new = {"ss-boarder", "ss-workship", "ss-tender"}
    assert EARLIER_POOLS[before] == 3
    ids, edition_2 = earlier_cards(before), earlier_cards("ff31c769e9757719")
    assert ids is not None and edition_2 is not None and edition_2 < ids
    assert ids == {cid for cid in SHIPPED if not cid.endswith(SPIRIT_SUFFIX)} - new - {"planet-halden"}
    game = annals.simulate("miras9", 1, decks=["shipwrights", "vanguard"], out=tmp_path / "g", seed=5)[0]
    bad = edited(game, tmp_path / "claims-before.log", card_pool_hash=before)
    error = refused(bad, CardNotInPoolError)
    assert error.field == "header: decks"
    named = str(error).split(" holds ", 1)[1].split("'")[1]
    assert named in new | {"planet-halden"}  # the leader is checked first
    assert f"card pool {before!r} (edition 3)" in str(error)
    assert f"the header's card_pool_hash must be {SHIPPED.digest!r}" in str(error)
    old = Path(__file__).resolve().parents[1] / "fixtures" / "miras9-pool-0b0fc7bf.log"
    today = edited(old, tmp_path / "stamped-today.log", card_pool_hash=SHIPPED.digest)
    assert verify_log(today).events == len(read_log(old).events)


def test_an_edition_2_header_over_a_ship_site_put_into_play_is_refused_M9_030_M9_020(tmp_path: Path) -> None:
    """[M9-030] [M9-020] The reverse of the errata check (``editions._check_ship_sites``, rulings R-M9-56,
    R-M9-61): Frontier Outpost made a Ship-Site of the Interior only (so it never has a move on offer and no kind
    edition 3 added is ever logged or offered), started by both players. Played by today's rules it goes into play
    at a board position; that log, its header made to name the cards' hash over the edition-2 pool, is refused at
    that event, naming today's hash. The same game under its edition-2 header puts it in a Site slot and
    verifies."""
    before = "ff31c769e9757719"
    hold = {"id": "site-outpost", "name": "Frontier Outpost", "type": "ship_site", "gen": 1, "atk": 1, "grit": 3,
            "lanes": [1]}  # fmt: skip
    cards = [definition("cards", hold)]
    today = get_ruleset("miras9").with_cards(cards)  # type: ignore[attr-defined]
    vanguard = today.decks()["vanguard"]  # every card in edition 2's pool; Frontier Outpost its only Site
    deck = DeckList("outposts", [c for c in vanguard.cards if c not in ("site-foundry", "site-mine")], vanguard.leader)
    players = [PlayerInfo("h", "heuristic"), PlayerInfo("r", "random")]
    header = header_for(today, 7, players, [deck, deck], max_turns=4)
    play(today, header, bots_for(today, header), tmp_path / "today.log")
    log = read_log(tmp_path / "today.log")
    assert verify_log(tmp_path / "today.log").events == len(log.events)
    ids = {instance_id(p, i) for p in (0, 1) for i, cid in enumerate(deck.cards) if cid == "site-outpost"}
    into_play = [e for e in log.events if type(e) is ev.CardMoved and e.card in ids and e.dst.startswith("lane:")]
    assert into_play and into_play[0].dst == "lane:0:interior"
    later_events = [e for e in log.events if type(e).__struct_config__.tag >= ADDED_TAGS[3][0]]
    later_options = [o for d in log.decisions for o in d.offered if type(o).__struct_config__.tag >= ADDED_TAGS[3][1]]
    assert not later_events and not later_options  # only the Ship-Site check can tell the editions apart
    claimed = extended_pool_hash(before, cards)
    bad = edited(tmp_path / "today.log", tmp_path / "claims-edition-2.log", card_pool_hash=claimed)
    error = refused(bad, EditionMismatchError)
    assert error.field == f"event {into_play[0].n}: dst"
    assert "a Ship-Site goes into play at a board position (lane:0:interior), as only the rules of edition 3 put " \
           f"one, not those of card pool {claimed!r} (edition 2)" in str(error)  # fmt: skip
    assert f"its header's card_pool_hash must be {header.card_pool_hash!r}" in str(error)

    old = finalize_header(msgspec.structs.replace(header, card_pool_hash=claimed, game_id=""))
    played = ruleset_for(old)
    assert played.edition(old) == 2  # type: ignore[attr-defined]
    play(played, old, bots_for(played, old), tmp_path / "edition2.log")
    log2 = read_log(tmp_path / "edition2.log")
    slots = [e for e in log2.events if type(e) is ev.CardMoved and e.card in ids]
    assert slots and all(e.dst.startswith("site:") for e in slots[:2])
    assert verify_log(tmp_path / "edition2.log").events == len(log2.events)
