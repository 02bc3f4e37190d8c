"""Plain text printed through ``cli.app``'s consoles without importing rich is written as rich writes it (the
consoles' own settings: soft wrap, no highlighting, no markup); anything rich could change goes to rich."""

from __future__ import annotations

import io
import subprocess
import sys

from hypothesis import given
from hypothesis import strategies as st
from rich.console import Console

from annals.cli import app as cli_app


def _rich(text: str) -> str:
    written = io.StringIO()
    Console(file=written, highlight=False, soft_wrap=True, width=40).print(text, markup=False)
    return written.getvalue()


TEXT = st.text(alphabet=st.sampled_from([*" -~:/;,.()=\n", *"abcXYZ019", "\t", "é", "\x1b", "["]), max_size=120)


@given(TEXT)
def test_plain_text_is_what_rich_writes(text: str) -> None:
    if cli_app._plain((text,), {"markup": False}):
        assert text + "\n" == _rich(text)


def test_what_rich_would_change_goes_to_rich() -> None:
    for text in ["a\tb", "say :smile: now", "[bold]x[/bold]\x1b[0m", "café"]:
        assert not cli_app._plain((text,), {"markup": False})
    assert not cli_app._plain(("x",), {"markup": False, "style": "red"})
    assert not cli_app._plain(("x", "y"), {"markup": False})
    sample = "Card metrics: sample: 136 games (134 decided); filters: by=agent; from /tmp/a b/annals.duckdb"
    assert cli_app._plain((sample,), {"markup": False}) and _rich(sample) == sample + "\n"


PRINT = """
import sys
from annals.cli.app import err, out
out.print("sample: 3 games; from /tmp/x", markup=False)
err.print("Card metrics: sample: 3 games", markup=False)
print(sorted(m for m in sys.modules if m.split(".")[0] == "rich"))
"""


def test_plain_lines_import_no_rich() -> None:
    done = subprocess.run([sys.executable, "-c", PRINT], capture_output=True, text=True, check=True, timeout=60)
    assert done.stdout == "sample: 3 games; from /tmp/x\n[]\n"
    assert done.stderr == "Card metrics: sample: 3 games\n"
