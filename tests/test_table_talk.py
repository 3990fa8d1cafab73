"""What the table says and asks (cli/play.py `TableTalk`, `HumanPlayer`), as a new player meets it:
special cards told apart from the ranks, the turned card, the trump to name, an auction that
everyone passes, a seat excused from bidding, and the score sheet's marks explained. The person
and the talk reach the game only through a seat (engine/seat.py): driven through a seat on
paper, with no game behind it, the person still sees the table and answers.

The talk is printed on a rich Console into a string (plain text, a fixed width), and a person's
answers come from a list: what is said and asked is checked without a terminal.
"""

from __future__ import annotations

import io
import random
from collections.abc import Sequence
from pathlib import Path

import pytest
from rich.console import Console
from rich.text import Text
from test_play_cli import TINY

from whistdsl import load_rules
from whistdsl.cli.play import HumanPlayer, TableTalk, specials_typed
from whistdsl.cli.sheet import score_sheet_text
from whistdsl.engine import Game, IllegalAction, PresetDeal
from whistdsl.engine.cards import NO_TRUMP, card, card_text, parse_card, special_card
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


# ---------------------------------------------------------------- the person holds a seat, never the game


class PaperSeat:
    """A seat on paper: what a real `Seat` showed at one moment (its view, its question, the
    hands played, ...), and the answers given to it. No game is behind it, so a person driven
    through it can reach none. `refusals` are raised, in order, at the first answers."""

    __slots__ = ("seat", "scheduled_hands", "_shown", "answers", "refusals")

    def __init__(self, seat: Seat, refusals: Sequence[Exception] = ()):
        self.seat = seat.seat
        self.scheduled_hands = seat.scheduled_hands
        self._shown = (seat.view(), seat.question(), seat.hands_played(), seat.trump_to_be_named(), seat.result())
        self.answers: list[dict] = []
        self.refusals = list(refusals)

    def view(self):
        return self._shown[0]

    def question(self):
        return self._shown[1]

    def hands_played(self):
        return self._shown[2]

    def trump_to_be_named(self):
        return self._shown[3]

    def result(self):
        return self._shown[4]

    def answer(self, answer: dict) -> dict:
        self.answers.append(dict(answer))
        if self.refusals:
            raise self.refusals.pop(0)
        return {"seat": self.seat, **answer}


def played_until(rules, seed: int, done) -> Game:
    """A game played through its seats with random legal answers until `done(game)`."""
    game = Game(rules, seed=seed)
    rng = random.Random(seed)
    while not done(game):
        seat = Seat(game, game.to_act)
        choices = seat.question().answers()
        seat.answer(choices[int(rng.random() * len(choices))])
    return game


def person_on_paper(game: Game, answers: Sequence[str], refusals: Sequence[Exception] = (), replaying: Sequence[dict] = ()):
    """The person at the seat to act, driven through a PaperSeat: (the paper seat, what the
    person typed at, the answers kept, what was said)."""
    paper = PaperSeat(Seat(game, game.to_act), refusals)
    out = io.StringIO()
    talk = TableTalk(
        Console(file=out, width=100, color_system=None, force_terminal=False, highlight=False),
        paper,
        [f"Player {s + 1}" for s in range(game.players)],
    )
    kept: list[dict] = []
    typist = Typist(answers)
    HumanPlayer(paper, talk, typist, kept.append, replaying).take_turn()
    return paper, typist.prompts, kept, out.getvalue()


def test_a_person_driven_through_a_paper_seat_plays_and_shows_the_table_without_any_game() -> None:
    rules = load_rules("serbian")
    game = played_until(rules, 4, lambda g: len(g.history) == 1 and g.phase == "play")  # hand 2, before its first trick
    first = game.history[0]
    typed = card_text(game.legal_cards()[0], rules.specials)
    paper, prompts, kept, said = person_on_paper(game, ["last", "sheet", "zz", typed])
    assert paper.answers == [{"card": typed}] and kept == [{"seat": game.to_act, "card": typed}]
    assert prompts == ["Your card: "] * 4
    assert f"The last trick (hand 1, trick {len(first.tricks)}, led by " in said  # the hand played, read from the paper seat
    assert "bid / running total" in said  # the sheet
    Seat(game, game.to_act).answer(paper.answers[0])  # the answer the person gave is one the real seat takes


def test_an_answer_the_seat_refuses_is_said_with_its_reason_and_asked_again() -> None:
    game = played_until(load_rules("serbian"), 1, lambda g: True)
    refused = IllegalAction("you may not bid 1 here", "hook")
    paper, prompts, kept, said = person_on_paper(game, ["1", "0"], refusals=[refused])
    assert paper.answers == [{"bid": 1}, {"bid": 0}]
    assert kept == [{"seat": game.to_act, "bid": 0}]  # only the answer taken is kept
    assert "You may not bid 1 here." in said and prompts == ["Your bid: ", "Your bid: "]


def test_a_card_on_the_forehead_is_played_through_the_seat_with_enter() -> None:
    rules = load_rules("romanian-forehead")
    game = played_until(rules, 1, lambda g: g.phase == "play" and not g.can_see_own_hand(g.to_act))
    paper, prompts, kept, said = person_on_paper(game, ["qh", ""])
    assert paper.answers == [{"card": None}] and kept == [{"seat": game.to_act, "card": None}]
    assert "You cannot see your card: press Enter to play it." in said
    assert prompts == ["Press Enter to play your card: "] * 2


def test_trump_is_named_through_the_seat() -> None:
    game, seat = trump_to_name("dealer")
    paper, _, kept, said = person_on_paper(game, ["sp"])
    assert paper.answers == [{"decision": "spades"}] and kept == [{"seat": seat, "decision": "spades"}]
    assert "You name trump for this hand: one of spades, hearts, none (no trump)." in said


def test_a_kept_answer_is_given_to_the_seat_again_without_asking_and_one_of_another_seat_is_not() -> None:
    game = played_until(load_rules("serbian"), 1, lambda g: True)
    seat = game.to_act
    paper, prompts, kept, _ = person_on_paper(game, [], replaying=[{"seat": seat, "bid": 2}])
    assert paper.answers == [{"bid": 2}] and prompts == [] and kept == []  # kept already: the record holds it
    paper, prompts, kept, _ = person_on_paper(game, ["1"], replaying=[{"seat": (seat + 1) % game.players, "bid": 2}])
    assert paper.answers == [{"bid": 1}] and prompts == ["Your bid: "] and kept == [{"seat": seat, "bid": 1}]
