"""The contract of lint: a ruleset that lints clean plays every game to its end or to a rule error.

Lint tries every formula over every case it can enumerate (player counts, hands of the schedule
and tie-break hands, bid and tricks, positions, the dealer, trump) and names the case that
fails; values it cannot enumerate (running values, totals) it tries at a spread and warns
(W407). These tests state each part of that with a small ruleset written here, and their
expected cases worked out from the rules (not read back from the code).
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from whistdsl.cli import app
from whistdsl.diagnostics.findings import WARNINGS, Finding, render_github, render_json
from whistdsl.engine import Game, RuleError
from whistdsl.language import limits as formula_limits
from whistdsl.players import RandomPlayer, play_out
from whistdsl.rules import targets
from whistdsl.rules.lint import lint_path, load_rules
from whistdsl.rules.ruleset import MAX_GAME_HANDS, MAX_HANDS

PLAIN = """\
whistdsl: 1
name: Plain test game
players: {min: 4, max: 4}
schedule:
  - 3 .. 1
trump:
  cycle: [spades, hearts, none]
scoring:
  points: if made then 10 + tricks else tricks
"""

runner = CliRunner()


def write(folder: Path, text: str, name: str = "rules.yaml") -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def findings_of(folder: Path, text: str) -> list[Finding]:
    return lint_path(write(folder, text)).findings


def only(folder: Path, text: str) -> Finding:
    found = findings_of(folder, text)
    assert len(found) == 1, "\n".join(f"{f.code} {f.message}" for f in found)
    return found[0]


def replace_key(text: str, key: str, value: str) -> str:
    """PLAIN with its top-level `key:` block replaced by `value` (or `value` added)."""
    pattern = re.compile(rf"^{key}:.*?(?=^\S|\Z)", re.M | re.S)
    if pattern.search(text):
        return pattern.sub(lambda _: value.rstrip("\n") + "\n", text)
    return text + value


# ---------------------------------------------------------------- every finite case is tried


def test_a_formula_failing_only_at_one_player_count_names_that_count(tmp_path: Path) -> None:
    text = replace_key(PLAIN, "players", "players: {min: 3, max: 6}") + "let:\n  share: 12 / (players - 5)\n"
    text = text.replace("10 + tricks", "share + tricks")
    f = only(tmp_path, text)
    assert f.code == "W305" and "with 5 players" in f.message and "division by zero" in f.message


def test_a_formula_failing_only_in_one_hand_names_that_hand(tmp_path: Path) -> None:
    f = only(tmp_path, PLAIN.replace("10 + tricks", "10 / (hand_number - 2)"))
    # 3 .. 1 is hands 1, 2 and 3; hand_number - 2 is 0 in hand 2, whatever the bid
    assert f.code == "W305"
    assert f.message.startswith("with 4 players in hand 2, bid 0 and tricks 0: division by zero")


def test_tie_break_hands_are_tried_too(tmp_path: Path) -> None:
    text = PLAIN.replace("10 + tricks", "10 / (hand_number - 5)") + "tiebreak:\n  hands: 2\n  cards: 1\n"
    f = only(tmp_path, text)
    # the schedule has 3 hands: the tie-break hands are 4 and 5
    assert f.message.startswith("with 4 players in hand 5 (a tie-break hand), bid 0 and tricks 0: division by zero")


def test_the_dealer_is_tried_at_the_position_it_bids_from(tmp_path: Path) -> None:
    points = "if is_dealer then 10 / (position - 1) else 0"
    after_dealer = PLAIN.replace("if made then 10 + tricks else tricks", points)
    assert findings_of(tmp_path, after_dealer) == []  # the dealer bids last: position 4
    dealer_first = after_dealer + "bidding:\n  first: dealer\n"
    f = only(tmp_path, dealer_first)
    assert f.message.startswith("with 4 players in hand 1, position 1 and the dealer: division by zero")


def test_every_suit_and_no_trump_are_tried_when_a_formula_reads_trump(tmp_path: Path) -> None:
    f = only(tmp_path, PLAIN.replace("10 + tricks", "if trump == clubs then 10 / bid else 0"))
    assert f.message.startswith("with 4 players in hand 1, bid 0 and tricks 0 and trump clubs: division by zero")


def test_a_running_value_is_tried_at_its_start_value_in_the_first_hand(tmp_path: Path) -> None:
    text = PLAIN + "running:\n  r:\n    start: 0\n    after_hand: r + 10 / (bid + r)\n"
    f = only(tmp_path, text)
    assert f.code == "W305" and f.severity == "error"
    assert f.message.startswith("with 4 players in hand 1, bid 0, when r is 0: division by zero")


def test_a_kind_limit_that_cannot_be_evaluated_is_w305(tmp_path: Path) -> None:
    text = replace_key(PLAIN, "schedule", "schedule:\n  - 3 .. 1\n  - {cards: 2, kind: odd}\n")
    text += "kinds:\n  odd:\n    allowed: bid < 10 / (hand_size - 2)\n"
    f = only(tmp_path, text)
    assert f.code == "W305" and "in hand 4 (2 cards)" in f.message and "division by zero" in f.message


def test_the_bundled_rulesets_lint_clean_without_warnings() -> None:
    from whistdsl.resources import bundled_rulesets

    for name, path in bundled_rulesets().items():
        assert lint_path(path).findings == [], name


# ---------------------------------------------------------------- memo and budget


def test_a_formula_is_evaluated_once_per_distinct_case_of_what_it_reads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    spent: list[int] = []
    real = targets.Budget.spend
    monkeypatch.setattr(targets.Budget, "spend", lambda self, cost: (spent.append(cost), real(self, cost))[1])
    # 500 hands of 3 cards: points reads made and tricks only; bid and tricks 0..3 give 4 made
    # cases (tricks 0..3) and 4 missed ones (tricks 0..3), 8 in all, whatever the hand
    text = replace_key(PLAIN, "schedule", "schedule:\n  - repeat(3, 500)\n")
    assert findings_of(tmp_path, text) == []
    assert len(spent) == 8


def test_a_ruleset_with_too_many_cases_stops_within_the_budget_and_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    spent = [0]
    real = targets.Budget.spend

    def spend(self: targets.Budget, cost: int) -> None:
        spent[0] += cost
        real(self, cost)

    monkeypatch.setattr(targets.Budget, "spend", spend)
    text = replace_key(PLAIN, "players", "players: {min: 2, max: 2}")
    text = replace_key(text, "schedule", "schedule:\n  - repeat(26, 1000)\n")
    # every hand differs (hand_number), and every bid, trick count, seat and trump is read
    text = text.replace("if made then 10 + tricks else tricks", "hand_number + bid * tricks + position + (if trump == none then 1 else 0)")
    found = findings_of(tmp_path, text)
    assert [f.code for f in found] == ["W407"] and "lint stopped trying cases" in found[0].message
    assert spent[0] <= targets.MAX_CASES + 1 + targets.LIST_COST * formula_limits.MAX_LIST_OPS


# ---------------------------------------------------------------- warnings


WARNED = PLAIN.replace("if made then 10 + tricks else tricks", "100 / (total - 7)")


def test_a_division_by_a_total_is_a_warning_naming_the_total_that_makes_it_zero(tmp_path: Path) -> None:
    f = only(tmp_path, WARNED)
    assert (f.code, f.severity) == ("W407", "warning") and f.code in WARNINGS
    assert f.message.startswith("with 4 players in hand 2, when total is 7: division by zero")


def test_a_ruleset_with_only_warnings_lints_with_exit_0_and_plays(tmp_path: Path) -> None:
    path = write(tmp_path, WARNED)
    result = runner.invoke(app, ["lint", str(path)])
    assert result.exit_code == 0
    assert "no errors, 1 warning(s) in 1 file(s)" in result.output
    rules = load_rules(path)  # not refused
    assert Game(rules, seed=1).rules is rules


def test_warnings_are_marked_as_warnings_in_json_and_github_output(tmp_path: Path) -> None:
    path = write(tmp_path, WARNED)
    findings = lint_path(path).findings
    assert '"severity": "warning"' in render_json(findings)
    assert render_github(findings).startswith("::warning file=")
    result = runner.invoke(app, ["lint", "--format", "github", str(path)])
    assert result.exit_code == 0 and result.output.startswith("::warning ")


def test_errors_and_warnings_together_fail_lint_and_are_both_counted(tmp_path: Path) -> None:
    text = WARNED + "winner:\n  rank: [highest 1 / (players - 4)]\n"
    result = runner.invoke(app, ["lint", str(write(tmp_path, text))])
    assert result.exit_code == 1
    assert "1 finding(s) in 1 file(s), 1 warning(s)" in result.output


def test_a_bidding_limit_reading_the_total_is_tried_beyond_its_start(tmp_path: Path) -> None:
    text = PLAIN + "bidding:\n  allowed: bid <= total + 1\n"
    f = only(tmp_path, text)
    # hand 1 (every total 0) allows bids 0 and 1; a total of -1 still allows 0; -2 allows none
    assert (f.code, f.severity) == ("W407", "warning")
    assert f.message.startswith("with 4 players, in hand 2 (2 cards), the player bidding first has no legal bid, when total is -2")


def test_a_running_value_that_grows_past_the_cap_is_a_warning_naming_the_hand(tmp_path: Path) -> None:
    text = replace_key(PLAIN, "schedule", "schedule:\n  - repeat(1, 12)\n")
    text += "running:\n  streak:\n    start: 1\n    after_hand: (streak + 1) * (streak + 1)\n"
    f = only(tmp_path, text)
    # 1, 4, 25, 676, 458329, ~2.1e11, ~4.4e22 before hand 7, which squares it to ~1.9e45
    assert f.code == "W407" and " in hand 7: a number exceeds the limit of 10^30" in f.message


def test_totals_growing_past_the_cap_are_a_warning(tmp_path: Path) -> None:
    text = replace_key(PLAIN, "schedule", "schedule:\n  - repeat(1, 20)\n")
    text = text.replace("10 + tricks", "10 ^ 29")
    f = only(tmp_path, text)
    # 10^29 a hand: the total reaches 10 * 10^29 = 10^30 in hand 10
    assert f.code == "W407" and "in hand 10: the total exceeds the limit of 10^30" in f.message


def test_points_whose_denominators_grow_are_a_warning_at_the_hand_a_game_stops(tmp_path: Path) -> None:
    text = replace_key(PLAIN, "schedule", "schedule:\n  - repeat(1, 1000)\n")
    text = text.replace("if made then 10 + tricks else tricks", "1 / (hand_number * 1000003 + 7)")
    f = only(tmp_path, text)
    # the denominators 1000010, 2000013, ... share no factor: their product passes 10^30 in hand 5
    assert (f.code, f.severity) == ("W407", "warning") and " in hand 5: the total exceeds the limit of 10^30" in f.message
    game = Game(load_rules(write(tmp_path, text)), seed=1)
    with pytest.raises(RuleError) as stop:
        play_out(game, [RandomPlayer() for _ in range(4)])
    assert stop.value.hand == 5 and "the total would pass the number limit" in str(stop.value)


def test_points_of_one_denominator_over_many_hands_lint_clean(tmp_path: Path) -> None:
    text = replace_key(PLAIN, "schedule", "schedule:\n  - repeat(1, 1000)\n")
    assert findings_of(tmp_path, text.replace("if made then 10 + tricks else tricks", "tricks / 3 + 1 / 7")) == []


# ---------------------------------------------------------------- seats, schedule, deck


def test_a_hand_played_by_one_seat_is_w406(tmp_path: Path) -> None:
    text = replace_key(PLAIN, "players", "players: {min: 2, max: 4}") + "dealer:\n  sits_out: players == 2\n"
    f = only(tmp_path, text)
    assert f.code == "W406" and f.message.startswith("with 2 players, the dealer sits out hand 1 and only 1 player is left")


def test_the_schedule_is_not_expanded_past_the_cap(tmp_path: Path) -> None:
    entries = "".join("  - repeat(1, 10000)\n" for _ in range(1000))  # 10^7 hands if built whole
    f = only(tmp_path, replace_key(PLAIN, "schedule", "schedule:\n" + entries))
    assert f.code == "W403" and f"more than {MAX_HANDS} hands (its entries up to this one give 10000)" in f.message
    assert f.line == 5  # the first entry, where the expansion stopped


def test_tie_break_hands_count_towards_the_hands_of_a_game(tmp_path: Path) -> None:
    text = replace_key(PLAIN, "schedule", f"schedule:\n  - repeat(1, {MAX_GAME_HANDS})\n") + "tiebreak:\n  hands: 1\n  cards: 1\n"
    f = only(tmp_path, text)
    assert f.code == "W403" and f"a game can have {MAX_GAME_HANDS + 1} hands" in f.message


@pytest.mark.parametrize("ranks", ["[A, K, 10, T]", "[A, K, '10', T, 9]", "[A, K, Q, J, 10, 9, T]"])
def test_ten_and_t_are_one_rank(tmp_path: Path, ranks: str) -> None:
    f = only(tmp_path, PLAIN + f"deck:\n  ranks: {ranks}\n")
    assert f.code == "W406" and "names T more than once" in f.message


def test_a_suit_named_twice_is_a_finding(tmp_path: Path) -> None:
    f = only(tmp_path, PLAIN.replace("players: {min: 4, max: 4}", "players: {min: 4, max: 4}\ndeck:\n  suits: [spades, hearts, spades]"))
    assert f.code == "W203"


# ---------------------------------------------------------------- formula bounds


def test_a_number_with_too_many_digits_is_w305(tmp_path: Path) -> None:
    digits = "9" * 1900  # within the length limit, beyond any number of the language
    f = only(tmp_path, PLAIN.replace("10 + tricks", digits))
    assert f.code == "W305" and f"with 1900 digits; the limit is {formula_limits.MAX_DIGITS}" in f.message


def test_a_formula_building_too_many_lists_is_w304(tmp_path: Path) -> None:
    many = " + ".join(["len(1 .. 3)"] * (formula_limits.MAX_LIST_OPS + 1))
    f = only(tmp_path, PLAIN.replace("10 + tricks", many))
    assert f.code == "W304" and f"builds {formula_limits.MAX_LIST_OPS + 1} lists" in f.message
    within = " + ".join(["len(1 .. 3)"] * formula_limits.MAX_LIST_OPS)
    assert findings_of(tmp_path, PLAIN.replace("10 + tricks", within)) == []


def test_the_docs_state_the_formula_and_game_bounds() -> None:
    from docs_pages import DOCS, table_after

    limits = {row[0]: row[1] for row in table_after(DOCS / "expressions.md", "<!-- limits -->")}
    assert f"at most {formula_limits.MAX_DIGITS} digits" in limits["size of numbers"]
    assert f"at most {formula_limits.MAX_LIST_OPS} lists" in limits["lists"]
    assert f"at most {MAX_GAME_HANDS} hands in a game" in limits["schedule"]
    safety = {row[0]: row[1] for row in table_after(DOCS / "safety.md", "<!-- safety-limits -->")}
    assert any(f"{targets.MAX_CASES:,}".replace(",", " ") in v or str(targets.MAX_CASES) in v for v in safety.values())


# ---------------------------------------------------------------- the winner's default


WINNER_SHAPES = {
    "no winner key": "",
    "an empty winner mapping": "winner: {}\n",
    "wins_outright without rank": "winner:\n  wins_outright: total == 100000\n",
}


@pytest.mark.parametrize("shape", WINNER_SHAPES, ids=list(WINNER_SHAPES))
def test_leaving_out_the_ranking_means_highest_total(tmp_path: Path, shape: str) -> None:
    rules = load_rules(write(tmp_path, PLAIN + WINNER_SHAPES[shape]))
    assert [(k.highest, k.formula.source) for k in rules.rank] == [(True, "total")]
    game = Game(rules, seed=3)
    while not game.over:
        legal = game.legal_actions()
        game.act(legal[0])
    best = max(game.result.totals)
    assert list(game.result.winners) == [s for s, t in enumerate(game.result.totals) if t == best]


def test_a_child_that_removes_the_ranking_gets_the_default(tmp_path: Path) -> None:
    write(tmp_path, PLAIN + "winner:\n  rank: [lowest total]\n", "base.yaml")
    rules = load_rules(write(tmp_path, "whistdsl: 1\nextends: base.yaml\nwinner:\n  rank: ~\n"))
    assert [(k.highest, k.formula.source) for k in rules.rank] == [(True, "total")]


def test_without_a_winner_key_tie_break_hands_are_played_only_on_a_tie(tmp_path: Path) -> None:
    rules = load_rules(write(tmp_path, PLAIN + "tiebreak:\n  hands: 3\n  cards: 1\n"))
    rng = random.Random(5)
    for seed in range(30):
        game = Game(rules, seed=seed)
        while not game.over:
            game.act(rng.choice(game.legal_actions()))
        totals = [h.totals for h in game.history]
        after_schedule = totals[2]
        tied_after_schedule = after_schedule.count(max(after_schedule)) > 1
        assert (len(game.history) > 3) == tied_after_schedule, (seed, totals)


# ---------------------------------------------------------------- extends


def test_a_conflict_made_by_a_child_is_annotated_in_the_child_naming_the_base(tmp_path: Path) -> None:
    write(tmp_path, PLAIN.replace("  cycle: [spades, hearts, none]\n", "  turn_up: true\n"), "base.yaml")
    child = write(tmp_path, "whistdsl: 1\nextends: base.yaml\ntrump:\n  cycle: [spades, none]\n", "child.yaml")
    (f,) = lint_path(child).findings
    assert (Path(f.path).name, f.line, f.code) == ("child.yaml", 4, "W406")
    assert "trump.turn_up is at" in f.message and "base.yaml:7:" in f.message
    assert f"file={f.path}," in render_github([f])


def test_a_child_schedule_that_breaks_a_base_formula_is_reported_at_the_child_schedule(tmp_path: Path) -> None:
    write(tmp_path, PLAIN.replace("10 + tricks", "10 / (hand_size - 5)"), "base.yaml")
    child = write(tmp_path, "whistdsl: 1\nextends: base.yaml\nschedule:\n  - 6 .. 4\n", "child.yaml")
    (f,) = lint_path(child).findings
    # hand 2 of 6 .. 4 has 5 cards
    assert (Path(f.path).name, f.line, f.code) == ("child.yaml", 4, "W305")
    assert f.message.startswith("with 4 players in hand 2, bid 0 and tricks 0: division by zero (scoring.points is at")
    assert "base.yaml:9:" in f.message


def test_a_child_player_count_that_makes_the_deck_too_small_is_reported_in_the_child(tmp_path: Path) -> None:
    write(tmp_path, replace_key(PLAIN, "schedule", "schedule:\n  - 13 .. 12\n"), "base.yaml")
    child = write(tmp_path, "whistdsl: 1\nextends: base.yaml\nplayers: {min: 4, max: 5}\n", "child.yaml")
    (f,) = lint_path(child).findings
    assert (Path(f.path).name, f.code) == ("child.yaml", "W402")
    assert f.message.startswith("with 5 players, hand 1 deals 13 cards to each of 5 players: 65 cards, but the deck has 52")
    assert "schedule[0] is at" in f.message


def test_a_running_value_reading_the_bonus_of_a_ruleset_without_one_reads_0(tmp_path: Path) -> None:
    text = PLAIN + "running:\n  r:\n    start: 0\n    after_hand: r + 1 / (bonus - points + 10)\n"
    f = only(tmp_path, text)
    # no scoring.bonus: bonus is 0, and the points are 10 for a made bid of 0 (bid 0, tricks 0)
    assert f.code == "W305" and f.message.startswith("with 4 players in hand 1, bid 0 and tricks 0, when r is 0: division by zero")
