"""The server's web application (Starlette): the browser client's files, the tables' WebSockets, the table API.

* ``GET /``, ``GET /play/ID``      the browser client (``clients/web``, static package data, nothing from the
  internet); it opens ``/ws/ID?token=T``;
* ``GET /static/NAME``             its files (Starlette's ``StaticFiles``: nothing outside that folder);
* ``WS /ws/ID?token=T``            a seat (or, with the spectators' token, a spectator) of table ID: the protocol
  of ``schemas.protocol``, one or more JSON messages per text frame, one per line; ``&boards=0`` for no board
  messages, ``&svg=1`` for boards drawn as SVG, ``&automatic=1&auto_pass=1&stops=A,B`` for the seat's settings
  from its first question (the protocol's ``settings``, ``engine.forced``). A wrong token, or one of another
  table, is refused before the
  socket opens (403);
* ``POST /api/tables``             a new table (``Authorization: Bearer ADMIN``, the admin token the server printed
  at start); body ``{"ruleset", "decks", "seats", "seed"?, "max_turns"?, "clock"?, "delay"?, "grace"?,
  "cover_ms"?}``; the
  answer holds the seats' and the spectators' tokens, shown only this once (``cover_ms``: the longest cover
  delay of a hidden automatic pass, ``engine.forced``). ``grace``: seconds the table waits
  for its people to sit down before a no-show loses (default ``annals serve --grace``; 0: no limit); no clock runs
  until they have;
* ``GET /api/tables``              the tables in the server's memory, each with whether it is over (admin token);
* ``GET /api/tables/ID``           whether the game is over, its result and log, whether it has begun and which
  seats have sat down (admin token); a finished table that has left memory is answered from its closed log;
* ``POST /api/tables/ID/extra-time`` a judge's extra time (admin token); body ``{"judge", "minutes", "player"?,
  "reason"?}``: the minutes go to the named seat's bank (``player``), or to every seat's, at once, and into the
  live log as a judge's record (R-CORE-7).
* ``GET /replay/ID?token=T``       once the game is over: the replay viewer of the game as that seat saw it (the
  spectators' token: the spectator view);
* ``GET /log/ID?token=T``          once the game is over: the game in words as that seat saw it (``annals show``);
* ``POST /api/rematch/ID?token=T`` once a casual game (no tournament) is over: the same table again, the seats
  as they were; each seat that asks is given its own token of the new table (the first to ask makes it).

A finished table stays in memory ``keep_s`` seconds (``annals serve --keep-finished``), then is dropped and its
clients' sockets closed; a seat or spectator that comes for it later is served it read back from the log.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import re
import secrets
from collections import OrderedDict
from pathlib import Path
from typing import Annotated, Any

import msgspec
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

import annals.clients
from annals.engine import forced
from annals.engine.core import Ruleset
from annals.engine.names import MAX_CLOCK_S
from annals.engine.registry import get_ruleset
from annals.engine.simulate import TURNS_LIMIT, UnknownChoiceError, make_header
from annals.engine.table import LiveTable
from annals.engine.views import view_log
from annals.engine.words.story import render_story
from annals.queries.pictures.reviewgraph import StaleReviewError, saved_review
from annals.queries.pictures.viewer import viewer_html
from annals.schemas import protocol as p
from annals.schemas.errors import AnnalsError, did_you_mean
from annals.schemas.header import LogHeader
from annals.schemas.judge import Intervention, utc_now
from annals.schemas.logfile import read_log
from annals.schemas.names import MAX_NAME
from annals.schemas.review import DamagedReviewError
from annals.server.store import (
    Signature,
    Store,
    TableError,
    TableRecord,
    matches,
    new_table_id,
    new_token,
    token_hash,
)
from annals.server.tables import MARK_S, SPECTATOR, Table

WEB = Path(annals.clients.__file__).parent / "web"
DEFAULT_CLOCK_S = 600
KEEP_FINISHED_S = 30.0  # how long a finished table stays in memory before only its log holds it
FINISHED_KEPT = 8  # finished tables kept aside once dropped, so that one asked for again is not read back anew
MAX_FRAME_BYTES = 1024 * 1024  # uvicorn closes a socket sending a bigger frame (1009); smaller ones over the
# protocol's limit get a too_long error


Name = Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_NAME)]  # a ruleset's, a deck's, a seat's, a judge's
Pair = Annotated[list[Name], msgspec.Meta(min_length=2, max_length=2)]  # one per seat


class NewTable(msgspec.Struct, forbid_unknown_fields=True):
    """A table's parameters, each range-checked as it is decoded: a 400 names the field (``clock: expected an
    int >= 0``), where a clock of -1 lost the seat on time before its first decision."""

    ruleset: Name
    decks: Pair
    seats: Pair
    seed: Annotated[int, msgspec.Meta(ge=0)] | None = None  # unsigned 64-bit: msgspec takes no bigger int
    max_turns: Annotated[int, msgspec.Meta(ge=0, lt=TURNS_LIMIT)] | None = None  # 0: no cap
    clock: Annotated[int, msgspec.Meta(ge=0, le=MAX_CLOCK_S)] = DEFAULT_CLOCK_S  # seconds per seat (0: no clock)
    delay: Annotated[int, msgspec.Meta(ge=0, le=MAX_CLOCK_S)] = 0  # seconds each decision takes before the clock runs
    # seconds to wait for the people to sit down (None: the server's; 0: no limit)
    grace: Annotated[int, msgspec.Meta(ge=0, le=MAX_CLOCK_S)] | None = None
    # the longest cover delay of a hidden automatic pass, in ms (-1: engine.forced.COVER_S)
    cover_ms: Annotated[int, msgspec.Meta(ge=-1, le=60_000)] = -1


def table_header(spec: NewTable, seed: int) -> tuple[Ruleset[Any], LogHeader]:
    """The ruleset and the log header of a new table, every name checked first: an unknown ruleset, deck or seat
    is a named error listing the choices (``UnknownNameError``, a ``BadArgumentError``). ``annals serve --table``
    calls it before the server starts, so a misspelt bot stops the command (exit 2), not the server's startup."""
    ruleset = get_ruleset(spec.ruleset)
    seats = sorted([*ruleset.agents(), "human"])
    for seat in spec.seats:
        if seat not in seats:
            raise UnknownChoiceError("seat", seat, seats)
    cap = ruleset.default_max_turns if spec.max_turns is None else spec.max_turns
    return ruleset, make_header(ruleset, seed, spec.decks, spec.seats, max_turns=cap, known_agents=seats)


class ExtraTime(msgspec.Struct, forbid_unknown_fields=True):
    judge: Name  # named in the signed record and every report of it
    minutes: Annotated[int, msgspec.Meta(le=MAX_CLOCK_S // 60)]  # past 64 bits the log could not hold it
    player: int = -1  # the seat it goes to (-1: every seat's bank, the match's clock)
    reason: str = ""


def replay_page(path: Path, view: str) -> str:
    """A finished table's replay page in ``view``, with the decision review saved beside its log if there is one
    (``annals review LOG --save``; the page shows the view only the seats' reviews it may see)."""
    log = read_log(path)
    try:
        review = saved_review(path, log.header.game_id, log.digest)
    except (StaleReviewError, DamagedReviewError):  # a review of another log, or damaged: the page goes without
        review = None
    return viewer_html(log, view, review=review)


def _field_error(exc: msgspec.DecodeError) -> str:
    """msgspec's ``Expected `int` >= 0 - at `$.clock``` as ``clock: expected an int >= 0``."""
    found = re.fullmatch(r"(.*) - at `\$\.?([^`]*)`", str(exc))
    unknown = re.search(r"unknown field `([^`]*)`", str(exc))
    if unknown is not None:
        fields = NewTable.__struct_fields__
        name = unknown.group(1)
        return f"{name}: unknown field;{did_you_mean(name, fields)} the fields are: {', '.join(fields)}"
    if found is None:
        return f"the body is not a table's parameters ({exc}); send a JSON object"
    what, field = found.groups()
    return f"{field or 'the body'}: {what[0].lower()}{what[1:]}".replace("`", "")


class Server:
    """Every table of one data folder: made, resumed after a restart, run."""

    def __init__(
        self,
        data: Path,
        admin_token: str | None = None,
        *,
        keep_s: float = KEEP_FINISHED_S,
        mark_s: float = MARK_S,
        grace_s: float = 0,
    ):
        self.store = Store(data)
        self.grace_s = grace_s  # a new table's grace period unless its request gives one
        self.admin_token = admin_token or new_token()
        self.keep_s = keep_s
        self.mark_s = mark_s
        self.tables: dict[str, Table] = {}
        self.tasks: dict[str, asyncio.Task[None]] = {}
        self.drops: dict[str, asyncio.TimerHandle] = {}  # finished tables waiting out their grace period
        # the last FINISHED_KEPT tables dropped, each with its log's signature: reused while the log is unchanged
        self.finished: OrderedDict[str, tuple[Signature, Table]] = OrderedDict()
        self.read_back = 0  # finished tables read back from their logs (what ``finished`` saves)
        self.rematches: dict[str, tuple[str, list[str]]] = {}  # a finished table's rematch: its id, tokens not given

    def resume_all(self) -> list[str]:
        """Start again every open game of the data folder, from its live log."""
        resumed = []
        for record in self.store.records():
            log = self.store.log_path(record.table_id)
            if record.table_id in self.tables or not log.exists():
                continue
            try:
                live = LiveTable.resume(log, bank_ms=record.bank_ms)
            except AnnalsError:
                continue  # over, or damaged: nothing to run (annals verify says which)
            self._start(Table(record, live, mark_s=self.mark_s))
            resumed.append(record.table_id)
        return resumed

    def _start(self, table: Table) -> None:
        table_id = table.record.table_id
        self.tables[table_id] = table
        task = asyncio.get_running_loop().create_task(table.run())
        self.tasks[table_id] = task
        task.add_done_callback(lambda _: self._drop_later(table_id) if table.live.over else None)

    def _drop_later(self, table_id: str) -> None:
        if table_id in self.tables and table_id not in self.drops:
            self.drops[table_id] = asyncio.get_running_loop().call_later(self.keep_s, self._drop, table_id)

    def _drop(self, table_id: str) -> None:
        """A finished table leaves memory: its log on disk holds everything (``table`` reads it back)."""
        self.drops.pop(table_id, None)
        self.tasks.pop(table_id, None)
        table = self.tables.pop(table_id, None)
        if table is not None:
            table.hang_up()
            signature = self.store.signature(table_id)
            if table.live.over and signature is not None:
                self.finished[table_id] = (signature, table)
                while len(self.finished) > FINISHED_KEPT:
                    self.finished.popitem(last=False)

    def _finished_record(self, table_id: str) -> TableRecord | None:
        """The record of a table not in memory whose log is closed (None otherwise)."""
        if table_id in self.tables:
            return None
        record = self.store.record(table_id)
        if record is None or self.store.closed(table_id) is None:
            return None
        return record

    def table(self, table_id: str, token: str) -> Table | None:
        """The table ``table_id`` for a client with ``token``: in memory, or a finished one read back from its
        closed log (kept in memory for another grace period; only for a token of its own, so that wrong tokens
        cannot make the server read logs; one of the last ``FINISHED_KEPT`` dropped is taken back as it was, if
        its log is unchanged), or None."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        record = self._finished_record(table_id)
        if record is None or not any(matches(token, h) for h in [*record.token_hashes, record.spectator_hash]):
            return None
        held = self.finished.pop(table_id, None)
        if held is not None and held[0] == self.store.signature(table_id):
            table = held[1]  # dropped a while ago and its log unchanged since: what it would read back
        else:
            try:
                table = Table.finished(record, self.store.log_path(table_id))
            except AnnalsError:
                return None  # damaged: annals verify says how
            self.read_back += 1
        self.tables[table_id] = table
        self._drop_later(table_id)
        return table

    def status(self, table_id: str) -> dict[str, Any] | None:
        """Whether the game is over, its result, log and decisions; a finished table that has left memory from
        its closing record, without reading it back into memory."""
        table = self.tables.get(table_id)
        if table is not None:
            close = table.live.closed
            path, decisions = table.live.path, table.live.decision_count
        else:
            close = self.store.closed(table_id) if self.store.record(table_id) is not None else None
            if close is None:
                return None
            path, decisions = self.store.log_path(table_id), close.decisions
        result = None if close is None else {"winner": close.winner, "reason": close.end_reason}
        started = table.started if table is not None else True
        # who sits at a table still being played; a finished table's status is the same in memory or not
        seated = sorted(table.present) if table is not None and close is None else []
        return {"over": close is not None, "result": result, "log": str(path), "decisions": decisions,
                "in_memory": table is not None, "started": started, "seated": seated}  # fmt: skip

    def extra_time(self, table_id: str, given: ExtraTime) -> dict[str, Any]:
        """A judge's extra time at a table being played (R-CORE-7); ``TableError`` if it cannot be given."""
        table = self.tables.get(table_id)
        if table is None or table.live.over:
            raise TableError(f"no table {table_id!r} is being played here; extra time goes to a game in progress")
        seats = len(table.record.seats)
        if not -1 <= given.player < seats:
            raise TableError(f"player {given.player} is not a seat of the table: give 0 to {seats - 1}, or -1 for all")
        if given.minutes <= 0 or not given.judge.strip():
            raise TableError("extra time names the judge and a positive number of minutes")
        record = Intervention("extra_time", given.judge, player=given.player, minutes=given.minutes,
                              reason=given.reason, time=utc_now())  # fmt: skip
        try:
            written = table.award(record)
        except AnnalsError as exc:
            raise TableError(str(exc)) from None
        return {"record": written.describe(), "clocks_ms": table.live.clocks()}

    def create(self, spec: NewTable) -> dict[str, Any]:
        seed = spec.seed if spec.seed is not None else secrets.randbits(63)
        try:
            ruleset, header = table_header(spec, seed)
        except AnnalsError as exc:
            raise TableError(str(exc)) from None
        cap = header.max_turns
        table_id = new_table_id()
        tokens = [new_token() if seat == "human" else "" for seat in spec.seats]
        spectators = new_token()
        grace_s = self.grace_s if spec.grace is None else spec.grace
        if grace_s < 0:
            raise TableError(f"grace {grace_s} is negative; give the seconds to wait for the players (0: no limit)")
        record = TableRecord(
            table_id, spec.ruleset, spec.decks, spec.seats, seed, cap, spec.clock * 1000, spec.delay,
            [token_hash(t) if t else "" for t in tokens], token_hash(spectators), int(grace_s * 1000),
        )  # fmt: skip
        live = LiveTable(ruleset, header, self.store.log_path(table_id), bank_ms=record.bank_ms)
        self.store.save(record)
        cover = forced.COVER_S if spec.cover_ms < 0 else (spec.cover_ms / 4000, spec.cover_ms / 1000)
        self._start(Table(record, live, mark_s=self.mark_s, cover_s=cover))
        return {"table": table_id, "tokens": tokens, "spectator_token": spectators, "game_id": header.game_id}

    def rematch(self, table_id: str, token: str) -> dict[str, Any]:
        """The same table again for a seat of a casual game that is over (``TableError`` otherwise): made by the
        first seat to ask; each seat is given its own token of it, once."""
        table = self.table(table_id, token)
        seat = table.seat_for(token) if table is not None else None
        if table is None or seat is None or seat < 0:
            raise TableError("only a seat of this table can ask for a rematch")
        if not table.live.over:
            raise TableError("the game is not over yet")
        if table.live.header.tournament is not None:
            raise TableError("a tournament game has no rematch: the event's pairings say who plays next")
        made = self.rematches.get(table_id)
        if made is None:
            r = table.record
            spec = NewTable(r.ruleset, r.decks, r.seats, None, r.max_turns, r.bank_ms // 1000, r.delay)
            created = self.create(spec)
            made = self.rematches[table_id] = (created["table"], list(created["tokens"]))
        new_id, tokens = made
        mine, tokens[seat] = tokens[seat], ""
        if not mine:
            raise TableError("this seat has been given its token of the rematch already")
        return {"table": new_id, "token": mine}

    async def stop(self) -> None:
        for handle in self.drops.values():
            handle.cancel()
        for task in self.tasks.values():
            task.cancel()
        for task in self.tasks.values():
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task


def _admin(request: Request, server: Server) -> bool:
    given = request.headers.get("authorization", "").removeprefix("Bearer ").strip()
    return bool(given) and hmac.compare_digest(given, server.admin_token)


def _asked(table: Table, seat: int) -> int:
    decide = table.decide
    return decide.decision if decide is not None and decide.player == seat else -1


def build_app(server: Server, lifespan: Any = None, extra: list[Route] | None = None) -> Starlette:
    """The application; ``extra``: more routes (the event's desk and pages, ``desk_app.desk_routes``)."""

    async def index(request: Request) -> Response:
        return FileResponse(WEB / "index.html", media_type="text/html")

    async def favicon(request: Request) -> Response:
        """No icon, said without an error: a browser asks for one for every page (the replay page too) and logged
        the 404 in its console."""
        return Response(status_code=204)

    async def create_table(request: Request) -> Response:
        if not _admin(request, server):
            return JSONResponse({"error": "the admin token is wrong or missing"}, status_code=401)
        try:
            spec = msgspec.json.decode(await request.body(), type=NewTable)
        except msgspec.DecodeError as exc:
            return JSONResponse({"error": _field_error(exc)}, status_code=400)
        except RecursionError:
            return JSONResponse({"error": "the body is nested too deep; send a flat JSON object"}, status_code=400)
        try:
            return JSONResponse(server.create(spec), status_code=201)
        except TableError as exc:
            return JSONResponse({"error": str(exc)}, status_code=400)

    async def list_tables(request: Request) -> Response:
        if not _admin(request, server):
            return JSONResponse({"error": "the admin token is wrong or missing"}, status_code=401)
        tables = [{"table": table_id, "over": table.live.over} for table_id, table in server.tables.items()]
        return JSONResponse({"tables": tables})

    async def table_status(request: Request) -> Response:
        if not _admin(request, server):
            return JSONResponse({"error": "the admin token is wrong or missing"}, status_code=401)
        status = server.status(request.path_params["table"])
        if status is None:
            return JSONResponse({"error": "no such table"}, status_code=404)
        return JSONResponse(status)

    async def extra_time(request: Request) -> Response:
        if not _admin(request, server):
            return JSONResponse({"error": "the admin token is wrong or missing"}, status_code=401)
        try:
            given = msgspec.json.decode(await request.body(), type=ExtraTime)
            return JSONResponse(server.extra_time(request.path_params["table"], given))
        except (msgspec.DecodeError, TableError) as exc:
            return JSONResponse({"error": str(exc)}, status_code=400)

    def finished_view(request: Request) -> tuple[Path, int] | Response:
        """The closed log of a table and the view its token opens, or the error response."""
        token = request.query_params.get("token", "")
        table = server.table(request.path_params["table"], token)
        seat = table.seat_for(token) if table is not None else None
        if table is None or seat is None:
            return JSONResponse({"error": "no such table for this token"}, status_code=403)
        if not table.live.over:
            return JSONResponse({"error": "the game is not over yet"}, status_code=409)
        return Path(table.live.path), seat

    async def replay(request: Request) -> Response:
        found = finished_view(request)
        if isinstance(found, Response):
            return found
        path, seat = found
        view = "spectator" if seat < 0 else f"player{seat}"
        page = await asyncio.to_thread(lambda: replay_page(path, view))
        return HTMLResponse(page)

    async def story(request: Request) -> Response:
        found = finished_view(request)
        if isinstance(found, Response):
            return found
        path, seat = found
        lines = await asyncio.to_thread(lambda: list(render_story(view_log(read_log(path), seat))))
        return PlainTextResponse("\n".join(lines) + "\n")

    async def rematch(request: Request) -> Response:
        token = request.query_params.get("token", "")
        try:
            made = server.rematch(request.path_params["table"], token)
        except TableError as exc:
            return JSONResponse({"error": str(exc)}, status_code=409)
        return JSONResponse(made, status_code=201)

    async def seat_socket(websocket: WebSocket) -> None:
        token = websocket.query_params.get("token", "")
        table = server.table(websocket.path_params["table"], token)
        seat = table.seat_for(token) if table is not None else None
        if table is None or seat is None:
            await websocket.close(code=4403)  # before accept: the handshake is refused (HTTP 403)
            return
        await websocket.accept()
        boards = websocket.query_params.get("boards", "1") != "0"
        svg = websocket.query_params.get("svg", "0") == "1"
        conn = table.attach(seat, _sender(websocket), boards=boards, svg=svg, hangup=websocket.close,
                            settings=_settings(websocket.query_params))  # fmt: skip
        try:
            while True:
                frame = await websocket.receive()
                if frame["type"] == "websocket.disconnect":
                    break
                try:
                    message = _message(frame)
                except p.ProtocolError as exc:
                    conn.put(p.encode(p.Error(exc.code, str(exc), _asked(table, seat))))
                    continue
                if seat == SPECTATOR:
                    conn.put(p.encode(p.Error(p.SPECTATOR, "a spectator watches; only a seat's token can act")))
                    continue
                if type(message) is p.Settings:
                    table.set_settings(seat, message)  # then queued too: it may answer the question now asked
                table.hear(seat, message)
        except (WebSocketDisconnect, RuntimeError):
            pass
        except Exception as exc:  # a fault of ours: the client is told why it is closed; no traceback on stderr
            with contextlib.suppress(Exception):
                await websocket.close(code=1011, reason=f"server error ({type(exc).__name__}); reconnect")
        finally:
            table.detach(conn)

    routes = [
        Route("/", index),
        Route("/favicon.ico", favicon),
        Route("/play/{table}", index),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables", list_tables, methods=["GET"]),
        Route("/api/tables/{table}", table_status),
        Route("/api/tables/{table}/extra-time", extra_time, methods=["POST"]),
        Route("/api/rematch/{table}", rematch, methods=["POST"]),
        Route("/replay/{table}", replay),
        Route("/log/{table}", story),
        WebSocketRoute("/ws/{table}", seat_socket),
        *(extra or []),
        Mount("/static", StaticFiles(directory=WEB), name="static"),
    ]
    return Starlette(routes=routes, lifespan=lifespan)


def _message(frame: Any) -> p.ClientMessage:
    """A received frame as a seat's message, or ``ProtocolError`` naming what is wrong with it: a binary frame
    (the protocol is JSON text), JSON nested past what the decoder follows, or anything ``decode_client`` refuses."""
    text = frame.get("text")
    if text is None:
        size = len(frame.get("bytes") or b"")
        raise p.ProtocolError(p.MALFORMED, f"a binary frame ({size} bytes); send JSON in text frames")
    try:
        return p.decode_client(text)
    except RecursionError:
        raise p.ProtocolError(p.MALFORMED, "JSON nested too deep; send one flat JSON object per message") from None


def _settings(query: Any) -> p.Settings | None:
    """``&automatic=1&auto_pass=1&stops=my_attack,opponent_reaction`` on a seat's socket address: its settings
    from the first question on (a ``settings`` message can only follow a question already sent)."""
    if not any(k in query for k in ("automatic", "auto_pass", "stops")):
        return None
    stops = [s for s in query.get("stops", "").split(",") if s]
    return p.Settings(query.get("automatic", "0") == "1", query.get("auto_pass", "0") == "1", stops)


def _sender(websocket: WebSocket) -> Any:
    async def send(message: bytes) -> None:
        await websocket.send_text(message.decode())

    return send
