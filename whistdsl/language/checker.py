"""Syntax tree -> checked tree: every name resolved against a context of the catalogue
(catalogue.py: which names, roles and seat facts it sees), every type inferred, and the limits
that can be known before evaluating checked. Raises ExprError with every problem found, each a
finding code (W301 unknown name, W302 types, W303 not available here, ...)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .catalogue import AGGREGATES, CONSTANTS, CONTEXTS, FUNCTIONS, ME, ROLES, SEAT_SETS, Context, Type
from .errors import ExprError, ExprProblem
from .limits import MAX_LIST_OPS
from .parser import KEYWORDS
from .suggestions import did_you_mean
from .tree import (
    Aggregate,
    Binary,
    Call,
    Conditional,
    Each,
    ListOf,
    Literal,
    Name,
    Node,
    SeatFact,
    TurningRange,
    Unary,
    start,
    walk,
)
from .values import within_limit


@dataclass(frozen=True)
class Checked:
    """A parsed expression whose names and types are known."""

    tree: Node
    type: Type
    names: frozenset[str]
    types: dict[int, Type] = field(compare=False, hash=False, repr=False)
    #: per seat set the formula aggregates over: the facts it reads of each seat of it
    seat_reads: dict[str, frozenset[str]] = field(default_factory=dict, compare=False, hash=False)
    #: the facts of this seat read as `me.FACT` inside an aggregate's per-seat formula
    me_reads: frozenset[str] = frozenset()
    #: the roles it reads one fact of (`dealer.bid`: "dealer"), with where each is first written
    roles: dict[str, tuple[int, int]] = field(default_factory=dict, compare=False, hash=False)


def check(
    tree: Node,
    context: Context,
    running: Iterable[str] = (),
    expect: Type | None = None,
    lets: Mapping[str, Type] | None = None,
    parameters: Mapping[str, Type] | None = None,
) -> Checked:
    """Resolve names and infer types. Raises ExprError with every problem found.

    `running` names the ruleset's running values (numbers), `lets` its named values and
    `parameters` its declared parameters, with their types; each is known where the context
    sees it. A built-in name of the context hides a parameter of the same name.
    """
    checker = _Checker(context, tuple(running), lets or {}, parameters or {})
    result = checker.visit(tree)
    problems = checker.problems
    if not problems:
        problems.extend(_too_many_lists(tree, checker.types))
    if expect is not None and result not in (expect, Type.ANY) and not problems:
        problems.append(
            ExprProblem("W302", f"this formula gives a {result}, but a {expect} is needed here", *start(tree), tree.end_line, tree.end_column)
        )
    if problems:
        raise ExprError(problems)
    return Checked(
        tree,
        result,
        frozenset(checker.names),
        checker.types,
        {k: frozenset(v) for k, v in checker.seat_reads.items()},
        frozenset(checker.me_reads),
        checker.roles,
    )


def _too_many_lists(tree: Node, types: Mapping[int, Type]) -> list[ExprProblem]:
    """W304 at the first list built beyond MAX_LIST_OPS, if the formula builds so many."""
    builders = list_builders(tree, types)
    if len(builders) <= MAX_LIST_OPS:
        return []
    message = f"this formula builds {len(builders)} lists (ranges, repeat, joined lists, [ ]); the limit is {MAX_LIST_OPS}"
    return [ExprProblem("W304", message, *start(builders[MAX_LIST_OPS]))]


class _Checker:
    """One walk over a tree: the type of each node (`visit`, by the node's kind), what the formula
    reads, and every problem found."""

    def __init__(self, context: Context, running: tuple[str, ...], lets: Mapping[str, Type], parameters: Mapping[str, Type]):
        self.context = context
        self.running = running
        self.lets = lets
        self.parameters = parameters
        known: dict[str, Type] = dict(parameters) if context.sees_parameters else {}
        known.update({v.name: v.type for v in context.variables})
        if context.sees_running:
            known.update(dict.fromkeys(running, Type.NUMBER))
        if context.sees_lets:
            known.update(lets)
        self.known = known
        # a seat's running values are its facts wherever aggregates read seats (even in `end.when`,
        # which has no seat of its own)
        self.seat_facts = [*context.per_seat, *(running if context.per_seat else ())]  # in the catalogue's order, for messages
        self.per_seat = set(self.seat_facts)
        self.problems: list[ExprProblem] = []
        self.types: dict[int, Type] = {}
        self.names: set[str] = set()
        self.seat_reads: dict[str, set[str]] = {}
        self.in_seat: list[str] = []  # the seat set whose per-seat formula is being checked
        self.me_reads: set[str] = set()  # the facts of this seat read as `me.FACT` inside a per-seat formula
        self.roles: dict[str, tuple[int, int]] = {}  # the roles read (`dealer.bid`), where first written
        self.bound: list[str] = []  # the item names of the map() formulas being checked, innermost last

    # ------------------------------------------------------------ the walk

    def visit(self, node: Node) -> Type:
        t = _VISITS[type(node)](self, node)
        self.types[id(node)] = t
        return t

    def bad(self, node: Node, code: str, message: str, at: tuple[int, int] | None = None, help: str = "") -> Type:
        """A problem about `node`: about its whole text when `at` is where that begins (or it is not
        a binary operation), else about the spot `at` or its operator (underlined as it is)."""
        line, column = at or (node.line, node.column)
        whole = (line, column) == start(node)
        end_line, end_column = (node.end_line, node.end_column) if whole else (0, 0)
        self.problems.append(ExprProblem(code, message, line, column, end_line, end_column, help))
        return Type.ANY

    def want(self, node: Node, wanted: Type, what: str) -> None:
        got = self.visit(node)
        if got not in (wanted, Type.ANY):
            self.bad(node, "W302", f"{what} needs a {wanted}, not a {got}", start(node))

    # ------------------------------------------------------------ values and names

    def literal(self, node: Literal) -> Type:
        if isinstance(node.value, bool):
            return Type.BOOL
        if isinstance(node.value, str):
            return Type.TEXT
        if not within_limit(node.value):
            self.bad(node, "W305", "this number exceeds the limit of 10^30 in size (numerator and denominator alike)")
        return Type.NUMBER

    def name(self, node: Name) -> Type:
        n = node.name
        if n in self.bound:
            return Type.NUMBER
        if self.in_seat:
            read = self._name_of_each_seat(node)
            if read is not None:
                return read
        if n in self.known:
            return self._known_name(node)
        return self._unknown_name(node)

    def _name_of_each_seat(self, node: Name) -> Type | None:
        """A name inside an aggregate's per-seat formula: a fact of each seat (None: not one)."""
        n, where, context = node.name, self.in_seat[-1], self.context
        if n in self.per_seat:
            if n in context.earlier_only and where != "earlier":
                return self.bad(
                    node,
                    "W307",
                    f"`{n}` of the seats of `{where}` is not known in {context.where}: only the seats "
                    f"of `earlier` have bid yet (a bid not yet made cannot be read)",
                )
            self.seat_reads.setdefault(where, set()).add(n)
            return self.known.get(n, Type.NUMBER)  # a running value where the context has none of its own
        if n in self.known and n in context.own_only:
            return self.bad(
                node,
                "W307",
                f"`{n}` is known only of this seat in {context.where}, not of each seat of `{where}`: read it outside the aggregate",
            )
        return None

    def _known_name(self, node: Name) -> Type:
        n = node.name
        if self.known[n] is Type.SEATS:
            sets = ", ".join(self.context.seat_sets())
            return self.bad(
                node, "W308", f"`{n}` is a set of seats: read it with an aggregate, e.g. count({n}, made) or max({n}, bid) (seat sets here: {sets})"
            )
        self.names.add(n)
        return self.known[n]

    def _unknown_name(self, node: Name) -> Type:
        """A name the context does not know: a constant, or a problem saying what it is."""
        n, context = node.name, self.context
        if n in CONSTANTS:
            return CONSTANTS[n][0]
        if n in FUNCTIONS:
            return self.bad(node, "W306", f"`{n}` is a function: call it as {n}(...)")
        if n in KEYWORDS:
            return self.bad(node, "W300", f"unexpected `{n}`: it is a word of the language, and a value is needed here")
        elsewhere = [c.where for c in CONTEXTS.values() if c.variable(n) and c is not context]
        if elsewhere:
            return self.bad(node, "W303", f"`{n}` is not available in {context.where} (it is known in: {'; '.join(elsewhere)})")
        for names, sees, what in (
            (self.running, context.sees_running, "running value "),
            (self.lets, context.sees_lets, "`let` value "),
            (self.parameters, context.sees_parameters, "parameter "),
        ):
            if n in names and not sees:
                return self.bad(node, "W303", f"{what}`{n}` is not available in {context.where}")
        return self.bad(node, "W301", f"unknown name `{n}`", help=did_you_mean(n, [*self.known, *CONSTANTS]))

    def seat_fact(self, node: SeatFact) -> Type:
        """`ROLE.FACT`: the role must be one the context knows, the fact one of its seat facts."""
        unknown = self._unknown_role(node)
        if unknown is not None:
            return unknown
        if node.role == ME:
            return self._my_fact(node)
        return self._fact_of_role(node)

    def _unknown_role(self, node: SeatFact) -> Type | None:
        """The problem with the role of `ROLE.FACT`, if it is none the context knows."""
        role, context = node.role, self.context
        written = f"`{role}.{node.fact}`"
        if role not in ROLES:
            if role in self.known or role in CONSTANTS:
                return self.bad(
                    node, "W309", f"{written}: `{role}` is a value, not a seat; `ROLE.FACT` reads one fact of a seat ({', '.join(ROLES)})"
                )
            return self.bad(node, "W309", f"unknown role `{role}` in {written} (roles: {', '.join(ROLES)})", help=did_you_mean(role, ROLES))
        if role not in context.roles:
            elsewhere = [c.where for c in CONTEXTS.values() if role in c.roles]
            known_in = f" (it is known in: {'; '.join(elsewhere)})" if elsewhere else ""
            return self.bad(node, "W303", f"the role `{role}` is not known in {context.where}{known_in}")
        return None

    def _my_fact(self, node: SeatFact) -> Type:
        """`me.FACT`: this seat's own fact (inside an aggregate: of the seat it is evaluated for)."""
        fact, context = node.fact, self.context
        own = [*self.seat_facts, *context.own_only, *(n for n in ("call", "blind") if n in self.known)]
        if fact not in own:
            return self._not_a_fact(node, own)
        self.roles.setdefault(node.role, (node.line, node.column))
        self.names.add(fact)  # this seat's own value: the environment's, outside any aggregate
        if self.in_seat:
            self.me_reads.add(fact)
        return self.known.get(fact, Type.NUMBER)

    def _fact_of_role(self, node: SeatFact) -> Type:
        """`dealer.bid` and the like: one fact of the seat of `seats` the role picks."""
        role, fact, context = node.role, node.fact, self.context
        facts = [n for n in self.seat_facts if n not in context.earlier_only]
        if fact not in facts:
            written = f"`{role}.{fact}`"
            if fact in context.earlier_only:
                return self.bad(
                    node,
                    "W307",
                    f"{written} is not known in {context.where}: a bid not yet made cannot be read (only the seats of `earlier` have bid)",
                )
            if fact in context.own_only:
                return self.bad(node, "W307", f"{written}: `{fact}` is known only of this seat in {context.where}")
            return self._not_a_fact(node, facts)
        if "seats" not in self.known:
            return self.bad(node, "W303", f"the role `{role}` is not known in {context.where}")
        self.names.add("seats")
        self.seat_reads.setdefault("seats", set()).update((fact, *ROLES[role].picks))
        self.roles.setdefault(role, (node.line, node.column))
        return self.known.get(fact, Type.NUMBER)

    def _not_a_fact(self, node: SeatFact, facts: list[str]) -> Type:
        written, fact = f"`{node.role}.{node.fact}`", node.fact
        if fact in self.known:
            return self.bad(node, "W309", f"{written}: `{fact}` is the same for every seat in {self.context.where}; write `{fact}`")
        return self.bad(
            node, "W309", f"unknown fact `{fact}` of a seat in {written} (facts of a seat here: {', '.join(facts)})", help=did_you_mean(fact, facts)
        )

    # ------------------------------------------------------------ calls

    def call(self, node: Call) -> Type:
        if node.function == "map":
            return self.map_call(node)
        fn = FUNCTIONS.get(node.function)
        if fn is None:
            for a in node.args:
                self.visit(a)
            return self.bad(node, "W306", f"unknown function `{node.function}`", help=did_you_mean(node.function, FUNCTIONS))
        n_args = len(node.args)
        if (fn.variadic and n_args < len(fn.params)) or (not fn.variadic and n_args != len(fn.params)):
            for a in node.args:
                self.visit(a)
            need = f"at least {len(fn.params)}" if fn.variadic else str(len(fn.params))
            return self.bad(node, "W306", f"{fn.name}() takes {need} arguments, not {n_args}")
        for i, a in enumerate(node.args):
            self.want(a, fn.params[min(i, len(fn.params) - 1)], f"argument {i + 1} of {fn.name}()")
        return fn.result

    def aggregate(self, node: Aggregate) -> Type:
        """`count(seats, made)` and the like; `max(later, 1)` where `later` is no set of seats
        (a version 1 file's `let` value) is the function."""
        first = node.args[0] if node.args else None
        shadowed = node.function in FUNCTIONS and isinstance(first, Name) and first.name in self.known and self.known[first.name] is not Type.SEATS
        if shadowed:
            return self.call(node)
        agg = AGGREGATES[node.function]
        form = f"{agg.name}(SET, FORMULA), e.g. {agg.name}(seats, {'made' if agg.per_seat is Type.BOOL else 'bid'})"
        if len(node.args) != 2:
            for a in node.args[1:] if isinstance(first, Name) and first.name in SEAT_SETS else node.args:
                self.visit(a)
            return self.bad(
                node, "W308", f"{agg.name}() over seats takes a set of seats and a formula for each seat: {form}; not {len(node.args)} arguments"
            )
        first, each = node.args
        if not (isinstance(first, Name) and first.name in SEAT_SETS):
            return self._not_a_seat_set(node, first, each)
        if first.name not in self.context.seat_sets():
            self.visit(first)  # W303: where the set is known
            return Type.ANY
        if self.in_seat:
            self.visit(each)
            return self.bad(node, "W308", f"an aggregate inside the per-seat formula of another: aggregates do not nest ({form})")
        self.types[id(first)] = Type.SEATS
        self.names.add(first.name)
        self.seat_reads.setdefault(first.name, set())
        self.in_seat.append(first.name)
        try:
            self.want(each, agg.per_seat, f"the per-seat formula of {agg.name}()")
        finally:
            self.in_seat.pop()
        return agg.result

    def _not_a_seat_set(self, node: Aggregate, first: Node, each: Node) -> Type:
        got = self.visit(first)
        if not (isinstance(first, Name) and got is Type.ANY):  # else an unknown name, already reported (with a did-you-mean)
            sets = ", ".join(self.context.seat_sets()) or "none in " + self.context.where
            self.bad(first, "W308", f"the first argument of {node.function}() is a set of seats ({sets}), not a {got}", start(first))
        self.visit(each)
        return Type.ANY

    def map_call(self, node: Call) -> Type:
        usage = "map() takes a list and `n -> formula`, e.g. map(1 .. 13, n -> [n, n])"
        if len(node.args) != 2:
            for a in node.args:
                self.visit(a)
            return self.bad(node, "W306", f"{usage}, not {len(node.args)} argument{'s' if len(node.args) != 1 else ''}")
        items, each = node.args
        self.want(items, Type.LIST, "argument 1 of map()")
        if not isinstance(each, Each):
            self.visit(each)
            return self.bad(each, "W310", f"the second argument of map() is `n -> formula`: {usage}", start(each))
        taken = (
            "a name this formula already sees"
            if each.param in self.known or each.param in self.bound
            else "a constant"
            if each.param in CONSTANTS
            else "a function"
            if each.param in FUNCTIONS
            else None
        )
        if taken:
            self.bad(each, "W310", f"map()'s item name `{each.param}` is {taken}: choose another, e.g. `n`")
        self.bound.append(each.param)
        try:
            result = self.visit(each.body)
        finally:
            self.bound.pop()
        self.types[id(each)] = result
        if result not in (Type.NUMBER, Type.LIST, Type.ANY):
            return self.bad(
                each.body, "W310", f"map()'s formula gives a {result} for each item; it must give a number or a list of numbers", start(each.body)
            )
        return Type.LIST

    def each(self, node: Each) -> Type:
        self.visit(node.body)
        return self.bad(node, "W310", f"`{node.param} -> ...` is written only as the second argument of map(), e.g. map(1 .. 13, n -> [n, n])")

    # ------------------------------------------------------------ operations

    def turning_range(self, node: TurningRange) -> Type:
        for part in (node.first, node.turn, node.last):
            self.want(part, Type.NUMBER, "'..'")
        return Type.LIST

    def list_of(self, node: ListOf) -> Type:
        for item in node.items:
            self.want(item, Type.NUMBER, "a list item")
        return Type.LIST

    def unary(self, node: Unary) -> Type:
        wanted = Type.NUMBER if node.op == "-" else Type.BOOL
        self.want(node.operand, wanted, f"'{node.op}'")
        return wanted

    def binary(self, node: Binary) -> Type:
        return _BINARY.get(node.op, _Checker.arithmetic)(self, node)

    def both(self, node: Binary, wanted: Type, result: Type) -> Type:
        """`a OP b` where both sides need a `wanted`, giving a `result`."""
        self.want(node.left, wanted, f"'{node.op}'")
        self.want(node.right, wanted, f"'{node.op}'")
        return result

    def logic(self, node: Binary) -> Type:
        return self.both(node, Type.BOOL, Type.BOOL)

    def number_range(self, node: Binary) -> Type:
        return self.both(node, Type.NUMBER, Type.LIST)

    def order(self, node: Binary) -> Type:
        return self.both(node, Type.NUMBER, Type.BOOL)

    def arithmetic(self, node: Binary) -> Type:
        return self.both(node, Type.NUMBER, Type.NUMBER)

    def equality(self, node: Binary) -> Type:
        lt, rt = self.visit(node.left), self.visit(node.right)
        if Type.ANY not in (lt, rt) and lt != rt:
            self.bad(node, "W302", f"'{node.op}' compares a {lt} with a {rt}")
        return Type.BOOL

    def plus(self, node: Binary) -> Type:
        """`+` adds numbers, or joins two lists."""
        lt, rt = self.visit(node.left), self.visit(node.right)
        if lt == rt == Type.LIST:
            return Type.LIST
        if Type.ANY in (lt, rt) and Type.LIST in (lt, rt):
            return Type.ANY  # one side is already reported; a list + ? may be fine
        for side, t in ((node.left, lt), (node.right, rt)):
            if t not in (Type.NUMBER, Type.ANY):
                self.bad(side, "W302", f"'+' needs numbers (or two lists), not a {t}", start(side))
        return Type.NUMBER

    def conditional(self, node: Conditional) -> Type:
        self.want(node.test, Type.BOOL, "the condition after 'if'")
        a, b = self.visit(node.then), self.visit(node.otherwise)
        if Type.ANY in (a, b):
            return Type.ANY
        if a != b:
            return self.bad(node, "W302", f"'then' gives a {a} but 'else' gives a {b}")
        return a


#: How each kind of node is checked.
_VISITS: dict[type, Callable[[_Checker, Any], Type]] = {
    Literal: _Checker.literal,
    Name: _Checker.name,
    SeatFact: _Checker.seat_fact,
    Aggregate: _Checker.aggregate,
    Call: _Checker.call,
    Each: _Checker.each,
    TurningRange: _Checker.turning_range,
    ListOf: _Checker.list_of,
    Unary: _Checker.unary,
    Binary: _Checker.binary,
    Conditional: _Checker.conditional,
}

#: How each binary operator is checked (any other: arithmetic on numbers).
_BINARY: dict[str, Callable[[_Checker, Binary], Type]] = {
    "and": _Checker.logic,
    "or": _Checker.logic,
    "..": _Checker.number_range,
    "==": _Checker.equality,
    "!=": _Checker.equality,
    **dict.fromkeys(("<", "<=", ">", ">="), _Checker.order),
    "+": _Checker.plus,
}


def list_builders(tree: Node, types: Mapping[int, Type]) -> list[Node]:
    """The nodes of `tree` that build a list when evaluated, in the order they are written."""
    found: list[Node] = []
    for node in walk(tree):
        if (
            isinstance(node, (ListOf, TurningRange))
            or (isinstance(node, Call) and node.function in ("repeat", "map"))
            or isinstance(node, Binary)
            and (node.op == ".." or (node.op == "+" and types.get(id(node)) == Type.LIST))
        ):
            found.append(node)
    return sorted(found, key=lambda n: (start(n), n.line, n.column))
