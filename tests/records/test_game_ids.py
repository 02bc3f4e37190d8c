"""Game ids: unique for games people play, reproducible for simulations, one derivation for verify and ingest;
and ``annals play`` names its players, takes deck list files, draws a fresh seed and never overwrites a log."""

from __future__ import annotations

import hashlib
import io
import re
from pathlib import Path

import msgspec
import pytest
from typer.testing import CliRunner

from annals.cli.main import app
from annals.clients.terminal import human_seat
from annals.engine.players import LogExistsError, play_live
from annals.engine.registry import get_ruleset
from annals.engine.simulate import make_header
from annals.ingest.loader import ingest
from annals.schemas.header import LogHeader, TournamentInfo, game_id_of
from annals.schemas.logfile import KIND_HEADER, LogWriter, read_log
from tests.helpers import toy_log
from tests.records.tampering import edit_frame

runner = CliRunner()
TOY = get_ruleset("toy")
FIXTURE = Path(__file__).parent.parent / "fixtures" / "toy-format1.log"
ANSWERS = "1\n" * 200  # the first option at every question: the toy game always offers it


def people_game(path: Path, seed: int | None = 7, names: tuple[str, str] = ("Ann", "Bob")) -> LogHeader:
    play_live("toy", ["pile", "pile"], ["human", "human"], seed, path, names=list(names),
              human=human_seat(io.StringIO(ANSWERS), io.StringIO()))  # fmt: skip
    return read_log(path).header


def test_two_games_between_people_with_the_same_decks_names_and_seed_get_different_ids(tmp_path: Path) -> None:
    a = people_game(tmp_path / "a.log")
    b = people_game(tmp_path / "b.log")
    assert (a.seed, a.players, a.decks) == (b.seed, b.players, b.decks)
    assert a.nonce != b.nonce and a.game_id != b.game_id
    assert [p.name for p in a.players] == ["Ann", "Bob"]
    assert game_id_of(a) == a.game_id and game_id_of(b) == b.game_id
    report = ingest([tmp_path / "a.log", tmp_path / "b.log"], tmp_path / "db.duckdb")
    assert (report.games_added, report.files_quarantined) == (2, 0)  # once, the second was quarantined


def test_a_game_without_a_seed_draws_a_fresh_one_and_records_it(tmp_path: Path) -> None:
    seeds = {people_game(tmp_path / f"{i}.log", seed=None).seed for i in range(3)}
    assert len(seeds) == 3 and all(0 <= s < 2**63 for s in seeds)
    result = runner.invoke(app, ["play", "toy", "--decks", "pile,pile", "--players", "random,random", "--name",
                                 "Ann,Bob", "--out", str(tmp_path / "cli.log")])  # fmt: skip
    assert result.exit_code == 0, result.output
    found = re.search(r"\(seed (\d+), fresh\)", result.output)
    assert found is not None, result.output
    printed = int(found.group(1))
    header = read_log(tmp_path / "cli.log").header
    assert header.seed == printed and [p.name for p in header.players] == ["Ann", "Bob"]


def test_play_never_overwrites_a_log(tmp_path: Path) -> None:
    path = tmp_path / "game.log"
    people_game(path)
    before = path.read_bytes()
    with pytest.raises(LogExistsError, match=r"game.log already exists .* such as .*game-2.log"):
        people_game(path)
    assert path.read_bytes() == before
    result = runner.invoke(app, ["play", "toy", "--decks", "pile,pile", "--players", "random,random",
                                 "--out", str(path)])  # fmt: skip
    assert result.exit_code == 1 and "never overwritten" in result.output
    assert path.read_bytes() == before
    with pytest.raises(FileExistsError):  # the writer itself refuses too
        LogWriter(path, read_log(path).header)
    assert path.read_bytes() == before


def test_play_takes_a_deck_list_file_for_a_seat(tmp_path: Path) -> None:
    deck = tmp_path / "kessra.txt"
    lines = ["Planet: Kessra", "3 Recruit", "3 Raider", "3 Duelist", "2 Veteran", "2 Brute", "1 Champion",
             "3 Dune Buggy", "2 eq-blade", "2 eq-rifle", "2 ev-rally", "2 ev-strike", "3 rx-adrenaline",
             "2 rx-counter", "2 site-outpost", "2 site-foundry", "2 site-mine"]  # fmt: skip
    deck.write_text("\n".join(lines) + "\n")
    out = tmp_path / "m9.log"
    result = runner.invoke(app, ["play", "miras9", "--decks", ",bastion", "--deck-file", f"{deck},",
                                 "--players", "random,random", "--seed", "3", "--out", str(out)])  # fmt: skip
    assert result.exit_code == 0, result.output
    header = read_log(out).header
    assert [d.name for d in header.decks] == ["kessra", "bastion"] and header.decks[0].leader == "planet-kessra"
    assert len(header.decks[0].cards) == 36
    bad = tmp_path / "bad.txt"
    bad.write_text("1 Kessra *\nthree Recruit\n")
    result = runner.invoke(app, ["play", "miras9", "--deck-file", f"{bad},{bad}", "--players", "random,random",
                                 "--out", str(tmp_path / "no.log")])  # fmt: skip
    assert result.exit_code == 1 and "line 2: 'three Recruit' is not COUNT CARD NAME" in result.output
    assert not (tmp_path / "no.log").exists()


def test_simulated_ids_are_reproducible_and_cover_players_and_tournament() -> None:
    info = TournamentInfo("Open", 1, 2, "r1-t2", 1)
    a = make_header(TOY, 5, ["pile", "pile"], ["random", "random"], tournament=info)
    assert a.game_id == make_header(TOY, 5, ["pile", "pile"], ["random", "random"], tournament=info).game_id
    other_game = msgspec.structs.replace(info, game=2)
    assert a.game_id != make_header(TOY, 5, ["pile", "pile"], ["random", "random"], tournament=other_game).game_id
    renamed = msgspec.structs.replace(a, players=[msgspec.structs.replace(a.players[0], name="Cy"), a.players[1]])
    assert game_id_of(renamed) != a.game_id


def test_every_id_ever_written_re_derives() -> None:
    """The format 1 fixture's id, and a field added since counts only off its default (``nonce`` here)."""
    old = read_log(FIXTURE).header
    assert game_id_of(old) == old.game_id
    h = make_header(TOY, 5, ["pile", "pile"], ["random", "random"])
    as_format_1 = {k: v for k, v in msgspec.structs.asdict(msgspec.structs.replace(h, game_id="")).items()
                   if k not in ("nonce", "cards", "sandbox")}  # fmt: skip
    assert game_id_of(h) == hashlib.blake2b(msgspec.msgpack.encode(as_format_1), digest_size=8).hexdigest()
    assert game_id_of(msgspec.structs.replace(h, nonce="ab")) != game_id_of(h)


def test_ingest_quarantines_a_header_edited_under_its_old_id(tmp_path: Path) -> None:
    path, played = toy_log(tmp_path)

    def rename_players(header: dict[str, object]) -> None:
        header["players"] = [{"name": "Mallory", "agent": "human"}, {"name": "Trent", "agent": "human"}]

    edit_frame(path, KIND_HEADER, rename_players, which=0)
    report = ingest([path], tmp_path / "db.duckdb")
    assert report.files_quarantined == 1
    [bad] = report.quarantined
    assert f"{played.game_id!r} is not the id derived from this header" in bad
