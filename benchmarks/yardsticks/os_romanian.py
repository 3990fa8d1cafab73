#!/usr/bin/env python3
"""OpenSpiel anchor: the Romanian-whist 1-8-1 schedule driven through pyspiel.

Copied unchanged but for this paragraph from ../shared/bench/os_romanian.py (the OpenSpiel
figure of issue 11), so that benchmarks/bench_engine.py runs without the shared folder. With 6
players all six play every hand here (oh_hell has no dead hand; rulesets/romanian.yaml and
ref_romanian.py let the dealer sit out): a throughput figure, not the same game.

Run with a Python that has the open-spiel package installed (pip install open-spiel).

One pyspiel `oh_hell` state per hand (games are loaded once per hand size and
cached), num_tricks_fixed = hand size, num_cards_per_suit = 2N+1 (so a trump
card always remains, 9 per suit for 4 players), off_bid_penalty=True.  The
dealer chance node is forced to seat h % N (rotation); every other chance node
(deal, trump) and every player action (bid, card) is uniformly random via
legal_actions() + int(random() * len) -- chance outcomes in oh_hell are
uniform, so this samples the same distribution as chance_outcomes() without
building (action, prob) tuples.

Differences from Romanian whist (fine for a throughput anchor): OpenSpiel's
follow-suit-else-any-card (no must-trump), always a trump card, its own
scoring (returns() summed per hand into cumulative scores).

CLI:
  os_romanian.py --games N --players P --seed S
  os_romanian.py --seconds T --players P
  os_romanian.py --chance-outcomes ...   # sample chance via chance_outcomes()
"""

import argparse
import random
import time

import pyspiel


def schedule(n):
    return [1] * n + list(range(2, 8)) + [8] * n + list(range(7, 1, -1)) + [1] * n


def make_engine(n, rng, use_chance_outcomes=False):
    games = {
        k: pyspiel.load_game(
            "oh_hell", {"players": n, "num_suits": 4, "num_cards_per_suit": 2 * n + 1, "num_tricks_fixed": k, "off_bid_penalty": True}
        )
        for k in range(1, 9)
    }
    plan = [(games[k], h % n) for h, k in enumerate(schedule(n))]
    rnd = rng.random

    def play_game(scores):
        for game, dealer in plan:
            s = game.new_initial_state()
            s.apply_action(s.legal_actions()[0])  # num tricks (fixed: 1 outcome)
            s.apply_action(dealer)  # dealer chance node, forced
            if use_chance_outcomes:
                while not s.is_terminal():
                    if s.is_chance_node():
                        o = s.chance_outcomes()
                        s.apply_action(o[int(rnd() * len(o))][0])
                    else:
                        la = s.legal_actions()
                        s.apply_action(la[int(rnd() * len(la))])
            else:
                while not s.is_terminal():
                    la = s.legal_actions()
                    s.apply_action(la[int(rnd() * len(la))])
            r = s.returns()
            for p in range(n):
                scores[p] += r[p]

    return play_game


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seconds", type=float, default=0.0)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--chance-outcomes", action="store_true")
    a = ap.parse_args(argv)
    n = a.players
    play = make_engine(n, random.Random(a.seed), a.chance_outcomes)
    cards = n * sum(schedule(n))
    total = 0.0
    games = 0
    t0 = time.perf_counter()
    if a.seconds > 0:
        stop = t0 + a.seconds
        while time.perf_counter() < stop:
            for _ in range(5):
                sc = [0.0] * n
                play(sc)
                total += sum(sc)
            games += 5
    else:
        for _ in range(a.games):
            sc = [0.0] * n
            play(sc)
            total += sum(sc)
        games = a.games
    dt = time.perf_counter() - t0
    print(
        f"players={n} games={games} secs={dt:.3f} games/s={games / dt:.2f} "
        f"cards/game={cards} us/card={dt / games / cards * 1e6:.3f} "
        f"checksum={total:.0f}"
    )


if __name__ == "__main__":
    main()
