"""Records made before a change of the engine replay byte-identical games after it (issue 26).

The golden records (tests/golden_records.py says what each case is and how they were made) were
written by the engine as it was; each game is played again here, with the same ruleset, table,
seed and players, by the compiled runner and by the interpreter, and must give the same record
byte for byte. Each kept record is also checked as `whistdsl replay` checks a record: clean, the
whole game, the same winners.
"""

from __future__ import annotations

import json

import pytest
from golden_records import CASES, FOLDER, Case, kept, played
from typer.testing import CliRunner

from whistdsl.cli import app
from whistdsl.cli.replaying import replayed
from whistdsl.resources import bundled_rulesets


def first_difference(ours: str, theirs: str) -> str:
    """Where two records part: the first hand (or the head or tail) that differs, shortened."""
    a, b = json.loads(ours), json.loads(theirs)
    for i, (x, y) in enumerate(zip(a["hands"], b["hands"])):
        if x != y:
            fields = [k for k in x if x.get(k) != y.get(k)]
            return f"hand {i + 1} differs in {fields}"
    if len(a["hands"]) != len(b["hands"]):
        return f"{len(a['hands'])} hands played now, {len(b['hands'])} kept"
    keys = [k for k in {**a, **b} if a.get(k) != b.get(k)]
    return f"the records differ in {keys or 'their bytes only'}"


def test_every_bundled_ruleset_has_golden_records_and_every_kept_file_is_a_case():
    assert {case.ruleset for case in CASES} == set(bundled_rulesets())
    assert set(FOLDER.rglob("*.json.gz")) == {case.path for case in CASES}
    drivers = {(case.driver, case.bots) for case in CASES}
    assert {("play_out", "heuristic"), ("play_out", "random"), ("act", "heuristic"), ("act", "mc4")} <= drivers


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.path.name.removesuffix(".json.gz"))
def test_a_kept_game_is_played_again_byte_for_byte_by_each_runner(case: Case):
    golden = kept(case)
    for compiled in case.runners:
        now = played(case, compiled)
        assert now == golden, f"{'compiled' if compiled else 'interpreted'}: {first_difference(now, golden)}"


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.path.name.removesuffix(".json.gz"))
def test_whistdsl_replay_finds_every_kept_record_clean(case: Case, tmp_path):
    record = tmp_path / "game.json"
    record.write_text(kept(case), encoding="utf-8")
    said = []
    code, data, result = replayed(record, lambda: None, (), lambda text, err=False: said.append(text))
    assert code == 0, said
    assert result is not None and result.complete and result.game.over  # type: ignore[union-attr]
    assert sorted(data["final"]["winners"]) == sorted(result.game.result.winners)  # type: ignore[index,union-attr]


def test_the_replay_command_says_ok_for_a_kept_record(tmp_path):
    case = next(c for c in CASES if c.ruleset == "wizard" and c.driver == "act")
    record = tmp_path / "wizard.json"
    record.write_text(kept(case), encoding="utf-8")
    result = CliRunner().invoke(app, ["replay", str(record)])
    assert result.exit_code == 0, result.output
    assert "OK" in result.output
