"""`whistdsl serve` as a person starts it: it prints its address, serves the start page, warns
when it listens beyond this machine, says plainly what stops it, and a server killed and started
again still has its tables."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("uvicorn", reason="the web extra (starlette, uvicorn, websockets) is not installed")

from typer.testing import CliRunner

from whistdsl.cli import app

ADDRESS = re.compile(r"^whistdsl serve: (http://[^ ]+/) \(tables kept in (.+); Ctrl-C stops\)$")


class Running:
    """`whistdsl serve ARGS` in a process of its own; `address` is what it printed."""

    def __init__(self, *args: str):
        self.process = subprocess.Popen(
            [sys.executable, "-m", "whistdsl", "serve", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, stdin=subprocess.DEVNULL
        )
        line = self.process.stdout.readline().rstrip("\n")  # type: ignore[union-attr]
        match = ADDRESS.match(line)
        if match is None:
            self.process.kill()
            raise AssertionError(f"no address printed: {line!r}; stderr: {self.process.stderr.read()}")  # type: ignore[union-attr]
        self.address, self.db = match.group(1), match.group(2)

    def get(self, path: str) -> tuple[int, str]:
        with urllib.request.urlopen(self.address.rstrip("/") + path, timeout=30) as response:
            return response.status, response.read().decode("utf-8")

    def post(self, path: str, form: dict[str, str]) -> str:
        """The address a posted form leads to (its redirect, not followed)."""

        class NoRedirect(urllib.request.HTTPRedirectHandler):
            def redirect_request(self, *args, **kwargs):
                return None

        opener = urllib.request.build_opener(NoRedirect)
        data = urllib.parse.urlencode(form).encode()
        try:
            opener.open(self.address.rstrip("/") + path, data=data, timeout=30)
        except urllib.error.HTTPError as e:
            assert e.code == 303, e.read()[:500]
            return e.headers["location"]
        raise AssertionError("no redirect")

    def stop(self, sig: int = signal.SIGTERM) -> tuple[int, str]:
        self.process.send_signal(sig)
        _, err = self.process.communicate(timeout=60)
        return self.process.returncode, err


def test_serve_prints_its_address_serves_the_start_page_and_stops_cleanly_on_sigterm(tmp_path: Path):
    server = Running("--port", "0", "--db", str(tmp_path / "t.sqlite3"))
    try:
        assert server.address.startswith("http://127.0.0.1:") and server.db == str(tmp_path / "t.sqlite3")
        status, page = server.get("/")
        assert status == 200 and "serbian" in page
    finally:
        code, err = server.stop()
    assert code in (0, -signal.SIGTERM) and "Traceback" not in err  # uvicorn ends by the signal once it has shut down
    assert (tmp_path / "t.sqlite3").is_file()


def test_a_server_killed_and_started_again_still_has_its_table(tmp_path: Path):
    db = str(tmp_path / "t.sqlite3")
    server = Running("--port", "0", "--db", db)
    try:
        host_link = server.post("/tables", {"ruleset": "serbian", "text": "", "players": "4", **{f"seat{s}": "random" for s in range(4)}})
        assert re.fullmatch(r"/t/[\w-]+/host/[\w-]+", host_link)
    finally:
        server.stop(signal.SIGKILL)
    again = Running("--port", "0", "--db", db)
    try:
        status, page = again.get(host_link)
        assert status == 200 and 'src="/static/table.js"' in page
    finally:
        again.stop()


def test_listening_beyond_this_machine_is_said(tmp_path: Path):
    server = Running("--host", "0.0.0.0", "--port", "0", "--db", str(tmp_path / "t.sqlite3"))
    code, err = server.stop()
    assert "--host 0.0.0.0: anyone on the network can reach this server" in err


def test_a_database_it_cannot_use_and_a_port_it_cannot_take_are_said_plainly(tmp_path: Path):
    runner = CliRunner()
    folder = tmp_path / "a-folder"
    folder.mkdir()
    result = runner.invoke(app, ["serve", "--db", str(folder)])
    assert result.exit_code == 1 and "cannot use it as the table database" in result.output
    import socket

    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen(1)
    try:
        result = runner.invoke(app, ["serve", "--port", str(taken.getsockname()[1]), "--db", str(tmp_path / "t.sqlite3")])
    finally:
        taken.close()
    assert result.exit_code == 2 and "cannot listen there" in result.output
    assert os.path.exists(tmp_path / "t.sqlite3")


@pytest.mark.parametrize("hours", ["0", "-1", "soon"])
def test_a_close_after_time_it_cannot_use_is_said_plainly(tmp_path: Path, hours: str):
    result = CliRunner().invoke(app, ["serve", "--close-after", hours, "--db", str(tmp_path / "t.sqlite3")])
    assert result.exit_code == 2 and "--close-after" in result.output
    assert not (tmp_path / "t.sqlite3").exists()


@pytest.mark.parametrize("options", [[], ["--secure-cookies"]])
def test_secure_cookies_marks_the_seat_cookie_secure(tmp_path: Path, options: list[str]):
    import sqlite3

    db = tmp_path / "t.sqlite3"
    server = Running("--port", "0", "--db", str(db), *options)
    try:
        host_link = server.post(
            "/tables", {"ruleset": "serbian", "text": "", "players": "4", "seat0": "human", **{f"seat{s}": "random" for s in range(1, 4)}}
        )
        table_id = host_link.split("/")[2]
        with sqlite3.connect(db) as reader:
            (invite,) = reader.execute("SELECT invite FROM tables WHERE id = ?", (table_id,)).fetchone()
        request = urllib.request.Request(
            server.address.rstrip("/") + f"/t/{table_id}/join/{invite}", data=urllib.parse.urlencode({"seat": "0", "name": "Ana"}).encode()
        )
        with pytest.raises(urllib.error.HTTPError) as redirect:  # the 303 to the seat's link, not followed
            urllib.request.build_opener(type("NoRedirect", (urllib.request.HTTPRedirectHandler,), {"redirect_request": lambda *a, **k: None})).open(
                request, timeout=30
            )
        cookie = redirect.value.headers["set-cookie"]
    finally:
        server.stop()
    assert redirect.value.code == 303 and cookie.startswith("seat=") and "HttpOnly" in cookie
    assert ("; Secure" in cookie or "; secure" in cookie) == bool(options)
