"""What lint's trials of formulas share (rules/domain.py tries them case by case, rules/probe.py
in whole games): a formula tried and what it reads (`Target`), the budget of evaluations
(`Budget`, MAX_CASES), the values sampled where lint cannot enumerate (SPREAD), a trump for a
hand, and the words that name a case.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import Any

from ..language.catalogue import SEAT_FACTS, SeatFact
from ..language.program import Formula, can_fail
from ..language.values import Number, Value, value_text
from .load import JsonPath
from .ruleset import HandSetup, Ruleset

#: Values tried for running values and totals, after their start values.
SPREAD: tuple[Number, ...] = (0, 1, -1, 2, -2, Fraction(1, 2), Fraction(-1, 2), 10, -10, 100, -100, 10**6, -(10**6))
#: The most formula evaluations lint spends on one ruleset (a formula that builds lists costs more).
MAX_CASES = 300_000
#: What one evaluation costs against MAX_CASES, per list it may build.
LIST_COST = 50

RESULT_NAMES = frozenset({"bid", "call", "tricks", "made", "over", "under", "diff"})
#: A seat's facts of the hand's decisions that lint enumerates besides its bid and call (the
#: catalogue's SEAT_FACTS that have words of their own), in the order cases name them.
CHOICES: tuple[SeatFact, ...] = tuple(f for f in SEAT_FACTS if f.words[0])
CHOICE_NAMES = frozenset(f.name for f in CHOICES)
SEAT_NAMES = frozenset({"position", "is_dealer"})
#: Names that depend on the hand's place in the schedule: a failure reading them is also about
#: the schedule entry that made the hand.
HAND_NAMES = frozenset({"hand_number", "hand_size", "hands", "kind", "extra", "playing", "cards_left"})

#: (paths the finding is about, the subject first; code; message; severity)
Report = Callable[[Sequence[JsonPath], str, str, str], None]


class OutOfCases(Exception):
    """The ruleset has used up MAX_CASES: lint stops trying cases (and says so)."""


@dataclass
class Budget:
    left: int = MAX_CASES

    def spend(self, cost: int) -> None:
        self.left -= cost
        if self.left < 0:
            raise OutOfCases


@dataclass(eq=False)
class Target:
    """One formula of the scoring contexts (or the winner), and what it needs before it runs."""

    formula: Formula
    path: JsonPath
    name: str  # the env name its value goes to: "points", "bonus", a running value, or ""
    before: tuple[Target, ...] = ()  # points and bonus, when it reads them
    memo: dict[tuple, tuple[bool, Any]] = field(default_factory=dict)

    @cached_property
    def reads(self) -> frozenset[str]:
        """Every name it reads, through the points and bonus it reads."""
        out = set(self.formula.names - {"points", "bonus"})
        for b in self.before:
            out |= b.formula.names - {"points", "bonus"}
        return frozenset(out)

    @cached_property
    def seat_sets(self) -> tuple[str, ...]:
        """The seat sets it (or the points and bonus it reads) aggregates over."""
        return tuple(sorted({name for f in (self.formula, *(b.formula for b in self.before)) for name, _ in f.seat_reads}))

    @cached_property
    def score_reads(self) -> frozenset[str]:
        """The other seats' `points` and `bonus` it (or the bonus it reads) reads."""
        return frozenset(n for f in (self.formula, *(b.formula for b in self.before)) for _, facts in f.seat_reads for n in facts) & {
            "points",
            "bonus",
        }

    @cached_property
    def case_reads(self) -> frozenset[str]:
        """What lint enumerates for it: what it reads, and this seat's own result and place too
        when it reads the other seats (this seat is one of `seats`)."""
        return self.reads | (RESULT_NAMES | SEAT_NAMES if self.seat_sets else frozenset())

    @cached_property
    def can_fail(self) -> bool:
        """Whether it (or the points and bonus it reads) could fail at some values."""
        return any(can_fail(f) for f in (self.formula, *(b.formula for b in self.before)))

    @property
    def cost(self) -> int:
        return 1 + LIST_COST * self.formula.list_ops


def samples(names: Iterable[str], start: dict[str, Number]) -> list[dict[str, Number]]:
    """Values to try for the unknown `names`: all at each value of the spread, and (when
    there are several) each alone at it, the others at their start values."""
    names = sorted(names)
    out: list[dict[str, Number]] = [{n: start[n] for n in names}]
    for v in SPREAD:
        out.append(dict.fromkeys(names, v))
        if len(names) > 1:
            out.extend({**{m: start[m] for m in names}, n: v} for n in names)
    unique: dict[tuple, dict[str, Number]] = {}
    for s in out:
        unique.setdefault(tuple(s[n] for n in names), s)
    return list(unique.values())


def when(values: dict[str, Value], names: Iterable[str]) -> str:
    """`when total is -10 and streak is 2`."""
    parts = [f"{n} is {value_text(values[n])}" for n in sorted(names)]
    return "when " + " and ".join(parts) if parts else ""


def game_state_words(env: dict[str, Value], f: Formula, unknown: frozenset[str]) -> str:
    """The values a formula read of a whole game that lint cannot know, with the comma before
    them: `, when total is 7`, `, when every seat's total is 0` (in lint's whole games every
    seat plays as this one), or "" when it read none of them."""
    own = sorted(f.names & unknown)
    seats = sorted({n for _, facts in f.seat_reads for n in facts} & unknown)
    parts = [f"{n} is {value_text(env[n])}" for n in own] + [f"every seat's {n} is {value_text(env[n])}" for n in seats]
    return ", when " + " and ".join(parts) if parts else ""


def hand_words(players: int, setup: HandSetup) -> str:
    extra = " (a tie-break hand)" if setup.extra else ""
    return f"with {players} players in hand {setup.plan.number}{extra}"


def case_words(case: dict[str, Value], reads: frozenset[str]) -> list[str]:
    """The enumerated values of a case that the formula reads, in words."""
    parts = []
    if reads & (RESULT_NAMES - {"bid", "call"}):
        parts.append(f"bid {case['bid']} and tricks {case['tricks']}")
    elif "bid" in reads:
        parts.append(f"bid {case['bid']}")
    if "call" in reads and case.get("call"):
        parts.append(f"the call {case['call']}")
    for fact in CHOICES:
        if fact.name in reads:
            value = case[fact.name]
            parts.append(fact.words[0].format(value_text(value)) if value != fact.default else fact.words[1])
    if "position" in reads:
        parts.append(f"position {case['position']}")
    if "is_dealer" in reads:
        parts.append("the dealer" if case["is_dealer"] else "not the dealer")
    if "trump" in reads:
        parts.append(f"trump {case['trump']}")
    return parts


def none_when_env(rules: Ruleset, setup: HandSetup) -> dict[str, Value]:
    """The env `trump.none_when` is asked in for whole-game runs: the hand's, and when it reads
    the turned card, an ace of the first suit turned."""
    f = rules.trump_none_when
    if f is not None and f.names & {"turn_up_suit", "turn_up_rank", "turn_up_special"}:
        return dict(setup.env, turn_up_suit=rules.suits[0], turn_up_rank="A", turn_up_special="")
    return setup.env


def a_trump(rules: Ruleset, setup: HandSetup) -> str:
    """One trump the hand can have (for whole-game runs)."""
    if rules.trump_none_when is not None and rules.trump_none_when(none_when_env(rules, setup)):
        return "none"
    if rules.trump_cycle:
        return rules.trump_cycle[(setup.plan.number - 1) % len(rules.trump_cycle)]
    if rules.trump_from:
        return "none" if rules.trump_from[0] == "turn_up" and setup.cards_left <= 0 and len(rules.trump_from) == 1 else rules.suits[0]
    return rules.suits[0] if rules.turn_up and setup.cards_left > 0 else "none"
