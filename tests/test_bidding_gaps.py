"""The bidding gaps of language 2 (issue 10): named calls read of the other seats (Estimation's
"at most two dash calls"), lint's search through earlier bids trying named calls and blind
choices, `decisions.when` tried over every turned card, and the heuristic's choice to bid blind.

Whole games are checked against the rules as stated here, from the records of the game
(`history`), not by the engine's code.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from whistdsl import load_rules
from whistdsl.engine import Game
from whistdsl.players import BOTS, play_out
from whistdsl.players.heuristic import choose_blind

CASES = Path(__file__).parent / "lint_cases"


def dash_rules(tmp_path: Path, allowed: str, blind: str = "") -> Path:
    path = tmp_path / "dash.yaml"
    path.write_text(
        f"""whistdsl: 2
name: dash test
players: {{min: 4, max: 4}}
deck:
  suits: [spades, hearts, diamonds, clubs]
  ranks: [A, K, Q, J, T, 9, 8, 7, 6, 5, 4, 3, 2]
schedule: [13, 13, 13]
trump: {{cycle: [none, spades, hearts]}}
decisions:
  - name: bid
    calls: {{dash: 0}}{blind}
bidding:
  allowed: '{allowed}'
scoring:
  points: 'if call == "dash" then (if made then 33 else -33) else if made then 10 + tricks else -diff'
""",
        encoding="utf-8",
    )
    return path


@pytest.mark.parametrize("bots", ["random", "heuristic"])
def test_at_most_two_dash_calls_a_hand_read_through_earlier_calls(tmp_path, bots):
    # the rule: a number bid is at least 1; a dash (0 tricks) only while fewer than two players
    # before this one have called dash
    rules = load_rules(dash_rules(tmp_path, 'bid > 0 or (call == "dash" and count(earlier, call == "dash") < 2)'))
    dashes_seen = 0
    for seed in range(1, 9):
        game = Game(rules, players=4, seed=seed)
        play_out(game, [BOTS[bots]() for _ in range(4)])
        for h in game.history:
            dashes = [s for s, _ in h.bids if h.calls[s] == "dash"]
            assert len(dashes) <= 2, f"seed {seed}, hand {h.number}: {len(dashes)} dash calls"
            for seat, bid in h.bids:
                assert bid >= 1 or h.calls[seat] == "dash"
                tricks = h.taken[seat]
                if h.calls[seat] == "dash":
                    assert h.points[seat] == (33 if tricks == 0 else -33)
                else:
                    assert h.points[seat] == (10 + tricks if tricks == bid else -abs(tricks - bid))
            dashes_seen += len(dashes)
    assert dashes_seen > 0  # the games contain what the check is about


def test_lint_follows_named_calls_through_the_earlier_bids(tmp_path):
    # after one dash only dashes, and at most two: the third bidder has nothing left
    from whistdsl.rules.lint import lint_path

    bad = dash_rules(tmp_path, '(call == "dash" and count(earlier, call == "dash") < 2) or (call != "dash" and count(earlier, call == "dash") == 0)')
    findings = lint_path(bad, str(bad)).findings
    assert [f.code for f in findings] == ["W404"]
    assert "the player bidding third has no legal bid after the bids dash, dash" in findings[0].message


def test_lint_follows_blind_choices_through_the_earlier_bids(tmp_path):
    # a blind bidder may only dash, and a dash is allowed only after a blind bid: the first
    # bidder, once it has chosen to bid blind, has no legal bid
    from whistdsl.rules.lint import lint_path

    bad = dash_rules(tmp_path, '(not blind or call == "dash") and (call != "dash" or any(earlier, blind))', blind="\n    blind: may")
    findings = lint_path(bad, str(bad)).findings
    assert [f.code for f in findings] == ["W404"]
    assert "has no legal bid once it has chosen to bid blind" in findings[0].message


# ---------------------------------------------------------------- the heuristic's blind choice


def blind_game(tmp_path: Path, blind_factor: str) -> Game:
    path = tmp_path / "blind.yaml"
    path.write_text(
        f"""whistdsl: 2
name: blind test
players: {{min: 4, max: 4}}
deck:
  suits: [spades, hearts, diamonds, clubs]
  ranks: [A, K, Q, J, T, 9, 8, 7, 6, 5, 4, 3, 2]
schedule: [5, 5, 5, 5]
trump: {{turn_up: true}}
decisions:
  - name: bid
    blind: may
scoring:
  points: (if made then 10 + bid else -diff) * (if blind then {blind_factor} else 1)
""",
        encoding="utf-8",
    )
    return Game(load_rules(path), players=4, seed=3)


def blind_choices(game: Game) -> list[str]:
    play_out(game, [BOTS["heuristic"]() for _ in range(4)])
    return [c for h in game.history for _, d, c in h.choices if d == "blind"]


def test_the_heuristic_never_bids_blind_when_blind_pays_nothing_more(tmp_path):
    # blind scores as looking: seeing the cards first is never worse, so blind never pays
    choices = blind_choices(blind_game(tmp_path, "1"))
    assert choices and set(choices) == {"look"}


def test_the_heuristic_bids_blind_when_it_pays_many_times_over(tmp_path):
    # a blind bid made scores ten times as much, a miss costs the same difference: it pays
    choices = blind_choices(blind_game(tmp_path, "10"))
    assert choices.count("blind") > len(choices) // 2


def test_the_heuristic_looks_when_no_blind_bid_is_allowed(tmp_path):
    # blind bids are worth double, but the limits allow no blind bid but 0 of 5 cards... and a
    # blind 0 of 5 rarely pays; with no blind bid allowed at all, it must look
    path = tmp_path / "noblind.yaml"
    path.write_text(
        """whistdsl: 2
name: no blind bid
players: {min: 4, max: 4}
deck:
  suits: [spades, hearts, diamonds, clubs]
  ranks: [A, K, Q, J, T, 9, 8, 7, 6, 5, 4, 3, 2]
schedule: [5, 5]
trump: {turn_up: true}
decisions:
  - name: bid
    blind: may
bidding:
  allowed: not blind or bid == hand_size
scoring:
  points: (if made then 10 + bid else -diff) * (if blind then 2 else 1)
""",
        encoding="utf-8",
    )
    game = Game(load_rules(path), players=4, seed=5)
    view = game.view(game.to_act)
    assert view.decision == "blind"
    assert choose_blind(view, game.rng) == "look"


# ---------------------------------------------------------------- the auction (engine/auction.py)

from whistdsl.engine.auction import Auction  # noqa: E402


def test_an_auction_bid_must_outbid_and_a_pass_is_final():
    a = Auction(order=(1, 0, 3, 2), lowest=4, most=13, suits=("clubs", "diamonds", "hearts", "spades", "none"))
    assert a.to_act == 1 and a.options()[:3] == ["pass", "4 clubs", "4 diamonds"]
    a.apply("5 hearts")
    # as many tricks in a higher suit, or more tricks
    assert a.to_act == 0 and a.options()[:4] == ["pass", "5 spades", "5 none", "6 clubs"]
    a.apply("pass")
    a.apply("5 none")
    a.apply("pass")
    assert a.to_act == 1 and not a.done  # seat 0 passed: it is skipped from now on
    a.apply("6 clubs")
    assert a.to_act == 3
    a.apply("pass")
    assert a.done and a.contract() == (1, 6, "clubs")  # everyone else has passed


def test_when_everyone_passes_there_is_no_declarer():
    a = Auction(order=(0, 1, 2), lowest=1, most=3)
    assert a.options() == ["pass", "1", "2", "3"]  # numbers only, without suits
    for _ in range(3):
        a.apply("pass")
    assert a.done and a.contract() == (None, 0, None)


# ---------------------------------------------------------------- estimation (the auction rounds)

import json  # noqa: E402

from independent import check_estimation_auction_record  # noqa: E402

from whistdsl.records.record import game_record  # noqa: E402
from whistdsl.records.replay import Disagreement, replay  # noqa: E402


def estimation_points(rows: list[tuple[int, int]]) -> list:
    """rulesets/estimation.yaml's own scoring formula for a whole table: (bid, tricks) in bidding
    order, the declarer first."""
    from whistdsl.language.environment import result_env, seat_row, seat_sets

    rules = load_rules("estimation")
    table = tuple(seat_row(total=0, is_dealer=i == 3, position=i + 1, bid=b, tricks=t, is_declarer=i == 0) for i, (b, t) in enumerate(rows))
    out = []
    for i, (b, t) in enumerate(rows):
        env = result_env({"hand_size": 13, "trump": "hearts"}, b, t, position=i + 1, is_declarer=i == 0, auction_bid=rows[0][0])
        env.update(seat_sets(table, i))
        out.append(rules.points(env))
    return out


@pytest.mark.parametrize(
    ("rows", "points"),
    [
        # the declarer's estimate is its auction bid; exact: + the tricks; a miss: - the difference
        ([(6, 6), (3, 2), (0, 0), (4, 5)], [6, -1, 0, -1]),  # 6 exact; |3 - 2| = 1; an exact dash; |4 - 5| = 1
        ([(4, 2), (4, 4), (1, 1), (2, 6)], [-2, 4, 1, -4]),  # |4 - 2| = 2; 4 and 1 exact; |2 - 6| = 4
        # nobody exact: no score in the hand (not -1, -1, -2, -2)
        ([(5, 4), (4, 3), (2, 3), (1, 3)], [0, 0, 0, 0]),
        ([(13, 12), (0, 1), (0, 0), (1, 0)], [-1, -1, 0, -1]),  # one exact dash: the others lose
    ],
)
def test_estimation_auction_rounds_score_table(rows, points):
    assert sum(t for _, t in rows) == 13
    assert estimation_points(rows) == points


def estimation_game(seed: int, bots: tuple[str, ...]) -> Game:
    game = Game(load_rules("estimation"), players=4, seed=seed)
    play_out(game, [BOTS[b]() for b in bots])
    assert game.over
    return game


@pytest.mark.parametrize("seed, bots", [(1, ("random",) * 4), (2, ("heuristic", "random", "heuristic", "random")), (3, ("heuristic",) * 4)])
def test_whole_estimation_games_follow_the_rules(seed, bots):
    record = json.loads(json.dumps(game_record(estimation_game(seed, bots))))
    check_estimation_auction_record(record)
    assert replay(record).complete


def test_estimation_games_hold_declarers_passed_auctions_and_dashes():
    # the checker above is only as good as what the games contain
    declared = passed = dashes = 0
    for seed, bots in [(1, ("random",) * 4), (2, ("heuristic", "random", "heuristic", "random")), (3, ("heuristic",) * 4)]:
        for h in estimation_game(seed, bots).history:
            declared += h.declarer is not None
            passed += h.declarer is None
            dashes += sum(c == "dash" for c in h.calls)
    assert declared > 0 and passed > 0 and dashes > 0


def test_replay_catches_a_changed_auction_bid_and_a_changed_contract():
    record = json.loads(json.dumps(game_record(estimation_game(1, ("random",) * 4))))
    hand = next(h for h in record["hands"] if any(b.get("made_for") for b in h["bids"]))
    changed = json.loads(json.dumps(record))
    bid = next(b for b in changed["hands"][hand["number"] - 1]["bids"] if b.get("made_for"))
    bid["bid"] -= 1
    with pytest.raises(Disagreement) as caught:
        replay(changed)
    assert "was made for it (declarer)" in str(caught.value)
    changed = json.loads(json.dumps(record))
    first = changed["hands"][hand["number"] - 1]["choices"][0]
    first["choice"] = "pass" if first["choice"] != "pass" else "13 none"
    with pytest.raises(Disagreement) as caught:
        replay(changed)
    assert f"hand {hand['number']}" in str(caught.value)


def test_the_checker_catches_a_wrong_trump():
    # the independent checker itself: a planted error in a record is found
    from independent import Wrong

    record = json.loads(json.dumps(game_record(estimation_game(1, ("random",) * 4))))
    hand = record["hands"][0]
    hand["trump"] = "hearts" if hand["trump"] == "spades" else "spades"
    with pytest.raises(Wrong):
        check_estimation_auction_record(record)


# ---------------------------------------------------------------- seats excused from bidding


SKIP = """whistdsl: 2
name: skip test
players: {min: 4, max: 4}
deck:
  suits: [spades, hearts, diamonds, clubs]
  ranks: [A, K, Q, J, T, 9, 8, 7, 6, 5, 4, 3, 2]
schedule: [5, 5, 5, 5, 5, 5]
trump: {turn_up: true}
decisions:
  - name: bid
    skip: is_dealer and hand_number % 2 == 0     # the dealer is excused in the even hands
bidding:
  allowed: not (is_last and bids_so_far + bid == hand_size)
scoring:
  points: "if excused then tricks else if made then 10 + bid else -diff"
"""


@pytest.mark.parametrize("bots", ["random", "heuristic", "mc"])
def test_an_excused_seat_makes_no_bid_and_is_scored_by_excused(tmp_path, bots):
    path = tmp_path / "skip.yaml"
    path.write_text(SKIP, encoding="utf-8")
    game = Game(load_rules(path), players=4, seed=4)
    play_out(game, [BOTS[bots]() if bots != "mc" else BOTS[bots](samples=4) for _ in range(4)])
    record = json.loads(json.dumps(game_record(game)))
    for h, rh in zip(game.history, record["hands"]):
        excused = [s for s in range(4) if h.excused[s]]
        # the rule, from the file: the dealer is excused in the even hands, nobody else ever
        assert excused == ([h.dealer] if h.number % 2 == 0 else [])
        for b in rh["bids"]:
            seat, tricks = b["seat"], h.taken[b["seat"]]
            if seat in excused:
                assert b == {"seat": seat, "bid": 0, "made_for": "excused"}
                assert h.points[seat] == tricks
            else:
                assert h.points[seat] == (10 + b["bid"] if tricks == b["bid"] else -abs(tricks - b["bid"]))
        # the hook falls on the last seat that bids itself: the bids of the others never add up
        # to the hand size when the last of them bid itself
        if h.bids[-1][0] not in excused:
            assert sum(b for _, b in h.bids) != h.size
    assert replay(record).complete
    # a record that says the excused dealer bid itself is refused
    hand = next(rh for rh in record["hands"] if rh["number"] == 2)
    for b in hand["bids"]:
        b.pop("made_for", None)
    with pytest.raises(Disagreement):
        replay(record)


@pytest.mark.parametrize(
    ("ruleset", "words"),
    [
        ("estimation", "13 cards, trump named by the auction's winning bid;"),
        ("oh-hell-highest-bidder-trump", "trump named by the highest bidder, after the bidding;"),
    ],
)
def test_the_hands_header_says_who_names_trump_rather_than_a_trump_not_yet_known(ruleset, words):
    from typer.testing import CliRunner

    from whistdsl.cli import app

    result = CliRunner().invoke(app, ["play", ruleset, "--watch", "--seed", "3", "--bots", "random"])
    assert result.exit_code == 0, result.output
    header = next(line for line in result.output.splitlines() if line.startswith(("12 cards", "13 cards", "1 card")))
    assert words in header, header
    assert "no trump" not in header
