"""The compiled engine (engine/compiled.py) against the interpreter (game.py): the same games.

The whole differential: every bundled ruleset, at every table size it allows, played with the
same seeds by the compiled hands and by the interpreter alone, must give identical histories
(every field of every hand: deals, bids, tricks, points, totals, running values) and results.
Random players exercise the compiled random path (choices drawn in place); a player that
chooses by its own rule exercises the path that asks the players. Then the edges: illegal
actions and rule errors read the same from both, and a formula written out as Python
(language/codegen.py) computes what its closures compute. Last, the fuzzed rulesets of
tests/fuzzing (mutants of the bundled ones, a bounded derandomized sample) are played both ways too.
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import random
from fractions import Fraction
from pathlib import Path

import pytest
from fuzzing.oracle import hang_guard
from fuzzing.rulesets import HANG_SECONDS, Workspace, mutants, play_capped
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from whistdsl import load_rules
from whistdsl.engine import Game, IllegalAction, RuleError, compiled
from whistdsl.engine.table import table_facts
from whistdsl.language.codegen import HELPERS, Untranslatable, python_source
from whistdsl.language.errors import EvalError
from whistdsl.language.limits import MAX_NUMBER
from whistdsl.language.program import formula
from whistdsl.players import RandomPlayer, play_out
from whistdsl.players.heuristic import HeuristicPlayer
from whistdsl.resources import bundled_rulesets
from whistdsl.rules.lint import lint_path
from whistdsl.rules.ruleset import Ruleset

SEEDS = range(2)


class LastLegal:
    """An unobserving player with its own rule (the last legal action, or a seeded pick)."""

    kind = "last"
    observes = False

    def __init__(self, pick_random: bool = False):
        self.pick_random = pick_random

    def act(self, view, legal, rng):
        return legal[-1] if legal else None

    def chooser(self, rng):
        if self.pick_random:
            mine = random.Random(7)
            return lambda legal: legal[mine.randrange(len(legal))]
        return lambda legal: legal[-1]


@functools.cache
def bundled(name: str):
    return load_rules(bundled_rulesets()[name])


def both_ways(rules, n: int, seed: int, players) -> list:
    """(history, result) of one game, compiled then interpreted (or the error each raised)."""
    out = []
    for use_compiled in (True, False):
        game = Game(rules, players=n, seed=seed)
        game.use_compiled = use_compiled
        try:
            play_out(game, players())
            out.append((game.history, game.result, game.rng.getstate()))
        except (RuleError, IllegalAction) as e:
            out.append((type(e), str(e), game.history))
    return out


@pytest.mark.parametrize("name", sorted(bundled_rulesets()))
def test_every_bundled_ruleset_plays_the_same_games_compiled_and_interpreted(name):
    rules = bundled(name)
    tables = [n for n in range(rules.players_min, rules.players_max + 1) if rules.table_problem(n) is None]
    assert tables
    for n in tables:  # every table size it allows
        for seed in SEEDS:
            compiled, interpreted = both_ways(rules, n, seed, lambda: [RandomPlayer() for _ in range(n)])  # noqa: B023 called in this iteration
            assert compiled == interpreted, f"{name} at {n} players, seed {seed}"
        compiled, interpreted = both_ways(rules, n, 11, lambda: [LastLegal(pick_random=s % 2 == 1) for s in range(n)])  # noqa: B023 called in this iteration
        assert compiled == interpreted, f"{name} at {n} players, players with their own rule"


@pytest.mark.parametrize("name", sorted(bundled_rulesets()))
def test_players_reading_their_views_play_the_same_games_compiled_and_interpreted(name):
    # heuristic players bid from their views in game.py; the compiled hand plays the tricks
    rules = bundled(name)
    n = rules.players_default
    compiled, interpreted = both_ways(rules, n, 4, lambda: [HeuristicPlayer() for _ in range(n)])
    assert compiled == interpreted, f"{name} at {n} players"


def test_the_compiled_hand_is_used_where_it_can_be_and_says_what_it_leaves_to_the_interpreter():
    romanian = table_facts(bundled("romanian"), 4).compiled
    assert romanian.play_hand is not None and romanian.interpreted == ()
    assert "def play_hand_random(g):" in romanian.source
    # the hook, written out: the last bidder may not make the bids add up to the hand size
    assert "(k == last)" in romanian.source and "so_far + b" in romanian.source
    wizard = table_facts(bundled("wizard"), 4).compiled
    assert wizard.play_hand is not None
    assert any("special cards" in note for note in wizard.interpreted)
    declined = [name for name in bundled_rulesets() if table_facts(bundled(name), bundled(name).players_default).compiled.play_hand is None]
    assert 0 < len(declined) < len(bundled_rulesets()) // 4  # most bundled rulesets are compiled


def private_names(source: str) -> list[str]:
    """Every attribute named in `source` that starts with `_` (a private member of what it is read of)."""
    return sorted({node.attr for node in ast.walk(ast.parse(source)) if isinstance(node, ast.Attribute) and node.attr.startswith("_")})


@pytest.mark.parametrize("name", sorted(bundled_rulesets()))
def test_the_generated_code_calls_only_public_members_of_the_game(name):
    # the generated source is invisible to type checkers, linters and renames: it may use the
    # game only through its public, documented members
    rules = bundled(name)
    for n in range(rules.players_min, rules.players_max + 1):
        if rules.table_problem(n) is None:
            assert private_names(table_facts(rules, n).compiled.source) == [], f"{name} at {n} players"
    assert private_names("g._begin(1)\ng.trick = g._cache") == ["_begin", "_cache"]  # the check itself finds them


def test_every_field_of_a_ruleset_is_either_supported_by_a_piece_or_left_to_the_interpreter():
    # the allow-list names fields that exist; a field nobody lists is not compiled unless left as by default
    listed = [field for piece in compiled.PIECES for field in piece.supports]
    assert len(listed) == len(set(listed))  # each rule in one piece
    assert set(listed) <= {f.name for f in dataclasses.fields(Ruleset)}
    unlisted = {f.name for f in dataclasses.fields(Ruleset)} - set(listed)
    # trump_weights (a random trump's odds): game.py sets up every hand with a trump source, so
    # a piece could declare it; until one does, such rulesets play on the interpreter
    # redeal (a hand dealt again) and declare (declarations before the bidding) play on the interpreter
    assert unlisted == {
        "calls",
        "blind_bids",
        "bids_together",
        "bids_together_who",
        "auction",
        "skip",
        "trump_weights",
        "redeal",
        "declare",
        "super_trumps",
    }
    assert all(compiled.why_not_compiled(bundled(name)) is None or bundled(name).has_decisions for name in bundled_rulesets())
    # wild cards are a value of `specials` (deck.specials.<name>.wild): the piece that lists
    # specials supports them only when none is wild, so a deck with a joker plays on the interpreter
    joker = load_rules(Path(__file__).resolve().parent.parent / "docs" / "examples" / "oh-hell-joker.yaml")
    assert compiled.why_not_compiled(joker) == "its deck has wild cards"
    assert compiled.why_not_compiled(bundled("wizard")) is None


@dataclasses.dataclass(frozen=True)
class RulesetOfTomorrow(Ruleset):
    """A ruleset with a rule added after the generated hand was written (issue 26's example)."""

    redeal_when_no_trump: bool = False


def test_a_rule_no_piece_lists_runs_on_the_interpreter_and_plays_the_same_games():
    romanian = bundled("romanian")
    as_ever = RulesetOfTomorrow(**{f.name: getattr(romanian, f.name) for f in dataclasses.fields(Ruleset)})
    assert compiled.why_not_compiled(as_ever) is None  # the new rule left as by default: compiled as ever
    tomorrow = dataclasses.replace(as_ever, redeal_when_no_trump=True)
    assert compiled.why_not_compiled(tomorrow) == "the rule 'redeal_when_no_trump' is not compiled"
    hand = compiled.compiled_hand(table_facts(tomorrow, 4))
    assert hand.play_hand is None and hand.play_game_random is None
    assert hand.interpreted == ("every hand is interpreted: the rule 'redeal_when_no_trump' is not compiled",)


def test_a_rule_taken_off_the_allow_list_runs_on_the_interpreter_and_still_agrees(monkeypatch):
    # the scoring piece stops listing `points` (the rule every ruleset has): the generated hand is declined,
    # and the game, played by the interpreter in its place, is the game the compiled hand plays
    rules = bundled("romanian")
    facts = table_facts(rules, 4)
    expected = both_ways(rules, 4, 8, lambda: [RandomPlayer() for _ in range(4)])
    assert expected[0] == expected[1]
    pieces = tuple(compiled.Piece(p.name, {k: v for k, v in p.supports.items() if k != "points"}) for p in compiled.PIECES)
    monkeypatch.setattr(compiled.pieces, "PIECES", pieces)  # where why_not_compiled reads it
    declined = compiled.compiled_hand(facts)
    assert declined.play_hand is None and "'points'" in declined.interpreted[0]
    monkeypatch.setitem(facts.__dict__, "compiled", declined)
    calls = []
    monkeypatch.setattr(Game, "score_hand", lambda g, real=Game.score_hand: calls.append(g.hand_number) or real(g))
    assert both_ways(rules, 4, 8, lambda: [RandomPlayer() for _ in range(4)]) == expected
    assert len(calls) == 2 * 24  # every hand of both games scored by the interpreter


def test_the_compiled_hand_really_plays_the_hands():
    # players with their own rule: each hand is one call of the generated play_hand
    rules = load_rules("romanian")
    facts = table_facts(rules, 4)
    calls = []
    original = facts.compiled
    real = original.play_hand

    class Spy:
        source, interpreted = facts.compiled.source, facts.compiled.interpreted
        play_game_random = start_hand = None

        @staticmethod
        def play_hand(g, choose):
            calls.append(g.hand_number)
            return real(g, choose)

    facts.__dict__["compiled"] = Spy
    try:
        game = Game(rules, players=4, seed=1)
        play_out(game, [LastLegal(pick_random=True) for _ in range(4)])
    finally:
        facts.__dict__["compiled"] = original
    assert calls == list(range(1, len(game.history) + 1))


def test_random_games_run_in_one_generated_loop():
    # random players: the generated game loop is entered once, and sets up every later hand
    # itself (game.py's begin_hand sets up the first hand only, when the game is made)
    rules = load_rules("romanian")
    facts = table_facts(rules, 4)
    original = facts.compiled
    entered, set_up = [], []
    real_loop, real_start = original.play_game_random, Game.begin_hand

    def loop(g):
        entered.append(g.index)
        return real_loop(g)

    def start(g, index, reuse_hands=False):
        set_up.append(index)
        return real_start(g, index, reuse_hands)

    facts.__dict__["compiled"] = dataclasses.replace(original, play_game_random=loop)
    Game.begin_hand = start
    try:
        for seed in (1, 2):  # the second game finds every hand's set-up worked out
            entered.clear()
            set_up.clear()
            game = Game(rules, players=4, seed=seed)
            play_out(game, [RandomPlayer() for _ in range(4)])
    finally:
        facts.__dict__["compiled"] = original
        Game.begin_hand = real_start
    assert game.over and len(game.history) == 24
    assert entered == [0] and set_up == [0]


def test_the_game_loop_leaves_the_position_the_interpreter_leaves():
    # at the game's end, and where the loop hands a hand to game.py (another kind of hand, a
    # forehead hand, a set-up game.py works out), every attribute of the game is the same as
    # after the interpreter's game: nothing the loop kept in locals is left unwritten
    for name, n in (
        ("romanian", 4),
        ("romanian", 6),
        ("serbian", 5),
        ("kachuful", 5),
        ("oh-hell", 4),
        ("romanian-forehead", 4),
        ("wizard", 4),
        ("wizard", 3),
    ):
        rules = bundled(name)
        for seed in (0, 5):
            games = []
            for use_compiled in (True, False):
                game = Game(rules, players=n, seed=seed)
                game.use_compiled = use_compiled
                play_out(game, [RandomPlayer() for _ in range(n)])
                games.append(game)
            ours, theirs = (position(g) for g in games)
            assert ours == theirs, (name, n, seed)


def position(game: Game) -> dict:
    """Every attribute of `game`, the generator's state for the generator, and the last hand's
    tricks as a list (the compiled hand keeps them flat, equal to the tuple of its Tricks); not
    the scratch env the interpreter's bidding limits fill and the compiled hand never needs."""
    attributes = dict(vars(game), rng=game.rng.getstate(), tricks=list(game.tricks))
    attributes.pop("use_compiled", None)
    del attributes["bid_scratch"]
    return attributes


def test_the_plain_set_up_leaves_the_position_game_py_leaves():
    # start_hand(g, index) against game.py's begin_hand, from the same position (the end of the
    # hand before): every attribute of the game and the generator's state are the same, for
    # rulesets of each version-1 trump step (turned card, cycle), a dealer sitting out, and a
    # trump the dealer names when a Wizard is turned (the decision's fields, a seat asked)
    for name, n in (("romanian", 4), ("romanian", 6), ("kachuful", 5), ("oh-hell", 4), ("wizard", 4), ("wizard", 5)):
        rules = bundled(name)
        compiled = table_facts(rules, n).compiled
        assert compiled.start_hand is not None, name
        play_out(Game(rules, players=n, seed=0), [RandomPlayer() for _ in range(n)])  # the set-ups worked out
        game = Game(rules, players=n, seed=3)
        compared = 0
        while True:
            game.stop_after_hand = True  # stop at the hand's end, before the next is set up
            game.play_hand_unobserved(None)
            index = game.index + 1
            if index >= len(game.plan):
                break
            ours, theirs = game.clone(), game.clone()
            for g in (ours, theirs):
                g.rng = random.Random()
                g.rng.setstate(game.rng.getstate())
                g.stop_after_hand = False
            if ours.kind.name == ours.plan[index].kind and index in table_facts(rules, n).setups:
                assert compiled.start_hand(ours, index), (name, index)
                theirs.begin_hand(index, reuse_hands=True)
                assert ours.rng.getstate() == theirs.rng.getstate(), (name, index)
                assert {k: v for k, v in vars(ours).items() if k != "rng"} == {k: v for k, v in vars(theirs).items() if k != "rng"}, (name, index)
                compared += 1
            else:
                assert not compiled.start_hand(ours, index)  # another kind, or not worked out yet: game.py sets it up
                theirs.begin_hand(index, reuse_hands=True)
            game = theirs
        assert compared >= 10, name  # most hands of the game compared


@pytest.mark.parametrize("name", ["romanian", "wizard"])
def test_a_player_asked_by_the_compiled_hand_sees_the_position_it_is_asked_in(name):
    # the players' chooser may look at the game (as the bots' windows do): whose turn it is and
    # what is legal there must be what the compiled hand offers
    rules = bundled(name)
    game = Game(rules, players=4, seed=4)
    asked = []

    class Looker(LastLegal):
        def chooser(self, rng):
            def choose(legal):
                assert game.to_act is not None and sorted(game.legal_actions()) == sorted(legal)
                asked.append(game.phase)
                return legal[0]

            return choose

    play_out(game, [Looker() for _ in range(4)])
    assert game.over and "bidding" in asked and "play" in asked


def ruleset(tmp_path: Path, text: str):
    path = tmp_path / "house.yaml"
    path.write_text(text, encoding="utf-8")
    return load_rules(path)


def test_a_rule_error_in_a_compiled_hand_reads_as_the_interpreters(tmp_path):
    # hand 3 divides by zero (played - 2 == 0): the same hand, seat, formula and values
    rules = ruleset(
        tmp_path, "whistdsl: 1\nextends: romanian\nrunning:\n  played: {start: 0, after_hand: played + 1}\nscoring:\n  points: 10 / (played - 2)\n"
    )
    (c_kind, c_text, c_history), (i_kind, i_text, i_history) = both_ways(rules, 4, 3, lambda: [RandomPlayer() for _ in range(4)])
    assert c_kind is i_kind is RuleError
    assert c_text == i_text and "rule error in hand 3" in c_text and "division by zero" in c_text
    assert c_history == i_history and len(c_history) == 2


def test_a_bidding_limit_leaving_no_bid_is_the_same_rule_error_compiled(tmp_path):
    rules = ruleset(
        tmp_path, "whistdsl: 1\nextends: romanian\nrunning:\n  played: {start: 0, after_hand: played + 1}\nbidding:\n  allowed: played < 2\n"
    )
    (c_kind, c_text, _), (i_kind, i_text, _) = both_ways(rules, 4, 5, lambda: [RandomPlayer() for _ in range(4)])
    assert c_kind is i_kind is RuleError and c_text == i_text and "no legal bid" in c_text


def test_totals_near_the_number_limit_stop_with_the_interpreters_rule_error():
    # the game loop leaves out the limit's check on each total where its points cannot reach it
    # in the rest of the game; a game whose totals are already near the limit (set here) is
    # checked hand by hand, and stops with the same rule error, after the same hands
    rules = load_rules("romanian")
    out = []
    for use_compiled in (True, False):
        game = Game(rules, players=4, seed=2)
        game.use_compiled = use_compiled
        game.totals = [MAX_NUMBER - 40] * 4
        with pytest.raises(RuleError) as e:
            play_out(game, [RandomPlayer() for _ in range(4)])
        out.append((str(e.value), game.history))
    assert out[0] == out[1] and "number limit" in out[0][0]
    assert 0 < len(out[0][1]) < 24


def test_an_illegal_choice_is_refused_with_the_interpreters_words():
    class Cheat(LastLegal):
        def chooser(self, rng):
            return lambda legal: 99  # never legal: not a bid of any hand, nor a card

    rules = load_rules("romanian")
    (c_kind, c_text, _), (i_kind, i_text, _) = both_ways(rules, 4, 2, lambda: [Cheat() for _ in range(4)])
    assert c_kind is i_kind is IllegalAction and c_text == i_text


# ---------------------------------------------------------------- formulas written out

ATOMS = st.one_of(
    st.integers(-20, 20).map(str),
    st.sampled_from(["bid", "tricks", "hand_size", "1/2", "(0 - 3)/4"]),
)


def expressions(depth: int = 3):
    if depth == 0:
        return ATOMS
    inner = expressions(depth - 1)
    return st.one_of(
        ATOMS,
        st.tuples(inner, st.sampled_from(["+", "-", "*", "/", "//", "%", "^"]), inner).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        st.tuples(inner, st.sampled_from(["==", "<", ">="]), inner, inner, inner).map(lambda t: f"(if {t[0]} {t[1]} {t[2]} then {t[3]} else {t[4]})"),
        st.tuples(st.sampled_from(["abs", "floor", "ceil", "tri"]), inner).map(lambda t: f"{t[0]}({t[1]})"),
        st.tuples(inner, inner).map(lambda t: f"max({t[0]}, {t[1]})"),
    )


def value_or_error(fn):
    try:
        return fn()
    except EvalError as e:
        return ("EvalError", str(e))


@settings(max_examples=150, deadline=None)
@given(expressions(), st.integers(0, 13), st.integers(0, 13), st.integers(1, 13))
def test_a_formula_written_as_python_computes_what_its_closures_compute(text, bid, tricks, size):
    try:
        f = formula(text, "scoring")
    except Exception:  # a constant part that cannot be evaluated is a lint finding, not a formula
        return
    names = {"bid": "bid", "tricks": "tricks", "hand_size": "hand_size"}
    env = {"bid": bid, "tricks": tricks, "hand_size": size}
    expected = value_or_error(lambda: f(dict(env)))
    # with and without knowing the names are small whole numbers (then sums need no limit check)
    for small in (frozenset(), frozenset(names)):
        source = python_source(f, names, small)
        code = compile(source, "<formula>", "eval")
        got = value_or_error(lambda: eval(code, dict(HELPERS), dict(env)))  # noqa: B023 called in this iteration; our own source, from a checked tree
        assert got == expected and type(got) is type(expected), (text, source)


def test_only_provably_small_arithmetic_skips_the_number_limit():
    f = formula("bid * 1000000000000000000000 + tricks", "scoring")
    assert "_num" in python_source(f, {"bid": "b", "tricks": "t"}, frozenset({"bid", "tricks"}))  # 10^9 * 10^21 may pass 10^30
    g = formula("bid * 2 + tricks - 1", "scoring")
    assert "_num" not in python_source(g, {"bid": "b", "tricks": "t"}, frozenset({"bid", "tricks"}))
    assert python_source(g, {"bid": "b", "tricks": "t"}).count("_num") == 3  # not known small: every step checked


def test_exact_fractions_survive_being_written_out():
    f = formula("bid / 2 + 1/3", "scoring")
    source = python_source(f, {"bid": "b"})
    assert eval(source, dict(HELPERS), {"b": 1}) == Fraction(5, 6)


def test_aggregates_and_seat_facts_are_left_to_the_interpreter():
    with pytest.raises(Untranslatable):
        python_source(formula("count(others, made)", "scoring"), {})
    with pytest.raises(Untranslatable):
        python_source(formula("tricks + 1", "scoring"), {})  # a name the caller gave no source for


def test_a_history_entry_has_every_field_of_hand_result_in_its_place():
    # record_hand builds the entry with tuple.__new__ (every field given, in order)
    from whistdsl.engine import HandResult

    for use_compiled in (True, False):
        Game.use_compiled = use_compiled
        try:
            game = Game(bundled("romanian"), players=4, seed=2)
            play_out(game, [RandomPlayer() for _ in range(4)])
        finally:
            Game.use_compiled = True
        first = game.history[0]
        assert len(first) == len(HandResult._fields)
        assert (first.number, first.size, first.kind, first.trump_from, first.declarer, first.auction_bid) == (1, 1, "normal", "", None, 0)
        assert len(first.tricks) == 1 and first.tricks[0].cards[0][0] == first.tricks[0].leader


# ---------------------------------------------------------------- fuzzed rulesets

#: The fuzzed rulesets (tests/fuzzing/rulesets.py's mutants of the bundled ones), derandomized
#: and bounded: the same mutants on every run.
FUZZED = settings(
    max_examples=150,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)


@pytest.fixture(scope="module")
def fuzz_work():
    work = Workspace()
    yield work
    work.close()


def both_ways_capped(rules, n: int, seed: int) -> list:
    """`both_ways` for a fuzzed ruleset: random players that stop the game after `HAND_CAP` hands."""
    out = []
    for use_compiled in (True, False):
        game = Game(rules, players=n, seed=seed)
        game.use_compiled = use_compiled
        try:
            with hang_guard(HANG_SECONDS):
                play_capped(game)
            out.append((game.history, game.result, game.rng.getstate()))
        except (RuleError, IllegalAction) as e:
            out.append((type(e), str(e), game.history))
    return out


@FUZZED
@given(mutant=mutants())
def test_every_fuzzed_ruleset_plays_the_same_games_compiled_and_interpreted(fuzz_work, mutant):
    # a mutant that lint refuses never reaches the engine; every other one is played both ways
    path = fuzz_work.write(mutant)
    rules = lint_path(path, mutant.target, **fuzz_work.root_option).ruleset
    if rules is None:
        return
    n = rules.players_min + mutant.players_pick % (rules.players_max - rules.players_min + 1)
    if rules.table_problem(n) is not None:
        return
    compiled, interpreted = both_ways_capped(rules, n, mutant.seed)
    assert compiled == interpreted, mutant.report()


# ---------------------------------------------------------------- special cards

#: Rulesets that play special cards in every way the generated tricks write out (and the ways they
#: leave to engine/tricks.py): several kinds of special, some playable at any time and some only
#: when void, specials led that free the trick or pass the lead on, tricks of specials only,
#: ordered winner rules picking first, last, highest and lowest, copies with the later of two
#: identical cards winning, a player void who must trump, a turned special, and trump specials
#: (called per card).
SPECIAL_RULESETS = {
    "several kinds, must trump, later identical": """
whistdsl: 2
extends: wizard
deck:
  copies: 2
  specials:
    wizard: {count: 3, mark: W}
    fool: {count: 3, mark: FO}
    jester: {count: 4, mark: JE}
    bomb: {count: 2, mark: BO}
play:
  when_void: must_trump
  always_playable: [wizard, jester]
  special_led: {wizard: free, fool: pass, jester: pass, bomb: free}
trick:
  winner: [last bomb, first wizard, lowest trump, highest led, highest fool, last jester]
  identical: later
""",
    "specials only when void, suited cards": """
whistdsl: 2
extends: wizard
deck:
  specials:
    wizard: {count: 6, mark: W}
    jester: {count: 6, mark: JE}
play:
  always_playable: []
  special_led: {wizard: pass, jester: free}
trick:
  winner: [highest wizard, highest suited, lowest jester]
""",
    "trump specials": """
whistdsl: 2
extends: wizard
deck:
  specials:
    wizard: {count: 4, mark: W}
    joker: {count: 2, mark: JO}
trump:
  specials: [joker]
  specials_without_trump: lowest
play:
  when_void: must_overtrump
  always_playable: [wizard]
trick:
  winner: [first wizard, highest trump, highest led, first jester]
""",
}


@pytest.mark.parametrize("name", sorted(SPECIAL_RULESETS))
def test_special_cards_play_the_same_games_compiled_and_interpreted(tmp_path, name):
    rules = ruleset(tmp_path, SPECIAL_RULESETS[name])
    assert rules.specials and not rules.standard_tricks
    for n in (3, 4, 6):
        if rules.table_problem(n) is not None:
            continue
        for seed in range(4):
            compiled_game, interpreted = both_ways(rules, n, seed, lambda n=n: [RandomPlayer() for _ in range(n)])
            assert compiled_game == interpreted, f"{name} at {n} players, seed {seed}"
        compiled_game, interpreted = both_ways(rules, n, 11, lambda n=n: [LastLegal(pick_random=s % 2 == 1) for s in range(n)])
        assert compiled_game == interpreted, f"{name} at {n} players, players with their own rule"


def test_the_special_cards_rulesets_meet_what_they_are_there_for(tmp_path):
    # the cases above really happen: specials lead tricks and fill whole tricks, and a trick of
    # jesters alone stops a game with the interpreter's rule error, compiled as interpreted
    rules = ruleset(tmp_path, SPECIAL_RULESETS["several kinds, must trump, later identical"])
    game = Game(rules, players=4, seed=1)
    play_out(game, [RandomPlayer() for _ in range(4)])
    tricks = [t for h in game.history for t in h.tricks]
    special = lambda c: c >> 4 == 4  # noqa: E731
    assert any(special(t.cards[0][1]) for t in tricks)
    assert any(all(special(c) for _, c in t.cards) for t in tricks)
    # winner rules that leave a trick of fools and jesters without a winner (lint's W419 refuses
    # such a file; the engine still names the rule): the same rule error, after the same hands
    no_winner = dataclasses.replace(rules, trick_winner=rules.trick_winner[:4])
    errors = []
    for seed in range(6):
        compiled_game, interpreted = both_ways(no_winner, 4, seed, lambda: [RandomPlayer() for _ in range(4)])
        assert compiled_game == interpreted
        if compiled_game[0] is RuleError:
            errors.append(compiled_game[1])
    assert errors and all("no rule of trick.winner picks a card" in e for e in errors)


def test_a_ruleset_named_with_a_nul_character_plays_compiled(tmp_path: Path) -> None:
    # found by the fuzzer: the name went into the compiled code's file name, which compile refuses
    path = tmp_path / "nul.yaml"
    path.write_text('whistdsl: 2\nname: "a\\0b"\nextends: oh-hell\n', encoding="utf-8")
    rules = load_rules(path)
    assert rules.name == "a\0b"
    compiled, interpreted = both_ways(rules, 4, 7, lambda: [RandomPlayer() for _ in range(4)])
    assert compiled == interpreted
    history, result, _ = compiled
    assert result is not None and [h.size for h in history] == list(range(12, 0, -1))  # Oh Hell with 4 players: 12 cards down to 1
