"""The documentation runs: docstring examples (the public API's among them), the README's Python code blocks, and
every ``annals`` command the README shows exists."""

from __future__ import annotations

import doctest
import importlib
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import typer.core
import typer.main

from annals.cli.main import app

DOCTESTED = ["annals", "annals.engine.forward", "annals.engine.rng", "annals.schemas.logfile", "annals.schemas.keys"]
README = Path(__file__).resolve().parent.parent / "README.md"


@pytest.mark.parametrize("module", DOCTESTED)
def test_docstring_examples_run(module: str) -> None:
    result = doctest.testmod(importlib.import_module(module), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"{module} has no examples"
    assert result.failed == 0


def test_every_command_in_the_readme_exists() -> None:
    group = typer.main.get_command(app)
    assert isinstance(group, typer.core.TyperGroup)
    shown = set(re.findall(r"^annals ([a-z]+)", README.read_text(), flags=re.MULTILINE))
    assert {"simulate", "verify", "show", "play", "ingest", "report", "sql", "position", "continue"} <= shown
    assert shown <= set(group.commands), shown - set(group.commands)


def readme_python_blocks(text: str) -> list[str]:
    return re.findall(r"^```python\n(.*?)^```", text, flags=re.DOTALL | re.MULTILINE)


def test_the_readme_python_examples_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each ```python block, in order, in one namespace, from an empty folder (they write only where they say)."""
    blocks = readme_python_blocks(README.read_text())
    assert blocks, "the README shows no Python"
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, object] = {"__name__": "__readme__"}
    for block in blocks:
        exec(compile(block, str(README), "exec"), namespace)
    assert list(tmp_path.iterdir()) == []


def test_import_annals_is_lazy_and_names_the_api() -> None:
    probe = (
        "import sys, annals; heavy = [m for m in ('duckdb', 'polars', 'annals.engine.core') if m in sys.modules]; "
        "print(heavy, annals.Timeline.__module__, annals.Board.__name__, annals.GameLog.__module__)"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["[]", "annals.queries.positions.timeline", "Board", "annals.schemas.logfile"]
    import annals

    for name in annals.__all__:
        assert getattr(annals, name).__doc__, f"annals.{name} has no docstring"
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        annals.nothing  # noqa: B018


CHECKOUT = README.parent
GAME_PAGES = {"miras9": CHECKOUT / "docs" / "miras9.md", "morana": CHECKOUT / "docs" / "morana.md"}
OUTSIDE = "sha" + "red"  # the folder beside the checkout that a user of a clone does not have
NOT_PLAYED_YET = {"M9-058"}  # movement: docs/miras9.md says annals does not play it yet


def tracked_text_files() -> list[Path]:
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=CHECKOUT, capture_output=True, check=True).stdout
    paths = [CHECKOUT / name for name in listed.decode().split("\0") if name]
    return [p for p in paths if p.is_file() and not p.is_symlink() and b"\0" not in p.read_bytes()[:4096]]


def test_nothing_a_user_reads_points_outside_the_repository() -> None:
    files = tracked_text_files()
    assert len(files) > 100 and README in files
    pattern = re.compile(rf"\.\./{OUTSIDE}|{OUTSIDE}/rules")  # spelt in pieces, so this file does not match itself
    outside = [str(p.relative_to(CHECKOUT)) for p in files if pattern.search(p.read_text())]
    assert not outside, outside
    group = typer.main.get_command(app)
    assert isinstance(group, typer.core.TyperGroup)
    for name, command in group.commands.items():
        assert not pattern.search(command.help or ""), name


@pytest.mark.parametrize("game", sorted(GAME_PAGES))
def test_each_game_page_is_linked_and_cites_rules_the_code_implements(game: str) -> None:
    page = GAME_PAGES[game].read_text()
    assert f"(docs/{game}.md)" in README.read_text()
    prefix = "M9" if game == "miras9" else "MOR"
    cited = set(re.findall(r"\[((?:M9|MOR)-\d+)\]", page))
    assert len(cited) >= 20 and all(c.startswith(prefix + "-") for c in cited), cited
    code = "".join(p.read_text() for p in tracked_text_files() if p.suffix == ".py")
    unexercised = {c for c in cited if f"[{c}]" not in code and c.replace("-", "_") not in code}
    assert unexercised <= NOT_PLAYED_YET, unexercised


@pytest.mark.parametrize("game", sorted(GAME_PAGES))
def test_each_game_page_commands_run_in_a_fresh_folder(game: str, tmp_path: Path) -> None:
    """The page's shell lines, in order, exactly as written (a shell expands the globs)."""
    blocks = re.findall(r"^```sh\n(.*?)^```", GAME_PAGES[game].read_text(), flags=re.DOTALL | re.MULTILINE)
    lines = [line for block in blocks for line in block.splitlines() if line.strip()]
    assert len(lines) >= 3
    path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"
    for line in lines:
        done = subprocess.run(
            ["bash", "-c", line],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            check=False,
            env={**os.environ, "PATH": path},
        )
        assert done.returncode == 0 and done.stdout, f"{line}: {done.stderr}"
