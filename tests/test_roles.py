"""Reading one seat by its role (`dealer.bid`, `highest_bidder.bid`, `me.bid`) and the bonus
that reads every seat's points: the language, lint and whole games checked from the rules.

Expected values are worked out by hand from the rules as stated in each test, never by calling
the code under test for them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from whistdsl import load_rules
from whistdsl.engine import Game
from whistdsl.language.environment import seat_row, seat_sets
from whistdsl.language.errors import ExprError
from whistdsl.language.program import formula
from whistdsl.players import RandomPlayer, play_out
from whistdsl.players.heuristic import HeuristicPlayer


def table(results: list[tuple[int, int]], dealer: int) -> tuple[dict, ...]:
    """Every seat's row, in bidding order: (bid, tricks) per seat; `dealer` its index."""
    return tuple(seat_row(total=0, is_dealer=i == dealer, position=i + 1, bid=b, tricks=t) for i, (b, t) in enumerate(results))


def at(rows: tuple[dict, ...], index: int) -> dict:
    """The scoring environment of the seat at `index` of `rows`: its own facts and its sets."""
    env = dict(rows[index])
    env.update(seat_sets(rows, index))
    return env


# bids and tricks in bidding order: 2/2, 3/1, 3/2, 0/0; the dealer bids last (index 3)
ROWS = table([(2, 2), (3, 1), (3, 2), (0, 0)], dealer=3)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("dealer.bid", 0),  # the dealer is the fourth seat, bid 0
        ("dealer.made", True),  # 0 bid, 0 taken
        ("first_bidder.tricks", 2),
        ("last_bidder.position", 4),
        ("highest_bidder.position", 2),  # 3 and 3: the earlier of the equal bids (the second seat)
        ("highest_bidder.tricks", 1),
        ("first_bidder.bid + last_bidder.bid", 2),  # 2 + 0
    ],
)
def test_a_role_is_the_same_seat_for_every_seat(text, expected):
    f = formula(text, "scoring")
    assert [f(at(ROWS, i)) for i in range(4)] == [expected] * 4


def test_me_inside_a_per_seat_formula_is_this_seat():
    # how many others bid more than this seat: bids 2, 3, 3, 0 -> 2 (the two 3s), 0, 0, 3
    f = formula("count(others, bid > me.bid)", "scoring")
    assert [f(at(ROWS, i)) for i in range(4)] == [2, 0, 0, 3]
    # outside an aggregate `me.bid` is `bid`
    g = formula("me.bid * 10 + bid", "scoring")
    assert [g(at(ROWS, i)) for i in range(4)] == [22, 33, 33, 0]


def test_the_memo_tells_dealers_apart():
    f = formula("dealer.bid", "scoring")
    other = table([(2, 2), (3, 1), (3, 2), (0, 0)], dealer=1)  # the same bids, another dealer
    assert [f.cached(at(ROWS, 0)), f.cached(at(other, 0)), f.cached(at(ROWS, 0))] == [0, 3, 0]
    g = formula("count(others, bid > me.bid)", "scoring")
    assert [g.cached(at(ROWS, 0)), g.cached(at(ROWS, 1))] == [2, 0]  # this seat's bid is in the key


@pytest.mark.parametrize(
    ("text", "context", "code", "column"),
    [
        ("dealr.bid", "scoring", "W309", 1),
        ("dealer.trick", "scoring", "W309", 1),
        ("1 + me.hand_size", "scoring", "W309", 5),
        ("trump.bid", "scoring", "W309", 1),
        ("bid < dealer.bid", "bidding", "W307", 7),  # the dealer has not bid yet
        ("bid < first_bidder.bid", "bidding", "W307", 7),  # the first bidder may be this seat
        ("bid < highest_bidder.total", "bidding", "W303", 7),
        ("dealer.total > 0", "end", "W303", 1),
        ("dealer.points", "scoring", "W309", 1),  # points are not known yet in scoring.points
    ],
)
def test_findings_and_their_columns(text, context, code, column):
    with pytest.raises(ExprError) as e:
        formula(text, context)
    assert [(p.code, p.column) for p in e.value.problems] == [(code, column)]


def test_what_a_role_may_read_while_bidding():
    f = formula("bid <= first_bidder.total + dealer.position", "bidding")  # totals and places are known
    assert dict(f.seat_reads)["seats"] == ("is_dealer", "position", "total")


def test_a_role_reads_the_set_seats_only():
    """Picking the seat reads what picks it: the memo key and the engine's rows follow from it."""
    assert formula("highest_bidder.tricks", "bonus").seat_reads == (("seats", ("bid", "position", "tricks")),)
    assert formula("me.bid", "bonus").seat_reads == ()


# ---------------------------------------------------------------- whole games


def custom(tmp_path: Path, text: str):
    path = tmp_path / "house.yaml"
    path.write_text(text, encoding="utf-8")
    return load_rules(str(path))


MOST = """\
whistdsl: 2
extends: oh-hell
name: A bonus for the most points, and the dealer's contract
players: {min: 4, max: 4, default: 4}
scoring:
  points: if made then 10 + bid else 0
  bonus: "(if points == max(seats, points) then 5 else 0) + (if is_dealer then 0 else count(others, bid > me.bid))"
running:
  dealer_made: {start: 0, after_hand: "dealer_made + (if dealer.made then 1 else 0)"}
  beaten: {start: 0, after_hand: "beaten + count(others, points + bonus > me.points + me.bonus)"}
"""


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_bonus_reads_every_seats_points(tmp_path, seed):
    """Checked from MOST as written:
    - points: 10 + bid when made, else 0;
    - bonus: 5 to every seat whose points are the most this hand (ties all get it), and to every
      seat but the dealer one point for each other seat that bid more than it;
    - `dealer_made` counts the hands in which the dealer made its bid (the same for every seat);
    - `beaten` counts, per seat, the other seats whose points and bonus passed its own."""
    rules = custom(tmp_path, MOST)
    game = Game(rules, players=4, seed=seed)
    play_out(game, [RandomPlayer(), HeuristicPlayer(), RandomPlayer(), HeuristicPlayer()])
    totals = [0] * 4
    dealer_made = 0
    beaten = [0] * 4
    for hand in game.history:
        bids = dict(hand.bids)
        points = [10 + bids[s] if hand.taken[s] == bids[s] else 0 for s in range(4)]
        bonus = [
            (5 if points[s] == max(points) else 0) + (0 if s == hand.dealer else sum(1 for o in range(4) if o != s and bids[o] > bids[s]))
            for s in range(4)
        ]
        assert list(hand.bonus) == bonus
        assert list(hand.points) == [points[s] + bonus[s] for s in range(4)]
        dealer_made += hand.taken[hand.dealer] == bids[hand.dealer]
        scored = [points[s] + bonus[s] for s in range(4)]
        for s in range(4):
            totals[s] += scored[s]
            beaten[s] += sum(1 for o in range(4) if o != s and scored[o] > scored[s])
        assert [r["dealer_made"] for r in hand.running] == [dealer_made] * 4
        assert [r["beaten"] for r in hand.running] == beaten
    assert list(game.result.totals) == totals


HIGHEST = """\
whistdsl: 2
extends: oh-hell
name: The highest bidder leads and is rewarded
players: {min: 3, max: 3, default: 3}
schedule: [5, 4, 3]
play:
  first_lead: {highest: "if bid == highest_bidder.bid then 1 else 0"}
scoring:
  points: "if made then 10 + bid + (if position == highest_bidder.position then 5 else 0) else 0"
"""


@pytest.mark.parametrize("seed", [4, 5])
def test_the_highest_bidder_by_its_role(tmp_path, seed):
    """The highest bid (ties: the earlier bidder) leads the first trick and scores 5 more when made."""
    rules = custom(tmp_path, HIGHEST)
    game = Game(rules, players=3, seed=seed)
    play_out(game, [RandomPlayer()] * 3)
    for hand in game.history:
        order = [s for s, _ in hand.bids]
        bids = [b for _, b in hand.bids]
        highest = order[bids.index(max(bids))]  # index() finds the earlier of equal bids
        assert hand.tricks[0].leader == highest
        for s, b in hand.bids:
            expected = 10 + b + (5 if s == highest else 0) if hand.taken[s] == b else 0
            assert hand.points[s] == expected


def test_lint_tries_roles_in_its_tables(tmp_path):
    """`10 // (highest_bidder.bid - highest_bidder.tricks)` divides by zero when the highest bidder
    makes its bid: lint finds it in the table where the others all make their bids."""
    from whistdsl.rules.lint import lint_path

    path = tmp_path / "house.yaml"
    path.write_text(
        "whistdsl: 2\nextends: oh-hell\nname: x\nscoring:\n  points: 10 // (highest_bidder.bid - highest_bidder.tricks)\n",
        encoding="utf-8",
    )
    findings = lint_path(path).findings
    assert [(f.code, f.line) for f in findings if f.severity == "error"] == [("W305", 5)]
    assert "division by zero" in findings[0].message


# ---------------------------------------------------------------- whistdsl score --others

SCORED = """\
whistdsl: 2
extends: oh-hell
name: Points that read the other seats
players: {min: 4, max: 4, default: 4}
scoring:
  points: "if made then 10 + bid + count(others, bid > me.bid) + (if dealer.made then 0 else 2) else -diff"
"""


def score(tmp_path: Path, *args: str):
    from typer.testing import CliRunner

    from whistdsl.cli import app

    path = tmp_path / "scored.yaml"
    path.write_text(SCORED, encoding="utf-8")
    result = CliRunner().invoke(app, ["score", str(path), "--cards", "5", *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def test_score_with_the_other_seats_results(tmp_path):
    # this seat bids first (place 1): 2 bid, 2 taken; the others 3/2, 0/0, 1/1 (the dealer, last)
    # made: 10 + 2 + (one other bid more: the 3) + (the dealer made 1/1: 0) = 13
    assert score(tmp_path, "--bid", "2", "--tricks", "2", "--others", "3/2,0/0,1/1").stdout.strip() == "13"
    # the dealer missed (1 bid, 0 taken; the first other takes 3): 10 + 2 + 1 + 2 = 15
    assert score(tmp_path, "--bid", "2", "--tricks", "2", "--others", "3/3,0/0,1/0").stdout.strip() == "15"
    # this seat deals (--dealer 1) and made: the dealer made, 10 + 2 + 1 + 0 = 13
    assert score(tmp_path, "--bid", "2", "--tricks", "2", "--others", "3/3,0/0,1/0", "--dealer", "1").stdout.strip() == "13"
    # this seat at place 3 bids 0: the three others bid more (2, 3 and 1): 10 + 0 + 3 + 0 (the dealer, place 4, made 1/1) = 13
    assert score(tmp_path, "--bid", "0", "--tricks", "0", "--others", "2/2,3/2,1/1", "--set", "position=3").stdout.strip() == "13"
    # a miss: -diff, whatever the others did
    assert score(tmp_path, "--bid", "4", "--tricks", "1", "--others", "0/2,1/1,1/1").stdout.strip() == "-3"


def test_score_without_tricks_gives_each_bid_with_the_tricks_left(tmp_path):
    out = score(tmp_path, "--others", "3/2,0/0,1/1").stdout.splitlines()
    assert out[0].split() == ["bid", "points", "(tricks", "2)"]
    # tricks left: 5 - 3 = 2; bid 2 made: 10 + 2 + 1 (the 3) + 0 = 13; every other bid misses by |bid - 2|
    assert [line.split() for line in out[1:]] == [["0", "-2"], ["1", "-1"], ["2", "13"], ["3", "-1"], ["4", "-2"], ["5", "-3"]]


@pytest.mark.parametrize(
    ("args", "words"),
    [
        ((), "give their bids and tricks with --others"),
        (("--bid", "2", "--tricks", "2", "--others", "3/2,0/0"), "gives 2 seat(s), but 4 seats play"),
        (("--bid", "2", "--tricks", "2", "--others", "3/2,0/0,1/2"), "the tricks add up to 6"),
        (("--bid", "2", "--tricks", "2", "--others", "3/2,0/0,1/x"), "write BID/TRICKS"),
        (("--bid", "2", "--tricks", "2", "--others", "3/2,0/0,9/1"), "bid 9 is not within 0..5"),
        (("--others", "3/4,0/0,1/2"), "more than the 5 of the hand"),
        (("--bid", "2", "--tricks", "2", "--others", "3/2,0/0,1/1", "--set", "is_dealer=true"), "disagrees with the table"),
        (("--bid", "2", "--tricks", "2", "--others", "3/2,0/0,1/1", "--dealer", "5"), "1..4"),
        (("--bid", "2", "--tricks", "2", "--dealer", "2"), "give --others too"),
        (("--bid", "2", "--tricks", "2", "--set", "others=1"), "give `others` with --others"),
    ],
)
def test_score_refuses_a_table_that_cannot_be(tmp_path, args, words):
    result = score(tmp_path, *args)
    assert result.exit_code == 2
    assert words in result.output
