"""No forced clicks (ruling R-CORE-8): a seat that asks for it is never put a question with one answer; the table
answers those, marks them automatic in the log, and the opponent's view of the game does not tell a hidden
automatic pass from a pass made by hand."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from annals.engine.replay import rerun
from annals.engine.views import view_log
from annals.schemas.logfile import read_log
from tests.serverkit import Running, play_seat, recv, server

PREFERRED = ("AddAttacker", "Confirm", "DeclareAt", "PlayCard", "CardFlow", "Generate", "PickSite", "Mulligan")


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    with server(tmp_path_factory.mktemp("forced")) as s:
        yield s


def _play(
    running: Running, ruleset: str, decks: list[str], settings: dict[str, object] | None, turns: int = 8
) -> tuple[list[Any], Path]:
    table = running.table(ruleset, decks, ["human", "heuristic"], clock=600, cover_ms=20, max_turns=turns)
    query = ""
    if settings is not None:  # in the address, so that they hold from the first question
        query = "&" + "&".join(
            f"{k}={','.join(v) if isinstance(v, list) else int(bool(v))}" for k, v in settings.items()
        )
    with running.socket(table["table"], table["tokens"][0], query) as ws:
        got = play_seat(ws, 3, timeout=60)
    return got, Path(running.wait_over(table["table"])["log"])


@pytest.mark.parametrize(("ruleset", "decks"), [("miras9", ["vanguard", "tempest"]), ("morana", ["clash", "glory"])])
def test_a_seat_that_asks_is_never_put_a_question_with_one_answer(running: Running, ruleset: str,
                                                                   decks: list[str]) -> None:  # fmt: skip
    got, log = _play(running, ruleset, decks, {"automatic": True, "auto_pass": True})
    asked = [m for m in got if m["type"] == "decide" and m["player"] == 0]
    assert asked and all(len(m["options"]) > 1 for m in asked)
    game = read_log(log)
    automatic = [d for d in game.decisions if d.automatic]
    assert automatic and all(d.player == 0 and len(d.offered) == 1 for d in automatic)
    assert rerun(game).ok
    # the opponent's and the spectators' views keep no mark: an automatic pass reads as any other decision
    for viewer in (1, -1):
        assert not any(d.automatic for d in view_log(game, viewer).decisions)
    assert any(d.automatic for d in view_log(game, 0).decisions)


def test_a_log_with_automatic_answers_is_ingested(running: Running, tmp_path: Path) -> None:
    """A decision's seventh value (the automatic mark) is read by ingest like the six before it."""
    import duckdb
    from typer.testing import CliRunner

    from annals.cli.main import app

    _, log = _play(running, "morana", ["clash", "glory"], {"automatic": True, "auto_pass": True})
    db = tmp_path / "a.duckdb"
    done = CliRunner().invoke(app, ["ingest", str(log), "--db", str(db)])
    assert done.exit_code == 0, done.output
    with duckdb.connect(str(db), read_only=True) as con:
        (count,) = con.execute("select count(*) from decisions").fetchone() or (0,)
    assert count == len(read_log(log).decisions)


def test_a_seat_that_does_not_ask_is_asked_everything(running: Running) -> None:
    """A program of before protocol 3 sends no settings: every question reaches it, lone ones too, and the log
    holds no automatic decision (its decisions are written as six values, as before)."""
    got, log = _play(running, "morana", ["clash", "glory"], None)
    asked = [m for m in got if m["type"] == "decide" and m["player"] == 0]
    assert any(len(m["options"]) == 1 for m in asked)
    assert not any(d.automatic for d in read_log(log).decisions)


def test_a_lone_pass_forced_by_the_hand_needs_its_own_setting(running: Running) -> None:
    """``automatic`` alone answers what anyone can see is lone; a Commit whose only answer is to seal is forced by
    the hand's hidden costs, so it is still asked without ``auto_pass``."""
    got, _ = _play(running, "morana", ["clash", "glory"], {"automatic": True})
    lone = [m for m in got if m["type"] == "decide" and m["player"] == 0 and len(m["options"]) == 1]
    assert lone and all(m["point"] == "commit" for m in lone)
    assert all(m["options"][0]["confirm"] is False for m in lone)  # nothing else to do: no confirmation


def test_a_stop_keeps_the_question(running: Running) -> None:
    """[M9-114] With the stop ``my_attack``, the reaction windows of the seat's own attack are asked even when
    the only answer is to pass, and the question says which stop kept it."""
    table = running.table("miras9", ["vanguard", "tempest"], ["human", "heuristic"], cover_ms=20, max_turns=12)
    got: list[Any] = []
    with running.socket(table["table"], table["tokens"][0], "&automatic=1&auto_pass=1&stops=my_attack") as ws:
        while (message := recv(ws, 60))["type"] != "close":  # an aggressive player: it attacks whenever it can
            got.append(message)
            if message["type"] == "decide" and message["player"] == 0:
                kinds = [o["kind"] for o in message["options"]]
                best = (
                    len(kinds) - 1
                    if kinds[0] == "Generate"
                    else next((kinds.index(k) for k in PREFERRED if k in kinds), 0)
                )
                ws.send(json.dumps({"type": "answer", "choose": best, "decision": message["decision"]}))
    log = Path(running.wait_over(table["table"])["log"])
    kept = [m for m in got if m["type"] == "decide" and m["player"] == 0 and len(m["options"]) == 1]
    assert any(type(e).__name__ == "WaveDeclared" and e.player == 0 for e in read_log(log).events)
    assert kept and all(m["stop"] == "my_attack" and m["point"] == "priority" for m in kept)


def test_the_finished_replay_shows_each_seat_its_own_review(running: Running) -> None:
    """[issue 32] A review saved beside a finished table's log (``annals review LOG --save``) is in the replay each
    seat's token opens: that seat's own decisions only, never the other seat's (its words name that seat's hand)."""
    import urllib.request

    from annals.schemas.review import DecisionReview, ReviewFile, Thresholds, write_review

    table = running.table("morana", ["clash", "glory"], ["human", "human"], cover_ms=20)
    ids, tokens = table["table"], table["tokens"]
    with running.socket(ids, tokens[0]) as ws:
        ws.send(json.dumps({"type": "concede"}))
        path = Path(running.wait_over(ids)["log"])
    log = read_log(path)
    said = ["Commit Seatzero Secret at Site 1", "Commit Seatone Secret at Site 2"]
    decisions = [DecisionReview(s, 0, 1, s, "commit", 0.5, 0.2, 0.5, said[s], "Seal the Commit", 0.3, "blunder")
                 for s in (0, 1)]  # fmt: skip
    write_review(path, ReviewFile(log.header.game_id, log.digest, "morana", 5, Thresholds(), [0, 1], decisions))
    for seat, token in enumerate(tokens):
        with urllib.request.urlopen(f"{running.base}/replay/{ids}?token={token}", timeout=10) as response:
            page = response.read().decode()
        assert said[seat] in page and said[1 - seat] not in page


def test_the_table_finished_offers_its_replay_its_words_and_a_rematch(running: Running) -> None:
    """Once over, a seat's token opens the replay of its own view, the game in words, and a rematch (the same
    table again, a token for each seat that asks, once); before the end, none of them; another token, nothing."""
    import urllib.error
    import urllib.request

    table = running.table("morana", ["clash", "glory"], ["human", "human"], cover_ms=20)
    ids, (mine, theirs) = table["table"], table["tokens"]
    early = running.api(f"/api/rematch/{ids}?token={mine}", {})
    assert early[0] == 409 and "not over" in early[1]["error"]
    with running.socket(ids, mine) as ws:
        ws.send(json.dumps({"type": "concede"}))
        running.wait_over(ids)

    def get(path: str) -> tuple[int, str]:
        try:
            with urllib.request.urlopen(running.base + path, timeout=10) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as exc:
            return exc.code, ""

    status, story = get(f"/log/{ids}?token={theirs}")
    assert status == 200 and story.splitlines()[-1].startswith("Result: ") and "concede" in story
    status, page = get(f"/replay/{ids}?token={mine}")
    assert status == 200 and "player0" in page
    assert get(f"/log/{ids}?token=nonsense")[0] == 403
    first = running.api(f"/api/rematch/{ids}?token={mine}", {})
    second = running.api(f"/api/rematch/{ids}?token={theirs}", {})
    assert first[0] == second[0] == 201 and first[1]["table"] == second[1]["table"]
    assert first[1]["token"] != second[1]["token"]
    again = running.api(f"/api/rematch/{ids}?token={mine}", {})
    assert again[0] == 409
    with running.socket(first[1]["table"], second[1]["token"]) as ws:
        assert recv(ws)["seat"] == 1  # the rematch's seat 1 is the seat that was 1
