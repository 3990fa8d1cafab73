#!/usr/bin/env python3
"""How fast the computer players play, and what more speed buys mc.

Default mode, per ruleset, interleaved in one run (round after round, every ruleset and every
measure in each round; medians over the rounds): whole games through
`whistdsl.players.play_out` with random players at every seat and with heuristic players at
every seat (games/s, and the ratio heuristic / random), and mc decisions per second (one mc seat
against heuristic players, `decide` for every seat, only the mc seat's decisions timed, bids
(and the other decisions before the play: trump, blind) and cards apart, counting only the
decisions with more than one legal action).

`--duel`: mc(samples=S) against mc(samples=2S) over duplicate deals. Each deal is one hand of
the schedule (hand numbers cycling through it, totals starting at 0), played twice from the
same seed with the seats swapped (S at the even seats and 2S at the odd ones, then the other
way round); the figure per deal is the mean points per hand of the 2S seats minus those of the
S seats over both plays, and the table gives its mean with a 95% interval (normal, over deals).

    python benchmarks/bench_bot_speed.py [--rulesets serbian,romanian,oh-hell,wizard] [--seconds 2] [--rounds 3]
    python benchmarks/bench_bot_speed.py --duel [--rulesets serbian,romanian] [--samples 8] [--deals 60] [--workers 2]
"""

from __future__ import annotations

import argparse
import math
import platform
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from datetime import UTC, datetime

from whistdsl import load_rules
from whistdsl.engine import Game
from whistdsl.players import BOTS, decide, play_out
from whistdsl.players.mc import MonteCarloPlayer

FAMILY = "serbian,romanian,oh-hell,wizard"


def table_size(rules) -> int:
    return 4 if rules.players_min <= 4 <= rules.players_max else rules.players_min


def games_per_second(rules, kind: str, seconds: float, first_seed: int) -> float:
    """Whole games with `kind` at every seat, for about `seconds`."""
    n = table_size(rules)
    start = time.perf_counter()
    games = 0
    while True:
        game = Game(rules, players=n, seed=first_seed + games)
        play_out(game, [BOTS[kind]() for _ in range(n)])
        games += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return games / elapsed


def mc_decisions(rules, samples: int, seconds: float, first_seed: int) -> tuple[float, float]:
    """(mc's bids a second, mc's cards a second): seat 0 mc, the others heuristic, for about
    `seconds` of mc's own time (games played to their end)."""
    n = table_size(rules)
    spent = {"bid": 0.0, "card": 0.0}
    made = {"bid": 0, "card": 0}
    game_number = 0
    while spent["bid"] + spent["card"] < seconds:
        game = Game(rules, players=n, seed=first_seed + game_number)
        game_number += 1
        bots = [MonteCarloPlayer(samples=samples)] + [BOTS["heuristic"]() for _ in range(n - 1)]
        while not game.over and spent["bid"] + spent["card"] < seconds:
            seat = game.to_act
            if seat != 0:
                game.act(decide(game, bots[seat]))
                continue
            what = "card" if game.phase == "play" else "bid"
            choices = len(game.legal_actions())
            t = time.perf_counter()
            action = decide(game, bots[0])
            if choices > 1:
                spent[what] += time.perf_counter() - t
                made[what] += 1
            game.act(action)
    return tuple(made[w] / spent[w] if spent[w] else float("nan") for w in ("bid", "card"))  # type: ignore[return-value]


def speed(args: argparse.Namespace) -> None:
    names = args.rulesets.split(",")
    rules = {name: load_rules(name) for name in names}
    measures = ("random", "heuristic", "mc")
    got: dict[str, dict[str, list]] = {name: {m: [] for m in measures} for name in names}
    for r in range(args.rounds):
        for name in names:
            seed = 1_000 * r
            got[name]["random"].append(games_per_second(rules[name], "random", args.seconds, seed))
            got[name]["heuristic"].append(games_per_second(rules[name], "heuristic", args.seconds, seed))
            if args.mc_seconds > 0:
                got[name]["mc"].append(mc_decisions(rules[name], args.samples, args.mc_seconds, seed))
        print(f"round {r + 1} of {args.rounds} done", file=sys.stderr, flush=True)
    print(
        f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, Python {platform.python_version()}, {platform.machine()}, "
        f"{args.rounds} rounds of {args.seconds:g} s per measure (mc: {args.mc_seconds:g} s of its own time, samples={args.samples})"
    )
    print()
    print(
        f"| ruleset (4 players) | random games/s | heuristic games/s | heuristic / random | mc({args.samples}) bids/s | mc({args.samples}) cards/s |"
    )
    print("|---|---|---|---|---|---|")
    for name in names:
        rnd, heu = got[name]["random"], got[name]["heuristic"]
        ratio = statistics.median(h / x for h, x in zip(heu, rnd))
        if got[name]["mc"]:
            bids = statistics.median(b for b, _ in got[name]["mc"])
            cards = statistics.median(c for _, c in got[name]["mc"])
            mc = f"{bids:,.1f} | {cards:,.1f}"
        else:
            mc = "- | -"
        print(f"| {name} | {statistics.median(rnd):,.0f} | {statistics.median(heu):,.1f} | {ratio:.2f} | {mc} |")


def duel_deal(task: tuple[str, int, int, int]) -> tuple[float, int]:
    """(2S seats' mean points a hand minus the S seats', over both seatings; the hand's size)."""
    name, samples, deal, players = task
    rules = load_rules(name)
    probe = Game(rules, players=players, seed=0)
    hand = 1 + deal % probe.scheduled_hands
    diff = 0.0
    size = 0
    for swap in (0, 1):
        game = Game(rules, players=players, seed=50_000 + deal, start_at=hand)
        game.stop_after_hand = True
        strong = [(seat + swap) % 2 == 1 for seat in range(players)]
        bots = [MonteCarloPlayer(samples=2 * samples if s else samples) for s in strong]
        start = len(game.history)
        while not game.over and len(game.history) == start:
            game.act(decide(game, bots[game.to_act]))
        result = game.history[start]
        size = result.size
        points = [float(p) for p in result.points]
        playing = [s for s in range(players) if s not in result.sitting_out]
        hi = [points[s] for s in playing if strong[s]]
        lo = [points[s] for s in playing if not strong[s]]
        diff += (sum(hi) / len(hi) - sum(lo) / len(lo)) / 2
    return diff, size


def duel(args: argparse.Namespace) -> None:
    rows = []
    for name in args.rulesets.split(","):
        rules = load_rules(name)
        n = table_size(rules)
        start = time.perf_counter()
        tasks = [(name, args.samples, d, n) for d in range(args.deals)]
        with ProcessPoolExecutor(max_workers=args.workers) as pool:
            results = list(pool.map(duel_deal, tasks, chunksize=2))
        diffs = [d for d, _ in results]
        mean = statistics.mean(diffs)
        half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else float("nan")
        seconds = time.perf_counter() - start
        rows.append(
            f"| {name} | {n} | {args.deals} ({2 * args.deals} plays) | {args.samples} vs {2 * args.samples} | "
            f"{mean:+.2f} ± {half:.2f} | {statistics.mean(s for _, s in results):.1f} | {seconds:.0f} s |"
        )
        print(rows[-1], file=sys.stderr, flush=True)
    print(f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, Python {platform.python_version()}, {platform.machine()}, {args.workers} worker processes")
    print()
    print("| ruleset | players | deals (hands) | samples S vs 2S | 2S minus S, points a hand ± 95% | mean hand size | wall time |")
    print("|---|---|---|---|---|---|---|")
    print("\n".join(rows))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rulesets", default=None, help=f"comma-separated (default {FAMILY}; --duel: serbian,romanian)")
    ap.add_argument("--seconds", type=float, default=2.0, help="seconds per games/s measure")
    ap.add_argument("--mc-seconds", type=float, default=3.0, help="seconds of mc's own decisions per round (0: skip)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--samples", type=int, default=None, help="mc samples (default 48; --duel: S, default 8)")
    ap.add_argument("--duel", action="store_true", help="mc(S) against mc(2S) over duplicate deals")
    ap.add_argument("--deals", type=int, default=60, help="--duel: deals per ruleset")
    ap.add_argument("--workers", type=int, default=2, help="--duel: worker processes")
    args = ap.parse_args(argv)
    if args.duel:
        args.rulesets = args.rulesets or "serbian,romanian"
        args.samples = args.samples or 8
        duel(args)
    else:
        args.rulesets = args.rulesets or FAMILY
        args.samples = args.samples or 48
        speed(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
