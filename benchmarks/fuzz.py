"""The fuzzers of tests/test_fuzz_*.py, run for minutes instead of a bounded number of examples.

    python benchmarks/fuzz.py --minutes 10 [--seed S] [--rulesets] [--records] [--keys] [--out DIR]

With no mode named, all three share the time (rulesets half, records a third, keystrokes the
rest). Prints how many inputs each fuzzer tried and their outcomes: for rulesets findings / full
games / capped games / rule errors / anything else; for records rejected / disagreements /
replayed / anything else; for keystrokes each ending / anything else. Every failing input
(outcome `other`) is saved under DIR (default fuzz-failures/), up to three per distinct failure,
with what went wrong; the distinct failures are listed at the end. Exit code 1 when any was found.

Memory is capped at 3 GB (a mutant that asks for more is a MemoryError, reported like any other
failure); each input has a hang guard (tests/fuzzing/oracle.py).
"""

from __future__ import annotations

import argparse
import collections
import json
import re
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from fuzzing import keystrokes, records, rulesets
from fuzzing.oracle import OTHER, Outcome
from hypothesis import HealthCheck, Phase, given, seed, settings

MEMORY_CAP = 3 * 1024**3
KEEP_PER_FAILURE = 3


class TimeUp(BaseException):
    """Ends a hypothesis run when its minutes are over (a BaseException: hypothesis lets it through)."""


class Tally:
    def __init__(self, name: str, kinds: tuple[str, ...], out: Path):
        self.name, self.kinds, self.out = name, kinds, out
        self.counts: collections.Counter[str] = collections.Counter()
        self.failures: dict[str, list[str]] = {}
        self.rule_errors: collections.Counter[str] = collections.Counter()

    def add(self, outcome: Outcome, report: str) -> None:
        self.counts[outcome.kind] += 1
        if outcome.kind == rulesets.RULE_ERROR:
            self.rule_errors[re.sub(r"\d+", "N", outcome.detail.split(" (it read")[0])[:140]] += 1
        if outcome.kind != OTHER:
            return
        saved = self.failures.setdefault(outcome.signature, [])
        if len(saved) < KEEP_PER_FAILURE:
            slug = re.sub(r"[^A-Za-z0-9]+", "-", outcome.signature)[:60].strip("-")
            path = self.out / f"{self.name}-{slug}-{len(saved) + 1}.txt"
            path.write_text(f"{outcome.detail}\n\n{outcome.trace}\n\n{report}\n", encoding="utf-8", errors="backslashreplace")
            saved.append(str(path))

    def print(self) -> None:
        total = sum(self.counts.values())
        parts = ", ".join(f"{self.counts[k]} {k}" for k in self.kinds)
        print(f"{self.name}: {total} tried: {parts}")
        for text, n in self.rule_errors.most_common(12):
            print(f"    rule error x{n}: {text}")
        for signature, paths in self.failures.items():
            print(f"    FAILURE {signature}  (e.g. {paths[0]})")


def _hypothesis_run(strategy, check, deadline: float, run_seed: int) -> None:
    @seed(run_seed)
    @settings(max_examples=10**9, deadline=None, database=None, phases=[Phase.generate], suppress_health_check=list(HealthCheck), derandomize=False)
    @given(strategy)
    def run(example) -> None:
        if time.monotonic() > deadline:
            raise TimeUp()
        check(example)

    try:
        run()
    except TimeUp:
        pass


def fuzz_rulesets(seconds: float, run_seed: int, tally: Tally) -> None:
    work = rulesets.Workspace()
    try:
        _hypothesis_run(rulesets.mutants(), lambda m: tally.add(rulesets.judge(m, work), m.report()), time.monotonic() + seconds, run_seed)
    finally:
        work.close()


def fuzz_records(seconds: float, run_seed: int, tally: Tally) -> None:
    with tempfile.TemporaryDirectory() as folder:
        _hypothesis_run(
            records.record_mutants(), lambda m: tally.add(records.judge_record(m, Path(folder)), m.report()), time.monotonic() + seconds, run_seed
        )


def fuzz_keys(seconds: float, run_seed: int, tally: Tally) -> None:
    deadline = time.monotonic() + seconds
    with tempfile.TemporaryDirectory() as folder:
        tiny = keystrokes.write_tiny(Path(folder))
        n = run_seed
        while time.monotonic() < deadline:
            s = keystrokes.session(n, tiny)
            tally.add(keystrokes.run_session(s, tiny, Path(folder)), s.report())
            n += 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, required=True, help="how long to fuzz, in all")
    parser.add_argument("--seed", type=int, default=0, help="seed of the generators (default 0)")
    parser.add_argument("--rulesets", action="store_true", help="fuzz rulesets (the contract of lint)")
    parser.add_argument("--records", action="store_true", help="fuzz records (whistdsl replay)")
    parser.add_argument("--keys", action="store_true", help="fuzz keystrokes into whistdsl play")
    parser.add_argument("--out", type=Path, default=Path("fuzz-failures"), help="where failing inputs are saved")
    args = parser.parse_args()
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))
    args.out.mkdir(parents=True, exist_ok=True)
    modes = [m for m in ("rulesets", "records", "keys") if getattr(args, m)] or ["rulesets", "records", "keys"]
    share = {"rulesets": 0.5, "records": 1 / 3, "keys": 1 / 6} if len(modes) == 3 else {m: 1 / len(modes) for m in modes}
    kinds = {"rulesets": rulesets.OUTCOMES, "records": records.OUTCOMES, "keys": keystrokes.OUTCOMES}
    runners = {"rulesets": fuzz_rulesets, "records": fuzz_records, "keys": fuzz_keys}
    tallies = []
    started = time.monotonic()
    for mode in modes:
        tally = Tally(mode, kinds[mode], args.out)
        runners[mode](args.minutes * 60 * share[mode], args.seed, tally)
        tally.print()
        tallies.append(tally)
    print(f"{time.monotonic() - started:.0f} s; failing inputs saved in {args.out}/")
    summary = {t.name: {"tried": sum(t.counts.values()), **t.counts, "failures": sorted(t.failures)} for t in tallies}
    (args.out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    return 1 if any(t.failures for t in tallies) else 0


if __name__ == "__main__":
    sys.exit(main())
