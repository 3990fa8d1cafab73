"""Small things authors hit: `A .. B .. C`, `map(list, n -> formula)`, and a formula YAML's flow list split.

The expected lists are written out by hand from the meaning the README gives each form.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from whistdsl import load_rules
from whistdsl.language.errors import EvalError, ExprError
from whistdsl.language.limits import MAP_BUDGET, MAX_LIST
from whistdsl.language.program import evaluate, formula
from whistdsl.rules.lint import lint_path

TABLE = {"players": 4, "deck_size": 52}


def sizes(text: str, env: dict = TABLE) -> tuple:
    return evaluate(text, "schedule", env)


def test_there_and_back_is_one_entry_with_the_turning_size_once():
    assert sizes("1 .. 10 .. 1") == (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1)
    assert sizes("7 .. 1 .. 7") == (7, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7)
    assert len(sizes("10 .. 1 .. 10")) == 19  # 10 down to 1 (10 hands), then 2 up to 10 (9 hands)
    assert sizes("3 .. 3 .. 1") == (3, 2, 1)  # no way up: the turn is the start
    assert sizes("1 .. 3 .. 3") == (1, 2, 3)
    assert sizes("1 .. 4 .. 2") == (1, 2, 3, 4, 3, 2)  # the ends need not match
    assert sizes("deck_size // players .. 1 .. deck_size // players")[:3] == (13, 12, 11)


def test_map_builds_a_schedule_from_a_list():
    assert sizes("map(1 .. 4, n -> [n, n])") == (1, 1, 2, 2, 3, 3, 4, 4)
    assert sizes("map(1 .. 3, n -> repeat(n, n))") == (1, 2, 2, 3, 3, 3)
    assert sizes("map([2, 5], n -> n * players)") == (8, 20)
    # nested: the inner formula sees the outer item
    assert sizes("map(1 .. 2, n -> map(1 .. n, m -> 10 * n + m))") == (11, 21, 22)
    # the 104-hand schedule of the issue in one line: 13 .. 1, each size once per player, with 4 players
    hundred_and_four = sizes("map(13 .. 1, n -> repeat(n, players))")
    assert len(hundred_and_four) == 52 and sizes("map(1 .. 13, n -> [n, n]) + map(13 .. 1, n -> [n, n])") == tuple(
        [n for n in range(1, 14) for _ in (0, 1)] + [n for n in range(13, 0, -1) for _ in (0, 1)]
    )
    assert len(sizes("map(13 .. 1, n -> repeat(n, 2 * players))")) == 104


def test_map_reads_only_what_the_context_gives_and_names_its_item():
    f = formula("map(1 .. players, n -> [n])", "schedule")
    assert f.names == {"players"}  # the item name is not a name the formula reads from its context
    with pytest.raises(ExprError) as e:
        formula("map(1 .. 3, players -> [players])", "schedule")
    assert [p.code for p in e.value.problems] == ["W310"]
    with pytest.raises(ExprError) as e:
        formula("map(1 .. 3, n -> tricks)", "schedule")
    assert [p.code for p in e.value.problems] == ["W303"]
    with pytest.raises(ExprError) as e:
        formula("abs(n -> 1)", "schedule")
    assert [p.code for p in e.value.problems] == ["W310"]
    with pytest.raises(ExprError) as e:
        formula("n -> 1", "schedule")
    assert "map()" in e.value.problems[0].message


def test_map_stays_within_the_list_limits():
    with pytest.raises(EvalError, match=f"at most {MAX_LIST} numbers"):
        sizes("map(1 .. 10000, n -> [n, n])")
    # every item building a long list: the map's budget stops it after a few items, not 10000
    with pytest.raises(EvalError, match=str(MAP_BUDGET)):
        sizes("len(map(1 .. 10000, n -> len(1 .. n + 9000)))")
    assert sizes("len(map(1 .. 10000, n -> [n]))") == 10000


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "house.yaml"
    path.write_text(text, encoding="utf-8")
    return path


BASE = """\
whistdsl: 2
name: forms
players: {min: 4, max: 4}
trump: {cycle: [spades, hearts, none]}
scoring: {points: if made then 10 + tricks else 0}
"""


def test_a_ruleset_plays_a_schedule_written_with_the_new_forms(tmp_path):
    rules = load_rules(write(tmp_path, BASE + "schedule:\n  - 3 .. 1 .. 2\n  - map(1 .. 2, n -> [n, n])\n"))
    assert [h.size for h in rules.planned_hands(4)] == [3, 2, 1, 2, 1, 1, 2, 2]


def test_a_formula_split_by_a_flow_list_is_one_finding_at_its_first_piece(tmp_path):
    path = write(tmp_path, BASE + "schedule: [3 .. 1, min(players, 3), 2]\n")
    findings = lint_path(path).findings
    assert [(f.code, f.line, f.column) for f in findings] == [("W418", 6, 20)]
    assert "`min(players, 3)` is one formula" in findings[0].message
    assert "quote the formula" in findings[0].message
    # a formula whose brackets do not balance in a block list is a syntax error as before
    broken = write(tmp_path, BASE + "schedule:\n  - min(players\n  - 3)\n")
    assert {f.code for f in lint_path(broken).findings} == {"W300"}
