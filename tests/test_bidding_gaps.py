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
    from whistdsl.diagnostics.lint import lint_path

    bad = dash_rules(tmp_path, '(call == "dash" and count(earlier, call == "dash") < 2) or (call != "dash" and count(earlier, call == "dash") == 0)')
    findings = lint_path(bad, str(bad)).findings
    assert [f.code for f in findings] == ["W404"]
    assert "the player bidding third has no legal bid after the bids dash, dash" in findings[0].message


def test_lint_follows_blind_choices_through_the_earlier_bids(tmp_path):
    # a blind bidder may only dash, and a dash is allowed only after a blind bid: the first
    # bidder, once it has chosen to bid blind, has no legal bid
    from whistdsl.diagnostics.lint import lint_path

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
