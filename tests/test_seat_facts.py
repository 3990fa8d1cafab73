"""Facts about the other seats (issue 10, kinds 2 and 7): aggregates over seat sets, and who
bids first and who leads chosen by a formula.

The language: `count/sum/max/min/all/any(SET, per-seat formula)` over `seats`, `others`, `earlier`
and `later`, told apart from the functions `sum(list)`, `max(a, b)` and `min(a, b)`, which keep
working unchanged. The engine: seeded whole games checked by independent checkers written from
the rules as stated in each test (never from the engine's code). The bundled
`estimation-fast-rounds`: hand-computed score tables (arithmetic beside each case) and whole
games checked against its sources' rules.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from whistdsl import load_rules
from whistdsl.engine import Game
from whistdsl.language.errors import ExprError
from whistdsl.language.program import formula
from whistdsl.players import RandomPlayer, play_out
from whistdsl.players.heuristic import HeuristicPlayer

HERE = Path(__file__).parent


def problems(text: str, context: str) -> list[tuple[str, int]]:
    try:
        formula(text, context)
    except ExprError as e:
        return [(p.code, p.column) for p in e.problems]
    return []


# ---------------------------------------------------------------- the language


def test_sum_max_min_stay_functions_of_numbers_and_lists():
    assert formula("sum([1, 2, 3]) + max(1, 5, 3) + min(4, 2)", "schedule")({"players": 4, "deck_size": 52}) == 6 + 5 + 2
    f = formula("max(bid, tricks) - min(bid, tricks)", "scoring")
    assert f.seat_reads == () and f({"bid": 2, "tricks": 5}) == 3


def test_each_aggregate_over_a_table():
    rows = ({"bid": 2, "made": True}, {"bid": 0, "made": False}, {"bid": 3, "made": True})
    env = {"seats": rows, "hand_size": 5}
    assert formula("count(seats, made)", "scoring")(env) == 2
    assert formula("sum(seats, bid)", "scoring")(env) == 5
    assert formula("max(seats, bid)", "scoring")(env) == 3
    assert formula("min(seats, bid)", "scoring")(env) == 0
    assert formula("all(seats, made)", "scoring")(env) is False
    assert formula("any(seats, made)", "scoring")(env) is True
    # table-wide names inside the per-seat formula read the same for every seat
    assert formula("count(seats, bid * 2 > hand_size)", "scoring")(env) == 1  # 4, 0, 6 against 5


def test_aggregates_over_no_seat():
    """The first bidder has no `earlier` seat: count and sum give 0, max and min 0 (documented),
    all true and any false."""
    env = {"earlier": ()}
    got = [
        formula(f"{name}(earlier, {arg})", "bidding")(env)
        for name, arg in (("count", "bid > 0"), ("sum", "bid"), ("max", "bid"), ("min", "bid"), ("all", "bid > 0"), ("any", "bid > 0"))
    ]
    assert got == [0, 0, 0, 0, True, False]


def test_the_memo_tells_tables_apart():
    f = formula("if is_dealer and count(seats, made) == 0 then 5 else 0", "bonus")
    missed = {"is_dealer": True, "seats": ({"made": False}, {"made": False})}
    one_made = {"is_dealer": True, "seats": ({"made": False}, {"made": True})}
    assert [f.cached(missed), f.cached(one_made), f.cached(missed)] == [5, 0, 5]


@pytest.mark.parametrize(
    ("text", "context", "expected"),
    [
        # a bid not yet made cannot be read: only `earlier` has bid
        ("bid <= hand_size - max(others, bid)", "bidding", [("W307", 32)]),
        ("bid <= hand_size - max(later, bid)", "bidding", [("W307", 31)]),
        ("count(seats, tricks) > 0", "bidding", [("W303", 14)]),  # tricks are not known yet
        ("count(earlier, is_last)", "bidding", [("W307", 16)]),  # this bidder's own turn
        ("sum(others, points)", "bonus", []),  # every seat's points are computed before the bonuses
        ("sum(others, points)", "scoring", [("W303", 13)]),  # not yet in scoring.points itself
        ("count(seat, made)", "scoring", [("W301", 7)]),  # did you mean `seats`?
        ("max(earler, bid)", "bidding", [("W301", 5)]),
        ("count(3, made)", "scoring", [("W308", 7)]),
        ("seats + 1", "scoring", [("W308", 1)]),
        ("count(seats, count(others, made) > 0)", "scoring", [("W308", 14)]),
        ("count(seats, made, 1)", "scoring", [("W308", 1)]),
        ("count(seats, bid)", "scoring", [("W302", 14)]),
        ("count(seats, made)", "schedule", [("W303", 7)]),
        ("max(earlier, bid)", "bidding", []),
        ("all(seats, total >= 0)", "winner", []),
    ],
)
def test_findings_and_their_columns(text, context, expected):
    assert problems(text, context) == expected


def test_did_you_mean_names_the_seat_set():
    with pytest.raises(ExprError) as e:
        formula("count(seat, made)", "scoring")
    assert e.value.problems[0].help == "did you mean `seats`?"


# ---------------------------------------------------------------- the engine, whole games


def custom(tmp_path: Path, text: str):
    path = tmp_path / "house.yaml"
    path.write_text(text, encoding="utf-8")
    return load_rules(str(path))


HOUSE = """\
whistdsl: 2
extends: oh-hell
name: House rules that read the other seats
players: {min: 4, max: 4, default: 4}
bidding:
  first: {lowest: total}
  allowed: bid <= hand_size - max(earlier, bid)
play:
  first_lead: {highest: bid}
scoring:
  bonus: if is_dealer and count(seats, made) == 0 then 5 else 0
running:
  exact: {start: 0, after_hand: "exact + (if made then 1 else 0)"}
winner:
  rank: ["highest total + (if exact == max(seats, exact) then 10 else 0)"]
"""


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_house_rules_over_whole_games(tmp_path, seed):
    """Checked from the rules as written in HOUSE:
    - the lowest total before the hand bids first (ties: the nearest seat after the dealer,
      clockwise), then clockwise;
    - no bid exceeds the hand size less the highest bid before it;
    - the highest bid leads the first trick (ties: the earlier bidder);
    - oh-hell's points (made: 10 + bid, else 0), and 5 more to the dealer when nobody made it;
    - at the end, 10 more for the most exact contracts (ties all get it) decide the winner."""
    rules = custom(tmp_path, HOUSE)
    game = Game(rules, players=4, seed=seed)
    play_out(game, [RandomPlayer(), HeuristicPlayer(), RandomPlayer(), HeuristicPlayer()])
    totals = [0, 0, 0, 0]
    exact = [0, 0, 0, 0]
    for hand in game.history:
        order = [seat for seat, _ in hand.bids]
        after_dealer = [(hand.dealer + i) % 4 for i in range(1, 5)]
        lowest = min(totals)
        assert order[0] == next(s for s in after_dealer if totals[s] == lowest)
        assert order == [(order[0] + i) % 4 for i in range(4)]
        bids = [bid for _, bid in hand.bids]
        for i, bid in enumerate(bids):
            assert bid <= hand.size - max(bids[:i], default=0)
        highest = max(bids)
        assert hand.tricks[0].leader == order[bids.index(highest)]
        made = [hand.taken[s] == dict(hand.bids)[s] for s in range(4)]
        for s in range(4):
            points = 10 + dict(hand.bids)[s] if made[s] else 0
            bonus = 5 if s == hand.dealer and not any(made) else 0
            assert (hand.points[s], hand.bonus[s]) == (points + bonus, bonus)
            totals[s] += points + bonus
            exact[s] += made[s]
    assert list(game.result.totals) == totals
    final = [totals[s] + (10 if exact[s] == max(exact) else 0) for s in range(4)]
    assert list(game.result.winners) == [s for s in range(4) if final[s] == max(final)]


def test_everybody_misses_the_dealer_scores_5(tmp_path):
    """A hand in which every seat misses: the dealer, and only the dealer, scores the 5."""
    rules = custom(tmp_path, HOUSE)
    for seed in range(40):
        game = Game(rules, players=4, seed=seed)
        play_out(game, [RandomPlayer()] * 4)
        missed = [h for h in game.history if all(h.taken[s] != dict(h.bids)[s] for s in range(4))]
        if missed:
            hand = missed[0]
            assert list(hand.bonus) == [5 if s == hand.dealer else 0 for s in range(4)]
            return
    pytest.fail("no hand in 40 games where everybody missed")


def test_heuristic_and_mc_players_play_the_house_rules(tmp_path):
    from whistdsl.players.mc import MonteCarloPlayer

    rules = custom(tmp_path, HOUSE.replace("players: {min: 4, max: 4, default: 4}", "players: {min: 3, max: 3, default: 3}\nschedule: [3, 2, 1]"))
    game = Game(rules, players=3, seed=5)
    play_out(game, [MonteCarloPlayer(samples=4), HeuristicPlayer(), RandomPlayer()])
    assert game.over and len(game.history) == 3


# ---------------------------------------------------------------- estimation-fast-rounds


def estimation_points(bids: list[int], tricks: list[int]) -> list:
    """The bundled ruleset's own formula for a whole table (bids and tricks in bidding order)."""
    from whistdsl.language.environment import result_env, seat_row, seat_sets

    rules = load_rules("estimation-fast-rounds")
    rows = tuple(seat_row(total=0, is_dealer=i == 3, position=i + 1, bid=b, tricks=t) for i, (b, t) in enumerate(zip(bids, tricks)))
    out = []
    for i, (b, t) in enumerate(zip(bids, tricks)):
        env = result_env({"hand_size": 13, "trump": "none"}, b, t, position=i + 1, is_dealer=i == 3)
        env.update(seat_sets(rows, i))
        out.append(rules.points(env))
    return out


@pytest.mark.parametrize(
    ("bids", "tricks", "points"),
    [
        # exact: + the tricks; a miss: - the difference
        ([3, 5, 0, 4], [3, 4, 0, 6], [3, -1, 0, -2]),  # 3 exact; |5 - 4| = 1; an exact dash 0; |4 - 6| = 2
        ([4, 4, 3, 1], [4, 4, 3, 2], [4, 4, 3, -1]),  # three exact; |1 - 2| = 1
        # nobody exact: no score in the hand (not -2, -1, -1, -1)
        ([2, 2, 2, 2], [4, 3, 3, 3], [0, 0, 0, 0]),
        ([13, 0, 0, 1], [0, 5, 5, 3], [0, 0, 0, 0]),
        # one exact is enough for the others to lose: |13 - 0| = 13, |0 - 5| = 5, 1 exact
        ([13, 0, 1, 1], [0, 5, 7, 1], [-13, -5, -6, 1]),  # |1 - 7| = 6
    ],
)
def test_estimation_score_table(bids, tricks, points):
    assert estimation_points(bids, tricks) == points


@pytest.mark.parametrize("seed", [11, 12])
def test_estimation_whole_games(seed):
    """Checked from the sources' rules (see the ruleset's comments): 5 hands of 13 cards; trumps
    none, spades, hearts, diamonds, clubs; the seat to the dealer's right bids first and the
    estimates go on to the right; at most two estimates of 0; the highest estimate leads (ties:
    the earlier); every card follows suit when it can and each trick goes to the highest trump,
    else the highest card of the suit led; points as in the table above."""
    rules = load_rules("estimation-fast-rounds")
    game = Game(rules, players=4, seed=seed)
    play_out(game, [HeuristicPlayer(), RandomPlayer(), HeuristicPlayer(), RandomPlayer()])
    assert [h.size for h in game.history] == [13] * 5
    totals = [0] * 4
    for n, hand in enumerate(game.history):
        trump = [None, 0, 1, 2, 3][n]  # suit numbers: spades 0, hearts 1, diamonds 2, clubs 3
        assert hand.trump == (trump if trump is not None else -1)
        order = [s for s, _ in hand.bids]
        assert order == [(hand.dealer - i) % 4 for i in range(1, 5)]  # to the right
        bids = [b for _, b in hand.bids]
        assert bids.count(0) <= 2
        assert hand.tricks[0].leader == order[bids.index(max(bids))]
        held = [list(cards) for cards in hand.deal]
        for trick in hand.tricks:
            led = trick.cards[0][1] >> 4
            for seat, card in trick.cards:
                if card >> 4 != led:
                    assert not any(c >> 4 == led for c in held[seat]), "did not follow suit"
                held[seat].remove(card)
            trumps = [(c, s) for s, c in trick.cards if trump is not None and c >> 4 == trump]
            followers = [(c, s) for s, c in trick.cards if c >> 4 == led]
            assert trick.winner == max(trumps or followers)[1]
        bid_of = dict(hand.bids)
        anyone = any(hand.taken[s] == bid_of[s] for s in range(4))
        for s in range(4):
            exact = hand.taken[s] == bid_of[s]
            expected = 0 if not anyone else (hand.taken[s] if exact else -abs(bid_of[s] - hand.taken[s]))
            assert hand.points[s] == expected
            totals[s] += expected
    assert list(game.result.totals) == totals


def test_estimation_records_replay_and_a_wrong_first_leader_is_caught(tmp_path, monkeypatch):
    """A recorded game replays; a record whose first trick is led by someone other than the
    highest bidder disagrees with the rules."""
    import json

    from typer.testing import CliRunner

    from whistdsl.cli import app

    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    played = runner.invoke(app, ["play", "estimation-fast-rounds", "--watch", "--seed", "4", "--record", "game.json"])
    assert played.exit_code == 0, played.output
    replayed = runner.invoke(app, ["replay", "game.json"])
    assert replayed.exit_code == 0 and "agrees with the rules" in replayed.output
    record = json.loads((tmp_path / "game.json").read_text())
    hand = record["hands"][0]
    bids = [b["bid"] for b in hand["bids"]]
    highest = hand["bids"][bids.index(max(bids))]["seat"]
    trick = hand["tricks"][0]
    assert trick["leader"] == highest
    other = next(b["seat"] for b in hand["bids"] if b["seat"] != highest)
    at = [c["seat"] for c in trick["cards"]].index(other)
    trick["leader"], trick["cards"] = other, trick["cards"][at:] + trick["cards"][:at]
    (tmp_path / "bad.json").write_text(json.dumps(record))
    refused = runner.invoke(app, ["replay", "bad.json"])
    assert refused.exit_code != 0
    assert f"the record says Player {other + 1} led; by the rules Player {highest + 1} leads" in refused.output  # named as at the table


def test_first_to_30_ends_the_game_after_the_hand_that_reaches_it(tmp_path):
    """`end.when: max(seats, total) >= 30`: the game ends after the first hand in which some
    player's total reaches 30 (the schedule 3, 2, 1 again and again, at most 60 hands)."""
    rules = custom(
        tmp_path,
        "whistdsl: 2\nextends: oh-hell\nname: First to 30\nplayers: {min: 4, max: 4, default: 4}\n"
        "schedule: [3 .. 1]\nend:\n  when: max(seats, total) >= 30\n  hands: 60\n",
    )
    for seed in (1, 2):
        game = Game(rules, players=4, seed=seed)
        play_out(game, [RandomPlayer()] * 4)
        reached = [max(h.totals) >= 30 for h in game.history]
        assert reached[-1] or len(game.history) == 60
        assert not any(reached[:-1])
