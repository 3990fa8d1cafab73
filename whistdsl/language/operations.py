"""What each operation of the expression language computes, with its limits: the one definition
that both runners of a formula call, the closures of program.py and the Python source that
codegen.py writes (its `HELPERS` are these functions). Every number is normalised and bounded
here (`num`), so both give the same values, exact fractions and EvalErrors."""

from __future__ import annotations

import operator
from collections.abc import Callable
from fractions import Fraction

from .catalogue import FUNCTIONS
from .errors import EvalError
from .limits import MAP_BUDGET, MAX_EXPONENT, MAX_LIST, MAX_NUMBER
from .values import Number, Reads, Value


def num(v: Number) -> Number:
    """Normalise and bound a number: Fractions with denominator 1 become ints."""
    if type(v) is int:
        if -MAX_NUMBER < v < MAX_NUMBER:
            return v
        raise EvalError("a number exceeds the limit of 10^30 in size")
    if v.denominator == 1:
        return num(v.numerator)
    if -MAX_NUMBER < v.numerator < MAX_NUMBER and v.denominator < MAX_NUMBER:
        return v
    raise EvalError("a fraction exceeds the limit of 10^30 in size")


def divide(a: Number, b: Number) -> Number:
    if b == 0:
        raise EvalError("division by zero")
    return num(Fraction(a) / b)


def floordiv(a: Number, b: Number) -> Number:
    if b == 0:
        raise EvalError("division by zero")
    return num(a // b)


def mod(a: Number, b: Number) -> Number:
    if b == 0:
        raise EvalError("division by zero (in %)")
    return num(a % b)


def power(a: Number, b: Number) -> Number:
    if type(b) is not int:
        raise EvalError("an exponent must be a whole number")
    if not -MAX_EXPONENT <= b <= MAX_EXPONENT:
        raise EvalError(f"exponent {b} is outside -{MAX_EXPONENT}..{MAX_EXPONENT}")
    if b < 0:
        if a == 0:
            raise EvalError("division by zero (0 to a negative power)")
        a, b = 1 / Fraction(a), -b
    # a cheap guard before computing: the result's numerator or denominator has about
    # |b| times as many bits as a's; 10^30 needs 100 bits
    a = Fraction(a) if type(a) is not int else a
    bits = abs(a).bit_length() if type(a) is int else max(abs(a.numerator).bit_length(), a.denominator.bit_length())
    if abs(a) != 1 and a != 0 and abs(b) * max(bits - 1, 1) > 100:
        raise EvalError("a number exceeds the limit of 10^30 in size")
    return num(a**b)


def number_range(a: Number, b: Number) -> tuple:
    if type(a) is not int or type(b) is not int:
        raise EvalError("a range needs whole numbers")
    if abs(b - a) >= MAX_LIST:
        raise EvalError(f"a list may hold at most {MAX_LIST} numbers")
    step = 1 if b >= a else -1
    return tuple(range(a, b + step, step))


def turning_range(a: Number, b: Number, c: Number) -> tuple:
    """`a .. b .. c`: a .. b, then on from b to c without b again (`1 .. 3 .. 1` is 1, 2, 3, 2, 1)."""
    up = number_range(a, b)
    return concat(up, number_range(b, c)[1:])


#: Where map() keeps what its formula may still build, in the env it evaluates the formula in.
_MAP_BUDGET = "\x00map"


def spend(env: Reads, built: tuple) -> tuple:
    """Count a list built inside a map() formula against the map's budget."""
    budget: list[int] | None = env.get(_MAP_BUDGET)  # type: ignore[assignment]  # the one entry of an env that is not a Value
    if budget is not None:
        budget[0] -= len(built) or 1
        if budget[0] < 0:
            raise EvalError(f"map() builds more than {MAP_BUDGET} numbers in lists in one evaluation; the limit is {MAP_BUDGET}")
    return built


def map_items(items: tuple, param: str, body: Callable[[Reads], Value], env: Reads) -> tuple:
    """map(items, param -> body): body for each item, numbers and lists joined into one list."""
    scratch = dict(env)
    budget: list[int] | None = scratch.get(_MAP_BUDGET)  # type: ignore[assignment]  # the one entry of an env that is not a Value
    if budget is None:
        budget = [MAP_BUDGET]
        scratch[_MAP_BUDGET] = budget  # type: ignore[assignment]  # likewise
    out: list = []
    for x in items:
        scratch[param] = x
        v = body(scratch)
        if isinstance(v, tuple):
            out.extend(v)
        else:
            out.append(v)
        budget[0] -= len(v) if isinstance(v, tuple) else 1
        if len(out) > MAX_LIST:
            raise EvalError(f"a list may hold at most {MAX_LIST} numbers")
        if budget[0] < 0:
            raise EvalError(f"map() builds more than {MAP_BUDGET} numbers in lists in one evaluation; the limit is {MAP_BUDGET}")
    return tuple(out)


def repeat(x: Number, n: Number) -> tuple:
    if type(n) is not int or n < 0:
        raise EvalError("repeat() needs a whole number of copies, 0 or more")
    if n > MAX_LIST:
        raise EvalError(f"a list may hold at most {MAX_LIST} numbers")
    return (x,) * n


def concat(a: tuple, b: tuple) -> tuple:
    if len(a) + len(b) > MAX_LIST:
        raise EvalError(f"a list may hold at most {MAX_LIST} numbers")
    return a + b


def tri(n: Number) -> Number:
    """1 + 2 + ... + n, as n (n + 1) / 2 exactly (so tri(1/2) is 3/8); 0 for n <= 0."""
    return num(Fraction(n * (n + 1), 2)) if n > 0 else 0


def floor(x: Number) -> int:
    return x if type(x) is int else x.numerator // x.denominator


def ceil(x: Number) -> int:
    return x if type(x) is int else -(-x.numerator // x.denominator)


CALLS: dict[str, Callable[..., Value]] = {
    "abs": abs,
    "min": min,
    "max": max,
    "floor": floor,
    "ceil": ceil,
    "tri": tri,
    "repeat": repeat,
    "len": len,
    "sum": lambda xs: num(sum(xs)),
}
assert set(CALLS) | {"map"} == set(FUNCTIONS)  # map() is compiled by itself

ARITH: dict[str, Callable[[Number, Number], Number]] = {
    "+": lambda a, b: num(a + b),
    "-": lambda a, b: num(a - b),
    "*": lambda a, b: num(a * b),
    "/": divide,
    "//": floordiv,
    "%": mod,
    "^": power,
}

#: The comparisons: Python's own (the checker lets only numbers be ordered).
COMPARE: dict[str, Callable[[Value, Value], bool]] = {
    "==": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}
