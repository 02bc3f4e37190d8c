"""Log archives (``schemas.archive``) and simulations on every core (``engine.shards``): the same games, byte for
byte, in one process, in several, one file per game or many per archive; every whole game of a torn archive reads
back; a damaged game is quarantined alone; every command that reads a log takes ``ARCHIVE#GAME_ID``."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from annals.cli.main import app
from annals.engine.simulate import simulate
from annals.ingest.loader import ingest
from annals.ingest.schema import open_database
from annals.schemas.archive import (
    NoSuchGameError,
    archive_refs,
    member_bytes,
    read_archive,
    read_index,
    ref,
)
from annals.schemas.errors import CorruptLogError, TruncatedLogError
from annals.schemas.logfile import LogReader, read_log

runner = CliRunner()
DECKS = ["clash", "glory"]
BOTS = ["heuristic", "random"]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """Nine MORANA games as one log per game (one process) and as archives of four (two processes)."""
    root = tmp_path_factory.mktemp("archives")
    list(simulate("morana", 9, 5, DECKS, BOTS, root / "logs"))
    list(simulate("morana", 9, 5, DECKS, BOTS, root / "shards", jobs=2, shard_size=4))
    return root / "logs", root / "shards"


def test_jobs_give_the_same_bytes_as_one_process(tmp_path: Path, played: tuple[Path, Path]) -> None:
    logs, _ = played
    results = list(simulate("morana", 9, 5, DECKS, BOTS, tmp_path, jobs=2))
    assert [Path(r.path).name for r in results] == sorted(p.name for p in logs.iterdir())  # in game order
    for log in logs.iterdir():
        assert (tmp_path / log.name).read_bytes() == log.read_bytes()


def test_an_archive_holds_each_game_as_its_log_file_holds_it(played: tuple[Path, Path]) -> None:
    logs, shards = played
    names = sorted(p.name for p in shards.iterdir())
    assert names == ["morana-00000005-00000008.shard", "morana-00000009-00000012.shard",
                     "morana-00000013-00000013.shard"]  # fmt: skip
    by_id = {p.name.rsplit("-", 1)[1].removesuffix(".log"): p for p in logs.iterdir()}
    seen = []
    for shard in sorted(shards.iterdir()):
        archive = read_archive(shard)
        assert archive.indexed and archive.problem is None
        assert read_index(shard).members == archive.members  # the footer alone gives the same index
        for m in archive.members:
            assert member_bytes(ref(shard, m.game_id)) == by_id[m.game_id].read_bytes()
            assert read_log(ref(shard, m.game_id)).digest == m.digest
            seen.append(m.game_id)
    assert sorted(seen) == sorted(by_id)


def _boundaries(shard: Path) -> list[int]:
    """Every byte offset where an entry header or a frame of a game's log ends, and the archive's end."""
    cuts = {10}
    for m in read_archive(shard).members:
        cuts.add(m.offset - len(m.game_id))  # inside the entry header: after its fixed part
        cuts.add(m.offset)
        game = read_log(ref(shard, m.game_id))
        starts = [game.header_at, *(f.offset for f in game.frames), game.close_at[1]]
        cuts.update(m.offset + s for s in starts)  # frame starts: the previous frame's end
        cuts.add(m.offset + m.length)
    cuts.add(shard.stat().st_size)
    return sorted(cuts)


def test_truncation_at_every_frame_boundary_reads_back_every_whole_game(
    tmp_path: Path, played: tuple[Path, Path]
) -> None:
    shard = sorted(played[1].iterdir())[0]
    data = shard.read_bytes()
    whole = read_archive(shard).members
    ends = {}  # each game's frame ends, relative to its log's start
    for m in whole:
        game = read_log(ref(shard, m.game_id))
        ends[m.game_id] = [*(f.offset for f in game.frames), game.close_at[1], m.length]
    for cut in _boundaries(shard):
        torn = tmp_path / f"cut-{cut}.shard"
        torn.write_bytes(data[:cut])
        archive = read_archive(torn)
        held = [x.game_id for x in archive.members]
        assert archive.indexed == (cut == len(data)), cut
        for m in whole:
            name = ref(torn, m.game_id)
            if m.offset + m.length <= cut:  # a whole game: read back as it was written
                assert read_log(name).digest == m.digest, cut
            elif m.offset <= cut:  # cut inside this game's log: its own torn tail, as for a single log file
                with pytest.raises(TruncatedLogError) as caught:
                    read_log(name)
                assert caught.value.complete_frames == sum(e <= cut - m.offset for e in ends[m.game_id]), cut
            else:  # not reached: not in the archive
                assert m.game_id not in held, cut


def test_a_game_cut_inside_its_log_reports_the_frames_it_kept(tmp_path: Path, played: tuple[Path, Path]) -> None:
    shard = sorted(played[1].iterdir())[0]
    second = read_archive(shard).members[1]
    game = read_log(ref(shard, second.game_id))
    cut = second.offset + game.frames[0].offset + 3  # three bytes into the game's first batch frame
    torn = tmp_path / "torn.shard"
    torn.write_bytes(shard.read_bytes()[:cut])
    with pytest.raises(TruncatedLogError) as caught:
        read_log(ref(torn, second.game_id))
    assert caught.value.complete_frames == game.frames[0].frame == 1  # the header frame intact
    assert caught.value.offset == game.frames[0].offset
    with LogReader(ref(torn, read_archive(torn).members[0].game_id)) as first:
        first.read_to_end()  # the game before is whole


def test_a_damaged_game_is_quarantined_alone(tmp_path: Path, played: tuple[Path, Path]) -> None:
    shard = sorted(played[1].iterdir())[0]
    members = read_archive(shard).members
    victim = members[2]
    data = bytearray(shard.read_bytes())
    data[victim.offset + victim.length // 2] ^= 0x40
    damaged = tmp_path / "damaged.shard"
    damaged.write_bytes(bytes(data))
    with pytest.raises(CorruptLogError):
        read_log(ref(damaged, victim.game_id))
    report = ingest([damaged], tmp_path / "db.duckdb")
    assert (report.games_added, report.files_quarantined) == (len(members) - 1, 1)
    assert report.reconciled
    con = open_database(tmp_path / "db.duckdb", read_only=True)
    try:
        [(file, error)] = con.execute("SELECT file, error FROM quarantine").fetchall()
        stored = {r[0] for r in con.execute("SELECT file FROM games").fetchall()}
    finally:
        con.close()
    assert (file, error) == (ref(damaged, victim.game_id), "CorruptLogError")
    assert stored == {ref(damaged, m.game_id) for m in members if m is not victim}


def test_a_damaged_entry_header_keeps_the_games_before_it(tmp_path: Path, played: tuple[Path, Path]) -> None:
    shard = sorted(played[1].iterdir())[0]
    members = read_archive(shard).members
    data = bytearray(shard.read_bytes())
    data[members[2].offset - len(members[2].game_id) - 5] ^= 0x01  # the third entry's CRC; the index goes too
    damaged = tmp_path / "damaged.shard"
    damaged.write_bytes(bytes(data[: members[3].offset + members[3].length]))
    archive = read_archive(damaged)
    assert [m.game_id for m in archive.members] == [m.game_id for m in members[:2]]
    assert isinstance(archive.problem, CorruptLogError)
    report = ingest([damaged], tmp_path / "db.duckdb")
    assert (report.games_added, report.files_quarantined) == (2, 1)  # the damage is named, not dropped
    assert archive_refs(damaged)[-1].endswith(f"#@{archive.problem.offset}")


def test_commands_take_an_archive_and_archive_game_refs(tmp_path: Path, played: tuple[Path, Path]) -> None:
    shard = sorted(played[1].iterdir())[0]
    first = read_archive(shard).members[0].game_id
    name = ref(shard, first)
    shown = runner.invoke(app, ["show", "--format", "records", str(shard)])
    assert shown.exit_code == 0 and shown.output.count("== ") == 4, shown.output
    verified = runner.invoke(app, ["verify", name])
    assert verified.exit_code == 0 and f"game {first}" in verified.output, verified.output
    board = runner.invoke(app, ["position", name, "--at", "turn:2", "--format", "json"])
    assert board.exit_code == 0 and first in board.output, board.output
    viewer = runner.invoke(app, ["view", name, "--output", str(tmp_path / "game.html")])
    assert viewer.exit_code == 0 and (tmp_path / "game.html").stat().st_size > 1000, viewer.output
    db = tmp_path / "db.duckdb"
    assert runner.invoke(app, ["ingest", name, "--db", str(db)]).exit_code == 0
    missing = runner.invoke(app, ["verify", ref(shard, "0123456789abcdef")])
    assert missing.exit_code == 1 and "holds no game '0123456789abcdef'" in missing.output
    with pytest.raises(NoSuchGameError):
        member_bytes(ref(shard, "nope"))
