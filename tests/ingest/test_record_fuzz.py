"""Fuzz of a log's content: one edit of a record's payload with every CRC and the chain recomputed (and, for a
header, its game id derived again or not), so that only the content checks stand.

Over every record kind (header, batch events, batch decisions, closing record) of real games of every ruleset:
``verify`` rejects every edit that changes what the log claims, naming the frame and the field, except the
header's metadata that no re-run can prove (players' names and agents, deck names, tournament, branch: that is
what a signature is for); ``ingest --replay`` (its read, check and flatten stage, on the C path and on the
reference) rejects exactly what verify rejects; plain ingest rejects nothing verify accepts, and every edit of a
closing record that verify rejects. No edit ends in anything but a named error.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from annals.engine.agents import ScriptedAgent
from annals.engine.registry import get_ruleset
from annals.engine.replay import verify_log
from annals.engine.runner import play
from annals.engine.simulate import simulate
from annals.ingest import columnar
from annals.ingest.flatten import Bad, flatten_files
from annals.schemas.errors import AnnalsError, LogError
from annals.schemas.header import LogClose, LogHeader
from annals.schemas.logfile import read_log
from annals.schemas.rulesets import schema_for
from tests.helpers import toy_log
from tests.relog import edit_payload, read_frames

KINDS = ["header", "events", "decisions", "close"]
# (ruleset, decks, max_turns): real games, one stopped by its turn cap
GAMES = [("toy", ["pile", "pile"], 0), ("cardtoy", ["low", "high"], 0), ("miras9", ["bastion", "tempest"], 0),
         ("morana", ["clash", "glory"], 0), ("miras9", ["vanguard", "bastion"], 3)]  # fmt: skip
METADATA = ("players", "tournament", "branched_from")  # header fields no re-run can prove


@pytest.fixture(scope="module")
def base_logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("fuzz")
    logs = {"toy": toy_log(root, seed=3, name="toy.log")[0]}  # recorded live: a frame per decision
    for name, decks, cap in GAMES[1:]:
        folder = root / f"{name}{cap}"
        bots = ["heuristic", "random"] if name in ("miras9", "morana") else ["random", "random"]
        results = list(simulate(name, 3, 5, decks, bots, folder, max_turns=cap or None))
        shortest = min(results, key=lambda r: r.events)
        logs[f"{name}{'-cap' if cap else ''}"] = next(folder.glob(f"*{shortest.game_id}.log"))
    return logs


def _nodes(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The path of every value inside ``value`` (not ``value`` itself)."""
    found: list[tuple[Any, ...]] = []
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, inner in items:
        found.append((*path, key))
        found += _nodes(inner, (*path, key))
    return found


def _get(value: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        value = value[key]
    return value


def _mutations(value: Any) -> st.SearchStrategy[Any]:
    """Another value for a node: a near or far one of its type, or one of another type. ``_DELETE`` removes it."""
    if type(value) is bool:
        return st.sampled_from([not value, int(value), _DELETE])
    if type(value) is int:
        near = [value + 1, value - 1, -1, 0, 2**31, -(2**40), str(value), _DELETE]
        return st.sampled_from([v for v in near if v != value]) | st.integers(-(2**63), 2**64 - 1).filter(
            lambda v: v != value
        )
    if type(value) is str:
        return st.sampled_from([v for v in ["", "x", value + "x", 0, _DELETE] if v != value])
    if type(value) is bytes:
        return st.sampled_from([value + b"\x00", b"" if value else b"\x01", _DELETE])
    if value is None:
        return st.sampled_from([0, "x", {}])
    if isinstance(value, list):
        more = [*value, value[-1]] if value else [0]
        return st.sampled_from([[], more, value[::-1] if len(value) > 1 else 0, _DELETE, 0])
    return st.sampled_from([{}, _DELETE, 0])


_DELETE = object()


def _apply(root: Any, path: tuple[Any, ...], new: Any) -> Any:
    edited = copy.deepcopy(root)
    parent = _get(edited, path[:-1])
    if new is _DELETE:
        del parent[path[-1]]
    else:
        parent[path[-1]] = new
    return edited


def _typed(kind: str, payload: bytes, ruleset: str) -> Any:
    types = {"header": LogHeader, "close": LogClose}
    try:
        return msgspec.msgpack.decode(payload, type=types.get(kind, schema_for(ruleset).batch_type))
    except msgspec.DecodeError:
        return "invalid"


def replays_as_logged(path: Path) -> bool:
    """The oracle: ``engine.runner.play`` with each seat answering from the log's decisions (``ScriptedAgent``)
    writes the same events, decisions and closing record as the log holds."""
    log = read_log(path)
    agents = [ScriptedAgent([d for d in log.decisions if d.player == p]) for p in range(len(log.header.players))]
    again = path.with_name("again.log")
    again.unlink(missing_ok=True)  # the last example's: the folder is the test's, shared by all its examples
    play(get_ruleset(log.header.ruleset), log.header, agents, again)
    other = read_log(again)
    return (other.events, other.decisions, other.close) == (log.events, log.decisions, log.close)


def verify_error(path: Path) -> LogError | None:
    try:
        verify_log(path)
    except LogError as exc:
        return exc
    except AnnalsError as exc:  # named, but without a frame: the assertions below say so
        raise AssertionError(f"verify refused without naming a frame: {type(exc).__name__}: {exc}") from exc
    return None


def ingest_bad(path: Path, *, replay: bool, fast: bool) -> Bad | None:
    chunk = flatten_files([str(path)], {}, fast=fast, replay=replay)
    assert len(chunk.bad) + len(chunk.games) == 1
    return chunk.bad[0] if chunk.bad else None


def check_edit(source: Path, target: Path, kind: str, data: st.DataObject) -> None:
    _, frames = read_frames(source)
    ruleset = msgspec.msgpack.decode(frames[0].payload)["ruleset"]
    letter = {"header": "H", "close": "C"}.get(kind, "B")
    candidates = [i for i, f in enumerate(frames) if f.kind == letter]
    if kind == "decisions":  # frames with decisions to edit (a toy or live log has many)
        candidates = [i for i in candidates if msgspec.msgpack.decode(frames[i].payload)[1]] or candidates
    index = data.draw(st.sampled_from(candidates), label="frame")
    root = msgspec.msgpack.decode(frames[index].payload)
    inside = (0,) if kind == "events" else (1,) if kind == "decisions" else ()
    paths = [p for p in _nodes(root) if p[: len(inside)] == inside and p != inside] or [inside]
    path = data.draw(st.sampled_from(paths), label="path")
    new = data.draw(_mutations(_get(root, path)), label="value")
    rederive = kind == "header" and data.draw(st.booleans(), label="rederive game id")
    edit_payload(source, index, _apply(root, path, new), target=target, rederive_id=rederive)
    edited = read_frames(target)[1][index].payload
    changed = _typed(kind, edited, ruleset) != _typed(kind, frames[index].payload, ruleset)
    labels = ruleset == "toy" or path[2:] == ("name",)  # the toy game has no cards: its decks are labels
    metadata = kind == "header" and (path[0] in METADATA or (path[0] == "decks" and labels))

    error = verify_error(target)
    if not changed and kind != "header":
        assert error is None, f"an edit that changes nothing claimed was refused: {error}"
    if changed and not (metadata and rederive) and error is None:
        # a header edited with its id derived again can be true: another seed or cap that happens to give the
        # same game. Then the runner itself, answering with the recorded decisions, must write the same records.
        assert kind == "header" and rederive and replays_as_logged(target), (
            f"verify accepted {kind} edit {path} = {new!r} in frame {index}"
        )
    if error is not None:
        assert error.frame is not None and error.frame >= index, error
        assert error.field is not None or "at `$" in str(error), f"no field named: {error}"
    replayed = [ingest_bad(target, replay=True, fast=fast) for fast in ([True, False] if columnar.BUILT else [False])]
    for bad in replayed:
        assert (bad is None) == (error is None), f"ingest --replay: {bad}; verify: {error}"
    plain = ingest_bad(target, replay=False, fast=True)
    assert plain == ingest_bad(target, replay=False, fast=False)  # the C path and the reference alike
    if plain is not None:
        assert error is not None, f"ingest refused what verify accepts: {plain}"
        assert plain.frame is not None, plain
    if kind == "close":
        assert (plain is None) == (error is None), f"ingest: {plain}; verify: {error}"


def run_fuzz(base_logs: dict[str, Path], tmp_path: Path, game: str, kind: str, examples: int) -> None:
    @settings(max_examples=examples, suppress_health_check=[HealthCheck.too_slow], database=None)
    @given(st.data())
    def fuzz(data: st.DataObject) -> None:
        check_edit(base_logs[game], tmp_path / "edited.log", kind, data)

    fuzz()


GAME_NAMES = ["toy", "cardtoy", "miras9", "morana", "miras9-cap"]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("game", GAME_NAMES)
def test_every_edit_that_changes_a_claim_is_refused_by_verify_and_ingest(
    base_logs: dict[str, Path], tmp_path: Path, game: str, kind: str
) -> None:
    run_fuzz(base_logs, tmp_path, game, kind, 10)


@pytest.mark.soak
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("game", GAME_NAMES)
def test_soak_edits_of_every_record_kind(base_logs: dict[str, Path], tmp_path: Path, game: str, kind: str) -> None:
    run_fuzz(base_logs, tmp_path, game, kind, 400)
