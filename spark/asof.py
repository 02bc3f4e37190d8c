"""DuckDB's ``ASOF JOIN`` in a form Spark SQL runs (Spark 3.x and 4.x have no ASOF join): a rewrite of the SQLGlot
tree, so a report keeps its one DuckDB definition.

``L ASOF [LEFT] JOIN R ON L.k = R.k ... AND L.x >= R.y`` pairs each row of L with the row of R of the same keys
whose ``y`` is the greatest not above ``x``. The rewrite gives R the next ``y`` of its keys (``LEAD(R.y) OVER
(PARTITION BY R.k ORDER BY R.y)``) and joins on the interval instead: ``R.y <= L.x AND (next IS NULL OR L.x <
next)``, a plain (LEFT) join that matches that one row of R, or none. ``>`` takes ``y < x <= next``; ``<=`` and
``<`` (the least ``y`` not below, or above, ``x``) use ``LAG`` the same way. Among rows of R with equal keys and
``y`` the last by ``LEAD``/``LAG`` order is taken, one row as DuckDB takes one (reports join on unique keys); a
row of R whose ``y`` is NULL matches nothing, as in DuckDB.

An ASOF join of another shape (no inequality, two, or one that does not compare a column of each side) is
refused with ``AsofShapeError``.
"""

from __future__ import annotations

import sqlglot
from sqlglot import exp

from annals.schemas.errors import AnnalsError

NEXT = "__asof_bound"  # the column the rewrite adds to R

# L.x OP R.y: (the window function giving R's neighbour, how L.x must stand to it when it is not NULL)
_BOUNDS: dict[type[exp.Expr], tuple[str, type[exp.Expr]]] = {
    exp.GTE: ("LEAD", exp.LT),
    exp.GT: ("LEAD", exp.LTE),
    exp.LTE: ("LAG", exp.GT),
    exp.LT: ("LAG", exp.GTE),
}
_MIRROR: dict[type[exp.Expr], type[exp.Expr]] = {exp.GTE: exp.LTE, exp.GT: exp.LT, exp.LTE: exp.GTE, exp.LT: exp.GT}


class AsofShapeError(AnnalsError, ValueError):
    """An ASOF join the Spark rewrite cannot express."""


def is_asof(node: exp.Expr) -> bool:
    return isinstance(node, exp.Join) and str(node.args.get("method") or "").upper() == "ASOF"


def _conditions(on: exp.Expr) -> list[exp.Expr]:
    return list(on.flatten()) if isinstance(on, exp.And) else [on]


def _side(node: exp.Expr, right: str) -> bool | None:
    """True when ``node`` reads only columns of the right table, False when only others, None when mixed or none."""
    tables = {c.table for c in node.find_all(exp.Column)}
    if not tables:
        return None
    if tables == {right}:
        return True
    return False if right not in tables else None


def rewrite_asof(join: exp.Join) -> exp.Join:
    """The join ``join`` (an ASOF one) as an interval join on R given its neighbour's key; see the module docstring."""
    right = join.this
    alias = right.alias_or_name
    on = join.args.get("on")
    if on is None:
        raise AsofShapeError(f"an ASOF join without ON (USING is not supported): {join.sql('duckdb')}")
    keys: list[exp.Expr] = []
    inequality: tuple[exp.Expr, type[exp.Expr], exp.Expr] | None = None
    for cond in _conditions(on):
        sides = (_side(cond.this, alias), _side(cond.expression, alias)) if isinstance(cond, exp.Binary) else None
        if isinstance(cond, exp.EQ) and sides in ((False, True), (True, False)):
            keys.append(cond.expression if sides == (False, True) else cond.this)
        elif type(cond) in _BOUNDS and sides in ((False, True), (True, False)):
            if inequality is not None:
                raise AsofShapeError(f"an ASOF join with two inequalities: {on.sql('duckdb')}")
            op = type(cond)
            inequality = (cond.this, op, cond.expression) if sides == (False, True) else \
                (cond.expression, _MIRROR[op], cond.this)  # fmt: skip
        else:
            raise AsofShapeError(f"an ASOF join condition that is not an equality or an inequality of a column on "
                                 f"each side: {cond.sql('duckdb')}")  # fmt: skip
    if inequality is None:
        raise AsofShapeError(f"an ASOF join without an inequality: {on.sql('duckdb')}")
    left_value, op, right_value = inequality
    window, bound = _BOUNDS[op]
    partition = f"PARTITION BY {', '.join(k.sql('duckdb') for k in keys)} " if keys else ""
    inner = sqlglot.parse_one(
        f"SELECT {exp.to_identifier(alias).sql('duckdb')}.*, {window}({right_value.sql('duckdb')}) OVER "
        f"({partition}ORDER BY {right_value.sql('duckdb')}) AS {NEXT} FROM _asof_right "
        f"WHERE {right_value.sql('duckdb')} IS NOT NULL",
        read="duckdb",
    )
    assert isinstance(inner, exp.Select)
    inner.set("from_", exp.From(this=right.copy()))
    neighbour = exp.column(NEXT, table=alias)
    within = exp.or_(exp.Is(this=neighbour.copy(), expression=exp.null()),
                     bound(this=left_value.copy(), expression=neighbour))  # fmt: skip
    rewritten = join.copy()
    rewritten.set("this", exp.Subquery(this=inner, alias=exp.TableAlias(this=exp.to_identifier(alias))))
    rewritten.set("method", None)
    rewritten.set("on", exp.and_(on.copy(), exp.paren(within)))
    return rewritten


def without_asof(tree: exp.Expr) -> exp.Expr:
    """``tree`` with every ASOF join rewritten (a copy)."""
    return tree.copy().transform(lambda node: rewrite_asof(node) if is_asof(node) else node)
