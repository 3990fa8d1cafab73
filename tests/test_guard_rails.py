"""The type check stays a check: every `# type: ignore` in the package names the error codes it
silences and says why after them, mypy runs in CI and in the commit hooks, and its config
reports an ignore that is no longer needed (CONTRIBUTING.md).

The comments are read with Python's own tokenizer, so a `type: ignore` inside a text (a
docstring, a message) is not one."""

from __future__ import annotations

import io
import re
import tokenize
import tomllib
from pathlib import Path

import yaml

ROOT = Path(__file__).parent.parent

#: `# type: ignore[code, code]  # why` and nothing less: codes of lowercase words, then a reason.
WITH_REASON = re.compile(r"# type: ignore\[[a-z-]+(?:, ?[a-z-]+)*\]  # \S.*")


def ignores(source: str) -> list[tuple[int, str]]:
    """(line, the comment from `# type: ignore` on) of each type: ignore comment of `source`."""
    found = []
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        at = re.search(r"#\s*type:\s*ignore", token.string) if token.type == tokenize.COMMENT else None
        if at is not None:
            found.append((token.start[0], token.string[at.start() :]))
    return found


def test_the_reading_finds_ignores_with_and_without_codes_or_reasons() -> None:
    source = (
        "a = 1  # type: ignore[attr-defined]  # the field is set in __post_init__\n"
        "b = 2  # type: ignore\n"
        "c = 3  # type: ignore[arg-type]\n"
        "d = 4  # a note  # type: ignore[index]  # why\n"
        'e = "# type: ignore"\n'
    )
    found = ignores(source)
    assert [line for line, _ in found] == [1, 2, 3, 4]  # not the one in a text
    assert [bool(WITH_REASON.fullmatch(c)) for _, c in found] == [True, False, False, True]
    assert WITH_REASON.fullmatch("# type: ignore[union-attr, arg-type]  # both: the rule has a min here")
    assert not WITH_REASON.fullmatch("# type: ignore[union-attr]  #")


def test_every_type_ignore_in_the_package_has_a_code_and_a_reason() -> None:
    bare = []
    for path in sorted((ROOT / "whistdsl").rglob("*.py")):
        for line, comment in ignores(path.read_text(encoding="utf-8")):
            if not WITH_REASON.fullmatch(comment):
                bare.append(f"{path.relative_to(ROOT).as_posix()}:{line}: {comment}")
    assert bare == [], "each `# type: ignore[code]` says why after it:\n" + "\n".join(bare)


def test_mypy_reports_ignores_that_are_no_longer_needed_and_ignores_without_a_code() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    assert config["files"] == ["whistdsl"]
    assert config["warn_unused_ignores"] is True
    assert "ignore-without-code" in config["enable_error_code"]


def test_ci_and_the_commit_hooks_run_mypy() -> None:
    script = [line.strip() for line in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()]
    assert ".venv/bin/mypy whistdsl" in script
    assert script.index(".venv/bin/mypy whistdsl") < next(i for i, line in enumerate(script) if "-m pytest" in line)  # before the tests
    config = yaml.safe_load((ROOT / ".pre-commit-config.yaml").read_text(encoding="utf-8"))
    (mypy,) = [hook for repo in config["repos"] for hook in repo["hooks"] if hook["id"] == "mypy"]
    assert "stages" not in mypy  # at every commit, not only when asked
