"""The Starlette application of `whistdsl serve`: its routes, security headers and sockets.

    GET  /                         the start page          POST /setup   lint, then the table's form
    POST /tables                   open a table            GET  /rules   a bundled ruleset in words
    GET  /t/ID/host/TOKEN          the host's table page   GET  /t/ID/seat/TOKEN   a seat's page
    GET  /t/ID/watch/TOKEN         a spectator's page      GET|POST /t/ID/join/INVITE   take a seat
    GET  /t/ID                     back to your seat (its cookie)
    GET  /t/ID/rules               the table's rules in words
    GET  /t/ID/record/N/TOKEN      a finished game's record (JSON)
    WS   /t/ID/ws                  the table's frames (web/protocol.py)

Every response carries a Content-Security-Policy without inline script; every socket's Origin
must be this server's own host. Every page is in the language web/language.py chooses (`?lang=`,
its cookie, Accept-Language).
"""

from __future__ import annotations

import asyncio
import gc
import tempfile
import time
from collections.abc import Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..resources import bundled_rulesets
from ..words import Words
from . import pages
from .language import LanguageCookie, page_words
from .protocol import MAX_MESSAGE_BYTES, BadMessage, read_message
from .store import Store, StoredKeys
from .tables import HUMAN, Connection, Limits, Table, TableError, Tables, token_role

#: What every page may load: its own scripts, styles and sockets, nothing inline, no frames.
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)
SECURITY_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
]
#: The largest form a page may post: a ruleset of 256 KiB, percent-encoded, and its fields.
MAX_FORM_BYTES = 1024 * 1024
#: How long a socket may wait before saying who it is.
HELLO_SECONDS = 10.0
#: Messages refused for speed before the socket is closed.
TOO_FAST_CLOSES = 50
#: Close codes: a policy refused (no such table, a wrong token), a message too big.
POLICY, TOO_BIG = 4403, 1009
STATIC = Path(__file__).resolve().parent / "static"


class SecurityHeaders:
    """ASGI middleware: the security headers on every HTTP response."""

    def __init__(self, app: Any):
        self.app = app

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: dict) -> None:
            if message["type"] == "http.response.start":
                message.setdefault("headers", [])
                message["headers"] = [*message["headers"], *SECURITY_HEADERS]
            await send(message)

        await self.app(scope, receive, with_headers)


class FormTooLarge(Exception):
    pass


async def read_form(request: Request) -> dict[str, str]:
    """A posted form (application/x-www-form-urlencoded), read within MAX_FORM_BYTES."""
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_FORM_BYTES:
            raise FormTooLarge
    try:
        return dict(parse_qsl(body.decode("utf-8"), keep_blank_values=True, max_num_fields=100))
    except (UnicodeDecodeError, ValueError):
        return {}


def lint_choice(chosen: str, text: str, settings: list[str]):
    """Lint a bundled ruleset, or a pasted one written alone into a new private folder (so its
    `extends:` reaches only bundled rulesets): the checks and limits of `whistdsl lint`."""
    from ..rules.lint import lint_path

    if text.strip():
        shown = "your-ruleset.yaml"
        with tempfile.TemporaryDirectory(prefix="whistdsl-serve-") as folder:
            path = Path(folder) / shown
            path.write_text(text, encoding="utf-8", errors="surrogateescape")
            return lint_path(path, shown, Path(folder), settings), shown
    path = bundled_rulesets().get(chosen)  # type: ignore[assignment]  # None is refused just below
    if path is None:
        return None, chosen
    return lint_path(path, f"{chosen}.yaml", None, settings), chosen


def create_app(  # noqa: C901 the routes are closures over the app's state
    db: Path | str,
    limits: Limits | None = None,
    bot_pause: float = 0.6,
    workers: int = 2,
    clock: Callable[[], float] = time.time,
    secure_cookies: bool = False,
) -> Starlette:
    """The application, with its table database at `db` (opened now: StoreError if it cannot be);
    `clock` gives the times it keeps and closes abandoned tables by; `secure_cookies` marks the
    seat cookies Secure (a server behind a proxy that speaks HTTPS)."""
    store = Store(db, clock)
    manager = Tables(store, limits, bot_pause=bot_pause, workers=workers)

    async def sweep() -> None:
        while True:
            await asyncio.sleep(manager.sweep_seconds)
            manager.close_abandoned()

    @asynccontextmanager
    async def lifespan(app: Starlette):
        gc.freeze()  # the modules loaded so far stay for good: a full collection (a pause of the loop) no longer scans them
        manager.start()
        sweeper = asyncio.get_running_loop().create_task(sweep())
        try:
            yield
        finally:
            sweeper.cancel()
            manager.stop()
            store.close()

    def html(text: str, status: int = 200) -> HTMLResponse:
        return HTMLResponse(text, status_code=status)

    def set_seat_cookie(response: Response, table_id: str, token: str) -> None:
        """The seat's token, for this table's pages only, never read by a script nor sent from
        another site (nor, with `secure_cookies`, over plain HTTP)."""
        response.set_cookie("seat", token, path=f"/t/{table_id}", httponly=True, samesite="strict", secure=secure_cookies)

    def table_or_none(request: Request | WebSocket) -> Table | None:
        return manager.tables.get(request.path_params["table_id"])

    def closed_table(request: Request, token: str) -> tuple[StoredKeys, tuple[str, int | None]] | None:
        """A closed table's keys and whose `token` is there, when it is one of its links' tokens."""
        keys = store.keys(request.path_params["table_id"])
        if keys is None or keys.state != "closed":
            return None
        who = token_role(token, keys.seat_hashes, keys.host_hash, keys.watch)
        return (keys, who) if who is not None else None

    def closed_page(keys: StoredKeys, token: str, w: Words) -> Response:
        records = [(n, f"/t/{keys.id}/record/{n}/{token}") for n in keys.records]
        return html(pages.closed_page(keys.ruleset, records, manager.limits.close_after / 3600, w))

    async def start(request: Request) -> Response:
        return html(pages.start_page(bundled_rulesets(), w=page_words(request)))

    def address(request: Request) -> str:
        return request.client.host if request.client else ""

    def too_many(message: str) -> Response:
        """429, for a client address over its allowance of linted rulesets or opened tables."""
        response = html(pages.error_page(message), 429)
        response.headers["retry-after"] = "60"
        return response

    async def setup(request: Request) -> Response:
        w = page_words(request)
        try:
            form = await read_form(request)
        except FormTooLarge:
            return html(pages.error_page(w.text("web.form_too_large"), w), 413)
        if not manager.linting.allow(address(request)):
            return too_many(w.text("web.too_many_checked"))
        chosen, text = form.get("ruleset", ""), form.get("text", "")
        result, shown = await run_in_threadpool(lint_choice, chosen, text, [])
        if result is None:
            return html(pages.start_page(bundled_rulesets(), problem=w.text("web.choose_ruleset"), w=w), 400)
        explanation = None
        if result.ruleset is not None:
            from ..explain import explain

            explanation = explain(result.ruleset)
        from ..players.bots import BOTS

        status = 200 if result.ruleset is not None else 422
        return html(pages.setup_page(chosen, text, shown, result.findings, result.sources, result.ruleset, sorted(BOTS), explanation, w=w), status)

    async def open_table(request: Request) -> Response:
        from ..players.bots import BOTS
        from ..rules.ruleset import SettingError

        w = page_words(request)
        try:
            form = await read_form(request)
        except FormTooLarge:
            return html(pages.error_page(w.text("web.form_too_large"), w), 413)
        chosen, text = form.get("ruleset", ""), form.get("text", "")
        settings = [f"{key[6:]}={value}" for key, value in form.items() if key.startswith("param.")]

        async def again(problem: str, status: int = 422) -> Response:
            result, shown = await run_in_threadpool(lint_choice, chosen, text, [])
            rules = result.ruleset if result is not None else None
            findings = result.findings if result is not None else []
            return html(
                pages.setup_page(chosen, text, shown, findings, result.sources if result else {}, rules, sorted(BOTS), problem=problem, w=w), status
            )

        if not manager.opening.allow(address(request)):
            return too_many(w.text("web.too_many_opened"))
        if not manager.linting.allow(address(request)):
            return too_many(w.text("web.too_many_checked"))
        try:
            result, shown = await run_in_threadpool(lint_choice, chosen, text, settings)
        except SettingError as e:
            return await again(str(e))
        if result is None or result.ruleset is None:
            return await again(w.text("web.has_errors"))
        rules = result.ruleset
        try:
            players = int(form.get("players", str(rules.players_default)))
            think = float(form.get("think", "0.5"))
        except ValueError:
            return await again(w.text("web.players_number"))
        if not rules.players_min <= players <= rules.players_max:
            return await again(w.text("web.players_range", name=rules.name, low=rules.players_min, high=rules.players_max))
        if not 0.01 <= think <= 10:
            return await again(w.text("web.think_range"))
        kinds = [form.get(f"seat{s}", HUMAN) for s in range(players)]
        try:
            table, host = manager.open_table(rules, kinds, think)
        except TableError as e:
            return await again(e.text(w), 503 if e.code == "full" else 422)
        except ValueError as e:
            return await again(str(e))
        return RedirectResponse(f"/t/{table.id}/host/{host}", status_code=303)

    async def rules_words(request: Request) -> Response:
        from ..explain import explain
        from ..rules.lint import RulesetError, load_rules

        w = page_words(request)
        name = request.query_params.get("ruleset", "")
        if name not in bundled_rulesets():
            return html(pages.error_page(w.text("web.no_such_ruleset"), w), 404)
        try:
            rules = load_rules(name)
        except RulesetError:
            return html(pages.error_page(w.text("web.not_clean"), w), 422)
        return html(pages.rules_page(explain(rules), w, switch=f"/rules?{urlencode({'ruleset': name})}"))

    async def table_rules(request: Request) -> Response:
        from ..explain import explain

        w = page_words(request)
        table = table_or_none(request)
        if table is None:
            return html(pages.error_page(w.text("web.no_such_table"), w), 404)
        return html(pages.rules_page(explain(table.rules, table.game.players), w))

    async def table_view(request: Request) -> Response:
        w = page_words(request)
        table = table_or_none(request)
        token = request.path_params["token"]
        role = request.path_params["role"]
        who = table.role_of(token) if table is not None else None
        if table is None and (closed := closed_table(request, token)) is not None and closed[1][0] == role:
            return closed_page(closed[0], token, w)
        if who is None or who[0] != role:
            return html(pages.error_page(w.text("web.not_a_link"), w), 404)
        response = html(pages.table_page(w))
        if role == "seat":
            set_seat_cookie(response, table.id, token)  # type: ignore[union-attr]  # a role is found only at a table (`who` is None otherwise)
        return response

    async def back_to_seat(request: Request) -> Response:
        w = page_words(request)
        table = table_or_none(request)
        token = request.cookies.get("seat", "")
        who = table.role_of(token) if table is not None and token else None
        if table is None and token and (closed := closed_table(request, token)) is not None and closed[1][0] == "seat":
            return closed_page(closed[0], token, w)
        if who is None or who[0] != "seat":
            return html(pages.error_page(w.text("web.by_your_link"), w), 404)
        return RedirectResponse(f"/t/{table.id}/seat/{token}", status_code=303)  # type: ignore[union-attr]  # a role is found only at a table (`who` is None otherwise)

    async def join(request: Request) -> Response:
        w = page_words(request)
        table = table_or_none(request)
        invite = request.path_params["invite"]
        if table is None or table.invite != invite:
            return html(pages.error_page(w.text("web.not_an_invite"), w), 404)
        problem = ""
        if request.method == "POST":
            try:
                form = await read_form(request)
            except FormTooLarge:
                return html(pages.error_page(w.text("web.form_too_large"), w), 413)
            try:
                seat = int(form.get("seat", "-1"))
                token = table.join(invite, seat, form.get("name", ""))
            except ValueError:
                problem = w.text("error.pick_a_seat")
            except TableError as e:
                problem = e.text(w)
            else:
                response = RedirectResponse(f"/t/{table.id}/seat/{token}", status_code=303)
                set_seat_cookie(response, table.id, token)
                return response
        free = [(h.seat, h.name) for h in table.holders if h.person and h.token_hash is None]
        return html(pages.join_page(table.rules.name, free, problem, w), 200 if not problem else 422)

    async def record(request: Request) -> Response:
        w = page_words(request)
        table = table_or_none(request)
        token = request.path_params["token"]
        known = table.role_of(token) is not None if table is not None else closed_table(request, token) is not None
        if not known:
            return html(pages.error_page(w.text("web.no_such_record"), w), 404)
        table_id = request.path_params["table_id"]
        text = store.record(table_id, request.path_params["number"])
        if text is None:
            return html(pages.error_page(w.text("web.not_finished"), w), 404)
        filename = f"whistdsl-{table_id}-{request.path_params['number']}.json"
        return Response(text, media_type="application/json", headers={"content-disposition": f'attachment; filename="{filename}"'})

    async def socket(websocket: WebSocket) -> None:
        table = table_or_none(websocket)
        origin = websocket.headers.get("origin", "")
        host = websocket.headers.get("host", "")
        if table is None or not origin or urlsplit(origin).netloc != host:
            await websocket.close(code=POLICY)
            return
        client = websocket.client.host if websocket.client else ""
        limits = manager.limits
        if manager.clients[client] >= limits.connections_per_client or len(table.connections) >= limits.connections_per_table:
            await websocket.close(code=POLICY)
            return
        manager.clients[client] += 1
        try:
            await websocket.accept()
            await _serve_socket(websocket, table, client)
        except WebSocketDisconnect:
            pass
        finally:
            manager.clients[client] -= 1
            if manager.clients[client] <= 0:
                del manager.clients[client]

    async def _serve_socket(websocket: WebSocket, table: Table, client: str) -> None:
        try:
            first = await asyncio.wait_for(_receive(websocket), HELLO_SECONDS)
            hello = read_message(first) if first is not None else None
        except (TimeoutError, BadMessage):
            hello = None
        who = table.role_of(hello["token"]) if hello is not None and hello.get("type") == "hello" else None
        if who is None:
            await websocket.close(code=POLICY)  # nothing of the table was sent
            return
        role, seat = who
        connection = Connection(websocket.send_text, role, seat, client, manager.limits)
        table.connections.add(connection)
        sender = asyncio.get_running_loop().create_task(connection.run_sender())
        table.changed()  # everyone sees who is here
        refused = 0
        try:
            while True:
                text = await _receive(websocket)
                if text is None:
                    return
                if not connection.allow():
                    refused += 1
                    connection.push_error("too_fast", "too many messages: wait a moment", "error.too_fast")
                    if refused >= TOO_FAST_CLOSES:
                        await _close_after_sending(websocket, connection, sender, POLICY)
                        return
                    continue
                try:
                    message = read_message(text)
                    _handle(table, connection, message)
                except BadMessage as e:
                    connection.push_error(e.code, e.message)
                    if e.code == "too_big":
                        await _close_after_sending(websocket, connection, sender, TOO_BIG)
                        return
                except TableError as e:
                    connection.push_error(e.code, e.message, e.words, e.values)
        finally:
            connection.finish()
            table.connections.discard(connection)
            sender.cancel()
            table.changed()

    routes = [
        Route("/", start),
        Route("/setup", setup, methods=["POST"]),
        Route("/tables", open_table, methods=["POST"]),
        Route("/rules", rules_words),
        Route("/t/{table_id}", back_to_seat),
        Route("/t/{table_id}/rules", table_rules),
        Route("/t/{table_id}/join/{invite}", join, methods=["GET", "POST"]),
        Route("/t/{table_id}/record/{number:int}/{token}", record),
        Route("/t/{table_id}/{role:str}/{token}", table_view),
        WebSocketRoute("/t/{table_id}/ws", socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.tables = manager
    app.state.store = store
    app.add_middleware(LanguageCookie, secure=secure_cookies)
    app.add_middleware(SecurityHeaders)
    return app


async def _close_after_sending(websocket: WebSocket, connection: Connection, sender: asyncio.Task, code: int) -> None:
    """Send what is waiting for the page (the error that says why), then close the socket."""
    connection.finish()
    try:
        await asyncio.wait_for(sender, HELLO_SECONDS)
    except (TimeoutError, Exception):
        pass
    await websocket.close(code=code)


async def _receive(websocket: WebSocket) -> str | bytes | None:
    """The next message's text (or bytes), or None when the page has gone."""
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        return None
    text = message.get("text")
    return text if text is not None else message.get("bytes") or b""


def _handle(table: Table, connection: Connection, message: dict[str, Any]) -> None:
    """One checked message from a connection that said hello (raises TableError)."""
    kind = message["type"]
    if kind == "answer":
        if connection.role != "seat" or connection.seat is None:
            raise TableError("not_allowed", "only a seat answers")
        table.answer(connection.seat, message["answer"], message["step"])
    elif kind == "rematch":
        if connection.role not in ("seat", "host"):
            raise TableError("not_allowed", "a seat or the host asks for a rematch")
        table.rematch()
    elif kind == "hand_over":
        if connection.role != "host":
            raise TableError("not_allowed", "only the host hands a seat over")
        table.hand_over(message["seat"], message["to"])
    else:
        raise TableError("bad_message", "you have already said hello")


__all__ = ["CSP", "MAX_MESSAGE_BYTES", "create_app"]
