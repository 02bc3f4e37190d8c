"""A value as a command line a person copies takes it: a path or a name with a space, a quote or a ``$`` in it
quoted so that the shell passes it as one argument (``annals event verify 'Thursday Club'``), anything else as it
is. Every command annals prints for a person to run next goes through ``quoted``."""

from __future__ import annotations

import os
import shlex


def quoted(value: str | os.PathLike[str]) -> str:
    return shlex.quote(os.fspath(value))
