"""The compiled build of the engine: optional, built on request, never the source of truth.

``make fast`` (``python -m annals.engine.native build``) compiles the engine's hot modules (``MODULES``: the
runner, the reducer core, the generator, the random bot and both real rulesets' rules, reducers and bots) with
mypyc, which ships with mypy (a dev dependency), into extension modules beside their sources; ``make pure``
(``python -m annals.engine.native clean``) removes them. Without a build, or without a C compiler, the
pure-Python engine runs, as it always did; the compiled one writes byte-identical logs (``tests/test_compiled.py``).

Which engine runs is decided once, when ``annals.engine`` is first imported (``install``), and ``annals
--version`` says which (``engine_build``):

* not built: pure Python;
* ``ANNALS_PURE_PYTHON`` set (to anything but ""): pure Python, the build left in place;
* built, but a source changed since (the build's manifest holds each source's hash): pure Python, the stale build
  is ignored so an edit is never shadowed by an old binary: run ``make fast`` again;
* otherwise the compiled modules.

This module itself is never compiled, and imports nothing from the engine.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

PURE_PYTHON_VARIABLE = "ANNALS_PURE_PYTHON"  # the same switch as the reader's C checks (schemas.validate)
GROUP = "annals.engine._native"  # mypyc's shared library: annals/engine/_native__mypyc.*.so
ENGINE_DIR = Path(__file__).parent
MANIFEST = ENGINE_DIR / "_native.json"  # written by ``build``: {module: sha256 of its source}

# The modules compiled: those a game's every event runs through (profile in docs/benchmarks.md). Not the
# builders, card data, editions or tools: compiling them would cost build time and gain nothing. Nor the Struct states
# (``*/state.py``): a msgspec Struct's ``msgspec.field`` default fails mypyc's runtime check of the field's type.
# Nor MORANA's scripts: each hook's docstring is its card's printed rules text (``morana.cards``), and a compiled
# function has no ``__doc__``.
MODULES: tuple[str, ...] = (
    "annals.engine.agents",  # the random bot: one call a decision from the compiled runner
    "annals.engine.core",
    "annals.engine.runner",
    "annals.engine.rng",
    *(
        f"annals.engine.miras9.{name}"
        for name in (
            "board",
            "bots",
            "cardstate",
            "choices",
            "combat",
            "crews",
            "damage",
            "effects",
            "escape",
            "gamestate",
            "events",
            "movement",
            "playerstate",
            "pool",
            "reducer",
            "ruleset",
            "scripts",
            "shipsites",
            "stack",
            "turn",
            "zones",
        )
    ),
    *(
        f"annals.engine.morana.{name}"
        for name in ("bots", "gamestate", "keywords", "reducer", "resolution", "ruleset", "turn")
    ),
)

_state = "pure Python (not built: make fast builds the compiled engine)"
_compiled = False
_installed = False


def source_path(module: str) -> Path:
    return ENGINE_DIR.joinpath(*module.split(".")[2:]).with_suffix(".py")


def source_hashes() -> dict[str, str]:
    return {module: hashlib.sha256(source_path(module).read_bytes()).hexdigest() for module in MODULES}


def built_files() -> list[Path]:
    """The build's artefacts beside the sources: every extension module with a ``.py`` source of the same name (a
    module compiled by this or an earlier build, whatever ``MODULES`` was), the shared library and the manifest."""
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    found = [
        path
        for path in ENGINE_DIR.rglob("*")
        if path.name.endswith(suffixes) and path.with_name(path.name.split(".")[0] + ".py").exists()
    ]
    found += ENGINE_DIR.glob("_native__mypyc.*")
    return sorted({*found, *([MANIFEST] if MANIFEST.exists() else [])})


class _SourceFinder(importlib.abc.MetaPathFinder):
    """Imports the compiled modules from their ``.py`` sources even where an extension module sits beside them."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in MODULES:
            return None
        return importlib.util.spec_from_file_location(fullname, source_path(fullname))


def install() -> None:
    """Decide which engine this process runs (once, from ``annals.engine``'s import): see the module's text."""
    global _state, _compiled, _installed
    if _installed:
        return
    _installed = True
    if not MANIFEST.exists():
        return  # nothing built: the interpreter finds the sources alone
    try:
        recorded = json.loads(MANIFEST.read_text())
        current = source_hashes()
    except (OSError, ValueError):
        recorded, current = None, {}
    if os.environ.get(PURE_PYTHON_VARIABLE):
        _state = f"pure Python ({PURE_PYTHON_VARIABLE} is set; the compiled engine is built)"
    elif recorded != current:
        _state = "pure Python (the compiled engine was built from older sources: make fast rebuilds it)"
    else:
        _state, _compiled = "compiled (mypyc)", True
        return
    _compiled = False
    sys.meta_path.insert(0, _SourceFinder())


def engine_build() -> str:
    """Which engine runs: ``compiled (mypyc)`` or ``pure Python (why)``."""
    return _state


def is_compiled() -> bool:
    return _compiled


def clean() -> list[Path]:
    removed = built_files()
    for path in removed:
        path.unlink()
    return removed


def build(*, opt_level: str = "3") -> None:
    """Compile ``MODULES`` with mypyc into extension modules beside their sources, then write the manifest.

    Needs mypy (a dev dependency: ``make`` installs it), setuptools and a C compiler. Run from anywhere: it works
    in the directory holding the ``annals`` package (the editable install's source tree)."""
    from mypyc.build import mypycify
    from setuptools import Distribution  # type: ignore[import-untyped]

    clean()
    top = ENGINE_DIR.parent.parent  # holds the ``annals`` package: mypyc names each module from its path under it
    here = os.getcwd()
    os.chdir(top)
    try:
        hashes = source_hashes()  # before compiling: an edit during the build makes the build stale, not wrong
        paths = [os.path.join(*module.split(".")) + ".py" for module in MODULES]
        extensions = mypycify(paths, opt_level=opt_level, group_name=GROUP)
        dist = Distribution({"name": "annals-engine-compiled", "ext_modules": extensions})
        dist.script_args = ["build_ext", "--inplace", "--build-temp", str(top / "build" / "mypyc")]
        dist.parse_command_line()
        dist.run_commands()
    finally:
        os.chdir(here)
    MANIFEST.write_text(json.dumps(hashes, indent=1, sort_keys=True) + "\n")


def main(argv: Sequence[str] | None = None) -> None:
    args = list(sys.argv[1:] if argv is None else argv)
    if args == ["build"]:
        build()
        print(f"compiled {len(MODULES)} engine modules with mypyc; {len(built_files())} files")
    elif args == ["clean"]:
        print(f"removed {len(clean())} files of the compiled engine")
    elif args in ([], ["status"]):
        print(f"engine: {engine_build()}")
    else:
        raise SystemExit("usage: python -m annals.engine.native [build | clean | status]")
