"""The README says what the code does: its generated tables, examples, outputs, limits, finding
codes, commands and snippets are checked against the code here, so the two cannot drift.

Run this file as a script to regenerate the README's language reference tables:

    python tests/test_readme.py
"""

from __future__ import annotations

import json
import math
import os
import re
import shlex
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from whistdsl.cli import app
from whistdsl.diagnostics.findings import CODES
from whistdsl.language import expression
from whistdsl.language.catalogue import reference_markdown
from whistdsl.resources import schema_path
from whistdsl.rules import load
from whistdsl.rules.ruleset import MAX_HANDS

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
REFERENCE_START = "<!-- reference:start -->"
REFERENCE_END = "<!-- reference:end -->"

runner = CliRunner()


def readme() -> str:
    return README.read_text(encoding="utf-8")


def fenced_block_after(marker: str, text: str | None = None) -> str:
    """The body of the first fenced code block after the line `marker`."""
    text = readme() if text is None else text
    at = text.index(marker)
    opening = re.compile(r"^```[a-z]*\n", re.M).search(text, at)
    assert opening is not None, f"no code block after {marker}"
    closing = text.index("\n```", opening.end() - 1)
    return text[opening.end() : closing + 1]


def marked_blocks(kind: str) -> dict[str, str]:
    """{name: body} of every block announced by `<!-- kind: name -->`."""
    text = readme()
    found = re.findall(rf"^<!-- {kind}: (.+?) -->$", text, re.M)
    return {name: fenced_block_after(f"<!-- {kind}: {name} -->", text) for name in found}


def table_after(marker: str) -> list[list[str]]:
    """The rows (cells stripped) of the markdown table right after `marker`, header excluded."""
    text = readme()
    lines = text[text.index(marker) :].splitlines()[1:]
    rows = []
    for line in lines:
        if not line.startswith("|"):
            if rows:
                break
            continue
        rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
    return rows[2:]


def render_reference_block() -> str:
    return f"{REFERENCE_START}\n{reference_markdown().strip()}\n{REFERENCE_END}"


def rewrite_between(start: str, end: str, block: str) -> bool:
    """Put `block` (its markers included) where README.md has the markers `start` ... `end`; True if it changed."""
    text = readme()
    pattern = re.compile(re.escape(start) + r".*?" + re.escape(end), re.S)
    assert pattern.search(text), f"README.md lacks the markers {start} ... {end}"
    updated = pattern.sub(lambda _: block, text, count=1)
    if updated != text:
        README.write_text(updated, encoding="utf-8")
    return updated != text


def rewrite_reference_block() -> bool:
    """Put the catalogue's current tables between the markers; True if README.md changed."""
    return rewrite_between(REFERENCE_START, REFERENCE_END, render_reference_block())


# ---------------------------------------------------------------- generated and stated facts


def test_readme_reference_tables_are_the_ones_generated_from_the_catalogue() -> None:
    text = readme()
    start, end = text.index(REFERENCE_START), text.index(REFERENCE_END)
    embedded = text[start + len(REFERENCE_START) : end].strip()
    assert embedded == reference_markdown().strip(), "regenerate them: python tests/test_readme.py"


def test_whistdsl_reference_prints_the_same_tables() -> None:
    result = runner.invoke(app, ["reference", "--markdown"])
    assert result.exit_code == 0
    assert result.stdout.strip() == reference_markdown().strip()


HELP_START = "<!-- help:start -->"
HELP_END = "<!-- help:end -->"
#: The width the README's command reference is written at.
HELP_WIDTH = 100


def command_help(*args: str) -> str:
    """`whistdsl ARGS --help` as a terminal HELP_WIDTH columns wide shows it."""
    result = runner.invoke(app, [*args, "--help"], prog_name="whistdsl", terminal_width=HELP_WIDTH, env={"COLUMNS": str(HELP_WIDTH)})
    assert result.exit_code == 0, result.output
    return result.output.rstrip() + "\n"


def render_help_block() -> str:
    """The README's command reference: `whistdsl --help`, then each command's --help."""
    from whistdsl.cli.commands import COMMAND_ORDER

    parts = [HELP_START, "", "```text", "$ whistdsl --help", command_help().rstrip(), "```"]
    for name in COMMAND_ORDER:
        parts += ["", f"#### `whistdsl {name}`", "", "```text", f"$ whistdsl {name} --help", command_help(name).rstrip(), "```"]
    return "\n".join([*parts, "", HELP_END])


def rewrite_help_block() -> bool:
    """Put the help as the commands print it now between the markers; True if README.md changed."""
    return rewrite_between(HELP_START, HELP_END, render_help_block())


def test_the_readme_command_reference_is_the_help_the_commands_print() -> None:
    text = readme()
    embedded = text[text.index(HELP_START) : text.index(HELP_END) + len(HELP_END)]
    assert embedded == render_help_block(), "regenerate it: python tests/test_readme.py"


CODES_HEADER = "| code | what it finds | example | write instead |\n|---|---|---|---|\n"


def render_codes_table() -> str:
    """The README's table of finding codes, from the one table of codes (diagnostics/codes.py)."""
    from whistdsl.diagnostics.codes import DOCS

    return CODES_HEADER + "".join(f"| {code} | {d.finds} | {d.example} | {d.write_instead} |\n" for code, d in DOCS.items())


def rewrite_codes_table() -> bool:
    """Put the table of codes generated from codes.py under "## Finding codes"; True if README.md changed."""
    text = readme()
    at = text.index(CODES_HEADER, text.index("## Finding codes"))
    end = text.index("\n\n", at) + 1
    updated = text[:at] + render_codes_table() + text[end:]
    if updated != text:
        README.write_text(updated, encoding="utf-8")
    return updated != text


def test_the_readme_table_of_finding_codes_is_the_one_lint_explain_reads() -> None:
    text = readme()
    at = text.index(CODES_HEADER, text.index("## Finding codes"))
    assert text[at : text.index("\n\n", at) + 1] == render_codes_table(), "regenerate it: python tests/test_readme.py"


def test_every_finding_code_has_a_row_in_the_readme_and_every_row_is_a_real_code() -> None:
    rows = table_after("## Finding codes")
    documented = [row[0] for row in rows]
    assert sorted(documented) == sorted(CODES), "README's finding codes table and findings.CODES differ"
    assert all(len(row) == 4 and all(row) for row in rows), "each code: what it finds, example, fix"


def test_readme_states_the_limits_the_code_enforces() -> None:
    power = round(math.log10(expression.MAX_NUMBER))
    assert 10**power == expression.MAX_NUMBER
    limits = {row[0]: row[1] for row in table_after("<!-- limits -->")}
    expected = {
        "length of one formula": [f"{expression.MAX_LENGTH} characters"],
        "nesting": [f"{expression.MAX_DEPTH} levels"],
        "size of numbers": [f"10^{power}"],
        "exponents": [f"-{expression.MAX_EXPONENT}..{expression.MAX_EXPONENT}", f"10^{power}"],
        "lists": [f"{expression.MAX_LIST} numbers"],
        "schedule": [f"{MAX_HANDS} hands"],
        "ruleset files": [
            f"{load.MAX_FILE_BYTES // 1024} KiB",
            f"{load.MAX_EXTENDS_DEPTH} files",
            f"{load.MAX_YAML_DEPTH} levels",
        ],
    }
    assert set(limits) == set(expected)
    for row, phrases in expected.items():
        for phrase in phrases:
            assert phrase in limits[row], f"README limit '{row}' should say {phrase!r}: {limits[row]!r}"


def _words(text: str) -> str:
    return " ".join(text.replace(">", " ").split())


def test_readme_states_the_extends_merge_rule_of_load_merge_and_the_schema() -> None:
    docstring = load.merge.__doc__ or ""
    rule = _words(docstring.split("The rule, also stated in the README and the schema:", 1)[1])
    quoted = _words(readme().split("<!-- merge-rule -->", 1)[1].strip().split("\n\n", 1)[0])
    assert quoted == rule
    schema = json.loads(schema_path().read_text(encoding="utf-8"))
    for phrase in ("merge key by key, recursively", "replaces the base's value whole", "null removes"):
        assert phrase in schema["description"]


# ---------------------------------------------------------------- examples and outputs


def test_readme_example_rulesets_lint_clean(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    examples = marked_blocks("example")
    assert len(examples) >= 2
    monkeypatch.chdir(tmp_path)
    for name, body in examples.items():
        (tmp_path / name).write_text(body, encoding="utf-8")
        result = runner.invoke(app, ["lint", name])
        assert result.exit_code == 0, f"README example {name}:\n{result.output}"


def test_the_example_ruleset_is_about_ten_lines() -> None:
    (first, *_) = marked_blocks("example").values()
    assert len(first.splitlines()) <= 12


def test_readme_lint_output_is_what_whistdsl_lint_prints(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    for name, body in marked_blocks("example-bad").items():
        (tmp_path / name).write_text(body, encoding="utf-8")
    outputs = marked_blocks("output")
    assert outputs
    for command, expected in outputs.items():
        args = shlex.split(command)
        assert args[0] == "whistdsl"
        result = runner.invoke(app, args[1:])
        assert result.exit_code == 1
        assert result.output.strip() == expected.strip()


def test_readme_score_examples_are_what_whistdsl_score_prints() -> None:
    block = fenced_block_after("<!-- score-examples -->")
    sessions = re.split(r"^\$ ", block, flags=re.M)[1:]
    assert len(sessions) >= 2
    for session in sessions:
        command, _, expected = session.partition("\n")
        args = shlex.split(command)
        result = runner.invoke(app, args[1:])
        assert result.exit_code == 0, result.output
        assert result.stdout.rstrip() == expected.rstrip(), command


# ---------------------------------------------------------------- commands, CI and pre-commit


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


def test_pre_commit_hook_runs_whistdsl_lint_on_ruleset_files() -> None:
    (hook,) = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    assert (hook["id"], hook["entry"], hook["language"]) == ("whistdsl-lint", "whistdsl lint", "python")
    files = re.compile(hook["files"])
    for path in ("rulesets/serbian.yaml", "rulesets/scoring/exact.yaml", "games/rulesets/house.yml"):
        assert files.search(path), path
    for path in ("README.md", "schemas/ruleset.schema.json", ".pre-commit-hooks.yaml", "myrulesets.yaml"):
        assert not files.search(path), path
    assert f"- id: {hook['id']}" in readme()


def test_readme_ci_snippet_uses_github_annotations() -> None:
    assert "whistdsl lint --format github rulesets/" in readme()


if __name__ == "__main__":
    changed = [rewrite_reference_block(), rewrite_codes_table(), rewrite_help_block()]
    print("README.md updated" if any(changed) else "README.md already up to date")
