"""Decision review (issue 32): every recorded decision rated, from its seat's view, by the search bot.

For each decision with a choice to make, the seat's view is folded up to that moment (``SeatView``: what the seat
could see, never more) and searched (``engine.search``). From the search come the estimated winning chance of the
position (the root's mean over its iterations), after the choice made and after the best choice found (the most
visited; options that read the same, two copies of one card played alike, are one choice). The choice made is
searched further until it has a tenth of the budget's visits (a seldom-tried choice's chance is noise), and where it
then scores above the most visited it is the best. The loss is best minus made; its class follows Chess.com's
expected-points thresholds (``Thresholds``: good below 0.05, inaccuracy below 0.10, mistake below 0.20, blunder from
0.20; the best choice itself, or a choice found as good as it, is "best"). A seat's accuracy is the mean of
Lichess's per-move accuracy, 103.1668 * exp(-0.04354 * loss in percent) - 3.1669, clamped to 0..100. A ruleset is
reviewed by its own search bot (its ``search`` agent: MORANA's and Miras 9's, ``engine.search``). As the bot does
playing, a bot a seat follows the seat's views through the game in order (``observe``), once, before the decisions
are shared among processes: MORANA's learns what the opponent's flipped Commits say of its hand
(``engine.search.morana_belief``), and each decision's search deals its worlds from what it knew then
(``knowledge``, handed to the decision's bot by ``learn_from``), from no more than the seat had seen by then.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, Protocol, cast

from annals.engine.core import DecisionPoint
from annals.engine.names import SEARCH_ITERATIONS as ITERATIONS
from annals.engine.registry import engine_registrations, get_ruleset, ruleset_for
from annals.engine.rng import Rng
from annals.engine.search.ismcts import Node, Search, option_key
from annals.engine.shards import _init_worker
from annals.engine.views import SeatView
from annals.engine.words import Words
from annals.schemas.errors import AnnalsError, BadArgumentError
from annals.schemas.logfile import GameLog
from annals.schemas.review import CLASSES as CLASSES
from annals.schemas.review import DamagedReviewError, ReviewFile, read_review, review_path, write_review
from annals.schemas.review import DecisionReview as DecisionReview
from annals.schemas.review import Thresholds as Thresholds
from annals.schemas.review import accuracy as accuracy
from annals.schemas.review import move_accuracy as move_accuracy
from annals.schemas.rulesets import registrations

SHARES_PER_JOB = 4  # with --jobs, each process's decisions in this many shares, so progress is told as each ends
MADE_VISITS = 20  # the fewest searches of the choice made before its chance is compared with the best's
REVIEW_STREAM = 0x4E71  # the review's search generators derive from the game seed and the decision number


class ReviewError(AnnalsError, ValueError):
    """A game that cannot be reviewed: its ruleset has no search bot."""


class SearchBot(Protocol):
    """What a review asks of a ruleset's search agent: the search of one decision from a view state; to ``observe``
    each view its seat decides from, in order (what MORANA's belief about the opponent's hand learns from), and say
    its ``knowledge`` so far (something small a process can be sent, or None); and to ``learn_from`` that, before a
    decision's search by a bot of its own."""

    def search(self, view: Any, point: DecisionPoint[Any]) -> Search: ...

    def observe(self, view: Any) -> None: ...

    def knowledge(self) -> Any: ...

    def learn_from(self, knowledge: Any) -> None: ...


def search_bot(ruleset_name: str, seat: int, rng: Rng, iterations: int) -> SearchBot:
    """The ruleset's ``search`` agent for ``seat``; ``ReviewError`` for a ruleset that has none."""
    factory = get_ruleset(ruleset_name).agents().get("search")
    if factory is None:
        raise ReviewError(f"annals review needs a search bot, and ruleset {ruleset_name} has none")
    make = cast(Callable[..., SearchBot], factory)  # a search agent takes its budget as ``iterations``
    return make(seat, rng, iterations=iterations)


class ReviewSeatError(BadArgumentError, ValueError):
    """A seat asked for that is not one of the game's."""


Progress = Callable[[int, int], None]  # (decisions reviewed, decisions to review): told as the review goes


def review_game(
    game: GameLog,
    *,
    seats: Iterable[int] = (0, 1),
    iterations: int = ITERATIONS,
    thresholds: Thresholds = Thresholds(),
    jobs: int = 1,
    on_progress: Progress | None = None,
) -> list[DecisionReview]:
    """Every decision of ``seats`` with more than one option, reviewed from its seat's view (see the module).
    ``jobs`` > 1: the decisions are shared among that many processes (each folds the views itself); each decision's
    search has its own generator, so the review is the same with any ``jobs``. ``on_progress`` is told the
    decisions done and to do after each one (with ``jobs``, after each share: a few per process)."""
    header = game.header
    search_bot(header.ruleset, 0, Rng(0), 1)  # refused before any work when the ruleset has no search bot
    wanted = set(seats)
    if not wanted <= {0, 1}:
        bad = ", ".join(map(str, sorted(wanted - {0, 1})))
        raise ReviewSeatError(f"--seat {bad} is no seat of this game; seats are 0 and 1 (give --seat 0 or --seat 1)")
    rated = [i for i, d in enumerate(game.decisions) if d.player in wanted and len(d.offered) > 1]
    step = on_progress or (lambda done, total: None)
    step(0, len(rated))
    known = _followed(game, wanted, iterations, set(rated))
    workers = min(max(1, jobs), len(rated))
    if workers <= 1:
        return _review_part(game, wanted, iterations, thresholds, known, step)
    # interleaved shares, each as long as the others, a few per process so that progress is told as they end
    pieces = min(len(rated), workers * SHARES_PER_JOB)
    shares = [set(rated[k::pieces]) for k in range(pieces)]
    ctx = multiprocessing.get_context("fork" if sys.platform == "linux" else "spawn")
    reviews: list[DecisionReview] = []
    done = 0
    with ctx.Pool(workers, initializer=_init_worker, initargs=(engine_registrations(), registrations())) as pool:
        tasks = [(game, wanted, iterations, thresholds, {i: known[i] for i in share}) for share in shares]
        for size, part in pool.imap_unordered(_review_share, tasks):
            reviews += part
            done += size
            step(done, len(rated))
    return sorted(reviews, key=lambda r: r.decision)


def _followed(game: GameLog, wanted: set[int], iterations: int, rated: set[int]) -> dict[int, Any]:
    """What each seat's bot knew at each decision of ``rated`` (its ``knowledge``), having observed the seat's views
    of the game in order up to it, as it would playing it."""
    header = game.header
    ruleset = ruleset_for(header)
    views = {seat: SeatView(ruleset, header, seat) for seat in wanted}
    bots = {seat: search_bot(header.ruleset, seat, Rng(header.seed ^ REVIEW_STREAM).fork(seat), iterations)
            for seat in wanted}  # fmt: skip
    known: dict[int, Any] = {}
    fed = 0
    for index, decision in enumerate(game.decisions[: max(rated, default=-1) + 1]):
        if decision.player not in wanted:
            continue
        for event in game.events[fed : decision.at]:
            for view in views.values():
                view.feed(event)
        fed = max(fed, decision.at)
        bots[decision.player].observe(views[decision.player].state)
        if index in rated:
            known[index] = bots[decision.player].knowledge()
    return known


def _review_share(task: tuple[GameLog, set[int], int, Thresholds, dict[int, Any]]) -> tuple[int, list[DecisionReview]]:
    """One process's share (``imap_unordered`` passes one argument): its size and its reviews."""
    game, wanted, iterations, thresholds, share = task
    return len(share), _review_part(game, wanted, iterations, thresholds, share)


def _review_part(
    game: GameLog,
    wanted: set[int],
    iterations: int,
    thresholds: Thresholds,
    share: dict[int, Any],
    step: Progress | None = None,
) -> list[DecisionReview]:
    """The reviews of the decisions at the indexes of ``share`` (of ``wanted``'s seats; each with what its seat's bot
    knew then: ``_followed``), the views folded up to each; ``step`` told the decisions done after each."""
    header = game.header
    ruleset = ruleset_for(header)
    views = {seat: SeatView(ruleset, header, seat) for seat in wanted}
    pool = {cid: info.name for cid, info in ruleset.cards().items()}
    players = [p.name for p in header.players]
    fed = 0
    out_of = len(share)  # decisions still to review
    out: list[DecisionReview] = []
    for index, decision in enumerate(game.decisions):
        if index not in share:
            continue
        if step is not None and out_of:
            step(len(share) - out_of, len(share))
        out_of -= 1
        for event in game.events[fed : decision.at]:
            for view in views.values():
                view.feed(event)
        fed = max(fed, decision.at)
        view = views[decision.player]
        point: DecisionPoint[Any] = DecisionPoint(decision.player, decision.point, decision.offered)
        rng = Rng(header.seed ^ REVIEW_STREAM).fork(decision.n)
        bot = search_bot(header.ruleset, decision.player, rng, iterations)
        bot.learn_from(share[index])
        search = bot.search(view.state, point)
        words = Words(header.ruleset, _namer(pool, dict(view.known)), players)
        said = {option_key(o): words.option(o, decision.point) for o in decision.offered}
        before = 1.0 - search.root.chance()  # the root counts the other seat's wins; taken before the choice made's
        made = decision.offered[decision.chosen]  # further searches, which would pull it towards that choice
        made_said = said[option_key(made)]
        ranked = _choices(search.root.children, said)
        if not ranked:
            continue
        best_said = ranked[0][0]  # the most visited, chosen before the choice made is searched further
        _sample_made(search, [o for o in decision.offered if said[option_key(o)] == made_said], iterations)
        choices = dict(_choices(search.root.children, said))
        best_visits, best_wins = choices[best_said]
        chance_best = best_wins / best_visits
        visits, wins = choices.get(made_said, (0, 0.0))
        chance_made = wins / visits if visits else 0.0
        if chance_made > chance_best:  # the choice made, searched enough, did better than the most visited
            best_said, chance_best = made_said, chance_made
        loss = chance_best - chance_made
        best = next(o for o in decision.offered if said[option_key(o)] == best_said)
        out.append(
            DecisionReview(
                decision.n,
                decision.at,
                view.state.turn,
                decision.player,
                decision.point,
                before,
                chance_made,
                chance_best,
                made_said,
                said[option_key(best)],
                loss,
                thresholds.classify(loss, made_said == best_said or loss == 0.0),
            )
        )
    if step is not None:
        step(len(share), len(share))
    return out


def _sample_made(search: Search, made: list[Any], iterations: int) -> None:
    """Search the choice made until it has a fair share of the visits (a tenth of the budget, at least
    ``MADE_VISITS``), as a chess engine reviewing a game searches the move played: a choice the search seldom tried
    has a chance from a handful of playouts, and one lucky playout made it look better than the best (a review once
    said "made 1.00, best 0.00"). ``made``: the option made and those that read the same."""
    wanted = max(MADE_VISITS, iterations // 10)
    keys = {option_key(o) for o in made}  # the option made and any that read the same
    for _ in range(3):  # worlds where the decision is not the seat's are skipped, so a pass may fall short
        visits = sum(node.visits for key, node in search.root.children.items() if key in keys)
        if visits >= wanted:
            return
        search.run(made, wanted - visits)


def _choices(children: dict[str, Node], said: dict[str, str]) -> list[tuple[str, tuple[int, float]]]:
    """The root's children as the seat's choices, most visited first: options that read the same (two copies of one
    card committed to one Site) are one choice, their visits and wins pooled — the search told them apart by
    instance only, and rating one copy against the other would call noise a mistake."""
    pooled: dict[str, tuple[int, float]] = {}
    for key, node in children.items():
        if key in said and node.visits:
            visits, wins = pooled.get(said[key], (0, 0.0))
            pooled[said[key]] = (visits + node.visits, wins + node.wins)
    return sorted(pooled.items(), key=lambda choice: (-choice[1][0], choice[0]))


def _namer(pool: dict[str, str], known: dict[int, str]) -> Callable[[int], str]:
    """A card's printed name as the seat knew it then; one it never saw is "a hidden card"."""
    return lambda instance: pool.get(known.get(instance, ""), "a hidden card")


def write_notes(log: str | os.PathLike[str], reviews: list[DecisionReview], *, least: str = "inaccuracy") -> Path:
    """Each decision classed ``least`` or worse, as a note at its coordinate in the log's notes file (the log is
    never changed). A note names the seat's own options, which can be cards only it saw: it is shown in that seat's
    view and the omniscient one only."""
    from annals.queries.pictures.annotations import annotate, notes_path

    bar = CLASSES.index(least)
    for r in reviews:
        if CLASSES.index(r.verdict) >= bar:
            text = (
                f"review: {r.verdict} by p{r.seat} (winning chance {r.chance_made:.2f}, best {r.chance_best:.2f}): "
                f"{r.made}; better: {r.best}"
            )
            annotate(log, r.coordinate, text, author="annals review", views=["omniscient", f"player{r.seat}"])
    return notes_path(log)


def save_review(
    log: str | os.PathLike[str],
    game: GameLog,
    reviews: list[DecisionReview],
    *,
    seats: Iterable[int],
    iterations: int,
    thresholds: Thresholds,
) -> Path:
    """The review written beside ``log`` as ``LOG.review.json`` (``schemas.review``), with the log's game id and
    digest and the review's parameters, for ``annals ingest`` to load into ``decision_reviews``. The log is never
    changed. A review of one seat keeps the other seat's saved beside it when that one is of the same log, budget
    and thresholds (a coach reviews ``--seat 1``, then ``--seat 0``: the file ends with both); otherwise it
    replaces it."""
    reviewed = set(seats)
    kept = [r for r in merged_with(log, game, iterations, thresholds) if r.seat not in reviewed]
    doc = ReviewFile(
        game.header.game_id,
        game.digest,
        game.header.ruleset,
        iterations,
        thresholds,
        sorted(reviewed | {r.seat for r in kept}),
        sorted([*kept, *reviews], key=lambda r: r.decision),
    )
    return write_review(log, doc)


def merged_with(
    log: str | os.PathLike[str], game: GameLog, iterations: int, thresholds: Thresholds
) -> list[DecisionReview]:
    """The decisions of the review saved beside ``log`` that a new review of this game at this budget and these
    thresholds may be merged with; none when there is no such file, or it is damaged, stale or made otherwise."""
    try:
        saved = read_review(review_path(log))
    except (DamagedReviewError, OSError):
        return []
    same = (saved.game_id, saved.digest, saved.iterations, saved.thresholds)
    return saved.decisions if same == (game.header.game_id, game.digest, iterations, thresholds) else []


def review_logs(paths: Iterable[str | os.PathLike[str]]) -> list[Path]:
    """The logs named, and the ``*.log`` files under the folders named (recursively), sorted, without repeats."""
    found: set[Path] = set()
    for p in paths:
        path = Path(p)
        if path.is_dir():
            found.update(f for f in path.rglob("*.log") if f.is_file())
        else:
            found.add(path)
    return sorted(found)
