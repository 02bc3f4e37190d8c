from typing import Any

def typed(
    events: list[Any],
    decisions: list[Any],
    first_event: int,
    first_decision: int,
    last_at: int,
    seats: int,
    end_type: Any,
    event_base: type,
    decision_type: type,
    /,
) -> tuple[int, int, int, int] | None: ...
def six_values(decisions: list[Any], decision_type: type, /) -> list[Any]: ...

# The frame layer (schemas/_framelayer.h): frames verified, walked and sealed as ``schemas/logfile.py`` does.
def scan(
    data: bytes, offset: int, index: int, link: bytes, frames: int, max_length: int, /
) -> tuple[list[tuple[int, int, int, bytes]], int, int, bytes, tuple[int, int, int] | None]: ...
def heads(data: bytes, offset: int, max_length: int, /) -> tuple[bytes, list[tuple[int, int, int]]]: ...
def seal(buffer: bytearray, start: int, kind: int, index: int, link: bytes, /) -> bytes: ...
