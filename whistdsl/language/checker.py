"""Syntax tree -> checked tree: every name resolved against a context of the catalogue
(catalogue.py: which names, roles and seat facts it sees), every type inferred, and the limits
that can be known before evaluating checked. Raises ExprError with every problem found, each a
finding code (W301 unknown name, W302 types, W303 not available here, ...)."""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from typing import Iterable, Mapping

from .catalogue import AGGREGATES, CONSTANTS, CONTEXTS, FUNCTIONS, ME, ROLES, SEAT_SETS, Context, Type
from .errors import ExprError, ExprProblem
from .limits import MAX_LIST_OPS
from .parser import KEYWORDS
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



def _did_you_mean(name: str, choices: Iterable[str]) -> str:
    close = difflib.get_close_matches(name, list(choices), n=1, cutoff=0.6)
    return f"; did you mean `{close[0]}`?" if close else ""


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
    running = tuple(running)
    lets = lets or {}
    parameters = parameters or {}
    known: dict[str, Type] = dict(parameters) if context.sees_parameters else {}
    known.update({v.name: v.type for v in context.variables})
    if context.sees_running:
        known.update({r: Type.NUMBER for r in running})
    if context.sees_lets:
        known.update(lets)
    problems: list[ExprProblem] = []
    types: dict[int, Type] = {}
    names: set[str] = set()
    seat_reads: dict[str, set[str]] = {}
    # a seat's running values are its facts wherever aggregates read seats (even in `end.when`,
    # which has no seat of its own)
    seat_facts = [*context.per_seat, *(running if context.per_seat else ())]  # in the catalogue's order, for messages
    per_seat = set(seat_facts)
    in_seat: list[str] = []  # the seat set whose per-seat formula is being checked
    me_reads: set[str] = set()  # the facts of this seat read as `me.FACT` inside a per-seat formula
    roles: dict[str, tuple[int, int]] = {}  # the roles read (`dealer.bid`), where first written
    bound: list[str] = []  # the item names of the map() formulas being checked, innermost last

    def bad(node: Node, code: str, message: str, at: tuple[int, int] | None = None) -> Type:
        """A problem about `node`: about its whole text when `at` is where that begins (or it is not
        a binary operation), else about the spot `at` or its operator (underlined as it is)."""
        line, column = at or (node.line, node.column)
        whole = (line, column) == start(node)
        end_line, end_column = (node.end_line, node.end_column) if whole else (0, 0)
        problems.append(ExprProblem(code, message, line, column, end_line, end_column))
        return Type.ANY

    def want(node: Node, wanted: Type, what: str) -> None:
        got = visit(node)
        if got not in (wanted, Type.ANY):
            bad(node, "W302", f"{what} needs a {wanted}, not a {got}", start(node))

    def visit(node: Node) -> Type:
        t = _visit(node)
        types[id(node)] = t
        return t

    def _visit(node: Node) -> Type:
        if isinstance(node, Literal):
            if isinstance(node.value, bool):
                return Type.BOOL
            if isinstance(node.value, str):
                return Type.TEXT
            if not within_limit(node.value):
                bad(node, "W305", "this number exceeds the limit of 10^30 in size (numerator and denominator alike)")
            return Type.NUMBER
        if isinstance(node, Name):
            n = node.name
            if n in bound:
                return Type.NUMBER
            if in_seat and n in per_seat:
                where = in_seat[-1]
                if n in context.earlier_only and where != "earlier":
                    return bad(
                        node,
                        "W307",
                        f"`{n}` of the seats of `{where}` is not known in {context.where}: only the seats "
                        f"of `earlier` have bid yet (a bid not yet made cannot be read)",
                    )
                seat_reads.setdefault(where, set()).add(n)
                return known.get(n, Type.NUMBER)  # a running value where the context has none of its own
            if in_seat and n in known:
                where = in_seat[-1]
                if n in context.own_only:
                    return bad(
                        node,
                        "W307",
                        f"`{n}` is known only of this seat in {context.where}, not of each seat of `{where}`: "
                        "read it outside the aggregate",
                    )
            if n in known and known[n] is Type.SEATS:
                sets = ", ".join(context.seat_sets())
                return bad(node, "W308", f"`{n}` is a set of seats: read it with an aggregate, e.g. count({n}, made) or max({n}, bid) (seat sets here: {sets})")
            if n in known:
                names.add(n)
                return known[n]
            if n in CONSTANTS:
                return CONSTANTS[n][0]
            if n in FUNCTIONS:
                return bad(node, "W306", f"`{n}` is a function: call it as {n}(...)")
            if n in KEYWORDS:
                return bad(node, "W300", f"unexpected `{n}`: it is a word of the language, and a value is needed here")
            elsewhere = [c.where for c in CONTEXTS.values() if c.variable(n) and c is not context]
            if elsewhere:
                return bad(
                    node,
                    "W303",
                    f"`{n}` is not available in {context.where} "
                    f"(it is known in: {'; '.join(elsewhere)})",
                )
            if n in running and not context.sees_running:
                return bad(node, "W303", f"running value `{n}` is not available in {context.where}")
            if n in lets and not context.sees_lets:
                return bad(node, "W303", f"`let` value `{n}` is not available in {context.where}")
            if n in parameters and not context.sees_parameters:
                return bad(node, "W303", f"parameter `{n}` is not available in {context.where}")
            return bad(
                node,
                "W301",
                f"unknown name `{n}`" + _did_you_mean(n, [*known, *CONSTANTS]),
            )
        if isinstance(node, SeatFact):
            return seat_fact(node)
        if isinstance(node, Aggregate) and not shadowed(node):
            return aggregate(node)
        if isinstance(node, Call) and node.function == "map":
            return visit_map(node)
        if isinstance(node, Each):
            visit(node.body)
            return bad(node, "W310", f"`{node.param} -> ...` is written only as the second argument of map(), e.g. map(1 .. 13, n -> [n, n])")
        if isinstance(node, TurningRange):
            for part in (node.first, node.turn, node.last):
                want(part, Type.NUMBER, "'..'")
            return Type.LIST
        if isinstance(node, Call):
            fn = FUNCTIONS.get(node.function)
            if fn is None:
                for a in node.args:
                    visit(a)
                return bad(
                    node,
                    "W306",
                    f"unknown function `{node.function}`" + _did_you_mean(node.function, FUNCTIONS),
                )
            n_args = len(node.args)
            if (fn.variadic and n_args < len(fn.params)) or (not fn.variadic and n_args != len(fn.params)):
                for a in node.args:
                    visit(a)
                need = f"at least {len(fn.params)}" if fn.variadic else str(len(fn.params))
                return bad(node, "W306", f"{fn.name}() takes {need} arguments, not {n_args}")
            for i, a in enumerate(node.args):
                want(a, fn.params[min(i, len(fn.params) - 1)], f"argument {i + 1} of {fn.name}()")
            return fn.result
        if isinstance(node, ListOf):
            for i, item in enumerate(node.items):
                want(item, Type.NUMBER, "a list item")
            return Type.LIST
        if isinstance(node, Unary):
            if node.op == "-":
                want(node.operand, Type.NUMBER, "'-'")
                return Type.NUMBER
            want(node.operand, Type.BOOL, "'not'")
            return Type.BOOL
        if isinstance(node, Binary):
            op = node.op
            if op in ("and", "or"):
                want(node.left, Type.BOOL, f"'{op}'")
                want(node.right, Type.BOOL, f"'{op}'")
                return Type.BOOL
            if op == "..":
                want(node.left, Type.NUMBER, "'..'")
                want(node.right, Type.NUMBER, "'..'")
                return Type.LIST
            if op in ("==", "!="):
                lt, rt = visit(node.left), visit(node.right)
                if Type.ANY not in (lt, rt) and lt != rt:
                    bad(node, "W302", f"'{op}' compares a {lt} with a {rt}")
                return Type.BOOL
            if op in ("<", "<=", ">", ">="):
                want(node.left, Type.NUMBER, f"'{op}'")
                want(node.right, Type.NUMBER, f"'{op}'")
                return Type.BOOL
            if op == "+":
                lt, rt = visit(node.left), visit(node.right)
                if lt == rt == Type.LIST:
                    return Type.LIST
                if Type.ANY in (lt, rt) and Type.LIST in (lt, rt):
                    return Type.ANY  # one side is already reported; a list + ? may be fine
                for side, t in ((node.left, lt), (node.right, rt)):
                    if t not in (Type.NUMBER, Type.ANY):
                        bad(side, "W302", f"'+' needs numbers (or two lists), not a {t}", start(side))
                return Type.NUMBER
            want(node.left, Type.NUMBER, f"'{op}'")
            want(node.right, Type.NUMBER, f"'{op}'")
            return Type.NUMBER
        if isinstance(node, Conditional):
            want(node.test, Type.BOOL, "the condition after 'if'")
            a, b = visit(node.then), visit(node.otherwise)
            if Type.ANY in (a, b):
                return Type.ANY
            if a != b:
                return bad(node, "W302", f"'then' gives a {a} but 'else' gives a {b}")
            return a
        raise AssertionError(node)

    def shadowed(node: Aggregate) -> bool:
        """`max(later, 1)` in a version 1 file whose `let` value is named `later`: the function."""
        first = node.args[0] if node.args else None
        return node.function in FUNCTIONS and isinstance(first, Name) and first.name in known and known[first.name] is not Type.SEATS

    def aggregate(node: Aggregate) -> Type:
        agg = AGGREGATES[node.function]
        form = f"{agg.name}(SET, FORMULA), e.g. {agg.name}(seats, {'made' if agg.per_seat is Type.BOOL else 'bid'})"
        if len(node.args) != 2:
            for a in node.args[1:] if isinstance(node.args[0], Name) and node.args[0].name in SEAT_SETS else node.args:
                visit(a)
            return bad(node, "W308", f"{agg.name}() over seats takes a set of seats and a formula for each seat: {form}; not {len(node.args)} arguments")
        first, each = node.args
        sets = context.seat_sets()
        if not (isinstance(first, Name) and first.name in SEAT_SETS):
            got = visit(first)
            if isinstance(first, Name) and got is Type.ANY:
                pass  # an unknown name, already reported (with a did-you-mean)
            else:
                bad(first, "W308", f"the first argument of {agg.name}() is a set of seats ({', '.join(sets) or 'none in ' + context.where}), not a {got}", start(first))
            visit(each)
            return Type.ANY
        if first.name not in sets:
            visit(first)  # W303: where the set is known
            return Type.ANY
        if in_seat:
            visit(each)
            return bad(node, "W308", f"an aggregate inside the per-seat formula of another: aggregates do not nest ({form})")
        types[id(first)] = Type.SEATS
        names.add(first.name)
        seat_reads.setdefault(first.name, set())
        in_seat.append(first.name)
        try:
            want(each, agg.per_seat, f"the per-seat formula of {agg.name}()")
        finally:
            in_seat.pop()
        return agg.result
    def seat_fact(node: SeatFact) -> Type:
        """`ROLE.FACT`: the role must be one the context knows, the fact one of its seat facts."""
        role, fact = node.role, node.fact
        written = f"`{role}.{fact}`"
        if role not in ROLES:
            if role in known or role in CONSTANTS:
                return bad(node, "W309", f"{written}: `{role}` is a value, not a seat; `ROLE.FACT` reads one fact of a seat ({', '.join(ROLES)})")
            return bad(node, "W309", f"unknown role `{role}` in {written}" + _did_you_mean(role, ROLES) + f" (roles: {', '.join(ROLES)})")
        if role not in context.roles:
            elsewhere = [c.where for c in CONTEXTS.values() if role in c.roles]
            return bad(
                node,
                "W303",
                f"the role `{role}` is not known in {context.where}"
                + (f" (it is known in: {'; '.join(elsewhere)})" if elsewhere else ""),
            )
        if role == ME:
            own = [*seat_facts, *context.own_only, *(n for n in ("call", "blind") if n in known)]
            if fact not in own:
                if fact in known:
                    return bad(node, "W309", f"{written}: `{fact}` is the same for every seat in {context.where}; write `{fact}`")
                return bad(node, "W309", f"unknown fact `{fact}` of a seat in {written}" + _did_you_mean(fact, own) + f" (facts of a seat here: {', '.join(own)})")
            roles.setdefault(role, (node.line, node.column))
            names.add(fact)  # this seat's own value: the environment's, outside any aggregate
            if in_seat:
                me_reads.add(fact)
            return known.get(fact, Type.NUMBER)
        facts = [n for n in seat_facts if n not in context.earlier_only]
        if fact not in facts:
            if fact in context.earlier_only:
                return bad(node, "W307", f"{written} is not known in {context.where}: a bid not yet made cannot be read (only the seats of `earlier` have bid)")
            if fact in context.own_only:
                return bad(node, "W307", f"{written}: `{fact}` is known only of this seat in {context.where}")
            if fact in known:
                return bad(node, "W309", f"{written}: `{fact}` is the same for every seat in {context.where}; write `{fact}`")
            return bad(node, "W309", f"unknown fact `{fact}` of a seat in {written}" + _did_you_mean(fact, facts) + f" (facts of a seat here: {', '.join(facts)})")
        if "seats" not in known:
            return bad(node, "W303", f"the role `{role}` is not known in {context.where}")
        names.add("seats")
        seat_reads.setdefault("seats", set()).update((fact, *ROLES[role].picks))
        roles.setdefault(role, (node.line, node.column))
        return known.get(fact, Type.NUMBER)

    def visit_map(node: Call) -> Type:
        usage = "map() takes a list and `n -> formula`, e.g. map(1 .. 13, n -> [n, n])"
        if len(node.args) != 2:
            for a in node.args:
                visit(a)
            return bad(node, "W306", f"{usage}, not {len(node.args)} argument{'s' if len(node.args) != 1 else ''}")
        items, each = node.args
        want(items, Type.LIST, "argument 1 of map()")
        if not isinstance(each, Each):
            visit(each)
            return bad(each, "W310", f"the second argument of map() is `n -> formula`: {usage}", start(each))
        taken = (
            "a name this formula already sees" if each.param in known or each.param in bound
            else "a constant" if each.param in CONSTANTS
            else "a function" if each.param in FUNCTIONS
            else None
        )
        if taken:
            bad(each, "W310", f"map()'s item name `{each.param}` is {taken}: choose another, e.g. `n`")
        bound.append(each.param)
        try:
            result = visit(each.body)
        finally:
            bound.pop()
        types[id(each)] = result
        if result not in (Type.NUMBER, Type.LIST, Type.ANY):
            return bad(
                each.body, "W310", f"map()'s formula gives a {result} for each item; it must give a number or a list of numbers", start(each.body)
            )
        return Type.LIST

    result = visit(tree)
    if not problems:
        builders = list_builders(tree, types)
        if len(builders) > MAX_LIST_OPS:
            problems.append(
                ExprProblem(
                    "W304",
                    f"this formula builds {len(builders)} lists (ranges, repeat, joined lists, [ ]); the limit is {MAX_LIST_OPS}",
                    *start(builders[MAX_LIST_OPS]),
                )
            )
    if expect is not None and result not in (expect, Type.ANY) and not problems:
        problems.append(
            ExprProblem("W302", f"this formula gives a {result}, but a {expect} is needed here", *start(tree), tree.end_line, tree.end_column)
        )
    if problems:
        raise ExprError(problems)
    return Checked(tree, result, frozenset(names), types, {k: frozenset(v) for k, v in seat_reads.items()}, frozenset(me_reads), roles)


def list_builders(tree: Node, types: Mapping[int, Type]) -> list[Node]:
    """The nodes of `tree` that build a list when evaluated, in the order they are written."""
    found: list[Node] = []
    for node in walk(tree):
        if isinstance(node, (ListOf, TurningRange)) or (isinstance(node, Call) and node.function in ("repeat", "map")):
            found.append(node)
        elif isinstance(node, Binary) and (node.op == ".." or (node.op == "+" and types.get(id(node)) == Type.LIST)):
            found.append(node)
    return sorted(found, key=lambda n: (start(n), n.line, n.column))
