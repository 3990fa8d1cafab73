"""The commands whistdsl suggests are written as the person can run them (whistdsl/suggest.py):
`whistdsl` when that is this whistdsl on PATH, else the path the person ran, or `python -m
whistdsl` with the Python that ran it. Each case sets up its own PATH, folder and command line.
"""

from __future__ import annotations

import os
import shlex
import sys
from pathlib import Path

import pytest

from whistdsl.suggest import command


def executable(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\n", encoding="utf-8")
    path.chmod(0o755)
    return path


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder to run in, with a venv's scripts in `venv/bin` and nothing on PATH."""
    monkeypatch.chdir(tmp_path)
    executable(tmp_path / "venv" / "bin" / "whistdsl")
    executable(tmp_path / "venv" / "bin" / "python")
    (tmp_path / "empty").mkdir()
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    return tmp_path


def started(monkeypatch: pytest.MonkeyPatch, *argv: str, orig_argv: list[str] | None = None) -> None:
    monkeypatch.setattr(sys, "argv", list(argv))
    monkeypatch.setattr(sys, "orig_argv", orig_argv if orig_argv is not None else [sys.executable, *argv])


def test_the_script_run_by_its_path_is_suggested_by_that_path_when_whistdsl_is_not_on_path(here: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    started(monkeypatch, "venv/bin/whistdsl", "play", "serbian")
    assert command("play", "--resume") == "venv/bin/whistdsl play --resume"


def test_the_script_found_on_path_is_suggested_as_whistdsl(here: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", os.pathsep.join([str(here / "empty"), str(here / "venv" / "bin")]))
    started(monkeypatch, str(here / "venv" / "bin" / "whistdsl"), "play", "serbian")  # as the shell found it
    assert command("play", "--resume") == "whistdsl play --resume"


def test_another_whistdsl_on_path_is_not_suggested(here: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    executable(here / "elsewhere" / "whistdsl")
    monkeypatch.setenv("PATH", str(here / "elsewhere"))
    started(monkeypatch, "venv/bin/whistdsl", "games")
    assert command("play", "--resume") == "venv/bin/whistdsl play --resume"


def test_a_path_with_a_space_and_a_record_with_one_are_quoted_for_the_shell(here: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    executable(here / "my venv" / "bin" / "whistdsl")
    started(monkeypatch, "my venv/bin/whistdsl", "play")
    assert command("play", "--resume", "my game.json") == "'my venv/bin/whistdsl' play --resume 'my game.json'"


def test_python_m_whistdsl_is_suggested_with_the_python_typed(here: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "executable", str(here / "venv" / "bin" / "python"))
    started(monkeypatch, str(here / "whistdsl" / "__main__.py"), "play", orig_argv=["venv/bin/python", "-m", "whistdsl", "play"])
    assert command("play", "--resume") == "venv/bin/python -m whistdsl play --resume"


def test_python_m_whistdsl_is_suggested_with_this_pythons_path_when_the_python_typed_is_another(here: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    executable(here / "system" / "python3")  # what `python3` is on PATH: not the venv's Python that ran
    monkeypatch.setenv("PATH", str(here / "system"))
    monkeypatch.setattr(sys, "executable", str(here / "venv" / "bin" / "python"))
    started(monkeypatch, str(here / "whistdsl" / "__main__.py"), "play", orig_argv=["python3", "-m", "whistdsl", "play"])
    assert command("play", "--resume") == f"{shlex.quote(str(here / 'venv' / 'bin' / 'python'))} -m whistdsl play --resume"


def test_whistdsl_run_from_another_program_is_suggested_as_whistdsl(here: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    started(monkeypatch, str(here / "venv" / "bin" / "pytest"), "-q", orig_argv=["python", "-m", "pytest", "-q"])
    assert command("games") == "whistdsl games"
