#!/usr/bin/env python3
"""Bot tournaments at 4 players: heuristic against random, mc against heuristic, and search
against mc and against heuristic (so a loss of strength of any bot shows).

One bot of the first kind plays three of the second; the seats rotate game by game so no bot
keeps a seat. Prints, per ruleset and match, each kind's games, mean final score and 95%
confidence half-width, the difference of means with its own 95% half-width, and win shares,
as a Markdown table. `--readme` also writes the table into README.md between the markers
`<!-- tournament:start -->` and `<!-- tournament:end -->`.

    python benchmarks/bench_bots.py [--games 2000] [--mc-games 200] [--search-games 20] [--workers 2] [--readme]
    python benchmarks/bench_bots.py --rulesets oh-hell,wizard,nomination-whist,kachuful
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from whistdsl import load_rules
from whistdsl.engine import Game
from whistdsl.players import BOTS, decide

README = Path(__file__).resolve().parent.parent / "README.md"


def one_game(args: tuple[str, str, str, int]) -> tuple[float, float, int]:
    """(the lone bot's final score, the mean of the other three, 1 if the lone bot won else 0)."""
    ruleset, lone, others, game_number = args
    rules = load_rules(ruleset)
    kinds = [lone, others, others, others]
    shift = game_number % 4
    kinds = kinds[shift:] + kinds[:shift]
    lone_seat = kinds.index(lone)
    bots = [BOTS[k]() for k in kinds]
    game = Game(rules, players=4, seed=10_000 + game_number)
    while not game.over:
        game.act(decide(game, bots[game.to_act]))
    totals = [float(t) for t in game.result.totals]  # type: ignore[union-attr]
    rest = [t for s, t in enumerate(totals) if s != lone_seat]
    won = game.result.winners  # type: ignore[union-attr]
    return totals[lone_seat], sum(rest) / 3, (1 if lone_seat in won else 0) * (1 / len(won))


def ci95(values: list[float]) -> float:
    return 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else float("nan")


def match(ruleset: str, lone: str, others: str, games: int, workers: int) -> dict[str, float]:
    start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=workers) as pool:
        results = list(pool.map(one_game, [(ruleset, lone, others, g) for g in range(games)], chunksize=4))
    lone_scores = [r[0] for r in results]
    other_scores = [r[1] for r in results]
    diffs = [a - b for a, b in zip(lone_scores, other_scores)]
    return {
        "games": games,
        "lone_mean": statistics.mean(lone_scores),
        "lone_ci": ci95(lone_scores),
        "others_mean": statistics.mean(other_scores),
        "others_ci": ci95(other_scores),
        "diff": statistics.mean(diffs),
        "diff_ci": ci95(diffs),
        "win_share": sum(r[2] for r in results) / games,
        "seconds": time.perf_counter() - start,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000, help="games of heuristic vs random per ruleset")
    ap.add_argument("--mc-games", type=int, default=200, help="games of mc vs heuristic per ruleset")
    ap.add_argument("--search-games", type=int, default=20, help="games of search vs mc and of search vs heuristic per ruleset")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--rulesets", default="serbian,romanian")
    ap.add_argument("--readme", action="store_true", help="write the table into README.md")
    args = ap.parse_args(argv)
    rows = [
        "| ruleset | match (1 vs 3) | games | first bot's mean ± 95% | others' mean ± 95% | difference ± 95% | first bot's win share |",
        "|---|---|---|---|---|---|---|",
    ]
    for ruleset in args.rulesets.split(","):
        matches = (
            ("heuristic", "random", args.games),
            ("mc", "heuristic", args.mc_games),
            ("search", "mc", args.search_games),
            ("search", "heuristic", args.search_games),
        )
        for lone, others, games in matches:
            if games <= 0:
                continue
            m = match(ruleset, lone, others, games, args.workers)
            rows.append(
                f"| {ruleset} | {lone} vs {others} | {games} | {m['lone_mean']:.1f} ± {m['lone_ci']:.1f} | "
                f"{m['others_mean']:.1f} ± {m['others_ci']:.1f} | {m['diff']:+.1f} ± {m['diff_ci']:.1f} | "
                f"{m['win_share']:.2f} |"
            )
            print(rows[-1], f"({m['seconds']:.0f}s)", flush=True)
    table = "\n".join(rows)
    print()
    print(table)
    if args.readme:
        text = README.read_text(encoding="utf-8")
        start, end = "<!-- tournament:start -->", "<!-- tournament:end -->"
        if start in text and end in text:
            before, rest = text.split(start, 1)
            _, after = rest.split(end, 1)
            README.write_text(f"{before}{start}\n{table}\n{end}{after}", encoding="utf-8")
            print("README.md updated")
        else:
            print("README.md has no tournament markers; table not written", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
