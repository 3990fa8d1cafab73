"""What the table says and asks (cli/play.py `TableTalk`, `HumanPlayer`), as a new player meets it:
special cards told apart from the ranks, the turned card, the trump to name, an auction that
everyone passes, a seat excused from bidding, and the score sheet's marks explained.

The talk is printed on a rich Console into a string (plain text, a fixed width), and a person's
answers come from a list: what is said and asked is checked without a terminal.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Sequence

import pytest
from rich.console import Console
from rich.text import Text

from test_play_cli import TINY

from whistdsl import load_rules
from whistdsl.cli.play import HumanPlayer, TableTalk, specials_typed
from whistdsl.cli.sheet import score_sheet_text
from whistdsl.engine import Game, PresetDeal
from whistdsl.engine.cards import NO_TRUMP, card, parse_card, special_card
from whistdsl.engine.seat import Seat, Spectator
from whistdsl.players import RandomPlayer, play_out

ROOT = Path(__file__).resolve().parent.parent
WIZARD = load_rules(ROOT / "rulesets" / "wizard.yaml")
#: Wizard with its Jester marked J, the letter of the jacks (as the bundled Wizard once had it)
JESTER_J = """\
whistdsl: 2
extends: wizard
name: Wizard, the Jester marked J
deck:
  specials:
    wizard: {count: 4, mark: W}
    jester: {count: 4, mark: J}
"""


@pytest.fixture
def jester_j(tmp_path: Path):
    path = tmp_path / "jester-j.yaml"
    path.write_text(JESTER_J, encoding="utf-8")
    return load_rules(path)


def table(game: Game, you: int | None = 0) -> tuple[TableTalk, io.StringIO]:
    """The talk of `game` with you in seat `you` (None: watching), printed into the string returned."""
    out = io.StringIO()
    console = Console(file=out, width=100, color_system=None, force_terminal=False, highlight=False)
    window = Seat(game, you) if you is not None else Spectator(game)
    return TableTalk(console, window, [f"Player {s + 1}" for s in range(game.players)]), out


class Typist:
    """A person's answers, in order; the prompts they were asked at."""

    def __init__(self, answers: Sequence[str]):
        self.answers = list(answers)
        self.prompts: list[str] = []

    def __call__(self, prompt: Text, words: Sequence[str]) -> str:
        self.prompts.append(prompt.plain)
        if not self.answers:
            raise EOFError
        return self.answers.pop(0)


# ---------------------------------------------------------------- special cards


def test_a_jester_marked_like_the_jack_is_shown_by_its_name_beside_the_jack(jester_j) -> None:
    game = Game(jester_j, 4, seed=1)
    talk, _ = table(game)
    wizard, jester = special_card(0), special_card(1)
    shown = talk.hand([card("J", "S"), jester, wizard, card("Q", "H")], NO_TRUMP).plain.split()
    assert sorted(shown) == sorted(["W", "Jester", "J♠", "Q♥"])
    assert talk.cards_of([(1, jester), (2, card("J", "H"))], NO_TRUMP).plain == "Player 2 Jester, Player 3 J♥"


def dealt(rules, hands: list[str], turn_up: str, dealer: int = 3) -> Game:
    """The hand of `len(hands[0])` cards dealt as written (`hands[seat]`), `dealer` dealing."""
    deal = tuple(tuple(parse_card(c, rules.specials) for c in h.split()) for h in hands)
    size = len(deal[0])
    preset = PresetDeal(deal, dealer=dealer, turn_up=parse_card(turn_up, rules.specials))
    return Game(rules, len(hands), seed=1, deals={size: preset}, start_at=size)


def test_j_typed_with_a_jester_and_a_jack_in_hand_asks_which_was_meant(jester_j) -> None:
    game = dealt(jester_j, ["J JS", "2H 3H", "4H 5H", "6H 7H"], turn_up="2C")
    for _ in range(4):
        game.bid(0)
    talk, out = table(game)
    typist = Typist(["j", "jester"])
    HumanPlayer(Seat(game, 0), talk, typist).take_turn()
    assert "Which did you mean: J♠ or Jester? Type a card with its suit, or jester." in out.getvalue()
    assert typist.prompts == ["Your card: ", "Your card: "]
    assert game.trick == [(0, special_card(1))]


def test_the_help_at_the_start_says_how_a_special_whose_mark_is_a_rank_is_typed(jester_j) -> None:
    assert specials_typed(jester_j.specials) == ", or W for a wizard, or jester for a jester"


# ---------------------------------------------------------------- the turned card and the trump named


def test_a_turned_wizard_is_shown_while_the_dealer_names_trump_and_after() -> None:
    game = dealt(WIZARD, ["AS", "KS", "QS", "JS"], turn_up="W", dealer=0)
    assert (game.phase, game.decision, game.to_act) == ("decision", "trump", 0)
    for you in (0, None):  # at the table, and watching
        talk, out = table(game, you)
        talk.hand_starts()
        assert "1 card, trump named by the dealer (turned up: W); dealer " in out.getvalue()
    talk, out = table(game)
    HumanPlayer(Seat(game, 0), talk, Typist(["hearts"])).take_turn()
    assert "The card turned up is W. You name trump for this hand" in out.getvalue()
    assert talk.where_trump_comes_from(game.view(0)).plain == "trump ♥ hearts (named by you; turned up: W)"
    watching, _ = table(game, None)
    assert watching.where_trump_comes_from(game.view(1)).plain == "trump ♥ hearts (named by Player 1; turned up: W)"


def trump_to_name(case: str) -> tuple[Game, int]:
    """A game where a seat is to name trump now, and that seat."""
    if case == "wizard":  # a turned Wizard: the dealer names one of the four suits
        game = dealt(WIZARD, ["AS", "KS", "QS", "JS"], turn_up="W", dealer=0)
    else:  # the dealer of a one-card hand names spades, hearts or no trump
        game = Game(load_rules(ROOT / "tests" / "lint_cases" / "clean_nil_blind_and_a_trump_named_by_the_dealer.yaml"), 4, seed=1, start_at=3)
    assert game.decision == "trump"
    return game, game.to_act


def offered(said: str) -> list[str]:
    """The answers a trump prompt offers: `one of spades, hearts, none (no trump).`"""
    line = next(line for line in said.splitlines() if "You name trump for this hand: one of " in line)
    return [item.split()[0] for item in line.split("one of ", 1)[1].rstrip(".").split(", ")]


@pytest.mark.parametrize(("case", "answers"), [("wizard", ["spades", "hearts", "diamonds", "clubs"]), ("dealer", ["spades", "hearts", "none"])])
def test_the_trump_prompt_offers_exactly_the_answers_it_takes(case: str, answers: list[str]) -> None:
    game, seat = trump_to_name(case)
    talk, out = table(game, seat)
    talk.before_decision(game.view(seat))
    assert offered(out.getvalue()) == answers
    for answer in answers:  # each in a game of its own
        game, seat = trump_to_name(case)
        talk, out = table(game, seat)
        HumanPlayer(Seat(game, seat), talk, Typist([answer])).take_turn()
        assert game.choices == [(seat, "trump", answer)], out.getvalue()
    if "none" not in answers:
        game, seat = trump_to_name(case)
        talk, out = table(game, seat)
        HumanPlayer(Seat(game, seat), talk, Typist(["none", answers[0]])).take_turn()
        assert f"'none' is not an option: type one of {', '.join(answers)}." in out.getvalue()
        assert "no trump" not in out.getvalue()


# ---------------------------------------------------------------- an auction everyone passes


EXCUSED = ROOT / "tests" / "lint_cases" / "clean_an_auction_and_a_seat_excused_from_bidding.yaml"
#: (ruleset, hand, the trump in force when everyone passes)
AUCTIONS = {
    # the auction's winning bid names trump; with no winner, the trump rule stands: no trump
    "a suit bid": (ROOT / "rulesets" / "estimation.yaml", 1, "no trump"),
    # the winner names trump; with no winner, the trump rule stands: the cycle's spades, then no trump
    "a winner naming trump": (EXCUSED, 1, "trump ♠ spades"),
    "a winner naming trump, hand 3": (EXCUSED, 3, "no trump"),
}


@pytest.mark.parametrize("case", AUCTIONS)
@pytest.mark.parametrize("you", [0, None])
def test_after_an_auction_everyone_passed_the_trump_in_force_is_said(case: str, you: int | None) -> None:
    path, hand, trump = AUCTIONS[case]
    game = Game(load_rules(path), 4, seed=1, start_at=hand)
    talk, out = table(game, you)
    talk.hand_starts()
    while game.decision == "auction":
        seat = game.to_act
        game.decide("pass")
        talk.decision_made(seat, "auction", "pass")
    assert game.phase == "bidding" and game.declarer is None
    assert f"Everyone passed: there is no declarer; everyone bids as usual; {trump}." in out.getvalue()


# ---------------------------------------------------------------- the score sheet's marks


def played(rules, players: int, seed: int = 1) -> Game:
    game = Game(rules, players, seed=seed)
    play_out(game, [RandomPlayer() for _ in range(players)])
    return game


def legend_lines(rules, game: Game, hands: int | None = None) -> list[str]:
    """The lines under the sheet of the first `hands` hands (all by default), without the winner."""
    names = [f"Player {s + 1}" for s in range(game.players)]
    text = score_sheet_text(rules, names, game.history[:hands])
    return text[text.index("bid / running total") :].splitlines()


def test_the_sheet_says_what_its_hand_marks_mean_and_only_those_on_it(tmp_path: Path) -> None:
    (tmp_path / "tiny.yaml").write_text(TINY, encoding="utf-8")
    rules = load_rules(tmp_path / "tiny.yaml")  # hand 2 a forehead hand (FH), hand 3 a blind one marked NV
    game = played(rules, 4)
    assert legend_lines(rules, game) == [
        "bid / running total; * = contract made",
        "FH = a forehead hand: everyone sees every card but their own",
        "NV = a blind hand: everyone bids before seeing their cards",
    ]
    assert legend_lines(rules, game, 2)[1:] == ["FH = a forehead hand: everyone sees every card but their own"]
    assert legend_lines(rules, game, 1) == ["bid / running total; * = contract made"]
    talk, out = table(game, None)  # the sheet at the table
    talk.sheet()
    assert out.getvalue().endswith("NV = a blind hand: everyone bids before seeing their cards\n")


def test_a_mark_of_the_ruleset_is_explained_by_its_kinds_description() -> None:
    rules = load_rules(ROOT / "rulesets" / "romanian-nv.yaml")
    lines = legend_lines(rules, played(rules, 3))
    assert lines[1:] == ["NV = nevăzut (unseen) - bids are made before anyone looks at their cards"]


def test_a_seat_sitting_out_is_marked_and_the_mark_explained() -> None:
    rules = load_rules(ROOT / "rulesets" / "romanian.yaml")
    game = played(rules, 6)  # six players: the dealer sits out
    assert legend_lines(rules, game) == ["bid / running total; * = contract made", "- = sat out"]


# ---------------------------------------------------------------- a seat excused from bidding


def test_a_seat_excused_from_bidding_is_said_excused_in_the_bids_the_results_and_on_the_sheet() -> None:
    rules = load_rules(EXCUSED)  # the dealer is excused from bidding in the one-card hand, the third
    game = Game(rules, 4, seed=1, start_at=3)
    dealer = game.dealer
    while game.decision == "auction":
        game.decide("pass")
    while game.phase == "bidding":
        game.bid(game.legal_actions()[0])
    assert game.excused[dealer] and dict(game.bid_log)[dealer] == 0
    talk, out = table(game, None)
    talk.bidding_over()
    bids = out.getvalue()
    assert f"Player {dealer + 1} excused" in bids and f"Player {dealer + 1} 0" not in bids
    play_out(game, [RandomPlayer() for _ in range(4)])
    talk, out = table(game, None)
    talk.hand_over(game.history[-1])
    talk.sheet()
    said = out.getvalue()
    assert f"Player {dealer + 1} {game.history[-1].taken[dealer]}/excused " in said
    row = next(line for line in said.splitlines() if line.startswith("3 "))
    assert row.split("/")[dealer].split()[-1] == "x", row  # the dealer's cell: x, not a bid of 0
    assert said.endswith("x = excused from bidding (its bid of 0 made for it)\n")
