"""The bundled variants played (issue 4): whole games of every ruleset at every table size, their
points against scoring rules written here from RULES.md, and scripted games in which each
house rule (streak bonuses, 0 final, scratch ranking, "0" tie-break hands, the NV hand,
forehead hands) visibly fires.

Nothing here asks whistdsl how a variant scores or ranks: the scoring functions, streak
bonuses, winner rules and schedules below are translated directly from ../shared/RULES.md (and
the readings the rulesets state in their comments), and checked first against the
hand-computed cases of tests/test_variant_rulesets.py. The trick-level rules (follow suit,
must trump, the hook, trick winners, totals) are checked by tests/test_engine.py's independent
record checker.

Scripted games: the deals come from the seed, and bids never draw from the game's generator,
so a test can choose every bid. Every card is the first legal card; before a hand is bid, the
same deal is played once on the side (a set-up deal, `Game(..., deals=...)`) to see how many
tricks each seat will take, and the bids are then chosen to make or miss on purpose.
"""

from __future__ import annotations

import itertools
import json
import re
import subprocess
import sys
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Callable, Iterator

import pytest
from typer.testing import CliRunner

from test_engine import check_record
from test_variant_rulesets import SCORING
from whistdsl import load_rules
from whistdsl.cards import card
from whistdsl.cli import app
from whistdsl.engine import Game, IllegalAction, PresetDeal
from whistdsl.players import BOTS, RandomPlayer, decide, play_out
from whistdsl.record import game_record, read_exact

ROOT = Path(__file__).resolve().parents[1]
RULESETS = ROOT / "rulesets"

runner = CliRunner()


def bundled_names() -> list[str]:
    return sorted(p.relative_to(RULESETS).with_suffix("").as_posix() for p in RULESETS.rglob("*.yaml"))


# ---------------------------------------------------------------- scoring, from RULES.md
#
# Each function: (hand size n, bid, tricks, trump ("spades"... or None), players) -> points.
# d = |bid - tricks|; "made" = tricks == bid; "more" / "fewer" = tricks above / below the bid.

Points = Callable[[int, int, int, "str | None", int], "int | Fraction"]


def serbian_basic(n, bid, tricks, trump, players):
    # made -> 10 + tricks; a miss -> 1 a trick; no tricks after a bid above 0 -> -10
    if tricks == bid:
        return 10 + tricks
    return -10 if tricks == 0 else tricks


def romanian_basic(n, bid, tricks, trump, players):
    # made -> 5 + tricks; otherwise minus 1 per trick of difference
    return 5 + tricks if tricks == bid else -abs(bid - tricks)


def made_or(made, missed):
    """Points that depend only on whether the bid was made: made(n, bid, tricks), missed(...)."""
    return lambda n, bid, tricks, trump, players: made(n, bid, tricks) if bid == tricks else missed(n, bid, tricks)


def by_direction(made, more, fewer):
    def points(n, bid, tricks, trump, players):
        if tricks == bid:
            return made(n, bid, tricks)
        return more(n, bid, tricks) if tricks > bid else fewer(n, bid, tricks)

    return points


def d(bid: int, tricks: int) -> int:
    return abs(bid - tricks)


def made_zero_then_basic(zero_points):
    def points(n, bid, tricks, trump, players):
        if bid == tricks == 0:
            return zero_points(n)
        return serbian_basic(n, bid, tricks, trump, players)

    return points


def spades_double(n, bid, tricks, trump, players):
    return serbian_basic(n, bid, tricks, trump, players) * (2 if trump == "spades" else 1)


def binary_zero_rule(n, bid, tricks, trump, players):
    if n > players and bid == 0:
        return 20 if tricks == 0 else -10
    return 10 if tricks == bid else 0


POINTS: dict[str, Points] = {
    "serbian": serbian_basic,
    # harder rule: made -> 10 + tricks; took more -> tricks; took fewer -> tricks - 10
    "serbian-hard": by_direction(lambda n, b, t: 10 + t, lambda n, b, t: t, lambda n, b, t: t - 10),
    "romanian": romanian_basic,
    # progressive: a made contract scores 5 + 1 + 2 + ... + bid; misses as usual
    "romanian-progressive": made_or(lambda n, b, t: 5 + b * (b + 1) // 2, lambda n, b, t: -d(b, t)),
    # no premium: made -> tricks taken; misses as usual
    "romanian-no-premium": made_or(lambda n, b, t: t, lambda n, b, t: -d(b, t)),
    # section 3: exact -> 10 + bid; a miss -> 0
    "oh-hell": made_or(lambda n, b, t: 10 + b, lambda n, b, t: 0),
    # row 5: made -> 10 + 5 x bid; a miss -> -5 x bid; a missed 0 bid -> -10
    "cypriot": made_or(lambda n, b, t: 10 + 5 * b, lambda n, b, t: -10 if b == 0 else -5 * b),
    # the rows of section 1's table
    "scoring/exact": made_or(lambda n, b, t: 10 + b, lambda n, b, t: 0),
    "scoring/exact-penalty": made_or(lambda n, b, t: 10 + b, lambda n, b, t: -b),
    "scoring/ten-times-exact": made_or(lambda n, b, t: 10 * b, lambda n, b, t: 0),
    "scoring/penalty-under-zero-over": by_direction(lambda n, b, t: 10 + b, lambda n, b, t: 0, lambda n, b, t: -b),
    "scoring/fixed-penalty": by_direction(lambda n, b, t: 10 + b, lambda n, b, t: t, lambda n, b, t: -10),
    "scoring/progressive-penalty": made_or(lambda n, b, t: 10 + b, lambda n, b, t: -(b + 10 * d(b, t))),
    "scoring/reduced-zero": made_zero_then_basic(lambda n: 5),
    "scoring/adjusted-zero": made_zero_then_basic(lambda n: 5 + n),
    "scoring/progressive": made_or(lambda n, b, t: 10 + b * b, lambda n, b, t: t),
    "scoring/montreal": made_or(lambda n, b, t: 10 + 2 * t, lambda n, b, t: 0),
    "scoring/negative": made_or(lambda n, b, t: 0, lambda n, b, t: sum(range(1, d(b, t) + 1))),
    "scoring/simplified-negative": made_or(lambda n, b, t: 0, lambda n, b, t: d(b, t) ** 2),
    "scoring/variant-negative": made_or(lambda n, b, t: 0, lambda n, b, t: n),
    "scoring/spades-double": spades_double,
    "scoring/trick-points": made_or(lambda n, b, t: Fraction(1, 2) if b == 0 else b, lambda n, b, t: -d(b, t)),
    "scoring/binary": made_or(lambda n, b, t: 10, lambda n, b, t: 0),
    "scoring/binary-zero-rule": binary_zero_rule,
    "scoring/scratch": made_or(lambda n, b, t: 0, lambda n, b, t: 1),
    "scoring/adjusted-exact": made_or(lambda n, b, t: b + n, lambda n, b, t: 0),
    "scoring/get-fred": made_or(lambda n, b, t: b + 10, lambda n, b, t: -d(b, t)),
}
# The Romanian variants that change schedules, hand kinds, bonuses or the winner, not the points.
for _name in (
    "romanian-8-1-8",
    "romanian-forehead",
    "romanian-forehead-both",
    "romanian-nv",
    "romanian-streak-10",
    "romanian-streak-players",
    "romanian-streak-players-no-zeros",
    "romanian-tiebreak",
    "romanian-zero-final",
):
    POINTS[_name] = romanian_basic

LOWEST_WINS = {"scoring/negative", "scoring/simplified-negative", "scoring/variant-negative", "scoring/scratch"}


def test_every_bundled_ruleset_has_a_scoring_function_here():
    assert set(POINTS) == set(bundled_names())


@pytest.mark.parametrize("name", sorted(SCORING))
def test_the_scoring_functions_here_agree_with_the_hand_computed_cases(name):
    points = POINTS[name]
    for n, bid, tricks, trump, players, expected in SCORING[name]:
        got = points(n, bid, tricks, None if trump == "none" else trump, players)
        assert got == expected and type(got) is type(expected), (name, n, bid, tricks, trump, players)


# ---------------------------------------------------------------- streak bonuses, from RULES.md
#
# "A player who makes 10 contracts in a row gets +30; or a player who makes as many contracts in
# a row as there are players plus one gets +10. The same amounts are subtracted for the same
# number of consecutive failures. 1-card hands do not count toward streaks. Another version
# cancels the bonus if the player bid 0 in two consecutive hands." Readings (the rulesets'
# comments): 1-card hands are skipped (they neither extend nor break a run); after a bonus the
# run starts again; the cancellation needs the two 0 bids in consecutive counted hands of the
# same run of made contracts, and cancels only the +10.


def streak_bonuses(hands: list[dict], players: int, length: int, amount: int, zeros_cancel: bool) -> list[list[int]]:
    """The bonus of every seat in every hand of a record's `hands`."""
    made_run: list[list[int]] = [[] for _ in range(players)]  # the bids of the current run of made contracts
    missed_run = [0] * players
    out = []
    for hand in hands:
        bonus = [0] * players
        bids = {b["seat"]: b["bid"] for b in hand["bids"]}
        for seat, bid in bids.items():
            if hand["cards"] == 1:
                continue
            if hand["taken"][seat] == bid:
                missed_run[seat] = 0
                made_run[seat].append(bid)
                if len(made_run[seat]) == length:
                    run = made_run[seat]
                    two_zeros = any(a == b == 0 for a, b in zip(run, run[1:]))
                    bonus[seat] = 0 if zeros_cancel and two_zeros else amount
                    made_run[seat] = []
            else:
                made_run[seat] = []
                missed_run[seat] += 1
                if missed_run[seat] == length:
                    bonus[seat] = -amount
                    missed_run[seat] = 0
        out.append(bonus)
    return out


def expected_bonuses(name: str, hands: list[dict], players: int) -> list[list[int]]:
    if name == "romanian-streak-10":
        return streak_bonuses(hands, players, 10, 30, zeros_cancel=False)
    if name == "romanian-streak-players":
        return streak_bonuses(hands, players, players + 1, 10, zeros_cancel=False)
    if name == "romanian-streak-players-no-zeros":
        return streak_bonuses(hands, players, players + 1, 10, zeros_cancel=True)
    return [[0] * players for _ in hands]


# ---------------------------------------------------------------- who wins, from RULES.md


def expected_winners(name: str, hands: list[dict], players: int) -> list[int]:
    totals = [sum(read_exact(h["points"][s]) for h in hands) for s in range(players)]
    seats = list(range(players))
    if name == "romanian-zero-final":  # a player with exactly 0 points at the end wins
        seats = [s for s in seats if totals[s] == 0] or seats
    best = (min if name in LOWEST_WINS else max)(totals[s] for s in seats)
    seats = [s for s in seats if totals[s] == best]
    if name == "scoring/scratch":  # fewest scratches, then the most tricks in made bids
        made_tricks = {s: sum(h["taken"][s] for h in hands if {b["seat"]: b["bid"] for b in h["bids"]}.get(s) == h["taken"][s]) for s in seats}
        top = max(made_tricks.values())
        seats = [s for s in seats if made_tricks[s] == top]
    return seats


# ---------------------------------------------------------------- schedules, from RULES.md


def family(name: str) -> str:
    if name.startswith(("serbian", "scoring/")):
        return "serbian"
    if name.startswith("romanian"):
        return "romanian"
    assert name in ("oh-hell", "cypriot"), name
    return "oh-hell"


PLAYERS = {"serbian": range(4, 7), "romanian": range(3, 7), "oh-hell": range(3, 8)}


def expected_sizes(name: str, players: int) -> list[int]:
    """The scheduled hand sizes (tie-break hands come on top)."""
    p = players
    if family(name) == "serbian":  # top size floor(52 / players) down to 2, players x 1, back up
        top = 52 // p
        return [*range(top, 1, -1), *[1] * p, *range(2, top + 1)]
    if family(name) == "oh-hell":  # down from the largest hand that leaves a card to turn
        return list(range(51 // p, 0, -1))
    if name == "romanian-8-1-8":
        return [*[8] * p, *range(7, 1, -1), *[1] * p, *range(2, 8), *[8] * p]
    one_eight_one = [*[1] * p, *range(2, 8), *[8] * p, *range(7, 1, -1), *[1] * p]
    return one_eight_one + [8] if name == "romanian-nv" else one_eight_one


def expected_kinds(name: str, players: int) -> list[tuple[str, str]]:
    """(kind, mark) of every scheduled hand."""
    sizes = expected_sizes(name, players)
    kinds = [("normal", "")] * len(sizes)
    if name in ("romanian-forehead", "romanian-forehead-both"):
        kinds[-players:] = [("forehead", "")] * players  # the last 1-card hands
    if name == "romanian-forehead-both":
        kinds[:players] = [("forehead", "")] * players  # and the first ones
    if name == "romanian-nv":
        kinds[-1] = ("nv", "NV")
    return kinds


SERBIAN_TRUMPS = ["spades", "diamonds", "hearts", "clubs", None]
SUIT_LETTER = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


def check_game_shape(name: str, players: int, record: dict) -> None:
    """Hand sizes, kinds, trump, deck, dealers and who sits out, as RULES.md says."""
    hands = record["hands"]
    sizes = expected_sizes(name, players)
    scheduled, extra = hands[: len(sizes)], hands[len(sizes) :]
    assert [h["cards"] for h in scheduled] == sizes
    assert [(h["kind"], h["mark"]) for h in scheduled] == expected_kinds(name, players)
    assert not any(h["extra"] for h in scheduled)
    if name == "romanian-tiebreak":  # up to `players` extra "0" hands of 8 cards, every bid 0
        assert len(extra) <= players
        assert all((h["cards"], h["kind"], h["mark"], h["extra"]) == (8, "zero", "0", True) for h in extra)
        assert all(b["bid"] == 0 for h in extra for b in h["bids"])
    else:
        assert extra == []
    fam = family(name)
    ranks = "AKQJT98765432"[: 2 * players] if fam == "romanian" else "AKQJT98765432"
    step = -1 if fam == "serbian" else 1  # Serbian: the deal passes to the right
    for i, h in enumerate(hands):
        if i:
            assert h["dealer"] == (hands[i - 1]["dealer"] + step) % players
        assert all(c[0] in ranks for cards in h["deal"] for c in cards)
        if fam == "serbian":
            assert h["trump"] == SERBIAN_TRUMPS[i % 5] and h["turn_up"] is None
        elif fam == "romanian" and h["cards"] == 8:  # no card to turn: no trump
            assert h["trump"] is None
        else:
            assert h["turn_up"][0] in ranks and h["trump"] == SUIT_LETTER[h["turn_up"][1]]
        dead_hand = fam == "romanian" and players == 6
        assert h["sitting_out"] == ([h["dealer"]] if dead_hand else [])
        bidders = [b["seat"] for b in h["bids"]]
        assert bidders[0] == (h["dealer"] + step) % players  # next to the dealer bids first
        if not dead_hand:
            assert bidders[-1] == h["dealer"]


def check_played_game(name: str, players: int, record: dict) -> None:
    """Every rule of a played game's record, from RULES.md: the shape, the tricks (follow suit,
    must trump, the hook, winners), every seat's points (and bonus), totals and winners."""
    check_game_shape(name, players, record)
    hands = record["hands"]
    bonuses = expected_bonuses(name, hands, players)
    assert [[read_exact(b) for b in h["bonus"]] for h in hands] == bonuses
    # test_engine's checker knows no bonus: give it the hands with the bonus taken out
    without_bonus = json.loads(json.dumps(record))
    so_far = [0] * players
    for h, bonus in zip(without_bonus["hands"], bonuses):
        for s in range(players):
            so_far[s] += bonus[s]
            h["points"][s] = str(read_exact(h["points"][s]) - bonus[s])
            h["totals"][s] = str(read_exact(h["totals"][s]) - so_far[s])
    without_bonus["final"]["totals"] = [str(read_exact(t) - b) for t, b in zip(record["final"]["totals"], so_far)]

    def points(bid: int, tricks: int, hand: dict):
        return POINTS[name](hand["cards"], bid, tricks, hand["trump"], players)

    check_record(without_bonus, must_trump=family(name) != "oh-hell", hook=True, points=points)
    assert record["final"]["winners"] == expected_winners(name, hands, players)


# ---------------------------------------------------------------- every ruleset, every table size

GAMES = [(name, p) for name in bundled_names() for p in PLAYERS[family(name)]]


def test_every_ruleset_allows_the_table_sizes_of_rules_md():
    for name in bundled_names():
        rules = load_rules(name)
        allowed = PLAYERS[family(name)]
        assert (rules.players_min, rules.players_max) == (allowed[0], allowed[-1]), name


# Every (ruleset, table size) goes through the command line, and the same game (the same seed and
# computer players draw the same cards) through the engine, whose record is checked rule by rule;
# the winner line the command prints must be the record's. (`--record` would give the record
# straight from the command, but writing it after every hand costs more than playing the game.)
@pytest.mark.parametrize("name, players", GAMES)
def test_every_ruleset_plays_a_whole_watched_game_by_the_rules(name, players):
    seed = 100 + players
    result = runner.invoke(app, ["play", str(RULESETS / f"{name}.yaml"), "--watch", "--seed", str(seed), "--players", str(players), "--bots", "heuristic"])
    assert result.exit_code == 0, result.output
    scheduled = len(expected_sizes(name, players))
    assert f"Hand {scheduled} of {scheduled}" in result.stdout
    game = Game(load_rules(name), players, seed=seed)
    play_out(game, [BOTS["heuristic"]() for _ in range(players)])
    record = game_record(game)
    check_played_game(name, players, record)
    # the winner line under the score sheet (it may wrap at the sheet's width)
    winners, totals = record["final"]["winners"], record["final"]["totals"]
    said = " ".join(result.stdout[result.stdout.rindex("\nWinner") :].split("bid / running total")[0].split())
    if len(winners) == 1:
        assert said == f"Winner: Player {winners[0] + 1} ({totals[winners[0]]})"
    else:
        assert said == "Winners (tied): " + ", ".join(f"Player {w + 1} ({totals[w]})" for w in winners)
