"""`whistdsl explain`: the rules in words, generated from the compiled ruleset.

The facts asserted for Serbian whist, Romanian whist and Oh Hell are read by hand from the
rules reference (/work/shared/RULES.md, sections 1 to 3), section by section: counts, numbers,
directions, never the wording. The formula-to-English rendering is tested on many shapes.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from whistdsl.cli import app
from whistdsl.explain import diff, explain, markdown, print_rules
from whistdsl.explain.words import condition_words, limit_words, points_words, written
from whistdsl.language.parser import parse
from whistdsl.language.program import formula
from whistdsl.resources import bundled_rulesets
from whistdsl.rules.lint import load_rules

runner = CliRunner()


def rules_of(name: str, players: int | None = None):
    return explain(load_rules(name), players)


def section(expl, key: str) -> str:
    s = expl.section(key)
    assert s is not None, f"no {key} section"
    return "\n".join(s.lines)


def hands_of(expl, players: int) -> list[int]:
    """The hand sizes the Hands section lists for `players`, and checks its count."""
    (line,) = [line for line in expl.section("hands").lines if line.startswith(f"With {players} players, ") and re.search(r"\d+ hands?:", line)]
    count = int(re.search(r"(\d+) hands?:", line).group(1))
    sizes = [int(n) for n in line.split(":", 1)[1].strip(" .").split(", ")]
    assert len(sizes) == count
    return sizes


def table_cells(expl) -> dict[tuple[str, int], str]:
    """{(bid, tricks): points} of the worked score table."""
    table = expl.section("scoring").table
    assert table is not None
    tricks = [int(t) for t in table.header[1:]]
    return {(row[0], t): cell for row in table.rows for t, cell in zip(tricks, row[1:])}


# ---------------------------------------------------------------- every bundled ruleset


@pytest.mark.parametrize("name", sorted(bundled_rulesets()))
def test_every_bundled_ruleset_explains_in_both_formats(name: str) -> None:
    text = runner.invoke(app, ["explain", name])
    assert text.exit_code == 0, text.output
    md = runner.invoke(app, ["explain", name, "--format", "markdown"])
    assert md.exit_code == 0, md.output
    rules = load_rules(name)
    assert md.stdout.startswith("# ")
    for title in ("Players and deck", "The deal", "Hands", "Trump", "Bidding", "Play", "Scoring", "The winner"):
        assert f"\n## {title}\n" in md.stdout, title
        assert f"\n{title}\n" in text.stdout, title
    assert rules.name in text.stdout
    n = rules.players_default
    assert f"With {n} players, {len(rules.planned_hands(n))} hand" in text.stdout.replace("\n", " ").replace("  ", " ")


def test_every_player_count_of_every_bundled_ruleset_explains() -> None:
    for name in bundled_rulesets():
        rules = load_rules(name)
        for n in range(rules.players_min, rules.players_max + 1):
            expl = explain(rules, n)
            assert expl.players == n
            assert expl.section("scoring") is not None


# ---------------------------------------------------------------- RULES.md section 1: Serbian whist


def test_serbian_players_deck_and_ranks() -> None:
    expl = rules_of("serbian")
    text = section(expl, "players")
    assert "4 to 6 players" in text
    assert "52 cards" in text
    assert "A K Q J T 9 8 7 6 5 4 3 2" in text  # high to low


def test_serbian_hand_sizes_13_down_to_1_a_1_card_hand_each_and_back_up() -> None:
    expl = rules_of("serbian")
    assert hands_of(expl, 4) == [*range(13, 1, -1), 1, 1, 1, 1, *range(2, 14)]
    assert len(hands_of(expl, 4)) == 28
    # (reading) with 5 or 6 players the top size is floor(52 / players)
    assert hands_of(expl, 5) == [*range(10, 1, -1), *[1] * 5, *range(2, 11)]
    assert hands_of(expl, 6) == [*range(8, 1, -1), *[1] * 6, *range(2, 9)]


def test_serbian_trump_cycles_spades_diamonds_hearts_clubs_no_trump_and_continues() -> None:
    text = section(rules_of("serbian"), "trump")
    cycle = re.search(r"in turn: ([a-z, ]+);", text).group(1).split(", ")
    assert cycle == ["spades", "diamonds", "hearts", "clubs", "no trump"]
    assert "hand 6 is spades again" in text


def test_serbian_dealer_random_deal_and_play_counter_clockwise_right_of_dealer_bids_and_leads() -> None:
    expl = rules_of("serbian")
    deal = section(expl, "deal")
    assert "random" in deal
    assert "counter-clockwise (to the right)" in deal
    bidding = section(expl, "bidding")
    assert "to the right of the dealer bids first" in bidding
    assert "dealer bids last" in bidding
    play = section(expl, "play")
    assert "right of the dealer" in play and "leads the first trick" in play
    assert "Play goes counter-clockwise" in play


def test_serbian_bidding_the_hook_and_its_example_6_cards_bids_2_0_1_not_3() -> None:
    bidding = section(rules_of("serbian"), "bidding")
    assert "hook" in bidding
    assert "may not make the bids add up to the hand size" in bidding
    example = re.search(r"in a (\d+)-card hand with (\d+) players, after the bids ([\d, ]+) .* may not bid ([\d or,]+)\.", bidding)
    assert example is not None, bidding
    assert (example.group(1), example.group(2), example.group(3)) == ("6", "4", "2, 0, 1")
    assert example.group(4) == "3"


def test_serbian_play_follow_suit_must_trump_highest_trump_wins() -> None:
    play = section(rules_of("serbian"), "play")
    assert "must follow the suit led" in play
    assert "must play a trump if they hold one" in play
    assert "The highest trump wins the trick; if no trump was played, the highest card of the suit led" in play
    assert "winner of each trick leads the next" in play


def test_serbian_scoring_made_10_plus_tricks_a_miss_1_a_trick_no_trick_minus_10() -> None:
    expl = rules_of("serbian")
    scoring = section(expl, "scoring")
    assert "made: 10 + tricks" in scoring
    assert "no trick at all after a bid above 0: -10" in scoring
    assert "1 a trick" in scoring
    cells = table_cells(expl)
    # the seed's example: bid 2; take 2 -> 12; take 1 -> 1; take 0 -> -10
    assert (cells["2", 2], cells["2", 1], cells["2", 0]) == ("12", "1", "-10")
    assert cells["0", 0] == "10"  # a made 0 bid: 10 + 0
    assert cells["0", 3] == "3"  # took more than bid: a point a trick


def test_serbian_harder_rule_fewer_tricks_costs_10_more() -> None:
    changed = diff(load_rules("serbian"), load_rules("serbian-hard"))
    assert [s.key for s in changed.sections] == ["scoring"]
    text = section(changed, "scoring")
    assert "taking fewer tricks than bid (at least one trick) costs 10 more" in text
    # bid 3, take 2 -> 2 - 10 = -8: a 3-card hand shows it
    assert table_cells(explain(load_rules("serbian-hard")))["3", 2] == "-8"


def test_serbian_winner_highest_total() -> None:
    assert "The highest total wins" in section(rules_of("serbian"), "winner")


#: RULES.md's alternative scoring systems, each checked in the worked 3-card table with 4 players:
#: (bid, tricks): points, by hand from the table's row (n = 3, d = |bid - tricks|), and whether
#: the lowest total wins.
ALTERNATIVES = {
    "scoring/exact": ({(2, 2): "12", (2, 1): "0", (2, 3): "0"}, False),
    "scoring/exact-penalty": ({(3, 2): "-3", (0, 1): "0", (1, 1): "11"}, False),
    "scoring/ten-times-exact": ({(3, 3): "30", (1, 0): "0"}, False),
    "scoring/penalty-under-zero-over": ({(2, 2): "12", (2, 3): "0", (2, 1): "-2"}, False),
    "cypriot": ({(3, 3): "25", (0, 1): "-10", (3, 1): "-15"}, False),
    "scoring/fixed-penalty": ({(2, 2): "12", (2, 3): "3", (2, 1): "-10"}, False),
    "scoring/progressive-penalty": ({(2, 1): "-12", (2, 3): "-12", (2, 0): "-22"}, False),
    "scoring/reduced-zero": ({(0, 0): "5", (1, 1): "11", (1, 0): "-10"}, False),
    "scoring/adjusted-zero": ({(0, 0): "8", (2, 2): "12"}, False),
    "scoring/progressive": ({(3, 3): "19", (3, 1): "1"}, False),
    "scoring/montreal": ({(3, 3): "16", (3, 2): "0"}, False),
    "scoring/negative": ({(3, 0): "6", (2, 2): "0", (0, 2): "3"}, True),
    "scoring/simplified-negative": ({(3, 0): "9", (1, 1): "0"}, True),
    "scoring/variant-negative": ({(1, 0): "3", (1, 1): "0"}, True),
    "scoring/spades-double": ({(2, 2): "12", (2, 0): "-10"}, False),  # no trump in the table
    "scoring/trick-points": ({(0, 0): "1/2", (2, 2): "2", (3, 1): "-2"}, False),
    "scoring/binary": ({(2, 2): "10", (2, 1): "0"}, False),
    "scoring/binary-zero-rule": ({(0, 0): "10", (1, 1): "10"}, False),  # 3 cards, 4 players: not n > players
    "scoring/scratch": ({(2, 2): "0", (2, 1): "1"}, True),
    "scoring/adjusted-exact": ({(2, 2): "5", (2, 1): "0"}, False),
    "scoring/get-fred": ({(2, 2): "12", (3, 1): "-2"}, False),
}


@pytest.mark.parametrize("name", sorted(ALTERNATIVES))
def test_serbian_alternative_scoring_systems_in_the_worked_table(name: str) -> None:
    expl = rules_of(name)
    cells, lowest = ALTERNATIVES[name]
    table = table_cells(expl)
    assert {cell: table[str(cell[0]), cell[1]] for cell in cells} == cells
    assert ("The lowest total wins" in section(expl, "winner")) is lowest


def test_spades_double_and_the_zero_rule_say_their_condition() -> None:
    assert "doubled when spades are trump" in section(rules_of("scoring/spades-double"), "scoring")
    zero = section(rules_of("scoring/binary-zero-rule"), "scoring")
    assert "more cards in the hand than players and a bid of 0: (made: 20, otherwise -10)" in zero


# ---------------------------------------------------------------- RULES.md section 2: Romanian whist


def test_romanian_players_and_deck_of_8_cards_per_player() -> None:
    text = section(rules_of("romanian"), "players")
    assert "3 to 6 players (4 by default)" in text
    for n, cards, low in ((3, 24, "9"), (4, 32, "7"), (5, 40, "5"), (6, 48, "3")):
        assert f"With {n} players the deck has {cards} cards: A down to {low}" in text


def test_romanian_dead_hand_with_6_players() -> None:
    deal = section(rules_of("romanian"), "deal")
    assert "With 6 players the dealer sits out every hand" in deal
    for n in (3, 4, 5):
        assert f"With {n} players the dealer sits out" not in deal


def test_romanian_highest_card_deals_first_then_clockwise_left_of_dealer_bids_and_leads() -> None:
    expl = rules_of("romanian")
    deal = section(expl, "deal")
    assert "highest card deals first" in deal
    assert "clockwise (to the left)" in deal and "counter" not in deal
    assert "to the left of the dealer bids first" in section(expl, "bidding")
    assert "left of the dealer" in section(expl, "play")


def test_romanian_1_8_1_hand_sizes() -> None:
    expl = rules_of("romanian")
    assert hands_of(expl, 4) == [1, 1, 1, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8, 8, 7, 6, 5, 4, 3, 2, 1, 1, 1, 1]
    assert hands_of(expl, 3) == [1, 1, 1, *range(2, 8), 8, 8, 8, *range(7, 1, -1), 1, 1, 1]


def test_romanian_trump_turned_up_and_no_trump_in_8_card_hands() -> None:
    trump = section(rules_of("romanian"), "trump")
    assert "next card after the deal, turned face up" in trump
    assert "an 8-card hand" in trump
    assert "that is the 8-card hands" in trump


def test_romanian_bidding_hook_example_with_3_players() -> None:
    bidding = section(rules_of("romanian", 3), "bidding")
    assert "hook" in bidding
    example = re.search(r"in a (\d+)-card hand with 3 players, after the bids (\d+), (\d+) .* may not bid (\d+)\.", bidding)
    assert example is not None, bidding
    size, a, b, refused = map(int, example.groups())
    assert refused == size - a - b  # the sum of the bids may not equal the hand size


def test_romanian_play_as_serbian_must_trump() -> None:
    assert "must play a trump if they hold one" in section(rules_of("romanian"), "play")


def test_romanian_scoring_made_5_plus_tricks_else_minus_1_a_trick_off() -> None:
    expl = rules_of("romanian")
    scoring = section(expl, "scoring")
    assert "made: 5 + tricks" in scoring and "-1 a trick off" in scoring
    cells = table_cells(expl)
    assert cells["3", 3] == "8"  # bid 3 take 3 -> 8
    assert cells["3", 2] == "-1" and cells["3", 1] == "-2" and cells["3", 0] == "-3"
    assert cells["0", 0] == "5"


def test_romanian_forehead_last_1_card_hands() -> None:
    expl = rules_of("romanian-forehead")
    hands = expl.section("hands").lines
    assert "With 4 players, hands 21 to 24 are forehead hands." in hands
    assert "see everyone's cards but their own" in section(expl, "kinds")
    both = rules_of("romanian-forehead-both")
    assert "With 4 players, hands 1 to 4, 21 to 24 are forehead hands." in both.section("hands").lines


def test_romanian_streak_bonuses_10_and_30_and_players_plus_1_and_10() -> None:
    ten = rules_of("romanian-streak-10")
    values = section(ten, "values")
    assert "`run` is 10" in values and "`streak_bonus` is 30" in values
    scoring = section(ten, "scoring")
    assert "a 1-card hand: 0" in scoring  # 1-card hands do not count
    assert "-streak_bonus" in scoring
    players = rules_of("romanian-streak-players", 4)
    values = section(players, "values")
    assert "`run` is 5 with 4 players" in values and "`streak_bonus` is 10" in values


def test_romanian_zero_final_8_1_8_progressive_and_no_premium() -> None:
    assert "wins outright" in section(rules_of("romanian-zero-final"), "winner")
    assert "the total is 0" in section(rules_of("romanian-zero-final"), "winner")
    assert hands_of(rules_of("romanian-8-1-8"), 4) == [8, 8, 8, 8, 7, 6, 5, 4, 3, 2, 1, 1, 1, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8, 8]
    progressive = table_cells(rules_of("romanian-progressive"))
    assert [progressive[str(b), b] for b in range(4)] == ["5", "6", "8", "11"]
    no_premium = table_cells(rules_of("romanian-no-premium"))
    assert [no_premium[str(b), b] for b in range(4)] == ["0", "1", "2", "3"]
    assert no_premium["3", 1] == "-2"  # misses as usual


def test_romanian_0_and_nv_hands() -> None:
    tie = rules_of("romanian-tiebreak", 4)
    assert "up to 4 extra 8-card hands" in section(tie, "hands")  # no more than the players
    kinds = section(tie, "kinds")
    assert "every bid must be 0" in kinds and "marks it 0" in kinds
    nv = rules_of("romanian-nv", 4)
    assert "With 4 players, hand 25 is the nv hand." in nv.section("hands").lines
    assert hands_of(nv, 4)[-1] == 8
    kinds = section(nv, "kinds")
    assert "before anyone looks at their cards" in kinds and "marks it NV" in kinds


# ---------------------------------------------------------------- RULES.md section 3: Oh Hell


def test_oh_hell_players_deck_hands_down_from_the_largest_that_leaves_a_card() -> None:
    expl = rules_of("oh-hell")
    assert "3 to 7 players" in section(expl, "players") and "52 cards" in section(expl, "players")
    for n in range(3, 8):
        assert hands_of(expl, n) == list(range(51 // n, 0, -1))


def test_oh_hell_turn_up_trump_left_of_dealer_clockwise_hook_no_obligation_to_trump() -> None:
    expl = rules_of("oh-hell")
    trump = section(expl, "trump")
    assert "next card after the deal, turned face up" in trump and "no trump" in trump
    bidding = section(expl, "bidding")
    assert "left of the dealer bids first" in bidding and "clockwise (to the left)" in bidding
    assert "hook" in bidding
    play = section(expl, "play")
    assert "may play any card" in play and "no obligation to trump" in play


def test_oh_hell_scoring_exact_10_plus_bid_a_miss_0() -> None:
    expl = rules_of("oh-hell")
    assert "made: 10 + bid; otherwise 0" in section(expl, "scoring")
    cells = table_cells(expl)
    assert [cells[str(b), b] for b in range(4)] == ["10", "11", "12", "13"]
    assert {cells[str(b), t] for b in range(4) for t in range(4) if b != t} == {"0"}


def test_oh_hell_without_the_hook() -> None:
    changed = diff(load_rules("oh-hell"), load_rules("oh-hell-simultaneous"))
    bidding = section(changed, "bidding")
    assert "before: The last bid may not make the bids add up to the hand size (the hook)." in bidding
    assert "no hook" in bidding


# ---------------------------------------------------------------- language 2


def test_language_2_trump_choice_specials_calls_blind_hidden_bids_parameters_auction() -> None:
    wizard = rules_of("wizard")
    assert "4 wizard cards (shown W)" in section(wizard, "players")
    assert "The dealer names trump when a wizard is turned" in section(wizard, "trump")
    assert "first wizard played; else the highest trump; else the highest card of the suit led; else the first jester" in section(wizard, "play")
    nil = rules_of("oh-hell-nil")
    assert "nil (counts as 0)" in section(nil, "bidding") and "bid blind" in section(nil, "bidding")
    cells = table_cells(nil)
    assert cells["nil", 0] == "50" and cells["nil", 1] == "-50" and cells["blind_nil", 0] == "100"
    assert "hidden from the others until all have bid" in section(rules_of("oh-hell-simultaneous"), "bidding")
    openspiel = explain(load_rules("openspiel", settings=["tricks=3"]))
    assert "`tricks`" in section(openspiel, "options") and "here 3" in section(openspiel, "options")
    assert hands_of(openspiel, 3) == [3]
    estimation = rules_of("estimation")
    assert "auction" in section(estimation, "bidding") and "declarer" in section(estimation, "bidding")
    highest = rules_of("oh-hell-highest-bidder-trump")
    assert "highest bidder" in section(highest, "trump") and "after the bidding" in section(highest, "trump")
    assert "highest bid leads" in section(highest, "play")
    kachuful = rules_of("kachuful")
    assert "played in a loop" in section(kachuful, "hands") and "at least target" in section(kachuful, "hands")
    assert "`target` is 100" in section(kachuful, "values")


EXAMPLES = Path(__file__).parent.parent / "docs" / "examples"


def test_the_newer_rule_kinds_say_each_rule_in_words() -> None:
    """The examples of hands dealt again, declarations, bids together but the last and calls in
    the auction: each rule in plain words, no name of the language left raw."""
    redeal = explain(load_rules(str(EXAMPLES / "estimation-redeal.yaml")))
    assert (
        "dealt again by the same dealer if, once the cards are dealt and trump is known: one of the players got no card of some suit (a void); "
        "or if every player passes in the auction. At most 3 times a hand"
    ) in section(redeal, "deal")
    avoid = explain(load_rules(str(EXAMPLES / "estimation-avoid.yaml")))
    assert (
        "may declare `avoid` when dealt no card of some suit (a void) or ask for a new deal (`redeal`: the same dealer deals again) "
        "when dealt 4 cards in the longest suit and dealt 3 cards in the shortest suit; or declare nothing."
    ) in section(avoid, "bidding")
    assert "made: tricks + (declared avoid: 1, otherwise 0)" in section(avoid, "scoring")
    last = explain(load_rules(str(EXAMPLES / "oh-hell-dealer-bids-last.yaml")))
    assert "hidden from the others until all but the last bidder have bid" in section(last, "bidding")
    assert "until all have bid" not in section(last, "bidding")
    calls = explain(load_rules(str(EXAMPLES / "estimation-dash-and-double.yaml")))
    bidding, scoring = section(calls, "bidding"), section(calls, "scoring")
    assert "may call dash (at most twice a hand): out of the auction, with a bid of 0 made for them" in bidding
    assert "may call double on another player's highest bid (at most once a hand), staying in the auction" in bidding
    assert "doubled when at least one of the players called double in the auction" in scoring
    manilhas = section(explain(load_rules(str(EXAMPLES / "oh-hell-manilhas.yaml"))), "trump")
    assert "The cards of the rank just above the turned card's (after A comes 2) are super trumps" in manilhas
    assert "when no card is turned there are none" in manilhas and "special" not in manilhas  # the deck has no special card
    for expl in (redeal, avoid, last, calls):
        text = "\n".join(line for s in expl.sections for line in s.lines)
        assert "whose" not in text and "more than 0" not in text and '"' not in text


ODD = """\
whistdsl: 2
name: Odd table
parameters:
  size: {type: number, min: 1, max: 52 // players, default: 5, description: the largest hand}
players: {min: 3, max: 5, default: 4}
schedule:
  - map(size .. 1, n -> [n, n])
dealer:
  first: 0
  sits_out: players == 5 and hand_size == 1
trump:
  cycle: [hearts, none]
decisions:
  - name: trump
    who: first_bidder
    when: hand_size >= 3
    options: [spades, hearts, none]
  - name: bid
bidding:
  first: dealer
play:
  first_lead: dealer
  when_void: must_overtrump
scoring:
  points: if made then 10 + bid else -(bid % 2)
running:
  best:
    start: 0
    after_hand: max(best, points)
    description: the best hand so far
end:
  when: max(seats, total) >= 30
  hands: 12
winner:
  rank: [highest total, highest best]
"""


def test_a_house_rule_of_many_language_2_rules_says_each(tmp_path: Path) -> None:
    (tmp_path / "odd.yaml").write_text(ODD, encoding="utf-8")
    rules = load_rules(tmp_path / "odd.yaml", settings=["size=3"])
    expl = explain(rules)
    assert "`size`: the largest hand" in section(expl, "options") and "here 3" in section(expl, "options")
    assert hands_of(expl, 4) == [3, 3, 2, 2, 1, 1] * 2  # map(3 .. 1, n -> [n, n]) in a loop up to 12
    assert "at most 12 hands" in section(expl, "hands") and "at least 30" in section(expl, "hands")
    assert "Seat 0 deals first" in section(expl, "deal")
    assert "The dealer sits out with 5 players in hands 5 to 6, 11 to 12" in section(expl, "deal")
    trump = section(expl, "trump")
    assert "hearts, no trump" in trump and "hand 3 is hearts again" in trump
    assert "The first bidder names trump when the hand size is at least 3" in trump
    assert "The dealer bids first" in section(expl, "bidding") and "no hook" in section(expl, "bidding")
    play = section(expl, "play")
    assert "The dealer leads the first trick" in play and "higher than any trump already in the trick" in play
    scoring = section(expl, "scoring")
    assert "if made then 10 + bid else -(bid % 2)" in scoring  # `%` has no English: shown as written
    assert "bid: this player's bid" in scoring  # ... with its names explained
    assert "`best` (the best hand so far): it starts at 0" in scoring and "the larger of best and the points" in scoring
    assert "A tie goes to the highest best" in section(expl, "winner")


# ---------------------------------------------------------------- diffs of house rules


def test_diff_of_a_ruleset_with_itself_changes_nothing() -> None:
    same = diff(load_rules("serbian"), load_rules("serbian"))
    assert same.sections == ()
    assert "No rule changes" in same.description


def test_diff_no_premium_made_scores_5_less_and_8_1_8_changes_only_the_hands() -> None:
    premium = diff(load_rules("romanian"), load_rules("romanian-no-premium"))
    assert "scoring: a made bid scores 5 less" in section(premium, "scoring")
    assert [s.key for s in diff(load_rules("romanian"), load_rules("romanian-8-1-8")).sections] == ["hands"]


def test_diff_of_a_house_rule_whose_miss_costs_10_more(tmp_path: Path) -> None:
    house = tmp_path / "house.yaml"
    house.write_text(
        "whistdsl: 1\nextends: serbian\nname: Serbian, dearer misses\nscoring:\n"
        "  points: if made then 10 + tricks else if tricks == 0 then -20 else tricks - 10\n",
        encoding="utf-8",
    )
    result = runner.invoke(app, ["explain", "--diff", "serbian", str(house)])
    assert result.exit_code == 0, result.output
    assert "scoring: a miss costs 10 more" in result.stdout
    assert "Hands" not in result.stdout  # nothing else changes


def test_diff_of_one_house_rule_compares_it_with_the_ruleset_it_extends(tmp_path: Path) -> None:
    house = tmp_path / "house.yaml"
    house.write_text(
        "whistdsl: 1\nextends: serbian\nname: Serbian, dearer misses\nscoring:\n"
        "  points: if made then 10 + tricks else if tricks == 0 then -20 else tricks - 10\n",
        encoding="utf-8",
    )
    result = runner.invoke(app, ["explain", "--diff", str(house)])
    assert result.exit_code == 0, result.output
    assert "Serbian, dearer misses against Serbian whist" in result.stdout
    assert "scoring: a miss costs 10 more" in result.stdout
    alone = runner.invoke(app, ["explain", "--diff", "serbian"])
    assert alone.exit_code == 2
    assert "extends no ruleset" in alone.output and "whistdsl explain --diff BASE serbian" in alone.output


def test_diff_compares_the_points_over_every_hand_size_and_says_which_differ(tmp_path: Path) -> None:
    # Romanian whist plays hands of 1 to 8 cards (RULES.md section 2); this house rule pays 5
    # more for a made bid in the 8-card hands only, which a 3-card hand alone would not show
    house = tmp_path / "eight.yaml"
    house.write_text(
        "whistdsl: 1\nextends: romanian\nname: Romanian, a dearer eight\nscoring:\n"
        "  points: if made then (if hand_size == 8 then 10 else 5) + tricks else -diff\n",
        encoding="utf-8",
    )
    scoring = section(diff(load_rules("romanian"), load_rules(str(house)), 4), "scoring")
    assert "scoring: a made bid scores 5 more (in an 8-card hand)" in scoring
    assert "hands of 1 to 8 cards" in scoring
    assert "miss" not in scoring.split("before:")[0]  # nothing else moves


def test_diff_says_how_the_points_move_per_bid_when_they_move_by_a_multiple_of_it() -> None:
    cypriot = section(diff(load_rules("oh-hell"), load_rules("cypriot")), "scoring")
    # made: 10 + bid -> 10 + 5 x bid; a miss after a bid above 0 with no trick: 0 -> -5 x bid
    assert "a made bid scores 4 x bid more" in cypriot
    assert "no trick at all after a bid above 0 costs 5 x bid more" in cypriot
    # the others are listed cell by cell: bid 0, 1 trick: 0 -> -10 (a missed 0 bid)
    assert "bid 0, 1 trick: 0 -> -10" in cypriot


def test_a_bidding_limit_with_a_yes_no_option_reads_when_it_is_on(tmp_path: Path) -> None:
    house = tmp_path / "house.yaml"
    house.write_text(
        "whistdsl: 2\nextends: oh-hell\nparameters:\n  hook: {type: yes/no, default: true}\n"
        "bidding:\n  allowed: not hook or not (is_last and bids_so_far + bid == hand_size)\n",
        encoding="utf-8",
    )
    bidding = section(explain(load_rules(house)), "bidding")
    assert "When hook is on, the last bid may not make the bids add up to the hand size (the hook)." in bidding
    assert "`hook`" in section(explain(load_rules(house)), "options")


def test_diff_of_the_winner_and_a_running_value() -> None:
    scratch = diff(load_rules("serbian"), load_rules("scoring/scratch"))
    winner = section(scratch, "winner")
    assert "before: The highest total wins." in winner and "now: The lowest total wins." in winner
    assert "made_bid_tricks" in section(scratch, "scoring")


# ---------------------------------------------------------------- formulas as English


@pytest.mark.parametrize(
    "text, english",
    [
        (
            "if made then 10 + tricks else if tricks == 0 then -10 else tricks",
            "made: 10 + tricks; no trick at all after a bid above 0: -10; otherwise 1 a trick",
        ),
        ("if made then 5 + tricks else -diff", "made: 5 + tricks; otherwise -1 a trick off"),
        ("if made then 10 + bid else 0", "made: 10 + bid; otherwise 0"),
        ("if made then 10 + 5 * bid else if bid == 0 then -10 else -5 * bid", "made: 10 + 5 x bid; a missed bid of 0: -10; otherwise -5 x bid"),
        ("if made then 10 + bid else if over then tricks else -10", "made: 10 + bid; more tricks than bid: 1 a trick; otherwise -10"),
        ("if made then 20 + 10 * tricks else -10 * diff", "made: 20 + 10 x tricks; otherwise -10 a trick off"),
        ("if made then 10 + bid ^ 2 else tricks", "made: 10 + bid squared; otherwise 1 a trick"),
        ("if made then 5 + tri(bid) else -diff", "made: 5 + (1 + 2 + ... + bid); otherwise -1 a trick off"),
        ("diff ^ 2", "d squared (d: the tricks the bid was off by)"),
        ("tri(diff)", "1 + 2 + ... + d (d: the tricks the bid was off by)"),
        ("if made then 0 else 1", "made: 0; otherwise 1"),
        ("if made and bid == 0 then 1/2 else if made then bid else -diff", "a made bid of 0: 1/2; made: bid; otherwise -1 a trick off"),
        (
            "if made then 10 + tricks else if under then tricks - 10 else tricks",
            "made: 10 + tricks; fewer tricks than bid: tricks - 10; otherwise 1 a trick",
        ),
        (
            "(if made then 10 + tricks else 0) * (if trump == spades then 2 else 1)",
            "made: 10 + tricks; otherwise 0; doubled when spades are trump",
        ),
        (
            "if hand_size > players and bid == 0 then (if made then 20 else -10) else 0",
            "more cards in the hand than players and a bid of 0: (made: 20, otherwise -10); otherwise 0",
        ),
        ("if count(seats, made) == 0 then 0 else tricks", "none of the players made their bid: 0; otherwise 1 a trick"),
        ('if call == "nil" then (if tricks == 0 then 50 else -50) else 0', "the call nil: (no trick at all: 50, otherwise -50); otherwise 0"),
        ("if blind then 3 * tricks else tricks", "bid blind: 3 a trick; otherwise 1 a trick"),
        ("if is_dealer then 0 else 1", "the dealer: 0; otherwise 1"),
        ("if dealer.bid == 0 then 1 else 0", "the dealer's bid is 0: 1; otherwise 0"),
        (
            'tricks * (if count(seats, auction_call == "double") > 0 then 2 else 1)',
            "1 a trick; doubled when at least one of the players called double in the auction",
        ),
        (
            'if made then tricks + (if declared == "avoid" then 1 else 0) else -diff',
            "made: tricks + (declared avoid: 1, otherwise 0); otherwise -1 a trick off",
        ),
        ('if auction_call == "dash" then 5 else 0', "called dash in the auction: 5; otherwise 0"),
    ],
)
def test_points_read_as_english(text: str, english: str) -> None:
    words = points_words(formula(text, "scoring"))
    assert words.english
    assert words.text == english


@pytest.mark.parametrize(
    "text, english",
    [
        ("not (is_last and bids_so_far + bid == hand_size)", "the last bid may not make the bids add up to the hand size (the hook)"),
        ("not (bids_so_far + bid == hand_size and is_last)", "the last bid may not make the bids add up to the hand size (the hook)"),
        ("bid == 0", "every bid must be 0"),
        ("bid > 0 or count(earlier, bid == 0) < 2", "a bid is allowed only if: a bid above 0 or fewer than 2 of the earlier bidders bid 0"),
        ("not (is_first and bid == 0)", "a bid is refused when it is the first bid and a bid of 0"),
        ("bids_so_far + bid != hand_size", "a bid is allowed only if: the bids do not add up to the hand size"),
        ('call != "x" or blind', "a bid is allowed only if: a call other than x or bid blind"),
        (
            "not (is_last and hand_size > 3 and bids_so_far + bid == hand_size)",
            "the last bid may not make the bids add up to the hand size when the hand size is above 3 (the hook)",
        ),
    ],
)
def test_bidding_limits_read_as_english(text: str, english: str) -> None:
    words = limit_words(formula(text, "bidding"))
    assert words.english
    assert words.text == english


@pytest.mark.parametrize(
    "text, context, english",
    [
        ("players == 6", "hand", "6 players"),
        ("hand_size == 8", "deal", "an 8-card hand"),
        ("hand_size == 1", "deal", "a 1-card hand"),
        ('turn_up_rank == "K" or turn_up_rank == "Q"', "deal", "a K is turned or a Q is turned"),
        ('turn_up_special == "wizard"', "trump_choice", "a wizard is turned"),
        ("total == 0", "winner", "the total is 0"),
        ("max(seats, total) >= 100", "end", "the highest total of the players is at least 100"),
        ("trump == none", "scoring", "no trump"),
        ('kind == "nv" and not made', "scoring", "a nv hand and missed"),
        ("any(others, made) and not extra", "scoring", "one of the other players made their bid and not a tie-break hand"),
        ("all(seats, made) or hand_number > 3", "scoring", "all of the players made their bid or the hand's number is above 3"),
        ("any(seats, shortest == 0)", "redeal", "one of the players got no card of some suit (a void)"),
        ("any(seats, 0 == trumps)", "redeal", "one of the players got no trump"),
        (
            "all(seats, trumps >= 1) and any(seats, longest > 6)",
            "redeal",
            "all of the players got at least 1 trump and one of the players got more than 6 cards in the longest suit",
        ),
        ("shortest == 0", "declare", "dealt no card of some suit (a void)"),
        ("longest == 4 and shortest == 3", "declare", "dealt 4 cards in the longest suit and dealt 3 cards in the shortest suit"),
        ('declared == ""', "scoring", "declared nothing"),
        ('declared != "avoid"', "scoring", "did not declare avoid"),
        ('count(seats, auction_call == "dash") >= 2', "scoring", "at least 2 of the players called dash in the auction"),
        ('count(others, auction_call != "") == 0', "scoring", "none of the other players made a call in the auction"),
    ],
)
def test_conditions_read_as_english(text: str, context: str, english: str) -> None:
    words = condition_words(formula(text, context), context)
    assert words.english
    assert words.text == english


@pytest.mark.parametrize("text", ["sum([bid, 1]) % 2", "len(repeat(1, bid))", "bid % 2"])
def test_other_shapes_are_shown_as_the_formula_with_their_names_explained(text: str) -> None:
    words = points_words(formula(text, "scoring"))
    assert not words.english
    assert words.text == text
    names = dict(words.names)
    assert "bid" in names and "this player's bid" in names["bid"]  # the catalogue's meaning
    assert "where" in words.line()


@pytest.mark.parametrize(
    "text",
    [
        "-(bid + 10 * diff)",
        "2 ^ 3 ^ 2",
        "(2 ^ 3) ^ 2",
        "-2 ^ 2",
        "a - (b - c)",
        "(a - b) - c",
        "not (a and b) or c",
        "if a then b else if c then d else e",
        "(1 .. 3) + [4]",
    ],
)
def test_formulas_are_written_back_as_they_parse(text: str) -> None:
    shown = written(parse(text))
    assert parse(shown) == parse(text) or _same(shown, text)


def _same(a: str, b: str) -> bool:
    strip = lambda node: re.sub(r"line=\d+, column=\d+", "", repr(node))  # noqa: E731
    return strip(parse(a)) == strip(parse(b))


# ---------------------------------------------------------------- output


def test_print_rules_fits_the_console_and_leaves_no_trailing_spaces() -> None:
    out = io.StringIO()
    print_rules(Console(file=out, width=60, force_terminal=False), load_rules("romanian"), 4)
    lines = out.getvalue().splitlines()
    assert lines and all(len(line) <= 60 for line in lines), [line for line in lines if len(line) > 60]
    assert not [line for line in lines if line != line.rstrip()]
    assert "With 4 players the dealer plays every hand" in " ".join(out.getvalue().split())  # a dead hand only with 6
    assert "With 3 players" not in out.getvalue()  # the rules at this table only
    assert "24 hands" in out.getvalue()


def test_markdown_has_headings_bullets_and_the_worked_table() -> None:
    md = markdown(rules_of("serbian"))
    assert md.startswith("# Serbian whist\n")
    assert "\n## Scoring\n" in md
    assert "\n- Trump changes every hand" in md
    assert "| bid \\ tricks | 0 | 1 | 2 | 3 |" in md
    assert "| 2 | -10 | 1 | 12 | 3 |" in md


def test_text_from_the_ruleset_is_escaped_and_never_markup(tmp_path: Path) -> None:
    house = tmp_path / "house.yaml"
    house.write_text('whistdsl: 1\nextends: oh-hell\nname: "[bold red]Ben[/] \\e]0;owned\\a"\n', encoding="utf-8")
    for fmt in ("text", "markdown"):
        result = runner.invoke(app, ["explain", str(house), "--format", fmt])
        assert result.exit_code == 0, result.output
        assert "\x1b" not in result.stdout and "\x07" not in result.stdout
        assert "[bold red]Ben[/]" in result.stdout
        assert "\\x1b]0;owned\\x07" in result.stdout


def test_usage_errors_exit_2_with_a_message() -> None:
    for args in (
        ["explain"],
        ["explain", "serbian", "romanian"],
        ["explain", "--diff", "serbian"],
        ["explain", "nosuch"],
        ["explain", "serbian", "--players", "9"],
    ):
        result = runner.invoke(app, args)
        assert result.exit_code == 2, (args, result.output)
        assert "Traceback" not in result.output


def test_explain_players_gives_the_rules_at_that_table() -> None:
    result = runner.invoke(app, ["explain", "romanian", "--players", "6"])
    assert result.exit_code == 0, result.output
    assert "With 6 players no card is left" not in result.stdout  # the dead hand leaves 8 cards
    assert "With 6 players the dealer sits out every hand" in result.stdout


def _score_table(name: str, cards: int, players: int) -> dict[tuple[str, int], str]:
    """{(bid, tricks): points} as `whistdsl score NAME --cards C --players P` prints them."""
    result = runner.invoke(app, ["score", name, "--cards", str(cards), "--players", str(players)])
    assert result.exit_code == 0, result.output
    header, *rows = result.stdout.splitlines()
    tricks = [int(t) for t in header.split()[1:]]
    return {(row.split()[0], t): cell for row in rows for t, cell in zip(tricks, row.split()[1:])}


@pytest.mark.parametrize("name", sorted(bundled_rulesets()))
def test_the_worked_table_is_what_whistdsl_score_prints(name: str) -> None:
    expl = rules_of(name)
    table = expl.section("scoring").table
    rules = load_rules(name)
    cards = int(table.header[-1])
    numbers = {cell: value for cell, value in table_cells(expl).items() if cell[0].isdigit()}
    if rules.points.seat_reads:  # the others make their bids: 0, but the last takes the tricks left
        others = expl.players - 1
        for bid, tricks in [(b, b) for b in range(cards + 1)] + [(2, 1), (0, cards), (cards, 0)]:
            rest = cards - tricks
            given = ",".join(["0/0"] * (others - 1) + [f"{rest}/{rest}"])
            result = runner.invoke(app, ["score", name, "--cards", str(cards), "--bid", str(bid), "--tricks", str(tricks), "--others", given])
            assert result.exit_code == 0, result.output
            assert numbers[str(bid), tricks] == result.stdout.strip(), (bid, tricks)
        return
    assert numbers == _score_table(name, cards, expl.players)


def test_the_help_lists_explain() -> None:
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0
    assert re.search(r"^\s+explain\s", result.stdout, re.M), result.stdout


LOOPED = """\
whistdsl: 2
name: Looped
players: {min: 4, max: 4}
schedule:
  - 3 .. 1
trump:
  cycle: [spades, hearts, none]
scoring:
  points: if made then 10 + tricks else tricks
end:
  when: max(seats, total) >= 100000
  hands: 100
"""


def test_a_schedule_played_in_a_loop_is_said_once_with_the_count_of_hands(tmp_path: Path) -> None:
    (tmp_path / "looped.yaml").write_text(LOOPED, encoding="utf-8")
    hands = section(explain(load_rules(tmp_path / "looped.yaml")), "hands")
    # 3, 2, 1 and again up to the cap of 100: said once, not 100 sizes
    assert "With 4 players, 100 hands: 3, 2, 1, and so on (the same 3 hands over and over, 100 in all)." in hands
    assert "3, 2, 1, 3" not in hands


def test_a_long_schedule_of_one_hand_size_is_said_in_a_few_words(tmp_path: Path) -> None:
    text = LOOPED.replace("3 .. 1", "repeat(1, 30)").split("end:")[0]
    (tmp_path / "ones.yaml").write_text(text, encoding="utf-8")
    hands = section(explain(load_rules(tmp_path / "ones.yaml")), "hands")
    assert "With 4 players, 30 hands of 1 card each." in hands


def test_a_schedule_that_repeats_twice_or_is_short_is_listed_whole(tmp_path: Path) -> None:
    text = LOOPED.replace("hands: 100", "hands: 24")
    (tmp_path / "short.yaml").write_text(text, encoding="utf-8")
    assert hands_of(explain(load_rules(tmp_path / "short.yaml")), 4) == [3, 2, 1] * 8


def test_a_single_hand_of_a_kind_is_said_in_the_singular() -> None:
    # Boerenbridge plays one forehead hand of 1 card first (rulesets/boerenbridge.yaml)
    assert "With 4 players, hand 1 is the forehead hand." in section(rules_of("boerenbridge"), "hands")
