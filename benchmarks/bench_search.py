#!/usr/bin/env python3
"""The `search` player against OpenSpiel's ISMCTS, on OpenSpiel's own `oh_hell`.

Needs `open-spiel` (the `bench` extra: `pip install -e '.[bench]'`). Each deal is one hand of
OpenSpiel's oh_hell (4 players, 3 to 10 cards, off_bid_penalty) played twice, in the bundled
`openspiel` ruleset and in pyspiel side by side (the two agree on every action and score:
benchmarks/openspiel_oh_hell.py): once with `search` at seats 0 and 2 and ISMCTS at 1 and 3,
once with the seats swapped, the same cards to the same seats. A duplicate hand's result is
the mean score of the `search` seats less the mean of the ISMCTS seats, averaged over the two
plays, so the luck of the cards cancels.

Thinking time is matched: ISMCTS gets `--sims` simulations a decision (random rollouts, UCT
c = 2, as the issue measured it), `search` gets `--think` seconds as its fixed work (as `play`
measures it, once per process at each hand size's table); the
script reports each side's median seconds per decision (decisions with one legal action are
not timed: both answer at once). `--calibrate` first finds the ISMCTS simulations that take
`--think` (or `--seconds`) seconds at the median on this machine.

OpenSpiel's oh_hell resampling, which its ISMCTS guesses the unseen cards by, only shares out
again the cards the other seats really hold (`--leak` shows it), so that ISMCTS knows which
cards are in play. `--honest N` plays an ISMCTS without that knowledge: each decision is N
OpenSpiel ISMCTS searches, each from a state whose unseen cards are guessed afresh from the
whole unseen deck (`guessed_state`), their root visit counts added up. `--ours openspiel`
seats OpenSpiel's own ISMCTS where `search` would sit, to measure what the knowledge is worth.

Results go to a JSON-lines file (`--out`), one line per duplicate hand, so a long match can be
stopped and resumed: deals already in the file are skipped.

    python benchmarks/bench_search.py --think 0.05 --calibrate --honest 16 --hands 1000 --workers 2 --out FILE
    python benchmarks/bench_search.py --leak
    python benchmarks/bench_search.py --summary benchmarks/results/search-vs-ismcts-0.05.jsonl
    python benchmarks/bench_search.py --table benchmarks/results/*.jsonl --docs
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pyspiel

sys.path.insert(0, str(Path(__file__).resolve().parent))
from openspiel_oh_hell import NUM_CARDS, os_card

from whistdsl import load_rules
from whistdsl.engine import Game
from whistdsl.players.mc import DealSampler
from whistdsl.players.search import SearchPlayer, work_units

PLAYERS = 4
SIZES = range(3, 11)


@functools.cache
def _rules(tricks: int):
    return load_rules("openspiel", settings=[f"tricks={tricks}"])


@functools.cache
def _os_game(tricks: int):
    return pyspiel.load_game("oh_hell", {"players": PLAYERS, "num_tricks_fixed": tricks, "off_bid_penalty": True})


def _ismcts(tricks: int, sims: int, seed: int, policy=pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT):
    evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
    return pyspiel.ISMCTSBot(seed, evaluator, 2.0, sims, -1, policy, False, False)


def twin_tables(tricks: int, seed: int):
    """A hand of `tricks` cards dealt by whistdsl for `seed`, and the same deal in pyspiel: the
    whistdsl `Game` and the pyspiel state, both at the first bid."""
    game = Game(_rules(tricks), players=PLAYERS, seed=seed)
    state = _os_game(tricks).new_initial_state()
    first = game.view(0)
    state.apply_action(tricks)  # chance: the number of tricks (fixed)
    state.apply_action(first.dealer)  # chance: the dealer
    hands = [list(game.view(s).hand or ()) for s in range(PLAYERS)]
    for i in range(tricks):  # OpenSpiel deals card k to player k % players
        for s in range(PLAYERS):
            state.apply_action(os_card(hands[s][i]))
    state.apply_action(os_card(first.turn_up))  # type: ignore[arg-type]
    return game, state


def _deal_actions(state) -> int:
    """Where the bids start in a pyspiel oh_hell history: the tricks, the dealer, the deal, the turn-up."""
    return 2 + PLAYERS * state.get_game().get_parameters()["num_tricks_fixed"] + 1


def guessed_state(state, game: Game, seat: int, rng: random.Random):
    """`state` as `seat` may know it: its own cards, the bids and the cards played, and the
    other seats' unseen cards guessed afresh from every card it has not seen (the deck's rest
    included, the voids shown respected: players/mc.py `DealSampler`)."""
    view = game.view(seat)
    now = DealSampler(view).sample(rng)
    dealt = {
        s: [c for t in view.tricks for p, c in t.cards if p == s] + [c for p, c in view.trick if p == s] + list(now.get(s, ()))
        for s in range(PLAYERS)
    }
    history = state.history()
    out = state.get_game().new_initial_state()
    for a in history[:2]:  # the tricks and the dealer
        out.apply_action(a)
    size = len(dealt[0])
    for i in range(size):
        for s in range(PLAYERS):
            out.apply_action(os_card(dealt[s][i]))
    for a in history[_deal_actions(state) - 1 :]:  # the turn-up, the bids, the cards
        out.apply_action(a)
    assert out.information_state_string(seat) == state.information_state_string(seat)
    return out


def honest_ismcts(state, game: Game, seat: int, tricks: int, sims: int, worlds: int, seed: int, rng: random.Random) -> int:
    """OpenSpiel's ISMCTS without its look at the cards in play: `worlds` searches of
    `sims // worlds` simulations each, each from a state whose unseen cards are guessed afresh
    (`guessed_state`), their root visit counts added up (root parallelisation); the most
    visited action."""
    visits: dict[int, float] = {}
    for w in range(worlds):
        bot = _ismcts(tricks, max(1, sims // worlds), (seed * 1009 + w) % 2**31, pyspiel.ISMCTSFinalPolicyType.NORMALIZED_VISIT_COUNT)
        for action, share in bot.get_policy(guessed_state(state, game, seat, rng)):
            visits[action] = visits.get(action, 0.0) + share
    return max(sorted(visits), key=lambda a: visits[a])


def resample_leak(sizes=(3, 6, 10), deals: int = 20, samples: int = 50) -> str:
    """How often OpenSpiel's oh_hell `resample_from_infostate` gives the other seats exactly
    the cards they really hold (only shared out differently): 1.0 means it never deals them a
    card from the rest of the deck, so ISMCTS knows which cards are in play."""
    lines = []
    for tricks in sizes:
        g = _os_game(tricks)
        same = total = 0
        for deal in range(deals):
            rng = random.Random(deal)
            state = g.new_initial_state()
            while state.is_chance_node():
                state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
            seat = state.current_player()
            theirs = lambda st: {c for i, c in enumerate(st.history()[2 : 2 + PLAYERS * tricks]) if i % PLAYERS != seat}  # noqa: E731, B023 called in this iteration
            truth = theirs(state)
            for k in range(samples):
                guess = state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(1000 * deal + k, 0.0, 1.0))
                same += theirs(guess) == truth
                total += 1
        unseen = 52 - tricks - 1
        lines.append(
            f"{tricks} cards: {same} of {total} resamples give the other seats exactly their real {(PLAYERS - 1) * tricks} cards "
            f"(an honest guess draws them from the {unseen} unseen)"
        )
    return "\n".join(lines)


def play_hand(
    deal: int,
    search_seats: tuple[int, ...],
    think: float | None,
    samples: int | None,
    sims: int,
    halves: str = "",
    options: dict | None = None,
    honest: int = 0,
    ours_kind: str = "search",
) -> dict:
    """One play of deal `deal`: the seats' points, and each side's decision times. `halves`
    "bids": the search seats' cards are ISMCTS's; "cards": their bids are. `honest` N: the
    ISMCTS seats search N freshly guessed deals (`honest_ismcts`) instead of OpenSpiel's own
    resampling. `ours_kind` "openspiel": the search seats are OpenSpiel's own ISMCTS."""
    tricks = SIZES[deal % len(SIZES)]
    game, state = twin_tables(tricks, 1_000_003 * deal + 17)
    # as `play --think` makes it: the seconds turned into work by a measurement at this table
    units = work_units(think, _rules(tricks), PLAYERS) if think is not None and samples is None else None
    ours = SearchPlayer(samples=samples, units=units, **(options or {}))
    bots = {s: _ismcts(tricks, sims, 7919 * deal + s) for s in range(PLAYERS)}
    rng = random.Random(deal * 31 + sum(search_seats))
    times: dict[str, list[float]] = {"search": [], "ismcts": []}
    while not game.over:
        seat = game.to_act
        bidding = game.phase == "bidding"
        legal = game.legal_actions()
        start = time.process_time()
        if seat in search_seats and halves != ("cards" if bidding else "bids"):
            if ours_kind == "openspiel":
                os_action = bots[seat].step(state)
                action = os_action - NUM_CARDS if bidding else next(c for c in legal if os_card(c) == os_action)
            else:
                view = game.view(seat)
                action = ours.act(view, list(view.legal or ()), rng)
            side = "search"
        else:
            os_action = bots[seat].step(state) if not honest else honest_ismcts(state, game, seat, tricks, sims, honest, 7919 * deal + seat, rng)
            action = os_action - NUM_CARDS if bidding else next(c for c in legal if os_card(c) == os_action)
            side = "ismcts"
        if len(legal) > 1:
            times[side].append(time.process_time() - start)
        game.act(action)
        state.apply_action(action + NUM_CARDS if bidding else os_card(action))
    points = [int(p) for p in game.history[-1].points]
    if points != [int(r) for r in state.returns()]:
        raise AssertionError(f"deal {deal}: whistdsl scored {points}, OpenSpiel {state.returns()}")
    return {"points": points, "bids": list(game.history[-1].bids), "times": times}


def duplicate(args: tuple) -> dict:
    """Deal `deal` played both ways: the result line for the file."""
    deal, think, samples, sims, halves, options, honest, ours_kind = args
    plays = [play_hand(deal, seats, think, samples, sims, halves, options, honest, ours_kind) for seats in ((0, 2), (1, 3))]
    diffs = []
    for play, seats in zip(plays, ((0, 2), (1, 3))):
        mine = [p for s, p in enumerate(play["points"]) if s in seats]
        theirs = [p for s, p in enumerate(play["points"]) if s not in seats]
        diffs.append(statistics.mean(mine) - statistics.mean(theirs))
    return {
        "deal": deal,
        "tricks": SIZES[deal % len(SIZES)],
        "diff": statistics.mean(diffs),
        "points": [p["points"] for p in plays],
        "bids": [p["bids"] for p in plays],
        "search_times": [t for p in plays for t in p["times"]["search"]],
        "ismcts_times": [t for p in plays for t in p["times"]["ismcts"]],
    }


def summary(lines: list[dict]) -> str:
    diffs = [x["diff"] for x in lines]
    n = len(diffs)
    mean = statistics.mean(diffs) if diffs else float("nan")
    half = 1.96 * statistics.stdev(diffs) / math.sqrt(n) if n > 1 else float("nan")
    ours = [t for x in lines for t in x["search_times"]]
    theirs = [t for x in lines for t in x["ismcts_times"]]
    med = lambda xs: statistics.median(xs) if xs else float("nan")  # noqa: E731
    return (
        f"{n} duplicate hands: search minus ISMCTS {mean:+.2f} ± {half:.2f} points a hand (95%); "
        f"median seconds a decision: search {med(ours):.3f}, ISMCTS {med(theirs):.3f}"
    )


def _match(line: dict) -> str:
    """What a results line's match was, in words."""
    theirs = line.get("ismcts", "openspiel")
    them = (
        "ISMCTS, OpenSpiel's resampling (sees which cards are in play)" if theirs == "openspiel" else f"ISMCTS on {theirs.split()[1]} guessed deals"
    )
    us = "OpenSpiel's ISMCTS (its own resampling)" if line.get("ours") == "openspiel" else f"search, `--think {line['think']}`"
    return f"{us} vs {them}"


def table(files: list[Path]) -> str:
    """A Markdown table of results files, one row each."""
    rows = [
        "| match | ISMCTS simulations | duplicate hands | first minus second, points a hand (95%) | median seconds a decision, first / second | made bids, first / second |",
        "|---|---|---|---|---|---|",
    ]
    for path in files:
        lines = [json.loads(x) for x in path.read_text().splitlines() if x.strip()]
        if not lines:
            continue
        diffs = [x["diff"] for x in lines]
        half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else float("nan")
        made = {True: [0, 0], False: [0, 0]}
        for x in lines:
            for points, seats in zip(x["points"], ((0, 2), (1, 3))):
                for s, p in enumerate(points):
                    made[s in seats][0] += p >= 10  # a made bid scores 10 + its tricks, a missed one less than 0
                    made[s in seats][1] += 1
        ours = statistics.median(t for x in lines for t in x["search_times"])
        theirs = statistics.median(t for x in lines for t in x["ismcts_times"])
        rows.append(
            f"| {_match(lines[0])} | {lines[0]['sims']} | {len(lines)} | **{statistics.mean(diffs):+.2f} ± {half:.2f}** | "
            f"{ours:.3f} / {theirs:.3f} | {made[True][0] / made[True][1]:.0%} / {made[False][0] / made[False][1]:.0%} |"
        )
    return "\n".join(rows)


def write_table(text: str) -> None:
    """The table into docs/performance.md and docs/search.md, between `<!-- search-match:start -->` and `:end -->`."""
    root = Path(__file__).resolve().parent.parent
    start, end = "<!-- search-match:start -->", "<!-- search-match:end -->"
    for path in (root / "docs" / "performance.md", root / "docs" / "search.md"):
        page = path.read_text(encoding="utf-8")
        before, rest = page.split(start, 1)
        _, after = rest.split(end, 1)
        path.write_text(f"{before}{start}\n{text}\n{end}{after}", encoding="utf-8")


def calibrate(think: float, start: int | None = None, honest: int = 0, rounds: int = 2) -> int:
    """ISMCTS simulations whose median time a decision is `think` seconds on this machine: a
    hand of every size with ISMCTS at every seat, `rounds` times, the simulations scaled by
    the median each time."""
    sims = start or max(10, round(60_000 * think))
    for _ in range(rounds):
        times = []
        for deal in range(len(SIZES)):  # one deal of each hand size
            times += play_hand(10_000 + deal, (), None, 1, sims, honest=honest)["times"]["ismcts"]
        med = statistics.median(times)
        sims = max(10, round(sims * think / med))
    return sims


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--think", type=float, default=0.05, help="seconds a decision for search")
    ap.add_argument("--samples", type=int, default=None, help="fixed deals a decision for search, instead of --think")
    ap.add_argument("--sims", type=int, default=1200, help="ISMCTS simulations a decision")
    ap.add_argument("--calibrate", action="store_true", help="set --sims so ISMCTS takes --think seconds at the median")
    ap.add_argument("--seconds", type=float, default=None, help="with --calibrate: ISMCTS's median seconds, when search's median is not --think")
    ap.add_argument("--hands", type=int, default=1000, help="duplicate hands")
    ap.add_argument("--first", type=int, default=0, help="the first deal's number")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--halves", choices=("bids", "cards"), default="", help="search makes only the bids (ISMCTS plays its cards), or only the cards")
    ap.add_argument("--sizes", type=int, nargs="+", default=list(SIZES), help="play only the deals of these hand sizes")
    ap.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="a SearchPlayer keyword argument (a number), for tuning")
    ap.add_argument(
        "--honest",
        type=int,
        default=0,
        metavar="N",
        help="ISMCTS searches N freshly guessed deals a decision instead of OpenSpiel's resampling (see --leak)",
    )
    ap.add_argument(
        "--ours",
        choices=("search", "openspiel"),
        default="search",
        help="who plays the search seats: search, or OpenSpiel's own ISMCTS (to measure --honest)",
    )
    ap.add_argument("--leak", action="store_true", help="only show how OpenSpiel's oh_hell resampling keeps the cards in play")
    ap.add_argument("--out", type=Path, default=None, help="JSON-lines results file (resumed when it exists)")
    ap.add_argument("--summary", type=Path, default=None, help="only summarise this results file")
    ap.add_argument("--table", type=Path, nargs="+", default=None, help="only print a Markdown table of these results files")
    ap.add_argument("--docs", action="store_true", help="with --table: write it into docs/performance.md and docs/search.md")
    args = ap.parse_args(argv)
    if args.summary:
        lines = [json.loads(x) for x in args.summary.read_text().splitlines() if x.strip()]
        print(summary(lines))
        return 0
    if args.table:
        text = table(args.table)
        print(text)
        if args.docs:
            write_table(text)
        return 0
    if args.leak:
        print(resample_leak())
        return 0
    if args.calibrate:
        target = args.seconds or args.think
        args.sims = calibrate(target, honest=args.honest)
        print(f"ISMCTS: {args.sims} simulations a decision for {target} s", flush=True)
    done: list[dict] = []
    if args.out and args.out.exists():
        done = [json.loads(x) for x in args.out.read_text().splitlines() if x.strip()]
    seen = {x["deal"] for x in done}
    todo = [d for d in range(args.first, args.first + args.hands) if d not in seen and SIZES[d % len(SIZES)] in args.sizes]
    options = {k: float(v) if "." in v else int(v) for k, v in (o.split("=", 1) for o in args.option)}
    out = args.out.open("a") if args.out else None
    start = time.time()
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        for i, line in enumerate(
            pool.map(
                duplicate,
                [
                    (d, args.think if args.samples is None else None, args.samples, args.sims, args.halves, options, args.honest, args.ours)
                    for d in todo
                ],
            )
        ):
            line["sims"] = args.sims
            line["think"] = args.think
            line["ismcts"] = f"honest {args.honest}" if args.honest else "openspiel"
            if args.ours != "search":
                line["ours"] = args.ours
            if options or args.halves:
                line["options"] = {**options, **({"halves": args.halves} if args.halves else {})}
            done.append(line)
            if out:
                out.write(json.dumps(line) + "\n")
                out.flush()
            if (i + 1) % 20 == 0 or i + 1 == len(todo):
                print(f"[{time.time() - start:.0f}s] {summary(done)}", flush=True)
    print(summary(done))
    return 0


if __name__ == "__main__":
    sys.exit(main())
