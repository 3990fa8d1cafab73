"""Checked tree -> a formula ready to call: the interpreted runner (nested closures, constant
parts evaluated once), `formula` (parse, check and compile a text in one call), the memo of pure
formulas' results, and what lint asks of a compiled formula (`can_fail`, `divisors`).

A formula has two runners, as cel-python's interpreted and compiled runners behind one program:
these closures, and the Python source that codegen.py writes for the compiled engine. Both
compute each operation by calling operations.py, the one definition of what it means.
Nothing here calls Python's `eval`; a formula sees only the variables it is given."""

from __future__ import annotations

from collections import ChainMap
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar, cast

from .catalogue import CONSTANTS, CONTEXTS, ME, Context, Type
from .checker import Checked, check, list_builders
from .errors import EvalError, ExprError, ExprProblem
from .limits import MAX_LIST
from .operations import ARITH, CALLS, COMPARE, concat, map_items, num, number_range, spend, turning_range
from .parser import parse
from .tree import Aggregate, Binary, Call, Conditional, Each, ListOf, Literal, Name, Node, SeatFact, TurningRange, Unary, walk
from .values import Number, Reads, Value

Compiled = Callable[[Reads], Value]
#: A closure the checker has typed a number, or a list: the same function, seen as such by the
#: type checker (`cast` once where the closure is built, nothing when it runs).
NumberFn = Callable[[Reads], Number]
ListFn = Callable[[Reads], tuple]


@dataclass(frozen=True)
class Formula:
    """A checked, compiled expression: call it with a dict of its context's variables."""

    source: str
    type: Type
    names: frozenset[str]
    evaluate: Compiled = field(compare=False, repr=False)
    constant: Value | None = None
    key_names: tuple[str, ...] = ()  # the names it uses, in a fixed order (for `cached`)
    _memo: Memo[Value] = field(default_factory=lambda: Memo(_MEMO_LIMIT), compare=False, repr=False)
    #: where the formula is written, for rule errors: `scoring.points (house.yaml:12:11)`
    origin: str = field(default="", compare=False)
    #: the checked tree it was compiled from (lint looks inside it for divisions)
    checked: Checked | None = field(default=None, compare=False, repr=False)
    #: how many lists one evaluation may build (each up to MAX_LIST numbers): its cost
    list_ops: int = field(default=0, compare=False)
    #: (seat set, the facts read of each of its seats), for each set it aggregates over; the
    #: sets are not among `key_names`
    seat_reads: tuple[tuple[str, tuple[str, ...]], ...] = field(default=(), compare=False)

    def __call__(self, env: Reads) -> Value:
        return self.evaluate(env)

    def memo_key(self, env: Reads) -> tuple:
        """The values the formula reads in `env`: equal keys, equal values (it is pure)."""
        key = tuple([env[n] for n in self.key_names])
        return key + self.seat_key(env) if self.seat_reads else key

    def seat_key(self, env: Reads) -> tuple:
        """What the formula reads of the seats of its seat sets in `env` (part of `memo_key`)."""
        return tuple(tuple(tuple([seat[n] for n in facts]) for seat in env[name]) for name, facts in self.seat_reads)  # type: ignore[union-attr,index]  # env[name] is a seat set (a tuple of seats' facts): a Value's tuple, not its str

    def cached(self, env: Reads) -> Value:
        """The same value as calling, remembered by the values of the names the formula uses.

        A formula is a pure function of its names, so this is always safe; the engine uses it
        where the same few cases recur thousands of times (bidding limits, scoring).
        """
        key = tuple([env[n] for n in self.key_names]) if not self.seat_reads else self.memo_key(env)
        memo = self._memo
        try:
            return memo[key]
        except KeyError:
            return memo.keep(key, self.evaluate(env))


#: What a memo remembers: a formula's value, or the engine's legal bids or a seat's scoring.
_Kept = TypeVar("_Kept")


class Memo(dict[Hashable, _Kept], Generic[_Kept]):
    """The one memo of pure formulas' results, keyed by the values of the names they read (see
    `Formula.memo_key`): a formula's own (`cached`), and the engine's memos of the legal bids
    and of a seat's scoring (engine/table.py). Bounded: it forgets everything once full."""

    __slots__ = ("limit",)

    def __init__(self, limit: int):
        super().__init__()
        self.limit = limit

    def keep(self, key: Hashable, value: _Kept) -> _Kept:
        """Remember `value` under `key` (forgetting the rest first when full); returns `value`."""
        if len(self) >= self.limit:
            self.clear()
        self[key] = value
        return value


_MEMO_LIMIT = 4096


def compile_(checked: Checked) -> tuple[Compiled, Value | None]:
    """Checked tree -> closure. Constant sub-expressions are evaluated once, now.

    Returns the closure and, when the whole expression is constant, its value.
    Raises ExprError (W305) when a constant part cannot be evaluated (e.g. `10 ^ 10 ^ 10`).
    """
    fn, is_const, value = _Closures(checked).const(checked.tree)
    return fn, value if is_const else None


#: A node's closure, and whether it is constant (the same value whatever the environment).
Built = tuple[Compiled, bool]


class _Closures:
    """The closures of one checked tree, built by the kind of each node (`build`). The closures
    capture only what they compute with, never this builder."""

    def __init__(self, checked: Checked):
        self.types = checked.types
        self.names = checked.names
        self.inside_map = 0  # how many map() formulas the node being built is inside
        self.inside_aggregate = 0  # 1 inside an aggregate's per-seat formula (they do not nest)

    def const(self, node: Node) -> tuple[Compiled, bool, Value | None]:
        """The closure of `node`, whether it is constant, and then its value (evaluated now)."""
        fn, is_const = self.build(node)
        if self.inside_map and not is_const and self.types.get(id(node)) == Type.LIST:
            built = fn  # a list built once per item: counted against the map's budget
            listed = cast(ListFn, built)
            fn = lambda env: spend(env, listed(env))  # noqa: E731
        if is_const:
            try:
                value = fn({})
            except EvalError as e:
                raise ExprError([ExprProblem("W305", str(e), node.line, node.column)]) from None
            return (lambda env: value), True, value
        return fn, False, None

    def build(self, node: Node) -> Built:
        return _BUILDS[type(node)](self, node)

    def literal(self, node: Literal) -> Built:
        v = node.value
        return (lambda env: v), True

    def name(self, node: Name) -> Built:
        if node.name in CONSTANTS and node.name not in self.names:
            v = CONSTANTS[node.name][1]
            return (lambda env: v), True
        key = node.name
        return (lambda env: env[key]), False

    def seat_fact(self, node: SeatFact) -> Built:
        fact = node.fact
        if node.role == ME:
            key = _ME + fact if self.inside_aggregate else fact
            return (lambda env: env[key]), False
        return _role_fact(node.role, fact), False

    def aggregate(self, node: Aggregate) -> Built:
        if self.types.get(id(node.args[0])) is not Type.SEATS:
            return self.call(node)  # `max(a, b)` where `a` is no set of seats: the function
        key = node.args[0].name  # type: ignore[attr-defined]  # the checker types a seat set only as a Name (`seats`, `players`, ...)
        self.inside_aggregate += 1
        try:
            each, _ = self.build(node.args[1])
        finally:
            self.inside_aggregate -= 1
        mine = tuple(sorted({n.fact for n in walk(node.args[1]) if isinstance(n, SeatFact) and n.role == ME}))
        return _aggregate(node.function, key, each, mine), False

    def call(self, node: Call) -> Built:
        if node.function == "map":
            return self.map_call(node)
        parts = [self.const(a) for a in node.args]
        fns = [p[0] for p in parts]
        impl = CALLS[node.function]
        is_const = all(p[1] for p in parts)
        if len(fns) == 1:
            (f0,) = fns
            return (lambda env: impl(f0(env))), is_const
        if len(fns) == 2:
            f0, f1 = fns
            return (lambda env: impl(f0(env), f1(env))), is_const
        return (lambda env: impl(*[f(env) for f in fns])), is_const

    def map_call(self, node: Call) -> Built:
        items, _, _ = self.const(node.args[0])
        items_fn = cast(ListFn, items)
        each = node.args[1]
        assert isinstance(each, Each)
        self.inside_map += 1
        try:
            body_fn, _, _ = self.const(each.body)
        finally:
            self.inside_map -= 1
        param = each.param
        return (lambda env: map_items(items_fn(env), param, body_fn, env)), False

    def turning_range(self, node: TurningRange) -> Built:
        a, ac, _ = self.const(node.first)
        b, bc, _ = self.const(node.turn)
        c, cc, _ = self.const(node.last)
        an, bn, cn = cast(NumberFn, a), cast(NumberFn, b), cast(NumberFn, c)
        return (lambda env: turning_range(an(env), bn(env), cn(env))), ac and bc and cc

    def list_of(self, node: ListOf) -> Built:
        parts = [self.const(a) for a in node.items]
        fns = [p[0] for p in parts]
        if len(fns) > MAX_LIST:
            raise ExprError([ExprProblem("W305", f"a list may hold at most {MAX_LIST} numbers", node.line, node.column)])
        return (lambda env: tuple(f(env) for f in fns)), all(p[1] for p in parts)

    def unary(self, node: Unary) -> Built:
        f, c, _ = self.const(node.operand)
        if node.op == "-":
            fn = cast(NumberFn, f)
            return (lambda env: -fn(env)), c
        return (lambda env: not f(env)), c

    def binary(self, node: Binary) -> Built:
        lf, lc, _ = self.const(node.left)
        rf, rc, _ = self.const(node.right)
        if node.op != "+":
            return _binary(node.op, lf, rf), lc and rc
        if self.types.get(id(node)) == Type.LIST:
            ll, rl = cast(ListFn, lf), cast(ListFn, rf)
            return (lambda env: concat(ll(env), rl(env))), lc and rc
        ln, rn = cast(NumberFn, lf), cast(NumberFn, rf)
        if rc:  # the common `x + 3`: one closure call fewer
            k = rn({})
            return (lambda env: num(ln(env) + k)), lc
        return (lambda env: num(ln(env) + rn(env))), lc and rc

    def conditional(self, node: Conditional) -> Built:
        tf, tc, tv = self.const(node.test)
        af, ac, _ = self.const(node.then)
        bf, bc, _ = self.const(node.otherwise)
        if tc:
            return (af, ac) if tv else (bf, bc)
        return (lambda env: af(env) if tf(env) else bf(env)), False


#: How each kind of node is built (an `n -> formula` only as map()'s, by `map_call`).
_BUILDS: dict[type, Callable[[_Closures, Any], Built]] = {
    Literal: _Closures.literal,
    Name: _Closures.name,
    SeatFact: _Closures.seat_fact,
    Aggregate: _Closures.aggregate,
    Call: _Closures.call,
    TurningRange: _Closures.turning_range,
    ListOf: _Closures.list_of,
    Unary: _Closures.unary,
    Binary: _Closures.binary,
    Conditional: _Closures.conditional,
}


def _binary(op: str, lf: Compiled, rf: Compiled) -> Compiled:
    """The closure of `a OP b` for every operator but `+`."""
    if op == "and":
        return lambda env: lf(env) and rf(env)
    if op == "or":
        return lambda env: lf(env) or rf(env)
    if op in COMPARE:
        cmp = COMPARE[op]
        return lambda env: cmp(lf(env), rf(env))
    ln, rn = cast(NumberFn, lf), cast(NumberFn, rf)  # the other operators take numbers
    if op == "..":
        return lambda env: number_range(ln(env), rn(env))
    if op == "-":
        return lambda env: num(ln(env) - rn(env))
    arith = ARITH[op]
    return lambda env: arith(ln(env), rn(env))


#: Where an aggregate's per-seat formula finds this seat's own facts (`me.bid`): `_ME + "bid"`.
_ME = "\x00me."


def _aggregate(name: str, key: str, each: Compiled, mine: tuple[str, ...] = ()) -> Compiled:
    """The closure of `name(key, each)`: `each` is evaluated with each seat's own facts in front of
    the formula's environment (the table-wide names stay those of the environment); `mine`, the
    facts of this seat it reads as `me.FACT`, are kept under `_ME + FACT` in between."""

    if mine:

        def values(env: Reads) -> Iterator[Value]:
            own = {_ME + n: env[n] for n in mine}
            for seat in env[key]:  # type: ignore[union-attr]  # env[key] is a seat set (a tuple of seats' facts): a Value's tuple
                yield each(ChainMap(seat, own, env))  # type: ignore[arg-type]  # a seat of a seat set is a mapping of its facts; typeshed's ChainMap wants mutable maps, and this one is only read

    else:

        def values(env: Reads) -> Iterator[Value]:
            for seat in env[key]:  # type: ignore[union-attr]  # env[key] is a seat set (a tuple of seats' facts): a Value's tuple
                yield each(ChainMap(seat, env))  # type: ignore[arg-type]  # a seat of a seat set is a mapping of its facts; typeshed's ChainMap wants mutable maps, and this one is only read

    if name == "count":
        return lambda env: sum(1 for v in values(env) if v)
    if name == "sum":
        return lambda env: num(sum(values(env)))  # type: ignore[arg-type]  # the checker typed the per-seat formula of sum() a number
    if name == "max":
        return lambda env: max(values(env), default=0)
    if name == "min":
        return lambda env: min(values(env), default=0)
    if name == "all":
        return lambda env: all(values(env))
    if name == "any":
        return lambda env: any(values(env))
    raise AssertionError(name)


def _role_fact(role: str, fact: str) -> Compiled:
    """The closure of `ROLE.FACT`: the fact of the seat of `seats` (in bidding order) the role picks."""
    if role == "dealer":

        def read(env: Reads) -> Value:
            for seat in env["seats"]:  # type: ignore[union-attr]  # `seats` is a seat set: a Value's tuple, not its other kinds
                if seat["is_dealer"]:  # type: ignore[index]  # likewise
                    return seat[fact]  # type: ignore[index]  # likewise
            raise EvalError("the dealer does not play this hand: `dealer." + fact + "` cannot be read")

        return read
    if role == "first_bidder":
        return lambda env: env["seats"][0][fact]  # type: ignore[index]  # `seats` is a seat set (a tuple of seats' facts): a Value's tuple
    if role == "last_bidder":
        return lambda env: env["seats"][-1][fact]  # type: ignore[index]  # `seats` is a seat set (a tuple of seats' facts): a Value's tuple
    if role == "highest_bidder":  # max() keeps the first of equal bids: the earlier bidder
        return lambda env: max(env["seats"], key=_bid_of)[fact]  # type: ignore[arg-type]  # `seats` is a seat set (a tuple of seats' facts): a Value's tuple
    raise AssertionError(role)


def _bid_of(seat: Mapping[str, Value]) -> Value:
    return seat["bid"]


def formula(
    text: str,
    context: str | Context,
    running: Iterable[str] = (),
    expect: Type | None = None,
    lets: Mapping[str, Type] | None = None,
    parameters: Mapping[str, Type] | None = None,
) -> Formula:
    """Parse, check and compile `text` for `context`. Raises ExprError."""
    ctx = CONTEXTS[context] if isinstance(context, str) else context
    checked = check(parse(text), ctx, running, expect, lets, parameters)
    fn, constant = compile_(checked)
    return Formula(
        text,
        checked.type,
        checked.names,
        fn,
        constant,
        tuple(sorted(checked.names - set(checked.seat_reads))),
        checked=checked,
        seat_reads=tuple((name, tuple(sorted(facts))) for name, facts in sorted(checked.seat_reads.items())),
        list_ops=len(list_builders(checked.tree, checked.types)),
    )


#: Operations that can fail at some values (beyond the number cap, that `+` and `-` reach only
#: from values near it): a formula without them cannot fail on values of ordinary size.
_RISKY_OPS = frozenset({"/", "//", "%", "^", "*", ".."})
_RISKY_CALLS = frozenset({"repeat", "tri", "map"})


def can_fail(f: Formula) -> bool:
    """Whether some values of its names could make `f` fail: it divides, multiplies, raises to a
    power or builds a list. (`+`, `-`, comparisons, `if`, `min`, `abs` ... of values below 10^6
    stay far below the number cap, whatever the formula.)"""
    if f.checked is None:
        return True
    for node in walk(f.checked.tree):
        if isinstance(node, Binary) and node.op in _RISKY_OPS or isinstance(node, TurningRange):
            return True
        if isinstance(node, Call) and node.function in _RISKY_CALLS:
            return True
    return False


def divisors(f: Formula) -> list[tuple[Compiled, frozenset[str]]]:
    """The parts of `f` that must not be 0 when evaluated: each divisor (of /, // and %) and each
    base raised to a power that is not a constant of 0 or more, compiled, with the names it reads.
    Lint evaluates them to find the values that make them 0."""
    checked = f.checked
    if checked is None:
        return []
    inside_map = {id(n) for each in walk(checked.tree) if isinstance(each, Each) for n in walk(each.body)}
    # a part inside a map() is evaluated per item of it: lint tries the whole formula instead
    parts = [part for node in walk(checked.tree) if id(node) not in inside_map and (part := _must_not_be_zero(node)) is not None]
    out = []
    for part in parts:
        reads = frozenset(n.name for n in walk(part) if isinstance(n, Name) and n.name in checked.names)
        if not reads:
            continue  # a constant divisor: compiling the formula already evaluated it
        fn, _ = compile_(Checked(part, Type.NUMBER, checked.names, checked.types))
        out.append((fn, reads))
    return out


def _must_not_be_zero(node: Node) -> Node | None:
    """The part of `node` that must not be 0: a divisor, or a base raised to a power that is
    not a constant of 0 or more; None when it has none."""
    if not isinstance(node, Binary):
        return None
    if node.op in ("/", "//", "%"):
        return node.right
    exponent = node.right
    if node.op == "^" and not (isinstance(exponent, Literal) and not isinstance(exponent.value, (bool, str)) and exponent.value >= 0):
        return node.left
    return None


def evaluate(text: str, context: str, env: Reads, running: Iterable[str] = ()) -> Value:
    """Convenience for tools and tests: compile and call once."""
    return formula(text, context, running)(env)
