"""The engine plays whole games of any ruleset by the rules: checked hand by hand from the record.

The checker below is written independently of the engine: it re-derives follow-suit,
must-trump, the hook, trick winners and totals from the record's raw facts.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from whistdsl import load_rules
from whistdsl.engine import Game, IllegalAction
from whistdsl.engine.cards import parse_card
from whistdsl.players import RandomPlayer, decide, play_out
from whistdsl.records.record import game_record, read_exact

SUIT_OF = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
RANK_ORDER = "23456789TJQKA"


def suit(card: str) -> str:
    return SUIT_OF[card[1]]


def beats(a: str, b: str) -> bool:
    return RANK_ORDER.index(a[0]) > RANK_ORDER.index(b[0])


def play_random_game(name: str, players: int, seed: int) -> dict:
    game = Game(load_rules(name), players=players, seed=seed)
    play_out(game, [RandomPlayer() for _ in range(players)])
    return game_record(game, ["random"] * players)


def check_record(record: dict, *, must_trump: bool, hook: bool, points) -> None:
    """Every hand of a record obeys the rules; `points(bid, tricks, hand)` is the scoring rule."""
    n = len(record["players"])
    totals = [0] * n
    for hand in record["hands"]:
        size = hand["cards"]
        playing = [s for s in range(n) if s not in hand["sitting_out"]]
        dealt = [c for s in playing for c in hand["deal"][s]]
        assert all(len(hand["deal"][s]) == size for s in playing)
        assert all(hand["deal"][s] == [] for s in hand["sitting_out"])
        assert len(set(dealt)) == len(dealt), "a card was dealt twice"
        if hand["turn_up"] is not None:
            assert hand["turn_up"] not in dealt
        bids = {b["seat"]: b["bid"] for b in hand["bids"]}
        assert sorted(bids) == playing
        assert all(0 <= b <= size for b in bids.values())
        if hook:
            assert sum(bids.values()) != size, f"hand {hand['number']}: the hook rule was broken"
        held = {s: set(hand["deal"][s]) for s in playing}
        played: set[str] = set()
        taken = [0] * n
        trump = hand["trump"]
        assert len(hand["tricks"]) == size
        for trick in hand["tricks"]:
            cards = trick["cards"]
            assert [c["seat"] for c in cards][0] == trick["leader"]
            assert sorted(c["seat"] for c in cards) == playing
            led = suit(cards[0]["card"])
            for c in cards:
                seat, card = c["seat"], c["card"]
                assert card in held[seat], f"seat {seat} played {card}, which it does not hold"
                if suit(card) != led:
                    assert not any(suit(x) == led for x in held[seat]), f"seat {seat} did not follow suit"
                    if must_trump and trump is not None and suit(card) != trump:
                        assert not any(suit(x) == trump for x in held[seat]), f"seat {seat} did not trump"
                held[seat].discard(card)
                played.add(card)
            trumps = [c for c in cards if trump is not None and suit(c["card"]) == trump]
            contenders = trumps or [c for c in cards if suit(c["card"]) == led]
            best = contenders[0]
            for c in contenders[1:]:
                if beats(c["card"], best["card"]):
                    best = c
            assert trick["winner"] == best["seat"], "wrong trick winner"
            taken[best["seat"]] += 1
        assert played == set(dealt), "every card dealt is played once"
        assert hand["taken"] == taken
        assert sum(taken) == size
        for s in range(n):
            expected = points(bids[s], taken[s], hand) if s in playing else 0
            assert read_exact(hand["points"][s]) == expected
            totals[s] += expected
        assert [read_exact(t) for t in hand["totals"]] == totals
    if "final" in record:
        assert [read_exact(t) for t in record["final"]["totals"]] == totals


def serbian_points(bid: int, tricks: int, hand: dict) -> int:
    if bid == tricks:
        return 10 + tricks
    return -10 if tricks == 0 else tricks


def romanian_points(bid: int, tricks: int, hand: dict) -> int:
    return 5 + tricks if bid == tricks else -abs(bid - tricks)


@pytest.mark.parametrize("seed", range(12))
def test_serbian_games_obey_every_rule_hand_by_hand(seed):
    record = play_random_game("serbian", 4, seed)
    check_record(record, must_trump=True, hook=True, points=serbian_points)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize("seed", range(5))
def test_romanian_games_obey_every_rule_hand_by_hand(players, seed):
    record = play_random_game("romanian", players, seed)
    check_record(record, must_trump=True, hook=True, points=romanian_points)


def test_serbian_plays_28_hands_with_the_trump_cycle_and_the_deal_passing_right():
    record = play_random_game("serbian", 4, 7)
    hands = record["hands"]
    assert [h["cards"] for h in hands] == [*range(13, 0, -1), 1, 1, 1, *range(2, 14)]
    cycle = ["spades", "diamonds", "hearts", "clubs", None]
    assert [h["trump"] for h in hands] == [cycle[i % 5] for i in range(28)]
    dealers = [h["dealer"] for h in hands]
    # counter-clockwise: the deal passes from seat i to seat i - 1
    assert all(b == (a - 1) % 4 for a, b in zip(dealers, dealers[1:]))
    for h in hands:
        right_of_dealer = (h["dealer"] - 1) % 4
        assert h["bids"][0]["seat"] == right_of_dealer
        assert h["tricks"][0]["leader"] == right_of_dealer
        assert h["bids"][-1]["seat"] == h["dealer"]


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_romanian_plays_3p_plus_12_hands_with_stripped_deck_and_turn_up_trump(players):
    record = play_random_game("romanian", players, 7)
    hands = record["hands"]
    assert len(hands) == 3 * players + 12
    ones, eights = [1] * players, [8] * players
    assert [h["cards"] for h in hands] == ones + [2, 3, 4, 5, 6, 7] + eights + [7, 6, 5, 4, 3, 2] + ones
    deck_ranks = "AKQJT98765432"[: 2 * players]  # 8 cards per player: 2 * players ranks per suit
    for h in hands:
        for cards in h["deal"]:
            assert all(c[0] in deck_ranks for c in cards)
        if h["cards"] == 8:
            assert h["trump"] is None and h["turn_up"] is None
        else:
            assert h["turn_up"] is not None and h["turn_up"][0] in deck_ranks
            assert h["trump"] == SUIT_OF[h["turn_up"][1]]
        if players == 6:
            assert h["sitting_out"] == [h["dealer"]]
            assert all(b["seat"] != h["dealer"] for b in h["bids"])
        else:
            assert h["sitting_out"] == []
        # clockwise: the player left of the dealer bids first and leads
        first = (h["dealer"] + 1) % players
        assert h["bids"][0]["seat"] == first and h["tricks"][0]["leader"] == first
    dealers = [h["dealer"] for h in hands]
    assert all(b == (a + 1) % players for a, b in zip(dealers, dealers[1:]))


def test_romanian_32_card_deck_at_4_players():
    record = play_random_game("romanian", 4, 11)
    eight_card_hand = next(h for h in record["hands"] if h["cards"] == 8)
    dealt = [c for cards in eight_card_hand["deal"] for c in cards]
    assert len(dealt) == 32
    assert {c[0] for c in dealt} == set("AKQJT987")


def test_same_ruleset_players_and_seed_give_the_identical_game():
    a = play_random_game("romanian", 5, 1234)
    b = play_random_game("romanian", 5, 1234)
    c = play_random_game("romanian", 5, 1235)
    assert a == b
    assert a["hands"] != c["hands"]


def test_step_by_step_play_and_fast_simulation_give_the_same_game():
    rules = load_rules("serbian")
    fast = Game(rules, players=4, seed=99)
    play_out(fast, [RandomPlayer()] * 4)
    slow = Game(rules, players=4, seed=99)
    while not slow.over:
        slow.act(decide(slow, RandomPlayer()))
    assert game_record(fast) == game_record(slow)


def test_an_illegal_action_is_refused_with_a_reason_and_changes_nothing():
    game = Game(load_rules("serbian"), players=4, seed=5, first_dealer=0)
    # bid until the dealer (seat 0, bidding last) faces the hook
    while game.to_act != game.dealer:
        game.act(0)
    before = game_record(game)
    forbidden = game.forbidden_bids()
    assert forbidden == [13]  # 0 + 0 + 0 + 13 would make the bids add up to 13 cards
    with pytest.raises(IllegalAction, match="add up"):
        game.act(13)
    with pytest.raises(IllegalAction):
        game.act(14)
    assert game_record(game) == before and game.to_act == 0
    game.act(1)
    # now the play: a card the player to act does not hold
    seat = game.to_act
    mine = set(game.legal_actions())
    not_mine = next(c for c in game.deck if c not in mine and all(c not in s for s in game.hands[seat]))
    with pytest.raises(IllegalAction, match="do not hold"):
        game.act(not_mine)
    assert game.to_act == seat


def test_must_follow_suit_refusal_names_the_rule():
    for seed in range(50):
        game = Game(load_rules("serbian"), players=4, seed=seed, first_dealer=0)
        rng = random.Random(seed)
        while game.phase == "bidding":
            game.act(rng.choice(game.legal_actions()))
        game.act(game.legal_actions()[0])  # a lead
        seat = game.to_act
        legal = set(game.legal_actions())
        off_suit = [c for s in game.hands[seat] for c in s if c not in legal]
        if off_suit:
            with pytest.raises(IllegalAction, match="follow suit"):
                game.act(off_suit[0])
            assert game.to_act == seat and len(game.trick) == 1
            return
    pytest.fail("no deal in 50 seeds let a follower break suit")


def test_forehead_view_holds_the_other_cards_and_not_its_own():
    rules = load_rules("romanian-forehead")
    game = Game(rules, players=4, seed=3)
    while rules.kinds[game.plan[game.index].kind].view != "forehead":
        game.act(decide(game, RandomPlayer()))
    seat = game.to_act
    view = game.view(seat)
    assert view.view == "forehead"
    assert view.hand is None
    assert set(view.others) == {s for s in range(4) if s != seat}
    for other, cards in view.others.items():
        assert sorted(cards) == sorted(c for s in game.hands[other] for c in s)
    own = {c for s in game.hands[seat] for c in s}
    assert not own & {c for cards in view.others.values() for c in cards}


def test_blind_view_holds_no_cards_at_bidding_time_and_the_cards_after():
    rules = load_rules("romanian-nv")
    game = Game(rules, players=3, seed=4)
    while rules.kinds[game.plan[game.index].kind].view != "blind":
        game.act(decide(game, RandomPlayer()))
    assert game.phase == "bidding"
    view = game.view(game.to_act)
    assert view.hand is None and view.others == {}
    assert view.legal is not None  # bids are still offered
    while game.phase == "bidding":
        game.act(game.legal_actions()[0])
    seat = game.to_act
    assert sorted(game.view(seat).hand) == sorted(c for s in game.hands[seat] for c in s)


def test_cards_are_written_rank_then_suit_and_read_leniently():
    ten_of_spades = parse_card("TS")
    assert parse_card("10s") == parse_card("ts") == parse_card("10♠") == ten_of_spades
    assert parse_card("qh") == parse_card("Q♥")


def test_fractional_points_stay_exact_in_totals():
    rules = load_rules("scoring/trick-points")
    game = Game(rules, players=4, seed=2)
    play_out(game, [RandomPlayer()] * 4)
    record = game_record(game)
    for hand in record["hands"]:
        for p in hand["points"]:
            assert isinstance(p, int) or "/" in p
    totals = [sum(read_exact(h["points"][s]) for h in record["hands"]) for s in range(4)]
    assert [Fraction(read_exact(t)) for t in record["final"]["totals"]] == totals


def test_bidding_limits_that_ignore_the_hand_size_still_offer_only_bids_up_to_it(tmp_path):
    from whistdsl.rules.lint import rules_from_data

    data = dict(load_rules("romanian").source)
    data["bidding"] = {"allowed": "bid <= 3"}
    rules = rules_from_data(data, "capped.yaml")
    game = Game(rules, players=4, seed=1)
    seen = {}
    while not game.over:
        if game.phase == "bidding":
            seen.setdefault(game.hand_size, game.legal_actions())
        game.act(game.legal_actions()[0])
    assert seen[1] == [0, 1]
    assert seen[2] == [0, 1, 2]
    assert seen[8] == [0, 1, 2, 3]


def test_memoised_scoring_keys_on_the_running_values_it_reads():
    # the streak bonus reads a running value: the same bid and tricks in a hand of the same size
    # earn different bonuses when the seats' streaks differ; each bonus is checked against the streak
    # rule worked out from the record's bids and tricks alone (tests/test_variant_games.py), so
    # a memo that ignored the running values would hand one seat another seat's bonus
    from test_variant_games import streak_bonuses

    rules = load_rules("romanian-streak-players")
    bonuses = set()
    by_result: dict[tuple, set] = {}  # (hand size, bid, tricks) -> the bonuses it earned
    for seed in range(6):
        game = Game(rules, players=3, seed=seed)
        play_out(game, [RandomPlayer()] * 3)
        hands = game_record(game)["hands"]
        expected = streak_bonuses(hands, 3, 4, 10, zeros_cancel=False)  # players + 1 = 4 in a row: 10
        totals = [0, 0, 0]
        for hand, want in zip(hands, expected):
            bids = {b["seat"]: b["bid"] for b in hand["bids"]}
            for seat in range(3):
                assert hand["bonus"][seat] == want[seat], f"seed {seed}, hand {hand['number']}, seat {seat}"
                assert hand["points"][seat] == romanian_points(bids[seat], hand["taken"][seat], hand) + want[seat]
                totals[seat] += hand["points"][seat]
                by_result.setdefault((hand["cards"], bids[seat], hand["taken"][seat]), set()).add(want[seat])
            assert hand["totals"] == totals
            bonuses.update(want)
    assert -10 in bonuses
    assert any(len(b) > 1 for b in by_result.values()), "no result earned two different bonuses"


def test_random_play_can_take_over_in_the_middle_of_a_trick():
    rules = load_rules("serbian")
    game = Game(rules, players=4, seed=3)
    while game.phase == "bidding":
        game.act(game.legal_actions()[0])
    game.act(game.legal_actions()[0])  # one card of the first trick
    chooser = RandomPlayer().chooser(game.rng)
    game.play_tricks_unobserved([chooser] * 4)
    first = game.history[0].tricks[0]
    assert [s for s, _ in first.cards] == [(first.leader - i) % 4 for i in range(4)]  # counter-clockwise
    check_record(game_record(game), must_trump=True, hook=True, points=serbian_points)
