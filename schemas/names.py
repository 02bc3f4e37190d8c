"""Names people read (a player's, a deck's): one bound and one rule for every door they come in by.

The server's requests (``server.app``) bound each name at ``MAX_NAME`` characters; ``annals event register`` and a
deck list's ``Deck:`` line hold to the same bound, so that a name one door takes, the others take too.
"""

from __future__ import annotations

import unicodedata
from typing import Final

MAX_NAME: Final = 64  # characters: a name fits a table's column and a pairings line


def name_problem(name: str, what: str) -> str:
    """What is wrong with ``name`` as a name people read ("" when nothing is): a control character (an ESC
    recolours every terminal it is printed on) or more than ``MAX_NAME`` characters."""
    if any(unicodedata.category(c) == "Cc" and not c.isspace() for c in name):
        return f"{what} {name[:MAX_NAME]!r} holds a control character; give the name as people read it"
    if len(name) > MAX_NAME:
        return f"{what} {name[:20]!r}... is {len(name)} characters long; give one of up to {MAX_NAME}"
    return ""
