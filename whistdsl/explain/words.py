"""Formulas as English: a pattern matcher over the checked expression trees.

Each shape of the language has a reading (`made` is "made", `tricks == 0` "no trick at all", a
lone `tricks` as points "1 a trick", an `if` chain "cond: value; ...; otherwise value"), and a
formula reads as English when every part of it has one. A formula with a part that has no
reading (a `map`, a list, an odd comparison) is shown as written, with every name it reads
explained from the catalogue: never guessed. Nothing here knows a game; only the language.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from ..language.catalogue import CONTEXTS, FUNCTIONS, SUITS
from ..language.program import Formula
from ..language.tree import Aggregate, Binary, Call, Conditional, Each, ListOf, Literal, Name, Node, SeatFact, TurningRange, Unary


class NoWords(Exception):
    """A part of a formula has no English reading: the caller shows the formula instead."""


@dataclass(frozen=True)
class Words:
    """A formula said: as English (`english`), or as written with its names explained."""

    text: str
    english: bool
    #: (name, meaning) of each name a formula shown as written reads
    names: tuple[tuple[str, str], ...] = ()

    def line(self) -> str:
        """One line: the English, or the formula and what its names mean."""
        if self.english or not self.names:
            return self.text
        return self.text + " (where " + "; ".join(f"{n}: {m}" for n, m in self.names) + ")"


# ---------------------------------------------------------------- the formula as written


_LEVEL = {"or": 1, "and": 2, "==": 4, "!=": 4, "<": 4, "<=": 4, ">": 4, ">=": 4, "..": 5, "+": 6, "-": 6, "*": 7, "/": 7, "//": 7, "%": 7, "^": 9}


def _level(node: Node) -> int:
    if isinstance(node, Conditional):
        return 0
    if isinstance(node, Binary):
        return _LEVEL[node.op]
    if isinstance(node, TurningRange):
        return 5
    if isinstance(node, Unary):
        return 3 if node.op == "not" else 8
    return 10


def written(node: Node) -> str:
    """The formula of `node` as the language writes it, with the brackets it needs."""

    def inner(child: Node, at_least: int) -> str:
        text = written(child)
        return f"({text})" if _level(child) < at_least else text

    if isinstance(node, Literal):
        return f'"{node.value}"' if isinstance(node.value, str) else _number(node.value)
    if isinstance(node, Name):
        return node.name
    if isinstance(node, SeatFact):
        return f"{node.role}.{node.fact}"
    if isinstance(node, Each):
        return f"{node.param} -> {written(node.body)}"
    if isinstance(node, Call):
        return f"{node.function}({', '.join(written(a) for a in node.args)})"
    if isinstance(node, ListOf):
        return "[" + ", ".join(written(a) for a in node.items) + "]"
    if isinstance(node, Unary):
        if node.op == "not":
            return "not " + inner(node.operand, 3)
        return "-" + inner(node.operand, 8)
    if isinstance(node, TurningRange):
        return f"{inner(node.first, 6)} .. {inner(node.turn, 6)} .. {inner(node.last, 6)}"
    if isinstance(node, Conditional):
        return f"if {written(node.test)} then {written(node.then)} else {written(node.otherwise)}"
    assert isinstance(node, Binary)
    level = _LEVEL[node.op]
    if node.op == "^":  # right to left
        return f"{inner(node.left, 10)} ^ {inner(node.right, 8)}"
    if level == 4:
        return f"{inner(node.left, 5)} {node.op} {inner(node.right, 5)}"
    return f"{inner(node.left, level)} {node.op} {inner(node.right, level + 1)}"


def _number(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Fraction):
        return f"{value.numerator}/{value.denominator}" if value.denominator != 1 else str(value.numerator)
    return str(value)


# ---------------------------------------------------------------- nouns: numbers and values


#: What a name of the catalogue is called in a sentence (the catalogue's own meaning is longer).
NOUNS = {
    "players": "the players",
    "deck_size": "the cards in the deck",
    "hand_number": "the hand's number",
    "hand_size": "the hand size",
    "hands": "the hands of the game",
    "playing": "the seats that play",
    "cards_left": "the cards left after the deal",
    "total": "the total",
    "position": "the place in the bidding order",
    "bid": "the bid",
    "auction_bid": "the declarer's bid",
    "bids_so_far": "the bids so far",
    "bids_made": "the bids made",
    "tricks": "the tricks",
    "diff": "the tricks off",
    "points": "the points",
    "bonus": "the bonus",
    "trump": "trump",
    "kind": "the hand's kind",
    "call": "the call",
    "turn_up_rank": "the rank turned",
    "turn_up_suit": "the suit turned",
    "turn_up_special": "the special card turned",
    "trumps": "the trumps dealt",
    "longest": "the longest suit dealt",
    "shortest": "the shortest suit dealt",
    "auction_call": "the call in the auction",
    "declared": "the declaration",
}
#: The seat sets of the aggregates, as a sentence names their seats.
SET_WORDS = {"seats": "the players", "others": "the other players", "earlier": "the earlier bidders", "later": "the later bidders"}
#: The roles of `ROLE.FACT`, as a sentence names their seat.
ROLE_WORDS = {
    "me": "this player",
    "dealer": "the dealer",
    "first_bidder": "the first bidder",
    "last_bidder": "the last bidder",
    "highest_bidder": "the highest bidder",
}


def noun(node: Node) -> str:
    """A number (or suit, or text) part of a formula as words: `hand_size` "the hand size",
    `bids_so_far + bid` "the bids so far + the bid". Raises NoWords."""
    if isinstance(node, Literal):
        return f'"{node.value}"' if isinstance(node.value, str) else _number(node.value)
    if isinstance(node, Name):
        if node.name in SUITS:
            return node.name
        if node.name == "none":
            return "no trump"
        return NOUNS.get(node.name, node.name)
    if isinstance(node, SeatFact):
        return f"{ROLE_WORDS.get(node.role, node.role)}'s {_bare(NOUNS.get(node.fact, node.fact))}"
    if isinstance(node, Unary) and node.op == "-":
        return "-" + _grouped(node.operand, 8)
    if isinstance(node, Aggregate) and node.function in ("sum", "max", "min") and len(node.args) == 2:
        which = {"sum": "the sum", "max": "the highest", "min": "the lowest"}[node.function]
        return f"{which} {_bare(noun(node.args[1]))} of {_set(node.args[0])}"
    if isinstance(node, Call) and not isinstance(node, Aggregate):
        if node.function == "tri" and len(node.args) == 1:
            return f"1 + 2 + ... + {_grouped(node.args[0], 7)}"
        if node.function in ("min", "max") and len(node.args) >= 2:
            which = "the smaller" if node.function == "min" else "the larger"
            return f"{which} of " + _joined([noun(a) for a in node.args], "and")
        if node.function == "abs" and len(node.args) == 1:
            return f"the size of {noun(node.args[0])}"
        if node.function in ("floor", "ceil") and len(node.args) == 1:
            return f"{noun(node.args[0])} rounded {'down' if node.function == 'floor' else 'up'}"
        raise NoWords(node.function)
    if isinstance(node, Binary) and node.op in ("+", "-", "*", "/", "//", "%", "^"):
        if node.op == "^" and _constant(node.right) == 2:
            return _grouped(node.left, 10) + " squared"
        level = _LEVEL[node.op]
        shown = {"*": "x", "//": "divided by (rounded down)", "%": "modulo"}.get(node.op, node.op)
        return f"{_grouped(node.left, level)} {shown} {_grouped(node.right, level + 1)}"
    raise NoWords(type(node).__name__)


def _grouped(node: Node, at_least: int) -> str:
    words = noun(node)
    bracket = _level(node) < at_least or (isinstance(node, Call) and node.function == "tri" and at_least > 6)
    return f"({words})" if bracket else words


def _bare(words: str) -> str:
    return words[4:] if words.startswith("the ") else words


def _set(node: Node) -> str:
    if isinstance(node, Name) and node.name in SET_WORDS:
        return SET_WORDS[node.name]
    raise NoWords("a seat set")


def _joined(parts: Sequence[str], word: str) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + f" {word} " + parts[-1]


def _constant(node: Node) -> int | Fraction | None:
    """The number a constant part is (`10`, `-10`, `1/2` written `0.5`), else None."""
    if isinstance(node, Literal) and isinstance(node.value, (int, Fraction)) and not isinstance(node.value, bool):
        return node.value
    if isinstance(node, Unary) and node.op == "-":
        inner = _constant(node.operand)
        return -inner if inner is not None else None
    if isinstance(node, Binary) and node.op == "/":
        a, b = _constant(node.left), _constant(node.right)
        if a is not None and b:
            value = Fraction(a) / Fraction(b)
            return value.numerator if value.denominator == 1 else value
    return None


# ---------------------------------------------------------------- points: values and cases


#: What one unit of a name counts as, when points are a multiple of it: `tricks` "a trick".
_PER = {"tricks": "a trick", "diff": "a trick off"}


def amount(node: Node) -> str:
    """Points as words: `tricks` "1 a trick", `-10 * diff` "-10 a trick off", `10 + tricks`
    "10 + tricks", `0` "0". Raises NoWords."""
    per = _per_unit(node)
    if per is not None:
        return per
    constant = _constant(node)
    if constant is not None:
        return _number(constant)
    return _points_noun(node)


def _per_unit(node: Node) -> str | None:
    if isinstance(node, Name) and node.name in _PER:
        return f"1 {_PER[node.name]}"
    if isinstance(node, Unary) and node.op == "-":
        inner = _per_unit(node.operand)
        if inner is not None:
            return inner[1:] if inner.startswith("-") else "-" + inner
    if isinstance(node, Binary) and node.op == "*":
        for k, name in ((node.left, node.right), (node.right, node.left)):
            value = _constant(k)
            if value is not None and isinstance(name, Name) and name.name in _PER:
                return f"{_number(value)} {_PER[name.name]}"
    return None


def _points_noun(node: Node) -> str:
    """Arithmetic of points, names as they are written (`10 + tricks`, `5 + (1 + 2 + ... + bid)`)."""
    if isinstance(node, Name) and node.name in ("tricks", "bid"):
        return node.name
    if isinstance(node, Name) and node.name == "diff":
        return "d"
    if isinstance(node, Unary) and node.op == "-":
        return "-" + _points_grouped(node.operand, 8)
    if isinstance(node, Call) and node.function == "tri" and len(node.args) == 1:
        return f"1 + 2 + ... + {_points_grouped(node.args[0], 7)}"
    if isinstance(node, Conditional):  # inside arithmetic: its cases in brackets
        return cases(node, (), True)
    if isinstance(node, Binary) and node.op in ("+", "-", "*", "/", "//", "%", "^"):
        if node.op == "^" and _constant(node.right) == 2:
            return _points_grouped(node.left, 10) + " squared"
        if node.op == "/" and _constant(node) is not None:
            return _number(_constant(node))
        level = _LEVEL[node.op]
        shown = {"*": "x"}.get(node.op, node.op)
        if node.op in ("//", "%"):
            raise NoWords(node.op)
        return f"{_points_grouped(node.left, level)} {shown} {_points_grouped(node.right, level + 1)}"
    return noun(node)


def _points_grouped(node: Node, at_least: int) -> str:
    words = _points_noun(node)
    if isinstance(node, Conditional):
        return words  # already in brackets
    tri = isinstance(node, Call) and node.function == "tri"
    return f"({words})" if _level(node) < at_least or (tri and at_least > 6) else words


def cases(node: Node, ruled_out: tuple[Node, ...] = (), nested: bool = False) -> str:
    """A number formula as its cases: `if made then 10 + tricks else if tricks == 0 then -10 else
    tricks` "made: 10 + tricks; no trick at all after a bid above 0: -10; otherwise 1 a trick".
    A factor `* (if C then 2 else 1)` reads "doubled when C". Raises NoWords."""
    factor = _factor(node)
    if factor is not None:
        base, clause = factor
        return cases(base, ruled_out, nested) + ("; " if not nested else ", ") + clause
    if not isinstance(node, Conditional):
        return amount(node)
    parts: list[str] = []
    out = list(ruled_out)
    while isinstance(node, Conditional):
        parts.append(f"{condition(node.test, tuple(out))}: {cases(node.then, (*out,), True)}")
        out.append(node.test)
        node = node.otherwise
    tail = cases(node, tuple(out), True)
    parts.append(f"otherwise {tail}")
    if nested:
        return "(" + ", ".join(parts) + ")"
    return "; ".join(parts)


def _factor(node: Node) -> tuple[Node, str] | None:
    """`X * (if C then k else 1)` (either way round): X, and "doubled when C"."""
    if not (isinstance(node, Binary) and node.op == "*"):
        return None
    for base, other in ((node.left, node.right), (node.right, node.left)):
        if isinstance(other, Conditional) and _constant(other.otherwise) == 1 and _constant(other.then) is not None:
            k = _constant(other.then)
            word = {2: "doubled", 3: "tripled"}.get(k, f"times {_number(k)}")  # type: ignore[arg-type]  # k is not None (tested above)
            return base, f"{word} when {condition(other.test)}"
    return None


# ---------------------------------------------------------------- conditions


#: The yes/no names of the catalogue as a condition on this player (or this hand).
FLAGS = {
    "made": ("made", "missed"),
    "over": ("more tricks than bid", "not more tricks than bid"),
    "under": ("fewer tricks than bid", "not fewer tricks than bid"),
    "is_last": ("it is the last bid", "it is not the last bid"),
    "is_first": ("it is the first bid", "it is not the first bid"),
    "is_dealer": ("the dealer", "not the dealer"),
    "blind": ("bid blind", "not bid blind"),
    "excused": ("excused from bidding", "not excused from bidding"),
    "is_declarer": ("the declarer", "not the declarer"),
    "extra": ("a tie-break hand", "not a tie-break hand"),
    "true": ("always", "never"),
    "false": ("never", "always"),
}
#: The same names as what a seat of a set did (`count(seats, made)`: "made their bid").
DEEDS = {
    "made": "made their bid",
    "over": "took more tricks than bid",
    "under": "took fewer tricks than bid",
    "blind": "bid blind",
    "excused": "were excused from bidding",
    "is_dealer": "dealt",
    "is_declarer": "won the auction",
}
_RELATION = {"==": "is", "!=": "is not", "<": "is below", "<=": "is at most", ">": "is above", ">=": "is at least"}
_FLIP = {"==": "==", "!=": "!=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}


def _is(node: Node, name: str) -> bool:
    return isinstance(node, Name) and node.name == name


def adds_up(node: Node) -> bool:
    """`bids_so_far + bid` (either way round): the bids with this one."""
    return (
        isinstance(node, Binary)
        and node.op == "+"
        and {getattr(node.left, "name", None), getattr(node.right, "name", None)} == {"bids_so_far", "bid"}
    )


def is_hook(node: Node) -> bool:
    """`not (is_last and bids_so_far + bid == hand_size)`, in any order: the hook."""
    if not (isinstance(node, Unary) and node.op == "not" and isinstance(node.operand, Binary) and node.operand.op == "and"):
        return False
    a, b = node.operand.left, node.operand.right
    for last, sum_ in ((a, b), (b, a)):
        if _is(last, "is_last") and isinstance(sum_, Binary) and sum_.op == "==":
            sides = (sum_.left, sum_.right)
            if any(adds_up(s) for s in sides) and any(_is(s, "hand_size") for s in sides):
                return True
    return False


def condition(node: Node, ruled_out: tuple[Node, ...] = ()) -> str:
    """A yes/no formula as words (`tricks == 0` "no trick at all"); `ruled_out` are conditions
    known false here (earlier branches of an `if` chain), which a reading may say. Raises NoWords."""
    if isinstance(node, Name):
        if node.name in FLAGS:
            return FLAGS[node.name][0]
        return f"{node.name} is on"  # a yes/no parameter or `let` value
    if isinstance(node, Unary) and node.op == "not":
        inner = node.operand
        if isinstance(inner, Name) and inner.name in FLAGS:
            return FLAGS[inner.name][1]
        if isinstance(inner, Name):
            return f"{inner.name} is off"
        if isinstance(inner, Aggregate) and inner.function == "any":
            return f"none of {_set(inner.args[0])} {deed(inner.args[1])}"
        if is_hook(node):
            return "the last bid does not make the bids add up to the hand size (the hook)"
        return f"not ({condition(inner, ruled_out)})"
    if isinstance(node, Binary) and node.op in ("and", "or"):
        made_zero = _made_with_bid(node)
        if made_zero is not None:
            return made_zero
        parts = []
        for side in (node.left, node.right):
            words = condition(side, ruled_out)
            if isinstance(side, Binary) and side.op in ("and", "or") and side.op != node.op:
                words = f"({words})"
            parts.append(words)
        return f" {node.op} ".join(parts)
    if isinstance(node, Binary) and node.op in _RELATION:
        return _comparison(node, ruled_out)
    if isinstance(node, Aggregate) and node.function in ("any", "all") and len(node.args) == 2:
        which = "one of" if node.function == "any" else "all of"
        return f"{which} {_set(node.args[0])} {deed(node.args[1])}"
    if isinstance(node, Literal) and isinstance(node.value, bool):
        return "always" if node.value else "never"
    raise NoWords(type(node).__name__)


def _made_with_bid(node: Binary) -> str | None:
    """`made and bid == 0`: "a made bid of 0"."""
    if node.op != "and":
        return None
    for a, b in ((node.left, node.right), (node.right, node.left)):
        if _is(a, "made") and isinstance(b, Binary) and b.op == "==" and _is(b.left, "bid") and _constant(b.right) is not None:
            return f"a made bid of {_number(_constant(b.right))}"
    return None


def _comparison(node: Binary, ruled_out: tuple[Node, ...]) -> str:  # noqa: C901 one wording per shape of comparison
    op, left, right = node.op, node.left, node.right
    if _constant(left) is not None and _constant(right) is None:  # `0 == tricks`: the name first
        op, left, right = _FLIP[op], right, left
    k = _constant(right)
    name = left.name if isinstance(left, Name) else None
    after_made = any(_is(r, "made") for r in ruled_out)
    if name == "tricks" and k is not None:
        if k == 0 and op == "==":
            return "no trick at all after a bid above 0" if after_made else "no trick at all"
        if k == 0 and op in ("!=", ">"):
            return "at least one trick"
        if op == "==":
            return f"{_number(k)} trick{'s' if k != 1 else ''}"
    if name == "bid" and k is not None:
        missed = "a missed bid" if after_made else "a bid"
        if op == "==":
            return f"{missed} of {_number(k)}"
        return {
            "!=": f"{missed} other than {_number(k)}",
            ">": f"{missed} above {_number(k)}",
            ">=": f"{missed} of {_number(k)} or more",
            "<": f"{missed} below {_number(k)}",
            "<=": f"{missed} of {_number(k)} or less",
        }[op]
    if name == "hand_size" and k is not None and op == "==":
        return f"{_a(k)} {_number(k)}-card hand"
    if name == "hand_size" and _is(right, "players") and op in (">", "<"):
        return f"{'more' if op == '>' else 'fewer'} cards in the hand than players"
    if name == "players" and k is not None and op == "==":
        return f"{_number(k)} players"
    if name == "trump" and isinstance(right, Name) and (right.name in SUITS or right.name == "none") and op in ("==", "!="):
        if right.name == "none":
            return "no trump" if op == "==" else "a hand with trump"
        return f"{right.name} are trump" if op == "==" else f"{right.name} are not trump"
    if (
        name in ("call", "kind", "turn_up_rank", "turn_up_special")
        and isinstance(right, Literal)
        and isinstance(right.value, str)
        and op in ("==", "!=")
    ):
        text = right.value
        if name == "call" and op == "!=":
            return f"a call other than {text}" if text else "a named call"
        said = {
            "call": f"the call {text}" if text else "a number bid",
            "kind": f"a {text} hand",
            "turn_up_rank": f"a {text} is turned" if text else "no suited card is turned",
            "turn_up_special": f"a {text} is turned" if text else "no special card is turned",
        }[name]
        return said if op == "==" else f"not {said}"
    if name in _DEALT and k is not None:
        return "dealt " + _dealt(name, op, k)
    if name in _SAID and isinstance(right, Literal) and isinstance(right.value, str) and op in ("==", "!="):
        return _said(name, op, right.value)
    if name == "turn_up_suit" and isinstance(right, Name) and op in ("==", "!="):
        said = f"a {right.name[:-1] if right.name in SUITS else right.name} is turned" if right.name != "none" else "no suited card is turned"
        return said if op == "==" else f"not {said}"
    if isinstance(left, Aggregate) and left.function == "count" and len(left.args) == 2 and k is not None:
        who, did = _set(left.args[0]), deed(left.args[1])
        n = _number(k)
        return {
            "==": f"none of {who} {did}" if k == 0 else f"exactly {n} of {who} {did}",
            "!=": f"at least one of {who} {did}" if k == 0 else f"not exactly {n} of {who} {did}",
            "<": f"fewer than {n} of {who} {did}",
            "<=": f"at most {n} of {who} {did}",
            ">": f"at least one of {who} {did}" if k == 0 else f"more than {n} of {who} {did}",
            ">=": f"at least {n} of {who} {did}",
        }[op]
    if adds_up(left) or adds_up(right):
        other = right if adds_up(left) else left
        if op == "==":
            return f"the bids add up to {noun(other)}"
        if op == "!=":
            return f"the bids do not add up to {noun(other)}"
        if adds_up(left):
            return f"the bids add up to {_RELATION[op][3:]} {noun(other)}"
    return f"{noun(left)} {_RELATION[op]} {noun(right)}"


#: The names of the cards a seat was dealt (the `redeal` and `declare` contexts), as what it holds.
_DEALT = {"trumps": "trump", "shortest": "shortest suit", "longest": "longest suit"}
#: How many, by the comparison: `trumps >= 4` "at least 4 trumps".
_HOW_MANY = {"==": "", "!=": "other than ", "<": "fewer than ", "<=": "at most ", ">": "more than ", ">=": "at least "}


def _dealt(name: str, op: str, k: int | Fraction) -> str:
    """What a seat was dealt, as a count: `trumps == 0` "no trump", `shortest == 0` "no card of
    some suit (a void)", `longest >= 5` "at least 5 cards in the longest suit"."""
    many = f"{_HOW_MANY[op]}{_number(k)}"
    if name == "trumps":
        return "no trump" if k == 0 and op == "==" else f"{many} trump{'' if k == 1 else 's'}"
    if name == "shortest" and k == 0 and op == "==":
        return "no card of some suit (a void)"
    return f"{many} card{'' if k == 1 else 's'} in the {_DEALT[name]}"


#: The names of what a seat said (a call in the auction, a declaration): its deed when it said
#: `{}`, did not say it, said nothing, said something.
_SAID = {
    "auction_call": ("called {} in the auction", "did not call {} in the auction", "made no call in the auction", "made a call in the auction"),
    "declared": ("declared {}", "did not declare {}", "declared nothing", "declared something"),
}


def _said(name: str, op: str, text: str) -> str:
    """What a seat said: `auction_call == "double"` "called double in the auction",
    `declared == "avoid"` "declared avoid", `declared == ""` "declared nothing"."""
    said, not_said, nothing, something = _SAID[name]
    if text:
        return (said if op == "==" else not_said).format(text)
    return nothing if op == "==" else something


def _a(k: object) -> str:
    return "an" if str(k) in ("8", "11", "18") or str(k).startswith("8") else "a"


def deed(node: Node) -> str:
    """A per-seat condition of an aggregate as what the seat did: `made` "made their bid",
    `bid == 0` "bid 0", `call == "dash"` "called dash". Raises NoWords."""
    if isinstance(node, Name) and node.name in DEEDS:
        return DEEDS[node.name]
    if isinstance(node, Unary) and node.op == "not" and isinstance(node.operand, Name) and node.operand.name in DEEDS:
        return "did not " + {"made their bid": "make their bid", "dealt": "deal"}.get(DEEDS[node.operand.name], "do so: " + DEEDS[node.operand.name])
    if isinstance(node, Binary) and node.op in _RELATION:
        left, right, op = node.left, node.right, node.op
        if _constant(left) is not None and _constant(right) is None:  # `0 == shortest`: the name first
            op, left, right = _FLIP[op], right, left
        k = _constant(right)
        if isinstance(left, Name) and left.name in _DEALT and k is not None:
            return "got " + _dealt(left.name, op, k)
        if isinstance(left, Name) and left.name in _SAID and isinstance(right, Literal) and isinstance(right.value, str) and op in ("==", "!="):
            return _said(left.name, op, right.value)
        if isinstance(left, Name) and left.name == "bid" and k is not None and op == "==":
            return f"bid {_number(k)}"
        if isinstance(left, Name) and left.name == "call" and isinstance(right, Literal) and op == "==":
            return f"called {right.value}" if right.value else "bid a number"
        if isinstance(left, Name) and left.name == "tricks" and k == 0 and op == "==":
            return "took no trick"
        return f"whose {_bare(noun(left))} {_RELATION[op]} {noun(right)}"
    if isinstance(node, Binary) and node.op in ("and", "or"):
        return f"{deed(node.left)} {node.op} {deed(node.right)}"
    raise NoWords(type(node).__name__)


# ---------------------------------------------------------------- whole formulas


def _tree(formula: Formula | Node) -> Node:
    if isinstance(formula, Node):
        return formula
    if formula.checked is None:
        raise NoWords("no tree")
    return formula.checked.tree


def _source(formula: Formula | Node) -> str:
    return " ".join(formula.source.split()) if isinstance(formula, Formula) else written(formula)


def names_explained(formula: Formula | Node, context: str, meanings: Mapping[str, str] | None = None) -> tuple[tuple[str, str], ...]:
    """(name, meaning) of every name the formula reads: the catalogue's meaning in `context`, or
    `meanings` (the ruleset's own names: running values, `let` values, parameters)."""
    meanings = meanings or {}
    ctx = CONTEXTS.get(context)
    out = []
    for name in _names(_tree(formula)):
        variable = ctx.variable(name) if ctx is not None else None
        meaning = meanings.get(name) or (variable.doc if variable is not None else None)
        if name in FUNCTIONS:
            meaning = FUNCTIONS[name].doc
        if meaning is not None:
            out.append((name, meaning))
    return tuple(out)


def _names(node: Node) -> list[str]:
    """The names a tree reads, in the order written, each once (functions too)."""
    seen: list[str] = []
    stack = [node]
    while stack:
        n = stack.pop(0)
        if isinstance(n, Name) and n.name not in seen and n.name not in SUITS and n.name not in ("none", "true", "false"):
            seen.append(n.name)
        elif isinstance(n, SeatFact) and n.fact not in seen:
            seen.append(n.fact)
        if isinstance(n, Call):
            if n.function not in seen and n.function in FUNCTIONS:
                seen.append(n.function)
            stack[:0] = list(n.args)
        elif isinstance(n, ListOf):
            stack[:0] = list(n.items)
        elif isinstance(n, Unary):
            stack.insert(0, n.operand)
        elif isinstance(n, Binary):
            stack[:0] = [n.left, n.right]
        elif isinstance(n, TurningRange):
            stack[:0] = [n.first, n.turn, n.last]
        elif isinstance(n, Conditional):
            stack[:0] = [n.test, n.then, n.otherwise]
        elif isinstance(n, Each):
            stack.insert(0, n.body)
    return seen


def points_words(formula: Formula | Node, context: str = "scoring", meanings: Mapping[str, str] | None = None) -> Words:
    """Points (`scoring.points`, `scoring.bonus`, a running value) as their cases in words."""
    try:
        text = cases(_tree(formula))
    except NoWords:
        return Words(_source(formula), False, names_explained(formula, context, meanings))
    if re.search(r"\bd\b", text):
        text += " (d: the tricks the bid was off by)"
    return Words(text, True)


def condition_words(formula: Formula | Node, context: str, meanings: Mapping[str, str] | None = None) -> Words:
    """A yes/no formula (`dealer.sits_out`, `trump.none_when`, `winner.wins_outright`) in words."""
    try:
        return Words(condition(_tree(formula)), True)
    except NoWords:
        return Words(_source(formula), False, names_explained(formula, context, meanings))


def limit_words(formula: Formula | Node, meanings: Mapping[str, str] | None = None) -> Words:
    """A bidding limit (`bidding.allowed`, a kind's `allowed`): "the last bid may not make the bids
    add up to the hand size (the hook)", or the bids it allows."""
    try:
        return Words(limit(_tree(formula)), True)
    except NoWords:
        return Words(_source(formula), False, names_explained(formula, "bidding", meanings))


def limit(tree: Node) -> str:
    """A bidding limit as words (see `limit_words`). Raises NoWords."""
    if is_hook(tree):
        return "the last bid may not make the bids add up to the hand size (the hook)"
    hook_when = _hook_with(tree)
    if hook_when is not None:
        return f"the last bid may not make the bids add up to the hand size when {hook_when} (the hook)"
    if isinstance(tree, Binary) and tree.op == "or":  # `not hook or ...`: the rule when an option is on
        for off, rest in ((tree.left, tree.right), (tree.right, tree.left)):
            if isinstance(off, Unary) and off.op == "not" and isinstance(off.operand, Name) and off.operand.name not in FLAGS:
                return f"when {off.operand.name} is on, {limit(rest)}"
    if isinstance(tree, Binary) and tree.op == "==" and _is(tree.left, "bid") and _constant(tree.right) is not None:
        return f"every bid must be {_number(_constant(tree.right))}"
    if isinstance(tree, Unary) and tree.op == "not":
        return f"a bid is refused when {condition(tree.operand)}"
    return f"a bid is allowed only if: {condition(tree)}"


def _and_parts(node: Node) -> list[Node]:
    if isinstance(node, Binary) and node.op == "and":
        return _and_parts(node.left) + _and_parts(node.right)
    return [node]


def _hook_with(tree: Node) -> str | None:
    """`not (is_last and C and bids_so_far + bid == hand_size)`: the hook only when C, as words."""
    if not (isinstance(tree, Unary) and tree.op == "not"):
        return None
    parts = _and_parts(tree.operand)
    last = [p for p in parts if _is(p, "is_last")]
    sums = [
        p
        for p in parts
        if isinstance(p, Binary)
        and p.op == "=="
        and any(adds_up(s) for s in (p.left, p.right))
        and any(_is(s, "hand_size") for s in (p.left, p.right))
    ]
    rest = [p for p in parts if p not in last and p not in sums]
    if len(last) != 1 or len(sums) != 1 or not rest:
        return None
    return " and ".join(condition(p) for p in rest)


def number_words(formula: Formula | Node, context: str, meanings: Mapping[str, str] | None = None) -> Words:
    """A number formula (a schedule entry, a parameter's bound, `end.hands`) in words."""
    tree = _tree(formula)
    try:
        if isinstance(tree, Conditional):
            return Words(cases(tree), True)
        return Words(noun(tree), True)
    except NoWords:
        return Words(_source(formula), False, names_explained(formula, context, meanings))
