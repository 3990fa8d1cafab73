"""Start-up: `--version`, `-h`, the help kept in the cache, and what a command imports.

Speed itself is measured by benchmarks/bench_startup.py, never here: these tests check that the
quick paths say exactly what the slow ones say, and that nothing heavy is imported early.
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import whistdsl
from whistdsl.cli import app

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str, cache: Path | None, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if k not in ("WHISTDSL_CACHE_DIR", "WHISTDSL_NO_CACHE")}
    if cache is None:
        environment["WHISTDSL_NO_CACHE"] = "1"
    else:
        environment["WHISTDSL_CACHE_DIR"] = str(cache)
    environment.update(env)
    return subprocess.run([sys.executable, "-m", "whistdsl", *args], capture_output=True, text=True, cwd=ROOT, env=environment, timeout=120)


def test_the_version_is_the_package_metadata_s() -> None:
    assert whistdsl.__version__ == importlib.metadata.version("whistdsl")


@pytest.mark.parametrize("option", ["--version", "-V"])
def test_version_prints_the_name_and_version(option: str, tmp_path: Path) -> None:
    done = run(option, cache=tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (0, f"whistdsl {whistdsl.__version__}\n", "")
    through_typer = CliRunner().invoke(app, [option])
    assert (through_typer.exit_code, through_typer.output) == (0, done.stdout)


def test_h_is_help_and_the_help_lists_version() -> None:
    long, short = CliRunner().invoke(app, ["--help"]), CliRunner().invoke(app, ["-h"])
    assert long.exit_code == short.exit_code == 0
    assert long.output == short.output
    assert "-V, --version" in long.output and "-h, --help" in long.output and "replay" in long.output
    lint_help = CliRunner().invoke(app, ["lint", "-h"])
    assert lint_help.exit_code == 0 and "file:line:col" in lint_help.output


def test_help_from_the_cache_is_the_help_typer_prints(tmp_path: Path) -> None:
    cold = run("--help", cache=tmp_path, COLUMNS="72")  # through typer, and kept
    assert list(tmp_path.glob("*/help/*.json")), "the first run keeps the help"
    warm = run("--help", cache=tmp_path, COLUMNS="72")
    short = run("-h", cache=tmp_path, COLUMNS="72")
    assert cold.returncode == warm.returncode == short.returncode == 0
    assert cold.stdout == warm.stdout == short.stdout
    assert "Usage: python -m whistdsl [OPTIONS] COMMAND" in warm.stdout
    narrow = run("--help", cache=tmp_path, COLUMNS="50")  # another width: another entry, rendered anew
    assert narrow.returncode == 0 and narrow.stdout != warm.stdout
    assert run("--help", cache=tmp_path, COLUMNS="50").stdout == narrow.stdout


def test_a_corrupt_help_entry_is_ignored_and_written_again(tmp_path: Path) -> None:
    good = run("--help", cache=tmp_path, COLUMNS="80").stdout
    (entry,) = tmp_path.glob("*/help/*.json")
    for damage in (b"{not json", json.dumps({"key": entry.stem, "checksum": "0", "value": "Usage: forged\n"}).encode()):
        entry.write_bytes(damage)
        again = run("--help", cache=tmp_path, COLUMNS="80")
        assert (again.returncode, again.stdout, again.stderr) == (0, good, "")
        assert json.loads(entry.read_bytes())["value"] == good


def test_a_cache_folder_that_cannot_be_written_changes_nothing(tmp_path: Path) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    done = run("--help", cache=blocked / "cache", COLUMNS="80")
    assert (done.returncode, done.stderr) == (0, "") and done.stdout.startswith("Usage: python -m whistdsl")
    lint = run("lint", "rulesets/serbian.yaml", cache=blocked / "cache")
    assert (lint.returncode, lint.stdout, lint.stderr) == (0, "1 ruleset(s) checked: all clean\n", "")


def modules_after(code: str) -> set[str]:
    done = subprocess.run([sys.executable, "-c", code + "\nimport sys; print(' '.join(sys.modules))"], capture_output=True, text=True, check=True)
    return set(done.stdout.split())


HEAVY = {"lark", "jsonschema", "rich", "yaml", "whistdsl.engine", "whistdsl.rules.check", "whistdsl.players"}


def test_importing_the_package_and_the_command_line_imports_nothing_heavy() -> None:
    assert not HEAVY & modules_after("import whistdsl, whistdsl.cli")
    assert not HEAVY & modules_after("import whistdsl.cli.commands")
    assert "typer" not in modules_after("import whistdsl.cli")


@pytest.mark.parametrize("encoding", ["utf-8", "ascii"])
def test_lint_paths_said_without_typer_are_what_typer_says(encoding: str, tmp_path: Path) -> None:
    ruleset = tmp_path / "odd.yaml"
    ruleset.write_text('whistdsl: 1\nname: "Ünïcode ♠"\nextends: oh-hell\nscoring:\n  points: ♠ + 1\n', encoding="utf-8")
    quick = run("lint", str(ruleset), "rulesets/serbian.yaml", cache=None, PYTHONIOENCODING=encoding)
    typer_said = run("lint", "--format", "text", str(ruleset), "rulesets/serbian.yaml", cache=None, PYTHONIOENCODING=encoding)
    assert (quick.returncode, quick.stdout, quick.stderr) == (typer_said.returncode, typer_said.stdout, typer_said.stderr)
    assert quick.returncode == 1 and "W300" in quick.stdout
