"""The expression language: exact arithmetic, its operators and functions, its limits, and
(with hypothesis) that no text makes the parser or checker crash and no well-typed formula
makes evaluation raise anything but EvalError."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import whistdsl.language.limits as limits
from whistdsl.language.catalogue import CONSTANTS, CONTEXTS, FUNCTIONS, SUITS, Type
from whistdsl.language.checker import check
from whistdsl.language.errors import EvalError, ExprError
from whistdsl.language.parser import parse
from whistdsl.language.program import Formula, formula

#: A seat's view after a hand: bid 3 of 5 cards, took 2 tricks, trump spades, 4 players.
SCORING_ENV: dict[str, Any] = {
    "players": 4,
    "deck_size": 52,
    "hand_number": 9,
    "hand_size": 5,
    "hands": 28,
    "kind": "normal",
    "extra": False,
    "playing": 4,
    "cards_left": 32,
    "trump": "spades",
    "total": 17,
    "is_dealer": False,
    "position": 2,
    "bid": 3,
    "tricks": 2,
    "made": False,
    "over": False,
    "under": True,
    "diff": 1,
}


def value(text: str, **env: Any) -> Any:
    """Compile `text` as a scoring formula and evaluate it for SCORING_ENV with `env` changed."""
    return formula(text, "scoring")({**SCORING_ENV, **env})


def problems(text: str, context: str = "scoring", expect: Type | None = None) -> list[tuple[str, int, int]]:
    with pytest.raises(ExprError) as caught:
        formula(text, context, expect=expect)
    return [(p.code, p.line, p.column) for p in caught.value.problems]


def message(text: str, context: str = "scoring") -> str:
    with pytest.raises(ExprError) as caught:
        formula(text, context)
    return caught.value.problems[0].message


def help_of(text: str, context: str = "scoring") -> str:
    """The `help` of the first problem: what to write instead (a did-you-mean), apart from its message."""
    with pytest.raises(ExprError) as caught:
        formula(text, context)
    return caught.value.problems[0].help


# ---------------------------------------------------------------- exact arithmetic


def test_fractions_are_exact_so_a_half_plus_a_third_is_five_sixths() -> None:
    assert value("1/2 + 1/3 == 5/6") is True
    assert value("1/2 + 1/3") == Fraction(5, 6)
    assert value("1/3 * 3") == 1 and type(value("1/3 * 3")) is int


def test_decimals_are_read_as_exact_fractions_not_floats() -> None:
    assert value("0.1 + 0.2 == 0.3") is True
    assert value("1.5") == Fraction(3, 2)


def test_no_operation_gives_a_float() -> None:
    for text in ("7 / 2", "7 // 2", "7 % 2", "2 ^ -1", "tri(1/2)", "abs(-1/2)", "floor(7/2)", "ceil(7/2)", "sum(1 .. 3) / 2"):
        assert type(value(text)) in (int, Fraction), text


def test_floor_division_rounds_down_even_below_zero() -> None:
    assert value("7 // 2") == 3
    assert value("-7 // 2") == -4
    assert value("(7/2) // 1") == 3


def test_remainder_takes_the_sign_of_the_divisor() -> None:
    assert value("7 % 3") == 1
    assert value("-7 % 3") == 2
    assert value("(5/2) % 1") == Fraction(1, 2)


def test_division_by_zero_in_a_formula_is_an_eval_error_not_a_crash() -> None:
    for text in ("10 / (bid - 3)", "10 // (bid - 3)", "10 % (bid - 3)", "(bid - 3) ^ -1"):
        with pytest.raises(EvalError):
            value(text)  # bid is 3


def test_division_by_zero_in_a_constant_is_found_at_compile_time_where_it_is() -> None:
    assert problems("tricks + 1 / 0") == [("W305", 1, 12)]
    assert "division by zero" in message("tricks + 1 / 0")


# ---------------------------------------------------------------- powers and limits


def test_powers_group_to_the_right_and_bind_tighter_than_unary_minus() -> None:
    assert value("2 ^ 3 ^ 2") == 512
    assert value("-2 ^ 2") == -4
    assert value("2 ** 10") == 1024


def test_negative_exponents_give_exact_fractions() -> None:
    assert value("2 ^ -2") == Fraction(1, 4)
    assert value("(1/2) ^ -3") == 8


def test_an_exponent_is_whole_and_at_most_64_in_size() -> None:
    assert value("2 ^ 64") == 2**64
    assert value("2 ^ -64") == Fraction(1, 2**64)
    assert "outside -64..64" in message("2 ^ 65")
    assert "whole number" in message("2 ^ (1/2)")
    with pytest.raises(EvalError, match="outside -64..64"):
        value("players ^ bid", bid=65)


def test_every_number_stays_below_ten_to_the_thirty() -> None:
    assert value("10 ^ 29 * 9") == 9 * 10**29
    assert problems("10 ^ 30") == [("W305", 1, 4)]
    assert problems("10 ^ 10 ^ 10") == [("W305", 1, 4)]
    assert problems("(1/3) ^ 64") == [("W305", 1, 7)]  # the denominator counts too
    assert problems("1000000000000000000000000000000 + bid") == [("W305", 1, 1)]
    with pytest.raises(EvalError, match="10\\^30"):
        value("bid * 10 ^ 29", bid=10)


def test_the_limits_are_stated_in_the_module_docstring() -> None:
    doc = limits.__doc__ or ""
    assert (limits.MAX_LENGTH, limits.MAX_DEPTH, limits.MAX_NUMBER) == (2000, 60, 10**30)
    assert (limits.MAX_EXPONENT, limits.MAX_LIST) == (64, 10_000)
    for stated in ("MAX_LENGTH (2000)", "MAX_DEPTH (60)", "MAX_NUMBER (10^30)", "(-64..64)", "MAX_LIST (10000)"):
        assert stated in doc, stated


def test_too_long_or_too_deep_expressions_are_w304() -> None:
    assert problems("1" + " + 1" * 600) == [("W304", 1, 1)]
    assert problems("(" * 61 + "1" + ")" * 61) == [("W304", 1, 61)]
    assert value("(" * 60 + "1" + ")" * 60) == 1
    assert problems("1" + " + 1" * 61)[0][0] == "W304"


# ---------------------------------------------------------------- lists


def test_ranges_count_up_or_down_and_include_both_ends() -> None:
    assert value("1 .. 4") == (1, 2, 3, 4)
    assert value("13 .. 10") == (13, 12, 11, 10)
    assert value("3 .. 3") == (3,)
    assert value("hand_size .. 1") == (5, 4, 3, 2, 1)


def test_lists_concatenate_with_plus() -> None:
    assert value("(13 .. 2) + repeat(1, players)") == (*range(13, 1, -1), 1, 1, 1, 1)
    assert value("[1, 2] + [3]") == (1, 2, 3)
    assert value("[] + repeat(8, 2)") == (8, 8)


def test_a_list_holds_at_most_ten_thousand_numbers() -> None:
    assert len(value("1 .. 10000")) == 10_000
    assert "at most 10000" in message("1 .. 10001")
    with pytest.raises(EvalError, match="at most 10000"):
        value("repeat(1, players * 10 ^ 4)")


def test_a_range_needs_whole_numbers() -> None:
    with pytest.raises(EvalError, match="whole numbers"):
        value("1 .. bid / 2")


def test_len_and_sum_read_lists() -> None:
    assert value("len(13 .. 1)") == 13
    assert value("sum(1 .. bid)") == 6
    assert value("sum([])") == 0


# ---------------------------------------------------------------- logic and choice


def test_if_then_else_chooses_and_chains() -> None:
    text = "if made then 10 + tricks else if tricks == 0 then -10 else tricks"
    assert value(text, made=True, tricks=3) == 13
    assert value(text, tricks=0) == -10
    assert value(text, tricks=2) == 2


def test_if_evaluates_only_the_branch_it_takes() -> None:
    assert value("if bid == 0 then 0 else 10 / bid", bid=0) == 0


def test_and_or_not_follow_their_truth_tables_and_short_circuit() -> None:
    for a in (True, False):
        for b in (True, False):
            env = {"made": a, "over": b}
            assert value("made and over", **env) is (a and b)
            assert value("made or over", **env) is (a or b)
            assert value("not made", **env) is (not a)
    assert value("bid == 0 or 10 / bid > 1", bid=0) is True
    assert value("bid != 0 and 10 / bid > 1", bid=0) is False


def test_not_binds_looser_than_comparisons_and_tighter_than_and() -> None:
    assert value("not bid == 3 and true") is False
    assert value("not (is_dealer and bid == 3)") is True


def test_comparisons_do_not_chain() -> None:
    assert problems("1 < bid < 5") == [("W300", 1, 9)]
    assert "do not chain" in message("1 < bid < 5")


# ---------------------------------------------------------------- functions


def test_tri_is_the_triangular_number_and_zero_below_one() -> None:
    assert [value(f"tri({n})") for n in (0, 1, 2, 3, 4, 13)] == [0, 1, 3, 6, 10, 91]
    assert value("tri(-3)") == 0
    assert value("tri(1/2)") == Fraction(3, 8)  # 1/2 * 3/2 / 2
    assert value("tri(diff)", diff=3) == 6  # RULES.md, negative scoring: 3 off -> 6


def test_min_and_max_take_two_or_more_numbers() -> None:
    assert value("min(3, 1, 2)") == 1
    assert value("max(1, 2, 3, 4, 5)") == 5
    assert value("min(1/2, 1/3)") == Fraction(1, 3)
    assert value("max(bid, tricks)") == 3
    assert problems("max(1)") == [("W306", 1, 1)]


def test_abs_floor_ceil_repeat() -> None:
    assert value("abs(tricks - bid)") == 1
    assert (value("floor(-1/2)"), value("ceil(-1/2)")) == (-1, 0)
    assert value("repeat(1, 3)") == (1, 1, 1)
    with pytest.raises(EvalError):
        value("repeat(1, bid - 4)")


def test_unknown_functions_and_wrong_argument_counts_are_w306() -> None:
    assert problems("trii(bid)") == [("W306", 1, 1)]
    assert message("trii(bid)") == "unknown function `trii`"
    assert help_of("trii(bid)") == "did you mean `tri`?"
    assert problems("abs(1, 2)") == [("W306", 1, 1)]
    assert problems("10 + tri") == [("W306", 1, 6)]


# ---------------------------------------------------------------- suits and text


def test_suits_compare_for_equality_only() -> None:
    assert value("trump == spades") is True
    assert value("trump != none", trump="none") is False
    assert value("if trump == spades then 2 * tricks else tricks") == 4
    assert problems("trump < hearts") == [("W302", 1, 1), ("W302", 1, 9)]
    assert problems("trump == 1") == [("W302", 1, 7)]


def test_a_hands_kind_is_text_in_double_quotes() -> None:
    assert value('kind == "normal"') is True
    assert "double quotes" in message("kind == 'normal'")


# ---------------------------------------------------------------- names, types and contexts


def test_unknown_names_suggest_the_closest_known_one() -> None:
    assert problems("10 + trick") == [("W301", 1, 6)]
    assert message("10 + trick") == "unknown name `trick`"
    assert help_of("10 + trick") == "did you mean `tricks`?"


def test_a_name_from_another_context_is_w303_and_says_where_it_is_known() -> None:
    assert problems("tricks > 0", "bidding") == [("W303", 1, 1)]
    assert "it is known in: scoring.points" in message("tricks > 0", "bidding")


def test_a_number_where_a_yes_no_is_needed_is_w302_at_the_formula_start() -> None:
    assert problems("bid + 1", "bidding", expect=Type.BOOL) == [("W302", 1, 1)]
    assert problems("if bid then 1 else 0") == [("W302", 1, 4)]
    assert problems("(bid + 1) and made") == [("W302", 1, 2)]


def test_keywords_are_not_names() -> None:
    assert problems("made and and over") == [("W300", 1, 10)]
    assert value("made or not over", made=False) is True


def test_syntax_errors_point_at_the_spot_across_lines() -> None:
    assert problems("if made\nthen 10 + tricks * (2\nelse tricks") == [("W300", 3, 1)]
    assert problems("bid +") == [("W300", 1, 6)]
    assert problems("bid = 3") == [("W300", 1, 5)]
    assert problems("") == [("W300", 1, 1)]


def test_a_formula_is_compiled_once_and_folds_constants() -> None:
    f = formula("10 + 2 * 3", "scoring")
    assert isinstance(f, Formula) and f.constant == 16 and f.type is Type.NUMBER
    g = formula("if made then 10 + bid else 0", "scoring")
    assert g.constant is None and g.names == {"made", "bid"}
    assert [g({**SCORING_ENV, "made": m}) for m in (True, False)] == [13, 0]


def test_running_values_are_names_only_where_the_context_sees_them() -> None:
    assert formula("streak + 1", "scoring", running=["streak"])({**SCORING_ENV, "streak": 2}) == 3
    with pytest.raises(ExprError) as caught:
        formula("streak + 1", "running_start", running=["streak"])
    assert caught.value.problems[0].code == "W303"


# ---------------------------------------------------------------- hypothesis: no crashes

#: Every word and sign of the language, and some that are not.
VOCABULARY = (
    sorted({v.name for c in CONTEXTS.values() for v in c.variables})
    + sorted(CONSTANTS)
    + sorted(FUNCTIONS)
    + ["if", "then", "else", "and", "or", "not", "streak", "bids", "x", "_", "IF", "Bid"]
    + ["+", "-", "*", "/", "//", "%", "^", "**", "==", "!=", "<", "<=", ">", ">=", "..", "(", ")", "[", "]", ","]
    + ["0", "1", "7", "13", "1.5", "10000000000", "99999999999999999999999999999999", "0.0000001"]
    + ['"normal"', '"', "'", "#", "# note\n", "\n", "\t", " ", "=", "!", "&", "|", ".", "1.", ":", "@", "é", "\x00"]
)

tokens = st.lists(st.sampled_from(VOCABULARY), max_size=40)
separators = st.sampled_from([" ", "", "\n"])


@st.composite
def token_text(draw: st.DrawFn) -> str:
    words = draw(tokens)
    return "".join(w + draw(separators) for w in words)


texts = st.one_of(token_text(), st.text(max_size=60))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=texts, context=st.sampled_from(sorted(CONTEXTS)), expect=st.sampled_from([None, Type.NUMBER, Type.BOOL]))
def test_any_text_either_compiles_or_raises_expr_error_never_anything_else(text: str, context: str, expect: Type | None) -> None:
    try:
        f = formula(text, context, running=["streak"], expect=expect)
    except ExprError as e:
        assert e.problems
        for p in e.problems:
            assert p.code.startswith("W3") and p.line >= 1 and p.column >= 1 and p.message
        return
    assert isinstance(f, Formula)


@settings(max_examples=200, deadline=None)
@given(depth=st.integers(0, 200), opener=st.sampled_from(["(", "[", "-", "not ", "if true then 1 else ", "abs("]))
def test_deep_nesting_of_any_kind_is_a_clean_finding(depth: int, opener: str) -> None:
    closer = {"(": ")", "[": "]", "abs(": ")"}.get(opener, "")
    text = opener * depth + "1" + closer * depth
    try:
        check(parse(text), CONTEXTS["scoring"])
    except ExprError as e:
        assert {p.code for p in e.problems} <= {"W302", "W304", "W300"}


# ---------------------------------------------------------------- hypothesis: well-typed formulas

_SCORING = CONTEXTS["scoring"]
NUMBER_NAMES = sorted(v.name for v in _SCORING.variables if v.type is Type.NUMBER)
BOOL_NAMES = sorted(v.name for v in _SCORING.variables if v.type is Type.BOOL)


#: How to turn a formula of one type into one of another, so composites never need filtering.
_CONVERT = {
    (Type.NUMBER, Type.BOOL): "(if {} then 1 else 0)",
    (Type.NUMBER, Type.SUIT): "(if {} == spades then 1 else 0)",
    (Type.NUMBER, Type.LIST): "sum({})",
    (Type.BOOL, Type.NUMBER): "({} > 0)",
    (Type.BOOL, Type.SUIT): "({} == none)",
    (Type.BOOL, Type.LIST): "(len({}) == 0)",
    (Type.SUIT, Type.NUMBER): "(if {} > 0 then spades else none)",
    (Type.SUIT, Type.BOOL): "(if {} then hearts else trump)",
    (Type.SUIT, Type.LIST): "(if len({}) > 2 then clubs else diamonds)",
    (Type.LIST, Type.NUMBER): "[{}]",
    (Type.LIST, Type.BOOL): "(if {} then [1] else [])",
    (Type.LIST, Type.SUIT): "(if {} == trump then 1 .. 3 else [2])",
}

Typed = tuple[Type, str]


def as_type(wanted: Type, typed: Typed) -> str:
    t, text = typed
    return text if t is wanted else _CONVERT[(wanted, t)].format(text)


def _typed_expressions() -> st.SearchStrategy[Typed]:
    """Well-typed formulas of the scoring context with their types. Every composite is in
    brackets, so precedence never changes what was meant."""
    number_leaf = st.one_of(
        st.integers(0, 10**6).map(str),
        st.sampled_from(["1.5", "0.25", "10000000000"]),
        st.sampled_from(NUMBER_NAMES),
    )
    leaves = st.one_of(
        number_leaf.map(lambda x: (Type.NUMBER, x)),
        st.sampled_from(["true", "false", *BOOL_NAMES]).map(lambda x: (Type.BOOL, x)),
        st.sampled_from([*SUITS, "none", "trump"]).map(lambda x: (Type.SUIT, x)),
        st.just((Type.LIST, "(1 .. hand_size)")),
    )

    def extend(children: st.SearchStrategy[Typed]) -> st.SearchStrategy[Typed]:
        N, B, S, L = Type.NUMBER, Type.BOOL, Type.SUIT, Type.LIST
        n = children.map(lambda c: as_type(N, c))
        b = children.map(lambda c: as_type(B, c))
        s = children.map(lambda c: as_type(S, c))
        lst = children.map(lambda c: as_type(L, c))
        arithmetic = st.sampled_from(["+", "-", "*", "/", "//", "%", "^"])
        compare = st.sampled_from(["==", "!=", "<", "<=", ">", ">="])
        return st.one_of(
            st.tuples(n, arithmetic, n).map(lambda x: (N, f"({x[0]} {x[1]} {x[2]})")),
            n.map(lambda x: (N, f"(-{x})")),
            st.tuples(st.sampled_from(["abs", "floor", "ceil", "tri"]), n).map(lambda x: (N, f"{x[0]}({x[1]})")),
            st.tuples(st.sampled_from(["min", "max"]), st.lists(n, min_size=2, max_size=4)).map(lambda x: (N, f"{x[0]}({', '.join(x[1])})")),
            st.tuples(st.sampled_from(["len", "sum"]), lst).map(lambda x: (N, f"{x[0]}({x[1]})")),
            st.tuples(b, n, n).map(lambda x: (N, f"(if {x[0]} then {x[1]} else {x[2]})")),
            st.tuples(n, compare, n).map(lambda x: (B, f"({x[0]} {x[1]} {x[2]})")),
            st.tuples(s, st.sampled_from(["==", "!="]), s).map(lambda x: (B, f"({x[0]} {x[1]} {x[2]})")),
            st.tuples(lst, st.sampled_from(["==", "!="]), lst).map(lambda x: (B, f"({x[0]} {x[1]} {x[2]})")),
            st.tuples(b, st.sampled_from(["and", "or"]), b).map(lambda x: (B, f"({x[0]} {x[1]} {x[2]})")),
            b.map(lambda x: (B, f"(not {x})")),
            st.tuples(b, s, s).map(lambda x: (S, f"(if {x[0]} then {x[1]} else {x[2]})")),
            st.tuples(n, n).map(lambda x: (L, f"({x[0]} .. {x[1]})")),
            st.tuples(n, n).map(lambda x: (L, f"repeat({x[0]}, {x[1]})")),
            st.lists(n, max_size=3).map(lambda x: (L, f"[{', '.join(x)}]")),
            st.tuples(lst, lst).map(lambda x: (L, f"({x[0]} + {x[1]})")),
            st.tuples(b, lst, lst).map(lambda x: (L, f"(if {x[0]} then {x[1]} else {x[2]})")),
        )

    return st.recursive(leaves, extend, max_leaves=12)


TYPED = _typed_expressions()

small_numbers = st.one_of(
    st.integers(-1000, 1000),
    st.integers(-(10**12), 10**12),
    st.fractions(min_value=-1000, max_value=1000, max_denominator=1000).filter(lambda f: f.denominator > 1),
)


@st.composite
def scoring_env(draw: st.DrawFn) -> dict[str, Any]:
    env: dict[str, Any] = {name: draw(small_numbers) for name in NUMBER_NAMES}
    env.update({name: draw(st.booleans()) for name in BOOL_NAMES})
    env["trump"] = draw(st.sampled_from([*SUITS, "none"]))
    env["kind"] = draw(st.sampled_from(["normal", "zero", "blind"]))
    return env


PYTHON_TYPES = {Type.NUMBER: (int, Fraction), Type.BOOL: (bool,), Type.SUIT: (str,), Type.LIST: (tuple,)}


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(typed=TYPED, wanted=st.sampled_from([Type.NUMBER, Type.BOOL, Type.SUIT, Type.LIST]), env=scoring_env())
def test_a_well_typed_formula_evaluates_to_its_type_or_raises_only_eval_error(typed: Typed, wanted: Type, env: dict[str, Any]) -> None:
    text = as_type(wanted, typed)
    try:
        f = formula(text, "scoring")
    except ExprError as e:
        # well typed, so only a constant part that cannot be evaluated, or the size limits
        assert {p.code for p in e.problems} <= {"W304", "W305"}, e.problems
        return
    assert f.type is wanted
    try:
        result = f(env)
    except EvalError:
        return
    assert isinstance(result, PYTHON_TYPES[wanted]) and not (wanted is Type.NUMBER and isinstance(result, bool))
    numbers = result if isinstance(result, tuple) else (result,) if wanted is Type.NUMBER else ()
    for x in numbers:
        assert isinstance(x, (int, Fraction)) and not isinstance(x, bool)
    if wanted is Type.SUIT:
        assert result in (*SUITS, "none")
