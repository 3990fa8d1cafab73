"""The suite passes whoever runs it, wherever: in a narrow or a wide terminal, with colour asked
for or refused, another TERM, locale or home folder, and in a terminal rather than a pipe
(tests/conftest.py pins what the code under test sees). Here the tests whose output depends on
the terminal (wrapped text, tables fitted to the width, colours, the README's excerpts) run in a
pytest of their own in each such surrounding, and must all pass.
"""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: The tests that print what a terminal's width or colours change, or that read the terminal.
SENSITIVE = (
    "tests/test_explain.py",
    "tests/test_cli_help.py",
    "tests/test_readme.py",
    "tests/test_cli_misc.py",
    "tests/test_play_cli.py",
    "tests/test_lint_cli.py",
    "tests/test_kept_games.py",
    "tests/test_terminal.py",
    "tests/test_variant_games.py::test_every_ruleset_plays_a_whole_watched_game_by_the_rules",
    "tests/test_variant_games.py::test_play_takes_a_bundled_ruleset_by_its_name",
    "tests/test_fuzz_records.py::test_the_base_records_are_valid_records_that_replay_clean",
)
#: The same tests in one process, the way a person debugging them runs them; `-rf` names each failure.
PYTEST = (sys.executable, "-m", "pytest", "-p", "no:xdist", "-p", "no:cacheprovider", "-q", "-rf", *SENSITIVE)
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\r")
#: Each test runs in every surrounding, and in a terminal (below).
SURROUNDINGS = {
    "60 columns, NO_COLOR, a dumb terminal": {"COLUMNS": "60", "LINES": "20", "NO_COLOR": "1", "TERM": "dumb"},
    "100 columns, FORCE_COLOR, the C locale": {"COLUMNS": "100", "FORCE_COLOR": "1", "COLORTERM": "truecolor", "LC_ALL": "C", "LANG": "C"},
    "200 columns, every colour forced, a pager": {
        "COLUMNS": "200",
        "LINES": "100",
        "FORCE_COLOR": "1",
        "PY_COLORS": "1",
        "CLICOLOR_FORCE": "1",
        "TTY_COMPATIBLE": "1",
        "TTY_INTERACTIVE": "1",
        "GITHUB_ACTIONS": "true",
        "PAGER": "false",
        "LESS": "-X",
    },
}


def _surrounded(given: dict[str, str | None], home: Path) -> dict[str, str]:
    environment = {**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": str(home / "config"), **given}
    return {name: value for name, value in environment.items() if value is not None}


def _passed(output: str, returncode: int) -> None:
    """pytest's last line says that all passed (none failed, none skipped, no error)."""
    last = ANSI.sub("", output).strip().splitlines()[-1]
    assert returncode == 0 and re.fullmatch(r"\d+ passed(, \d+ deselected)? in .*", last), output[-6000:]


@pytest.mark.parametrize("surrounding", sorted(SURROUNDINGS))
def test_the_terminal_sensitive_tests_pass_whatever_the_terminal_settings(surrounding: str, tmp_path: Path) -> None:
    done = subprocess.run(
        PYTEST,
        cwd=ROOT,
        env=_surrounded(SURROUNDINGS[surrounding], tmp_path),
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=600,
    )
    _passed(done.stdout + done.stderr, done.returncode)


@pytest.mark.parametrize(("columns", "forced"), [(60, False), (200, True)])
def test_the_terminal_sensitive_tests_pass_in_a_terminal(columns: int, forced: bool, tmp_path: Path) -> None:
    """In a pseudo-terminal of `columns` (without COLUMNS or LINES, so its size is all there is to
    go by), with pytest's capture off (`-s`): the tests and every command they run without a
    stream of their own are at the terminal, as when a person runs them so to debug."""
    environment = _surrounded({"COLUMNS": None, "LINES": None, "FORCE_COLOR": "1" if forced else None}, tmp_path)
    pid, fd = pty.fork()
    if pid == 0:  # pragma: no cover - the child: pytest at the terminal
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 30, columns, 0, 0))
        os.chdir(ROOT)
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.execve(sys.executable, [*PYTEST, "-s"], environment)
    raw = b""
    deadline = time.monotonic() + 600
    status = None
    try:
        while time.monotonic() < deadline:
            if select.select([fd], [], [], 1)[0]:
                try:
                    chunk = os.read(fd, 65536)
                except OSError:  # the child has ended and the terminal is closed
                    break
                if not chunk:
                    break
                raw += chunk
        else:
            raise AssertionError(f"pytest at the terminal did not end in 10 minutes:\n{raw[-6000:]!r}")
        _, status = os.waitpid(pid, 0)
    finally:
        if status is None:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        os.close(fd)
    _passed(raw.decode("utf-8", "replace"), os.waitstatus_to_exitcode(status))
