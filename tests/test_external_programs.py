"""External programs that misbehave: hung, silent, lingering, flooding, closing a pipe, or not a program at all.

Each runs a small Python script written to tmp_path, and each must end within a time bound with a named error or a
forfeit, leave no process running, and keep the log of what was played.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from annals.engine.external import MAX_LINE, ExternalProgramError, parse_command
from annals.engine.players import play_live
from annals.engine.replay import rerun
from annals.schemas.errors import IllegalDecisionError, TruncatedLogError
from annals.schemas.logfile import read_log
from annals.schemas.protocol import MAX_MESSAGE_BYTES
from annals.schemas.records import TIMEOUT_REASON
from tests.toyrules import subprocess_env

PREAMBLE = "import json, os, sys, time\nopen(sys.argv[1], 'w').write(str(os.getpid()))\n"

# answers the first two decisions, then stops answering (and ignores SIGTERM: only SIGKILL ends it)
HUNG = (
    PREAMBLE
    + """
import signal
signal.signal(signal.SIGTERM, signal.SIG_IGN)
answered = 0
for line in sys.stdin:
    if '"decide"' in line:
        if answered == 2:
            time.sleep(600)
        answered += 1
        print(json.dumps({"choose": 0}), flush=True)
"""
)
SILENT = PREAMBLE + "for line in sys.stdin:\n    pass\n"  # reads everything, never says a word
CLOSES_OUTPUT = PREAMBLE + "os.close(1)\ntime.sleep(600)\n"
# closes its input, then answers the first question (so the next one finds no reader)
CLOSES_INPUT = PREAMBLE + "os.close(0)\nprint(json.dumps({'choose': 0}), flush=True)\ntime.sleep(600)\n"
# plays well, but does not exit when its input ends (and ignores SIGTERM)
LINGERING = (
    PREAMBLE
    + """
import signal
signal.signal(signal.SIGTERM, signal.SIG_IGN)
for line in sys.stdin:
    if '"decide"' in line:
        print(json.dumps({"choose": 0}), flush=True)
time.sleep(600)
"""
)
# answers with an endless line: 256 MB without a newline
FLOODING = (
    PREAMBLE
    + """
sys.stdin.readline()
chunk = b'{"choose": ' + b"9" * (1 << 20)
for _ in range(256):
    sys.stdout.buffer.write(chunk)
sys.stdout.flush()
time.sleep(600)
"""
)


def _script(tmp_path: Path, name: str, text: str) -> tuple[str, Path]:
    script = tmp_path / f"{name}.py"
    script.write_text(text)
    pid_file = tmp_path / f"{name}.pid"
    return f"external:{sys.executable} {script} {pid_file}", pid_file


def _gone(pid_file: Path) -> bool:
    """The program's process no longer exists (not even as a zombie of ours)."""
    pid = int(pid_file.read_text())
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return True
    return stat.rpartition(")")[2].split()[0] in ("Z", "X")  # dead, waiting for a reaper that is not us


def test_a_hung_program_forfeits_its_seat_and_is_killed(tmp_path: Path) -> None:
    seat, pid_file = _script(tmp_path, "hung", HUNG)
    log = tmp_path / "hung.log"
    start = time.monotonic()
    result = play_live("toy", ["pile", "pile"], ["random", seat], 5, log, timeout=1.0)
    assert time.monotonic() - start < 15
    assert (result.winner, result.end_reason) == (0, TIMEOUT_REASON)
    assert "did not answer within 1 s" in result.note and "its seat loses" in result.note
    game = read_log(log)
    assert (game.close.winner, game.close.end_reason) == (0, TIMEOUT_REASON)
    assert sum(d.player == 1 for d in game.decisions) == 2  # the two answers it gave are in the log
    report = rerun(game)
    assert report.ok, report.reason
    assert _gone(pid_file)


def test_a_silent_program_forfeits_at_its_first_decision(tmp_path: Path) -> None:
    seat, pid_file = _script(tmp_path, "silent", SILENT)
    start = time.monotonic()
    result = play_live("toy", ["pile", "pile"], [seat, "random"], 5, tmp_path / "silent.log", timeout=1.0)
    assert time.monotonic() - start < 15
    assert (result.winner, result.end_reason, result.decisions) == (1, TIMEOUT_REASON, 0)
    assert _gone(pid_file)


def test_a_program_that_closes_its_output_gets_a_clear_message(tmp_path: Path) -> None:
    seat, pid_file = _script(tmp_path, "mute", CLOSES_OUTPUT)
    start = time.monotonic()
    with pytest.raises(ExternalProgramError, match=r"closed its output \(stdout\) before answering \(is still"):
        play_live("toy", ["pile", "pile"], [seat, "random"], 5, tmp_path / "mute.log", timeout=5.0)
    assert time.monotonic() - start < 15
    assert _gone(pid_file)
    with pytest.raises(TruncatedLogError):  # what was played is kept, as a log without its closing record
        read_log(tmp_path / "mute.log")


def test_a_program_that_closes_its_input_gets_a_clear_message(tmp_path: Path) -> None:
    seat, pid_file = _script(tmp_path, "deaf", CLOSES_INPUT)
    start = time.monotonic()
    with pytest.raises(ExternalProgramError, match=r"closed its input \(stdin\) \(is still running\)"):
        play_live("toy", ["pile", "pile"], [seat, "random"], 5, tmp_path / "deaf.log", timeout=5.0)
    assert time.monotonic() - start < 15
    assert _gone(pid_file)


def test_a_lingering_program_is_ended_after_the_game_without_a_traceback(tmp_path: Path) -> None:
    seat, pid_file = _script(tmp_path, "linger", LINGERING)
    start = time.monotonic()
    result = play_live("toy", ["pile", "pile"], [seat, "random"], 5, tmp_path / "linger.log", timeout=5.0)
    assert time.monotonic() - start < 15
    assert result.end_reason == "took_last" and result.note == ""
    assert _gone(pid_file)


def test_a_flooding_program_is_cut_off_at_the_line_limit_and_quoted_short(tmp_path: Path) -> None:
    seat, pid_file = _script(tmp_path, "flood", FLOODING)
    start = time.monotonic()
    with pytest.raises(ExternalProgramError, match=r"wrote a line longer than 65,536 bytes") as caught:
        play_live("toy", ["pile", "pile"], [seat, "random"], 5, tmp_path / "flood.log", timeout=10.0)
    assert time.monotonic() - start < 20
    assert len(str(caught.value)) < 400  # a prefix, not the line
    assert MAX_MESSAGE_BYTES == 1 << 16 < MAX_LINE  # the protocol's limit, below the wrapper's default
    assert _gone(pid_file)


def test_a_bad_answer_gets_a_short_error_and_the_seat_is_asked_again(tmp_path: Path) -> None:
    """A 5,000-byte line of nonsense is answered with a protocol error (short, naming what to send), the same
    decision is asked again, and a program that then answers well plays on to the end."""
    errors = tmp_path / "errors.jsonl"
    script = tmp_path / "long.py"
    script.write_text(
        "import json, sys\n"
        f"errors = open({str(errors)!r}, 'w')\n"
        "bad = True\n"
        "for line in sys.stdin:\n"
        "    message = json.loads(line)\n"
        "    if message['type'] == 'error':\n"
        "        errors.write(line); errors.flush()\n"
        "    elif message['type'] == 'decide':\n"
        "        print('x' * 5000 if bad else json.dumps({'type': 'answer', 'choose': 0}), flush=True)\n"
        "        bad = False\n"
    )
    seat = f"external:{sys.executable} {script}"
    result = play_live("toy", ["pile", "pile"], [seat, "random"], 5, tmp_path / "l.log", timeout=10.0)
    assert result.end_reason == "took_last" and result.note == ""
    (error,) = [json.loads(line) for line in errors.read_text().splitlines()]
    assert error["code"] == "malformed" and "not JSON" in error["message"] and len(error["message"]) < 300
    assert rerun(read_log(tmp_path / "l.log")).ok


def test_a_program_that_never_answers_well_stops_the_game_after_five_tries(tmp_path: Path) -> None:
    script = tmp_path / "junk.py"
    script.write_text(
        "import sys\nfor line in sys.stdin:\n    if '\"decide\"' in line:\n        print('x' * 5000, flush=True)\n"
    )
    with pytest.raises(IllegalDecisionError, match=r"gave 5 answers in a row that could not be taken at 'take'"):
        play_live("toy", ["pile", "pile"], [f"external:{sys.executable} {script}", "random"], 5, tmp_path / "j.log")


@pytest.mark.parametrize(
    ("command", "message"),
    [
        ("", "needs a command after the colon"),
        ("   ", "needs a command after the colon"),
        ("python 'bot.py", "cannot be read (No closing quotation)"),
        ("/no/such/program", "'/no/such/program' does not exist"),
        ("no-such-program-anywhere", "is not found"),
    ],
)
def test_an_unusable_command_is_refused_before_the_game(tmp_path: Path, command: str, message: str) -> None:
    log = tmp_path / "never.log"
    with pytest.raises(ExternalProgramError, match=message.replace("(", r"\(").replace(")", r"\)")):
        play_live("toy", ["pile", "pile"], [f"external:{command}", "random"], 5, log)
    assert not log.exists()


def test_a_file_that_is_not_executable_is_refused(tmp_path: Path) -> None:
    script = tmp_path / "bot.py"
    script.write_text("print('hi')\n")
    script.chmod(0o644)
    with pytest.raises(ExternalProgramError, match=r"is not executable; give an executable"):
        parse_command(str(script))
    with pytest.raises(ExternalProgramError, match=r"is a folder"):
        parse_command(str(tmp_path))


def test_killing_annals_kills_its_program(tmp_path: Path) -> None:
    """kill -9 of the annals process: the program in its seat dies with it (no orphan left hanging)."""
    seat, pid_file = _script(tmp_path, "hung", HUNG)
    code = (
        "import sys\nfrom pathlib import Path\nfrom annals.engine.players import play_live\n"
        f"play_live('toy', ['pile', 'pile'], ['random', {seat!r}], 5, Path({str(tmp_path / 'k.log')!r}), timeout=600)\n"
    )
    parent = subprocess.Popen([sys.executable, "-c", code], env=subprocess_env())
    try:
        deadline = time.monotonic() + 20
        while not pid_file.exists() or not pid_file.read_text():
            assert time.monotonic() < deadline and parent.poll() is None
            time.sleep(0.05)
        time.sleep(0.5)  # the program is now playing (and then hangs)
        parent.send_signal(signal.SIGKILL)
        parent.wait(10)
        while not _gone(pid_file):
            assert time.monotonic() < deadline, "the program outlived annals"
            time.sleep(0.05)
    finally:
        if parent.poll() is None:
            parent.kill()


def test_sigterm_ends_the_game_keeping_the_log_and_ending_the_program(tmp_path: Path) -> None:
    seat, pid_file = _script(tmp_path, "hung", HUNG)
    log = tmp_path / "t.log"
    code = (
        "from pathlib import Path\nfrom annals.engine.players import play_live\n"
        f"play_live('toy', ['pile', 'pile'], ['random', {seat!r}], 5, Path({str(log)!r}), timeout=600)\n"
    )
    parent = subprocess.Popen([sys.executable, "-c", code], stderr=subprocess.PIPE, text=True, env=subprocess_env())
    try:
        deadline = time.monotonic() + 20
        while not pid_file.exists() or not pid_file.read_text():
            assert time.monotonic() < deadline and parent.poll() is None
            time.sleep(0.05)
        time.sleep(0.5)
        parent.send_signal(signal.SIGTERM)
        _, stderr = parent.communicate(timeout=15)
    finally:
        if parent.poll() is None:
            parent.kill()
    assert parent.returncode == 128 + signal.SIGTERM and "Traceback" not in stderr
    assert _gone(pid_file)
    with pytest.raises(TruncatedLogError):
        read_log(log)  # every decision made is there; the game has no end
