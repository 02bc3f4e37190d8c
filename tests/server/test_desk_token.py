"""The organiser's desk link outlives a restart of ``annals serve --event``: its token is kept in the event's folder
(``desk.token``, owner-only, beside the record and not part of it, never served), made at the first start; deleting
the file revokes the link. It changed at every start unless ``ANNALS_ORGANISER_TOKEN`` was set, and the organiser's
bookmarked desk died with a restart mid-event."""

from __future__ import annotations

import re
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from typer.testing import CliRunner

from annals.cli.main import app
from annals.engine.tournament import event as lib
from annals.engine.tournament import rounds as loop
from annals.engine.tournament.record import EventError
from annals.engine.tournament.store import EventStore
from annals.engine.tournament.verify import verify_event
from annals.server.event_desk import desk_token
from tests.eventkit import call
from tests.serverkit import start, stop

runner = CliRunner()


def _event(folder: Path) -> EventStore:
    made = runner.invoke(app, ["event", "new", str(folder), "--ruleset", "miras9", "--rounds", "1", "--seed", "5"])
    assert made.exit_code == 0, made.output
    store = EventStore.open(folder)
    lib.fill_with_bots(store, 4)
    loop.pair_next(store)
    return store


def test_the_desk_link_outlives_a_restart_and_deleting_the_file_revokes_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("ANNALS_ORGANISER_TOKEN", raising=False)
    store = _event(tmp_path / "club")
    data = tmp_path / "data"
    tokens = []
    for _ in range(2):
        running = start(data, None, "--event", str(store.folder))
        kept = (store.folder / "desk.token").read_text().strip()
        assert call(running, "/api/desk", token=kept)[0] == 200
        with pytest.raises(urllib.error.HTTPError) as refused:  # not served, whatever the path
            urllib.request.urlopen(f"{running.base}/desk.token", timeout=10)
        assert refused.value.code == 404
        printed = re.search(r"desk \(organiser\): \S+/desk\?token=(\S+)", stop(running))
        assert printed is not None and printed.group(1) == kept
        tokens.append(kept)
    assert tokens[0] == tokens[1], "the same desk link after a restart"
    assert (store.folder / "desk.token").stat().st_mode & 0o777 == 0o600
    problems = verify_event(store.folder).problems  # the games the server opened have no result yet: named
    assert problems and not [p for p in problems if "desk.token" in p.path], problems  # beside it, not added to it
    (store.folder / "desk.token").unlink()  # revoked: the next start makes a new link, the old one is refused
    running = start(data, None, "--event", str(store.folder))
    try:
        assert call(running, "/api/desk", token=tokens[0])[0] == 401
        assert (store.folder / "desk.token").read_text().strip() != tokens[0]
    finally:
        stop(running)


def test_a_desk_token_file_others_may_read_or_without_a_token_is_refused_by_name(tmp_path: Path) -> None:
    first = desk_token(tmp_path)
    assert desk_token(tmp_path) == first
    path = tmp_path / "desk.token"
    path.chmod(0o644)
    with pytest.raises(EventError, match=r"desk.token may be read by others \(mode 644\).*chmod 600"):
        desk_token(tmp_path)
    path.write_text("\n")
    path.chmod(0o600)
    with pytest.raises(EventError, match="holds no desk token; delete it"):
        desk_token(tmp_path)
