#!/usr/bin/env python3
"""What a Dask cluster costs and gives `whistdsl simulate`: the same tournaments played by local
worker processes and by the workers of a Dask cluster, interleaved, with the numbers checked
equal (needs the `cluster` extra: pip install 'whistdsl[cluster]').

Without `--scheduler` the cluster is whistdsl.tournament.cluster's `local_cluster` of `--workers`
processes on this machine (listening on loopback only), started before the timings: then the figures show the cluster's overhead (the
same cores either way), not a speed-up. Give `--scheduler tcp://host:8786` to time a real one.

    python benchmarks/bench_cluster.py [--workers 2] [--rounds 3] [--random-games 4000]
        [--heuristic-games 400] [--mc-games 8] [--scheduler tcp://host:8786]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from whistdsl import load_rules
from whistdsl.cli.simulate import TIMING_KEYS, summary_json
from whistdsl.tournament.cluster import local_cluster
from whistdsl.tournament.games import Simulation
from whistdsl.tournament.runner import simulate


def numbers(summary) -> dict:
    return {k: v for k, v in summary_json(summary).items() if k not in TIMING_KEYS}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ruleset", default="romanian")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--random-games", type=int, default=4000)
    parser.add_argument("--heuristic-games", type=int, default=400)
    parser.add_argument("--mc-games", type=int, default=8)
    parser.add_argument("--scheduler", help="a running cluster's scheduler (default: a local cluster here)")
    args = parser.parse_args()
    try:
        import distributed  # noqa: F401 (only to say what is missing before anything is timed)
    except ImportError:
        print("needs Dask distributed: pip install 'whistdsl[cluster]'", file=sys.stderr)
        return 2

    rules = load_rules(args.ruleset)
    players = rules.players_default
    matches = [
        ("random", args.random_games),
        ("heuristic", args.heuristic_games),
        ("mc," + ",".join(["heuristic"] * (players - 1)), args.mc_games),
    ]
    cluster = None
    address = args.scheduler
    began = time.perf_counter()
    if address is None:
        cluster = local_cluster(args.workers)
        address = cluster.scheduler_address
    started = time.perf_counter() - began
    print(f"| bots | games | local, {args.workers} processes: s | cluster: s | cluster / local | same numbers |")
    print("|---|---|---|---|---|---|")
    try:
        for bots, games in matches:
            if games <= 0:
                continue
            sim = Simulation(args.ruleset, players, tuple(bots.split(",")) if "," in bots else (bots,) * players, seed=1, games=games)
            local, remote, same = [], [], True
            for _ in range(args.rounds):  # interleaved: the machine's load falls on both alike
                here = simulate(sim, workers=args.workers, rules=rules)
                there = simulate(sim, rules=rules, scheduler=address)
                local.append(here.seconds)
                remote.append(there.seconds)
                same = same and numbers(here) == numbers(there)
            a, b = statistics.median(local), statistics.median(remote)
            print(f"| {bots} | {games:,} | {a:.2f} | {b:.2f} | {b / a:.2f} | {'yes' if same else 'NO'} |", flush=True)
    finally:
        if cluster is not None:
            cluster.close()
    where = f"a LocalCluster of {args.workers} processes started in {started:.1f} s" if args.scheduler is None else args.scheduler
    print(f"(medians of {args.rounds} interleaved rounds; {args.ruleset}, {players} players; cluster: {where})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
