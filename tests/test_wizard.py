"""The bundled `wizard` ruleset against Wizard's published rules.

- A score table worked out by hand from the rules (20 points for the bid made plus 10 a trick
  taken; 10 points off for every trick over or under the bid).
- Tricks set up by hand: a led Jester lets the next card set the suit, a led Wizard leaves
  nothing to follow, the first Wizard wins, a trick of Jesters goes to the first.
- Whole seeded games (3 to 6 players, random and heuristic bots) checked by an independent
  checker written from the rules, on the cards as text: who leads, which cards were legal, who
  won each trick, the trump, the deal (60 cards, each suited card once, 4 Wizards, 4 Jesters),
  the schedule (round r deals r cards, 60 / players rounds), the scores and the totals.

Sources: wizardcards.com ("Getting started"), goodsams-florida.org/GameRules-Wizard.html,
en.1jour-1jeu.com/cardgame/2010-wizard.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from whistdsl import load_rules
from whistdsl.engine import Game, IllegalAction, PresetDeal
from whistdsl.engine.cards import card_text, parse_card
from whistdsl.players import RandomPlayer, play_out
from whistdsl.players.heuristic import HeuristicPlayer

RULES = load_rules("wizard")


# ---------------------------------------------------------------- the score table, by hand

# 3 cards a player. Made: 20 + 10 * tricks: bid 0 -> 20, 1 -> 30, 2 -> 40, 3 -> 50.
# Missed: -10 per trick off: |bid - tricks| = 1 -> -10, 2 -> -20, 3 -> -30.
SCORE_TABLE_3 = [
    # tricks: 0    1    2    3
    [20, -10, -20, -30],  # bid 0: made (20 + 0), then 1, 2, 3 off
    [-10, 30, -10, -20],  # bid 1: 1 off, made (20 + 10), 1 off, 2 off
    [-20, -10, 40, -10],  # bid 2: 2 off, 1 off, made (20 + 20), 1 off
    [-30, -20, -10, 50],  # bid 3: 3, 2, 1 off, made (20 + 30)
]


def test_the_score_table_is_the_published_one():
    out = subprocess.run([sys.executable, "-m", "whistdsl", "score", "wizard", "-c", "3"], capture_output=True, text=True, check=True).stdout
    rows = [line.split()[1:] for line in out.splitlines() if line[:1].isdigit()]
    assert [[int(x) for x in row] for row in rows] == SCORE_TABLE_3


# ---------------------------------------------------------------- tricks set up by hand


def one_trick(hands: list[str], plays: list[str], turn_up: str | None = "2C", dealer: int = 2) -> Game:
    """A hand for 3 players dealt as given (`hands[seat]` as text; the hand of that size in the
    schedule), every bid 0, then `plays` in order (the seat left of the dealer leads)."""
    size = len(hands[0].split())
    deal = tuple(tuple(parse_card(c, RULES.specials) for c in h.split()) for h in hands)
    turned = parse_card(turn_up, RULES.specials) if turn_up else None
    game = Game(RULES, players=3, seed=1, deals={size: PresetDeal(deal, dealer=dealer, turn_up=turned)}, start_at=size)
    for _ in range(3):
        game.bid(0)
    for text in plays:
        game.play(parse_card(text, RULES.specials))
    return game


def test_a_led_jester_lets_the_next_card_set_the_suit():
    # dealer 2: seat 0 leads a Jester; seat 1 plays the 5 of hearts: hearts are to be followed,
    # so seat 2, holding a heart, may not play its club (a trump); the king of hearts wins
    game = one_trick(["JE 3S", "5H 4S", "KH 9C"], ["JE", "5H"], turn_up="2C")
    with pytest.raises(IllegalAction) as e:
        game.play(parse_card("9C"))
    assert e.value.reason == "must_follow"
    game.play(parse_card("KH"))
    assert game.tricks[0].winner == 2


def test_a_led_wizard_leaves_nothing_to_follow_and_wins():
    # seat 0 leads a Wizard: nothing to follow, seat 1 plays a spade; seat 2 plays the ace of
    # trumps (clubs): the first Wizard still wins
    game = one_trick(["W 3S", "4S 5H", "AC 9H"], ["W", "4S", "AC"], turn_up="2C")
    assert game.tricks[0].winner == 0


def test_the_first_of_two_wizards_wins_and_a_wizard_may_be_played_when_holding_the_suit():
    # seat 0 leads the 3 of spades; seat 1 holds a spade and plays a Wizard anyway; seat 2 plays
    # another Wizard: the first Wizard (seat 1) wins
    game = one_trick(["3S 4D", "W 5S", "W 6S"], ["3S", "W", "W"], turn_up="2C")
    assert game.tricks[0].winner == 1


def test_a_trick_of_jesters_goes_to_the_first_and_a_jester_always_loses_otherwise():
    game = one_trick(["JE 3S", "JE 5S", "JE 6S"], ["JE", "JE", "JE"], turn_up="2C")
    assert game.tricks[0].winner == 0
    # a Jester played to a spade lead loses even to a lower spade
    game = one_trick(["2S 3D", "JE 5S", "3S 6S"], ["2S", "JE", "3S"], turn_up="2C")
    assert game.tricks[0].winner == 2


def test_a_turned_jester_means_no_trump():
    game = one_trick(["2S", "3D", "4H"], [], turn_up="JE")
    assert game.trump < 0


def test_a_special_card_is_typed_by_its_mark_or_its_name():
    assert parse_card("w", RULES.specials) == parse_card("Wizard", RULES.specials)
    assert card_text(parse_card("jester", RULES.specials), RULES.specials) == "JE"  # not J, a jack's letter (W438)
    assert card_text(parse_card("JS", RULES.specials), RULES.specials) == "JS"  # the jack of spades


# ---------------------------------------------------------------- whole games, checked independently

RANKS = "23456789TJQKA"
SPECIALS = ("W", "JE")


def suit(card: str) -> str | None:
    return None if card in SPECIALS else card[1]


def suit_to_follow(played: list[str]) -> str | None:
    """A Jester led passes the choice on; a Wizard led leaves nothing to follow."""
    for c in played:
        if c == "JE":
            continue
        return None if c == "W" else c[1]
    return None


def may_play(hand: list[str], played: list[str], card: str) -> bool:
    if card in SPECIALS:
        return True  # Wizards and Jesters at any time
    led = suit_to_follow(played)
    if led is None or not any(suit(c) == led for c in hand):
        return True
    return suit(card) == led


def trick_winner(cards: list[str], trump: str | None) -> int:
    """The index of the winning card: the first Wizard; else the highest trump; else the highest
    card of the suit led; a trick of Jesters only: the first."""
    if "W" in cards:
        return cards.index("W")
    trumps = [i for i, c in enumerate(cards) if trump is not None and suit(c) == trump]
    if trumps:
        return max(trumps, key=lambda i: RANKS.index(cards[i][0]))
    led = suit_to_follow(cards)
    followed = [i for i, c in enumerate(cards) if led is not None and suit(c) == led]
    if followed:
        return max(followed, key=lambda i: RANKS.index(cards[i][0]))
    return 0


def score(bid: int, tricks: int) -> int:
    return 20 + 10 * tricks if bid == tricks else -10 * abs(bid - tricks)


SUIT_OF_NAME = {"spades": "S", "hearts": "H", "diamonds": "D", "clubs": "C"}


def check_game(game: Game) -> None:
    n = game.players
    text = lambda c: card_text(c, RULES.specials)  # noqa: E731
    assert [h.size for h in game.history] == list(range(1, 60 // n + 1))
    totals = [0] * n
    for h in game.history:
        # the deal: r cards each from 60 (52 suited once, 4 Wizards, 4 Jesters)
        dealt = [text(c) for cards in h.deal for c in cards] + ([text(h.turn_up)] if h.turn_up is not None else [])
        suited = [c for c in dealt if c not in SPECIALS]
        assert len(suited) == len(set(suited)) and dealt.count("W") <= 4 and dealt.count("JE") <= 4
        assert all(len(cards) == h.size for cards in h.deal)
        # trump: the turned card's suit; a turned Jester (or, until the dealer's choice lands, a
        # Wizard) none; the last round turns no card
        if h.size * n == 60:
            assert h.turn_up is None
        turned = text(h.turn_up) if h.turn_up is not None else None
        trump = suit(turned) if turned is not None else None
        if turned == "W":  # a turned Wizard: the dealer names one of the four suits
            ((seat, decision, choice),) = h.choices
            assert seat == h.dealer and decision == "trump" and choice in SUIT_OF_NAME
            trump = SUIT_OF_NAME[choice]
        else:
            assert h.choices == ()
        assert (None if h.trump < 0 else SUIT_OF_NAME[["spades", "hearts", "diamonds", "clubs"][h.trump]]) == trump
        # the play: the seat left of the dealer leads, then each trick's winner
        hands = [[text(c) for c in cards] for cards in h.deal]
        leader = (h.dealer + 1) % n
        taken = [0] * n
        for trick in h.tricks:
            seats = [s for s, _ in trick.cards]
            assert seats == [(leader + i) % n for i in range(n)]
            played: list[str] = []
            for seat, c in trick.cards:
                card = text(c)
                assert may_play(hands[seat], played, card), (h.number, hands[seat], played, card)
                hands[seat].remove(card)
                played.append(card)
            win = seats[trick_winner(played, trump)]
            assert trick.winner == win, (h.number, played, trump)
            taken[win] += 1
            leader = win
        assert list(h.taken) == taken
        bids = dict(h.bids)
        for seat in range(n):
            points = score(bids[seat], taken[seat])
            assert h.points[seat] == points
            totals[seat] += points
        assert list(h.totals) == totals


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_whole_games_with_random_players_follow_the_published_rules(players):
    for seed in range(3):
        game = Game(RULES, players=players, seed=100 * players + seed)
        play_out(game, [RandomPlayer() for _ in range(players)])
        check_game(game)


def test_a_whole_game_of_heuristic_players_follows_the_published_rules():
    game = Game(RULES, players=4, seed=7)
    play_out(game, [HeuristicPlayer(), RandomPlayer(), HeuristicPlayer(), RandomPlayer()])
    check_game(game)


def test_the_heuristic_player_values_wizards():
    """A hand of Wizards is worth as many tricks as Wizards: the heuristic bids them."""
    deal = tuple(tuple(parse_card(c, RULES.specials) for c in h.split()) for h in ["W W 2S", "3S 4S 5S", "6S 7S 8S"])
    game = Game(RULES, players=3, seed=1, deals={3: PresetDeal(deal, dealer=2, turn_up=parse_card("2C"))}, start_at=3)
    assert game.to_act == 0
    bid = HeuristicPlayer().act(game.view(0), game.legal_actions(), game.rng)
    assert bid >= 2


def test_a_record_of_wizard_writes_special_cards_by_their_marks_and_replays(tmp_path):
    import json

    from whistdsl.records.record import game_record
    from whistdsl.records.replay import replay

    game = Game(RULES, players=3, seed=5)
    play_out(game, [RandomPlayer() for _ in range(3)])
    record = json.loads(json.dumps(game_record(game)))
    last = record["hands"][-1]["deal"]  # the last round deals all 60 cards: every Wizard and Jester
    assert sorted(c for cards in last for c in cards if c in SPECIALS) == ["JE"] * 4 + ["W"] * 4
    assert replay(record, RULES).game.totals == game.totals
    path = tmp_path / "wizard.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    shown = subprocess.run([sys.executable, "-m", "whistdsl", "replay", str(path), "--show", "--tricks"], capture_output=True, text=True)
    assert shown.returncode == 0, shown.stderr
    assert " W " in shown.stdout or " W\n" in shown.stdout


def test_the_mc_player_samples_wizards_and_jesters_from_the_unseen_cards():
    from collections import Counter

    from whistdsl.players.mc import MonteCarloPlayer, sample_hands

    game = Game(RULES, players=4, seed=21, start_at=6)  # 6 cards each: 24 of 60, one turned
    view = game.view(0)
    hands = sample_hands(view, random_rng(1))
    cards = Counter(c for h in hands.values() for c in h)
    if view.turn_up is not None:
        cards[view.turn_up] += 1
    wizard, jester = (parse_card(m, RULES.specials) for m in ("W", "JE"))
    assert cards[wizard] <= 4 and cards[jester] <= 4
    assert all(n == 1 for c, n in cards.items() if c not in (wizard, jester))
    assert all(len(h) == 6 for h in hands.values())
    mc = MonteCarloPlayer(samples=3)
    while game.hand_number == 6:  # one whole hand with mc in every seat
        seat = game.to_act
        view = game.view(seat)
        action = mc.act(view, list(view.legal), game.rng)
        assert action in view.legal
        game.act(action)
    assert sum(game.history[-1].taken) == 6


def random_rng(seed: int):
    import random

    return random.Random(seed)
