"""Command-line values coerced without pydantic where the result is plain: typer 0.29 builds a pydantic
``TypeAdapter`` for every parameter of the command run (its value given or not), which imports pydantic and cost a
fresh ``annals report`` about a sixth of its time. A text, a whole number in its range, a path written as Python
writes it back, or one of a ``Literal``'s words is what typer's adapter would return for it, so it is returned here;
anything else (a bad value, a list, a clamp, a parser, a float, an enum) goes to typer's own coercion, so every
usage error reads as typer writes it (``tests/test_cli_coerce.py`` holds the two to the same values)."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from typer._click import Context
from typer._coercion import RuntimeParam, build_runtime_param
from typer._param_types import coerce_cli_path, lenient_issubclass
from typer._typing import is_literal_type, literal_values
from typer.core import _TyperParameter

DIGITS = re.compile(r"[0-9]+")  # ASCII digits only: what int() and pydantic read alike


class QuickParam:
    """Stands in ``param``'s runtime coercion (typer's ``RuntimeParam``): plain values here, the rest typer's."""

    def __init__(self, param: _TyperParameter) -> None:
        self.param = param
        self._typer: RuntimeParam | None = None

    def typer(self) -> RuntimeParam:
        """Typer's own coercion of the parameter (a pydantic adapter), built at its first need."""
        if self._typer is None:
            self._typer = build_runtime_param(self.param.type_descriptor)
        return self._typer

    def coerce(self, value: Any, param: _TyperParameter, ctx: Context) -> Any:
        if value is None and not (param.multiple or param.nargs == -1):
            return None  # as typer's: no value, no coercion
        quick = plain(value, param, ctx) if param.nargs == 1 and not param.multiple else _NOT_PLAIN
        return quick if quick is not _NOT_PLAIN else self.typer().coerce(value, param=param, ctx=ctx)


_NOT_PLAIN = object()


def plain(value: Any, param: _TyperParameter, ctx: Context | None = None) -> Any:
    """``value`` coerced as typer's adapter for ``param`` would, or ``_NOT_PLAIN`` when that is not sure."""
    descriptor = param.type_descriptor
    annotation, info = descriptor.annotation, descriptor.parameter_info
    if info.parser is not None or descriptor.file_annotation is not None or not isinstance(value, str | int):
        return _NOT_PLAIN
    if isinstance(value, str) and not _valid_text(value):
        return _NOT_PLAIN
    if annotation is str and isinstance(value, str):
        return value
    if annotation is int and not info.clamp:
        number = int(value) if isinstance(value, str) and DIGITS.fullmatch(value) else value
        if type(number) is not int:
            return _NOT_PLAIN
        if (info.min is not None and number < info.min) or (info.max is not None and number > info.max):
            return _NOT_PLAIN
        return number
    if is_literal_type(annotation) and info.case_sensitive and isinstance(value, str):
        return value if value in literal_values(annotation) else _NOT_PLAIN
    if lenient_issubclass(annotation, Path) and info.path_type is None and isinstance(value, str):
        path = annotation(value)
        if value == "" or os.fspath(path) != value:  # Path() rewrites it: typer's message would quote it as given
            return _NOT_PLAIN
        try:
            return coerce_cli_path(path, info, path_type=annotation, param=param, ctx=ctx)
        except Exception:  # a missing or unreadable path: typer's coercion says so in its own words
            return _NOT_PLAIN
    return _NOT_PLAIN


def _valid_text(value: str) -> bool:
    """Text pydantic takes as it is: no lone surrogates (what Python makes of bytes that are not UTF-8)."""
    try:
        value.encode()
    except UnicodeEncodeError:
        return False
    return True


def _runtime_param(self: _TyperParameter) -> Any:
    """``_TyperParameter.get_runtime_param`` with ``QuickParam`` in the place of typer's adapter."""
    if self._runtime_param is None:
        self._runtime_param = QuickParam(self)  # type: ignore[assignment]
    return self._runtime_param


def install() -> None:
    """Every typer parameter coerced by ``QuickParam`` (its own, the help option's and the completion options' too,
    which typer makes at each run: a hook on the class reaches them all)."""
    _TyperParameter.get_runtime_param = _runtime_param  # type: ignore[method-assign]
