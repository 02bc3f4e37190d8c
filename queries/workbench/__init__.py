"""The rulings workbench: scenario files (``scenario``: a ruling set up as a small position, played a few decisions
and checked; starters in ``templates/``), their expectations and decisions read against the names the ruleset and
position know (``expectations``) and the line of each TOML value for errors (``tomlpaths``).

May import ``schemas``, ``engine``, ``ingest`` and every other floor of ``queries`` but the modules at its top
(``export``, ``tournament``, ``demo``).
"""
