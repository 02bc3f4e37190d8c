"""``annals simulate --spark MASTER``: the seed range cut into tasks, each playing its games into one archive.

A task is a range of game indices; it derives its headers itself (``engine.simulate.game_headers``, a pure
function of the index), plays them (``engine.shards.play_task``) and returns its counts and each game's id and
digest, so the games are those of a local run with the same seeds, byte for byte. Each attempt writes its archive
as ``NAME.partial-ATTEMPT`` and renames it to ``NAME`` when whole: a task killed and retried by Spark leaves one
archive, the same bytes; the driver then removes what killed attempts left behind. The output folder must be one
every executor can write (a local folder in local mode, a shared file system on a cluster).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, NamedTuple

from annals.engine.shards import Task, play_task
from annals.engine.simulate import game_headers
from annals.schemas.archive import file_of
from annals.spark import require
from annals.spark.session import collect, session

DEFAULT_TASK_GAMES = 500  # games per archive when --shard-size is not given


class SparkSimulation(NamedTuple):
    """What the tasks returned, in game order: each game's (id, digest, archive), each archive's name."""

    games: int
    events: int
    decisions: int
    shards: list[str]
    played: list[tuple[str, str, str]]


def _task(
    params: dict[str, Any], start: int, end: int, kill_first_attempt: bool
) -> list[tuple[str, str, str, int, int]]:
    """Play games ``start`` .. ``end - 1`` (on an executor) into one archive; a row per game."""
    from pyspark import TaskContext

    headers = game_headers(
        params["ruleset"], end, params["seed"], params["decks"], params["bots"], max_turns=params["max_turns"],
        event=params["event"], start=start,
    )  # fmt: skip
    context = TaskContext.get()
    attempt = context.attemptNumber() if context is not None else 0
    task = Task(params["ruleset"], headers, params["out"], True)
    if kill_first_attempt and attempt == 0:  # tests: an attempt that dies with half an archive written
        play_task(task, partial=f".partial-{attempt}", rename=False, limit=max(1, len(headers) // 2))
        os._exit(1)
    results = play_task(task, partial=f".partial-{attempt}")
    return [(r.game_id, r.digest, r.path, r.events, r.decisions) for r in results]


def simulate_on_spark(
    master: str,
    ruleset: str,
    games: int,
    seed: int,
    decks: list[str] | None,
    bots: list[str],
    out_dir: Path,
    *,
    max_turns: int | None = None,
    event: str = "",
    shard_size: int = 0,
    kill_first_attempt: bool = False,
) -> SparkSimulation:
    """Play ``games`` games on Spark as ``engine.simulate.simulate`` would (game i: seed ``seed + i``), writing
    archives of ``shard_size`` games (default ``DEFAULT_TASK_GAMES``) into ``out_dir``; one Spark task each.

    ``kill_first_attempt``: every task's first attempt dies after writing part of its archive (for the tests of
    retries; needs a master that retries, such as ``local[2,2]``)."""
    require()
    game_headers(ruleset, min(games, 1), seed, decks, bots, max_turns=max_turns, event=event)  # names checked here
    out_dir.mkdir(parents=True, exist_ok=True)
    size = shard_size if shard_size > 0 else DEFAULT_TASK_GAMES
    ranges = [(i, min(i + size, games)) for i in range(0, games, size)]
    params = {"ruleset": ruleset, "seed": seed, "decks": decks, "bots": bots, "max_turns": max_turns,
              "event": event, "out": os.fspath(out_dir.absolute())}  # fmt: skip
    spark = session(master)
    rdd = spark.sparkContext.parallelize(ranges, len(ranges))
    rows = collect(rdd.map(lambda r: _task(params, r[0], r[1], kill_first_attempt)))
    played = [(gid, digest, path) for task in rows for gid, digest, path, _, _ in task]
    shards = list(dict.fromkeys(file_of(path) for _, _, path in played))
    for shard in shards:
        for left in Path(shard).parent.glob(f"{Path(shard).name}.partial*"):  # what killed attempts left behind
            left.unlink()
    return SparkSimulation(
        len(played), sum(r[3] for t in rows for r in t), sum(r[4] for t in rows for r in t), shards, played
    )
