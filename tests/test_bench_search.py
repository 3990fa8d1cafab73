"""benchmarks/bench_search.py's opponent: OpenSpiel's ISMCTS, and the guessed deals that keep
it honest. Needs pyspiel (the `bench` extra); skipped without it.

OpenSpiel's oh_hell `resample_from_infostate` shares out only the cards the other seats really
hold, so an ISMCTS built on it knows which cards are in play. `guessed_state` is the
benchmark's replacement: a state the seat could hold true, its unseen cards drawn afresh."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the bench extra: pip install -e '.[bench]'")

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import bench_search  # noqa: E402
from openspiel_oh_hell import NUM_CARDS, OS_RANKS, OS_SUITS, os_card  # noqa: E402

from whistdsl.engine.cards import SUIT_OF, parse_card  # noqa: E402
from whistdsl.players.mc import voids  # noqa: E402

TRICKS = 4
#: OpenSpiel's card numbers, as whistdsl cards
OURS = {os_card(parse_card(r + s)): parse_card(r + s) for r in OS_RANKS for s in OS_SUITS}


def seat_orders(seed: int, moves: int):
    """A whistdsl game and its pyspiel twin, `moves` bids and cards into the hand (random legal ones)."""
    game, state = bench_search.twin_tables(TRICKS, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        bidding = game.phase == "bidding"
        action = rng.choice(game.legal_actions())
        game.act(action)
        state.apply_action(action + NUM_CARDS if bidding else os_card(action))
    return game, state


def _others_cards(state, seat: int) -> set[int]:
    """The cards the other seats were dealt, read off a pyspiel state's deal actions."""
    deal = state.history()[2 : 2 + 4 * TRICKS]
    return {c for i, c in enumerate(deal) if i % 4 != seat}


def test_openspiel_resampling_keeps_the_cards_in_play():
    """The reason for `guessed_state`: every resample gives the other seats their real cards.
    If OpenSpiel fixes its resampling this fails, and the benchmark's notes must change."""
    game, state = seat_orders(3, 4)
    seat = state.current_player()
    truth = _others_cards(state, seat)
    for k in range(30):
        guess = state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(k, 0.0, 1.0))
        assert _others_cards(guess, seat) == truth


@pytest.mark.parametrize("seed, moves", [(11, 0), (12, 2), (13, 6), (0, 11), (1, 9), (2, 9)])  # the last three: seats have shown voids
def test_guessed_state_is_what_the_seat_may_know(seed, moves):
    """The seat's own information is kept exactly (its cards, the bids, the cards played), the
    other seats' unseen cards come from the whole unseen deck, and no seat holds a suit it has
    shown it lacks."""
    game, state = seat_orders(seed, moves)
    seat = state.current_player()
    truth = _others_cards(state, seat)
    rng = random.Random(5)
    fresh = 0
    view = game.view(seat)
    played = {os_card(c) for t in view.tricks for _, c in t.cards} | {os_card(c) for _, c in view.trick}
    lacks = voids(view)
    assert (moves < 9) or any(lacks.values())  # the void cases do test voids
    for _ in range(30):
        guess = bench_search.guessed_state(state, game, seat, rng)
        assert guess.information_state_string(seat) == state.information_state_string(seat)
        assert guess.history()[bench_search._deal_actions(state) - 1 :] == state.history()[bench_search._deal_actions(state) - 1 :]
        theirs = _others_cards(guess, seat)
        deal = guess.history()[2 : 2 + 4 * TRICKS]
        for who, c in [p for t in view.tricks for p in t.cards] + list(view.trick):  # a card played was dealt to who played it
            assert deal.index(os_card(c)) % 4 == who
        for other, suits in lacks.items():
            held = {c for i, c in enumerate(deal) if i % 4 == other} - played
            assert not any(SUIT_OF[OURS[c]] in suits for c in held), (other, suits)
        fresh += theirs != truth
    assert fresh >= 25  # drawn from 52 - 4 - 1 unseen cards, a guess is almost never the truth


def test_honest_ismcts_plays_legal_actions():
    game, state = seat_orders(21, 5)
    seat = state.current_player()
    action = bench_search.honest_ismcts(state, game, seat, TRICKS, 64, 4, 7, random.Random(1))
    assert action in state.legal_actions()
