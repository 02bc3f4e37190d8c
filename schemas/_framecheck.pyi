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
