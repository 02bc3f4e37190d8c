"""annals: record, replay and analyse games of The Miras 9 TCG and MORANA.

The code lives in the repository's top-level folders (``engine/``, ``schemas/``, ``ingest/``, ``queries/``,
``cli/``); this package gathers them under one import name, ``annals.engine``, ``annals.schemas`` and so on.
"""
