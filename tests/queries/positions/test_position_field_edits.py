"""Hand edits of a Miras 9 position file's cards, players and wave, on whichever engine runs (CI: the compiled one):
a field deleted, given a value of the wrong type, out of range, or a field added. Each file is accepted with exactly
what was written (a deleted field at its default, an added one ignored) and plays on, or refused with
``InvalidPositionError``; a refusal of a field that is not of its type, or a required one left out, names the
field's path in the file (``$.state.cards["2004"].owner``). Never another exception, never a silent 0.
"""

from __future__ import annotations

import copy
import json
import tempfile
from pathlib import Path
from typing import Any

import msgspec
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from annals.engine.miras9.state import StructCard, StructPlayer, StructWave
from annals.engine.replay import rerun
from annals.queries.positions.files import InvalidPositionError, continue_game, load_position
from annals.schemas.logfile import read_log

FIELDS: dict[type[msgspec.Struct], dict[str, msgspec.structs.FieldInfo]] = {
    kind: {f.name: f for f in msgspec.structs.fields(kind)} for kind in (StructCard, StructPlayer, StructWave)
}
VALUES = [-1, 0, 1, 2, 5, 1004, 2**31, -(2**40), 2**64, 1.5, True, "x", "", None, [], [1], {}, {"a": 1}]


@st.composite
def edits(draw: st.DrawFn, doc: dict[str, Any]) -> tuple[dict[str, Any], str, str, str, Any]:
    """(edited document, path, field, kind of edit, value written) for one field of a card, a player or the wave."""
    doc = copy.deepcopy(doc)
    state = doc["state"]
    where = draw(st.sampled_from(["card", "player", "wave"]))
    kind: type[msgspec.Struct]
    if where == "card":
        key = draw(st.sampled_from(sorted(state["cards"])))
        holder, path, kind = state["cards"][key], f'$.state.cards["{key}"]', StructCard
    elif where == "player":
        i = draw(st.integers(0, 1))
        holder, path, kind = state["players"][i], f"$.state.players[{i}]", StructPlayer
    else:
        holder, path, kind = state["wave"], "$.state.wave", StructWave
    field = draw(st.sampled_from(sorted(FIELDS[kind])))
    edit = draw(st.sampled_from(["delete", "value", "add"]))
    value: Any = None
    if edit == "delete":
        del holder[field]
    elif edit == "value":
        value = holder[field] = draw(st.sampled_from(VALUES))
    else:
        field = draw(st.sampled_from(["note", "owner_", "Loc"]))
        value = holder[field] = draw(st.sampled_from(VALUES))
    return doc, f"{path}.{field}", field, edit, (kind, value)


def _fits(kind: type[msgspec.Struct], field: str, value: Any) -> bool:
    try:
        msgspec.convert(value, FIELDS[kind][field].type)
    except msgspec.ValidationError:
        return False
    return True


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                                                  HealthCheck.function_scoped_fixture])  # fmt: skip
@given(data=st.data())
def test_each_edit_is_read_as_written_or_refused_by_its_path(
    wave_position: dict[str, Any], data: st.DataObject
) -> None:
    doc, path, field, edit, (kind, value) = data.draw(edits(wave_position))
    info = FIELDS[kind].get(field)
    with tempfile.TemporaryDirectory() as folder:
        file = Path(folder) / "edited.json"
        file.write_text(json.dumps(doc))
        try:
            loaded = load_position(file)
        except InvalidPositionError as exc:
            message = str(exc)
            event(f"{edit}: refused")
            assert message.startswith(f"{file}: "), message
            if (edit == "delete" and info is not None and info.required) or (
                edit == "value" and not _fits(kind, field, value)
            ):
                assert f"{path}: " in message or f"{path}[" in message, (path, message)
            return
        assert not (edit == "delete" and info is not None and info.required), f"{path} deleted, yet accepted"
        if edit == "value":
            assert _fits(kind, field, value), f"{path} = {value!r} accepted"
        event(f"{edit}: accepted")
        state = loaded.state
        if path.startswith("$.state.cards"):
            holder: Any = state.cards[int(path.split('"')[1])]
        elif path.startswith("$.state.players"):
            holder = state.players[int(path[len("$.state.players[")])]
        else:
            holder = state.wave
        assert info is not None or edit == "add"
        if edit == "delete" and info is not None:
            default = info.default if info.default is not msgspec.NODEFAULT else info.default_factory()
            assert getattr(holder, field) == default, (path, getattr(holder, field), default)  # not a silent 0
        elif edit == "value" and info is not None:
            assert getattr(holder, field) == msgspec.convert(value, info.type), path
        out = Path(folder) / "continued.log"
        continue_game(loaded, out, seed=3, max_turns=state.turn + 1)
        assert rerun(read_log(out)).ok
