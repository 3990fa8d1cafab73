"""The README is short and says what the code does: it stays within 300 lines, its two commands
are the ones that install and play and that CI runs, its examples are the docs' example files
(which tests/test_docs.py lints and plays) with the output lint prints, its links lead to pages
that exist, and its pre-commit snippet is the one the docs test. The reference material it
used to hold is in the documentation site (docs/), checked by tests/test_docs.py.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import docs_pages
from docs_pages import DOCS, EXAMPLES, ROOT

from whistdsl.resources import bundled_rulesets

README = ROOT / "README.md"
#: What a newcomer meets first is short.
MOST_LINES = 300


def readme() -> str:
    return README.read_text(encoding="utf-8")


def fenced_block_after(marker: str) -> str:
    """The body of the first fenced code block after the line `marker`."""
    text = readme()
    return docs_pages.block_after(text, text.index(marker)).body


def marked_blocks(kind: str) -> dict[str, str]:
    """{name: body} of every block announced by `<!-- kind: name -->`."""
    found = re.findall(rf"^<!-- {kind}: (.+?) -->$", readme(), re.M)
    return {name: fenced_block_after(f"<!-- {kind}: {name} -->") for name in found}


def test_the_readme_is_at_most_300_lines() -> None:
    assert len(readme().splitlines()) <= MOST_LINES


def test_ci_runs_exactly_the_readme_test_command() -> None:
    command = fenced_block_after("<!-- test-command -->").strip()
    assert command == "python3 -m venv .venv && .venv/bin/pip install -e '.[test]' && .venv/bin/python -m pytest --slow"
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    steps = [step.strip() for step in command.split("&&")]
    lines = [line.split(" || ")[0].split(" <")[0].strip() for line in script]
    positions = [lines.index(step) for step in steps]
    assert positions == sorted(positions), ".ci/run runs the steps in the README's order"
    assert os.access(ROOT / ".ci" / "run", os.X_OK)


def test_readme_main_command_installs_and_plays_a_bundled_ruleset() -> None:
    command = fenced_block_after("<!-- main-command -->").strip()
    assert command.startswith("python3 -m venv .venv && .venv/bin/pip install . && ")
    assert command.endswith(".venv/bin/whistdsl play rulesets/serbian.yaml")
    assert (ROOT / "rulesets" / "serbian.yaml").is_file()


def test_the_readme_says_how_to_run_whistdsl_after_the_install() -> None:
    """After the install the README writes `whistdsl ...`: the next block activates the venv first."""
    text = readme()
    after = docs_pages.block_after(text, text.index("<!-- main-command -->"))
    following = docs_pages.block_after(text, after.end + 4).body
    assert following.startswith(". .venv/bin/activate\n") and "\nwhistdsl " in following
    assert "pipx install ." in text
    assert not re.search(r"^\.venv/bin/whistdsl ", text, re.M), "once activated, every command is `whistdsl ...`"


def test_the_readme_examples_are_the_docs_example_files() -> None:
    examples = marked_blocks("example")
    assert len(examples) >= 2
    for name, body in examples.items():
        assert body == (EXAMPLES / name).read_text(encoding="utf-8"), f"README's {name} differs from docs/examples/{name}"
    (first, *_) = examples.values()
    assert len(first.splitlines()) <= 12, "the first example is about ten lines"


def test_the_readme_lint_output_is_what_whistdsl_lint_prints(tmp_path: Path) -> None:
    outputs = marked_blocks("example-output")
    assert outputs
    for command, expected in outputs.items():
        name = command.split()[-1]
        (tmp_path / name).write_text((EXAMPLES / name).read_text(encoding="utf-8"), encoding="utf-8")
        ran = docs_pages.run(command, tmp_path)
        assert ran.exit_code == 1
        assert ran.output.strip() == expected.strip()


def test_the_pre_commit_snippet_is_the_one_the_docs_show_and_test() -> None:
    (config,) = marked_blocks("example-config").values()
    shown = {s.argument: s.block.body for s in docs_pages.steps((DOCS / "ci.md").read_text(encoding="utf-8")) if s.kind == "file"}
    assert config == shown[".pre-commit-config.yaml"]
    assert "rev: v" not in readme()


def test_the_readme_counts_the_bundled_rulesets() -> None:
    assert f"one of the {len(bundled_rulesets())} bundled rulesets" in " ".join(readme().split())


def test_every_link_of_the_readme_leads_to_a_file_or_a_heading_that_exists() -> None:
    text = readme()
    headings = {docs_pages.slug(h) for h in re.findall(r"^#{1,6} (.+)$", text, re.M)}
    for target in re.findall(r"\]\(([^)]+)\)", text):
        if target.startswith("https://"):
            continue
        if target.startswith("#"):
            assert target[1:] in headings, target
        else:
            assert (ROOT / target).exists(), target
    assert (DOCS / "index.md").is_file()
