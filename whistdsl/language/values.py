"""The values of the expression language (numbers, exact fractions, yes/no, texts, suits, lists
of numbers), written for a message (`value_text`), read from a command line (`read_value`), and
checked against the number limit (`within_limit`)."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Literal, overload

from .catalogue import SUITS, Type
from .limits import MAX_NUMBER

Number = int | Fraction
Value = int | Fraction | bool | str | tuple
Env = dict[str, Value]
#: What a formula reads its names from: a dict, or a ChainMap of a seat's facts in front of the
#: table's (the aggregates). A formula never changes it.
Reads = Mapping[str, Value]


def value_text(v: Value) -> str:
    """A value as the language writes it, for messages: `true`, `3/2`, `[1, 2, ...]`."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, tuple):
        return "[" + ", ".join(map(str, v[:8])) + (", ..." if len(v) > 8 else "") + "]"
    return str(v)


@overload
def read_value(t: Literal[Type.NUMBER], text: str) -> Number: ...
@overload
def read_value(t: Type, text: str) -> Value: ...
def read_value(t: Type, text: str) -> Value:
    """A value of type `t` written as text (e.g. on the command line): `80`, `-1/2`, `true` or
    `no`, `hearts` or `none`, a text as it is, `3,2,1` for a list. Raises ValueError saying
    what a value of that type looks like."""
    text = text.strip()
    if t is Type.NUMBER:
        try:
            v = Fraction(text)
        except (ValueError, ZeroDivisionError):
            raise ValueError(f"a number (e.g. 80, -10 or 1/2), not `{text}`") from None
        if len(text) > 40 or not within_limit(v):
            raise ValueError("a number within the limit of 10^30 in size")
        return v.numerator if v.denominator == 1 else v
    if t is Type.BOOL:
        words = {"true": True, "yes": True, "false": False, "no": False}
        if text.lower() not in words:
            raise ValueError(f"yes or no (true/false), not `{text}`")
        return words[text.lower()]
    if t is Type.SUIT:
        if text.lower() not in (*SUITS, "none"):
            raise ValueError(f"a suit ({', '.join(SUITS)}) or none, not `{text}`")
        return text.lower()
    if t is Type.LIST:
        items = [item for item in text.split(",") if item.strip()]
        return tuple(read_value(Type.NUMBER, item) for item in items)
    return text


def within_limit(v: Number) -> bool:
    """Whether `v` is within the number cap: below MAX_NUMBER in size, numerator and denominator alike."""
    if type(v) is int:
        return -MAX_NUMBER < v < MAX_NUMBER
    return -MAX_NUMBER < v.numerator < MAX_NUMBER and v.denominator < MAX_NUMBER
