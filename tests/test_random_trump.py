"""A random trump with weights (`trump.weights` beside `from: random`): a die, 1-4 a suit and 5-6
no trump. The draw worked out by hand for chosen values of the generator, a seeded tally of many
draws, whole games by each computer player checked by the independent checker, records replayed
(a no-trump draw too) and a record whose trump the rules cannot draw refused, explain's words and
the terminal's.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest
from independent import Rules, check_record
from typer.testing import CliRunner

from whistdsl import load_rules
from whistdsl.cli import app
from whistdsl.engine import Game
from whistdsl.engine.cards import NO_TRUMP, suit_number
from whistdsl.engine.trump import trump_step
from whistdsl.explain import explain, markdown
from whistdsl.players import BOTS, decide
from whistdsl.records.record import game_record
from whistdsl.records.replay import Disagreement, replay
from whistdsl.rules.lint import RulesetError

ROOT = Path(__file__).resolve().parent.parent
DIE = ROOT / "docs" / "examples" / "die-for-trump.yaml"
SPADES, HEARTS, DIAMONDS, CLUBS = (suit_number(s) for s in ("spades", "hearts", "diamonds", "clubs"))


def rules_of(tmp_path: Path, trump: str, deck: str = "", name: str = "house"):
    path = tmp_path / f"{name}.yaml"
    path.write_text(
        f"""whistdsl: 2
name: House trump
players: {{min: 3, max: 6, default: 4}}
{deck}schedule: [5, 4, 3, 2, 1]
trump:
{trump}
bidding:
  allowed: not (is_last and bids_so_far + bid == hand_size)
scoring:
  points: tricks + (if made then 10 else 0)
""",
        encoding="utf-8",
    )
    return load_rules(str(path))


def played(rules, players: int, seed: int, kind: str = "heuristic") -> dict:
    game = Game(rules, players=players, seed=seed)
    bots = [BOTS[kind]() if kind != "mc" else BOTS["mc"](samples=4) for _ in range(players)]
    while not game.over:
        game.act(decide(game, bots[game.to_act]))
    return json.loads(json.dumps(game_record(game, [kind] * players)))


# ---------------------------------------------------------------- the draw


def test_one_draw_of_the_generator_picks_the_die_face_it_falls_on():
    # the die's six faces: u * 6 rounded down is 0 spades, 1 hearts, 2 diamonds, 3 clubs, 4 and 5 no trump
    step = trump_step(load_rules(str(DIE)))
    faces = {0.0: SPADES, 0.16: SPADES, 0.17: HEARTS, 0.34: DIAMONDS, 0.5: CLUBS, 0.67: NO_TRUMP, 0.99: NO_TRUMP}
    for u, trump in faces.items():
        assert step.draw_trump(lambda: u) == trump, u  # noqa: B023 called in this iteration


def test_unequal_weights_give_each_outcome_its_share_of_the_total(tmp_path):
    # spades 3, clubs 1 (hearts, diamonds and none left out: 0): u * 4 below 3 is spades, else clubs
    step = trump_step(rules_of(tmp_path, "  from: random\n  weights: {spades: 3, clubs: 1}"))
    assert [step.draw_trump(lambda u=u: u) for u in (0.0, 0.5, 0.74, 0.75, 0.99)] == [SPADES, SPADES, SPADES, CLUBS, CLUBS]
    assert step.drawn == (SPADES, CLUBS)


def test_without_weights_the_draw_is_the_one_before_weights_and_equal_weights_draw_the_same(tmp_path):
    plain = trump_step(rules_of(tmp_path, "  from: random", name="plain"))
    equal = trump_step(rules_of(tmp_path, "  from: random\n  weights: {spades: 1, hearts: 1, diamonds: 1, clubs: 1}", name="equal"))
    suits = (SPADES, HEARTS, DIAMONDS, CLUBS)
    a, b, c = random.Random(5), random.Random(5), random.Random(5)
    for _ in range(200):
        before = suits[int(c.random() * 4)]  # the draw of engine/trump.py before `weights`
        assert plain.draw_trump(a.random) == before == equal.draw_trump(b.random)


def test_a_seeded_tally_of_sixty_thousand_rolls_is_near_one_in_six_per_suit_and_two_in_six_none():
    step = trump_step(load_rules(str(DIE)))
    rng = random.Random(26)
    tally = dict.fromkeys((SPADES, HEARTS, DIAMONDS, CLUBS, NO_TRUMP), 0)
    for _ in range(60_000):
        tally[step.draw_trump(rng.random)] += 1
    # expected 10,000 a suit and 20,000 none; one standard deviation is about 91 (a suit) and
    # 115 (none): 500 is more than four of them
    for suit in (SPADES, HEARTS, DIAMONDS, CLUBS):
        assert abs(tally[suit] - 10_000) < 500, tally
    assert abs(tally[NO_TRUMP] - 20_000) < 500, tally


# ---------------------------------------------------------------- whole games, records, replay


def _drawn(record: dict):
    by_number = {h["number"]: h["trump"] or "none" for h in record["hands"]}
    return lambda number, size, players, turn_up: by_number[number]


def _oh_hell_sizes(players: int) -> list[int]:
    # oh-hell's schedule: from the largest hand that leaves a card to turn up, down to 1
    top = (52 - 1) // players
    return list(range(top, 0, -1))


@pytest.mark.parametrize("kind", ["random", "heuristic", "mc", "search"])
def test_each_computer_player_plays_a_whole_game_with_the_die_and_it_replays(kind):
    rules = load_rules(str(DIE))
    game = Game(rules, players=4, seed=11)
    bots = [BOTS["mc"](samples=4) if kind == "mc" else BOTS[kind]() for _ in range(4)]
    while not game.over:
        game.act(decide(game, bots[game.to_act]))
    record = json.loads(json.dumps(game_record(game, [kind] * 4)))
    hands = record["hands"]
    assert len(hands) == 12 and all(h["trump_from"] == "random" and h["turn_up"] is None for h in hands)
    assert all(h["trump"] in ("spades", "hearts", "diamonds", "clubs", None) for h in hands)
    assert replay(record).complete
    check_record(
        record,
        Rules(sizes=_oh_hell_sizes, trump=_drawn(record), score=lambda bid, tricks, size: 10 + bid if tricks == bid else 0),
    )


def test_a_no_trump_rolled_is_kept_in_the_record_and_replayed_as_no_trump():
    rules = load_rules(str(DIE))
    records = [played(rules, 4, seed) for seed in range(4)]
    none = [(r, h["number"]) for r in records for h in r["hands"] if h["trump"] is None]
    suited = [h for r in records for h in r["hands"] if h["trump"] is not None]
    assert none and suited  # 48 hands: both outcomes come up
    for r in records:
        assert replay(r).complete
    # the same seed, the same rolls
    assert [h["trump"] for h in played(rules, 4, 0)["hands"]] == [h["trump"] for h in records[0]["hands"]]


def test_a_record_whose_trump_the_rules_cannot_draw_is_refused(tmp_path):
    rules = rules_of(tmp_path, "  from: random\n  weights: {hearts: 1, none: 1}")
    record = played(rules, 4, 3)
    assert {h["trump"] for h in record["hands"]} <= {"hearts", None}
    assert replay(record).complete
    bad = copy.deepcopy(record)
    bad["hands"][0]["trump"] = "spades"
    with pytest.raises(Disagreement, match="the record says trump spades was drawn at random; the rules draw only hearts, no trump"):
        replay(bad)


def test_a_record_of_no_trump_from_rules_that_never_draw_none_is_refused(tmp_path):
    rules = rules_of(tmp_path, "  from: random")
    record = played(rules, 4, 3)
    bad = copy.deepcopy(record)
    bad["hands"][1]["trump"] = None
    with pytest.raises(Disagreement, match="the record says trump none was drawn at random; the rules draw only spades, hearts, diamonds, clubs"):
        replay(bad)


# ---------------------------------------------------------------- words


def said(rules) -> str:
    return " ".join(markdown(explain(rules, 4)).split())


def test_explain_says_the_odds_of_each_outcome():
    assert "Trump is drawn at random: spades, hearts, diamonds or clubs 1 in 6 each, no trump 2 in 6." in said(load_rules(str(DIE)))


def test_explain_groups_outcomes_of_one_weight_and_says_a_plain_draw_too(tmp_path):
    uneven = rules_of(tmp_path, "  from: random\n  weights: {spades: 2, hearts: 1, diamonds: 1, clubs: 2}", name="uneven")
    assert "Trump is drawn at random: spades or clubs 2 in 6 each, hearts or diamonds 1 in 6 each." in said(uneven)
    plain = rules_of(tmp_path, "  from: random", name="plain")
    assert "Trump is drawn at random: spades, hearts, diamonds or clubs 1 in 4 each." in said(plain)
    after = rules_of(tmp_path, "  from: [turn_up, random]\n  weights: {hearts: 1, none: 3}", name="after")
    assert "A trump drawn at random is hearts 1 in 4, no trump 3 in 4." in said(after)


def test_the_terminal_says_a_rolled_no_trump_as_drawn_at_random():
    result = CliRunner().invoke(app, ["play", str(DIE), "--watch", "--seed", "3", "--bots", "heuristic", "--players", "4"])
    assert result.exit_code == 0, result.output
    lines = [line for line in result.output.splitlines() if "(drawn at random)" in line]
    assert len(lines) == 12
    assert any("no trump (drawn at random)" in line for line in lines)
    assert any("trump ♠ spades (drawn at random)" in line or "hearts (drawn at random)" in line for line in lines)


def test_trump_specials_need_their_meaning_without_trump_once_a_die_can_roll_no_trump(tmp_path):
    jokers = "deck:\n  specials:\n    joker: {count: 1, mark: JK}\n"
    suits_only = rules_of(tmp_path, "  from: random\n  weights: {spades: 1, hearts: 1}\n  specials: [joker]", deck=jokers, name="suits")
    assert suits_only.trump_specials == ("joker",)
    with pytest.raises(RulesetError) as refused:
        rules_of(tmp_path, "  from: random\n  weights: {spades: 1, none: 1}\n  specials: [joker]", deck=jokers, name="none")
    assert [f.code for f in refused.value.result.findings] == ["W431"]


def test_mc_guesses_a_trump_hidden_until_the_bidding_ends_by_the_weights(tmp_path):
    from whistdsl.players.mc import sample_hands, with_sampled_trump

    # only clubs can be drawn: every guess is clubs (without weights it would be any suit)
    rules = rules_of(tmp_path, "  from: random\n  weights: {clubs: 1}\n  seen: after_bidding")
    game = Game(rules, players=4, seed=1)
    view = game.view(game.to_act)
    assert view.trump_hidden and game.trump == CLUBS
    rng = random.Random(0)
    for _ in range(20):
        seen = with_sampled_trump(view, sample_hands(view, rng), rng)
        assert seen.trump == CLUBS and seen.hand_env["trump"] == "clubs"
