"""Annals on Apache Spark: simulations split into tasks that each write an archive (``spark.simulate``), archives
turned into the Parquet lake by ingest's own flattening (``spark.lake``), and the named reports on Spark SQL over
the lake, translated from their one DuckDB definition by SQLGlot (``spark.reports``).

pyspark is an optional extra (``pip install 'annals[spark]'``) and needs Java 17 or later; without them every
``--spark`` option says so (``SparkMissingError``). Executors import annals, so on a real cluster annals[spark] is
installed on every node (README: "Beyond one machine").
"""

from __future__ import annotations

import shutil

from annals.schemas.errors import AnnalsError

INSTALL_HINT = "install it with: pip install 'annals[spark]' (and Java 17 or later on the PATH)"


class SparkMissingError(AnnalsError, RuntimeError):
    """pyspark (or Java) is not there, so a --spark option cannot run."""


def missing() -> str | None:
    """Why Spark cannot run here (None when it can): pyspark not installed, or no ``java`` on the PATH."""
    try:
        import pyspark  # noqa: F401
    except ImportError:
        return "pyspark is not installed"
    if shutil.which("java") is None:
        return "Java is not on the PATH (pyspark needs Java 17 or later)"
    return None


def require() -> None:
    """Raise ``SparkMissingError`` saying what is missing and how to get it."""
    why = missing()
    if why is not None:
        raise SparkMissingError(f"--spark needs Apache Spark: {why}; {INSTALL_HINT}")
