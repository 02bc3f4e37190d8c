"""Two toy rulesets the tests play, registered as a plugin ruleset would be (``register`` below):

* ``toy`` (``toy.py``, events in ``toy_schema.py``): Nim, the smallest ruleset that uses every part of the shared
  core (chance events, turns, decision points, the reducer, the log);
* ``cardtoy`` (``cardtoy.py``, ``cardtoy_schema.py``): a tiny card game that uses every field-name convention,
  so the analysis layer has cards, zones, counters and hidden information to test on.

They are not part of annals: the product knows Miras 9 and MORANA only. ``ENTRY_POINTS`` is a folder holding a
distribution's metadata that names both in the ``annals.rulesets`` and ``annals.schemas`` entry-point groups: put
it and the checkout on ``PYTHONPATH`` and a separate ``annals`` process finds them as it would an installed
plugin (``subprocess_env``).
"""

from __future__ import annotations

import os
from pathlib import Path

from annals.engine.registry import register_ruleset

TOYS = {
    "toy": ("tests.toyrules.toy", "tests.toyrules.toy_schema"),
    "cardtoy": ("tests.toyrules.cardtoy", "tests.toyrules.cardtoy_schema"),
}
ENTRY_POINTS = Path(__file__).with_name("entrypoints")
CHECKOUT = Path(__file__).resolve().parents[2]


def register() -> None:
    """Register both toys in this process (idempotent)."""
    for name, (module, schema_module) in TOYS.items():
        register_ruleset(name, module, schema_module)


def subprocess_env() -> dict[str, str]:
    """The environment for an ``annals`` subprocess that should find the toys through their entry points."""
    path = os.pathsep.join([str(ENTRY_POINTS), str(CHECKOUT)])
    return {**os.environ, "PYTHONPATH": path}
