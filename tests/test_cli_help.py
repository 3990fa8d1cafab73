"""The help reads like ruff's or pytest's (issue 12, item 4): metavars a person writes (`PATH...`,
`N`, `FILE`), never a Python type (`<list[Path]>`, `<int range>`, `<str>`); the command list says
each command whole, never cut with "..."; every command shows an example or two."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from whistdsl.cli import app
from whistdsl.cli.commands import COMMAND_ORDER

runner = CliRunner()
PYTHON_TYPES = re.compile(r"<(str|int|float|bool|path|list\[[^\]]*\]|int range|float range|[a-z]+ range)>|\{[a-z_]+\}|x>=|x<=")


def helped(*args: str, width: int = 80) -> str:
    result = runner.invoke(app, [*args, "--help"], env={"COLUMNS": str(width)}, terminal_width=width, prog_name="whistdsl")
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.parametrize("command", COMMAND_ORDER)
def test_each_commands_help_has_no_python_types_and_an_example(command: str) -> None:
    text = helped(command)
    assert not PYTHON_TYPES.search(text), PYTHON_TYPES.search(text)
    assert re.search(r"^  Examples?:$", text, re.M), f"{command} --help shows no example"
    examples = text[re.search(r"^  Examples?:$", text, re.M).end() :].split("\n\n")[0]  # type: ignore[union-attr]
    assert f"whistdsl {command}" in examples


def test_the_usage_lines_name_arguments_as_a_person_writes_them() -> None:
    assert "Usage: whistdsl lint [OPTIONS] [PATH...]" in helped("lint")  # none with --explain CODE
    assert "Usage: whistdsl play [OPTIONS] [RULESET]" in helped("play")
    assert "Usage: whistdsl replay [OPTIONS] RECORD" in helped("replay")
    assert "--games N" in helped("simulate") and "--out FILE" in helped("simulate")


@pytest.mark.parametrize("width", [60, 80, 120])
def test_the_command_list_says_each_command_whole_on_one_line(width: int) -> None:
    text = helped(width=width)
    listed = text[text.index("Commands:") :].splitlines()[1:]
    assert [m.group(1) for line in listed if (m := re.match(r"^  (\w+) ", line))] == list(COMMAND_ORDER)
    assert "..." not in text.replace("COMMAND [ARGS]...", "")
    if width >= 80:
        assert all(re.match(r"^  \w+ ", line) for line in listed if line.strip()), "one line each"
    assert re.search(r"^  Examples:$", text, re.M)
