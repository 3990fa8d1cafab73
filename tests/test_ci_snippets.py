"""The pre-commit and GitHub Actions snippets of docs/ci.md work as written.

The pre-commit configuration is put, exactly as the page shows it, into a new git repository
with a ruleset, and pre-commit itself runs it: the hook passes on a clean ruleset, fails on a
broken one with lint's finding, and leaves alone a YAML file outside `rulesets/`. The Actions
workflow names no tag that does not exist, and its lint step annotates a broken ruleset.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import docs_pages
import pytest
import yaml
from docs_pages import DOCS, EXAMPLES, ROOT

PAGE = DOCS / "ci.md"
CLEAN = (EXAMPLES / "no-premium.yaml").read_text(encoding="utf-8")
BROKEN = (EXAMPLES / "no-premium-typo.yaml").read_text(encoding="utf-8")


def shown_files() -> dict[str, str]:
    """{name: text} of the files the page has the reader write."""
    text = PAGE.read_text(encoding="utf-8")
    return {s.argument: docs_pages.with_snippets(s.block.body) for s in docs_pages.steps(text) if s.kind == "file"}


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True, env=isolated(repo))


def isolated(repo: Path) -> dict[str, str]:
    """This environment, with whistdsl's scripts first on the PATH (as in an active virtual
    environment) and git and pre-commit kept from the home folder and the machine's settings."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "PRE_COMMIT"))}
    env.update(
        PATH=f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}",
        HOME=str(repo.parent),
        PRE_COMMIT_HOME=str(repo.parent / "pre-commit-cache"),
        GIT_CONFIG_NOSYSTEM="1",
        GIT_CONFIG_GLOBAL=os.devnull,
    )
    return env


def pre_commit(repo: Path) -> subprocess.CompletedProcess[str]:
    git(repo, "add", "-A")
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", "run", "--all-files", "--color", "never"],
        cwd=repo,
        env=isolated(repo),
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    assert (Path(sys.executable).parent / "whistdsl").exists(), "whistdsl is installed beside this Python (pip install -e '.[test]')"
    repo = tmp_path / "house-rules"
    repo.mkdir()
    git(repo, "init", "-q")
    config = shown_files()[".pre-commit-config.yaml"]
    (repo / ".pre-commit-config.yaml").write_text(config, encoding="utf-8")
    (repo / "rulesets").mkdir()
    (repo / "rulesets" / "no-premium.yaml").write_text(CLEAN, encoding="utf-8")
    (repo / "notes.yaml").write_text("not: [a ruleset\n", encoding="utf-8")  # outside rulesets/
    return repo


def test_the_pre_commit_hook_passes_on_a_clean_ruleset_and_fails_on_a_broken_one(repo: Path) -> None:
    clean = pre_commit(repo)
    assert clean.returncode == 0, clean.stdout + clean.stderr
    assert re.search(r"^whistdsl lint\.+Passed$", clean.stdout, re.M), clean.stdout

    (repo / "rulesets" / "scoring").mkdir()
    (repo / "rulesets" / "scoring" / "typo.yml").write_text(BROKEN, encoding="utf-8")
    broken = pre_commit(repo)
    assert broken.returncode == 1, broken.stdout + broken.stderr
    assert re.search(r"^whistdsl lint\.+Failed$", broken.stdout, re.M), broken.stdout
    assert "rulesets/scoring/typo.yml:5:24: W301 unknown name `trick`" in broken.stdout


def test_the_hook_for_other_repositories_is_the_same_hook() -> None:
    (hook,) = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    (local,) = yaml.safe_load(shown_files()[".pre-commit-config.yaml"])["repos"][0]["hooks"]
    assert (hook["id"], hook["entry"], hook["language"]) == ("whistdsl-lint", "whistdsl lint", "python")
    assert (local["id"], local["entry"], local["files"]) == (hook["id"], hook["entry"], hook["files"])
    files = re.compile(hook["files"])
    for path in ("rulesets/serbian.yaml", "rulesets/scoring/exact.yaml", "games/rulesets/house.yml"):
        assert files.search(path), path
    for path in ("README.md", "schemas/ruleset.schema.json", ".pre-commit-hooks.yaml", "myrulesets.yaml"):
        assert not files.search(path), path


def test_the_actions_workflow_names_no_tag_and_its_lint_step_annotates(tmp_path: Path) -> None:
    workflow = yaml.safe_load(shown_files()[".github/workflows/rulesets.yml"])
    runs = [step["run"] for step in workflow["jobs"]["lint"]["steps"] if "run" in step]
    install, lint = runs
    assert install.startswith("pip install ") and not re.search(r"@v?\d", install), "no version is tagged yet"
    assert lint == "whistdsl lint --format github rulesets/"
    (tmp_path / "rulesets").mkdir()
    (tmp_path / "rulesets" / "no-premium.yaml").write_text(CLEAN, encoding="utf-8")
    assert docs_pages.run(lint, tmp_path).exit_code == 0
    (tmp_path / "rulesets" / "typo.yaml").write_text(BROKEN, encoding="utf-8")
    annotated = docs_pages.run(lint, tmp_path)
    assert annotated.exit_code == 1
    assert "::error file=rulesets/typo.yaml,line=5,col=24," in annotated.output
