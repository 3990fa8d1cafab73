"""Wild cards (`deck.specials.<name>.wild`): a joker that takes the suit its holder declares,
worked by hand (its written form, the legal cards with and without the suit led, the suits a
rule lets it take, a whole hand's tricks and points, the refusals, the voids it shows), and
whole games of docs/examples/oh-hell-joker.yaml checked by the independent checker
(tests/independent.py), replayed, and played legally by every bot."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from checked_games import checked_record
from independent import Rules, Wrong, check_record

from whistdsl import load_rules
from whistdsl.engine import Game
from whistdsl.engine.cards import CardSyntaxError, card_text, card_words, new_hand, parse_card, special_card
from whistdsl.engine.errors import IllegalAction
from whistdsl.engine.state import PresetDeal
from whistdsl.engine.tricks import trick_play
from whistdsl.explain import explain
from whistdsl.players.mc import voids
from whistdsl.records.replay import Disagreement, replay

JOKER = Path(__file__).resolve().parent.parent / "docs" / "examples" / "oh-hell-joker.yaml"
SPADES, HEARTS, DIAMONDS, CLUBS = 0, 1, 2, 3


def load_rules_text(text: str):
    """A ruleset from YAML text, through a file as a user's would be read."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "house.yaml"
        path.write_text(text, encoding="utf-8")
        return load_rules(str(path))


def with_joker(takes: str, when_void: str = "free"):
    """The example with its joker taking `takes` and the rule `when_void`."""
    text = JOKER.read_text(encoding="utf-8").replace("wild: any", f"wild: {takes}")
    return load_rules_text(text + f"play:\n  when_void: {when_void}\n")


def hand(rules, *texts: str) -> list[list[int]]:
    h = new_hand(specials=True)
    for c in (parse_card(t, rules.specials) for t in texts):
        h[c >> 4].append(c)
    return h


def texts(rules, cards) -> set[str]:
    return {card_text(c, rules.specials) for c in cards}


def test_a_played_joker_is_written_with_its_suit_and_is_above_the_ace():
    rules = load_rules(str(JOKER))
    joker = special_card(0)
    # the first (only) kind of wild card: strength 15 of the suit taken, the ace is 12
    assert parse_card("JK=H", rules.specials) == HEARTS * 16 + 15
    assert parse_card("jk=♥", rules.specials) == parse_card("joker=hearts", rules.specials) == HEARTS * 16 + 15
    assert parse_card("JK", rules.specials) == joker
    assert card_text(CLUBS * 16 + 15, rules.specials) == "JK=C"
    assert card_words(CLUBS * 16 + 15, rules.specials) == "joker as clubs"
    with pytest.raises(CardSyntaxError, match="JK=H"):
        parse_card("JK=X", rules.specials)
    with pytest.raises(CardSyntaxError, match="only a wild card"):
        parse_card("QS=H", ())


def test_a_second_and_third_kind_of_wild_card_take_the_places_below():
    rules = load_rules_text(
        "whistdsl: 2\nextends: oh-hell\ndeck:\n  specials:\n"
        "    big: {count: 1, mark: BJ, wild: any}\n    wizard: {count: 1, mark: W}\n    small: {count: 1, mark: SJ, wild: any}\n"
        "play:\n  always_playable: [wizard]\ntrick:\n  winner: [first wizard, highest trump, highest led]\n"
    )
    assert parse_card("BJ=S", rules.specials) == 15 and parse_card("SJ=S", rules.specials) == 14
    assert card_text(14, rules.specials) == "SJ=S"


def test_the_legal_cards_with_a_joker_any_suit():
    rules = load_rules(str(JOKER))
    play = trick_play(rules)
    led_hearts = [(1, parse_card("KH"))]
    # holding a heart: follow with it, or the joker as a heart (not as another suit)
    h = hand(rules, "JK", "5H", "2C")
    assert texts(rules, play.legal(h, led_hearts, SPADES, "free")) == {"5H", "JK=H"}
    # void in hearts: any card, the joker as any of the four suits
    h = hand(rules, "JK", "2C")
    assert texts(rules, play.legal(h, led_hearts, SPADES, "free")) == {"2C", "JK=S", "JK=H", "JK=D", "JK=C"}
    # leading: any card, the joker as any suit
    assert texts(rules, play.legal(h, [], SPADES, "free")) == {"2C", "JK=S", "JK=H", "JK=D", "JK=C"}
    # void in hearts and must trump, holding a trump: a trump, the joker as a trump, or the
    # joker as a heart (a card of the led suit always follows); not as a club or diamond
    h = hand(rules, "JK", "3S", "2C")
    assert texts(rules, play.legal(h, led_hearts, SPADES, "must_trump")) == {"3S", "JK=S", "JK=H"}


def test_the_suits_a_rule_lets_the_joker_take():
    led_hearts = [(1, parse_card("KH"))]
    trump_only = with_joker("trump")
    h = hand(trump_only, "JK", "2C")
    assert texts(trump_only, trick_play(trump_only).legal(h, led_hearts, SPADES, "free")) == {"2C", "JK=S"}
    # without trump: any suit
    assert texts(trump_only, trick_play(trump_only).legal(h, led_hearts, -1, "free")) == {"2C", "JK=S", "JK=H", "JK=D", "JK=C"}
    led_only = with_joker("led")
    h = hand(led_only, "JK", "5H", "2C")
    assert texts(led_only, trick_play(led_only).legal(h, led_hearts, SPADES, "free")) == {"5H", "JK=H"}
    assert texts(led_only, trick_play(led_only).legal(h, [], SPADES, "free")) == {"5H", "2C", "JK=S", "JK=H", "JK=D", "JK=C"}


def _worked(rules=None) -> Game:
    # three players, the 2-card hand (16 of 17..1); seat 0 deals, the 7 of spades is turned:
    # spades trump. Seat 0 holds the joker and the 2 of clubs.
    rules = rules or load_rules(str(JOKER))
    deal = PresetDeal(
        deal=tuple(tuple(parse_card(c, rules.specials) for c in cards) for cards in (("JK", "2C"), ("KH", "3D"), ("AH", "4S"))),
        dealer=0,
        turn_up=parse_card("7S"),
    )
    return Game(rules, players=3, seed=1, deals={16: deal}, start_at=16)


def test_a_hand_worked_by_hand():
    game = _worked()
    specials = game.rules.specials
    for bid in (0, 1, 0):  # seats 1, 2, 0 (the dealer: 0 + 1 + 1 would be 2, hooked)
        game.act(bid)
    game.act(parse_card("KH"))  # seat 1 leads hearts
    assert texts(game.rules, game.legal_actions()) == {"AH"}  # seat 2 must follow: its ace
    game.act(parse_card("AH"))
    # seat 0 is out of hearts: the 2 of clubs, or the joker as any suit
    assert texts(game.rules, game.legal_actions()) == {"2C", "JK=S", "JK=H", "JK=D", "JK=C"}
    with pytest.raises(IllegalAction, match="say the suit the joker takes: JK=S, JK=H, JK=D, JK=C"):
        game.act(special_card(0))
    game.act(parse_card("JK=H", specials))  # the top heart: above the ace
    assert game.tricks[-1].winner == 0
    assert game.hands[0] == [[], [], [], [parse_card("2C")], []]  # the joker has left the hand
    game.act(parse_card("2C"))  # seat 0 leads a club
    game.act(parse_card("3D"))
    game.act(parse_card("4S"))  # the only trump wins
    result = game.history[-1]
    assert result.taken == (1, 0, 1)
    # 10 + bid when made: seat 0 bid 0 took 1 (0), seat 1 bid 0 took 0 (10), seat 2 bid 1 took 1 (11)
    assert result.points == (0, 10, 11)


def test_a_joker_led_sets_the_suit_and_played_off_suit_shows_a_void():
    game = _worked()
    specials = game.rules.specials
    for bid in (0, 1, 0):
        game.act(bid)
    game.act(parse_card("KH"))
    game.act(parse_card("AH"))
    game.act(parse_card("JK=C", specials))  # declared clubs on hearts led: the trick goes to the ace
    assert game.tricks[-1].winner == 2
    # every seat sees the joker played as clubs, and so that seat 0 has no heart
    view = game.view(1)
    assert card_text(view.tricks[-1].cards[2][1], specials) == "JK=C"
    assert HEARTS in voids(view)[0]


def test_the_refusals_name_the_suits_the_joker_may_take():
    game = _worked(with_joker("trump"))
    for bid in (0, 1, 0):
        game.act(bid)
    game.act(parse_card("KH"))
    game.act(parse_card("AH"))
    with pytest.raises(IllegalAction, match="the joker may not take hearts now: play it as JK=S") as refused:
        game.act(parse_card("JK=H", game.rules.specials))
    assert refused.value.reason == "wild_suit"
    game.act(parse_card("JK=S", game.rules.specials))  # the top trump
    assert game.tricks[-1].winner == 0


CHECKER = Rules(
    sizes=lambda players: list(range(53 // players, 0, -1)),
    trump=lambda number, size, players, turn_up: (
        "none" if turn_up in (None, "JK") else {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}[turn_up[1]]
    ),
    score=lambda bid, tricks, size: 10 + bid if tricks == bid else 0,
    wild=("JK",),
)


@pytest.mark.parametrize("seed", range(3))
def test_whole_games_agree_with_the_independent_checker_and_replay(seed):
    rules = load_rules(str(JOKER))
    record = checked_record(rules, 4, seed, ("heuristic", "random"))
    check_record(record, CHECKER)
    assert replay(record).complete
    jokers = [c["card"] for h in record["hands"] for t in h["tricks"] for c in t["cards"] if c["card"].startswith("JK")]
    assert jokers and all(j[:3] == "JK=" for j in jokers)  # played, always with a suit


def test_the_checker_and_replay_refuse_a_joker_declared_against_the_rules():
    rules = load_rules(str(JOKER))
    record = checked_record(rules, 4, 0, ("random",))
    # a joker played as another suit than the one led by a seat that held the led suit
    for h in record["hands"]:
        for t in h["tricks"]:
            for i, c in enumerate(t["cards"]):
                led = t["cards"][0]["card"]
                if c["card"].startswith("JK=") and i > 0 and c["card"][-1] == led[-1]:
                    other = next(s for s in "SHDC" if s != led[-1])
                    c["card"] = "JK=" + other
                    with pytest.raises(Wrong, match="follows"):
                        check_record(record, CHECKER)
                    with pytest.raises(Disagreement, match="may not play the joker as"):
                        replay(record)
                    return
    pytest.skip("no joker played on its own led suit in this game")  # pragma: no cover


@pytest.mark.parametrize("kinds", [("mc", "heuristic", "random", "search")])
def test_every_bot_plays_legally(kinds):
    rules = load_rules_text(JOKER.read_text(encoding="utf-8").replace("extends: oh-hell", "extends: oh-hell\nschedule: [7, 3, 2, 1]"))
    checked_record(rules, 4, 7, kinds)


def test_explain_says_the_joker():
    text = "\n".join(explain(load_rules(str(JOKER))).section("play").lines)
    assert "A joker is a wild card: its holder plays it as a card of any suit" in text
    assert "above its ace" in text
