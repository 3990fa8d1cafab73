"""Benchmark: `whistdsl lint` over every bundled ruleset in one process, and one compiled formula call.

Not a timed test: run it by hand and copy the figures into docs/performance.md.

    python benchmarks/bench_lint.py            # about half a minute
    python benchmarks/bench_lint.py --quick    # a few seconds, rougher figures
"""

from __future__ import annotations

import argparse
import platform
import statistics
import subprocess
import sys
import time
import timeit
from pathlib import Path

from whistdsl.engine.scoring import result_env
from whistdsl.resources import bundled_rulesets, data_dir
from whistdsl.rules.lint import lint_path, load_rules
from whistdsl.rules.ruleset import PlannedHand, hand_setup


def lint_all(paths: list[Path]) -> int:
    """What `whistdsl lint` does per file (load -> validate -> check); returns the finding count."""
    return sum(len(lint_path(p).findings) for p in paths)


def time_lint(paths: list[Path], repeats: int) -> tuple[float, list[float]]:
    """(the first run, with the parser and schema validator still to build; the later runs)."""
    start = time.perf_counter()
    findings = lint_all(paths)
    first = time.perf_counter() - start
    if findings:
        sys.exit(f"bench_lint: the bundled rulesets have {findings} finding(s); run `whistdsl lint` first")
    runs = []
    for _ in range(repeats):
        start = time.perf_counter()
        lint_all(paths)
        runs.append(time.perf_counter() - start)
    return first, runs


def time_cli(repeats: int) -> list[float]:
    """Wall time of `python -m whistdsl lint <bundled rulesets>`: interpreter start and imports included."""
    runs = []
    for _ in range(repeats):
        start = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "whistdsl", "lint", str(data_dir("rulesets"))],
            capture_output=True,
            text=True,
        )
        runs.append(time.perf_counter() - start)
        if done.returncode != 0:
            sys.exit(f"bench_lint: whistdsl lint exited {done.returncode}:\n{done.stdout}{done.stderr}")
    return runs


def time_formula(name: str, calls: int) -> tuple[float, float]:
    """Microseconds per call of the ruleset's compiled scoring.points, and of a hand-written lambda."""
    rules = load_rules(name)
    players = rules.players_default
    plan = rules.planned_hands(players)
    setup = hand_setup(rules, players, PlannedHand(1, 5, "normal"), len(plan))
    env = result_env(dict(setup.env, trump="spades"), bid=2, tricks=1)
    points = rules.points
    assert points is not None
    per_call = min(timeit.repeat(lambda: points(env), number=calls, repeat=5)) / calls
    baseline = lambda env: 10 + env["tricks"] if env["made"] else env["tricks"]  # noqa: E731
    base_call = min(timeit.repeat(lambda: baseline(env), number=calls, repeat=5)) / calls
    return per_call * 1e6, base_call * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats: rougher figures, a few seconds")
    args = parser.parse_args()
    repeats, cli_repeats, calls = (5, 2, 50_000) if args.quick else (30, 5, 500_000)

    paths = list(bundled_rulesets().values())
    print(f"python {platform.python_version()} on {platform.machine()}, {len(paths)} bundled rulesets")

    first, runs = time_lint(paths, repeats)
    median = statistics.median(runs)
    print(f"lint, one process, first run (builds the parser):  {first * 1000:8.1f} ms")
    print(f"lint, one process, median of {repeats:>2} later runs:     {median * 1000:8.1f} ms  ({median / len(paths) * 1000:.2f} ms per ruleset)")
    cli = time_cli(cli_repeats)
    print(f"`python -m whistdsl lint` (with start-up), median:  {statistics.median(cli) * 1000:8.1f} ms")

    for name in ("serbian", "romanian"):
        micro, base = time_formula(name, calls)
        source = " ".join(load_rules(name).points.source.split())  # type: ignore[union-attr]
        print(f"{name} scoring.points, one call:  {micro:6.2f} µs   (a hand-written lambda: {base:.2f} µs)   {source}")


if __name__ == "__main__":
    main()
