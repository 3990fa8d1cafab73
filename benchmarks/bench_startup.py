"""Benchmark: how long `whistdsl` takes to answer, as whole processes started from the shell.

Not a timed test: run it by hand and copy the table into docs/performance.md.

    python benchmarks/bench_startup.py              # 10 rounds, about a minute on a quiet machine
    python benchmarks/bench_startup.py --rounds 3   # rougher figures
    python benchmarks/bench_startup.py --before ../old-checkout   # and that checkout's whistdsl, interleaved

It runs the `whistdsl` script installed beside the Python that runs it (the venv's), each
command in turn in every round (so a busy moment of the machine falls on all of them alike),
and prints a markdown table: the median, min and max wall time of each, its median CPU time,
and whether the median is within the issue's target. "cold cache" runs have an empty cache
folder (WHISTDSL_CACHE_DIR) each time, as on the first run after an install or a change;
"warm cache" runs use a folder that an earlier run has filled, as every later run does.
Python's byte-code files are written (a warm-up run compiles them), as after `pip install`.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Case:
    label: str
    args: list[str]
    target: float | None  # seconds, the goal for the median
    cache: str  # "cold", "warm" or "" (the command does not read the cache)
    code: str = ""  # another checkout whose whistdsl package runs (PYTHONPATH), for --before
    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)


def whistdsl_script() -> Path:
    script = Path(sys.executable).parent / "whistdsl"
    if not script.exists():
        sys.exit(f"bench_startup: no whistdsl script beside {sys.executable}; run it with the venv's python")
    return script


def one_hand_record(script: Path, folder: Path, env: dict[str, str]) -> Path:
    """A record of one complete hand: a watched Serbian game (seed 1), cut after its first hand
    (a record may end between hands: replay then checks the hands it holds)."""
    whole = folder / "game.json"
    subprocess.run(
        [str(script), "play", "serbian", "--watch", "--seed", "1", "--record", str(whole)], env=env, cwd=ROOT, check=True, stdout=subprocess.DEVNULL
    )
    data = json.loads(whole.read_text(encoding="utf-8"))
    data["hands"] = data["hands"][:1]
    data.pop("final", None)
    record = folder / "one-hand.json"
    record.write_text(json.dumps(data), encoding="utf-8")
    return record


def run(case: Case, env: dict[str, str], scratch: Path) -> None:
    environment = dict(env)
    if case.code:
        environment["PYTHONPATH"] = case.code
    if case.cache == "cold":
        cold = Path(tempfile.mkdtemp(dir=scratch))
        environment["WHISTDSL_CACHE_DIR"] = str(cold)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(case.args, env=environment, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"bench_startup: {' '.join(case.args)} exited {done.returncode}:\n{done.stderr.decode(errors='replace')}")
    case.wall.append(wall)
    case.cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    if case.cache == "cold":
        shutil.rmtree(environment["WHISTDSL_CACHE_DIR"], ignore_errors=True)


def machine() -> str:
    cpu = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    load = " / ".join(f"{x:.1f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "?"
    return f"Python {platform.python_version()}, {platform.system()} {platform.machine()}, {os.cpu_count()} cores ({cpu or 'unknown CPU'}), load average {load}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10, help="runs of each command (default 10)")
    parser.add_argument("--before", metavar="DIR", help="also time the whistdsl package of this checkout (an earlier version), interleaved")
    options = parser.parse_args()
    script = whistdsl_script()
    python = sys.executable
    scratch = Path(tempfile.mkdtemp(prefix="bench-startup-"))
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "WHISTDSL_NO_CACHE", "COLUMNS")}
    env["WHISTDSL_CACHE_DIR"] = str(scratch / "warm")
    try:
        record = one_hand_record(script, scratch, env)
        w = str(script)
        rulesets = ROOT / "rulesets"
        cases = [
            Case("`python -c pass` (the interpreter alone)", [python, "-c", "pass"], None, ""),
            Case("`python -c 'import typer'`", [python, "-c", "import typer"], None, ""),
            Case("`whistdsl --version`", [w, "--version"], 0.2, ""),
            Case("`whistdsl --help`", [w, "--help"], 0.2, "warm"),
            Case("`whistdsl --help`", [w, "--help"], 0.2, "cold"),
            Case("`whistdsl lint rulesets/serbian.yaml`", [w, "lint", str(rulesets / "serbian.yaml")], 0.35, "warm"),
            Case("`whistdsl lint rulesets/serbian.yaml`", [w, "lint", str(rulesets / "serbian.yaml")], 0.35, "cold"),
            Case(f"`whistdsl lint rulesets/` ({len(list(rulesets.rglob('*.yaml')))} bundled rulesets)", [w, "lint", str(rulesets)], 0.5, "warm"),
            Case(f"`whistdsl lint rulesets/` ({len(list(rulesets.rglob('*.yaml')))} bundled rulesets)", [w, "lint", str(rulesets)], 0.5, "cold"),
            Case("`whistdsl replay one-hand.json` (Serbian)", [w, "replay", str(record)], 0.4, "warm"),
            Case("`whistdsl replay one-hand.json` (Serbian)", [w, "replay", str(record)], 0.4, "cold"),
        ]
        if options.before:
            before = str(Path(options.before).resolve())
            seen: set[str] = set()
            for case in list(cases):
                if case.label.startswith("`whistdsl") and "--version" not in case.args and case.label not in seen:
                    seen.add(case.label)
                    cases.append(Case(case.label, case.args, case.target, "", before))
        for case in cases:  # warm-up: byte code written, the warm cache filled
            subprocess.run(case.args, env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        started = machine()
        for _ in range(options.rounds):
            for case in cases:
                run(case, env, scratch)
        print(f"{datetime.date.today().isoformat()}, {options.rounds} runs each, interleaved; {started}\n")
        print("| command | version | cache | wall median (min-max) | CPU median | target | within |")
        print("|---|---|---|---|---|---|---|")
        for case in sorted(cases, key=lambda c: (cases.index(next(x for x in cases if x.label == c.label)), c.code != "")):
            median = statistics.median(case.wall)
            within = "" if case.target is None else ("yes" if median <= case.target else "**no**")
            target = "" if case.target is None else f"{case.target:.2f} s"
            print(
                f"| {case.label} | {'before' if case.code else 'now'} | {case.cache or '-'} | {median:.3f} s ({min(case.wall):.3f}-{max(case.wall):.3f}) "
                f"| {statistics.median(case.cpu):.3f} s | {target} | {within} |"
            )
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
