"""Pictures: what a person looks at. The board as SVG (``svgboard`` over ``svgmiras9``/``svgmorana``/``svgkit``) and
as data (``board``), charts of the reports (``plots``), the self-contained replay viewer (``viewer``, page in
``web/``), events in words (``eventtext``) and a commentator's notes (``annotations``).

May import ``schemas``, ``engine``, ``ingest``, ``queries.cards``, ``queries.positions`` and ``queries.reports``;
never the workbench or the modules at the top of ``queries``.
"""
