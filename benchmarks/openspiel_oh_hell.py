"""Differential check of the bundled `openspiel` ruleset against OpenSpiel's own `oh_hell`.

Not a test (pyspiel is not a dependency): run it by hand where `pip install open_spiel` works:

    python benchmarks/openspiel_oh_hell.py [--games 200]

For several hand sizes (`--set tricks=N`) and player counts it plays whole hands in whistdsl
with a seeded random choice among the legal actions, and plays the same hand in pyspiel's
oh_hell(players, num_tricks_fixed=N, off_bid_penalty=true): the same dealer, the same cards to
the same seats, the same turned-up card, then the same bids and cards. At every step the two
games' legal actions must be the same set, and at the end their scores the same. It prints,
per configuration, the hands and decisions compared and any disagreement.
"""

from __future__ import annotations

import argparse
import functools
import random
import sys

import pyspiel

from whistdsl import load_rules
from whistdsl.engine import Game
from whistdsl.engine.cards import card_text

NUM_CARDS = 52
#: OpenSpiel numbers a card rank * 4 + suit, suits in the order C, D, S, H, ranks from 2 up.
OS_SUITS = "CDSH"
OS_RANKS = "23456789TJQKA"


def os_card(card: int) -> int:
    text = card_text(card)  # e.g. "TS"
    return OS_RANKS.index(text[0]) * 4 + OS_SUITS.index(text[1])


@functools.cache
def _rules(tricks: int):
    return load_rules("openspiel", settings=[f"tricks={tricks}"])


def one_hand(players: int, tricks: int, seed: int) -> tuple[int, list[str]]:
    """Play one hand in both; (decisions compared, disagreements)."""
    game = Game(_rules(tricks), players=players, seed=seed)
    os_game = pyspiel.load_game("oh_hell", {"players": players, "num_tricks_fixed": tricks, "off_bid_penalty": True})
    state = os_game.new_initial_state()
    problems: list[str] = []
    first = game.view(0)
    state.apply_action(tricks)  # chance: the number of tricks (fixed: one outcome)
    state.apply_action(first.dealer)  # chance: the dealer
    hands = [list(game.view(s).hand or ()) for s in range(players)]
    for i in range(tricks):  # OpenSpiel deals card k to player k % players
        for s in range(players):
            state.apply_action(os_card(hands[s][i]))
    if first.turn_up is None:
        return 0, [f"seed {seed}: whistdsl turned up no card"]
    state.apply_action(os_card(first.turn_up))  # the card after the deal: trump
    rng = random.Random(seed)
    decisions = 0
    while not game.over:
        seat = game.to_act
        if state.current_player() != seat:
            problems.append(f"seed {seed}: whistdsl asks seat {seat}, OpenSpiel player {state.current_player()}")
            break
        legal = game.legal_actions()
        bidding = game.phase == "bidding"
        ours = {b + NUM_CARDS for b in legal} if bidding else {os_card(c) for c in legal}
        theirs = set(state.legal_actions())
        decisions += 1
        if ours != theirs:
            problems.append(
                f"seed {seed}: {'bids' if bidding else 'cards'} of seat {seat} differ: whistdsl {sorted(ours)}, OpenSpiel {sorted(theirs)}"
            )
            break
        action = rng.choice(legal)
        game.act(action)
        state.apply_action(action + NUM_CARDS if bidding else os_card(action))
    if not problems:
        if not state.is_terminal():
            problems.append(f"seed {seed}: whistdsl's hand is over, OpenSpiel's is not")
        else:
            ours_points = [int(p) for p in game.history[-1].points]
            theirs_points = [int(r) for r in state.returns()]
            if ours_points != theirs_points:
                problems.append(f"seed {seed}: scores differ: whistdsl {ours_points}, OpenSpiel {theirs_points}")
    return decisions, problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="hands per configuration")
    args = parser.parse_args()
    configurations = [(3, 1), (3, 5), (3, 17), (4, 5), (4, 12), (5, 7), (5, 10), (6, 8), (7, 1), (7, 7)]
    failed = 0
    for players, tricks in configurations:
        compared, problems = 0, []
        for seed in range(args.games):
            n, found = one_hand(players, tricks, seed)
            compared += n
            problems += found
        failed += len(problems)
        print(f"{players} players, tricks={tricks:>2}: {args.games} hands, {compared} decisions compared, {len(problems)} disagreement(s)")
        for p in problems[:5]:
            print("   ", p)
    print("all agree" if not failed else f"{failed} disagreement(s)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
