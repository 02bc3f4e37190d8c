"""``annals join`` when the server stops answering (a real server on 127.0.0.1, the client under tmux): a server
back within ``--reconnect-for`` is reached again by itself, the seat at the same question (the answer typed
into the closed connection is asked again); one that stays away is
given up on by name, with the exact command that joins again (it does, once the server is back) and exit 1; an
address where no server was ever started is tried ``FIRST_S`` at most, and said the same way. No traceback.
It gave up after five tries, some 9 s, and said neither how long it had tried nor how to come back."""

from __future__ import annotations

import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.server.test_terminal import Tmux, _wait
from tests.serverkit import free_port, start, stop

ANNALS = Path(sys.executable).parent / "annals"  # this checkout's, whatever else is on the PATH
QUESTION = "Commit: place cards face-down"  # MORANA's first question to the seat [MOR-12]


def _answer(t: Tmux) -> None:
    """The first answer, confirmed if it asks (sealing the Commit cannot be taken back)."""
    t.keys("1", "Enter")
    time.sleep(0.5)
    if "Sure?" in t.last_line():
        t.keys("y", "Enter")


@pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux (.ci/run installs it)")
def test_a_server_back_in_time_is_reached_again_and_one_that_stays_away_is_given_up_on_by_name_MOR_12(
    tmp_path: Path,
) -> None:
    running = start(tmp_path)
    table = running.table("morana", ["clash", "glory"], ["human", "heuristic"])
    url, token = f"{running.base}/play/{table['table']}", table["tokens"][0]
    t = Tmux(f"{ANNALS} join {url} --token {token} --reconnect-for 15; echo EXIT=$?; sleep 60")
    try:
        _wait(t, QUESTION)
        stop(running)  # the organiser restarts the server while the person thinks at the prompt
        _wait(t, f"lost the connection to the table at {url} (the server is stopping or restarting)", timeout=5)
        _wait(t, "trying again for up to 15 s (Ctrl-C stops)")  # said at once, no answer typed: the prompt ended
        running = start(tmp_path, running.port)  # back within 15 s: the same seat, the same question
        _wait(t, f"reached the table at {url} again", timeout=20)
        _wait(t, QUESTION, after=f"{url} again")
        _answer(t)  # answered as ever, once back
        stop(running)  # and now it stays away
        began = time.monotonic()
        screen = _wait(t, "EXIT=", timeout=40)
        waited = time.monotonic() - began
    finally:
        t.close()
    said = " ".join(screen.rpartition(f"reached the table at {url} again")[2].split())
    assert f"gave up reaching the table at {url} after 15 s" in said, screen
    assert "EXIT=1" in said and "Traceback" not in screen
    assert 14 < waited < 30, waited  # the 15 s it said, not 9 s nor for ever
    printed = re.findall(r"join again with: (annals join \S+ --token \S+)", said)
    assert printed == [f"annals join {url} --token {token}"], said

    running = start(tmp_path, running.port)  # the server back: the printed command takes the seat again
    t = Tmux(f"{ANNALS} {printed[0].removeprefix('annals ')}; echo EXIT=$?; sleep 60")
    try:
        _wait(t, QUESTION)
    finally:
        t.close()
        stop(running)


@pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux (.ci/run installs it)")
def test_a_server_gone_silent_while_the_person_thinks_is_found_by_keepalive_within_half_a_minute_MOR_12(
    tmp_path: Path,
) -> None:
    """A server that stops answering without closing anything (frozen here with SIGSTOP, as a dropped wifi or a
    sleeping laptop leaves the socket open) is found by the socket's keepalive pings while the person sits at the
    prompt, and said within half a minute, no key pressed; it was found only at the answer. Back (SIGCONT), the
    seat is reached again at the same question."""
    running = start(tmp_path)
    table = running.table("morana", ["clash", "glory"], ["human", "heuristic"])
    url, token = f"{running.base}/play/{table['table']}", table["tokens"][0]
    t = Tmux(f"{ANNALS} join {url} --token {token}; echo EXIT=$?; sleep 60")
    try:
        _wait(t, QUESTION)
        running.proc.send_signal(signal.SIGSTOP)
        began = time.monotonic()
        _wait(t, f"lost the connection to the table at {url} (the server stopped answering: no reply to a "
                 "keepalive ping in 10 s); trying again for up to 120 s", timeout=35)  # fmt: skip
        found = time.monotonic() - began
        running.proc.send_signal(signal.SIGCONT)
        _wait(t, f"reached the table at {url} again", timeout=40)
        screen = _wait(t, QUESTION, after=f"{url} again")
    finally:
        running.proc.send_signal(signal.SIGCONT)
        t.close()
        stop(running)
    assert found < 30, found  # PING_EVERY_S + PING_WAIT_S + CLOSE_WAIT_S at most
    assert "Traceback" not in screen and "keepalive ping failed" not in screen, screen


@pytest.mark.parametrize(
    ("address", "given", "seconds"),
    [("/play/t3a8?token=seat-token", [], 10), ("/me?token=player-token", ["--reconnect-for", "2"], 2)],
)
def test_an_address_no_server_ever_answered_is_given_up_on_with_the_command_to_try_again(
    address: str, given: list[str], seconds: int
) -> None:
    """A table's address at the default (10 s for an address never reached), an event link at --reconnect-for 2."""
    url = f"http://127.0.0.1:{free_port()}{address}"  # nothing listens there
    began = time.monotonic()
    done = subprocess.run([str(ANNALS), "join", url, *given], capture_output=True, text=True, timeout=60)
    waited = time.monotonic() - began
    assert done.returncode == 1, done
    assert f"trying again for up to {seconds} s (Ctrl-C stops)" in done.stdout, done.stdout
    assert f"join again with: annals join '{url}'" in done.stdout, done.stdout
    where = "the table at " + url.partition("?")[0] if "/play/" in url else "the event at " + url.partition("/me")[0]
    assert done.stderr.startswith(f"error: gave up reaching {where} after {seconds} s (connection refused)"), done
    assert "Traceback" not in done.stderr and seconds - 1 < waited < seconds + 15, waited
