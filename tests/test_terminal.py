"""whistdsl/cli/terminal.py: the terminal's width is the one shutil (and so click's help) finds,
in a pipe and in a terminal; a text wrapped for a terminal is fitted to it, and one written to a
file or a pipe is not. (The pager is tested at a terminal, in tests/test_play_cli.py.)"""

from __future__ import annotations

import fcntl
import io
import json
import os
import pty
import select
import signal
import struct
import subprocess
import sys
import termios
import time

import pytest

from whistdsl.cli.terminal import NARROWEST, wrap_width

#: The terminal's width as whistdsl and shutil find it, in this environment and on these streams.
ASK = "import json, shutil; from whistdsl.cli.terminal import columns; print(json.dumps([columns(), shutil.get_terminal_size().columns]))"
#: COLUMNS as a person may have it: unset, a width, nothing, zero, not a number.
GIVEN = [None, "123", "", "0", "wide"]


def _environment(columns: str | None) -> dict[str, str]:
    environment = {name: value for name, value in os.environ.items() if name != "COLUMNS"}
    if columns is not None:
        environment["COLUMNS"] = columns
    return environment


@pytest.mark.parametrize("given", GIVEN)
def test_the_width_in_a_pipe_is_shutils(given: str | None) -> None:
    done = subprocess.run([sys.executable, "-c", ASK], env=_environment(given), capture_output=True, text=True, stdin=subprocess.DEVNULL, check=True)
    ours, shutils = json.loads(done.stdout)
    assert ours == shutils == (123 if given == "123" else 80)


@pytest.mark.parametrize("given", GIVEN)
def test_the_width_at_a_terminal_is_shutils(given: str | None) -> None:
    pid, fd = pty.fork()
    if pid == 0:  # pragma: no cover - the child, at a terminal of 97 columns
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 97, 0, 0))
        os.execve(sys.executable, [sys.executable, "-c", ASK], _environment(given))
    out = b""
    deadline = time.monotonic() + 60
    try:
        while time.monotonic() < deadline:
            if select.select([fd], [], [], 0.5)[0]:
                try:
                    chunk = os.read(fd, 4096)
                except OSError:  # the child has ended and the terminal is closed
                    break
                if not chunk:
                    break
                out += chunk
    finally:
        if time.monotonic() >= deadline:
            os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
        os.close(fd)
    assert os.waitstatus_to_exitcode(status) == 0, out
    ours, shutils = json.loads(out.decode())
    assert ours == shutils == (123 if given == "123" else 97)


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(("columns", "wrapped_at"), [("100", 99), ("41", NARROWEST), ("12", NARROWEST)])
def test_text_for_a_terminal_is_wrapped_a_column_short_of_its_width_and_never_very_narrow(
    columns: str, wrapped_at: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", columns)
    assert wrap_width(_Terminal()) == wrapped_at
    assert wrap_width(io.StringIO()) is None, "a file or a pipe gets whole lines"
