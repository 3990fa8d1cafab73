#!/usr/bin/env python3
"""Engine speed as instructions a game: whistdsl against the dedicated engines, by count, not by clock.

bench_engine.py times the engines; on a shared machine the clock drifts with the load (the
ratios of two runs minutes apart can differ by a fifth). This script counts the machine
instructions each engine takes for a game instead, under valgrind's cachegrind, which gives
the same count on every run whatever else the machine does. Each engine runs as its own
process twice, for `--games` and for 3 x `--games` whole games after a few games to warm up;
the difference, divided by the extra games, is the instructions a game, with the process's
start-up, imports and warm-up taken out. The ratio dedicated / whistdsl reads as the speed
ratio bench_engine.py measures (instructions are not time: memory, branches and the
interpreter's caches differ, so the two agree to about a tenth).

The engines are those of bench_engine.py: whistdsl through the public API (`play_out(Game(...),
[RandomPlayer() ...])`) and the yardsticks in benchmarks/yardsticks/. `--bots` also counts
whole games of heuristic players against random ones (the bots' goal: heuristic play at least
half the speed of random play).

    python benchmarks/bench_instructions.py [--games romanian,serbian] [--players 4] [--count 20] [--bots] [--markdown]

Needs valgrind (`apt install valgrind`); exit codes: 0, 2 for bad options or no valgrind.
"""

from __future__ import annotations

import argparse
import datetime
import random
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_engine import GAMES, YARDSTICKS, chosen, load_module, machine  # noqa: E402

WARM_UP = 5  # games played before the counted ones, in both runs


def child(engine: str, game: str, players: int, games: int) -> None:
    """Play `WARM_UP + games` whole games with one engine (run under cachegrind by `count`)."""
    if engine == "dedicated":
        play = load_module(YARDSTICKS / GAMES[game][0], f"yardstick_{game}").make_engine(players, random.Random(1))
        for _ in range(WARM_UP + games):
            play([0] * players)
        return
    from whistdsl import load_rules
    from whistdsl.engine import Game
    from whistdsl.players import BOTS, RandomPlayer, play_out

    rules = load_rules(game)
    bot = RandomPlayer if engine == "random" else BOTS[engine]
    for seed in range(WARM_UP + games):
        play_out(Game(rules, players=players, seed=seed), [bot() for _ in range(players)])


def instructions(engine: str, game: str, players: int, games: int) -> int:
    """The instructions of a process playing `games` games (after the warm-up) with `engine`."""
    command = [
        "valgrind",
        "--tool=cachegrind",
        "--cache-sim=no",
        "--cachegrind-out-file=/dev/null",
        sys.executable,
        str(Path(__file__).resolve()),
        "--child",
        engine,
        game,
        str(players),
        str(games),
    ]
    done = subprocess.run(command, capture_output=True, text=True)
    found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    if done.returncode != 0 or found is None:
        raise SystemExit(f"the {engine} run of {game} failed:\n{done.stderr[-2000:]}")
    return int(found.group(1).replace(",", ""))


def per_game(engine: str, game: str, players: int, count: int) -> float:
    """Instructions a game: the difference of a run of 3 x `count` games and one of `count`."""
    with ThreadPoolExecutor(2) as pool:  # the two runs at once, one a core
        low, high = pool.map(lambda k: instructions(engine, game, players, k), (count, 3 * count))
    return (high - low) / (2 * count)


def main(argv: list[str] | None = None) -> int:
    if argv is None and len(sys.argv) > 1 and sys.argv[1] == "--child":
        engine, game, players, games = sys.argv[2:6]
        child(engine, game, int(players), int(games))
        return 0
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", help=f"comma-separated, of {', '.join(GAMES)} (default: all)")
    ap.add_argument("--players", help="comma-separated table sizes (default: each game's own, as bench_engine.py)")
    ap.add_argument("--count", type=int, default=20, help="games in the shorter run (the longer plays three times as many; default 20)")
    ap.add_argument("--bots", action="store_true", help="also count heuristic players' games against random players'")
    ap.add_argument("--markdown", action="store_true", help="print the table for docs/performance.md")
    args = ap.parse_args(argv)
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (apt install valgrind); bench_engine.py times the engines instead", file=sys.stderr)
        return 2
    if args.count < 1:
        print("--count must be at least 1", file=sys.stderr)
        return 2
    try:
        games, sizes = chosen(args.games, args.players)
    except ValueError as e:
        print(e, file=sys.stderr)
        return 2
    rows = []
    for game in games:
        # a plain run first fills whistdsl's per-user cache (the parsed formulas), so that both
        # counted runs, made at once, find it warm and do the same work before their games
        subprocess.run([sys.executable, str(Path(__file__).resolve()), "--child", "random", game, str(GAMES[game][1][0]), "1"], check=True)
        for n in sizes or GAMES[game][1]:
            ours = per_game("random", game, n, args.count)
            theirs = per_game("dedicated", game, n, args.count)
            heuristic = per_game("heuristic", game, n, max(args.count // 4, 1)) if args.bots else None
            rows.append((game, n, ours, theirs, heuristic))
            print(f"{game} at {n} players done", file=sys.stderr)
    today = datetime.date.today().isoformat()
    how = f"millions of instructions a game (valgrind cachegrind, {args.count} and {3 * args.count} games); {machine()}; {today}"
    if args.markdown:
        bots = " heuristic | heuristic / random |" if args.bots else ""
        print(f"| game | players | whistdsl | dedicated engine | dedicated / whistdsl |{bots}")
        print("|---|---|---|---|---|" + ("---|---|" if args.bots else ""))
        for game, n, ours, theirs, heuristic in rows:
            extra = f" {heuristic / 1e6:.1f} | {ours / heuristic:.2f} |" if heuristic is not None else ""
            print(f"| {game} | {n} | {ours / 1e6:.2f} | {theirs / 1e6:.2f} | **{theirs / ours:.2f}** |{extra}")
        print(f"\n{how}")
    else:
        print(how)
        print(
            f"  {'game':<10} {'players':>7} {'whistdsl':>9} {'dedicated':>10} {'ratio':>6}"
            + (f" {'heuristic':>10} {'h / r':>6}" if args.bots else "")
        )
        for game, n, ours, theirs, heuristic in rows:
            extra = f" {heuristic / 1e6:10.1f} {ours / heuristic:6.2f}" if heuristic is not None else ""
            print(f"  {game:<10} {n:>7} {ours / 1e6:9.2f} {theirs / 1e6:10.2f} {theirs / ours:6.2f}" + extra)
    return 0


if __name__ == "__main__":
    sys.exit(main())
