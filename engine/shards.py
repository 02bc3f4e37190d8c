"""Simulations on every core and into archives: a slice of a simulation's games played as one task.

A simulated game is a pure function of its header (``engine.simulate.game_headers``: seed, decks, bots and
tournament metadata from the game's index), so the games can be split into tasks played anywhere, in any order,
and still be the same games, byte for byte. A task is a run of consecutive games written as one log per game, or
as one archive (``schemas.archive``, ``--shard-size``) named by its seed range. Local processes play the tasks here
(``play_parallel``); Spark executors play them through ``play_task`` (``annals.spark.simulate``).
"""

from __future__ import annotations

import multiprocessing
import os
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

import msgspec

from annals.engine.botgames import log_name, play_one
from annals.engine.registry import engine_registrations, register_ruleset, ruleset_for
from annals.engine.runner import GameResult
from annals.schemas.archive import ArchiveWriter, ref
from annals.schemas.errors import BadArgumentError
from annals.schemas.header import LogHeader
from annals.schemas.rulesets import register_schema, registrations


class ShardOptionError(BadArgumentError):
    """Archives asked for without a folder to write them to."""


class Task(NamedTuple):
    """Games to play as one unit: the headers in game order, and the folder their log files or archive go to."""

    ruleset: str
    headers: list[LogHeader]
    out_dir: str | None
    shard: bool


def shard_name(headers: list[LogHeader]) -> str:
    """``RULESET-FIRSTSEED-LASTSEED.shard``: an archive named by the seeds it holds (so names sort by them, and a
    task played again writes the same name)."""
    first, last = headers[0], headers[-1]
    return f"{first.ruleset}-{first.seed:08d}-{last.seed:08d}.shard"


def play_task(
    task: Task, *, partial: str = ".partial", rename: bool = True, limit: int | None = None
) -> list[GameResult]:
    """Play a task's games in order and write them; each result's ``path`` names its log (``ARCHIVE#GAME_ID`` in an
    archive). An archive is written to ``NAME`` + ``partial`` and renamed when whole (``ArchiveWriter``);
    ``rename`` False leaves it there without its index, as a writer that died would, and ``limit`` plays only the
    first games (both for the tests of retries)."""
    ruleset = ruleset_for(task.headers[0])  # every game of a simulation has the same pool (its header's cards)
    if not task.shard:
        folder = Path(task.out_dir) if task.out_dir is not None else None
        return [play_one(ruleset, h, folder / log_name(h) if folder is not None else None) for h in task.headers]
    if task.out_dir is None:
        raise ShardOptionError("archives (--shard-size) need a folder to write to (--out)")
    path = Path(task.out_dir) / shard_name(task.headers)
    results = []
    archive = ArchiveWriter(path, partial=partial)
    with tempfile.TemporaryDirectory(prefix="annals-shard-") as tmp:
        log = Path(tmp) / "game.log"
        try:
            for header in task.headers[:limit]:
                result = play_one(ruleset, header, log)
                archive.add(header.game_id, log.read_bytes(), result.digest)
                results.append(msgspec.structs.replace(result, path=ref(path, header.game_id)))
        except BaseException:
            archive.abandon()
            raise
    archive.close() if rename else archive.abandon()
    return results


def tasks_for(ruleset: str, headers: list[LogHeader], out_dir: Path | None, jobs: int, shard_size: int) -> list[Task]:
    """The games cut into tasks: one per archive of ``shard_size`` games, else runs of games small enough that
    ``jobs`` processes finish together (eight tasks a process)."""
    folder = os.fspath(out_dir) if out_dir is not None else None
    size = shard_size if shard_size > 0 else max(1, -(-len(headers) // (max(1, jobs) * 8)))
    return [Task(ruleset, headers[i : i + size], folder, shard_size > 0) for i in range(0, len(headers), size)]


def _init_worker(rules: dict[str, str], schemas: dict[str, str]) -> None:
    """A spawned process starts from a fresh interpreter: repeat the parent's ruleset registrations."""
    for name, module in schemas.items():
        register_schema(name, module)
    for name, module in rules.items():
        register_ruleset(name, module, schemas[name])


def play_parallel(
    ruleset: str, headers: list[LogHeader], out_dir: Path | None, jobs: int, shard_size: int
) -> Iterator[GameResult]:
    """Play the games in ``jobs`` processes (a ruleset registered at run time is known in each); the results come
    in game order."""
    tasks = tasks_for(ruleset, headers, out_dir, jobs, shard_size)
    workers = min(jobs, len(tasks))
    if workers <= 1:
        for task in tasks:
            yield from play_task(task)
        return
    # fork where there is one (a copy of this process, registrations and all, in milliseconds); else spawn, whose
    # fresh interpreters repeat the registrations (_init_worker)
    ctx = multiprocessing.get_context("fork" if sys.platform == "linux" else "spawn")
    with ctx.Pool(workers, initializer=_init_worker, initargs=(engine_registrations(), registrations())) as pool:
        for results in pool.imap(play_task, tasks):
            yield from results
