"""The event's pages and API at the server (``annals serve --event``), beside the tables' routes of ``app.py``.

* ``GET /desk?token=ORGANISER``    the organiser's desk (``clients/web/desk.html``; its script calls the API below
  with the token as ``Authorization: Bearer``);
* ``GET /event``                   the public page: pairings by name and standings, no token anywhere in it;
* ``GET /me?token=PLAYER``         a player's page: the game they are to play now, a link to its table;
* ``GET /api/event``               the public view (JSON);
* ``GET /api/me?token=PLAYER``     the player's current game (JSON);
* ``GET /api/desk``                the desk's view: tables with spectator links, players with their links;
* ``POST /api/desk/pair``          pair the next round and open its tables;
* ``POST /api/desk/paper``         ``{"table"}``: play that table on paper (before its first game begins);
* ``POST /api/desk/result``        ``{"table", "result"}``: a paper table's result (``2-1``, ``2-1-1``, ``ID``);
* ``POST /api/desk/clock``         ``{"action": "start"|"end", "minutes"?}``: the round's clock;
* ``POST /api/desk/drop``          ``{"player", "reason"?}``: a drop (after the round paired last, R-EVT-08).

Every refusal is JSON ``{"error": ...}`` with a 4xx status naming what is wrong; the organiser's token is compared
in constant time.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, TypeVar

import msgspec
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route

from annals.schemas.errors import AnnalsError, BadArgumentError
from annals.schemas.names import MAX_NAME
from annals.server.event_desk import EventDesk

Short = Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_NAME)]  # a player by id or name, as registered
T = TypeVar("T")


class PaperTable(msgspec.Struct, forbid_unknown_fields=True):
    table: Annotated[int, msgspec.Meta(ge=1, le=10_000)]


class PaperResult(msgspec.Struct, forbid_unknown_fields=True):
    table: Annotated[int, msgspec.Meta(ge=1, le=10_000)]
    result: Annotated[str, msgspec.Meta(min_length=1, max_length=16)]  # ``ID`` is 2: rounds.parse_outcome judges


class Clock(msgspec.Struct, forbid_unknown_fields=True):
    action: Short
    minutes: Annotated[int, msgspec.Meta(ge=1, le=24 * 60)] = 50


class Drop(msgspec.Struct, forbid_unknown_fields=True):
    player: Short
    reason: Annotated[str, msgspec.Meta(max_length=200)] = ""


class Empty(msgspec.Struct, forbid_unknown_fields=True):
    pass


def _error(message: str, status: int) -> Response:
    return JSONResponse({"error": message}, status_code=status)


def _decode_error(exc: msgspec.DecodeError, kind: type[Any]) -> str:
    """msgspec's ``Expected `int` >= 1 - at `$.table``` as ``table: expected an int >= 1``."""
    text = str(exc)
    unknown = re.search(r"unknown field `([^`]*)`", text)
    fields = ", ".join(kind.__struct_fields__) or "none"
    if unknown is not None:
        return f"{unknown.group(1)}: unknown field; the fields are: {fields}"
    found = re.fullmatch(r"(.*) - at `\$\.?([^`]*)`", text)
    if found is None:
        return f"the body is not a JSON object of {fields} ({text})"
    what, field = found.groups()
    return f"{field or 'the body'}: {what[0].lower()}{what[1:]}".replace("`", "")


def desk_routes(desk: EventDesk, web: Any) -> list[Route]:
    """The desk's, the players' and the public routes; ``web`` is the folder of the pages."""

    def organiser(request: Request) -> bool:
        given = request.headers.get("authorization", "").removeprefix("Bearer ").strip()
        return desk.is_organiser(given)

    async def body(request: Request, kind: type[T]) -> T | Response:
        raw = await request.body()
        try:
            return msgspec.json.decode(raw or b"{}", type=kind)
        except msgspec.DecodeError as exc:
            return _error(_decode_error(exc, kind), 400)
        except RecursionError:
            return _error("the body is nested too deep; send a flat JSON object", 400)

    def page(name: str) -> Any:
        async def serve(request: Request) -> Response:
            return FileResponse(web / name, media_type="text/html")

        return serve

    async def public(request: Request) -> Response:
        return JSONResponse(desk.view(private=False))

    async def me(request: Request) -> Response:
        pid = desk.player_for(request.query_params.get("token", ""))
        if pid is None:
            return _error("this link is no player's of the event: ask the desk for yours", 403)
        return JSONResponse(desk.me(pid))

    async def desk_view(request: Request) -> Response:
        if not organiser(request):
            return _error("the organiser's token is wrong or missing", 401)
        return JSONResponse(desk.view(private=True))

    async def act(request: Request) -> Response:
        if not organiser(request):
            return _error("the organiser's token is wrong or missing", 401)
        what = request.path_params["act"]
        try:
            if what == "pair":
                got = await body(request, Empty)
                if isinstance(got, Response):
                    return got
                return JSONResponse({"round": desk.pair()}, status_code=201)
            if what == "paper":
                paper = await body(request, PaperTable)
                if isinstance(paper, Response):
                    return paper
                match = await desk.to_paper(paper.table)
                return JSONResponse({"table": match.pairing.table, "state": match.state})
            if what == "result":
                result = await body(request, PaperResult)
                if isinstance(result, Response):
                    return result
                return JSONResponse(desk.paper_result(result.table, result.result), status_code=201)
            if what == "clock":
                clock = await body(request, Clock)
                if isinstance(clock, Response):
                    return clock
                return JSONResponse({"round": desk.clock(clock.action, clock.minutes)})
            if what == "drop":
                dropped = await body(request, Drop)
                if isinstance(dropped, Response):
                    return dropped
                return JSONResponse({"dropped": desk.drop(dropped.player, dropped.reason)})
        except BadArgumentError as exc:  # a result that cannot be (3-0 in a best of 3), a clock action unknown
            return _error(str(exc), 400)
        except AnnalsError as exc:  # cannot be done now: a result already entered, a round not complete
            return _error(str(exc), 409)
        return _error(f"no desk action {what!r}: pair, paper, result, clock or drop", 404)

    return [
        Route("/desk", page("desk.html")),
        Route("/event", page("event.html")),
        Route("/me", page("me.html")),
        Route("/api/event", public),
        Route("/api/me", me),
        Route("/api/desk", desk_view),
        Route("/api/desk/{act}", act, methods=["POST"]),
    ]
