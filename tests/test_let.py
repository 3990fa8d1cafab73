"""`let`: named values, written once and used by every formula but deck.size."""

from __future__ import annotations

import textwrap
from pathlib import Path

from whistdsl import lint_path, load_rules
from whistdsl.engine import Game
from whistdsl.players import RandomPlayer, play_out
from whistdsl.records.record import game_record


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "house.yaml"
    path.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    return path


def test_let_values_reach_the_schedule_the_scoring_and_the_winner(tmp_path):
    path = write(
        tmp_path,
        """
        whistdsl: 1
        extends: oh-hell
        name: Short Oh Hell
        let:
          top: 3                       # the largest hand
          premium: top * 2 + 4         # 10: a name may use the ones before it
        schedule: [top .. 1]
        scoring:
          points: if made then premium + bid else 0
        winner:
          rank: [highest total + premium]
        """,
    )
    result = lint_path(path)
    assert result.findings == [] and result.ruleset is not None
    rules = result.ruleset
    assert rules.let_values(4) == {"top": 3, "premium": 10}
    game = Game(rules, players=4, seed=5)
    play_out(game, [RandomPlayer()] * 4)
    record = game_record(game)
    assert [h["cards"] for h in record["hands"]] == [3, 2, 1]
    for hand in record["hands"]:
        for bid in hand["bids"]:
            seat = bid["seat"]
            made = hand["taken"][seat] == bid["bid"]
            assert hand["points"][seat] == (10 + bid["bid"] if made else 0)


def test_a_house_rule_changes_a_let_value_and_every_formula_follows():
    base, house = load_rules("romanian-streak-10"), load_rules("romanian-streak-players")
    assert base.let_values(4) == {"run": 10, "streak_bonus": 30}
    assert house.let_values(4) == {"run": 5, "streak_bonus": 10}
    assert house.let_values(3)["run"] == 4


def test_let_names_are_checked(tmp_path):
    path = write(
        tmp_path,
        """
        whistdsl: 1
        extends: romanian
        name: Bad names
        let:
          made: 3
          twice: players * 2
          later: twice + sooner
          sooner: 1
        deck:
          size: twice * 4
        """,
    )
    found = [(f.line, f.column, f.code) for f in lint_path(path).findings]
    assert (5, 3, "W203") in found  # `made` is a built-in name
    assert (7, 18, "W301") in found  # `sooner` is defined after `later`
    assert (10, 9, "W303") in found  # deck.size comes before the let values exist


def test_a_let_value_that_cannot_be_evaluated_is_a_finding(tmp_path):
    path = write(
        tmp_path,
        """
        whistdsl: 1
        extends: romanian
        name: Division
        let:
          share: 24 // (players - 3)
        """,
    )
    findings = lint_path(path).findings
    assert [(f.line, f.code) for f in findings] == [(5, "W305")]
    assert "with 3 players" in findings[0].message and "division by zero" in findings[0].message
