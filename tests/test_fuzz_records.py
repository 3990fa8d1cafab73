"""Records fuzzed against the record schema: `whistdsl replay` of a mutant of a real record
rejects it with exit 2 and a message, reports a disagreement with exit 1, or replays it (exit 0),
and never replays clean a record whose bids, cards, tricks, points or totals were changed.
Never an uncaught exception, a traceback or a raw control character.

The mutants and the oracle are in tests/fuzzing/records.py; `benchmarks/fuzz.py --records`
runs them for longer.
"""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from fuzzing.oracle import OTHER
from fuzzing.records import DISAGREEMENT, REJECTED, REPLAYED, RecordMutant, bases, judge_record, record_mutants
from hypothesis import HealthCheck, given, settings

ROOT = Path(__file__).resolve().parent.parent
RECORD_SCHEMA = json.loads((ROOT / "schemas" / "record.schema.json").read_text(encoding="utf-8"))

#: Failures the fuzzer finds that are not fixed yet, by signature (`Outcome.signature`), with the
#: reason. The lead removes an entry once its bug is fixed; the test then fails on it again.
KNOWN_FAILURES: dict[str, str] = {}
#: Each failure the fuzzer found, minimized: tests/fuzzing/repros/records/NAME.json (a set-up
#: file, without its ruleset, is checked against the bundled `romanian`).
REPROS = sorted((Path(__file__).parent / "fuzzing" / "repros" / "records").glob("*.json"))
#: Repros of bugs not fixed yet, with the reason: expected to fail (strictly: once the bug is
#: fixed the test says so, and the entry is to be removed).
KNOWN_FAILING_REPROS: dict[str, str] = {}


@settings(max_examples=150, derandomize=True, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(mutant=record_mutants())
def test_replay_of_a_mutated_record_rejects_it_disagrees_or_replays_never_crashes(tmp_path_factory, mutant: RecordMutant) -> None:
    outcome = judge_record(mutant, tmp_path_factory.mktemp("record"))
    if outcome.kind == OTHER and outcome.signature not in KNOWN_FAILURES:
        pytest.fail(f"{outcome.detail}\n{outcome.trace}\n\nthe mutant:\n{mutant.report()}", pytrace=False)


@pytest.mark.parametrize(
    "repro",
    [
        pytest.param(p, marks=pytest.mark.xfail(strict=True, reason=KNOWN_FAILING_REPROS[p.stem])) if p.stem in KNOWN_FAILING_REPROS else p
        for p in REPROS
    ],
    ids=[p.stem for p in REPROS],
)
def test_each_record_failure_the_fuzzer_found_now_gets_a_clear_answer(tmp_path: Path, repro: Path) -> None:
    text = repro.read_text(encoding="utf-8")
    m = RecordMutant(repro.name, text, None, None if "ruleset" in json.loads(text) else "romanian", show=True)
    outcome = judge_record(m, tmp_path)
    assert outcome.kind != OTHER, f"{outcome.detail}\n{outcome.trace}"


def test_the_base_records_are_valid_records_that_replay_clean(tmp_path: Path) -> None:
    """The oracle itself: each unchanged base record is valid and replays with exit 0."""
    for base in bases():
        jsonschema.validate(base.data, RECORD_SCHEMA)
        m = RecordMutant(base.name, json.dumps(base.data), None, base.ruleset, show=True)
        outcome = judge_record(m, tmp_path)
        assert outcome.kind == REPLAYED, f"{base.name}: {outcome.kind}: {outcome.detail}"


def test_a_changed_bid_is_a_disagreement_and_a_bad_field_a_rejection(tmp_path: Path) -> None:
    base = next(b for b in bases() if b.name.startswith("romanian,"))
    changed = json.loads(json.dumps(base.data))
    changed["hands"][1]["totals"][0] += 1
    m = RecordMutant(base.name, json.dumps(changed), None, None, show=False, must_disagree=True)
    assert judge_record(m, tmp_path).kind == DISAGREEMENT
    changed["hands"][1]["taken"] = "three"
    m = RecordMutant(base.name, json.dumps(changed), None, None, show=False)
    assert judge_record(m, tmp_path).kind == REJECTED
