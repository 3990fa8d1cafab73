"""benchmarks/bench_bots.py writes its tournament rows into docs/performance.md's table in place: a
match run again replaces its own row and leaves the others, so one match can be re-run alone."""

from __future__ import annotations

import importlib.util
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "bench_bots.py"
spec = importlib.util.spec_from_file_location("bench_bots", SCRIPT)
bench_bots = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
spec.loader.exec_module(bench_bots)  # type: ignore[union-attr]


def row(ruleset: str, match: str, games: int) -> str:
    return f"| {ruleset} | {match} | {games} | 1.0 ± 0.1 | 0.5 ± 0.1 | +0.5 ± 0.1 | 0.60 |"


def test_a_match_run_again_replaces_its_own_row_only():
    old = [row("serbian", "heuristic vs random", 2000), row("serbian", "mc vs heuristic", 120), row("romanian", "mc vs heuristic", 120)]
    new = [row("serbian", "mc vs heuristic", 200)]
    assert bench_bots.merged(old, new) == [old[0], new[0], old[2]]


def test_a_new_match_goes_after_its_rulesets_rows_and_a_new_ruleset_at_the_end():
    old = [row("serbian", "heuristic vs random", 2000), row("romanian", "heuristic vs random", 2000)]
    search = row("serbian", "search (`--think 0.05`) vs mc", 8)
    wizard = row("wizard", "search (`--think 0.05`) vs mc", 8)
    assert bench_bots.merged(old, [search, wizard]) == [old[0], search, old[1], wizard]


def test_the_docs_table_is_merged_between_its_markers(tmp_path, monkeypatch):
    page = tmp_path / "performance.md"
    old = row("serbian", "heuristic vs random", 2000)
    page.write_text(f"intro\n{bench_bots.START}\n" + "\n".join([*bench_bots.HEADER, old]) + f"\n{bench_bots.END}\nafter\n", encoding="utf-8")
    monkeypatch.setattr(bench_bots, "PAGE", page)
    new = row("serbian", "search (`--think 0.05`) vs heuristic", 8)
    assert bench_bots.write_docs([new])
    text = page.read_text(encoding="utf-8")
    assert text == f"intro\n{bench_bots.START}\n" + "\n".join([*bench_bots.HEADER, old, new]) + f"\n{bench_bots.END}\nafter\n"


def test_a_page_without_markers_is_left_alone(tmp_path, monkeypatch):
    page = tmp_path / "performance.md"
    page.write_text("no table here\n", encoding="utf-8")
    monkeypatch.setattr(bench_bots, "PAGE", page)
    assert not bench_bots.write_docs([row("serbian", "mc vs heuristic", 1)])
    assert page.read_text(encoding="utf-8") == "no table here\n"
