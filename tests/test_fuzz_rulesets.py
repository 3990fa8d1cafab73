"""The contract of lint, fuzzed: every mutant of a bundled ruleset gets lint findings, or a seeded
game between random players that runs to its end (or to the hand cap) or stops with a rule error.
Nothing else: no uncaught exception, no hang, no finding printed with a raw control character.

The mutants and the oracle are in tests/fuzzing/rulesets.py; `benchmarks/fuzz.py --minutes N`
runs the same generator for longer. Here the examples are derandomized and bounded, so the test
is the same on every run.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from fuzzing.expressions import expressions
from fuzzing.rulesets import (
    FINDINGS,
    OTHER,
    Mutant,
    Outcome,
    Workspace,
    context_of,
    judge,
    mutants,
    sources,
)
from hypothesis import HealthCheck, given, settings

from whistdsl.language.catalogue import CONTEXTS, Type
from whistdsl.language.errors import ExprError
from whistdsl.language.program import formula

#: Failures the fuzzer finds that are not fixed yet, by signature (`Outcome.signature`), with the
#: reason. The lead removes an entry once its bug is fixed; the test then fails on it again.
KNOWN_FAILURES: dict[str, str] = {}
#: Each failure the fuzzer found, minimized: tests/fuzzing/repros/rulesets/NAME.yaml, a ruleset written as
#: rulesets/fuzz-mutant.yaml beside the bundled ones (its first line may say `# players: K, seed: S`).
REPROS = sorted((Path(__file__).parent / "fuzzing" / "repros" / "rulesets").glob("*.yaml"))
#: Repros of bugs not fixed yet, with the reason: expected to fail (strictly: once the bug is
#: fixed the test says so, and the entry is to be removed).
KNOWN_FAILING_REPROS: dict[str, str] = {}

CI = settings(
    max_examples=200,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)


@pytest.fixture(scope="module")
def work() -> Iterator[Workspace]:
    w = Workspace()
    yield w
    w.close()


def assert_meets_the_contract(outcome: Outcome, mutant: Mutant) -> None:
    if outcome.kind == OTHER and outcome.signature not in KNOWN_FAILURES:
        pytest.fail(f"{outcome.detail}\n{outcome.trace}\n\nthe mutant:\n{mutant.report()}", pytrace=False)


@CI
@given(mutant=mutants())
def test_every_mutant_of_a_bundled_ruleset_lints_with_findings_or_plays_or_stops_with_a_rule_error(work: Workspace, mutant: Mutant) -> None:
    assert_meets_the_contract(judge(mutant, work), mutant)


@pytest.mark.parametrize(
    "repro",
    [
        pytest.param(p, marks=pytest.mark.xfail(strict=True, reason=KNOWN_FAILING_REPROS[p.stem])) if p.stem in KNOWN_FAILING_REPROS else p
        for p in REPROS
    ],
    ids=[p.stem for p in REPROS],
)
def test_each_failure_the_fuzzer_found_now_meets_the_contract(work: Workspace, repro: Path) -> None:
    text = repro.read_text(encoding="utf-8")
    header = re.match(r"# players: (\d+), seed: (\d+)", text)
    players, seed = (int(header.group(1)), int(header.group(2))) if header else (0, 1)
    mutant = Mutant({"rulesets/fuzz-mutant.yaml": text}, "rulesets/fuzz-mutant.yaml", players, seed, [repro.name])
    outcome = judge(mutant, work)
    assert outcome.kind != OTHER, f"{outcome.detail}\n{outcome.trace}"


#: The docs' example of a ruleset with mistakes (docs/examples/no-premium-typo.yaml): findings.
BROKEN_EXAMPLE = "examples/no-premium-typo"


def test_every_bundled_ruleset_unchanged_plays_a_whole_game(work: Workspace) -> None:
    """The oracle itself: an unmutated ruleset (bundled, or an example of the docs) is not a
    finding and plays to its end; the docs' broken example is findings."""
    assert BROKEN_EXAMPLE in {src.name for src in sources()} and "examples/oh-hell-joker" in {src.name for src in sources()}
    for src in sources():
        rel = f"rulesets/{src.folder}/fuzz-mutant.yaml" if src.folder else "rulesets/fuzz-mutant.yaml"
        mutant = Mutant({rel: yaml.safe_dump(src.raw, sort_keys=False, allow_unicode=True)}, rel, 0, 8, ["none"])  # seed 8: random players
        outcome = judge(mutant, work)
        expected = "findings" if src.name == BROKEN_EXAMPLE else "full game"
        assert outcome.kind == expected, f"{src.name}: {outcome.kind}: {outcome.detail}\n{outcome.trace}"


def test_a_mutant_with_a_typo_in_a_formula_is_a_finding(work: Workspace) -> None:
    text = "whistdsl: 1\nextends: romanian\nscoring:\n  points: if made then trick else 0\n"
    mutant = Mutant({"rulesets/fuzz-mutant.yaml": text}, "rulesets/fuzz-mutant.yaml", 0, 1, ["typo"])
    assert judge(mutant, work).kind == FINDINGS


def test_formula_paths_map_to_the_catalogue_contexts() -> None:
    assert context_of(("scoring", "points")) == "scoring"
    assert context_of(("scoring", "bonus")) == "bonus"
    assert context_of(("schedule", 2)) == context_of(("schedule", 2, "cards")) == "schedule"
    assert context_of(("schedule", 2, "kind")) is None
    assert context_of(("tiebreak", "cards")) == "schedule"
    assert context_of(("running", "streak", "after_hand")) == "running"
    assert context_of(("running", "streak", "start")) == "running_start"
    assert context_of(("kinds", "zero", "allowed")) == "bidding"
    assert context_of(("winner", "rank", 0)) == "winner"
    assert context_of(("deck", "size")) == "setup"
    assert context_of(("name",)) is None
    assert {
        context_of(p)
        for p in [
            ("deck", "size"),
            ("let", "x"),
            ("schedule", 0),
            ("dealer", "sits_out"),
            ("trump", "none_when"),
            ("bidding", "allowed"),
            ("scoring", "points"),
            ("scoring", "bonus"),
            ("running", "x", "after_hand"),
            ("running", "x", "start"),
            ("winner", "wins_outright"),
            ("end", "when"),
            ("bidding", "first", "highest"),
            ("play", "first_lead", "lowest"),
            ("decisions", 0, "when"),
            ("decisions", 0, "min"),
            ("decisions", 1, "skip"),
            ("redeal", "when"),
            ("decisions", 0, "choices", "void"),
        ]
    } == set(CONTEXTS)


@settings(max_examples=200, derandomize=True, deadline=None, database=None)
@given(text=expressions("scoring", Type.NUMBER, lets=("run",), running=("streak",)))
def test_generated_formulas_parse_or_get_a_finding_never_a_crash(text: str) -> None:
    try:
        formula(text, "scoring", ("streak",), Type.NUMBER, {"run": Type.NUMBER})
    except ExprError as e:
        assert e.problems and all(p.code.startswith("W") for p in e.problems)
