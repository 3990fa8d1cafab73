"""What is worked out once per ruleset is kept beside it, by identity (rules/ruleset.py
`Remembered`): a frozen Ruleset holds no cache, each ruleset object has its own values, and
only the last MAX_REMEMBERED rulesets' values are kept."""

from __future__ import annotations

import threading

from whistdsl import load_rules
from whistdsl.engine.table import table_facts
from whistdsl.rules.ruleset import MAX_REMEMBERED, Remembered


def test_values_are_worked_out_once_per_ruleset_object() -> None:
    rules = load_rules("openspiel")
    made = []
    remembered = Remembered(lambda r: made.append(r) or len(made))
    assert remembered(rules) == remembered(rules) == 1
    other = rules.with_parameters({})  # equal rules, another object: values of its own
    assert other == rules and other is not rules
    assert remembered(other) == 2 and made == [rules, other]


def test_a_ruleset_with_other_parameters_plays_its_own_schedule() -> None:
    rules = load_rules("openspiel")
    seven = rules.with_parameters({"tricks": 7})
    # openspiel plays one hand of `tricks` cards (5 by default: rulesets/openspiel.yaml)
    assert [h.size for h in rules.planned_hands(4)] == [5]
    assert [h.size for h in seven.planned_hands(4)] == [7]
    assert [h.size for h in rules.planned_hands(4)] == [5]  # still its own after the other's
    assert table_facts(seven, 4) is table_facts(seven, 4) and table_facts(seven, 4) is not table_facts(rules, 4)


def test_only_the_last_rulesets_are_kept_and_a_forgotten_one_is_worked_out_again() -> None:
    rules = load_rules("openspiel")
    many = [rules.with_parameters({}) for _ in range(MAX_REMEMBERED + 1)]
    calls = []
    remembered = Remembered(lambda r: calls.append(r) or object())
    first = remembered(many[0])
    for r in many[1:]:
        remembered(r)
    assert len(calls) == MAX_REMEMBERED + 1
    assert remembered(many[-1]) is remembered(many[-1]) and len(calls) == MAX_REMEMBERED + 1
    again = remembered(many[0])  # forgotten when the 65th came: worked out anew
    assert again is not first and len(calls) == MAX_REMEMBERED + 2


def test_callers_at_once_get_the_same_value() -> None:
    rules = load_rules("openspiel")
    start = threading.Barrier(8)
    remembered = Remembered(lambda r: start.wait() and object() or object())
    got = []
    threads = [threading.Thread(target=lambda: got.append(remembered(rules))) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(got) == 8 and len({id(v) for v in got}) == 1
