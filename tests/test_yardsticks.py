"""The speed yardsticks (benchmarks/yardsticks/) play exactly the rules of the bundled rulesets.

benchmarks/bench_engine.py divides whistdsl's games per second by a dedicated hand-written
engine's; the ratio compares like with like only if both play the same game. Here each
yardstick's own `--check` re-verifies its games with its independent checker, and then the
same games are played through whistdsl: every deal the yardstick dealt is set up in a whistdsl
`Game` (`deals=`, `PresetDeal`), every bid, decision and card it chose is applied with `act`, and
at every step whistdsl's legal actions must be exactly those the yardstick's checker allows;
after every hand whistdsl's tricks and running totals must be the yardstick's. Deterministic
(fixed seeds), no timing.
"""

from __future__ import annotations

import contextlib
import functools
import importlib.util
import io
import random
from pathlib import Path

import pytest

from whistdsl import load_rules
from whistdsl.engine import Game, PresetDeal

YARDSTICKS = Path(__file__).resolve().parent.parent / "benchmarks" / "yardsticks"
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")


def yardstick(name: str):
    return load_script(YARDSTICKS / f"{name}.py")


def load_script(path: Path):
    spec = importlib.util.spec_from_file_location(f"script_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


@functools.cache
def bundled(name: str):
    return load_rules(name)


def suited(ranks: int):
    """A yardstick's card id (suit * ranks + rank, rank 0 the lowest of the deck) as whistdsl's."""
    return lambda c: (c // ranks) * 16 + 13 - ranks + c % ranks


def replay_in_whistdsl(ruleset: str, n: int, module, trace: list, card) -> int:
    """Play one yardstick game's trace through whistdsl, comparing every step; the hands compared."""
    hands = [r for r in trace if r[0] == "deal"]
    deals = {
        number: PresetDeal(
            deal=tuple(tuple(card(c) for c in cards) for cards in dealt),
            dealer=dealer,
            turn_up=None if turned is None else card(turned),
        )
        for number, (_, _, dealer, _, turned, dealt) in enumerate(hands, 1)
    }
    game = Game(bundled(ruleset), players=n, first_dealer=hands[0][2], deals=deals)
    trump = held = trick = playing = None
    for record in trace:
        tag = record[0]
        if tag == "deal":
            _, k, dealer, trump, _turned, dealt = record
            assert (game.hand_size, game.dealer, game.trump) == (k, dealer, trump)
            held = [list(cards) for cards in dealt]
            playing = sum(1 for cards in dealt if cards)
            trick = []
        elif tag == "trump":  # a seat names trump (a decision)
            _, seat, suit = record
            assert game.phase == "decision" and game.to_act == seat
            assert sorted(game.legal_actions()) == sorted(SUIT_NAMES)
            game.act(SUIT_NAMES[suit])
            assert game.trump == suit
            trump = suit
        elif tag == "bids":
            so_far = 0
            for i, (seat, bid) in enumerate(record[1]):
                assert game.phase == "bidding" and game.to_act == seat
                assert game.legal_actions() == module.legal_bids(game.hand_size, so_far, i == len(record[1]) - 1)
                game.act(bid)
                so_far += bid
        elif tag == "play":
            _, seat, c = record
            assert game.phase == "play" and game.to_act == seat
            allowed = module.legal_cards(n, held[seat], trick, trump)
            assert sorted(game.legal_actions()) == sorted(card(x) for x in allowed)
            game.act(card(c))
            held[seat].remove(c)
            trick.append(c)
            if len(trick) == playing:
                trick = []
        else:  # "end"
            _, tricks, totals = record
            last = game.history[-1]
            assert list(last.taken) == tricks and list(last.totals) == totals
    assert game.over
    assert list(game.result.totals) == trace[-1][2]
    return len(hands)


def run_check(module, *args: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        module.main(["--check", *args])
    return out.getvalue()


# ---------------------------------------------------------------- Romanian


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_romanian_yardstick_checks_its_games(players):
    assert "check OK" in run_check(yardstick("ref_romanian"), "--games", "5", "--players", str(players), "--seed", "3")


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_romanian_yardstick_plays_the_bundled_rules(players):
    """With 6 players the dealer sits out (the shared engine lets all six play)."""
    module = yardstick("ref_romanian")
    play = module.make_engine(players, random.Random(players))
    hands = 0
    for _ in range(8):
        trace: list = []
        scores = [0] * players
        play(scores, trace)
        assert module.check_trace(players, trace) == scores
        hands += replay_in_whistdsl("romanian", players, module, trace, suited(2 * players))
    assert hands >= 150


# ---------------------------------------------------------------- Serbian


@pytest.mark.parametrize("players", [4, 5, 6])
def test_serbian_yardstick_checks_its_games(players):
    assert "check OK" in run_check(yardstick("ref_serbian"), "--games", "5", "--players", str(players), "--seed", "3")


@pytest.mark.parametrize("players", [4, 5, 6])
def test_serbian_yardstick_plays_the_bundled_rules(players):
    module = yardstick("ref_serbian")
    play = module.make_engine(players, random.Random(players))
    hands = 0
    for _ in range(8):
        trace: list = []
        scores = [0] * players
        play(scores, trace)
        assert module.check_trace(players, trace) == scores
        hands += replay_in_whistdsl("serbian", players, module, trace, suited(13))
    assert hands >= 160


# ---------------------------------------------------------------- Wizard (language 2)


def wizard_card(c: int) -> int:
    """ref_wizard's trace ids: suited 0..51 as suit * 13 + rank, a Wizard 52, a Jester 53; in
    whistdsl the specials are 4 * 16 + their index in the ruleset's list (Wizard 0, Jester 1)."""
    return suited(13)(c) if c < 52 else 64 + c - 52


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_wizard_yardstick_checks_its_games(players):
    assert "check OK" in run_check(yardstick("ref_wizard"), "--games", "5", "--players", str(players), "--seed", "3")


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_wizard_yardstick_plays_the_bundled_rules(players):
    module = yardstick("ref_wizard")
    play = module.make_engine(players, random.Random(players))
    hands = named = 0
    for _ in range(12):
        trace: list = []
        scores = [0] * players
        play(scores, trace)
        assert module.check_trace(players, trace) == scores
        hands += replay_in_whistdsl("wizard", players, module, trace, wizard_card)
        named += sum(1 for r in trace if r[0] == "trump")
    assert hands >= 120 and named > 0  # some hands turned a Wizard: the dealer named trump


# ---------------------------------------------------------------- the benchmark's command line


def bench_engine(*args: str) -> tuple[int, str, str]:
    module = load_script(YARDSTICKS.parent / "bench_engine.py")
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = module.main(list(args))
    return code, out.getvalue(), err.getvalue()


def test_bench_engine_prints_a_row_per_game_and_table_size():
    """A smoke run (one short round; the figures themselves are not checked: no timed test)."""
    code, out, _ = bench_engine("--seconds", "0.001", "--rounds", "1", "--games", "serbian,wizard", "--players", "4", "--no-openspiel", "--markdown")
    assert code == 0
    rows = [line for line in out.splitlines() if line.startswith(("| serbian", "| wizard"))]
    assert [row.split("|")[1:3] for row in rows] == [[" serbian ", " 4 "], [" wizard ", " 4 "]]


@pytest.mark.parametrize(
    "args, message",
    [
        (("--games", "bridge"), "unknown game 'bridge'"),
        (("--players", "four"), "comma-separated list of whole numbers"),
        (("--seconds", "0"), "--seconds must be positive"),
        (("--reference", "no/such/engine.py"), "reference engine not found"),
        (("--games", "serbian", "--players", "3"), "nothing to measure"),
    ],
)
def test_bench_engine_refuses_bad_options(args, message):
    code, _, err = bench_engine(*args)
    assert code == 2 and message in err
