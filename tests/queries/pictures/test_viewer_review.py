"""The decision review in the replay page's data (``queries.pictures.reviewgraph``): what each view gets, that a
player's page holds no card the other player's review names and it could not see, the words, a stale review, and
``annals view --review/--no-review``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from annals.cli.main import app
from annals.engine.registry import get_ruleset
from annals.queries.pictures.reviewgraph import StaleReviewError, saved_review
from annals.queries.pictures.viewer import viewer_data, viewer_html
from annals.schemas.logfile import GameLog, read_log
from annals.schemas.review import DecisionReview, ReviewFile, Thresholds, read_review, review_path, write_review
from tests.queries.pictures.test_viewer_words import RAW, texts

runner = CliRunner()
MARKED = {"inaccuracy", "mistake", "blunder"}


def the_review(reviewed: tuple[Path, GameLog]) -> ReviewFile:
    return read_review(review_path(reviewed[0]))


def test_each_view_gets_the_seats_it_may_see(reviewed: tuple[Path, GameLog]) -> None:
    """Omniscient: both seats' reviews, the graph the first player's chance; a player: its own only, the graph its
    own chance; the spectators: none, and a sentence saying why."""
    _, log = reviewed
    review = the_review(reviewed)
    assert {r.seat for r in review.decisions} == {0, 1}
    assert {r.seat for r in review.decisions if r.verdict in MARKED} == {0, 1}  # marks of both seats to hide
    whole = viewer_data(log, "omniscient", review=review).review
    assert whole is not None and whole.seat == 0
    assert [(p.at, p.seat, p.verdict) for p in whole.points] == [(r.at, r.seat, r.verdict) for r in review.decisions]
    for p, r in zip(whole.points, review.decisions, strict=True):  # the first player's chance, whoever decided
        assert p.chance == pytest.approx(r.chance_before if r.seat == 0 else 1 - r.chance_before)
        assert r.made in p.line and (r.verdict not in MARKED or r.best in p.line)
    for seat in (0, 1):
        mine = viewer_data(log, f"player{seat}", review=review).review
        assert mine is not None and mine.seat == seat
        own = [r for r in review.decisions if r.seat == seat]
        assert [(p.at, p.seat, p.chance) for p in mine.points] == [(r.at, seat, r.chance_before) for r in own]
    spectators = viewer_data(log, "spectator", review=review).review
    assert spectators is not None and spectators.points == [] and "not in the spectators' page" in spectators.said
    assert viewer_data(log, "omniscient").review is None  # no review given, none shown


def test_a_players_page_holds_no_card_the_other_players_review_names(reviewed: tuple[Path, GameLog]) -> None:
    """[issue 32] A seat's review names cards of its hand: the other player's page and the spectators' hold none of
    the names that view could not see, nor any line of that seat's review; the seat's own page holds them."""
    _, log = reviewed
    review = the_review(reviewed)
    whole = viewer_data(log, "omniscient", review=review).review
    assert whole is not None
    pool = sorted({c.name for c in get_ruleset("morana").cards().values()}, key=len, reverse=True)

    def names(text: str) -> set[str]:
        return {n for n in pool if re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", text)}

    checked = 0
    for seat, view in ((0, "player1"), (1, "player0"), (0, "spectator"), (1, "spectator")):
        said = " ".join(f"{r.made} {r.best}" for r in review.decisions if r.seat == seat)
        hidden = names(said) - names(viewer_html(log, view))  # named by the seat, never shown to the view
        page = viewer_html(log, view, review=review)
        assert not names(page) & hidden, f"{view} holds seat {seat}'s {sorted(names(page) & hidden)}"
        assert not [p.line for p in whole.points if p.seat == seat and p.line in page]
        shown = viewer_data(log, view, review=review).review
        assert shown is not None and all(p.seat != seat for p in shown.points)
        assert hidden <= names(viewer_html(log, f"player{seat}", review=review))  # the seat's own page has them
        checked += len(hidden)
    assert checked, "no review names a card another view does not see: the test would prove nothing"


def test_review_texts_hold_no_raw_token(reviewed: tuple[Path, GameLog]) -> None:
    """[DESIGN 14] The graph's sentence, each decision's line and the legend's new entries pass the token scan."""
    _, log = reviewed
    review = the_review(reviewed)
    for view in ("omniscient", "player0", "player1", "spectator"):
        d = viewer_data(log, view, review=review)
        found = [f"{where}: {m.group(0)!r} in {text!r}" for where, text in texts(d) for p in RAW.values()
                 if (m := p.search(text))]  # fmt: skip
        assert not found, found[:10]
    d = viewer_data(log, "omniscient", review=review)
    assert d.review is not None
    lines = [text for where, text in texts(d) if where.startswith("review")]
    assert len(lines) == len(review.decisions) + 1  # the scan read them
    assert any(s.startswith("mark:blunder") for s, _ in d.legend) and any(s == "mark:graph p0" for s, _ in d.legend)


def test_a_stale_review_is_not_shown(reviewed: tuple[Path, GameLog], tmp_path: Path) -> None:
    path, log = reviewed
    review = the_review(reviewed)
    assert saved_review(path, log.header.game_id, log.digest) == review
    copy = tmp_path / path.name
    copy.write_bytes(path.read_bytes())
    write_review(copy, ReviewFile(**{**{f: getattr(review, f) for f in review.__struct_fields__}, "digest": "0" * 64}))
    with pytest.raises(StaleReviewError, match="the log before it changed"):
        saved_review(copy, log.header.game_id, log.digest)
    result = runner.invoke(app, ["view", str(copy), "--view", "omniscient", "--output", str(tmp_path / "a.html")])
    assert result.exit_code == 0, result.output
    assert "the page has no review" in result.output
    assert '"review":null' in (tmp_path / "a.html").read_text()


def test_view_review_options(reviewed: tuple[Path, GameLog], tmp_path: Path) -> None:
    """A saved review is shown by default; --no-review leaves it out; --review makes and saves one where none is."""
    path, log = reviewed
    html = tmp_path / "saved.html"
    assert runner.invoke(app, ["view", str(path), "--view", "omniscient", "-o", str(html)]).exit_code == 0
    assert '"points":[{' in html.read_text()
    bare = tmp_path / "bare.html"
    assert (
        runner.invoke(app, ["view", str(path), "--view", "omniscient", "-o", str(bare), "--no-review"]).exit_code == 0
    )
    assert '"review":null' in bare.read_text()
    fresh = tmp_path / path.name
    fresh.write_bytes(path.read_bytes())
    made = tmp_path / "made.html"
    result = runner.invoke(
        app, ["view", str(fresh), "--view", "player0", "-o", str(made), "--review", "--iterations", "3"]
    )
    assert result.exit_code == 0, result.output
    assert "review of" in result.output and review_path(fresh).is_file()
    again = read_review(review_path(fresh))
    assert again.iterations == 3 and again.digest == log.digest and {r.seat for r in again.decisions} == {0, 1}
    assert '"points":[{' in made.read_text()


def test_a_miras9_review_file_is_drawn_too(picture_logs: dict[str, list[Path]], tmp_path: Path) -> None:
    """The page reads the review file, whatever the ruleset: --review makes and saves a Miras 9 review (its search
    bot), and a Miras 9 review file (hand-made here, to know each line) is shown per seat as a MORANA one."""
    path = tmp_path / picture_logs["miras9"][0].name
    path.write_bytes(picture_logs["miras9"][0].read_bytes())
    log = read_log(path)
    result = runner.invoke(app, ["view", str(path), "-o", str(tmp_path / "a.html"), "--review", "--iterations", "2"])
    assert result.exit_code == 0, result.output
    assert "the page has no review" not in result.output and review_path(path).exists()
    made = saved_review(path, log.header.game_id, log.digest)
    assert made is not None and made.ruleset == "miras9" and made.decisions
    asked = [d for d in log.decisions if len(d.offered) > 1][:8]
    rated = [DecisionReview(d.n, d.at, 1, d.player, d.point, 0.6, 0.3, 0.6, f"Choice {d.n}", f"Better {d.n}", 0.3,
                            "blunder") for d in asked]  # fmt: skip
    assert {d.player for d in asked} == {0, 1}
    write_review(path, ReviewFile(log.header.game_id, log.digest, "miras9", 5, Thresholds(), [0, 1], rated))
    review = saved_review(path, log.header.game_id, log.digest)
    assert review is not None
    for seat in (0, 1):
        shown = viewer_data(log, f"player{seat}", review=review).review
        assert shown is not None
        assert [p.at for p in shown.points] == sorted(r.at for r in rated if r.seat == seat)
        mine = [r for r in rated if r.seat == seat]
        assert all(f"Better {r.decision}" in p.line for p, r in zip(shown.points, mine, strict=True))


def test_a_review_of_one_seat_leaves_the_other_players_page_without_a_graph(reviewed: tuple[Path, GameLog]) -> None:
    _, log = reviewed
    review = the_review(reviewed)
    only = ReviewFile(log.header.game_id, log.digest, "morana", review.iterations, review.thresholds, [0],
                      [r for r in review.decisions if r.seat == 0])  # fmt: skip
    mine = viewer_data(log, "player0", review=only).review
    theirs = viewer_data(log, "player1", review=only).review
    assert mine is not None and mine.points and theirs is not None and theirs.points == []
    name = log.header.players[1].name
    assert theirs.said.startswith(f"This game's decision review rates none of {name}'s decisions: it was made with")


def _of_one_seat(reviewed: tuple[Path, GameLog], seat: int) -> ReviewFile:
    _, log = reviewed
    review = the_review(reviewed)
    return ReviewFile(log.header.game_id, log.digest, "morana", review.iterations, review.thresholds, [seat],
                      [r for r in review.decisions if r.seat == seat])  # fmt: skip


def test_the_omniscient_graph_of_a_review_of_one_seat_is_that_seats_chance(reviewed: tuple[Path, GameLog]) -> None:
    """`annals review --seat 1 --save`: the coach's omniscient page draws the second player's chance (the one
    reviewed), from that player's view, not the first player's chance read upside down from the other's."""
    _, log = reviewed
    only = _of_one_seat(reviewed, 1)
    shown = viewer_data(log, "omniscient", review=only).review
    name = log.header.players[1].name
    assert shown is not None and shown.seat == 1 and shown.points
    assert [p.chance for p in shown.points] == [r.chance_before for r in only.decisions]
    assert shown.said.startswith(f"{name}'s winning chance") and f"from {name}'s own view" in shown.said
    theirs = viewer_data(log, "player0", review=only).review
    assert theirs is not None and "made with --seat 1" in theirs.said
    assert f"`annals review LOG --seat 0 --iterations {only.iterations} --save` adds them" in theirs.said
    # thresholds given otherwise are in the command too: a review at other ones would replace the saved one
    other = ReviewFile(
        **{**{f: getattr(only, f) for f in only.__struct_fields__}, "thresholds": Thresholds(0.05, 0.15)}
    )
    said = viewer_data(log, "player0", review=other).review
    assert said is not None and f"--iterations {only.iterations} --mistake 0.15 --save`" in said.said


def test_view_review_adds_the_seat_a_saved_review_of_the_other_seat_lacks(
    reviewed: tuple[Path, GameLog], tmp_path: Path
) -> None:
    """A review saved of seat 1 only: `annals view --view player0 --review` reviews seat 0 at the saved budget and
    adds it to the file (seat 1's kept), so the player's page has its graph; before, it said "rates none"."""
    path, _ = reviewed
    fresh = tmp_path / path.name
    fresh.write_bytes(path.read_bytes())
    only = _of_one_seat(reviewed, 1)
    write_review(fresh, only)
    html = tmp_path / "p0.html"
    result = runner.invoke(app, ["view", str(fresh), "--view", "player0", "-o", str(html), "--review"])
    assert result.exit_code == 0, result.output
    assert "review of seat 0's" in result.output and "added to" in result.output
    both = read_review(review_path(fresh))
    assert both.seats == [0, 1] and both.iterations == only.iterations
    assert [r for r in both.decisions if r.seat == 1] == only.decisions  # the other seat's kept as it was
    assert any(r.seat == 0 for r in both.decisions) and '"points":[{' in html.read_text()
