"""The look-ahead copy of a position (`Game.from_view`, what the mc player plays out) is the position.

Given a seat's view and every playing seat's real cards, the copy must hold what the real game
holds at that moment: the tricks taken so far, the trick in progress, the bids, who is to act,
the trump, the totals, the running values, the hand's number, size and kind. And playing the
rest of the hand on the copy with the same actions must give the real hand's result: the same
tricks, points, bonuses, totals and running values. Checked at several moments of real games
(in the bidding, at the first lead, in the middle of a trick after some tricks), in rulesets
whose bonus reads running values, with a dead hand, forehead and blind hands.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from whistdsl import load_rules
from whistdsl.engine import Game

# (ruleset, players, hands to look at): hands late enough that totals and running values are not 0
GAMES = [
    ("romanian-streak-players", 3, (6, 9, 12, 14)),  # a bonus that reads running values
    ("romanian-streak-players-no-zeros", 4, (8, 11, 15, 20)),
    ("romanian", 6, (9, 14, 18)),  # the dealer sits out
    ("romanian-forehead", 4, (2, 23)),  # forehead 1-card hands
    ("romanian-nv", 3, (10, 22)),  # hand 22: the blind NV hand
    ("serbian", 4, (3, 17, 20)),  # counter-clockwise, a trump cycle
    ("scoring/trick-points", 4, (5, 12)),  # fractional points (a made 0 bid scores 1/2)
]


def moments(game: Game, hands: tuple[int, ...], rng: random.Random, log: list) -> Iterator[str]:
    """Play `game` to its end with random legal actions (appended to `log`), pausing (yielding a
    description) in each of `hands`: after the first bid, at the first lead, and after 2 tricks
    and 1 card (after 1 trick and 1 card in a 2-card hand)."""
    while not game.over:
        number = game.hand_number
        if number in hands:
            if game.phase == "bidding" and len(game.bid_log) == 1:
                yield f"hand {number}, after the first bid"
            if game.phase == "play" and not game.tricks and not game.trick:
                yield f"hand {number}, at the first lead"
            if game.phase == "play" and len(game.tricks) == min(2, game.hand_size - 1) and len(game.trick) == 1:
                yield f"hand {number}, after {len(game.tricks)} tricks and a card"
        action = rng.choice(game.legal_actions())
        log.append(action)
        game.act(action)


def real_hands(game: Game) -> dict[int, list[int]]:
    """Every playing seat's cards now (in no particular order)."""
    return {s: sorted(c for suit in game.hands[s] for c in suit) for s in range(game.players) if s not in game.sitting_out}


def check_copy_is_the_position(copy: Game, game: Game, where: str) -> None:
    assert copy.hand_number == game.hand_number, where
    assert copy.hand_size == game.hand_size, where
    assert copy.kind.name == game.kind.name, where
    assert copy.phase == game.phase and copy.to_act == game.to_act, where
    assert copy.dealer == game.dealer and copy.sitting_out == game.sitting_out, where
    assert copy.trump == game.trump and copy.turn_up == game.turn_up, where
    assert copy.bids == game.bids and copy.bid_log == game.bid_log and copy.bids_so_far == game.bids_so_far, where
    assert copy.tricks == game.tricks, f"{where}: the tricks played so far"
    assert copy.taken == game.taken, f"{where}: the tricks taken so far"
    assert copy.trick == game.trick, f"{where}: the trick in progress"
    assert copy.totals == game.totals, f"{where}: the totals"
    assert copy.running == game.running, f"{where}: the running values"
    assert real_hands(copy) == real_hands(game), where
    assert copy.legal_actions() == game.legal_actions(), where
    if game.phase == "play":
        assert copy.leader == game.leader, where
    for seat in range(game.players):
        mine, theirs = copy.view(seat), game.view(seat)
        assert mine == theirs, f"{where}: seat {seat}'s view"
        assert mine.hand_env == theirs.hand_env, where


def play_on_both(copy: Game, game: Game, rng: random.Random, where: str) -> None:
    """The rest of the hand, the same actions on both; then the copy's result is the real one."""
    done = len(game.history)
    while len(game.history) == done:
        legal = game.legal_actions()
        assert copy.legal_actions() == legal, where
        action = rng.choice(legal)
        copy.act(action)
        game.act(action)
    assert copy.over and len(copy.history) == 1, f"{where}: the copy stops at the end of its hand"
    mine, real = copy.history[0], game.history[-1]
    for field in (
        "number",
        "size",
        "kind",
        "mark",
        "extra",
        "dealer",
        "sitting_out",
        "trump",
        "turn_up",
        "bids",
        "tricks",
        "taken",
        "points",
        "bonus",
        "totals",
        "running",
    ):
        assert getattr(mine, field) == getattr(real, field), f"{where}: {field}"


@pytest.mark.parametrize("name, players, hands", GAMES)
def test_the_look_ahead_copy_holds_the_position_and_plays_on_to_the_same_result(name, players, hands):
    rules = load_rules(name)
    game = Game(rules, players=players, seed=31)
    log: list = []
    seen = []
    for where in moments(game, hands, random.Random(7), log):
        seen.append(where)
        for seat in range(players):  # the copy is the same from any seat's view
            copy = Game.from_view(game.view(seat), real_hands(game), random.Random(seat))
            check_copy_is_the_position(copy, game, f"{where}, from seat {seat}'s view")
        # the real game's own continuation: the same game again, up to this moment
        twin = Game(rules, players=players, seed=31)
        for action in log:
            twin.act(action)
        copy = Game.from_view(game.view(game.to_act), real_hands(game), random.Random(0))
        play_on_both(copy, twin, random.Random(len(seen)), where)
    assert len(seen) == 3 * len(hands), seen
    if rules.running:
        assert any(v for r in game.history[hands[0] - 1].running for v in r.values()), "pick hands where running values are not 0"


# language 2: the copy makes the view's decisions again (blind or look, a named call, a trump
# named by a seat). (ruleset, players, seed, hands): hands where those decisions are made
DECIDING = [
    ("oh-hell-nil", 4, 31, (5, 10, 11)),  # blind nil (hand 5), nil calls (10, 11)
    ("oh-hell-highest-bidder-trump", 4, 31, (3, 6, 9)),  # trump named after the bidding
    ("wizard", 4, 33, (12,)),  # a turned Wizard: the dealer names trump before the bidding
]


@pytest.mark.parametrize("name, players, seed, hands", DECIDING)
def test_the_look_ahead_copy_makes_the_decisions_of_the_view_again(name, players, seed, hands):
    rules = load_rules(name)
    game = Game(rules, players=players, seed=seed)
    log: list = []
    decided = set()
    for where in moments(game, hands, random.Random(7), log):
        view = game.view(0)
        decided |= {"blind" for b in view.blind if b} | {"call" for c in view.calls if c}
        decided |= {"trump"} if view.trump_named_by is not None else set()
        for seat in range(players):
            copy = Game.from_view(game.view(seat), real_hands(game), random.Random(seat))
            check_copy_is_the_position(copy, game, f"{where}, from seat {seat}'s view")
            assert copy.calls == game.calls and copy.blind == game.blind, where
            assert copy.trump_named_by == game.trump_named_by, where
        twin = Game(rules, players=players, seed=seed)
        for action in log:
            twin.act(action)
        copy = Game.from_view(game.view(game.to_act), real_hands(game), random.Random(0))
        play_on_both(copy, twin, random.Random(len(log)), where)
    assert decided, "pick hands where the view shows decisions"


@pytest.mark.parametrize("name, players, hands", GAMES[:3] + [(n, p, h) for n, p, _, h in DECIDING])
def test_a_clone_plays_on_and_leaves_the_position_it_was_cloned_from_as_it_was(name, players, hands):
    # mc builds the imagined position once a sample and plays each candidate on a clone of it
    seed = next((s for n, _, s, _ in DECIDING if n == name), 31)
    rules = load_rules(name)
    game = Game(rules, players=players, seed=seed)
    log: list = []
    for where in moments(game, hands, random.Random(7), log):
        copy = Game.from_view(game.view(game.to_act), real_hands(game), random.Random(0))
        twin = Game(rules, players=players, seed=seed)
        for action in log:
            twin.act(action)
        play_on_both(copy.clone(), twin, random.Random(len(log)), where)
        check_copy_is_the_position(copy, game, f"{where}: the position cloned from")
