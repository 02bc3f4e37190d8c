"""What people ask of the recorded games, one folder a job, each floor importing only the floors before it:

0. ``names``: the names the command line lists in its help (formats, reports, views), importing nothing.
1. ``cards``: a card pool as players read it (one card's text, a pool as a table).
2. ``positions/``: any position of a game, from its log or from the database, as each seat saw it; position files
   and the points a game can stop at.
3. ``reports/``: named reports (SQL in ``reports/sql/`` finished with polars), their filters, read-only SQL and
   output formats, the data dictionary.
4. ``pictures/``: the board as SVG, charts of the reports, the replay viewer, events in words, annotations.
5. ``workbench/``: judges' scenario files, a ruling set up as a small position and checked.
6. ``export``, ``tournament``, ``eventpages``, ``demo``, ``review``, ``reviewtext``: a shared dataset, an event's
   standings and pairings (as tables, and as printable pages), the demo, a game's decision review and its table;
   they use all of the above.

Below ``queries`` lie ``schemas``, ``engine`` and ``ingest``; ``cli``, ``server`` and ``clients`` sit above it.
``tests/test_layout.py`` checks the order.
"""
