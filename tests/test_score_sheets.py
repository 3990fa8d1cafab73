"""`whistdsl score` reproduces the worked score sheets and scoring examples of RULES.md.

Every golden number here is copied from ../shared/RULES.md (the seeds' score sheets), never from
the code: each cell is scored by the command, the running totals are added up here, and the
totals are compared with the ones printed in RULES.md.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from typer.testing import CliRunner

from whistdsl.cli import app

runner = CliRunner()


def score(ruleset: str, *options: str) -> str:
    result = runner.invoke(app, ["score", ruleset, *options])
    assert result.exit_code == 0, result.output
    return result.stdout.strip()


def points(ruleset: str, cards: int, bid: int, tricks: int, **options: object) -> Fraction:
    extra = [item for name, value in options.items() for item in (f"--{name}", str(value))]
    text = score(ruleset, "--cards", str(cards), "--bid", str(bid), "--tricks", str(tricks), *extra)
    return Fraction(text)


# ---------------------------------------------------------------- RULES.md 1: Serbian whist

SERBIAN_PLAYERS = ("Igor", "Jovana", "Dunja", "Dušan")

# (hand size, trump, {player: (bid, tricks taken, running total printed on the sheet)})
SERBIAN_SHEET = [
    (13, "spades", {"Igor": (2, 2, 12), "Jovana": (4, 4, 14), "Dunja": (2, 1, 1), "Dušan": (6, 6, 16)}),
    (12, "diamonds", {"Igor": (1, 2, 14), "Jovana": (3, 3, 27), "Dunja": (5, 4, 5), "Dušan": (4, 3, 19)}),
]


def test_serbian_score_sheet_of_the_seed_is_reproduced_hand_by_hand() -> None:
    totals = dict.fromkeys(SERBIAN_PLAYERS, Fraction(0))
    for hand_number, (cards, trump, cells) in enumerate(SERBIAN_SHEET, start=1):
        for player in SERBIAN_PLAYERS:
            bid, tricks, printed_total = cells[player]
            totals[player] += points("serbian", cards, bid, tricks, players=4, trump=trump, hand=hand_number)
            assert totals[player] == printed_total, f"hand {hand_number} ({cards} {trump}), {player}"


@pytest.mark.parametrize(
    ("tricks", "expected"),
    [(2, 12), (1, 1), (0, -10)],
)
def test_serbian_bid_of_two_scores_as_the_rules_example_says(tricks: int, expected: int) -> None:
    assert points("serbian", 6, 2, tricks) == expected


# ---------------------------------------------------------------- RULES.md 2: Romanian whist

ROMANIAN_PLAYERS = ("Adrian", "Mihai", "Paul")

# (hand size, [(bid, running total printed on the sheet) per player], tricks taken per player)
ROMANIAN_SHEET = [
    (1, [(1, 6), (0, 5), (1, -1)], (1, 0, 0)),
    (1, [(0, 11), (0, 10), (0, -2)], (0, 0, 1)),
    (1, [(1, 10), (1, 16), (0, 3)], (0, 1, 0)),
    (2, [(0, 15), (2, 14), (2, 10)], (0, 0, 2)),
    (3, [(1, 14), (0, 19), (1, 16)], (2, 0, 1)),
]


def test_romanian_score_sheet_of_the_seed_is_reproduced_hand_by_hand() -> None:
    totals = dict.fromkeys(ROMANIAN_PLAYERS, Fraction(0))
    for hand_number, (cards, cells, taken) in enumerate(ROMANIAN_SHEET, start=1):
        assert sum(taken) == cards, "the sheet's tricks add up to the hand size"
        for player, (bid, printed_total), tricks in zip(ROMANIAN_PLAYERS, cells, taken):
            totals[player] += points("romanian", cards, bid, tricks, players=3, hand=hand_number)
            assert totals[player] == printed_total, f"hand {hand_number} ({cards} cards), {player}"


@pytest.mark.parametrize(
    ("tricks", "expected"),
    [(3, 8), (2, -1), (4, -1), (1, -2), (5, -2), (0, -3), (6, -3)],
)
def test_romanian_bid_of_three_scores_as_the_rules_example_says(tricks: int, expected: int) -> None:
    assert points("romanian", 6, 3, tricks) == expected


# ---------------------------------------------------------------- the whole table


def table(ruleset: str, cards: int) -> list[list[int]]:
    """`whistdsl score` without --bid/--tricks: rows are bids, columns tricks taken."""
    lines = score(ruleset, "--cards", str(cards)).splitlines()
    header = lines[0].split()
    assert header[1:] == [str(t) for t in range(cards + 1)]
    rows = [line.split() for line in lines[1:]]
    assert [row[0] for row in rows] == [str(b) for b in range(cards + 1)]
    return [[int(cell) for cell in row[1:]] for row in rows]


def test_romanian_table_for_a_two_card_hand_gives_every_bid_and_result() -> None:
    # made: 5 + tricks; missed: minus 1 per trick of difference
    assert table("romanian", 2) == [
        [5, -1, -2],
        [-1, 6, -1],
        [-2, -1, 7],
    ]


def test_serbian_table_for_a_two_card_hand_gives_every_bid_and_result() -> None:
    # made: 10 + tricks; missed: 1 per trick; no tricks after a bid above 0: -10
    assert table("serbian", 2) == [
        [10, 1, 2],
        [-10, 11, 2],
        [-10, 1, 12],
    ]


def test_score_asks_for_both_bid_and_tricks_or_neither() -> None:
    result = runner.invoke(app, ["score", "serbian", "--cards", "3", "--bid", "1"])
    assert result.exit_code == 2
    assert "give both --bid and --tricks" in result.output


def test_score_refuses_a_hand_the_deck_cannot_deal() -> None:
    # Romanian whist with 3 players keeps 24 cards: no 9-card hands (and no endless table)
    result = runner.invoke(app, ["score", "romanian", "--cards", "9", "--players", "3"])
    assert result.exit_code == 2
    assert "3 players need 27 cards, but the deck has 24" in result.output
    result = runner.invoke(app, ["score", "serbian", "--cards", "100000"])
    assert result.exit_code == 2
