"""What the server's tests share: a `whistdsl serve` application on a database in a temporary
folder, driven through Starlette's test client as pages drive it (forms, links, sockets).

`Server(tmp_path)` is a context manager: `open_table(...)` posts the set-up form and follows the
host link; `join(table, seat, name)` takes a seat by the invite link; `socket(table, token)` opens
a socket and says hello. `Socket.until(predicate)` reads frames until one satisfies it, keeping
every frame read (`frames`), so a test never waits for a frame that will not come.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette, uvicorn, websockets) is not installed")
pytest.importorskip("httpx2", reason="Starlette's test client needs httpx2 (the test extra)")

from starlette.testclient import TestClient

from whistdsl.web.app import create_app
from whistdsl.web.tables import Limits, Table

ORIGIN = {"origin": "http://testserver"}


class Socket:
    """One page's socket: the frames it has read, and the way to read more."""

    def __init__(self, session: Any, token: str):
        self.session = session
        self.token = token
        self.frames: list[dict[str, Any]] = []
        self.errors: list[dict[str, Any]] = []

    def send(self, message: dict[str, Any] | str) -> None:
        self.session.send_text(message if isinstance(message, str) else json.dumps(message))

    def read(self) -> dict[str, Any]:
        frame = json.loads(self.session.receive_text())
        (self.frames if frame["type"] == "state" else self.errors).append(frame)
        return frame

    def until(self, predicate: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        """The latest state read when it satisfies `predicate`, else the first state read from now
        on that does (an error frame meanwhile fails the test rather than waiting on)."""
        if self.frames and predicate(self.frames[-1]):
            return self.frames[-1]
        while True:
            frame = self.read()
            if frame["type"] == "error":
                raise AssertionError(f"an error frame while waiting for a state: {frame}")
            if predicate(frame):
                return frame

    def error(self) -> dict[str, Any]:
        """Read frames until an error frame; that frame."""
        while True:
            frame = self.read()
            if frame["type"] == "error":
                return frame

    @property
    def state(self) -> dict[str, Any]:
        return self.frames[-1]

    def answer(self, answer: dict[str, Any], step: int | None = None) -> None:
        self.send({"type": "answer", "step": self.state["step"] if step is None else step, "answer": answer})


class Server:
    """An application with its database in `folder`; a context manager (its lifespan runs).
    A test answers far faster than a person: unless `limits` says otherwise, a socket may send
    a thousand messages a second."""

    def __init__(
        self,
        folder: Path,
        limits: Limits | None = None,
        db: str = "tables.sqlite3",
        bot_pause: float = 0,
        clock: Callable[[], float] = time.time,
        secure_cookies: bool = False,
    ):
        self.db = folder / db
        app_limits = limits or Limits(messages_per_second=1000, burst=1000)
        self.app = create_app(self.db, app_limits, bot_pause=bot_pause, workers=2, clock=clock, secure_cookies=secure_cookies)
        self.client = TestClient(self.app)
        self._sockets: list[Any] = []

    def __enter__(self) -> Server:
        self.client.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        for session in reversed(self._sockets):
            try:
                session.__exit__(None, None, None)
            except Exception:
                pass
        self.client.__exit__(*exc)

    def on_loop(self, function: Callable[..., Any], *args: Any) -> Any:
        """`function(*args)` run on the server's event loop (where every change to a table is made)."""
        return self.client.portal.call(function, *args)  # type: ignore[union-attr]

    @property
    def tables(self) -> dict[str, Table]:
        return self.app.state.tables.tables

    def open_table(
        self, ruleset: str, kinds: list[str], text: str = "", params: dict[str, str] | None = None, think: str = "0.05"
    ) -> tuple[Table, str]:
        """Post the set-up form; the table and the host's token (from the host link)."""
        form = {"ruleset": ruleset, "text": text, "players": str(len(kinds)), "think": think}
        form.update({f"seat{s}": k for s, k in enumerate(kinds)})
        form.update({f"param.{k}": v for k, v in (params or {}).items()})
        response = self.client.post("/tables", data=form, follow_redirects=False)
        assert response.status_code == 303, response.text[:2000]
        _, _, table_id, role, host = response.headers["location"].split("/")
        assert role == "host"
        return self.tables[table_id], host

    def join(self, table: Table, seat: int, name: str) -> str:
        """Take `seat` by the invite link; the seat's token (from the seat link it leads to)."""
        response = self.client.post(f"/t/{table.id}/join/{table.invite}", data={"seat": str(seat), "name": name}, follow_redirects=False)
        assert response.status_code == 303, response.text[:2000]
        return response.headers["location"].split("/")[-1]

    def connect(self, table: Table, headers: dict[str, str] | None = None) -> Any:
        session = self.client.websocket_connect(f"/t/{table.id}/ws", headers=ORIGIN if headers is None else headers)
        entered = session.__enter__()
        self._sockets.append(session)
        return entered

    def socket(self, table: Table, token: str) -> Socket:
        """A socket that has said hello with `token` and read its first state."""
        socket = Socket(self.connect(table), token)
        socket.send({"type": "hello", "token": token})
        socket.until(lambda f: True)
        return socket


def settled(humans: set[int], after: int) -> Callable[[dict[str, Any]], bool]:
    """A state after step `after` where a person is to act, or the game is over."""
    return lambda f: f["step"] > after and (f["over"] is not None or f["view"]["to_act"] in humans or bool(f["table"]["problem"]))
