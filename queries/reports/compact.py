"""A report in few lines, for a glance (``annals demo``): what every row shares said once above the table, each rate
and its Wilson interval in one cell (``54% (48-61%)``), other decimals to two places, columns side by side with
no frame; the columns that do not fit the width are named below it (a single row too wide is written a line per
column instead). ``annals report NAME`` shows them all.
"""

from __future__ import annotations

import textwrap

import polars as pl

GAP = "  "


def _interval(frame: pl.DataFrame, rate: str) -> tuple[str, str] | None:
    """The columns of ``rate``'s interval: ``X_ci_low``/``X_ci_high``, or for ``[P_]win_rate`` ``[P_]ci_low``/..."""
    pairs = [(f"{rate}_ci_low", f"{rate}_ci_high")]
    if rate.endswith("win_rate"):
        pairs.append((rate.replace("win_rate", "ci_low"), rate.replace("win_rate", "ci_high")))
    return next(((lo, hi) for lo, hi in pairs if lo in frame.columns and hi in frame.columns), None)


def _pct(v: object) -> str:
    if not isinstance(v, float) or v != v:
        return "-"
    return f"{v:.1%}" if 0 < v < 0.1 else f"{v:.0%}"


def compact(frame: pl.DataFrame) -> tuple[list[str], list[str], list[list[str]]]:
    """(lines said once, column names, rows of cells) of ``frame`` shortened as the module says."""
    shared: list[str] = []
    keep = list(frame.columns)
    if frame.height > 1:
        for c in frame.columns:
            if frame.schema[c] == pl.String and frame[c].n_unique() == 1:
                shared.append(f"{c}: {frame[c][0]}")
                keep.remove(c)
    merged: dict[str, tuple[str, str]] = {}
    for c in list(keep):
        found = _interval(frame, c)
        if found is not None and frame.schema[c].is_float():
            merged[c] = found
            keep = [k for k in keep if k not in found]
    names = [f"{c} (95% CI)" if c in merged else c for c in keep]
    rows: list[list[str]] = []
    for r in frame.iter_rows(named=True):
        cells = []
        for c in keep:
            v = r[c]
            if c in merged:
                lo, hi = merged[c]
                cells.append(f"{_pct(v)} ({_pct(r[lo])}-{_pct(r[hi])})" if v == v and v is not None else "-")
            elif isinstance(v, float):
                cells.append("-" if v != v else f"{v:.2f}")
            else:
                cells.append("null" if v is None else str(v))
        rows.append(cells)
    return shared, names, rows


def compact_table(frame: pl.DataFrame, width: int) -> str:
    """``frame`` as ``compact`` shortens it, its columns side by side within ``width`` (text left, numbers right)."""
    shared, names, rows = compact(frame)
    widths = [max(len(n), *(len(r[i]) for r in rows)) if rows else len(n) for i, n in enumerate(names)]
    numeric = [all(r[i][:1].isdigit() or r[i][:1] in "-." for r in rows) for i in range(len(names))]
    if len(rows) == 1 and sum(widths) + len(GAP) * (len(widths) - 1) > width:  # one row: a line per column
        label = max(len(n) for n in names)
        pairs = [f"{n.ljust(label)}  {v}" for n, v in zip(names, rows[0], strict=True)]
        return "\n".join(["; ".join(shared)] * bool(shared) + pairs)
    shown, used = 0, 0
    for w in widths:
        if shown and used + len(GAP) + w > width:
            break
        used += (len(GAP) if shown else 0) + w
        shown += 1

    def line(cells: list[str]) -> str:
        parts = [c.rjust(widths[i]) if numeric[i] else c.ljust(widths[i]) for i, c in enumerate(cells[:shown])]
        return GAP.join(parts).rstrip()

    out = ["; ".join(shared)] if shared else []
    out += [line(names)] + [line(r) for r in rows]
    if shown < len(names):
        out += textwrap.wrap(f"(not shown here: {', '.join(names[shown:])})", max(width, 20))
    return "\n".join(out)
