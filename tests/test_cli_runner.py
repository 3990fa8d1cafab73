"""tests/cli_runner.py's `whistdsl` (a fork that becomes `python -m whistdsl`) says what the
process says: the same bytes on standard output and standard error, the same exit code, for a
sample of every command and of the ways a command ends (a usage error, a refused file, a rule
error, standard input, an encoding, colour); and it keeps a process's guards (the timeout, the
memory cap). Each command runs both ways here, the process being `WHISTDSL_TESTS_PROCESSES=1`.
"""

from __future__ import annotations

import os
import signal
import subprocess
from pathlib import Path

import pytest
from cli_runner import forks, whistdsl

ROOT = Path(__file__).resolve().parent.parent
RULESETS = ROOT / "rulesets"
PLAIN = {"COLUMNS": "100", "NO_COLOR": "1", "PYTHONIOENCODING": "utf-8"}

pytestmark = pytest.mark.skipif(not forks(), reason="no fork here (or WHISTDSL_TESTS_PROCESSES=1): every command is a process")

BAD = "whistdsl: 1\nname: Bad\nplayers: [4]\ndeck: {ranks: 13\n"
HOUSE = "whistdsl: 1\nextends: serbian\nname: House \x1b[2J [bold]x[/bold]\n"

#: (name, arguments, environment, standard input): run in tmp_path, where bad.yaml and house.yaml are.
SAMPLE = [
    ("version", ["--version"], PLAIN, None),
    ("help", ["--help"], PLAIN, None),
    ("help-narrow", ["--help"], {**PLAIN, "COLUMNS": "50"}, None),
    ("command-help", ["play", "--help"], PLAIN, None),
    ("usage-error", ["play", "--no-such-option"], PLAIN, None),
    ("unknown-command", ["nonsense"], PLAIN, None),
    ("lint-fast-path", ["lint", RULESETS / "serbian.yaml", RULESETS / "romanian.yaml"], PLAIN, None),
    ("lint-bad", ["lint", "bad.yaml"], PLAIN, None),
    ("lint-json", ["lint", "--format", "json", "bad.yaml", "house.yaml"], PLAIN, None),
    ("lint-github", ["lint", "--format", "github", "bad.yaml"], PLAIN, None),
    ("lint-missing", ["lint", "no-such.yaml"], PLAIN, None),
    ("lint-colour", ["lint", "bad.yaml"], {"COLUMNS": "100", "NO_COLOR": None, "PYTHONIOENCODING": "utf-8"}, None),
    ("lint-ascii", ["lint", "house.yaml"], {**PLAIN, "PYTHONIOENCODING": "ascii"}, None),
    ("reference", ["reference"], PLAIN, None),
    ("explain", ["explain", "serbian"], PLAIN, None),
    ("score", ["score", "romanian", "--players", "4"], PLAIN, None),
    ("watch", ["play", RULESETS / "serbian.yaml", "--watch", "--seed", "3"], PLAIN, None),
    ("watch-hostile-name", ["play", "house.yaml", "--watch", "--seed", "1"], PLAIN, None),
    ("play-person-from-stdin", ["play", "serbian", "--seed", "5"], PLAIN, "0\n" * 40),
    ("play-end-of-input", ["play", "serbian", "--seed", "5"], PLAIN, ""),
    ("replay-missing", ["replay", "no-such.json"], PLAIN, None),
    ("simulate-refused", ["simulate", "bad.yaml", "-n", "2"], PLAIN, None),
]


#: The cases every plain run compares; with --slow (CI), every other case too (tests/conftest.py SLOW).
FEW = ("version", "usage-error", "lint-bad", "lint-json", "watch", "play-person-from-stdin")


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "bad.yaml").write_text(BAD, encoding="utf-8")
    (tmp_path / "house.yaml").write_text(HOUSE, encoding="utf-8")
    return tmp_path


def both_ways(*args: object, cwd: Path, env: dict, input: str | None = None) -> tuple[subprocess.CompletedProcess, subprocess.CompletedProcess]:
    forked = whistdsl(*args, cwd=cwd, env=env, input=input)
    os.environ["WHISTDSL_TESTS_PROCESSES"] = "1"
    try:
        process = whistdsl(*args, cwd=cwd, env=env, input=input)
    finally:
        del os.environ["WHISTDSL_TESTS_PROCESSES"]
    return forked, process


@pytest.mark.parametrize(("args", "env", "stdin"), [c[1:] for c in SAMPLE if c[0] in FEW], ids=[c[0] for c in SAMPLE if c[0] in FEW])
def test_a_forked_command_says_what_the_process_says_byte_for_byte(args: list, env: dict, stdin: str | None, folder: Path):
    says_the_same_both_ways(args, env, stdin, folder)


@pytest.mark.parametrize(("args", "env", "stdin"), [c[1:] for c in SAMPLE if c[0] not in FEW], ids=[c[0] for c in SAMPLE if c[0] not in FEW])
def test_every_other_forked_command_of_the_sample_says_what_the_process_says(args: list, env: dict, stdin: str | None, folder: Path):
    says_the_same_both_ways(args, env, stdin, folder)


def says_the_same_both_ways(args: list, env: dict, stdin: str | None, folder: Path) -> None:
    forked, process = both_ways(*args, cwd=folder, env=env, input=stdin)
    assert "Traceback" not in (process.stdout + process.stderr).decode("utf-8", "replace")
    assert (forked.returncode, forked.stdout, forked.stderr) == (process.returncode, process.stdout, process.stderr)
    assert forked.args == process.args


def test_the_record_a_forked_game_writes_is_the_record_the_process_writes(folder: Path):
    forked, process = (folder / "forked.json", folder / "process.json")
    os.environ["WHISTDSL_TESTS_PROCESSES"] = "1"
    try:
        by_process = whistdsl("play", "romanian", "--watch", "--seed", "9", "--record", process, cwd=folder, env=PLAIN)
    finally:
        del os.environ["WHISTDSL_TESTS_PROCESSES"]
    by_fork = whistdsl("play", "romanian", "--watch", "--seed", "9", "--record", forked, cwd=folder, env=PLAIN)
    assert by_fork.returncode == by_process.returncode == 0, by_fork.stderr
    assert by_fork.stdout == by_process.stdout
    assert forked.read_bytes() == process.read_bytes()
    replays = both_ways("replay", forked, cwd=folder, env=PLAIN)
    assert replays[0].returncode == 0 and replays[0].stdout == replays[1].stdout and replays[0].stderr == replays[1].stderr


def test_the_command_sees_its_own_folder_environment_and_argv(folder: Path):
    probe = folder / "probe.py"
    probe.write_text("", encoding="utf-8")
    done = whistdsl("lint", "bad.yaml", cwd=folder, env={**PLAIN, "WHISTDSL_PROBE": "x"}, preexec_fn=lambda: None)
    assert done.returncode == 1
    assert b"bad.yaml:" in done.stdout  # found through its own folder
    assert os.environ.get("WHISTDSL_PROBE") is None and Path.cwd() != folder, "nothing leaks back into the tests"


def test_a_command_past_its_timeout_is_killed_and_said_as_subprocess_says_it(folder: Path):
    with pytest.raises(subprocess.TimeoutExpired) as stopped:
        whistdsl("--version", cwd=folder, timeout=1, preexec_fn=signal.pause)  # waits for a signal that never comes
    assert stopped.value.cmd[-2:] == ["whistdsl", "--version"]


def test_the_memory_cap_binds_the_command_only(folder: Path):
    def allocate() -> None:
        bytearray(64 * 1024**2)

    done = whistdsl("--version", cwd=folder, memory_cap=16 * 1024**2, preexec_fn=allocate)
    assert done.returncode != 0 and b"MemoryError" in done.stderr
    assert len(bytearray(64 * 1024**2)) == 64 * 1024**2, "the tests' own process is not capped"


def test_a_command_killed_by_a_signal_has_the_negative_exit_code_of_subprocess(folder: Path):
    done = whistdsl("--version", cwd=folder, preexec_fn=lambda: os.kill(os.getpid(), signal.SIGTERM))
    assert done.returncode == -signal.SIGTERM


def test_an_environment_a_fork_cannot_be_is_run_as_a_process():
    from cli_runner import _forkable

    assert _forkable(dict(os.environ, **PLAIN))
    assert not _forkable(dict(os.environ, PYTHONHASHSEED="123"))
    assert not _forkable(dict(os.environ, LC_ALL="C"))
    assert not _forkable(dict(os.environ, PYTHONIOENCODING="utf-8:strict"))
