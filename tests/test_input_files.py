"""Every input held to one standard (``schemas.inputs``): deck lists, card files, keys, event files, notes (and
scenario and position files, tested beside their readers) are read only when they are regular files of a bounded
size, a FIFO or ``/dev/zero`` refused at once with a named one-line error; usage errors exit 2 as documented;
nothing half-written is left behind; ingest quarantines a dangling link and stores the good games."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from annals.cli.main import app
from annals.engine.decks import read_deck_list
from annals.queries.pictures.annotations import load_notes, notes_path
from annals.schemas.carddefs import load_card_file
from annals.schemas.errors import AnnalsError
from annals.schemas.keys import load_public_key, load_signing_key

runner = CliRunner()
ANNALS = str(Path(sys.executable).parent / "annals")


def _special(tmp_path: Path, kind: str, name: str) -> Path:
    """A FIFO at ``tmp_path/name``, or a link there to ``/dev/zero``."""
    path = tmp_path / name
    if kind == "fifo":
        os.mkfifo(path)
    else:
        path.symlink_to("/dev/zero")
    return path


def _within(seconds: float, call: Callable[[], Any]) -> Any:
    """``call()``'s value or exception, failing when it has not returned within ``seconds`` (a read that blocks
    on a FIFO hangs its thread, not the suite)."""
    box: list[Any] = []

    def run() -> None:
        try:
            box.append(call())
        except BaseException as exc:
            box.append(exc)

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(seconds)
    assert box, f"still reading after {seconds} s: a special file was waited on or read without end"
    return box[0]


READERS: dict[str, Callable[[Path], Any]] = {
    "deck list": lambda path: read_deck_list(path, "miras9"),
    "card file": lambda path: load_card_file(path),
    "private key": lambda path: load_signing_key(path),
    "public key": lambda path: load_public_key(path),
}


@pytest.mark.parametrize("kind", ["fifo", "zero"])
@pytest.mark.parametrize("reader", sorted(READERS))
def test_each_input_kind_refuses_a_special_file_at_once(tmp_path: Path, kind: str, reader: str) -> None:
    path = _special(tmp_path, kind, "input")
    if reader == "private key":
        os.chmod(tmp_path, 0o700)
    refused = _within(10, lambda: READERS[reader](path))
    assert isinstance(refused, AnnalsError), refused
    assert "not a regular file" in str(refused) and str(path) in str(refused)


def test_a_notes_file_that_is_a_fifo_is_refused(tmp_path: Path) -> None:
    log = tmp_path / "game.log"
    os.mkfifo(notes_path(log))
    refused = _within(10, lambda: load_notes(log, "g"))
    assert isinstance(refused, AnnalsError) and "a FIFO" in str(refused)


def test_a_deck_list_too_big_is_refused_before_it_is_read(tmp_path: Path) -> None:
    big = tmp_path / "deck.txt"
    with big.open("wb") as f:
        f.truncate(64 << 20)
    refused = _within(10, lambda: read_deck_list(big, "miras9"))
    assert isinstance(refused, AnnalsError) and "more than a deck list can be" in str(refused)


def _one_line(result: Result, code: int) -> str:
    assert result.exit_code == code, (result.exit_code, result.stdout, result.stderr)
    assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1, result.stderr
    assert "Traceback" not in result.stderr
    return result.stderr


@pytest.mark.parametrize("kind", ["fifo", "zero"])
def test_play_and_event_register_refuse_a_special_deck_file(tmp_path: Path, kind: str) -> None:
    """``play --deck-file`` and ``event register --deck`` on ``/dev/zero`` read until memory ran out; on a FIFO
    they hung."""
    deck = _special(tmp_path, kind, "deck.txt")
    out = tmp_path / "g.log"
    played = _within(30, lambda: runner.invoke(
        app, ["play", "miras9", "--players", "random,random", "--deck-file", f"{deck},", "--out", str(out)]
    ))  # fmt: skip
    assert "not a regular file" in _one_line(played, 1) and not out.exists()
    event = tmp_path / "ev"
    assert runner.invoke(app, ["event", "new", str(event), "--ruleset", "miras9"]).exit_code == 0
    registered = _within(30, lambda: runner.invoke(
        app, ["event", "register", str(event), "--id", "a", "--name", "A", "--deck", str(deck)]
    ))  # fmt: skip
    assert "not a regular file" in _one_line(registered, 1)


def test_an_event_file_replaced_by_a_fifo_is_a_named_error(tmp_path: Path) -> None:
    event = tmp_path / "ev"
    assert runner.invoke(app, ["event", "new", str(event), "--ruleset", "miras9"]).exit_code == 0
    (event / "event.log").unlink()  # the event's record, the file every command reads
    os.mkfifo(event / "event.log")
    result = _within(30, lambda: runner.invoke(app, ["event", "players", str(event)]))
    assert "a FIFO" in _one_line(result, 1)


@pytest.mark.parametrize(
    "args",
    [
        ["event", "new", "{tmp}/a", "--ruleset", "miras9", "--best-of", "2"],
        ["event", "new", "{tmp}/b", "--ruleset", "miras9", "--top", "6"],
        ["event", "new", "{tmp}/c", "--ruleset", "miras9", "--bot", "god"],
        ["event", "register", "{tmp}/ev", "--id", "a", "--name", "A", "--deck", "{tmp}/deck.txt", "--bot", "human"],
        ["event", "register", "{tmp}/ev", "--id", "a", "--name", "Ann\x1b[31m", "--deck", "{tmp}/deck.txt"],
        ["event", "register", "{tmp}/ev", "--id", "a", "--name", "A" * 3000, "--deck", "{tmp}/deck.txt"],
    ],
    ids=["best-of-2", "top-6", "event-bot", "register-bot-human", "register-name-escape", "register-name-3000"],
)
def test_event_usage_errors_exit_2(tmp_path: Path, args: list[str]) -> None:
    """README: a value no option can take is a usage error, exit 2 (these exited 1)."""
    assert runner.invoke(app, ["event", "new", str(tmp_path / "ev"), "--ruleset", "miras9"]).exit_code == 0
    (tmp_path / "deck.txt").write_text(runner.invoke(app, ["deck", "miras9", "vanguard"]).stdout)
    result = runner.invoke(app, [a.format(tmp=tmp_path) for a in args])
    _one_line(result, 2)


def test_a_player_name_is_bounded_as_the_server_bounds_it(tmp_path: Path) -> None:
    """``event register`` took a 3,000-character name, which the event desk (``annals serve --event``) could not
    take to drop the player by name: both hold to ``MAX_NAME``."""
    import msgspec

    from annals.schemas.names import MAX_NAME
    from annals.server.desk_app import Drop

    assert runner.invoke(app, ["event", "new", str(tmp_path / "ev"), "--ruleset", "miras9"]).exit_code == 0
    (tmp_path / "deck.txt").write_text(runner.invoke(app, ["deck", "miras9", "vanguard"]).stdout)
    register = ["event", "register", str(tmp_path / "ev"), "--deck", str(tmp_path / "deck.txt")]
    longest = "Ada " + "L" * (MAX_NAME - 4)
    assert runner.invoke(app, [*register, "--id", "a", "--name", longest]).exit_code == 0
    refused = runner.invoke(app, [*register, "--id", "b", "--name", longest + "e"])
    assert f"up to {MAX_NAME}" in _one_line(refused, 2)
    assert msgspec.convert({"player": longest}, Drop).player == longest  # the desk names any registered player
    with pytest.raises(msgspec.ValidationError):
        msgspec.convert({"player": longest + "e"}, Drop)


def test_filling_a_field_past_any_event_is_refused_at_once(tmp_path: Path) -> None:
    """``event run --fill 10**23`` wrote bot deck lists until killed, thousands of them left in decks/."""
    assert runner.invoke(app, ["event", "new", str(tmp_path / "ev"), "--ruleset", "miras9"]).exit_code == 0
    result = _within(20, lambda: runner.invoke(app, ["event", "run", str(tmp_path / "ev"), "--fill", str(10**23)]))
    _one_line(result, 2)
    assert "a field of at most 4096 players" in result.stderr
    assert not list((tmp_path / "ev").glob("decks/*"))


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    folder = tmp_path_factory.mktemp("games")
    result = runner.invoke(app, ["simulate", "miras9", "-n", "3", "--out", str(folder), "--max-turns", "6"])
    assert result.exit_code == 0, result.stderr
    return sorted(folder.glob("*.log"))


@pytest.mark.parametrize(("bots", "says"), [("god,random", "unknown bot 'god'"), ("random", "give two bots")])
def test_continue_with_bots_it_does_not_have_is_a_usage_error(
    tmp_path: Path, games: list[Path], bots: str, says: str
) -> None:
    """``--bots god,random`` ended in a KeyError traceback, ``--bots random`` in an IndexError."""
    position = tmp_path / "p.json"
    saved = runner.invoke(app, ["position", str(games[0]), "--at", "turn:2", "--save", str(position)])
    assert saved.exit_code == 0, saved.stderr
    result = runner.invoke(app, ["continue", str(position), "--bots", bots, "--out", str(tmp_path / "c.log")])
    assert says in _one_line(result, 2) and not (tmp_path / "c.log").exists()


def test_ingest_quarantines_a_dangling_link_and_stores_the_good_games(tmp_path: Path, games: list[Path]) -> None:
    """One dangling symbolic link stopped the whole run (exit 1, none of the good games stored); it is quarantined
    as the link loop beside it is."""
    folder = tmp_path / "in"
    folder.mkdir()
    for game in games:
        (folder / game.name).write_bytes(game.read_bytes())
    (folder / "gone.log").symlink_to(tmp_path / "nothing-here.log")
    (folder / "loop.log").symlink_to("loop.log")
    result = runner.invoke(app, ["ingest", str(folder), "--db", str(tmp_path / "a.duckdb")])
    assert result.exit_code == 0, result.stderr
    assert f"{len(games)} games added" in result.stdout and "2 quarantined" in result.stdout
    assert "gone.log: FileNotFoundError: a symbolic link to nothing; fix or remove the link" in result.stdout


def test_a_log_the_disk_refused_before_its_header_is_removed(tmp_path: Path) -> None:
    """A full disk (here the file-size limit, ``ulimit -f``: the same short write, then an error) stopped
    ``simulate`` cleanly but left a 0-byte log; now nothing is left, and the message says so."""

    def four_bytes() -> None:  # less than the preamble: nothing of the log fits
        resource.setrlimit(resource.RLIMIT_FSIZE, (4, 4))

    out = tmp_path / "out"
    out.mkdir()
    done = subprocess.run(
        [ANNALS, "simulate", "miras9", "-n", "1", "--out", str(out)],
        preexec_fn=four_bytes,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "ANNALS_HOME": str(tmp_path / "home")},
    )
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert "the file would exceed the size limit" in done.stderr and "so it was removed" in done.stderr
    assert done.stderr.count("\n") == 1
    assert list(out.iterdir()) == []
