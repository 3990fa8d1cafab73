#!/usr/bin/env python3
"""Engine speed: whole games with random players, whistdsl against dedicated hand-written engines.

For each game and table size (Romanian at 3, 4 and 6 players, Serbian at 4, 5 and 6 (its
ruleset is for 4 to 6), Wizard at 4), it times in the same run, interleaved round by round:

- whistdsl, through the public API: `play_out(Game(rules, players=n, seed=s), [RandomPlayer() ...])`
  with the bundled ruleset;
- the game's yardstick in benchmarks/yardsticks/ (ref_romanian.py, ref_serbian.py,
  ref_wizard.py: dedicated pure-Python engines playing exactly the bundled ruleset's rules with
  uniformly random legal bids and cards; tests/test_yardsticks.py plays their games through
  whistdsl and finds every legal action, trick and total the same);
- for Romanian, OpenSpiel's `oh_hell` driven from Python (yardsticks/os_romanian.py) when
  `pyspiel` is importable (`pip install -e .[bench]`): a throughput figure for a similar
  game, not the same rules.

It prints games per second for each engine (the median of the rounds) and the median of the
rounds' ratios whistdsl / dedicated engine: absolute times drift on a shared machine, the
ratio measured in one run is the figure to read. Each run lasts `--seconds` of wall time; its
rate is counted by default in the CPU time the process used (`--clock cpu`), which a loaded
machine disturbs far less than the wall clock (`--clock wall`).

    python benchmarks/bench_engine.py [--seconds 2] [--rounds 5] [--games romanian,serbian]
                                      [--players 4,6] [--clock cpu|wall] [--markdown]
                                      [--no-openspiel] [--reference PATH]

`--reference PATH` times another Romanian engine (a module with `make_engine(players, rng)`
returning `play_game(scores)`, e.g. ../shared/bench/ref_romanian.py, the engine of the issue)
in place of yardsticks/ref_romanian.py. Exit codes: 0, 2 for bad options or a missing engine.
"""

from __future__ import annotations

import argparse
import datetime
import importlib.util
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path

from whistdsl import load_rules
from whistdsl.engine import Game
from whistdsl.players import RandomPlayer, play_out

HERE = Path(__file__).resolve().parent
YARDSTICKS = HERE / "yardsticks"
#: the game, its bundled ruleset, its yardstick, and the table sizes measured by default
GAMES = {
    "romanian": ("ref_romanian.py", (3, 4, 6)),
    "serbian": ("ref_serbian.py", (4, 5, 6)),
    "wizard": ("ref_wizard.py", (4,)),
}
OPENSPIEL = {"romanian": "os_romanian.py"}  # OpenSpiel plays a like schedule for these


def load_module(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


def has_pyspiel() -> bool:
    return importlib.util.find_spec("pyspiel") is not None


def timed(play_one, seconds: float, batch: int) -> tuple[float, float]:
    """Games per second of `play_one()` run in batches for about `seconds` of wall time: by the
    wall clock, and by the CPU time this process used (what the engine costs, whatever share
    of the machine the other processes left it)."""
    games = 0
    start, cpu = time.perf_counter(), time.process_time()
    stop = start + seconds
    while True:
        for _ in range(batch):
            play_one()
        games += batch
        if time.perf_counter() >= stop:
            break
    return games / (time.perf_counter() - start), games / (time.process_time() - cpu)


def whistdsl_rate(rules, players: int, seconds: float, seed: int) -> tuple[float, float]:
    count = [seed]

    def one() -> None:
        count[0] += 1
        play_out(Game(rules, players=players, seed=count[0]), [RandomPlayer() for _ in range(players)])

    return timed(one, seconds, 5)


def engine_rate(module, players: int, seconds: float, seed: int, batch: int = 10) -> tuple[float, float]:
    play = module.make_engine(players, random.Random(seed))
    return timed(lambda: play([0] * players), seconds, batch)


def parse_list(text: str | None, kind=str) -> list | None:
    return None if text is None else [kind(x) for x in text.split(",") if x.strip()]


def chosen(games_text: str | None, players_text: str | None) -> tuple[list[str], list[int] | None]:
    """The games and table sizes `--games` and `--players` name (None: each game's own sizes);
    raises ValueError with the message for the user."""
    try:
        games = parse_list(games_text) or list(GAMES)
        players = parse_list(players_text, int)
    except ValueError:
        raise ValueError("--players is a comma-separated list of whole numbers") from None
    unknown = [g for g in games if g not in GAMES]
    if unknown:
        raise ValueError(f"unknown game {unknown[0]!r}: choose from {', '.join(GAMES)}")
    return games, players


def machine() -> str:
    return f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} cores, {platform.system()}"


def main(argv: list[str] | None = None) -> int:  # noqa: C901 an option a branch, read top to bottom
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=2.0, help="length of each timed run (default 2)")
    ap.add_argument("--rounds", type=int, default=5, help="interleaved rounds; medians are reported (default 5)")
    ap.add_argument("--games", help=f"comma-separated, of {', '.join(GAMES)} (default: all)")
    ap.add_argument(
        "--players",
        help="comma-separated table sizes (default: each game's own: "
        + "; ".join(f"{g} {','.join(map(str, p))}" for g, (_, p) in GAMES.items())
        + ")",
    )
    ap.add_argument(
        "--clock",
        choices=("cpu", "wall"),
        default="cpu",
        help="games per second of CPU time used by the benchmark (default; steadier on a shared machine) or of wall time",
    )
    ap.add_argument("--no-openspiel", action="store_true", help="leave OpenSpiel out even when pyspiel is installed")
    ap.add_argument("--markdown", action="store_true", help="print the table for docs/performance.md")
    ap.add_argument("--reference", type=Path, help="a Romanian engine to time in place of yardsticks/ref_romanian.py")
    args = ap.parse_args(argv)
    if args.seconds <= 0 or args.rounds < 1:
        print("--seconds must be positive and --rounds at least 1", file=sys.stderr)
        return 2
    try:
        games, players = chosen(args.games, args.players)
    except ValueError as e:
        print(e, file=sys.stderr)
        return 2
    if args.reference is not None and not args.reference.is_file():
        print(f"reference engine not found at {args.reference}", file=sys.stderr)
        return 2
    openspiel = has_pyspiel() and not args.no_openspiel

    configs = []  # (game, players, rules, yardstick, OpenSpiel module or None)
    for game in games:
        script, sizes = GAMES[game]
        path = args.reference if game == "romanian" and args.reference is not None else YARDSTICKS / script
        ref = load_module(path, f"yardstick_{game}")
        rules = load_rules(game)
        os_engine = load_module(YARDSTICKS / OPENSPIEL[game], f"openspiel_{game}") if openspiel and game in OPENSPIEL else None
        for n in players or sizes:
            if not rules.players_min <= n <= rules.players_max:
                print(f"note: {game} is for {rules.players_min} to {rules.players_max} players; {n} skipped", file=sys.stderr)
                continue
            configs.append((game, n, rules, ref, os_engine))
    if not configs:
        print("nothing to measure", file=sys.stderr)
        return 2

    rates: dict[tuple[str, int], dict[str, list[float]]] = {(g, n): {"whistdsl": [], "dedicated": [], "openspiel": []} for g, n, *_ in configs}
    for r in range(args.rounds):
        for game, n, rules, ref, os_engine in configs:
            runs = [
                ("whistdsl", lambda rules=rules, n=n, r=r: whistdsl_rate(rules, n, args.seconds, 100_000 * r)),
                ("dedicated", lambda ref=ref, n=n, r=r: engine_rate(ref, n, args.seconds, r)),
            ]
            if os_engine is not None:
                runs.append(("openspiel", lambda os_engine=os_engine, n=n, r=r: engine_rate(os_engine, n, args.seconds, r, batch=2)))
            if r % 2:
                runs.reverse()  # alternate who goes first, round by round
            for name, run in runs:
                wall, cpu = run()
                rates[(game, n)][name].append(cpu if args.clock == "cpu" else wall)
        print(f"round {r + 1} of {args.rounds} done", file=sys.stderr)

    rows = []
    for (game, n), got in rates.items():
        ratios = [a / b for a, b in zip(got["whistdsl"], got["dedicated"])]
        os_ratios = [a / b for a, b in zip(got["openspiel"], got["dedicated"])]
        rows.append(
            (
                game,
                n,
                statistics.median(got["whistdsl"]),
                statistics.median(got["dedicated"]),
                statistics.median(got["openspiel"]) if got["openspiel"] else None,
                statistics.median(ratios),
                statistics.median(os_ratios) if os_ratios else None,
            )
        )
    today = datetime.date.today().isoformat()
    clock = "games per second of CPU time" if args.clock == "cpu" else "games per second of wall time"
    how = f"{clock}, medians of {args.rounds} interleaved {args.seconds:g}-second runs; {machine()}; {today}"
    if args.markdown:
        print("| game | players | whistdsl games/s | dedicated engine games/s | OpenSpiel games/s | whistdsl / dedicated | OpenSpiel / dedicated |")
        print("|---|---|---|---|---|---|---|")
        for game, n, w, d, o, ratio, os_ratio in rows:
            print(
                f"| {game} | {n} | {w:,.0f} | {d:,.0f} | {'' if o is None else f'{o:,.0f}'} | **{ratio:.2f}** | {'' if os_ratio is None else f'{os_ratio:.2f}'} |"
            )
        print()
        command = " ".join(["python benchmarks/bench_engine.py", *(sys.argv[1:] if argv is None else argv)])
        print(f"(`{command}`: {how}; a loaded machine, load average about {os.getloadavg()[0]:.0f}.)")
        return 0
    print(f"random play, whole games; {how}")
    print(
        f"  {'game':10} {'players':>7} {'whistdsl':>10} {'dedicated':>10} {'OpenSpiel':>10} {'ratio':>6} {'OS ratio':>8}   (ratios to the dedicated engine)"
    )
    for game, n, w, d, o, ratio, os_ratio in rows:
        print(
            f"  {game:10} {n:7} {w:10.0f} {d:10.0f} {'-' if o is None else f'{o:.0f}':>10} {ratio:6.2f} {'-' if os_ratio is None else f'{os_ratio:.2f}':>8}"
        )
    if not openspiel and not args.no_openspiel:
        print("  (OpenSpiel not measured: pyspiel is not installed; pip install -e .[bench])")
    return 0


if __name__ == "__main__":
    sys.exit(main())
