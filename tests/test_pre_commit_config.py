"""The project's own `.pre-commit-config.yaml` names commands that exist, without the network.

pre-commit itself is not run here (its ruff hooks would install ruff from PyPI): the config is
read, every hook is checked to be a local one, and each command it names is looked for where
it will run: ruff as a pinned dependency of its hook (and run on a small file when this
environment has ruff too), mypy and whistdsl in this environment. The lint hook must stay the
hook `.pre-commit-hooks.yaml` offers other repositories (tests/test_ci_snippets.py checks that
one against docs/ci.md).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).parent.parent


def hooks() -> dict[str, dict]:
    config = yaml.safe_load((ROOT / ".pre-commit-config.yaml").read_text(encoding="utf-8"))
    return {hook["id"]: hook for repo in config["repos"] for hook in repo["hooks"]}


def installed(command: str) -> str | None:
    """The command as this environment has it: beside this Python first (a venv not activated)."""
    return shutil.which(command, path=os.pathsep.join([os.path.dirname(sys.executable), os.environ.get("PATH", "")]))


def test_every_hook_is_local_so_no_hook_is_fetched_from_a_repository() -> None:
    config = yaml.safe_load((ROOT / ".pre-commit-config.yaml").read_text(encoding="utf-8"))
    assert [repo["repo"] for repo in config["repos"]] == ["local"]
    assert sorted(hooks()) == ["mypy", "ruff-check", "ruff-format", "whistdsl-lint"]
    for hook in hooks().values():
        assert hook["language"] in ("python", "system"), hook["id"]


def test_the_hooks_run_ruff_check_ruff_format_check_mypy_and_lint() -> None:
    entries = {i: hook["entry"].split() for i, hook in hooks().items()}
    assert entries["ruff-check"][:2] == ["ruff", "check"]
    assert entries["ruff-format"][:3] == ["ruff", "format", "--check"]  # reports, never rewrites a file being committed
    assert entries["mypy"] == ["mypy", "whistdsl"] and hooks()["mypy"]["pass_filenames"] is False  # the package, as its config says
    assert (ROOT / "whistdsl" / "__init__.py").is_file()
    assert entries["whistdsl-lint"] == ["whistdsl", "lint"]


def test_ruff_is_a_pinned_dependency_of_its_hooks() -> None:
    for i in ("ruff-check", "ruff-format"):
        hook = hooks()[i]
        assert hook["language"] == "python"
        (pin,) = hook["additional_dependencies"]
        assert re.fullmatch(r"ruff==\d+\.\d+\.\d+", pin), pin
    assert hooks()["ruff-check"]["additional_dependencies"] == hooks()["ruff-format"]["additional_dependencies"]


def test_the_ruff_hooks_commands_take_their_options_when_ruff_is_here(tmp_path: Path) -> None:
    ruff = installed("ruff")
    if ruff is None:
        pytest.skip("ruff is not installed here (pre-commit installs its own)")
    (tmp_path / "clean.py").write_text('"""A module ruff finds nothing in."""\n\nx = 1\n', encoding="utf-8")
    for i in ("ruff-check", "ruff-format"):
        command = [ruff, *hooks()[i]["entry"].split()[1:], "--isolated", "clean.py"]
        done = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, (i, done.stdout, done.stderr)


def test_mypy_is_a_command_of_this_environment_when_installed() -> None:
    if installed("mypy") is None:
        pytest.skip("mypy is not installed here (CONTRIBUTING.md: `pip install mypy`)")
    done = subprocess.run([installed("mypy"), "--version"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.startswith("mypy "), done.stdout + done.stderr


def test_whistdsl_is_the_projects_own_command() -> None:
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["scripts"]
    assert "whistdsl" in scripts
    assert installed("whistdsl") is not None  # the editable install of `pip install -e '.[test]'`


def test_the_lint_hook_is_the_hook_offered_to_other_repositories_on_the_bundled_rulesets() -> None:
    from whistdsl.resources import bundled_rulesets

    (offered,) = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    ours = hooks()["whistdsl-lint"]
    assert {k: ours[k] for k in ("id", "name", "entry", "types")} == {k: offered[k] for k in ("id", "name", "entry", "types")}
    files = re.compile(ours["files"])
    bundled = [path.relative_to(ROOT).as_posix() for path in bundled_rulesets().values()]
    assert bundled and all(files.search(p) for p in bundled)
    assert all(re.search(offered["files"], p) for p in bundled)
    assert not files.search("tests/fuzzing/repros/rulesets/broken.yaml")  # the tests' rulesets are broken on purpose
