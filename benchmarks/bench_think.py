#!/usr/bin/env python3
"""Whether `--think SECONDS` is honoured: the median CPU seconds of the `search` player's
decisions against the seconds asked, per ruleset and setting (issue 13: within 20% at the median).

Each setting plays hands of each ruleset at 4 players with `search` at every seat, made as
`play` and `simulate` make them (`work_units(think, rules, players)`: the seconds turned into
work by this process's measurement at that table), and times every decision the player searches (more than one legal action,
cards seen: the others are answered at once) by the process's CPU clock, until `--decisions`
are timed. Prints a Markdown table: median seconds for bids, cards and all, and all / asked.

    python benchmarks/bench_think.py [--think 0.05 0.2 0.5] [--rulesets serbian,romanian,oh-hell,wizard] [--decisions 60] [--docs]
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
from whistdsl.players.base import make_bot
from whistdsl.players.mc import SAMPLE, unsampled_answer
from whistdsl.players.search import work_units

DOCS = Path(__file__).resolve().parent.parent / "docs" / "search.md"
START, END = "<!-- think-table:start -->", "<!-- think-table:end -->"


def timed_decisions(ruleset: str, think: float, decisions: int) -> dict[str, list[float]]:
    """CPU seconds of the searched decisions, bids and cards apart."""
    rules = load_rules(ruleset)
    units = work_units(think, rules, 4)  # measured before any decision is timed
    bots = [make_bot("search", units=units) for _ in range(4)]
    out: dict[str, list[float]] = {"bid": [], "card": []}
    seed = 0
    while len(out["bid"]) + len(out["card"]) < decisions:
        game = Game(rules, players=4, seed=seed)
        seed += 1
        rng = random.Random(seed)
        while not game.over and len(out["bid"]) + len(out["card"]) < decisions:
            seat = game.to_act
            view = game.view(seat)
            legal = list(view.legal or ()) if view.legal is not None else None
            # a generator of its own, so the game's draws stay the same
            searched = unsampled_answer(view, legal, random.Random(0)) is SAMPLE
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
    ap.add_argument("--decisions", type=int, default=60, help="searched decisions timed per ruleset and setting")
    ap.add_argument("--docs", action="store_true", help="also write the table into docs/search.md (the think-table markers)")
    args = ap.parse_args(argv)
    rows = [
        "| ruleset | --think | decisions | median bid s | median card s | median s | median / asked |",
        "|---|---|---|---|---|---|---|",
    ]
    print("\n".join(rows), flush=True)
    for ruleset in args.rulesets.split(","):
        for think in args.think:
            got = timed_decisions(ruleset, think, args.decisions)
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
