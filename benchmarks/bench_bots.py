#!/usr/bin/env python3
"""Bot tournaments at 4 players: heuristic against random, mc against heuristic, and search
against mc and against heuristic (so a loss of strength of any bot shows).

One bot of the first kind plays three of the second; the seats rotate game by game so no bot
keeps a seat, and game N is dealt from the same seed in every match. `search` thinks `--think`
seconds a decision, turned into work once per ruleset (players/search.py `work_units`, on that
ruleset's table) so every worker plays the same games. Prints, per ruleset and match, the games,
each side's mean final score and 95% confidence half-width, the difference of means with its
own 95% half-width, and the lone bot's win share, as a Markdown table. `--docs` writes the
rows into docs/performance.md between the markers `<!-- tournament:start -->` and
`<!-- tournament:end -->`, replacing the rows of the same ruleset and match and keeping the
others, so a match can be run again alone (`--games 0 --mc-games 0` runs only search's).

    python benchmarks/bench_bots.py [--games 2000] [--mc-games 200] [--search-games 20] [--workers 2] [--docs]
    python benchmarks/bench_bots.py --rulesets oh-hell,wizard --games 0 --mc-games 0 --search-games 8 --docs
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
from whistdsl.players import decide
from whistdsl.players.bots import make_bot, thinks
from whistdsl.players.search import DEFAULT_THINK, work_units

PAGE = Path(__file__).resolve().parent.parent / "docs" / "performance.md"
START, END = "<!-- tournament:start -->", "<!-- tournament:end -->"
HEADER = [
    "| ruleset | match (1 vs 3) | games | first bot's mean ± 95% | others' mean ± 95% | difference ± 95% | first bot's win share |",
    "|---|---|---|---|---|---|---|",
]


def one_game(args: tuple[str, str, str, int, tuple[int, ...] | None]) -> tuple[float, float, float]:
    """(the lone bot's final score, the mean of the other three, the lone bot's share of the win)."""
    ruleset, lone, others, game_number, units = args
    rules = load_rules(ruleset)
    kinds = [lone, others, others, others]
    shift = game_number % 4
    kinds = kinds[shift:] + kinds[:shift]
    lone_seat = kinds.index(lone)
    bots = [make_bot(k, units=units if thinks(k) else None) for k in kinds]
    game = Game(rules, players=4, seed=10_000 + game_number)
    while not game.over:
        game.act(decide(game, bots[game.to_act]))
    totals = [float(t) for t in game.result.totals]  # type: ignore[union-attr]
    rest = [t for s, t in enumerate(totals) if s != lone_seat]
    won = game.result.winners  # type: ignore[union-attr]
    return totals[lone_seat], sum(rest) / 3, (1 if lone_seat in won else 0) * (1 / len(won))


def ci95(values: list[float]) -> float:
    return 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else float("nan")


def match(ruleset: str, lone: str, others: str, games: int, workers: int, units: tuple[int, ...] | None) -> dict[str, float]:
    start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=workers) as pool:
        jobs = [(ruleset, lone, others, g, units) for g in range(games)]
        results = list(pool.map(one_game, jobs, chunksize=max(1, min(4, games // (4 * workers)))))
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


def merged(old: list[str], new: list[str]) -> list[str]:
    """The table rows `old` with each row of `new` in place of the old row of its ruleset and
    match, or after the last row of its ruleset, or at the end."""

    def key(row: str) -> tuple[str, str]:
        cells = [c.strip() for c in row.strip().strip("|").split("|")]
        return cells[0], cells[1]

    rows = list(old)
    for row in new:
        keys = [key(r) for r in rows]
        if key(row) in keys:
            rows[keys.index(key(row))] = row
        elif any(k[0] == key(row)[0] for k in keys):
            rows.insert(max(i for i, k in enumerate(keys) if k[0] == key(row)[0]) + 1, row)
        else:
            rows.append(row)
    return rows


def write_docs(new: list[str]) -> bool:
    """Merge the rows `new` into the tournament table of PAGE; False when it has no markers."""
    text = PAGE.read_text(encoding="utf-8")
    if START not in text or END not in text:
        return False
    before, rest = text.split(START, 1)
    block, after = rest.split(END, 1)
    old = [line for line in block.strip().splitlines() if line.startswith("|")][len(HEADER) :]
    table = "\n".join(HEADER + merged(old, new))
    PAGE.write_text(f"{before}{START}\n{table}\n{END}{after}", encoding="utf-8")
    return True


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000, help="games of heuristic vs random per ruleset")
    ap.add_argument("--mc-games", type=int, default=200, help="games of mc vs heuristic per ruleset")
    ap.add_argument("--search-games", type=int, default=20, help="games of search vs mc and of search vs heuristic per ruleset")
    ap.add_argument("--think", type=float, default=DEFAULT_THINK, help="seconds a decision for search")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--rulesets", default="serbian,romanian,oh-hell,wizard,nomination-whist,kachuful")
    ap.add_argument("--docs", action="store_true", help="write the rows into docs/performance.md's table")
    args = ap.parse_args(argv)
    rows: list[str] = []
    for ruleset in args.rulesets.split(","):
        matches = (
            ("heuristic", "random", args.games),
            ("mc", "heuristic", args.mc_games),
            ("search", "mc", args.search_games),
            ("search", "heuristic", args.search_games),
        )
        units = work_units(args.think, load_rules(ruleset), 4) if args.search_games > 0 else None
        for lone, others, games in matches:
            if games <= 0:
                continue
            m = match(ruleset, lone, others, games, args.workers, units)
            name = f"{lone} (`--think {args.think:g}`)" if thinks(lone) else lone
            rows.append(
                f"| {ruleset} | {name} vs {others} | {games} | {m['lone_mean']:.1f} ± {m['lone_ci']:.1f} | "
                f"{m['others_mean']:.1f} ± {m['others_ci']:.1f} | {m['diff']:+.1f} ± {m['diff_ci']:.1f} | "
                f"{m['win_share']:.2f} |"
            )
            print(rows[-1], f"({m['seconds']:.0f}s)", flush=True)
    print()
    print("\n".join(HEADER + rows))
    if args.docs:
        if write_docs(rows):
            print(f"{PAGE} updated")
        else:
            print(f"{PAGE} has no tournament markers; table not written", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
