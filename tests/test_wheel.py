"""The distribution as a user installs it: a wheel built from the tracked files, installed into a fresh virtual
environment outside the checkout, holds one import package, ``annals``, and the README's library example and
``annals demo`` run from it.

Offline and quick: the build reuses this environment's setuptools (``--no-build-isolation``), the new environment
has no pip of its own (this one's installs into it with ``--python``), and it borrows this environment's
third-party packages through a ``.pth`` line, which adds their folder to ``sys.path`` after its own
site-packages (the ``.pth`` files in that folder, such as the editable install's, are not run)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from annals.ingest import columnar
from tests.test_docs import README, readme_python_blocks

CHECKOUT = README.parent
pytestmark = pytest.mark.slow


def tracked_copy(target: Path) -> Path:
    """The tracked files only (links kept as links), so the build writes nothing into the checkout."""
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=CHECKOUT, capture_output=True, check=True).stdout
    for name in listed.decode().split("\0"):
        if not name or name.startswith("tests/"):
            continue
        source, copy = CHECKOUT / name, target / name
        copy.parent.mkdir(parents=True, exist_ok=True)
        if source.is_symlink():
            copy.symlink_to(os.readlink(source))
        elif source.is_file():
            shutil.copy2(source, copy)
    return target


def run(args: list[str | Path], cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    done = subprocess.run(args, cwd=cwd, capture_output=True, text=True, check=False, env={**clean, **env})
    assert done.returncode == 0, f"{args}: {done.stdout[-2000:]}\n{done.stderr[-2000:]}"
    return done


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtual environment with the wheel installed; returns its bin folder."""
    root = tmp_path_factory.mktemp("wheel")
    source = tracked_copy(root / "source")
    wheels = root / "wheels"
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--no-input", "-q"]
    run([*pip, "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-w", wheels, source], root)
    (wheel,) = wheels.glob("annals-*.whl")
    venv = root / "venv"
    run([sys.executable, "-m", "venv", "--without-pip", venv], root)
    python = venv / "bin" / "python"
    run([*pip, "--python", python, "install", "--no-deps", "--no-index", wheel], root)
    site = Path(run([python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"], root).stdout.strip())
    (site / "zz_borrowed_dependencies.pth").write_text(sysconfig.get_path("purelib") + "\n")
    return venv / "bin"


def test_the_wheel_installs_one_package_annals(installed: Path) -> None:
    python = installed / "python"
    site = Path(run([python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"], installed).stdout.strip())
    top = sorted(p.name for p in site.iterdir())
    assert top == ["annals", "annals-0.1.0.dist-info", "zz_borrowed_dependencies.pth"], top
    package = site / "annals"
    assert (package / "py.typed").exists()
    for folder in ("engine", "schemas", "ingest", "queries", "cli"):
        assert (package / folder).is_dir() and not (package / folder).is_symlink()
    assert (package / "engine" / "morana" / "data" / "cards.toml").exists()
    assert (package / "ingest" / "sql" / "position.sql").exists() and (package / "queries" / "sql").is_dir()
    assert not list(package.rglob("*toy*")), "a test fixture shipped"
    where = run(
        [python, "-c", "import annals, annals.ingest.columnar as c; print(annals.__file__, c.BUILT)"], installed
    )
    file, built = where.stdout.split()
    assert Path(file).is_relative_to(site)
    assert built == str(columnar.BUILT)  # the C fast path is in the wheel wherever it builds here


def test_the_readme_library_example_runs_from_the_wheel(installed: Path, tmp_path: Path) -> None:
    script = tmp_path / "example.py"
    script.write_text("\n".join(readme_python_blocks(README.read_text())))
    done = run([installed / "python", script], tmp_path)
    assert "Deck against deck" in done.stdout and "Ember Sprite" in done.stdout
    assert sorted(p.name for p in tmp_path.iterdir()) == ["example.py"]


def test_annals_demo_runs_from_the_wheel(installed: Path, tmp_path: Path) -> None:
    home, cwd = tmp_path / "home", tmp_path / "cwd"
    cwd.mkdir()
    done = run([installed / "annals", "demo"], cwd, ANNALS_HOME=str(home))
    assert "database:" in done.stdout and "First-player advantage" in done.stdout
    assert (home / "demo" / "annals.duckdb").exists() and list(cwd.iterdir()) == [], "nothing where it ran"
