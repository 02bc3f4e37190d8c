"""Benchmarks: each prints its rates and the ratio to a ceiling measured in the same run (``make bench``)."""
