"""The syntax tree of a formula: small frozen dataclasses, each at the spot its text begins and
with where it ends (for lint to underline it whole), and the walks over a tree that the checker,
the runners and lint share (`walk`, `start`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from .catalogue import AGGREGATES, FUNCTIONS, SEAT_SETS
from .values import Number


@dataclass(frozen=True)
class Node:
    """A node of a syntax tree, at the spot its text begins (a binary operation's: its operator),
    with where that text ends: the line and the column just after it (lark's `end_line` and
    `end_column`), for lint to underline the whole of it."""

    line: int
    column: int
    end_line: int = field(default=0, kw_only=True, repr=False)
    end_column: int = field(default=0, kw_only=True, repr=False)


@dataclass(frozen=True)
class Literal(Node):
    value: Number | bool | str  # a list is never written as one literal


@dataclass(frozen=True)
class Name(Node):
    name: str


@dataclass(frozen=True)
class Call(Node):
    function: str
    args: tuple[Node, ...]


@dataclass(frozen=True)
class Aggregate(Call):
    """`count(seats, made)`: the second argument evaluated for each seat of the set named first.

    `count`, `all` and `any` are always aggregates; `sum`, `max` and `min` are when their first
    argument is the name of a seat set (`sum([1, 2])` and `max(a, b)` stay functions)."""


def is_aggregate(function: str, args: tuple[Node, ...]) -> bool:
    if function not in AGGREGATES:
        return False
    if function not in FUNCTIONS:
        return True
    return bool(args) and isinstance(args[0], Name) and args[0].name in SEAT_SETS


@dataclass(frozen=True)
class SeatFact(Node):
    """`ROLE.FACT`: one fact of the seat named by its role (`dealer.bid`), or of this seat
    (`me.bid`, inside an aggregate's per-seat formula the seat it is evaluated for)."""

    role: str
    fact: str


@dataclass(frozen=True)
class ListOf(Node):
    items: tuple[Node, ...]


@dataclass(frozen=True)
class Unary(Node):
    op: str  # "-" or "not"
    operand: Node


@dataclass(frozen=True)
class Binary(Node):
    op: str  # + - * / // % ^ == != < <= > >= and or ..
    left: Node
    right: Node
    #: where its whole text begins (its `line` and `column` are its operator's): its left side,
    #: or the bracket before it in `(a + b) * c`
    start_line: int = field(default=0, kw_only=True, repr=False)
    start_column: int = field(default=0, kw_only=True, repr=False)


@dataclass(frozen=True)
class TurningRange(Node):
    """`first .. turn .. last`: up (or down) to `turn`, then back, the turning number once."""

    first: Node
    turn: Node
    last: Node


@dataclass(frozen=True)
class Each(Node):
    """`n -> body`, the second argument of map(): `body` is evaluated with `n` as each item."""

    param: str
    body: Node


@dataclass(frozen=True)
class Conditional(Node):
    test: Node
    then: Node
    otherwise: Node


#: every kind of node by its class's name (the parsed trees kept in the cache name them so)
NODE_KINDS: dict[str, type[Node]] = {
    kind.__name__: kind for kind in (Literal, Name, Call, Aggregate, SeatFact, ListOf, Unary, Binary, TurningRange, Each, Conditional)
}


def start(node: Node) -> tuple[int, int]:
    """Where the text of `node` begins (a binary operation's node sits at its operator)."""
    while isinstance(node, Binary):
        if node.start_line:
            return node.start_line, node.start_column
        node = node.left
    return node.line, node.column


def walk(tree: Node) -> list[Node]:
    """Every node of `tree`, parents before children (iterative: the depth is bounded anyway)."""
    out: list[Node] = []
    stack = [tree]
    while stack:
        node = stack.pop()
        out.append(node)
        if isinstance(node, Call):
            stack.extend(reversed(node.args))
        elif isinstance(node, ListOf):
            stack.extend(reversed(node.items))
        elif isinstance(node, Unary):
            stack.append(node.operand)
        elif isinstance(node, Binary):
            stack.extend((node.right, node.left))
        elif isinstance(node, Conditional):
            stack.extend((node.otherwise, node.then, node.test))
        elif isinstance(node, TurningRange):
            stack.extend((node.last, node.turn, node.first))
        elif isinstance(node, Each):
            stack.append(node.body)
    return out
