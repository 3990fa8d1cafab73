"""Fractional number parameters (`step`) and ranges given by formulas (`max: 52 // players`):
declaration, `--set`, the table check, records, lint. Expected numbers are worked out by hand."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

from whistdsl import load_rules
from whistdsl.cli import app
from whistdsl.engine import Game
from whistdsl.players import RandomPlayer, play_out
from whistdsl.rules.ruleset import SettingError, read_settings

RULES = """\
whistdsl: 2
extends: oh-hell
name: A multiplier in halves and a hand size the table allows
players: {min: 3, max: 6, default: 4}
parameters:
  factor: {type: number, min: 1, max: 3, step: 0.5, default: 1.5, description: the points are multiplied by it}
  size: {type: number, min: 1, max: 52 // players, default: 3, description: cards in each hand}
schedule: [size, size]
scoring:
  points: (if made then 10 + bid else 0) * factor
"""

runner = CliRunner()


def write(tmp_path: Path, text: str = RULES) -> Path:
    path = tmp_path / "house.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def run(*args: str):
    result = runner.invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def test_the_values_of_a_stepped_parameter(tmp_path):
    rules = load_rules(str(write(tmp_path)))
    factor = rules.parameter("factor")
    assert factor.values() == (1, Fraction(3, 2), 2, Fraction(5, 2), 3)
    assert factor.default == Fraction(3, 2)
    # the widest range of `size`: 52 // 2 = 26 with two players (the range reads no other parameter)
    assert (rules.parameter("size").minimum, rules.parameter("size").maximum) == (1, 26)


@pytest.mark.parametrize(("text", "value"), [("2.5", Fraction(5, 2)), ("5/2", Fraction(5, 2)), ("2", 2), ("3.0", 3)])
def test_set_reads_a_fraction_exactly(tmp_path, text, value):
    rules = load_rules(str(write(tmp_path)))
    got = read_settings(rules, [f"factor={text}"])["factor"]
    assert got == value and type(got) is type(value)


@pytest.mark.parametrize(
    ("text", "words"), [("2.25", "a multiple of 1/2 from 1 to 3, not 9/4"), ("3.5", "not 7/2"), ("x", "not `x`"), ("0.1e3", "not `0.1e3`")]
)
def test_set_refuses_a_value_off_the_steps(tmp_path, text, words):
    rules = load_rules(str(write(tmp_path)))
    with pytest.raises(SettingError) as e:
        read_settings(rules, [f"factor={text}"])
    assert words in str(e.value)


def test_the_points_are_multiplied_exactly(tmp_path):
    # made 2 of 2: (10 + 2) * 5/2 = 30; made 1 of 1: 11 * 5/2 = 55/2; missed: 0
    path = str(write(tmp_path))
    assert run("score", path, "--cards", "3", "--bid", "2", "--tricks", "2", "--set", "factor=2.5").stdout.strip() == "30"
    assert run("score", path, "--cards", "3", "--bid", "1", "--tricks", "1", "--set", "factor=2.5").stdout.strip() == "55/2"
    assert run("score", path, "--cards", "3", "--bid", "1", "--tricks", "0", "--set", "factor=2.5").stdout.strip() == "0"


def test_a_range_of_the_player_count_is_checked_at_the_table(tmp_path):
    path = str(write(tmp_path))
    # size 11: 52 // 4 = 13 allows it, 52 // 5 = 10 does not
    assert run("simulate", path, "--games", "1", "--players", "4", "--set", "size=11").exit_code == 0
    refused = run("simulate", path, "--games", "1", "--players", "5", "--set", "size=11")
    assert refused.exit_code == 2
    assert "size` = 11 is outside its range with 5 players" in refused.output and "1 to 10 there" in refused.output
    assert run("play", path, "--watch", "--players", "5", "--set", "size=11").exit_code == 2
    assert run("score", path, "--cards", "2", "--players", "5", "--set", "size=11").exit_code == 2
    assert run("simulate", path, "--games", "1", "--set", "size=27").exit_code == 2  # no table allows 27 (at most 26)
    rules = load_rules(path).with_parameters({"size": 11})
    with pytest.raises(ValueError, match="outside its range with 5 players"):
        Game(rules, players=5, seed=1)


def test_records_keep_a_fraction_exactly_and_replay_it(tmp_path):
    path = str(write(tmp_path))
    record = tmp_path / "game.json"
    assert run("play", path, "--watch", "--seed", "3", "--set", "factor=2.5", "--set", "size=2", "--record", str(record)).exit_code == 0
    data = json.loads(record.read_text(encoding="utf-8"))
    assert data["parameters"] == {"factor": "5/2", "size": 2}
    for hand in data["hands"]:  # every point is (10 + bid) * 5/2 or 0
        for bid in hand["bids"]:
            made = hand["taken"][bid["seat"]] == bid["bid"]
            expected = Fraction(10 + bid["bid"]) * Fraction(5, 2) if made else 0
            assert Fraction(hand["points"][bid["seat"]]) == expected
    replayed = run("replay", str(record))
    assert replayed.exit_code == 0, replayed.output
    assert run("replay", str(record), "--set", "factor=2").exit_code == 2  # the record's value stands


def test_games_with_a_fractional_parameter_end_with_exact_totals(tmp_path):
    rules = load_rules(str(write(tmp_path))).with_parameters({"factor": Fraction(1, 2) * 5})
    game = Game(rules, players=3, seed=7)
    play_out(game, [RandomPlayer()] * 3)
    for seat in range(3):
        expected = sum((Fraction(10 + dict(h.bids)[seat]) * Fraction(5, 2) if h.taken[seat] == dict(h.bids)[seat] else 0) for h in game.history)
        assert game.result.totals[seat] == expected


def test_lint_checks_combinations_only_where_they_fit(tmp_path):
    """`size` up to 26 is a value of some table; with 3 to 6 players lint tries it only where it
    fits (26 fits no table here: 52 // 3 = 17), so no W402 for a deal too large."""
    result = run("lint", str(write(tmp_path)))
    assert result.exit_code == 0, result.output
    too_big = RULES.replace("default: 3, description: cards", "default: 9, description: cards")  # 52 // 6 = 8 < 9
    result = run("lint", str(write(tmp_path, too_big)))
    assert result.exit_code == 1 and "W313" in result.output and "a table of 6 cannot start" in result.output
