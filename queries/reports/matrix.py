"""Reports that are matrices, printed as one: a row per deck, a column per opponent, each cell the row's win rate
against the column and its decided games (``54% 12``), a last column for the row against every opponent.

Only the terminal table takes this shape; ``--format csv`` and ``json`` keep the report's long rows, one per cell.
A matrix is cut into blocks of columns when it is wider than the terminal (each block repeats the row names), and
names are cut with an ellipsis to the width of a cell. One matrix per value of the other text columns (the bot
pairing, the ruleset, a ``--by`` split), each under a heading that names them.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from typing import NamedTuple

import polars as pl


class MatrixSpec(NamedTuple):
    rows: str  # the column whose values label the rows
    cols: str  # ... and the columns
    rate: str  # the cell's rate (0..1)
    sample: str  # the cell's sample (its games)
    row_rate: str = ""  # the row's rate against every column (the last column); "" for none
    row_sample: str = ""
    mirror: str = ""  # a column that splits a mirror cell by seat ("seat 0", "seat 1"); the cell shows seat 0's


MATRICES: dict[str, MatrixSpec] = {
    "deck_matrix": MatrixSpec("deck", "opponent", "win_rate", "games", "deck_win_rate", "deck_games", "side"),
}
ROW_CHARS = 16  # a row name is cut to this
MIN_LABEL = 8  # ... or to as few as this, to keep the matrix in one block
MIN_CELL = 7  # "100% 99" fits in 7
MAX_CELL = 12  # a cell wider than its numbers, to show its column's name whole
MISSING = "·"  # a pairing with no games (or fewer than --min-games)


def _cut(text: str, chars: int) -> str:
    return text if len(text) <= chars else text[: chars - 1] + "…"


def _wrap(name: str, chars: int) -> list[str]:
    """A column's name on at most two lines of ``chars``, broken at a hyphen or space where it can be."""
    lines = textwrap.wrap(name, chars, break_on_hyphens=True) or [""]
    if len(lines) > 2:
        lines = [lines[0], _cut(" ".join(lines[1:]), chars)]
    return lines


def _head(lines: list[str], k: int, chars: int) -> str:
    """Line ``k`` of a column's name: right-aligned over the numbers, or left-aligned when it is broken in two."""
    if k >= len(lines):
        return " " * chars
    return lines[k].rjust(chars) if len(lines) == 1 else lines[k].ljust(chars)


def _cell(rate: float | None, count: int | None) -> str:
    if rate is None or count is None or rate != rate:  # NaN: no games
        return MISSING
    return f"{round(rate * 100)}% {count}"


def _one(frame: pl.DataFrame, spec: MatrixSpec, width: int) -> list[str]:
    rows = list(dict.fromkeys(frame[spec.rows].to_list()))
    cols = sorted(set(frame[spec.cols].to_list()) | (set(rows) if set(rows) & set(frame[spec.cols]) else set()))
    cells: dict[tuple[str, str], str] = {}
    mirrors = False
    for r in frame.iter_rows(named=True):
        side = r.get(spec.mirror, "either") if spec.mirror else "either"
        key = (r[spec.rows], r[spec.cols])
        if side in ("either", None):
            cells[key] = _cell(r[spec.rate], r[spec.sample])
        elif side == "seat 0" and key not in cells:
            cells[key] = _cell(r[spec.rate], r[spec.sample]) + "*"
            mirrors = True
    totals: dict[str, str] = {}
    if spec.row_rate:
        for r in frame.iter_rows(named=True):
            totals.setdefault(r[spec.rows], _cell(r[spec.row_rate], r[spec.row_sample]))
    label = min(max((len(str(r)) for r in rows), default=4), ROW_CHARS)
    texts = list(cells.values()) + list(totals.values())
    fit = max(MIN_CELL, max((len(t) for t in texts), default=MIN_CELL))
    cell = min(MAX_CELL, max(fit, max((len(str(c)) for c in cols), default=fit)))
    if label + 1 + (len(cols) + bool(totals)) * (cell + 1) > width:  # names cut to the numbers' width
        cell = fit
    need = (len(cols) + bool(totals)) * (cell + 1)
    if label + need > width >= MIN_LABEL + need:  # row names cut further rather than the matrix cut in two
        label = width - need
    per_block = max(1, (width - label - (cell + 1 if totals else 0)) // (cell + 1))
    out: list[str] = []
    for start in range(0, len(cols), per_block):
        block = cols[start : start + per_block]
        last = start + per_block >= len(cols)
        names = [_wrap(str(c), cell) for c in block] + ([["all"]] if totals and last else [])
        for k in range(max(len(n) for n in names)):
            line = " " * label + "".join(" " + _head(n, k, cell) for n in names)
            out.append(line.rstrip())
        for r in rows:
            line = _cut(str(r), label).ljust(label)
            line += "".join(" " + cells.get((r, c), MISSING).rjust(cell) for c in block)
            if totals and last:
                line += " " + totals.get(r, MISSING).rjust(cell)
            out.append(line.rstrip())
        if not last:
            out.append("")
    if mirrors:
        out += textwrap.wrap("* a mirror: the record in seat 0 (seat 1's is the rest)", max(width, 20))
    return out


def matrix_table(frame: pl.DataFrame, spec: MatrixSpec, width: int) -> str:
    """``frame`` (a report's long rows) as matrices fitting ``width``: see the module's description."""
    if frame.height == 0:
        return "(no rows)"
    used = {spec.rows, spec.cols, spec.mirror}
    keys = [c for c, t in frame.schema.items() if t == pl.String and c not in used]
    what = f"a cell: the {spec.rows}'s {spec.rate.replace('_', ' ')} against the {spec.cols}, and its {spec.sample}"
    if spec.row_rate:
        what += f"; all: against every {spec.cols}"
    out = textwrap.wrap(f"rows: {spec.rows}; columns: {spec.cols}; {what}; {MISSING}: none shown", max(width, 20))
    groups = frame.partition_by(keys, maintain_order=True, as_dict=False) if keys else [frame]
    for part in groups:
        heading = " · ".join(str(part[k][0]) if k == "ruleset" else f"{k.replace('_', ' ')} {part[k][0]}" for k in keys)
        out += ["", _cut(heading, width)] if heading else [""]
        out += _one(part, spec, width)
    return "\n".join(out)


def table_for(name: str) -> Callable[[pl.DataFrame, int], str] | None:
    """The terminal layout of report ``name`` when it is a matrix, else None (a plain table)."""
    spec = MATRICES.get(name)
    if spec is None:
        return None
    return lambda frame, width: matrix_table(frame, spec, width)
