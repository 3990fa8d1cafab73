"""Formulas as Python source: the checked tree of a formula written out as one Python expression.

The compiled engine (engine/compiled/) writes a ruleset's hot paths as Python source, once per
table size; this is how a formula gets into that source. The expression computes exactly what
the formula's closures (program.py `compile_`) compute: it calls the same operations
(operations.py: `num`, `divide`, ...) wherever the closures do, so values, exact fractions, limits and
EvalErrors are the same. What each name reads is the caller's choice (`names`: a name -> the
Python expression for its value where the source is placed), which is what makes the code
specialised: `hand_size` may be a local bound once a hand, `is_last` a comparison of the
turn's counter.

Aggregates over seats, one seat's fact (`dealer.bid`) and `map()` are not written out: a
formula using one raises `Untranslatable`, and the caller keeps the interpreter for it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import TypeGuard

from . import operations as op
from . import tree
from .catalogue import CONSTANTS, Type
from .checker import Checked
from .limits import MAX_NUMBER
from .program import Formula
from .values import Value

#: What the source of a formula may call: put these in the namespace the source runs in.
HELPERS = {
    "Fraction": Fraction,
    "_num": op.num,
    "_divide": op.divide,
    "_floordiv": op.floordiv,
    "_mod": op.mod,
    "_power": op.power,
    "_range": op.number_range,
    "_turning_range": op.turning_range,
    "_concat": op.concat,
    "_tri": op.tri,
    "_floor": op.floor,
    "_ceil": op.ceil,
    "_repeat": op.repeat,
    "_sum": op.CALLS["sum"],
}

_CALLS = {
    "abs": "abs",
    "min": "min",
    "max": "max",
    "len": "len",
    "floor": "_floor",
    "ceil": "_ceil",
    "tri": "_tri",
    "repeat": "_repeat",
    "sum": "_sum",
}
_ARITH = {"*": "_num({} * {})", "/": "_divide({}, {})", "//": "_floordiv({}, {})", "%": "_mod({}, {})", "^": "_power({}, {})", "..": "_range({}, {})"}
_COMPARE = frozenset({"==", "!=", "<", "<=", ">", ">="})
assert set(_CALLS) == set(op.CALLS)  # every function the closures call, written out too


class Untranslatable(Exception):
    """The formula uses something written out only by the interpreter (an aggregate, `ROLE.FACT`,
    `map`), or a name the caller gave no source for."""


def literal(value: Value) -> str:
    """A value as Python source (exact: a fraction stays a Fraction)."""
    if isinstance(value, (bool, int, str)):
        return repr(value)
    if isinstance(value, Fraction):
        return f"Fraction({value.numerator}, {value.denominator})"
    if isinstance(value, tuple):
        return "(" + "".join(literal(v) + ", " for v in value) + ")"
    raise Untranslatable(f"a value {value!r}")


#: How large a whole number named in `small` may be (bids, tricks, hand sizes, seat counts):
#: sums, differences and products of these stay far below the number limit, so they need no check.
SMALL = 10**9


def whole_number_bound(f: Formula, small: frozenset[str] = frozenset()) -> int | None:
    """How large the value of formula `f` can be, when it is provably a whole number (from its
    literals and the `small` names; see `python_source`); None when that is not known."""
    if f.constant is not None:
        return abs(f.constant) if type(f.constant) is int else None
    if f.checked is None:
        return None
    return _bound(f.checked.tree, f.checked, small)


def _bound(node: tree.Node, checked: Checked, small: frozenset[str]) -> int | None:
    """How large the whole-number value of `node` can be, when that is known."""
    if isinstance(node, tree.Literal):
        return abs(node.value) if type(node.value) is int else None
    if isinstance(node, tree.Name):
        return SMALL if node.name in small else None
    if isinstance(node, tree.Unary) and node.op == "-":
        return _bound(node.operand, checked, small)
    if isinstance(node, tree.Binary) and node.op in ("+", "-", "*") and checked.types.get(id(node)) != Type.LIST:
        a, b = _bound(node.left, checked, small), _bound(node.right, checked, small)
        return None if a is None or b is None else a * b if node.op == "*" else a + b
    if isinstance(node, tree.Conditional):
        return _largest([node.then, node.otherwise], checked, small)
    if _is_min_max_abs_of_numbers(node):
        return _largest(node.args, checked, small)
    return None


def _is_min_max_abs_of_numbers(node: tree.Node) -> TypeGuard[tree.Call]:
    """`abs(x)`, `min(a, b, ...)`, `max(a, b, ...)` (not min or max of one list)."""
    if not isinstance(node, tree.Call) or isinstance(node, tree.Aggregate) or not node.args:
        return False
    return node.function == "abs" or (node.function in ("min", "max") and len(node.args) > 1)


def _largest(nodes: Sequence[tree.Node], checked: Checked, small: frozenset[str]) -> int | None:
    """The largest bound of `nodes`, when each has one."""
    each = [_bound(n, checked, small) for n in nodes]
    bounds = [b for b in each if b is not None]
    return None if len(bounds) < len(each) else max(bounds)


def python_source(f: Formula, names: Mapping[str, str], small: frozenset[str] = frozenset()) -> str:
    """The Python expression computing formula `f`, each name read as `names[name]`. `small`:
    names whose values are always whole numbers below SMALL in size; arithmetic on them is
    written without the number limit's check where it provably cannot be reached."""
    if f.constant is not None:
        return literal(f.constant)
    checked = f.checked
    if checked is None:
        raise Untranslatable(f.source)
    return _Source(checked, names, small).write(checked.tree)


class _Source:
    """The Python source of one checked tree, written by the kind of each node."""

    def __init__(self, checked: Checked, names: Mapping[str, str], small: frozenset[str]):
        self.checked = checked
        self.names = names
        self.small = small

    def write(self, node: tree.Node) -> str:
        if isinstance(node, tree.Literal):
            return literal(node.value)
        if isinstance(node, tree.Name):
            return self.name(node)
        if isinstance(node, (tree.Aggregate, tree.SeatFact, tree.Each)) or (isinstance(node, tree.Call) and node.function == "map"):
            raise Untranslatable(type(node).__name__)
        if isinstance(node, tree.Call):
            return f"{_CALLS[node.function]}({', '.join(self.write(a) for a in node.args)})"
        if isinstance(node, tree.ListOf):
            return "(" + "".join(self.write(a) + ", " for a in node.items) + ")"
        if isinstance(node, tree.TurningRange):
            return f"_turning_range({self.write(node.first)}, {self.write(node.turn)}, {self.write(node.last)})"
        if isinstance(node, tree.Unary):
            return f"(-{self.write(node.operand)})" if node.op == "-" else f"(not {self.write(node.operand)})"
        if isinstance(node, tree.Conditional):
            return f"({self.write(node.then)} if {self.write(node.test)} else {self.write(node.otherwise)})"
        if isinstance(node, tree.Binary):
            return self.binary(node)
        raise Untranslatable(type(node).__name__)

    def name(self, node: tree.Name) -> str:
        if node.name in CONSTANTS and node.name not in self.checked.names:
            return literal(CONSTANTS[node.name][1])
        if node.name not in self.names:
            raise Untranslatable(f"the name {node.name}")
        return self.names[node.name]

    def binary(self, node: tree.Binary) -> str:
        a, b, op = self.write(node.left), self.write(node.right), node.op
        if op in ("and", "or") or op in _COMPARE:
            return f"({a} {op} {b})"
        if op == "+" and self.checked.types.get(id(node)) == Type.LIST:
            return f"_concat({a}, {b})"
        if op in ("+", "-", "*") and self.unchecked(node):
            return f"({a} {op} {b})"
        if op in ("+", "-"):
            return f"_num({a} {op} {b})"
        return _ARITH[op].format(a, b)

    def unchecked(self, node: tree.Binary) -> bool:
        """Whether `node` provably stays below the number limit: its check may be left out."""
        b = _bound(node, self.checked, self.small)
        return b is not None and b < MAX_NUMBER
