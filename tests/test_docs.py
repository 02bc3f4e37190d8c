"""The documentation runs: docstring examples (the public API's among them), the Python code blocks of the README
and of the site's pages, every ``annals`` command the README shows exists, and the site builds with
``mkdocs build --strict`` with its generated reference pages complete."""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest
import typer.core
import typer.main

from annals.cli.main import app
from annals.engine import compiled

DOCTESTED = [
    "annals", "annals.engine.forward", "annals.engine.rng", "annals.schemas.logfile", "annals.schemas.keys",
    "annals.schemas.inputs",
]  # fmt: skip
README = Path(__file__).resolve().parent.parent / "README.md"
DOCS = README.parent / "docs"


def doctested(module: str) -> ModuleType:
    """The module, or, where the compiled engine runs it as an extension module (whose docstrings doctest does not
    find), a fresh copy run from its source."""
    if module not in compiled.MODULES or not compiled.is_compiled():
        return importlib.import_module(module)
    spec = importlib.util.spec_from_file_location(module, compiled.source_path(module))
    assert spec is not None and spec.loader is not None
    source = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(source)
    return source


@pytest.mark.parametrize("module", DOCTESTED)
def test_docstring_examples_run(module: str) -> None:
    result = doctest.testmod(doctested(module), optionflags=doctest.ELLIPSIS)
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


PYTHON_PAGES = [README, *(p for p in sorted(DOCS.rglob("*.md")) if readme_python_blocks(p.read_text()))]


@pytest.mark.parametrize("page", PYTHON_PAGES, ids=lambda p: str(p.relative_to(README.parent)))
def test_the_python_examples_run(page: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each ```python block of a page, in order, in one namespace, from an empty folder (they write only where they
    say)."""
    blocks = readme_python_blocks(page.read_text())
    assert blocks, f"{page.name} shows no Python"
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, object] = {"__name__": "__readme__"}
    for block in blocks:
        exec(compile(block, str(page), "exec"), namespace)
    assert list(tmp_path.iterdir()) == []


def test_the_site_builds_strict_with_its_generated_reference(tmp_path: Path) -> None:
    """``mkdocs build --strict`` (what ``make docs`` runs, warnings as errors: a broken link, a missing page, a
    snippet that is not there), offline; then the generated pages hold every command's help, every table of the
    database and every report, and the included rulings and protocol schema."""
    site = tmp_path / "site"
    done = subprocess.run(
        [str(Path(sys.executable).parent / "mkdocs"), "build", "--strict", "--quiet", "--site-dir", str(site)],
        cwd=README.parent,
        capture_output=True,
        text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        timeout=300,
    )
    assert done.returncode == 0, f"mkdocs build --strict failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    commands = (site / "reference" / "commands" / "index.html").read_text()
    group = typer.main.get_command(app)
    assert isinstance(group, typer.core.TyperGroup)
    for name, command in group.commands.items():
        assert f"annals {name}</code>" in commands, name
        if isinstance(command, typer.core.TyperGroup):
            assert all(f"annals {name} {sub}</code>" in commands for sub in command.commands), name
    assert "Example: annals simulate morana" in commands
    database = (site / "reference" / "database" / "index.html").read_text()
    for table in ("games", "events", "decisions", "card_games", "standings", "zone_moves"):
        assert f'<h3 id="{table}"><code>{table}</code>' in database, table
    reports = (site / "reference" / "reports" / "index.html").read_text()
    from annals.queries.reports.run import REPORTS

    assert all(f"<code>{name}</code>" in reports and spec.title in reports for name, spec in REPORTS.items())
    assert "R-CORE-1" in (site / "rulings" / "index.html").read_text()  # RULINGS.md included, not copied
    assert "draft/2020-12/schema" in (site / "reference" / "protocol" / "index.html").read_text()  # the schema file
    pages = [p.read_text() for p in site.rglob("*.html")]
    assert not [p for p in pages if "<!-- annals:" in p], "a marker the hooks did not replace"
    assert not [p for p in pages if "fonts.googleapis" in p], "the site must not fetch fonts"


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
