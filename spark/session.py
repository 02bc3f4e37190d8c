"""One Spark session per master URL for the process: local mode (``local[2]``; ``local[2,3]`` retries a failed
task up to 3 times) or a cluster (``spark://host:7077``, ``yarn``, ``k8s://...``)."""

from __future__ import annotations

import logging
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from annals.schemas.errors import AnnalsError
from annals.spark import require

if TYPE_CHECKING:
    from pyspark import RDD
    from pyspark.sql import SparkSession

T = TypeVar("T")


class SparkTaskError(AnnalsError, RuntimeError):
    """A Spark job failed (after Spark's own retries): the task's error, in one line."""


def collect(rdd: RDD[T]) -> list[T]:
    """``rdd.collect()``, a failed job's Python error named in one line instead of the JVM's stack trace."""
    from py4j.protocol import Py4JJavaError
    from pyspark.errors import PySparkException

    try:
        return rdd.collect()
    except (PySparkException, Py4JJavaError) as exc:
        lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
        named = [line for line in lines if line.split(":")[0].endswith(("Error", "Exception"))]
        raise SparkTaskError(f"a Spark task failed: {(named or lines or ['?'])[-1]}") from exc


LOG4J = Path(__file__).with_name("log4j2.properties").as_uri()


def session(master: str) -> SparkSession:
    """The session for ``master`` (an existing one is reused when its master is the same). Executors run this
    interpreter in local mode; on a cluster, ``PYSPARK_PYTHON`` names theirs."""
    require()
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    from pyspark.sql import SparkSession

    active = SparkSession.getActiveSession()
    if active is not None and active.sparkContext.master == master:
        return active
    if active is not None:
        active.stop()
    builder = (
        SparkSession.builder.master(master)
        .appName("annals")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2" if master.startswith("local") else "200")
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.driver.extraJavaOptions", f"-Duser.timezone=UTC -Dlog4j.configurationFile={LOG4J}")
        .config("spark.executor.extraJavaOptions", "-Duser.timezone=UTC")
        .config("spark.python.worker.reuse", "true")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.log.structuredLogging.enabled", "false")
        .config("spark.sql.sources.partitionColumnTypeInference.enabled", "false")
    )
    logging.getLogger("SQLQueryContextLogger").setLevel(logging.CRITICAL)  # pyspark logs each failed query
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    return spark
