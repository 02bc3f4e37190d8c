"""The examples work exactly as written: every command of the ```sh blocks of the README and of docs/*.md, and every
``Example:`` line of every command's ``--help``, run through ``bash -c`` (so globs, quotes and ``| head`` behave as in
a user's shell) with ``.venv/bin`` first on PATH, in one fresh folder per page (and one for the help), in order, with
``ANNALS_HOME`` in a temporary folder.

Each must exit 0. A line meant to fail says so with a trailing ``# fails: WHY`` and must then exit non-zero with one
line on stderr. A person at the terminal (``--players human,...``) is played by stdin answering ``0`` (the first
option offered) to every question, which is what a user typing ``0`` each time would get. Only ``make`` lines (the
checkout's own targets: ``make test`` runs this file) are not run here; the test counts them and asserts they are few.
A line ending in a heredoc (``cat > f <<'EOF'``) runs together with its body, as the shell would.
"""

from __future__ import annotations

import os
import re
import shlex
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
import typer.main
from typer._click.core import Command, Context
from typer.core import TyperGroup as Group

from annals.cli.main import app

README = Path(__file__).resolve().parent.parent / "README.md"
DOCS = README.parent / "docs"
BIN = Path(sys.executable).parent  # .venv/bin: `annals` and the `python` an external player runs
# seconds for one line, to catch a hang: most take about one (mostly start-up), the demo a few; the analyst's
# review of 32 games went past 60 s twice with the machine's 2 cores shared five ways
TIMEOUT = 150
ANSWERS = "1\n" * 20_000  # a person at the terminal choosing the first option every time
NOT_RUN = ("make ",)  # the checkout's targets: `make test` would run this test again
HEREDOC = re.compile(r"<<-?\s*'?\"?(\w+)'?\"?")


@dataclass(frozen=True)
class Example:
    where: str  # "README.md:12" or "annals verify --help"
    line: str  # what bash runs (a heredoc with its body)
    fails: bool  # marked `# fails: ...`

    @property
    def serves(self) -> bool:
        """Marked ``# until stopped``: a server, run until it is seen up, then stopped as a person stops it."""
        return comment_of(self.line).startswith("until stopped")


def comment_of(line: str) -> str:
    """The line's trailing shell comment ("" if none), found the way bash finds it: a ``#`` that starts a word."""
    for match in re.finditer(r"(?:^|\s)#", line):
        before = line[: match.start()]
        try:
            shlex.split(before)  # the '#' is outside quotes iff what precedes it parses
        except ValueError:
            continue
        return line[match.end() :].strip()
    return ""


def readme_examples(text: str, where: str = "README.md", block: str = "sh") -> tuple[list[Example], list[str]]:
    """The commands of every ```sh block of a Markdown text in order, and the lines not run (``make ...``).
    ``block``: the blocks of another info string (the README's ```sh spark block: ``tests/spark`` runs it)."""
    examples: list[Example] = []
    skipped: list[str] = []
    lines = text.splitlines()
    i = 0
    in_block = False
    while i < len(lines):
        line = lines[i]
        number = i + 1
        i += 1
        if line.startswith("```"):
            in_block = not in_block and line.strip() == f"```{block}"
            continue
        if not in_block or not line.strip() or line.lstrip().startswith("#"):
            continue
        if line.startswith(NOT_RUN):
            skipped.append(line)
            continue
        command = line
        heredoc = HEREDOC.search(line.split("#")[0])
        if heredoc:
            end = heredoc.group(1)
            while i < len(lines) and lines[i] != end:
                command += "\n" + lines[i]
                i += 1
            command += "\n" + end
            i += 1
        examples.append(Example(f"{where}:{number}", command, comment_of(line).startswith("fails:")))
    return examples, skipped


def help_examples() -> list[Example]:
    """Every ``Example:`` line of every command's help, walking groups (``annals key ...``) in ``--help`` order."""
    found: list[Example] = []

    def walk(command: Command, path: str, ctx: Context) -> None:
        for match in re.finditer(r"(?:^|\s)Example: (.+)$", command.help or "", flags=re.MULTILINE):
            line = match.group(1).strip()
            found.append(Example(f"{path} --help", line, comment_of(line).startswith("fails:")))
        if isinstance(command, Group):
            for name in command.list_commands(ctx):
                sub = command.get_command(ctx, name)
                if sub is not None and not sub.hidden:
                    walk(sub, f"{path} {name}", Context(sub, parent=ctx, info_name=name))

    group = typer.main.get_command(app)
    walk(group, "annals", Context(group, info_name="annals"))
    return found


SERVE_WAIT = 60.0  # seconds a server example may take to say where it listens (start-up is slow on a busy machine)
SERVE_UP = 1.0  # and how long it must then stay up


def _serve(example: Example, folder: Path, env: dict[str, str]) -> None:
    """A server example: says where it listens (``127.0.0.1``) and is still running a moment later; then Ctrl-C,
    as a person stops it. Its output is read as it comes, so a slow start is waited for, not failed."""
    child = subprocess.Popen(
        ["bash", "-c", f"exec {example.line}"], cwd=folder, env=env, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    said: list[str] = []
    stream = child.stdout
    assert stream is not None
    reader = threading.Thread(target=lambda: said.extend(iter(stream.readline, "")), daemon=True)
    reader.start()
    deadline = time.monotonic() + SERVE_WAIT
    try:
        while child.poll() is None and "127.0.0.1" not in "".join(said) and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(SERVE_UP)
        running = child.poll() is None
    finally:
        child.send_signal(signal.SIGINT)
        try:
            child.wait(timeout=20)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
        reader.join(timeout=5)
    output = "".join(said)
    if not running or "127.0.0.1" not in output:
        pytest.fail(f"{example.where}: `{example.line}` did not stay up saying where it listens:\n{output}")


def run_in_order(examples: list[Example], folder: Path, home: Path) -> None:
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}", "ANNALS_HOME": str(home)}
    env.pop("COLUMNS", None)
    for example in examples:
        if example.serves:
            _serve(example, folder, env)
            continue
        try:
            done = subprocess.run(
                ["bash", "-c", example.line],
                cwd=folder,
                env=env,
                input=ANSWERS,
                capture_output=True,
                text=True,
                timeout=TIMEOUT,
            )
        except subprocess.TimeoutExpired:
            pytest.fail(f"{example.where}: `{example.line}` did not finish in {TIMEOUT} s")
        said = (
            f"{example.where}: `{example.line}` exited {done.returncode}\n"
            f"stdout (its end):\n{done.stdout[-2000:]}\nstderr:\n{done.stderr[-2000:]}"
        )
        if example.fails:
            if done.returncode not in (1, 2):  # annals' own codes: not 0, nor bash's 127 for a missing command
                pytest.fail(f"marked '# fails' but did not fail as annals fails (exit 1 or 2): {said}")
            if len(done.stderr.strip().splitlines()) != 1 or "Traceback" in done.stderr:
                pytest.fail(f"a failure must be one line on stderr: {said}")
        elif done.returncode != 0:
            pytest.fail(said)


def test_the_readme_parser_reads_comments_heredocs_and_markers() -> None:
    text = (
        "```sh\nmake demo   # not run\nannals show 'a # b.log'  # a comment\n"
        "cat > bot.py <<'EOF'  # a file\nprint('# not a comment')\nEOF\n"
        "annals show nothing.log  # fails: missing\n```\n"
        "```python\nannals = 1\n```\n"
    )
    examples, skipped = readme_examples(text)
    assert skipped == ["make demo   # not run"]
    assert [(e.where, e.fails) for e in examples] == [
        ("README.md:3", False),
        ("README.md:4", False),
        ("README.md:7", True),
    ]
    assert examples[1].line == "cat > bot.py <<'EOF'  # a file\nprint('# not a comment')\nEOF"
    assert comment_of("annals show 'a # b.log'  # a comment") == "a comment"
    assert comment_of('annals sql "SELECT 1 # x"') == ""


def test_a_failing_line_is_named_with_what_it_printed(tmp_path: Path) -> None:
    marked = Example("x.md:1", "annals show missing.log  # fails: there is no such log", fails=True)
    run_in_order([marked], tmp_path, tmp_path / "home")  # fails as annals fails: exit 2 (a usage error), one line
    said = r"(?s)x\.md:2: `annals show missing.log` exited 2.*stderr:\nerror: no such file"
    with pytest.raises(pytest.fail.Exception, match=said):
        run_in_order([Example("x.md:2", "annals show missing.log", fails=False)], tmp_path, tmp_path / "home")
    with pytest.raises(pytest.fail.Exception, match="did not fail as annals fails"):
        run_in_order([Example("x.md:3", "no-such-program  # fails: missing", fails=True)], tmp_path, tmp_path / "home")
    with pytest.raises(pytest.fail.Exception, match="marked '# fails'"):
        run_in_order([Example("x.md:4", "annals --version  # fails: no", fails=True)], tmp_path, tmp_path / "home")


def test_every_readme_command_runs_as_written(tmp_path: Path) -> None:
    examples, skipped = readme_examples(README.read_text())
    assert len(examples) >= 20, "the README shows fewer commands than it did"
    assert len(skipped) <= 2, f"only `make demo` and `make test` may be left unrun: {skipped}"
    folder, home = tmp_path / "work", tmp_path / "home"
    folder.mkdir()
    run_in_order(examples, folder, home)


@pytest.mark.parametrize("page", sorted(str(p.relative_to(DOCS)) for p in DOCS.rglob("*.md")))
def test_every_command_of_a_docs_page_runs_as_written(page: str, tmp_path: Path) -> None:
    examples, skipped = readme_examples((DOCS / page).read_text(), where=f"docs/{page}")
    if not examples:
        pytest.skip(f"docs/{page} shows no commands")
    assert not skipped, f"docs/{page} shows lines this test cannot run: {skipped}"
    folder, home = tmp_path / "work", tmp_path / "home"
    folder.mkdir()
    run_in_order(examples, folder, home)


def test_every_help_example_runs_as_written(tmp_path: Path) -> None:
    examples = help_examples()
    group = typer.main.get_command(app)
    assert isinstance(group, Group)
    ctx = Context(group, info_name="annals")
    missing = [name for name in group.list_commands(ctx) if "Example: " not in (group.commands[name].help or "")]
    assert not missing, f"commands whose --help shows no example: {missing}"
    folder, home = tmp_path / "work", tmp_path / "home"
    folder.mkdir()
    run_in_order(examples, folder, home)
