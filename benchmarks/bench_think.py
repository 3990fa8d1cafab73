#!/usr/bin/env python3
"""Whether `--think SECONDS` is honoured: the median CPU seconds of the `search` player's
decisions against the seconds asked, per ruleset and setting (issue 13: within 20% at the median).

Each setting plays whole games of each ruleset at 4 players, one `search` seat (game N seats it
at N mod 4) against `heuristic`, so the decisions timed are a game's own mix of hand sizes
and stages, not only its first hands. The `search` seat is made as `play` and `simulate` make it
(`work_units(think, rules, players)`: the seconds turned into work by this process's measurement
at that table), and every decision it searches (more than one legal action, cards seen: the
others are answered at once) is timed by the process's CPU clock. Prints a Markdown table:
median seconds for bids, cards and all, and all / asked.

    python benchmarks/bench_think.py [--think 0.05 0.2 0.5] [--rulesets serbian,romanian,oh-hell,wizard] [--games 1] [--docs]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

from whistdsl import load_rules
from whistdsl.engine import Game
from whistdsl.players.bots import make_bot
from whistdsl.players.mc import SAMPLE, unsampled_answer
from whistdsl.players.search import work_units

DOCS = Path(__file__).resolve().parent.parent / "docs" / "search.md"
START, END = "<!-- think-table:start -->", "<!-- think-table:end -->"


def timed_decisions(ruleset: str, think: float, games: int) -> dict[str, list[float]]:
    """CPU seconds of the `search` seat's searched decisions in `games` whole games, bids and cards apart."""
    rules = load_rules(ruleset)
    units = work_units(think, rules, 4)  # measured before any decision is timed
    out: dict[str, list[float]] = {"bid": [], "card": []}
    for seed in range(games):
        searcher = seed % 4
        bots = [make_bot("search", units=units) if s == searcher else make_bot("heuristic") for s in range(4)]
        game = Game(rules, players=4, seed=seed)
        rng = random.Random(seed)
        while not game.over:
            seat = game.to_act
            view = game.view(seat)
            legal = list(view.legal or ()) if view.legal is not None else None
            # a generator of its own, so the game's draws stay the same
            searched = seat == searcher and unsampled_answer(view, legal, random.Random(0)) is SAMPLE
            start = time.process_time()
            action = bots[seat].act(view, legal, rng)
            spent = time.process_time() - start
            if searched:
                out["bid" if game.phase == "bidding" else "card"].append(spent)
            game.act(action)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--think", type=float, nargs="+", default=[0.05, 0.2, 0.5])
    ap.add_argument("--rulesets", default="serbian,romanian,oh-hell,wizard")
    ap.add_argument("--games", type=int, default=1, help="whole games played per ruleset and setting")
    ap.add_argument("--docs", action="store_true", help="also write the table into docs/search.md (the think-table markers)")
    args = ap.parse_args(argv)
    rows = [
        "| ruleset | --think | decisions | median bid s | median card s | median s | median / asked |",
        "|---|---|---|---|---|---|---|",
    ]
    print("\n".join(rows), flush=True)
    for ruleset in args.rulesets.split(","):
        for think in args.think:
            got = timed_decisions(ruleset, think, args.games)
            every = got["bid"] + got["card"]
            med = lambda xs: f"{statistics.median(xs):.3f}" if xs else "-"  # noqa: E731
            rows.append(
                f"| {ruleset} | {think} | {len(every)} | {med(got['bid'])} | {med(got['card'])} | {med(every)} | "
                f"{statistics.median(every) / think:.2f} |"
            )
            print(rows[-1], flush=True)
    if args.docs:
        page = DOCS.read_text(encoding="utf-8")
        before, rest = page.split(START, 1)
        _, after = rest.split(END, 1)
        DOCS.write_text(f"{before}{START}\n" + "\n".join(rows) + f"\n{END}{after}", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
