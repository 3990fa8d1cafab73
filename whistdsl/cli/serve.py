"""`whistdsl serve`: a table in the browser for friends and computer players (whistdsl/web).

It binds the address itself (so a port in use is said plainly, and `--port 0` takes a free one),
prints the address, and runs uvicorn on that socket until Ctrl-C or SIGTERM. Every table is kept
in an SQLite database (`--db`, default `tables.sqlite3` in the per-user data folder), so a server
started again has every table where it was; a table abandoned for `--close-after` hours is closed
(its records kept).
"""

from __future__ import annotations

import ipaddress
import socket
from pathlib import Path
from typing import Annotated

import typer

from ..printable import printable
from .options import err, usage

#: The database's name in the per-user data folder (records/kept.py `data_dir`).
DATABASE = "tables.sqlite3"


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _bound(host: str, port: int) -> socket.socket:
    """A listening socket on host:port (raises OSError)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listener = socket.socket(family, socket.SOCK_STREAM)
    try:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((host, port))
        listener.listen(128)
    except OSError:
        listener.close()
        raise
    return listener


def serve_command(
    host: Annotated[
        str,
        typer.Option(
            "--host", metavar="ADDRESS", help="The address to listen on; another than 127.0.0.1 lets anyone on the network reach the tables."
        ),
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", metavar="PORT", min=0, max=65535, help="The port (0: a free one, printed).")] = 8000,
    db: Annotated[
        Path | None, typer.Option("--db", metavar="PATH", help=f"The table database (default: {DATABASE} in the per-user data folder).")
    ] = None,
    open_browser: Annotated[bool, typer.Option("--open", help="Open the start page in the browser.")] = False,
    bot_pause: Annotated[
        float,
        typer.Option("--bot-pause", metavar="SECONDS", min=0.0, max=10.0, help="Seconds between computer players' moves, so people see each card."),
    ] = 0.6,
    close_after: Annotated[
        float,
        typer.Option(
            "--close-after",
            metavar="HOURS",
            min=0.01,
            max=24 * 365,
            help="Close a table nobody has been at, and nothing played at, for this many hours (its records stay downloadable by its links).",
        ),
    ] = 24.0,
    secure_cookies: Annotated[
        bool,
        typer.Option("--secure-cookies", help="Mark the seat cookies Secure (sent over HTTPS only): for a server behind a proxy that speaks HTTPS."),
    ] = False,
) -> None:
    """Serve tables in the browser: friends and computer players play a ruleset together.

    Open the printed address, choose a ruleset, seat people and computer players, and send the
    invite link. Every answer is kept: stop the server and start it again, and every table goes
    on where it was.

    \b
    Examples:
      whistdsl serve
      whistdsl serve --open
      whistdsl serve --port 8080 --db tables.sqlite3
    """
    try:
        import uvicorn

        from ..web.app import create_app
        from ..web.protocol import MAX_MESSAGE_BYTES
        from ..web.store import StoreError
        from ..web.tables import Limits
    except ImportError as e:
        err(f"serve needs the web extra ({e.name} is not installed): pip install 'whistdsl[web]'")
        raise typer.Exit(1) from None
    if db is None:
        from ..records.kept import data_dir

        db = data_dir() / DATABASE
    try:
        db.parent.mkdir(parents=True, exist_ok=True)
        app = create_app(db, Limits(close_after=close_after * 3600), bot_pause=bot_pause, secure_cookies=secure_cookies)
    except StoreError as e:
        err(str(e))
        raise typer.Exit(1) from None
    except OSError as e:
        err(f"{printable(str(db))}: {e.strerror or e}")
        raise typer.Exit(1) from None
    try:
        listener = _bound(host, port)
    except OSError as e:
        raise usage(f"--host {printable(host)} --port {port}: cannot listen there: {e.strerror or e}") from None
    port = listener.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    address = f"http://{shown}:{port}/"
    if not _loopback(host):
        err(f"--host {printable(host)}: anyone on the network can reach this server; the links are the only keys to its tables")
    typer.echo(f"whistdsl serve: {address} (tables kept in {printable(str(db))}; Ctrl-C stops)")
    if open_browser:
        import webbrowser

        webbrowser.open(address)
    config = uvicorn.Config(
        app,
        ws="websockets-sansio",
        ws_max_size=MAX_MESSAGE_BYTES,
        ws_per_message_deflate=False,
        log_level="warning",
        lifespan="on",
        proxy_headers=False,
    )
    uvicorn.Server(config).run(sockets=[listener])
