"""The compiled engine (``engine/compiled.py``, ``make fast``) writes byte-identical logs to the pure-Python
engine on the golden games: this process plays them on the compiled build, a child process with
``ANNALS_PURE_PYTHON`` set plays them on the sources, and the files must match byte for byte.

Without a compiled build the comparison is skipped, saying why (``engine_build``); CI, which sets
``ANNALS_REQUIRE_C``, builds it (``.ci/run``), so there a build that is missing or stale fails instead."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import annals.engine.runner
from annals.engine import compiled
from tests.golden.games import golden_games, play_golden

ROOT = Path(__file__).parents[1]


def write_golden_logs(folder: Path) -> str:
    """Every golden game's log into ``folder``; returns which engine played them."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, seed in golden_games():
        play_golden(name, seed, folder / f"{name}-seed{seed}.log")
    return compiled.engine_build()


def require_build() -> None:
    if not compiled.is_compiled():
        reason = f"no compiled engine here: {compiled.engine_build()}"
        if os.environ.get("ANNALS_REQUIRE_C"):
            pytest.fail(f"CI builds the compiled engine (make fast), but {reason}")
        pytest.skip(reason)


def test_the_compiled_engine_runs_where_it_is_built() -> None:
    require_build()
    assert compiled.engine_build() == "compiled (mypyc)"
    assert Path(annals.engine.runner.__file__ or "").suffix != ".py"  # the extension module, not the source


def test_compiled_and_pure_engines_write_identical_golden_logs(tmp_path: Path) -> None:
    require_build()
    assert write_golden_logs(tmp_path / "compiled") == "compiled (mypyc)"
    script = (
        "import sys; from pathlib import Path; import annals.engine.runner as r; "
        "from tests.test_compiled import write_golden_logs; "
        "print(write_golden_logs(Path(sys.argv[1]))); print(r.__file__)"
    )
    env = {**os.environ, compiled.PURE_PYTHON_VARIABLE: "1"}
    child = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path / "pure")], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert child.returncode == 0, child.stderr
    build, runner_file = child.stdout.splitlines()
    assert build.startswith("pure Python") and runner_file.endswith(".py")
    names = sorted(path.name for path in (tmp_path / "compiled").iterdir())
    assert names == sorted(path.name for path in (tmp_path / "pure").iterdir()) and len(names) == len(golden_games())
    for name in names:
        assert (tmp_path / "compiled" / name).read_bytes() == (tmp_path / "pure" / name).read_bytes(), name


def test_a_stale_build_is_ignored(tmp_path: Path) -> None:
    """A source edited after the build: the manifest no longer matches, so a new process runs the sources."""
    require_build()
    script = (
        "import json, sys; from annals.engine import compiled; "
        "compiled.MANIFEST = compiled.Path(sys.argv[1]); compiled._installed = False; "
        "compiled.MANIFEST.write_text(json.dumps({m: 'edited' for m in compiled.MODULES})); "
        "compiled.install(); import annals.engine.miras9.turn as t; print(compiled.engine_build()); print(t.__file__)"
    )
    child = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path / "manifest.json")],
        cwd=ROOT,
        env={k: v for k, v in os.environ.items() if k != compiled.PURE_PYTHON_VARIABLE},
        capture_output=True,
        text=True,
    )
    assert child.returncode == 0, child.stderr
    build, turn_file = child.stdout.splitlines()
    assert "older sources" in build and turn_file.endswith(".py")


def test_the_rules_constants_are_the_schema_classes() -> None:
    """``miras9.choices`` and ``miras9.events`` rename nothing: each constant (a C static when compiled) is the
    class of the same name in ``schemas.miras9`` (``DecisionPoint``: ``engine.structs``'), so a rule that builds
    or tests for one builds or tests for the class the log encodes."""
    from annals.engine import structs
    from annals.engine.miras9 import choices, events
    from annals.schemas import miras9 as sm

    for module in (choices, events):
        names = [name for name, value in vars(module).items() if isinstance(value, type) and name[:1].isupper()]
        assert len(names) >= 20, module.__name__
        for name in names:
            expected = structs.DecisionPoint if name == "DecisionPoint" else getattr(sm, name)
            assert getattr(module, name) is expected, f"{module.__name__}.{name}"
