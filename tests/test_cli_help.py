"""The help reads like ruff's or pytest's (issue 12, item 4): metavars a person writes (`PATH...`,
`N`, `FILE`), never a Python type (`<list[Path]>`, `<int range>`, `<str>`); the command list says
each command whole, never cut with "..."; every command shows an example or two."""

from __future__ import annotations

import re
from pathlib import Path

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


def examples(command: str) -> list[str]:
    """The example command lines of a command's help, without the words after them."""
    text = helped(command)
    block = text[re.search(r"^  Examples?:$", text, re.M).end() :].split("\n\n")[0]  # type: ignore[union-attr]
    return [re.split(r"\s{2,}|\s+\(", line.strip())[0] for line in block.splitlines() if line.strip().startswith("whistdsl ")]


#: Examples that need a person: `play` asks for bids and cards at a terminal, `serve` serves
#: until it is stopped (tests/test_serve_cli.py runs it as a process).
INTERACTIVE = ("whistdsl play", "whistdsl serve")


def test_every_example_in_every_commands_help_runs(tmp_path: Path) -> None:
    """Each example, with its placeholders filled in (a house ruleset extending a bundled one,
    NAME a bundled ruleset, a record of a game), runs and exits 0; a simulation is cut to 2 games
    in one process (how many games is not what an example shows)."""
    import json

    from cli_runner import whistdsl

    from whistdsl import load_rules
    from whistdsl.engine import Game
    from whistdsl.players import RandomPlayer, play_out
    from whistdsl.records.record import game_record
    from whistdsl.resources import bundled_rulesets

    (tmp_path / "house.yaml").write_text("whistdsl: 1\nextends: oh-hell\nname: House rules\n", encoding="utf-8")
    (tmp_path / "rulesets").mkdir()
    (tmp_path / "rulesets" / "oh-hell.yaml").write_text(bundled_rulesets()["oh-hell"].read_text(encoding="utf-8"), encoding="utf-8")
    game = Game(load_rules("oh-hell"), players=4, seed=1)
    play_out(game, [RandomPlayer() for _ in range(4)])
    (tmp_path / "game.json").write_text(json.dumps(game_record(game)), encoding="utf-8")
    ran = []
    for command in COMMAND_ORDER:
        for example in examples(command):
            if example.startswith(INTERACTIVE):
                continue
            line = example.replace("NAME", "oh-hell").split(" | ")[0].split(" > ")[0]
            if command == "simulate":
                line = re.sub(r" -n \d+", "", line) + " -n 2 -w 1 -s 1"
            args = line.split()[1:]
            done = whistdsl(*args, cwd=tmp_path, timeout=300)
            assert done.returncode == 0, f"{example}\n{done.stderr.decode(errors='replace')}"
            ran.append(example)
    assert any("--bots" in e for e in ran) and len(ran) >= 20
