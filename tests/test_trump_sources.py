"""Trump from anywhere (language 2's `trump.from`, `turned`, `seen`, and `none_when` reading the
turned card): the bundled `oh-hell-dealer-last-card`, with its score table worked out by hand and
whole seeded games checked by the independent checker (tests/independent.py); each source in
the engine, the records and replay; what the bots may know of the turned card.
"""

from __future__ import annotations

import copy
import json
import random

import pytest
from independent import Rules, check_record, suit
from typer.testing import CliRunner

from whistdsl import load_rules
from whistdsl.cli import app
from whistdsl.engine import Game
from whistdsl.engine.cards import NO_TRUMP
from whistdsl.players import BOTS, decide
from whistdsl.players.mc import sample_hands
from whistdsl.records.record import game_record
from whistdsl.records.replay import Disagreement, replay

runner = CliRunner()
NAME = "oh-hell-dealer-last-card"


def score_table(name: str, cards: int, players: int) -> list[list[int]]:
    result = runner.invoke(app, ["score", name, "--cards", str(cards), "--players", str(players)])
    assert result.exit_code == 0, result.output
    return [[int(x) for x in row.split()[1:]] for row in result.output.strip().splitlines()[1:]]


def played(rules, players: int, seed: int, kinds=("heuristic", "random")) -> dict:
    game = Game(rules, players=players, seed=seed)
    game.keep_rng_states = True
    bots = [BOTS[kinds[i % len(kinds)]]() for i in range(players)]
    while not game.over:
        game.act(decide(game, bots[game.to_act]))
    return json.loads(json.dumps(game_record(game, [kinds[i % len(kinds)] for i in range(players)])))


def rules_of(text: str):
    """A ruleset from YAML text (a version 2 house rule over a plain Oh Hell)."""
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "house.yaml"
        path.write_text(text, encoding="utf-8")
        return load_rules(str(path))


def house(trump: str, players: str = "{min: 3, max: 6, default: 4}", schedule: str = "[5, 4, 3]") -> str:
    return f"""whistdsl: 2
name: House trump
players: {players}
schedule: {schedule}
trump:
{trump}
bidding:
  allowed: not (is_last and bids_so_far + bid == hand_size)
scoring:
  points: tricks + (if made then 10 else 0)
"""


# ---------------------------------------------------------------- the bundled ruleset

# The basic scoring of the source (dkmgames.com): "one point for each trick made and a bonus of
# 10 if you make the exact amount of tricks bid". A 3-card hand, bid (rows) x tricks (columns):
#   bid 0: tricks 0 exact: 0 + 10 = 10; tricks 1, 2, 3 score 1, 2, 3
#   bid 1: 0; exact 1 + 10 = 11; 2; 3
#   bid 2: 0; 1; exact 2 + 10 = 12; 3
#   bid 3: 0; 1; 2; exact 3 + 10 = 13
SCORES_3 = [[10, 1, 2, 3], [0, 11, 2, 3], [0, 1, 12, 3], [0, 1, 2, 13]]
# A 13-card hand: bid 13 made: 13 + 10 = 23; bid 5, 4 tricks: 4; bid 0, 0 tricks: 10.


def test_the_score_of_a_hand_is_a_point_a_trick_and_ten_for_the_exact_bid():
    assert score_table(NAME, 3, 4) == SCORES_3
    table = score_table(NAME, 13, 4)
    assert table[13][13] == 23 and table[5][4] == 4 and table[0][0] == 10


def test_four_players_deal_one_up_to_thirteen_and_back_down():
    # "hand 1 one card ... the 13th hand ... 13; the 14th through 25th hand ... 12 to one"
    sizes = [h.size for h in load_rules(NAME).planned_hands(4)]
    assert sizes == [*range(1, 14), *range(12, 0, -1)]


def _trump(number: int, size: int, players: int, turn_up: str | None) -> str:
    # the next card's suit; in the hand that deals every card, the dealer's last card's suit
    return suit(turn_up) if turn_up is not None else "none"


DEALER_LAST = Rules(
    sizes=lambda players: [*range(1, 52 // players + 1), *range(52 // players - 1, 0, -1)],
    trump=_trump,
    score=lambda bid, tricks, size: tricks + (10 if tricks == bid else 0),
    # no card is left undealt when size * players == 52 (13 cards to 4): the dealer's last card
    turned=lambda number, size, players: "dealer_last" if size * players == 52 else "undealt",
)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_whole_games_agree_with_the_independent_checker(seed):
    record = played(load_rules(NAME), 4, seed)
    check_record(record, DEALER_LAST)
    thirteen = record["hands"][12]
    assert thirteen["cards"] == 13 and thirteen["trump_from"] == "dealer_last_card"
    assert thirteen["turn_up"] == thirteen["deal"][thirteen["dealer"]][-1]
    assert all(h["trump_from"] == "turn_up" for h in record["hands"] if h["number"] != 13)
    assert replay(record).complete


def test_the_independent_checker_catches_a_turned_card_that_is_not_the_dealers_last():
    from independent import Wrong

    record = played(load_rules(NAME), 4, 1)
    bad = copy.deepcopy(record)
    hand = bad["hands"][12]
    hand["turn_up"] = hand["deal"][hand["dealer"]][0]  # the dealer's first card, not its last
    hand["trump"] = suit(hand["turn_up"])
    with pytest.raises(Wrong, match="dealer's last card"):
        check_record(bad, DEALER_LAST)


def _to_hand(game: Game, number: int) -> None:
    bots = [BOTS["random"]() for _ in range(game.players)]
    while game.hand_number < number:
        game.act(decide(game, bots[game.to_act]))


def test_every_seat_knows_the_dealer_holds_the_shown_card_and_mc_deals_it_to_the_dealer():
    game = Game(load_rules(NAME), players=4, seed=5)
    _to_hand(game, 13)
    dealer, shown = game.dealer, game.turn_up
    assert shown in game.hands[dealer][shown >> 4]  # it stays in the dealer's hand
    other = (dealer + 1) % 4
    view = game.view(other)
    assert view.turn_up == shown and view.turn_up_place == "dealer" and view.trump_from == "dealer_last_card"
    rng = random.Random(0)
    for _ in range(20):
        hands = sample_hands(view, rng)
        assert shown in hands[dealer]
        assert all(shown not in hands[s] for s in hands if s != dealer)
        assert sorted(len(h) for s, h in hands.items()) == [13] * 4


def test_the_terminal_says_the_dealers_last_card_gives_trump():
    result = runner.invoke(app, ["play", NAME, "--watch", "--seed", "5", "--bots", "random"])
    assert result.exit_code == 0, result.output
    line = next(line for line in result.output.splitlines() if line.startswith("13 cards"))
    assert "the dealer's last card, " in line and "gives trump" in line and "held by" in line


# ---------------------------------------------------------------- a picture card means no trumps

PICTURE = "oh-hell-picture-no-trump"
# The Guardian: "A correct prediction earns 10 points, plus one point for each trick won. Those
# who fail in their bids get only one point per trick." The same table as above: a 3-card hand,
#   bid 0: 0 tricks exact 10; 1, 2, 3 tricks: 1, 2, 3 ... bid 3: 0, 1, 2; exact 3 + 10 = 13.
# A 7-card hand: bid 2, 2 tricks: 12; bid 2, 5 tricks: 5; bid 7, 7 tricks: 17.


def test_oh_hell_picture_scores_and_deals_seven_down_to_one():
    assert score_table(PICTURE, 3, 4) == SCORES_3
    table = score_table(PICTURE, 7, 4)
    assert table[2][2] == 12 and table[2][5] == 5 and table[7][7] == 17
    assert [h.size for h in load_rules(PICTURE).planned_hands(4)] == [7, 6, 5, 4, 3, 2, 1]


PICTURE_RULES = Rules(
    sizes=lambda players: [7, 6, 5, 4, 3, 2, 1],
    # "a picture card in any suit means no trumps": the turned card's face decides
    trump=lambda number, size, players, turn_up: "none" if turn_up[0] in "KQJ" else suit(turn_up),
    score=lambda bid, tricks, size: tricks + (10 if tricks == bid else 0),
)


def test_oh_hell_picture_games_agree_with_the_independent_checker():
    pictures = 0
    for seed in range(1, 9):
        record = played(load_rules(PICTURE), 4, seed)
        check_record(record, PICTURE_RULES)
        assert replay(record).complete
        pictures += sum(h["turn_up"][0] in "KQJ" for h in record["hands"])
    assert pictures > 0  # some hands were played without trumps


# ---------------------------------------------------------------- each source, in house rules


def test_a_card_turned_before_the_deal_and_set_aside_is_in_no_hand():
    rules = rules_of(house("  from: before_deal\n  turned: set_aside"))
    for seed in range(5):
        record = played(rules, 4, seed)
        for h in record["hands"]:
            dealt = [c for cards in h["deal"] for c in cards]
            assert h["turn_up"] is not None and h["turn_up"] not in dealt
            assert h["trump"] == suit_name_of(h["turn_up"]) and h["trump_from"] == "before_deal"
        assert replay(record).complete


def suit_name_of(card: str) -> str:
    return suit(card)


def test_a_card_turned_before_the_deal_and_dealt_as_usual_is_sometimes_in_a_hand():
    rules = rules_of(house("  from: before_deal\n  turned: dealt"))
    in_a_hand = 0
    for seed in range(6):
        record = played(rules, 4, seed)
        for h in record["hands"]:
            in_a_hand += any(h["turn_up"] in cards for cards in h["deal"])
        assert replay(record).complete
    # 5, 4 and 3 cards to 4 players from 52: 20, 16, 12 of the 52 cards are dealt
    assert in_a_hand > 0


def test_a_random_suit_is_drawn_from_the_seed_kept_in_the_record_and_replayed():
    rules = rules_of(house("  from: random"))
    record = played(rules, 4, 7)
    again = played(rules, 4, 7)
    assert [h["trump"] for h in record["hands"]] == [h["trump"] for h in again["hands"]]
    assert all(h["trump"] in ("spades", "hearts", "diamonds", "clubs") and h["turn_up"] is None for h in record["hands"])
    assert all(h["trump_from"] == "random" for h in record["hands"])
    assert len({h["trump"] for seed in range(8) for h in played(rules, 4, seed)["hands"]}) > 1
    assert replay(record).complete
    bad = copy.deepcopy(record)
    bad["hands"][0]["trump_from"] = "turn_up"
    with pytest.raises(Disagreement, match="trump came from turn up"):
        replay(bad)


PICTURES = 'turn_up_rank == "K" or turn_up_rank == "Q" or turn_up_rank == "J"'


def test_a_picture_card_turned_means_no_trump_and_the_card_stays_shown():
    rules = rules_of(house(f"  from: turn_up\n  none_when: {PICTURES}"))
    seen = {"picture": 0, "other": 0}
    for seed in range(12):
        record = played(rules, 4, seed)
        for h in record["hands"]:
            picture = h["turn_up"][0] in "KQJ"
            seen["picture" if picture else "other"] += 1
            assert h["trump"] == (None if picture else suit(h["turn_up"]))
        assert replay(record).complete
    assert seen["picture"] > 0 and seen["other"] > 0


def test_trump_shown_after_the_bidding_is_hidden_from_every_bidder():
    rules = rules_of(house("  from: turn_up\n  seen: after_bidding"))
    game = Game(rules, players=4, seed=3)
    bots = [BOTS["heuristic"]() for _ in range(4)]
    assert game.trump != NO_TRUMP or game.turn_up is not None
    while game.phase == "bidding":
        for seat in range(4):
            view = game.view(seat)
            assert view.trump_hidden and view.trump == NO_TRUMP and view.turn_up is None
            assert view.hand_env["trump"] == "none"
        game.act(decide(game, bots[game.to_act]))
    view = game.view(0)
    assert not view.trump_hidden and view.turn_up == game.turn_up and view.trump == game.trump
    while not game.over:
        game.act(decide(game, bots[game.to_act]))
    record = json.loads(json.dumps(game_record(game, ["heuristic"] * 4)))
    assert all(h["turn_up"] is not None for h in record["hands"])  # the record keeps it
    assert replay(record).complete


def test_mc_bids_and_plays_with_a_hidden_trump_and_the_dealers_card():
    for text in ("  from: turn_up\n  seen: after_bidding", "  from: dealer_last_card", "  from: random\n  seen: after_bidding"):
        rules = rules_of(house(text, schedule="[3, 2]"))
        game = Game(rules, players=3, seed=2)
        bots = [BOTS["mc"](samples=4), BOTS["heuristic"](), BOTS["random"]()]
        while not game.over:
            game.act(decide(game, bots[game.to_act]))
        assert len(game.history) == 2


# ---------------------------------------------------------------- jokers as top trumps

JOKERS = """whistdsl: 2
name: Oh Hell with two jokers as top trumps
players: {{min: 3, max: 6, default: 4}}
deck:
  specials:
    big_joker: {{count: 1, mark: BJ}}
    little_joker: {{count: 1, mark: LJ}}
schedule: [6, 5, 4, 3, 2, 1]
trump:
  from: turn_up
  specials: [big_joker, little_joker]
  specials_without_trump: {without}
bidding:
  allowed: not (is_last and bids_so_far + bid == hand_size)
play:
  when_void: must_trump
scoring:
  points: tricks + (if made then 10 else 0)
"""


def _joker_trump(number: int, size: int, players: int, turn_up: str | None) -> str:
    # the turned card's suit; a turned joker (or no card left) means no trump
    return "none" if turn_up is None or turn_up in ("BJ", "LJ") else suit(turn_up)


@pytest.mark.parametrize("without", ["highest", "lowest"])
def test_jokers_as_top_trumps_agree_with_the_independent_checker(without):
    rules = rules_of(JOKERS.format(without=without))
    checker = Rules(
        sizes=lambda players: [6, 5, 4, 3, 2, 1],
        trump=_joker_trump,
        score=lambda bid, tricks, size: tricks + (10 if tricks == bid else 0),
        must_trump=True,
        top_trumps=("BJ", "LJ"),
        top_trumps_without_trump=without,
    )
    jokers_played = 0
    for seed in range(1, 13):
        record = played(rules, 4, seed)
        check_record(record, checker)
        assert replay(record).complete
        jokers_played += sum(c["card"] in ("BJ", "LJ") for h in record["hands"] for t in h["tricks"] for c in t["cards"])
    assert jokers_played > 0


def test_a_joker_follows_as_a_trump_and_a_led_joker_asks_for_trumps():
    from whistdsl.engine.cards import card, new_hand, special_card
    from whistdsl.engine.tricks import trick_play

    rules = rules_of(JOKERS.format(without="highest"))
    play = trick_play(rules)
    big, little = special_card(0), special_card(1)
    hearts = 1

    def hand(*cards):
        h = new_hand(True)
        for c in cards:
            h[c >> 4].append(c)
        return h

    # hearts are trumps and led: out of hearts but for the little joker, it must be played
    assert play.legal(hand(card("A", "S"), little), [(0, card("2", "H"))], hearts, "must_trump") == [little]
    # a led joker asks for trumps: hearts or the other joker, not spades
    assert sorted(play.legal(hand(card("A", "S"), card("3", "H"), big), [(0, little)], hearts, "free")) == sorted([card("3", "H"), big])
    # the big joker beats the little one, which beats the ace of trumps
    assert play.winner([(0, card("A", "H")), (1, little), (2, big)], hearts) == 2
    assert play.winner([(0, card("A", "H")), (1, little), (2, card("K", "S"))], hearts) == 1
    # spades led, hearts trump: a joker may not be played by one who holds a spade
    assert play.legal(hand(card("A", "S"), big), [(0, card("2", "S"))], hearts, "free") == [card("A", "S")]
    # without trump (highest): the joker wins; (lowest): it loses to the led suit
    assert play.winner([(0, card("2", "S")), (1, little), (2, card("A", "S"))], NO_TRUMP) == 1
    low = trick_play(rules_of(JOKERS.format(without="lowest")))
    assert low.winner([(0, little), (1, card("2", "S")), (2, card("A", "S"))], NO_TRUMP) == 2


def test_replay_shows_where_each_hands_trump_came_from(tmp_path):
    record = played(load_rules(NAME), 4, 2)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    result = runner.invoke(app, ["replay", str(path), "--show", "--tricks"])
    assert result.exit_code == 0, result.output
    thirteen = next(line for line in result.output.splitlines() if line.startswith("Hand 13:"))
    assert f"the dealer's last card {record['hands'][12]['turn_up']}" in thirteen
    assert "turned up" in next(line for line in result.output.splitlines() if line.startswith("Hand 12:"))
