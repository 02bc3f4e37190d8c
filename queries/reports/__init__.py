"""Reports: named reports (``run``: SQL in ``reports/sql/report_NAME.sql`` run by DuckDB and finished with polars,
each stating its sample), the filters every report takes (``filters``), read-only SQL and the output formats
(``output``), and what a database holds (``catalog``, ``dictionary``).

May import ``schemas``, ``engine``, ``ingest``, ``queries.cards`` and ``queries.positions``; never pictures,
workbench or the modules at the top of ``queries``.
"""
