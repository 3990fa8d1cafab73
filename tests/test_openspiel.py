"""The bundled `openspiel` ruleset: OpenSpiel's oh_hell, one hand whose size is the parameter
`tricks` (google-deepmind/open_spiel, open_spiel/games/oh_hell/oh_hell.cc, with
off_bid_penalty: true). Score tables by hand, and whole seeded games checked by a small
independent checker written from those rules (not from the engine)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from whistdsl import load_rules
from whistdsl.cli import app
from whistdsl.engine import Game
from whistdsl.players import BOTS, play_out
from whistdsl.records.record import game_record
from whistdsl.records.replay import replay

runner = CliRunner()


def points_cli(tricks: int, bid: int, took: int, players: int = 4) -> str:
    result = runner.invoke(
        app,
        [
            "score",
            "openspiel",
            "--set",
            f"tricks={tricks}",
            "--players",
            str(players),
            "--cards",
            str(tricks),
            "--bid",
            str(bid),
            "--tricks",
            str(took),
        ],
    )
    assert result.exit_code == 0, result.output
    return result.stdout.strip()


# ComputeScore with off_bid_penalty and points_per_trick 1:
#   made (took == bid): 1 * took + 10;  missed: -(1 * |took - bid|)
SCORES = [
    # tricks, bid, took, points
    (5, 0, 0, 10),  # 0 + 10
    (5, 2, 2, 12),  # 2 + 10
    (5, 5, 5, 15),  # 5 + 10
    (5, 2, 0, -2),  # -(|0 - 2|)
    (5, 0, 5, -5),  # -(|5 - 0|)
    (5, 3, 4, -1),  # -(|4 - 3|)
    (1, 1, 1, 11),  # 1 + 10
    (1, 0, 1, -1),  # -(1)
    (12, 12, 12, 22),  # 12 + 10
    (12, 7, 2, -5),  # -(|2 - 7|)
]


@pytest.mark.parametrize("tricks, bid, took, points", SCORES)
def test_the_score_table_of_oh_hell_cc(tricks, bid, took, points):
    assert points_cli(tricks, bid, took, players=3) == str(points)


def test_the_player_range_follows_tricks_as_oh_hell_cc_limits_it():
    # num_tricks_fixed must be 1 .. (52 - 1) / players, and players 3 .. 7
    rules = load_rules("openspiel")
    assert rules.parameter_values == {"tricks": 5} and rules.players_default == 3
    expected = {1: 7, 5: 7, 7: 7, 8: 6, 10: 5, 12: 4, 13: 3, 17: 3}  # min(7, 51 // tricks)
    for tricks, most in expected.items():
        bound = rules.with_parameters({"tricks": tricks})
        assert (bound.players_min, bound.players_max) == (3, most), tricks
    with pytest.raises(ValueError):
        rules.with_parameters({"tricks": 18})  # 51 // 18 = 2: fewer than 3 players


def test_the_dealer_is_hooked_and_only_the_dealer():
    rules = load_rules("openspiel", settings=["tricks=5"])
    game = Game(rules, players=4, seed=3)
    order = []
    while game.phase == "bidding":
        seat = game.to_act
        order.append(seat)
        legal = game.legal_actions()
        if len(order) < 4:
            assert legal == [0, 1, 2, 3, 4, 5]  # any bid 0 .. tricks
            game.act(1)
        else:  # the dealer bids last: 1 + 1 + 1 + 2 would make 5
            assert legal == [0, 1, 3, 4, 5]
            game.act(0)
    dealer = game.view(0).dealer
    assert order == [(dealer + k) % 4 for k in range(1, 5)]  # left of the dealer first, the dealer last


# ------------------------------------------------------------------ an independent checker

RANKS = "23456789TJQKA"


def check_openspiel_hand(record: dict, tricks: int) -> None:
    """Check a whole record against OpenSpiel's oh_hell rules, from the rules alone."""
    n = len(record["players"])
    assert 3 <= n <= 7 and tricks <= 51 // n
    assert record["parameters"] == {"tricks": tricks}
    (hand,) = record["hands"]  # one hand
    assert hand["cards"] == tricks
    dealer = hand["dealer"]
    deal = [list(cards) for cards in hand["deal"]]
    every = [c for cards in deal for c in cards] + [hand["turn_up"]]
    assert all(len(cards) == tricks for cards in deal)
    assert len(set(every)) == len(every) and all(c[0] in RANKS and c[1] in "SHDC" for c in every)
    trump = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}[hand["turn_up"][1]]
    assert hand["trump"] == trump
    # bidding: clockwise from the dealer's left; the dealer (last) may not make the sum `tricks`
    bids = {}
    assert [b["seat"] for b in hand["bids"]] == [(dealer + k) % n for k in range(1, n + 1)]
    for b in hand["bids"]:
        assert 0 <= b["bid"] <= tricks
        bids[b["seat"]] = b["bid"]
    assert sum(bids.values()) != tricks
    # play: the dealer's left leads; follow suit if you can, else anything; highest trump, else
    # highest of the led suit, wins and leads the next trick
    held = [set(cards) for cards in deal]
    leader = (dealer + 1) % n
    taken = [0] * n
    for trick in hand["tricks"]:
        assert trick["leader"] == leader
        seats = [c["seat"] for c in trick["cards"]]
        assert seats == [(leader + k) % n for k in range(n)]
        led = trick["cards"][0]["card"][1]
        for c in trick["cards"]:
            seat, card = c["seat"], c["card"]
            assert card in held[seat]
            if card[1] != led:
                assert not any(h[1] == led for h in held[seat])  # void in the led suit
            held[seat].remove(card)
        trump_letter = hand["turn_up"][1]

        def power(card: str) -> tuple[int, int]:
            return (2 if card[1] == trump_letter else 1 if card[1] == led else 0, RANKS.index(card[0]))  # noqa: B023 called in this iteration

        winner = max(trick["cards"], key=lambda c: power(c["card"]))["seat"]
        assert trick["winner"] == winner
        taken[winner] += 1
        leader = winner
    assert len(hand["tricks"]) == tricks and all(not h for h in held)
    assert hand["taken"] == taken
    points = [10 + taken[s] if taken[s] == bids[s] else -abs(taken[s] - bids[s]) for s in range(n)]
    assert hand["points"] == points and hand["totals"] == points
    best = max(points)
    assert record["final"]["winners"] == [s for s in range(n) if points[s] == best]


@pytest.mark.parametrize("players, tricks", [(3, 17), (4, 5), (5, 10), (7, 7), (6, 1)])
def test_whole_seeded_games_pass_the_independent_checker(players, tricks):
    rules = load_rules("openspiel", settings=[f"tricks={tricks}"])
    for seed in range(12):
        game = Game(rules, players=players, seed=seed)
        kinds = ["random", "heuristic"] * 4
        play_out(game, [BOTS[kinds[s]]() for s in range(players)])
        record = json.loads(json.dumps(game_record(game)))
        check_openspiel_hand(record, tricks)
        assert replay(record).complete  # its own copy of the rules, with its own `tricks`


def test_simulate_and_replay_need_no_file_per_size(tmp_path: Path):
    result = runner.invoke(
        app, ["simulate", "openspiel", "--set", "tricks=5", "--players", "4", "--games", "200", "--workers", "1", "--format", "json"]
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["games"] == 200 and report["parameters"] == {"tricks": 5}
    for tricks in (3, 9):
        path = tmp_path / f"game-{tricks}.json"
        result = runner.invoke(
            app, ["play", "openspiel", "--set", f"tricks={tricks}", "--players", "5", "--watch", "--seed", "7", "--record", str(path)]
        )
        assert result.exit_code == 0, result.output
        record = json.loads(path.read_text())
        check_openspiel_hand(record, tricks)
        result = runner.invoke(app, ["replay", str(path)])
        assert result.exit_code == 0 and "the whole game agrees with the rules" in result.output
