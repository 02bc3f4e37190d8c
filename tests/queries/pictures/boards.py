"""Reading a rendered board back: its card elements, pile counts and counters (by their data attributes)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import msgspec


class Drawn(msgspec.Struct):
    cards: dict[int, str]  # data-card -> data-zone
    names: dict[int, str]
    counts: dict[tuple[str, int], int]  # (zone, side) -> data-count
    backs: dict[tuple[str, int], int]  # (zone, side) -> card backs drawn
    counters: dict[tuple[str, int], int]  # (counter, side) -> data-value
    view: str


def drawn(svg: str) -> Drawn:
    """The board's data attributes; raises ``ET.ParseError`` if ``svg`` is not well-formed XML."""
    root = ET.fromstring(svg)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    out = Drawn({}, {}, {}, {}, {}, root.get("data-view", ""))
    for el in root.iter():
        a = el.attrib
        if "data-card" in a:
            card = int(a["data-card"])
            assert card not in out.cards, f"card {card} drawn twice"
            out.cards[card], out.names[card] = a["data-zone"], a["data-name"]
        elif "data-back" in a:
            key = (a["data-zone"], int(a["data-side"]))
            out.backs[key] = out.backs.get(key, 0) + 1
        elif "data-count" in a:
            out.counts[(a["data-zone"], int(a["data-side"]))] = int(a["data-count"])
        elif "data-counter" in a:
            out.counters[(a["data-counter"], int(a["data-side"]))] = int(a["data-value"])
    return out
