"""The ordinary mistakes, one subprocess each: every command with every kind of bad argument exits 1 or 2 with a
one-line message on stderr, no traceback, nothing written where it should not be, within a time bound.

Running as root, file permissions do not bite; the unreadable and read-only cases then run annals without the
capabilities that override them (``setpriv --bounding-set -dac_override,-dac_read_search``), so the kernel refuses
as it would for any user. A full disk is a file-size limit (``RLIMIT_FSIZE``: writes fail with EFBIG), and, where
a small tmpfs can be mounted, a real full file system (ENOSPC).
"""

from __future__ import annotations

import hashlib
import os
import resource
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import duckdb
import pytest

from tests.toyrules import subprocess_env

ANNALS = str(Path(sys.executable).with_name("annals"))
TIME_BOUND = 60  # seconds: any command here that takes longer is hanging
HUGE = str(2**64)
HUGER = str(2**70)
SETPRIV = shutil.which("setpriv")


class Ran:
    def __init__(self, proc: subprocess.CompletedProcess[str]):
        self.code = proc.returncode
        self.stdout = proc.stdout
        self.stderr = proc.stderr


def annals(*args: str | Path, cwd: Path, unprivileged: bool = False, fsize: int | None = None, stdin: str = "") -> Ran:
    command = [ANNALS, *map(str, args)]
    if unprivileged and os.geteuid() == 0:
        if SETPRIV is None:
            pytest.skip("running as root without setpriv: permissions cannot be made to bite")
        command = [SETPRIV, "--bounding-set", "-dac_override,-dac_read_search", *command]

    def limit() -> None:  # pragma: no cover - in the child
        if fsize is not None:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write beyond the limit then fails with EFBIG
            resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))

    # the toys found as a plugin is; the annals home is the test's folder: the default database is its annals.duckdb
    env = {**subprocess_env(), "COLUMNS": "200", "NO_COLOR": "1", "ANNALS_HOME": str(cwd)}
    proc = subprocess.run(
        command, cwd=cwd, capture_output=True, text=True, timeout=TIME_BOUND, input=stdin, preexec_fn=limit, env=env
    )
    return Ran(proc)


def refused(ran: Ran, *needles: str, code: Sequence[int] = (1, 2)) -> str:
    """Exit 1 or 2, no traceback, one error line on stderr (an optional hint line after it) holding ``needles``."""
    assert ran.code in code, f"exit {ran.code}\nstdout: {ran.stdout}\nstderr: {ran.stderr}"
    assert "Traceback" not in ran.stderr and "Traceback" not in ran.stdout, ran.stderr
    if ran.code == 2 and ran.stderr.startswith("Usage:"):  # a usage error caught by typer itself (its own format)
        assert all(needle in ran.stderr for needle in needles), ran.stderr
        return ran.stderr
    lines = [line for line in ran.stderr.splitlines() if line.strip()]
    errors = [line for line in lines if line.startswith("error:")]
    assert len(errors) == 1 and len(lines) <= 2, ran.stderr
    for needle in needles:
        assert needle in errors[0], f"{needle!r} not in {errors[0]!r}"
    return errors[0]


def digest(path: Path) -> str:
    return hashlib.blake2b(path.read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with a few logs, a database of them, a position file and the odd files the mistakes need."""
    root = tmp_path_factory.mktemp("mistakes")
    ok = annals("simulate", "cardtoy", "--games", "3", "--decks", "low,high", "--out", "logs", "-q", cwd=root)
    assert ok.code == 0, ok.stderr
    assert annals("ingest", "logs", "--db", "annals.duckdb", "-q", cwd=root).code == 0
    log = sorted((root / "logs").glob("*.log"))[0]
    shutil.copy(log, root / "game.log")
    assert annals("position", "game.log", "--at", "turn:2", "--save", "pos.json", cwd=root).code == 0
    (root / "junk.duckdb").write_bytes(os.urandom(4096))
    (root / "folder").mkdir()
    (root / "a-file").write_text("not a folder\n")
    os.mkfifo(root / "fifo.log")
    os.symlink("loop.log", root / "loop.log")
    (root / "secret.log").write_bytes(log.read_bytes())
    (root / "secret.log").chmod(0)
    con = duckdb.connect(str(root / "other.duckdb"))
    con.execute("CREATE TABLE customers (id INTEGER, name VARCHAR)")
    con.execute("INSERT INTO customers VALUES (1, 'ann')")
    con.close()
    return root


def other_tables(path: Path) -> list[str]:
    con = duckdb.connect(str(path), read_only=True)
    try:
        return sorted(r[0] for r in con.execute("SELECT table_name FROM information_schema.tables").fetchall())
    finally:
        con.close()


# ---------------------------------------------------------------- logs that are not regular files


@pytest.mark.parametrize("command", ["show", "verify", "position"])
@pytest.mark.parametrize(
    ("name", "needle"),
    [
        ("fifo.log", "is a FIFO (named pipe), not a regular file"),
        ("/dev/zero", "is a character device, not a regular file"),
        ("folder", "folder"),
        ("loop.log", "too many levels of symbolic links"),
        ("junk.duckdb", "not an annals log"),
    ],
)
def test_a_log_that_is_no_regular_file_is_refused_at_once(work: Path, command: str, name: str, needle: str) -> None:
    start = time.monotonic()
    refused(annals(command, name, cwd=work), needle)
    assert time.monotonic() - start < 20


@pytest.mark.parametrize("command", ["show", "verify", "position"])
def test_an_unreadable_log_is_refused(work: Path, command: str) -> None:
    refused(annals(command, "secret.log", cwd=work, unprivileged=True), "secret.log")


def test_ingest_quarantines_special_files_and_keeps_the_good_logs(work: Path, tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    shutil.copytree(work / "logs", logs)
    os.mkfifo(logs / "fifo.log")
    os.symlink("loop.log", logs / "loop.log")
    os.symlink("/dev/zero", logs / "zero.log")
    (logs / "secret.log").write_bytes((work / "game.log").read_bytes())
    (logs / "secret.log").chmod(0)
    (logs / "sub").mkdir()
    shutil.copy(work / "game.log", logs / "sub" / "copy.log")
    ran = annals("ingest", logs, "--db", tmp_path / "db.duckdb", "-q", cwd=tmp_path, unprivileged=True)
    assert ran.code == 0 and "Traceback" not in ran.stderr, ran.stderr
    assert "3 games added, 1 already stored, 4 quarantined" in ran.stdout, ran.stdout
    for name, reason in [
        ("fifo.log", "FIFO"),
        ("loop.log", "symbolic links"),
        ("zero.log", "character device"),
        ("secret.log", "permission denied"),
    ]:
        assert any(name in line and reason in line for line in ran.stdout.splitlines()), (name, ran.stdout)
    con = duckdb.connect(str(tmp_path / "db.duckdb"), read_only=True)
    assert con.execute("SELECT count(*) FROM games").fetchall() == [(3,)]
    assert con.execute("SELECT count(*) FROM quarantine").fetchall() == [(4,)]
    con.close()


# ---------------------------------------------------------------- databases


@pytest.mark.parametrize(
    ("db", "needles"),
    [
        ("junk.duckdb", ["is not a DuckDB database"]),
        ("folder", ["is a folder"]),
        ("no/such/folder/x.duckdb", ["does not exist"]),
        ("other.duckdb", ["of another program", "customers"]),
    ],
)
@pytest.mark.parametrize("command", ["ingest", "sql", "report", "position"])
def test_a_bad_database_is_refused(work: Path, command: str, db: str, needles: list[str]) -> None:
    before = {p.name: digest(p) for p in work.iterdir() if p.is_file() and p.suffix == ".duckdb"}
    args = {
        "ingest": ["ingest", "logs", "-q"],
        "sql": ["sql", "SELECT 1"],
        "report": ["report", "game_length"],
        "position": ["position", "0123456789abcdef"],
    }[command]
    if command != "ingest" and db.startswith("no/"):
        needles = ["no annals database"]
    refused(annals(*args, "--db", db, cwd=work), *needles)
    after = {p.name: digest(p) for p in work.iterdir() if p.is_file() and p.suffix == ".duckdb"}
    assert after == before  # nothing written into any database, least of all another program's
    assert other_tables(work / "other.duckdb") == ["customers"]
    assert not (work / "no").exists()


def test_a_read_only_database_is_refused_by_ingest(work: Path, tmp_path: Path) -> None:
    db = tmp_path / "ro.duckdb"
    shutil.copy(work / "annals.duckdb", db)
    db.chmod(0o444)
    before = digest(db)
    refused(annals("ingest", work / "logs", "--db", db, "-q", cwd=tmp_path, unprivileged=True), "read-only")
    assert digest(db) == before


def test_a_database_locked_by_another_writer_says_retry(work: Path, tmp_path: Path) -> None:
    db = tmp_path / "busy.duckdb"
    shutil.copy(work / "annals.duckdb", db)
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            f"import duckdb, time; c = duckdb.connect({str(db)!r}); print('ready', flush=True); time.sleep(60)",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "ready"
        for args in (["ingest", work / "logs", "-q"], ["sql", "SELECT 1"]):
            error = refused(annals(*args, "--db", db, cwd=tmp_path), "in use by another process", "retry")
            assert str(holder.pid) in error
    finally:
        holder.kill()
        holder.wait()


# ---------------------------------------------------------------- outputs


def test_outputs_onto_folders_files_and_inputs_are_refused(work: Path) -> None:
    db_before = digest(work / "annals.duckdb")
    log_before = digest(work / "game.log")
    pos_before = digest(work / "pos.json")
    refused(annals("sql", "SELECT 1", "--output", "annals.duckdb", cwd=work), "is the input", "annals.duckdb")
    refused(annals("sql", "SELECT 1", "--output", "folder", cwd=work), "is a folder")
    refused(annals("sql", "SELECT 1", "--output", "no/such/out.csv", cwd=work), "does not exist")
    refused(annals("report", "game_length", "--output", "folder", cwd=work), "is a folder")
    refused(annals("report", "game_length", "--output", "annals.duckdb", cwd=work), "is the input")
    refused(annals("simulate", "cardtoy", "--decks", "low,high", "--out", "a-file", "-q", cwd=work), "is a file")
    refused(annals("play", "toy", "--decks", "pile,pile", "--players", "random,random", "--out", "folder",
                   cwd=work), "is a folder")  # fmt: skip
    refused(annals("play", "toy", "--decks", "pile,pile", "--players", "random,random", "--out", "no/x.log",
                   cwd=work), "does not exist")  # fmt: skip
    refused(annals("position", "game.log", "--save", "game.log", cwd=work), "is the input")
    refused(annals("position", "game.log", "--save", "folder", cwd=work), "is a folder")
    refused(annals("continue", "pos.json", "--out", "pos.json", cwd=work), "is the input")
    refused(annals("continue", "pos.json", "--out", "folder", cwd=work), "is a folder")
    assert (digest(work / "annals.duckdb"), digest(work / "game.log"), digest(work / "pos.json")) == (
        db_before,
        log_before,
        pos_before,
    )
    assert list((work / "folder").iterdir()) == [] and (work / "a-file").read_text() == "not a folder\n"
    assert not (work / "no").exists()


# ---------------------------------------------------------------- numbers, commands, decisions


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["simulate", "cardtoy", "--decks", "low,high", "--seed", HUGE, "--out", "x"], "outside 0 .."),
        (["simulate", "cardtoy", "--decks", "low,high", "--seed", "-1", "--out", "x"], "outside 0 .."),
        (["simulate", "cardtoy", "--decks", "low,high", "--seed", str(2**64 - 2), "-n", "5", "--out", "x"],
         "seed + games - 1"),
        (["simulate", "cardtoy", "--decks", "low,high", "--max-turns", HUGER, "--out", "x"], "--max-turns"),
        (["simulate", "cardtoy", "--decks", "low,nothing", "--out", "x"], "unknown deck 'nothing'"),
        (["simulate", "cardtoy", "--decks", "low,high", "--bots", "random,nobody", "--out", "x"], "unknown bot"),
        (["simulate", "cardtoyz", "--out", "x"], "unknown ruleset"),
        (["play", "toy", "--decks", "pile,pile", "--players", "random,random", "--seed", HUGER, "--out", "x.log"],
         "outside 0 .."),
        (["continue", "pos.json", "--seed", HUGE, "--out", "x.log"], "outside 0 .."),
        (["event", "new", "x", "--ruleset", "miras9", "--seed", HUGE], "outside 0 .."),
        (["serve", "--port", "70000", "--data", "x"], "--port"),  # it listened on 70000 % 65536
        (["demo", "--dir", "x", "--seed", HUGE], "the demo plays seeds"),
        (["review", "game.log", "--iterations", HUGE], "--iterations"),  # it searched without end
        (["view", "game.log", "--iterations", HUGE, "--output", "x"], "--iterations"),
        (["review", "game.log", "--mistake", "-1"], "0 < inaccuracy <= mistake <= blunder <= 1"),
        (["review", "game.log", "--inaccuracy", "nan"], "0 < inaccuracy <= mistake <= blunder <= 1"),
        (["join", "http://[::1/play/t", "--token", "x"], "not a table's address (Invalid IPv6 URL)"),
        (["join", "http://127.0.0.1:99999/play/t", "--token", "x"], "not a table's address (Port out of range"),
        (["join", "table-7", "--token", "x"], "not a table's address; give http://HOST:PORT/play/ID"),
        (["serve", "--clock", HUGER, "--table", "toy pile,pile human,random", "--data", "x"], "--clock"),
        (["event", "new", "x", "--ruleset", "miras9", "--max-turns", HUGER], "--max-turns"),
        (["event", "new", "x", "--ruleset", "miras9", "--rounds", HUGER], "--rounds"),
        (["event", "new", "x", "--ruleset", "miras9", "--best-of", HUGER], "--best-of"),
        (["event", "new", "x", "--ruleset", "miras9", "--top", str(2**70)], "--top"),
        (["continue", "pos.json", "--max-turns", HUGER, "--out", "x.log"], "--max-turns"),
        (["play", "toy", "--decks", "pile,pile", "--players", "external:,random", "--out", "x.log"],
         "needs a command"),
        (["play", "toy", "--decks", "pile,pile", "--players", "external:python 'bot.py,random", "--out", "x.log"],
         "No closing quotation"),
        (["play", "toy", "--decks", "pile,pile", "--players", "external:./a-file,random", "--out", "x.log"],
         "is not executable"),
        (["play", "toy", "--decks", "pile,pile", "--players", "external:no-such-bot,random", "--out", "x.log"],
         "is not found"),
        (["play", "toy", "--decks", "pile,pile", "--players", "random,random", "--timeout", "0", "--out", "x.log"],
         "--timeout"),
        (["play", "toy", "--decks", "pile,pile", "--players", "random,random", "--clock", HUGER, "--out", "x.log"],
         f"--clock {HUGER} is outside 0 .."),
        (["play", "toy", "--decks", "pile,pile", "--players", "random,random", "--clock", "-5", "--out", "x.log"],
         "--clock -5 is outside 0 .."),
        (["play", "toy", "--decks", "pile,pile", "--players", "random,random", "--name", "Ann,Bo,Cy", "--out", "x.log"],
         "give a name per seat, 2 separated by a comma (got 'Ann,Bo,Cy')"),
    ],
)  # fmt: skip
def test_numbers_and_commands_out_of_their_domain(work: Path, args: list[str], needle: str) -> None:
    refused(annals(*args, cwd=work), needle)
    assert not (work / "x").exists() and not (work / "x.log").exists()


@pytest.mark.parametrize(
    ("args", "command", "fix"),
    [
        (["simulate", "cardtoy", "--decks", "low,high", "--seed", "-1", "--out", "x"], "simulate",
         f"seed -1 is outside 0 .. {2**64 - 1} (seeds are unsigned 64-bit numbers); give a seed from 0 to "
         f"{2**64 - 10} for 10 games"),
        (["simulate", "cardtoy", "--decks", "low,high", "--seed", str(2**64 - 2), "-n", "5", "--out", "x"],
         "simulate", f"give a seed from 0 to {2**64 - 5} for 5 games"),
        (["simulate", "cardtoy", "--decks", "low,high", "-n", HUGER, "--out", "x"], "simulate", "play fewer games"),
        (["simulate", "cardtoy", "--decks", "low,high", "--max-turns", HUGER, "--out", "x"], "simulate",
         "give a number of turns, or 0 for no cap"),
        (["play", "toy", "--decks", "pile,pile", "--players", "random,random", "--seed", "-1", "--out", "x.log"],
         "play", "give a seed from 0 to"),
        (["continue", "pos.json", "--max-turns", HUGER, "--out", "x.log"], "continue", "0 for no cap"),
        (["event", "new", "x", "--ruleset", "miras9", "--seed", "-1"], "event new", "give a seed from 0 to"),
        (["demo", "--dir", "x", "--seed", "-1"], "demo", "pick a seed from 0 to"),
    ],
)  # fmt: skip
def test_a_seed_or_turn_cap_out_of_range_is_a_usage_error_pointing_to_help(
    work: Path, args: list[str], command: str, fix: str
) -> None:
    """A number out of range is a mistake in what was typed, as typer's own ``--games 0`` is: exit 2, the range, a
    number that would do, and the command's help (it exited 1 and said "pick a smaller seed" for -1)."""
    line = refused(annals(*args, cwd=work), "outside 0 ..", fix, code=(2,))
    assert line.endswith(f"; see 'annals {command} --help'"), line
    assert not (work / "x").exists() and not (work / "x.log").exists()


def test_a_demo_with_a_seed_out_of_range_keeps_the_last_demo(work: Path, tmp_path: Path) -> None:
    """It removed the earlier demo's logs and database, then refused the seed."""
    old = tmp_path / "demo"
    (old / "logs").mkdir(parents=True)
    (old / "logs" / "game.log").write_text("a log\n")
    (old / "annals.duckdb").write_text("a database\n")
    refused(annals("demo", "--dir", old, "--seed", str(2**64 - 2), cwd=work), "pick a seed from 0 to")
    assert (old / "logs" / "game.log").exists() and (old / "annals.duckdb").exists()


@pytest.mark.parametrize(
    ("content", "needle"),
    [
        (b"[0, 1", "--decisions"),
        (b'{"a": 1}', "JSON list of option indexes"),
        (b'["one"]', "JSON list of option indexes"),
        (b"[-1]", "out of range"),
        (b"[99999999999999999999999]", "--decisions"),
        (None, "FIFO"),
    ],
)
def test_malformed_decisions_are_refused(work: Path, tmp_path: Path, content: bytes | None, needle: str) -> None:
    decisions = tmp_path / "moves.json"
    if content is None:
        os.mkfifo(decisions)
    else:
        decisions.write_bytes(content)
    out = tmp_path / "c.log"
    refused(annals("continue", work / "pos.json", "--decisions", decisions, "--out", out, cwd=tmp_path), needle)
    assert not out.exists()


@pytest.mark.parametrize("name", ["fifo.log", "/dev/zero", "folder", "junk.duckdb"])
def test_a_position_file_that_is_no_position_is_refused(work: Path, name: str) -> None:
    refused(annals("continue", name, "--out", "x.log", cwd=work))
    assert not (work / "x.log").exists()


# ---------------------------------------------------------------- a full disk


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["simulate", "miras9", "--decks", "vanguard,bastion", "-n", "20", "--out", "out", "-q"], "size limit"),
        (["play", "miras9", "--decks", "vanguard,bastion", "--players", "random,random", "--out", "out.log"],
         "size limit"),
        (["ingest", "LOGS", "--db", "out.duckdb", "-q"], "size limit"),
        (["sql", "SELECT * FROM range(1000000)", "--db", "DB", "--format", "csv", "--output", "out.csv"],
         "size limit"),
    ],
)  # fmt: skip
def test_a_full_disk_is_a_named_error(work: Path, tmp_path: Path, args: list[str], needle: str) -> None:
    args = [str(work / "logs") if a == "LOGS" else str(work / "annals.duckdb") if a == "DB" else a for a in args]
    refused(annals(*args, cwd=tmp_path, fsize=8 << 10), needle)
    assert not (tmp_path / "out.csv").exists()  # a failed output leaves no partial file


@pytest.fixture
def tiny_disk(tmp_path: Path) -> Iterator[Path]:
    """A 512 KiB tmpfs, where one can be mounted (root on Linux): a real ENOSPC."""
    mount = tmp_path / "tiny"
    mount.mkdir()
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("mounting a tmpfs needs root")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=512k", "tmpfs", str(mount)], capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode().strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", str(mount)], check=False)


def test_a_really_full_disk_is_a_named_error(work: Path, tiny_disk: Path) -> None:
    refused(annals("simulate", "miras9", "--decks", "vanguard,bastion", "-n", "50", "--out", tiny_disk, "-q",
                   cwd=work), "disk is full")  # fmt: skip
    for f in tiny_disk.iterdir():
        f.unlink()
    refused(annals("sql", "SELECT * FROM range(1000000)", "--db", "annals.duckdb", "--format", "csv", "--output",
                   tiny_disk / "big.csv", cwd=work), "disk is full")  # fmt: skip
    assert list(tiny_disk.iterdir()) == []
