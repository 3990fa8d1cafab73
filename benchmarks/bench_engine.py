#!/usr/bin/env python3
"""Engine speed: whole games with random players, against the dedicated Romanian engine.

Plays whistdsl's Serbian and Romanian rulesets with random players and, in the same run and
interleaved with them, ../shared/bench/ref_romanian.py (a hand-written engine for the same
Romanian rules). Prints games per second for each and the ratio whistdsl / dedicated, as
medians of several rounds (absolute times drift on shared machines; the ratio is the figure).

    python benchmarks/bench_engine.py [--seconds 3] [--rounds 5] [--players 4]
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import statistics
import sys
import time
from pathlib import Path

from whistdsl import load_rules
from whistdsl.engine import Game
from whistdsl.players import RandomPlayer, play_out

REFERENCE = Path(__file__).resolve().parent.parent.parent / "shared" / "bench" / "ref_romanian.py"


def load_reference(path: Path):
    spec = importlib.util.spec_from_file_location("ref_romanian", path)
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


def whistdsl_rate(name: str, players: int, seconds: float, seed: int) -> float:
    rules = load_rules(name)
    bots = [RandomPlayer() for _ in range(players)]
    games = 0
    start = time.perf_counter()
    stop = start + seconds
    while True:
        for _ in range(20):
            game = Game(rules, players=players, seed=seed + games)
            play_out(game, bots)
            games += 1
        if time.perf_counter() >= stop:
            break
    return games / (time.perf_counter() - start)


def reference_rate(module, players: int, seconds: float, seed: int) -> float:
    play = module.make_engine(players, random.Random(seed))
    games = 0
    start = time.perf_counter()
    stop = start + seconds
    while True:
        for _ in range(50):
            play([0] * players)
            games += 1
        if time.perf_counter() >= stop:
            break
    return games / (time.perf_counter() - start)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="length of each timed run")
    ap.add_argument("--rounds", type=int, default=5, help="interleaved rounds; medians are reported")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--reference", type=Path, default=REFERENCE)
    args = ap.parse_args(argv)
    if not args.reference.is_file():
        print(f"reference engine not found at {args.reference}", file=sys.stderr)
        return 2
    ref = load_reference(args.reference)
    rates: dict[str, list[float]] = {"serbian": [], "romanian": [], "reference romanian": []}
    for r in range(args.rounds):
        rates["romanian"].append(whistdsl_rate("romanian", args.players, args.seconds, 1000 * r))
        rates["reference romanian"].append(reference_rate(ref, args.players, args.seconds, r))
        rates["serbian"].append(whistdsl_rate("serbian", args.players, args.seconds, 1000 * r))
    med = {k: statistics.median(v) for k, v in rates.items()}
    print(f"{args.players} players, random play, medians of {args.rounds} interleaved {args.seconds:g}s runs")
    for k, v in med.items():
        print(f"  {k:20} {v:8.0f} games/s")
    ratios = [a / b for a, b in zip(rates["romanian"], rates["reference romanian"])]
    print(f"  whistdsl romanian / dedicated engine: {statistics.median(ratios):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
