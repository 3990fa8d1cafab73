"""The bundled rulesets of language 2's decisions: hand-computed score tables, and whole seeded
games checked by an independent checker written from the rules.

`oh-hell-nil`: Oh Hell (hook; a made bid scores 10 + bid, a miss 0) with two named calls beside
the number bids, each counting as 0 tricks: nil (50 when no trick is taken, else -50) and blind
nil (100 / -100), which only a player who chose to bid blind may call; a number bid made blind
scores double. `oh-hell-simultaneous`: Oh Hell with every bid hidden until all have bid, and no
hook. `oh-hell-highest-bidder-trump`: no card is turned; after the bidding the highest bidder
(the earlier of equal bids) names trump or no trump, and leads the first trick.

The checker reads only what a game's history records (the deal, bids, calls, blind choices,
decisions, tricks, points, totals) and the rules as the ruleset comments state them; it shares
no code with the engine but the card encoding (`card_text`).
"""

from __future__ import annotations

import pytest

from whistdsl import load_rules
from whistdsl.engine import Game
from whistdsl.engine.cards import card_text
from whistdsl.engine.scoring import hand_points
from whistdsl.players import BOTS, play_out
from whistdsl.rules.ruleset import PlannedHand, hand_setup

RANKS = "23456789TJQKA"
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


# ---------------------------------------------------------------- score tables, by hand

# oh-hell-nil, a 3-card hand. Each row: (bid, call, blind, tricks, points), from the rules:
#   nil: 0 tricks -> 50, any trick -> -50;  blind nil: 0 tricks -> 100, any trick -> -100
#   a number bid: made -> 10 + bid, missed -> 0; bid blind -> twice that
NIL_TABLE = [
    (0, "", False, 0, 10),  # an ordinary 0, made: 10 + 0
    (0, "", False, 1, 0),  # an ordinary 0, missed
    (0, "", True, 0, 20),  # a blind 0, made: 2 * (10 + 0)
    (0, "nil", False, 0, 50),
    (0, "nil", False, 1, -50),
    (0, "nil", False, 3, -50),
    (0, "blind_nil", True, 0, 100),
    (0, "blind_nil", True, 2, -100),
    (2, "", False, 2, 12),  # 10 + 2
    (2, "", True, 2, 24),  # 2 * (10 + 2)
    (2, "", True, 1, 0),  # missed, blind or not: 2 * 0
    (3, "", False, 3, 13),  # 10 + 3
    (3, "", True, 3, 26),  # 2 * (10 + 3)
]


@pytest.mark.parametrize("bid, call, blind, tricks, points", NIL_TABLE)
def test_oh_hell_nil_scores_nil_blind_nil_and_blind_bids_as_its_rules_say(bid, call, blind, tricks, points):
    rules = load_rules("oh-hell-nil")
    env = dict(hand_setup(rules, 4, PlannedHand(1, 3, "normal"), 12).env, trump="hearts")
    assert hand_points(rules, env, bid, tricks, call=call, blind=blind) == points


@pytest.mark.parametrize("name", ["oh-hell-simultaneous", "oh-hell-highest-bidder-trump"])
@pytest.mark.parametrize("bid, tricks, points", [(0, 0, 10), (2, 2, 12), (2, 1, 0), (5, 5, 15), (0, 1, 0)])
def test_the_other_decision_rulesets_score_as_oh_hell(name, bid, tricks, points):
    # Oh Hell: made -> 10 + bid (0 + 10 = 10, 10 + 2 = 12, 10 + 5 = 15), missed -> 0
    rules = load_rules(name)
    env = dict(hand_setup(rules, 4, PlannedHand(1, 5, "normal"), 12).env, trump="none")
    assert hand_points(rules, env, bid, tricks) == points


# ---------------------------------------------------------------- the independent checker


def rank(card: str) -> int:
    return RANKS.index(card[0])


def winner(trick: list[tuple[int, str]], trump: str | None) -> int:
    """Highest trump, else the highest card of the suit led."""
    led = trick[0][1][1]
    trumps = [(s, c) for s, c in trick if trump is not None and SUIT_NAMES[c[1]] == trump]
    pool = trumps or [(s, c) for s, c in trick if c[1] == led]
    return max(pool, key=lambda sc: rank(sc[1]))[0]


def nil_points(bid: int, call: str, blind: bool, tricks: int) -> int:
    if call == "nil":
        return 50 if tricks == 0 else -50
    if call == "blind_nil":
        return 100 if tricks == 0 else -100
    made = 10 + bid if tricks == bid else 0
    return 2 * made if blind else made


def oh_hell_points(bid: int, call: str, blind: bool, tricks: int) -> int:
    return 10 + bid if tricks == bid else 0


def check_game(game: Game, *, hook: bool, points, trump_by_highest_bidder: bool = False) -> None:
    """Every finished hand of `game`, checked from the rules alone."""
    n = game.players
    totals = [0] * n
    for h in game.history:
        size = h.size
        order = [s for s, _ in h.bids]
        assert order[0] == (h.dealer + 1) % n and len(order) == n, "bidding starts left of the dealer, once round"
        calls = h.calls or ("",) * n
        blind = h.blind or (False,) * n
        counted = 0
        for i, (seat, bid) in enumerate(h.bids):
            assert 0 <= bid <= size
            if calls[seat]:
                assert bid == 0, "nil and blind nil count as 0 tricks"
            if calls[seat] == "blind_nil":
                assert blind[seat], "only a blind bidder may call blind nil"
            if hook and i == n - 1:
                assert counted + bid != size, "the hook: the bids may not add up to the hand size"
            counted += bid
        # trump
        if trump_by_highest_bidder:
            best = max(b for _, b in h.bids)
            highest = next(s for s, b in h.bids if b == best)  # the earlier of equal bids
            trumps = [(s, c) for s, d, c in h.choices if d == "trump"]
            assert trumps and trumps[0][0] == highest, "the highest bidder names trump"
            named = trumps[0][1]
            trump = None if named == "none" else named
            assert h.turn_up is None
        else:
            assert h.turn_up is not None, "Oh Hell turns the next card up (every hand leaves one)"
            trump = SUIT_NAMES[card_text(h.turn_up)[1]]
        assert (h.trump < 0 and trump is None) or (trump is not None and "SHDC"[h.trump] == {v: k for k, v in SUIT_NAMES.items()}[trump])
        # play: follow suit, the winner leads the next trick
        hands = [[card_text(c) for c in cards] for cards in h.deal]
        assert all(len(cards) == size for cards in hands)
        leader = highest if trump_by_highest_bidder else order[0]  # the highest bidder leads
        taken = [0] * n
        for t in h.tricks:
            assert t.leader == leader
            cards = [(s, card_text(c)) for s, c in t.cards]
            assert [s for s, _ in cards] == [(leader + i) % n for i in range(n)]
            led = cards[0][1][1]
            for s, c in cards:
                held = hands[s]
                assert c in held
                if c[1] != led:
                    assert not any(x[1] == led for x in held), f"seat {s} did not follow suit"
                held.remove(c)
            leader = winner(cards, trump)
            assert t.winner == leader
            taken[leader] += 1
        assert tuple(taken) == h.taken and sum(taken) == size
        for seat, bid in h.bids:
            p = points(bid, calls[seat], blind[seat], taken[seat])
            assert h.points[seat] == p, f"hand {h.number}, seat {seat}"
            totals[seat] += p
        assert tuple(totals) == h.totals


def seeded_game(name: str, bots: str, seed: int, players: int = 4) -> Game:
    game = Game(load_rules(name), players=players, seed=seed)
    play_out(game, [BOTS[bots]() if bots != "mc" else BOTS[bots](samples=4) for _ in range(players)])
    assert game.over
    return game


@pytest.mark.parametrize("bots", ["random", "heuristic"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_whole_oh_hell_nil_games_follow_the_rules(bots, seed):
    game = seeded_game("oh-hell-nil", bots, seed)
    check_game(game, hook=True, points=nil_points)


def test_nil_blind_nil_and_blind_bids_all_happen_in_seeded_games():
    # the checker above is only as good as what the games contain: every choice must occur
    seen_calls, blind_bids = set(), 0
    for seed in (1, 2, 3):
        for bots in ("random", "heuristic"):
            for h in seeded_game("oh-hell-nil", bots, seed).history:
                seen_calls |= {c for c in h.calls if c}
                blind_bids += sum(1 for s, b in h.bids if h.blind[s] and not h.calls[s])
    assert seen_calls == {"nil", "blind_nil"} and blind_bids > 0


@pytest.mark.parametrize("bots", ["random", "heuristic"])
@pytest.mark.parametrize("seed", [1, 2])
def test_whole_simultaneous_games_follow_the_rules_and_no_bid_is_seen_before_all_have_bid(bots, seed):
    game = Game(load_rules("oh-hell-simultaneous"), players=4, seed=seed)
    players = [BOTS[bots]() for _ in range(4)]
    from whistdsl.players import decide

    while not game.over:
        seat = game.to_act
        if game.phase == "bidding":
            made = len(game.bid_log)
            for s in range(4):
                shown = game.view(s).bids
                assert all(b[0] == s for b in shown), "a hidden bid was shown before all had bid"
            assert made < 4
        game.act(decide(game, players[seat]))
        if game.phase == "play" and not game.tricks and not game.trick:
            assert len(game.view((seat + 1) % 4).bids) == 4, "all bids are shown once all have bid"
    check_game(game, hook=False, points=oh_hell_points)


@pytest.mark.parametrize("bots", ["random", "heuristic", "mc"])
def test_whole_highest_bidder_trump_games_follow_the_rules(bots):
    game = seeded_game("oh-hell-highest-bidder-trump", bots, 5)
    check_game(game, hook=True, points=oh_hell_points, trump_by_highest_bidder=True)
