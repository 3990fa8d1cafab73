"""The expression language: text -> syntax tree -> checked tree -> compiled formula.

Three stages, as in cel-python: `parse` turns text into a small AST (dataclasses with positions),
`check` resolves every name against a context of the catalogue and infers types, and `compile_`
turns the checked tree into nested closures that are fast to call thousands of times a game.
Nothing here calls Python's `eval`; a formula sees only the variables it is given.

Limits (all stated in docs/expressions.md), each a clean finding or EvalError, never a crash:
- an expression is at most MAX_LENGTH (2000) characters long;
- brackets nest at most MAX_DEPTH (60) levels deep (`((1))` is 2 levels), and so do
  operations (`1 + 2 + 3` is 2 levels of `+`; `if`, `not`, `-` and calls count too);
- every number met while evaluating, numerator and denominator alike, is below
  MAX_NUMBER (10^30) in size;
- an exponent is a whole number from -MAX_EXPONENT to MAX_EXPONENT (-64..64), and the
  power must itself stay below MAX_NUMBER;
- a list (a range, `repeat`, a concatenation) holds at most MAX_LIST (10000) numbers;
- a number is written with at most MAX_DIGITS (40) digits;
- a formula builds at most MAX_LIST_OPS (16) lists (each range, `repeat`, join of two lists,
  list literal and `map` counts once), so one evaluation handles at most 16 x 10000 numbers;
- `map(list, n -> formula)` evaluates its formula once per item: the lists it builds in all
  (the items' lists and its result) hold at most MAX_LIST_OPS x MAX_LIST numbers together, and
  its result at most MAX_LIST.
"""

from __future__ import annotations

import difflib
import unicodedata
from collections import ChainMap
from dataclasses import dataclass, field, fields
from fractions import Fraction
from functools import cache
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Mapping, Union

from ..resources import grammar_path
from .catalogue import AGGREGATES, CONSTANTS, CONTEXTS, FUNCTIONS, ME, ROLES, SEAT_SETS, SUITS, Context, Type
from .limits import MAX_DIGITS  # shared with the file readers (rules/load.py, records/replay.py)

if TYPE_CHECKING:  # lark is imported when a text is parsed, not before (a command whose formulas were parsed before never imports it)
    from lark import Lark, Token, Tree
    from lark.exceptions import UnexpectedInput

MAX_LENGTH = 2000
MAX_DEPTH = 60
MAX_NUMBER = 10**30
MAX_EXPONENT = 64
MAX_LIST = 10_000
MAX_LIST_OPS = 16

Number = Union[int, Fraction]
Value = Union[int, Fraction, bool, str, tuple]
Env = dict[str, Value]


# ---------------------------------------------------------------- errors


@dataclass(frozen=True)
class ExprProblem:
    """A problem found in an expression: a finding code, a message, and a 1-based spot."""

    code: str
    message: str
    line: int = 1
    column: int = 1
    #: where the text the problem is about ends (the column just after it), when known (0: not)
    end_line: int = 0
    end_column: int = 0


class ExprError(Exception):
    """Raised by `parse`, `check` and `compile_` with every problem found."""

    def __init__(self, problems: list[ExprProblem]):
        super().__init__("; ".join(p.message for p in problems))
        self.problems = problems


class EvalError(Exception):
    """A formula could not be evaluated (a number too large, a division by zero, ...)."""


# ---------------------------------------------------------------- syntax tree


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
    value: Value


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


def _is_aggregate(function: str, args: tuple[Node, ...]) -> bool:
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
_NODE_KINDS: dict[str, type[Node]] = {
    kind.__name__: kind for kind in (Literal, Name, Call, Aggregate, SeatFact, ListOf, Unary, Binary, TurningRange, Each, Conditional)
}


@cache
def _parser() -> Lark:
    """The LALR parser of the grammar, built once per process; lark keeps the built tables in
    the per-user cache (whistdsl/cache.py) and checks them against the grammar when it reads them."""
    from lark import Lark

    from ..cache import file_for

    grammar = grammar_path().read_text(encoding="utf-8")
    return Lark(
        grammar,
        parser="lalr",
        propagate_positions=True,
        maybe_placeholders=False,
        cache=file_for("lark", grammar) or False,
    )


_TOKEN_NAMES = {
    "RPAR": "')'",
    "LPAR": "'('",
    "RSQB": "']'",
    "LSQB": "'['",
    "COMMA": "','",
    "NAME": "a name",
    "NUMBER": "a number",
    "STRING": "a quoted text",
    "COMPARE": "a comparison",
    "ADD_OP": "'+' or '-'",
    "MUL_OP": "'*', '/', '//' or '%'",
    "POW_OP": "'^'",
    "MINUS": "'-'",
    "IF": "'if'",
    "THEN": "'then'",
    "ELSE": "'else'",
    "AND": "'and'",
    "OR": "'or'",
    "NOT": "'not'",
    "__ANON_0": "'..'",
    "DOT": "'.'",
    "ARROW": "'->'",
    "DOUBLE_DOT": "'..'",
    "$END": "the end",
}


#: Hints for characters people type from other languages.
_CHARACTER_HINTS = {
    "'": ': write texts in double quotes ("normal")',
    "=": ": compare with ==",
    "&": ": write `and`",
    "|": ": write `or`",
    "!": ": write `not`, or != for 'not equal'",
    "?": ": write if ... then ... else ...",
    ".": ": a number is written 1.5 (digits on both sides of the point), a range 1 .. 13",
    **dict.fromkeys("\x85\u2028\u2029", ", which YAML reads as a line break (but a formula does not): write a space or a real line break"),
}

#: Words of the language itself; they cannot be used as names.
KEYWORDS = frozenset({"if", "then", "else", "and", "or", "not"})


#: Tokens that can start a value.
_VALUE_STARTS = frozenset({"LPAR", "LSQB", "NAME", "NUMBER", "STRING", "MINUS", "IF", "NOT"})


def _describe_expected(expected: Iterable[str]) -> str:
    expected = set(expected)
    names = sorted({_TOKEN_NAMES.get(e, e.lower()) for e in expected})
    if len(names) > 6:
        if expected <= _VALUE_STARTS:
            return "a value"
        if not expected & _VALUE_STARTS:
            return "an operator, a closing bracket or the end"
        return "a value or an operator"
    return ", ".join(names)


def _too_deep_bracket(text: str) -> tuple[int, int] | None:
    """The (line, column) of the first bracket that opens level MAX_DEPTH + 1, if any."""
    depth = 0
    line, column = 1, 0
    in_text = in_comment = False
    for ch in text:
        column += 1
        if ch == "\n":
            line, column = line + 1, 0
            in_comment = in_text = False
        elif in_comment:
            continue
        elif ch == '"':
            in_text = not in_text
        elif in_text:
            continue
        elif ch == "#":
            in_comment = True
        elif ch in "([":
            depth += 1
            if depth > MAX_DEPTH:
                return line, column
        elif ch in ")]":
            depth -= 1
    return None


def parse(text: str) -> Node:
    """Parse one expression. Raises ExprError with a positioned syntax problem."""
    too_deep = _too_deep_bracket(text[: MAX_LENGTH * 2])
    if too_deep is not None:
        raise ExprError(
            [ExprProblem("W304", f"brackets are nested more than {MAX_DEPTH} levels deep; the limit is {MAX_DEPTH}", *too_deep)]
        )
    if len(text) > MAX_LENGTH:
        raise ExprError(
            [ExprProblem("W304", f"expression is {len(text)} characters long; the limit is {MAX_LENGTH}")]
        )
    if not text.strip():
        raise ExprError([ExprProblem("W300", "empty expression: write a formula here")])
    kept = _parsed_before(text)
    if kept is not None:
        return kept
    from lark import Token, Tree
    from lark.exceptions import UnexpectedInput

    try:
        tree = _parser().parse(text)
    except UnexpectedInput as e:
        raise ExprError([_syntax_problem(text, e)]) from None
    if _tree_depth(tree, Tree) > MAX_DEPTH:
        raise ExprError(
            [ExprProblem("W304", f"expression nests more than {MAX_DEPTH} operations inside each other; the limit is {MAX_DEPTH}: split it up")]
        )
    node = _to_ast(tree, Token)
    _keep_parsed(text, node)
    return node


# ---------------------------------------------------------------- parsed texts kept

#: texts parsed in this process -> their syntax trees (at most this many kept)
_PARSED: dict[str, Node] = {}
_PARSED_MAX = 4096


def _parsed_before(text: str) -> Node | None:
    """The tree of `text` parsed before: in this process, or by an earlier command (the per-user
    cache, whistdsl/cache.py, whose entry names cover the grammar and this code), so that a
    command whose formulas were all parsed before never imports lark (`replay`, `play`)."""
    node = _PARSED.get(text)
    if node is None:
        from ..cache import entry_key, read

        data = read("parsed", entry_key("parsed", text))
        if data is None:
            return None
        try:
            node = _node_from_json(data)
        except (KeyError, TypeError, ValueError, IndexError, ZeroDivisionError, RecursionError):
            return None  # not what this code writes: parsed again (and written again)
        if not isinstance(node, Node):
            return None
        if len(_PARSED) < _PARSED_MAX:
            _PARSED[text] = node
    return node


def _keep_parsed(text: str, node: Node) -> None:
    from ..cache import entry_key, write

    if len(_PARSED) < _PARSED_MAX:
        _PARSED[text] = node
    write("parsed", entry_key("parsed", text), _node_json(node))


def _node_json(value: Any) -> Any:
    """A syntax tree as JSON: a node is [its class, [its spots: end_line, end_column, ...], line,
    column, its other fields...] (the spots are its keyword-only fields, in their order)."""
    if isinstance(value, Node):
        spots = [getattr(value, f.name) for f in fields(value) if f.kw_only]
        return [type(value).__name__, spots, *(_node_json(getattr(value, f.name)) for f in fields(value) if not f.kw_only)]
    if isinstance(value, tuple):
        return {"tuple": [_node_json(v) for v in value]}
    if isinstance(value, Fraction):
        return {"fraction": [value.numerator, value.denominator]}
    if isinstance(value, (bool, int, str)):
        return value
    raise TypeError(f"a syntax tree holds {type(value).__name__}")


def _node_from_json(data: Any) -> Any:
    if isinstance(data, list):
        kind = _NODE_KINDS[data[0]]
        names = [f.name for f in fields(kind) if f.kw_only]
        spots = data[1]
        if not isinstance(spots, list) or len(spots) != len(names) or not all(type(v) is int for v in spots):
            raise ValueError("not the spots of a node")
        return kind(*(_node_from_json(v) for v in data[2:]), **dict(zip(names, spots)))
    if isinstance(data, dict):
        if "tuple" in data:
            return tuple(_node_from_json(v) for v in data["tuple"])
        return Fraction(*data["fraction"])
    if isinstance(data, (bool, int, str)):
        return data
    raise TypeError(f"not a syntax tree: {type(data).__name__}")


def _lines(text: str) -> list[str]:
    """A formula's lines as the parser counts them: split at \\n only (U+2028 and the like are
    not line breaks here), without the empty line after a last line break."""
    lines = text.split("\n")
    return lines[:-1] if len(lines) > 1 and not lines[-1] else lines


def _syntax_problem(text: str, e: UnexpectedInput) -> ExprProblem:
    from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedToken

    line = getattr(e, "line", None)
    column = getattr(e, "column", None)
    if isinstance(e, UnexpectedEOF) or line is None or line < 1:
        lines = _lines(text)
        line, column = len(lines), len(lines[-1]) + 1
        return ExprProblem("W300", "the expression ends too early", line, column)
    if isinstance(e, UnexpectedCharacters):
        ch = text[e.pos_in_stream] if e.pos_in_stream < len(text) else "?"
        hint = _CHARACTER_HINTS.get(ch, "")
        if ch == '"':
            hint = ": a quoted text must end with \" on the same line"
        shown = repr(ch) if ch.isprintable() else f"U+{ord(ch):04X} {unicodedata.name(ch, '')}".rstrip()
        return ExprProblem("W300", f"unexpected character {shown}{hint}", line, column)
    if isinstance(e, UnexpectedToken):
        tok = e.token
        if tok.type == "$END":
            lines = _lines(text)
            return ExprProblem(
                "W300",
                f"the expression ends too early (expected {_describe_expected(e.expected)})",
                len(lines),
                len(lines[-1]) + 1,
            )
        hint = ""
        if tok.type == "DOT":
            hint = ": a number is written 1.5 (digits on both sides of the point), a range 1 .. 13, one fact of a seat dealer.bid"
        elif tok.type == "COMPARE" and str(tok) == ">" and text[: getattr(tok, "start_pos", 0) or 0].rstrip().endswith("-"):
            hint = ": `n -> formula` is written only as the second argument of map(), e.g. map(1 .. 13, n -> [n, n])"
        elif tok.type == "COMPARE" and "COMPARE" not in e.expected:
            hint = ": comparisons do not chain; write `a < b and b < c`"
        return ExprProblem(
            "W300",
            f"unexpected {str(tok)!r} (expected {_describe_expected(e.expected)}){hint}",
            line,
            column,
        )
    return ExprProblem("W300", "syntax error", line, column)


#: Trees that are not operations: a value, or the list of a call's arguments.
_NOT_OPERATIONS = frozenset({"number", "string", "name", "seat_fact", "arguments", "call_arguments"})


def _tree_depth(tree: Tree, Tree: type) -> int:  # noqa: N803 (lark's class, imported by parse)
    """How many operations nest inside each other (`1 + 2 * 3` is 2; `7` is 0)."""
    deepest = 0
    stack: list[tuple[Tree, int]] = [(tree, 0)]
    while stack:
        node, depth = stack.pop()
        if node.data not in _NOT_OPERATIONS:
            depth += 1
        if depth > deepest:
            deepest = depth
            if deepest > MAX_DEPTH:
                return deepest
        stack.extend((child, depth) for child in node.children if isinstance(child, Tree))
    return deepest


def _pos(item: Tree | Token, Token: type) -> tuple[int, int]:  # noqa: N803 (lark's class, imported by parse)
    if isinstance(item, Token):
        return item.line or 1, item.column or 1
    meta = item.meta
    return getattr(meta, "line", 1), getattr(meta, "column", 1)


def _end(item: Tree | Token) -> dict[str, int]:
    """Where the text of a lark tree (or token) ends, as a node's keyword fields: the line and the
    column just after it."""
    where = item if not hasattr(item, "meta") else item.meta
    return {"end_line": getattr(where, "end_line", None) or 0, "end_column": getattr(where, "end_column", None) or 0}


def _to_ast(item: Tree | Token, Token: type) -> Node:  # noqa: N803 (lark's class, imported by parse)
    """Lark tree -> AST (recursive; the depth was bounded before)."""
    line, column = _pos(item, Token)
    end = _end(item)
    if isinstance(item, Token):  # a bare token where a tree with one child was inlined
        raise AssertionError(f"unexpected token {item!r}")
    kind = item.data
    ch = item.children
    if kind == "number":
        text = str(ch[0])
        digits = len(text) - ("." in text)
        if digits > MAX_DIGITS:
            raise ExprError(
                [ExprProblem("W305", f"this number is written with {digits} digits; the limit is {MAX_DIGITS} (numbers stay below 10^30)", line, column)]
            )
        value: Number = Fraction(text) if "." in text else int(text)
        if isinstance(value, Fraction) and value.denominator == 1:
            value = int(value)
        return Literal(line, column, value, **end)
    if kind == "string":
        return Literal(line, column, str(ch[0])[1:-1], **end)
    if kind == "name":
        return Name(line, column, str(ch[0]), **end)
    if kind == "seat_fact":
        return SeatFact(line, column, str(ch[0]), str(ch[1]), **end)
    if kind == "call":
        args = tuple(_to_ast(a, Token) for a in ch[1].children) if len(ch) > 1 else ()
        name = str(ch[0])
        return (Aggregate if _is_aggregate(name, args) else Call)(line, column, name, args, **end)
    if kind == "list_op":
        items = tuple(_to_ast(a, Token) for a in ch[0].children) if ch else ()
        return ListOf(line, column, items, **end)
    if kind == "negate":
        return Unary(line, column, "-", _to_ast(ch[0], Token), **end)
    if kind == "not_op":
        return Unary(line, column, "not", _to_ast(ch[0], Token), **end)
    if kind in ("binary", "compare"):
        op_line, op_col = _pos(ch[1], Token)
        op = "^" if str(ch[1]) == "**" else str(ch[1])
        return Binary(op_line, op_col, op, _to_ast(ch[0], Token), _to_ast(ch[2], Token), start_line=line, start_column=column, **end)
    if kind in ("or_op", "and_op", "range_op"):
        op = {"or_op": "or", "and_op": "and", "range_op": ".."}[kind]
        return Binary(line, column, op, _to_ast(ch[0], Token), _to_ast(ch[1], Token), start_line=line, start_column=column, **end)
    if kind == "conditional":
        return Conditional(line, column, _to_ast(ch[0], Token), _to_ast(ch[1], Token), _to_ast(ch[2], Token), **end)
    if kind == "turning_range":
        return TurningRange(line, column, _to_ast(ch[0], Token), _to_ast(ch[1], Token), _to_ast(ch[2], Token), **end)
    if kind == "each":
        return Each(line, column, str(ch[0]), _to_ast(ch[2], Token), **end)
    raise AssertionError(f"unknown tree {kind}")


# ---------------------------------------------------------------- checking


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


def _start(node: Node) -> tuple[int, int]:
    """Where the text of `node` begins (a binary operation's node sits at its operator)."""
    while isinstance(node, Binary):
        if node.start_line:
            return node.start_line, node.start_column
        node = node.left
    return node.line, node.column


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
        whole = (line, column) == _start(node)
        end_line, end_column = (node.end_line, node.end_column) if whole else (0, 0)
        problems.append(ExprProblem(code, message, line, column, end_line, end_column))
        return Type.ANY

    def want(node: Node, wanted: Type, what: str) -> None:
        got = visit(node)
        if got not in (wanted, Type.ANY):
            bad(node, "W302", f"{what} needs a {wanted}, not a {got}", _start(node))

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
                        bad(side, "W302", f"'+' needs numbers (or two lists), not a {t}", _start(side))
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
                bad(first, "W308", f"the first argument of {agg.name}() is a set of seats ({', '.join(sets) or 'none in ' + context.where}), not a {got}", _start(first))
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
            return bad(each, "W310", f"the second argument of map() is `n -> formula`: {usage}", _start(each))
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
                each.body, "W310", f"map()'s formula gives a {result} for each item; it must give a number or a list of numbers", _start(each.body)
            )
        return Type.LIST

    result = visit(tree)
    if not problems:
        builders = _list_builders(tree, types)
        if len(builders) > MAX_LIST_OPS:
            problems.append(
                ExprProblem(
                    "W304",
                    f"this formula builds {len(builders)} lists (ranges, repeat, joined lists, [ ]); the limit is {MAX_LIST_OPS}",
                    *_start(builders[MAX_LIST_OPS]),
                )
            )
    if expect is not None and result not in (expect, Type.ANY) and not problems:
        problems.append(
            ExprProblem("W302", f"this formula gives a {result}, but a {expect} is needed here", *_start(tree), tree.end_line, tree.end_column)
        )
    if problems:
        raise ExprError(problems)
    return Checked(tree, result, frozenset(names), types, {k: frozenset(v) for k, v in seat_reads.items()}, frozenset(me_reads), roles)


def _list_builders(tree: Node, types: Mapping[int, Type]) -> list[Node]:
    """The nodes of `tree` that build a list when evaluated, in the order they are written."""
    found: list[Node] = []
    for node in _walk(tree):
        if isinstance(node, (ListOf, TurningRange)) or (isinstance(node, Call) and node.function in ("repeat", "map")):
            found.append(node)
        elif isinstance(node, Binary) and (node.op == ".." or (node.op == "+" and types.get(id(node)) == Type.LIST)):
            found.append(node)
    return sorted(found, key=lambda n: (_start(n), n.line, n.column))


def _walk(tree: Node) -> list[Node]:
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



# ---------------------------------------------------------------- evaluation helpers


def value_text(v: Value) -> str:
    """A value as the language writes it, for messages: `true`, `3/2`, `[1, 2, ...]`."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, tuple):
        return "[" + ", ".join(map(str, v[:8])) + (", ..." if len(v) > 8 else "") + "]"
    return str(v)


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
        return tuple(read_value(Type.NUMBER, item) for item in items)  # type: ignore[misc]
    return text


def within_limit(v: Number) -> bool:
    """Whether `v` is within the number cap: below MAX_NUMBER in size, numerator and denominator alike."""
    if type(v) is int:
        return -MAX_NUMBER < v < MAX_NUMBER
    return -MAX_NUMBER < v.numerator < MAX_NUMBER and v.denominator < MAX_NUMBER


def _num(v: Number) -> Number:
    """Normalise and bound a number: Fractions with denominator 1 become ints."""
    if type(v) is int:
        if -MAX_NUMBER < v < MAX_NUMBER:
            return v
        raise EvalError("a number exceeds the limit of 10^30 in size")
    if v.denominator == 1:
        return _num(v.numerator)
    if -MAX_NUMBER < v.numerator < MAX_NUMBER and v.denominator < MAX_NUMBER:
        return v
    raise EvalError("a fraction exceeds the limit of 10^30 in size")


def _divide(a: Number, b: Number) -> Number:
    if b == 0:
        raise EvalError("division by zero")
    return _num(Fraction(a) / b)


def _floordiv(a: Number, b: Number) -> Number:
    if b == 0:
        raise EvalError("division by zero")
    return _num(a // b)


def _mod(a: Number, b: Number) -> Number:
    if b == 0:
        raise EvalError("division by zero (in %)")
    return _num(a % b)


def _power(a: Number, b: Number) -> Number:
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
    return _num(a**b)


def _range(a: Number, b: Number) -> tuple:
    if type(a) is not int or type(b) is not int:
        raise EvalError("a range needs whole numbers")
    if abs(b - a) >= MAX_LIST:
        raise EvalError(f"a list may hold at most {MAX_LIST} numbers")
    step = 1 if b >= a else -1
    return tuple(range(a, b + step, step))


def _turning_range(a: Number, b: Number, c: Number) -> tuple:
    """`a .. b .. c`: a .. b, then on from b to c without b again (`1 .. 3 .. 1` is 1, 2, 3, 2, 1)."""
    up = _range(a, b)
    return _concat(up, _range(b, c)[1:])


#: Where map() keeps what its formula may still build, in the env it evaluates the formula in.
_MAP_BUDGET = "\x00map"
MAP_BUDGET = MAX_LIST_OPS * MAX_LIST


def _spend(env: Env, built: tuple) -> tuple:
    """Count a list built inside a map() formula against the map's budget."""
    budget = env.get(_MAP_BUDGET)
    if budget is not None:
        budget[0] -= len(built) or 1  # type: ignore[index]
        if budget[0] < 0:  # type: ignore[index]
            raise EvalError(f"map() builds more than {MAP_BUDGET} numbers in lists in one evaluation; the limit is {MAP_BUDGET}")
    return built


def _map(items: tuple, param: str, body: Callable[[Env], Value], env: Env) -> tuple:
    """map(items, param -> body): body for each item, numbers and lists joined into one list."""
    scratch = dict(env)
    budget = scratch.get(_MAP_BUDGET)
    if budget is None:
        scratch[_MAP_BUDGET] = budget = [MAP_BUDGET]
    out: list = []
    for x in items:
        scratch[param] = x
        v = body(scratch)
        if isinstance(v, tuple):
            out.extend(v)
        else:
            out.append(v)
        budget[0] -= len(v) if isinstance(v, tuple) else 1  # type: ignore[index]
        if len(out) > MAX_LIST:
            raise EvalError(f"a list may hold at most {MAX_LIST} numbers")
        if budget[0] < 0:  # type: ignore[index]
            raise EvalError(f"map() builds more than {MAP_BUDGET} numbers in lists in one evaluation; the limit is {MAP_BUDGET}")
    return tuple(out)


def _repeat(x: Number, n: Number) -> tuple:
    if type(n) is not int or n < 0:
        raise EvalError("repeat() needs a whole number of copies, 0 or more")
    if n > MAX_LIST:
        raise EvalError(f"a list may hold at most {MAX_LIST} numbers")
    return (x,) * n


def _concat(a: tuple, b: tuple) -> tuple:
    if len(a) + len(b) > MAX_LIST:
        raise EvalError(f"a list may hold at most {MAX_LIST} numbers")
    return a + b


def _tri(n: Number) -> Number:
    """1 + 2 + ... + n, as n (n + 1) / 2 exactly (so tri(1/2) is 3/8); 0 for n <= 0."""
    return _num(Fraction(n * (n + 1), 2)) if n > 0 else 0


def _floor(x: Number) -> int:
    return x if type(x) is int else x.numerator // x.denominator


def _ceil(x: Number) -> int:
    return x if type(x) is int else -(-x.numerator // x.denominator)


_FUNCTION_IMPLS: dict[str, Callable[..., Value]] = {
    "abs": abs,
    "min": min,
    "max": max,
    "floor": _floor,
    "ceil": _ceil,
    "tri": _tri,
    "repeat": _repeat,
    "len": len,
    "sum": lambda xs: _num(sum(xs)),
}
assert set(_FUNCTION_IMPLS) | {"map"} == set(FUNCTIONS)  # map() is compiled by itself

_ARITH: dict[str, Callable[[Number, Number], Number]] = {
    "+": lambda a, b: _num(a + b),
    "-": lambda a, b: _num(a - b),
    "*": lambda a, b: _num(a * b),
    "/": _divide,
    "//": _floordiv,
    "%": _mod,
    "^": _power,
}

_COMPARE: dict[str, Callable[[Value, Value], bool]] = {
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b,
}


# ---------------------------------------------------------------- compiling

Compiled = Callable[[Env], Value]


@dataclass(frozen=True)
class Formula:
    """A checked, compiled expression: call it with a dict of its context's variables."""

    source: str
    type: Type
    names: frozenset[str]
    evaluate: Compiled = field(compare=False, repr=False)
    constant: Value | None = None
    key_names: tuple[str, ...] = ()  # the names it uses, in a fixed order (for `cached`)
    _memo: "Memo" = field(default_factory=lambda: Memo(_MEMO_LIMIT), compare=False, repr=False)
    #: where the formula is written, for rule errors: `scoring.points (house.yaml:12:11)`
    origin: str = field(default="", compare=False)
    #: the checked tree it was compiled from (lint looks inside it for divisions)
    checked: Checked | None = field(default=None, compare=False, repr=False)
    #: how many lists one evaluation may build (each up to MAX_LIST numbers): its cost
    list_ops: int = field(default=0, compare=False)
    #: (seat set, the facts read of each of its seats), for each set it aggregates over; the
    #: sets are not among `key_names`
    seat_reads: tuple[tuple[str, tuple[str, ...]], ...] = field(default=(), compare=False)

    def __call__(self, env: Env) -> Value:
        return self.evaluate(env)

    def memo_key(self, env: Env) -> tuple:
        """The values the formula reads in `env`: equal keys, equal values (it is pure)."""
        key = tuple([env[n] for n in self.key_names])
        return key + self.seat_key(env) if self.seat_reads else key

    def seat_key(self, env: Env) -> tuple:
        """What the formula reads of the seats of its seat sets in `env` (part of `memo_key`)."""
        return tuple(tuple(tuple([seat[n] for n in facts]) for seat in env[name]) for name, facts in self.seat_reads)  # type: ignore[union-attr]

    def cached(self, env: Env) -> Value:
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


class Memo(dict):
    """The one memo of pure formulas' results, keyed by the values of the names they read (see
    `Formula.memo_key`): a formula's own (`cached`), and the engine's memos of the legal bids
    and of a seat's scoring (engine/table.py). Bounded: it forgets everything once full."""

    __slots__ = ("limit",)

    def __init__(self, limit: int):
        super().__init__()
        self.limit = limit

    def keep(self, key: Any, value: Any) -> Any:
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

    inside_map = [0]  # how many map() formulas the node being built is inside
    inside_aggregate = [0]  # 1 inside an aggregate's per-seat formula (they do not nest)

    def const(node: Node) -> tuple[Compiled, bool, Value | None]:
        fn, is_const = build(node)
        if inside_map[0] and not is_const and checked.types.get(id(node)) == Type.LIST:
            built = fn  # a list built once per item: counted against the map's budget
            fn = lambda env: _spend(env, built(env))  # noqa: E731
        if is_const:
            try:
                value = fn({})
            except EvalError as e:
                raise ExprError([ExprProblem("W305", str(e), node.line, node.column)]) from None
            return (lambda env, v=value: v), True, value
        return fn, False, None

    def build(node: Node) -> tuple[Compiled, bool]:
        if isinstance(node, Literal):
            v = node.value
            return (lambda env: v), True
        if isinstance(node, Name):
            if node.name in CONSTANTS and node.name not in checked.names:
                v = CONSTANTS[node.name][1]
                return (lambda env: v), True
            key = node.name
            return (lambda env: env[key]), False
        if isinstance(node, SeatFact):
            fact = node.fact
            if node.role == ME:
                key = _ME + fact if inside_aggregate[0] else fact
                return (lambda env: env[key]), False
            return _role_fact(node.role, fact), False
        if isinstance(node, Aggregate) and checked.types.get(id(node.args[0])) is Type.SEATS:
            key = node.args[0].name  # type: ignore[attr-defined]
            inside_aggregate[0] += 1
            try:
                each, _ = build(node.args[1])
            finally:
                inside_aggregate[0] -= 1
            mine = tuple(sorted({n.fact for n in _walk(node.args[1]) if isinstance(n, SeatFact) and n.role == ME}))
            return _aggregate(node.function, key, each, mine), False
        if isinstance(node, Call) and node.function == "map":
            items_fn, items_const, _ = const(node.args[0])
            each = node.args[1]
            assert isinstance(each, Each)
            inside_map[0] += 1
            try:
                body_fn, _, _ = const(each.body)
            finally:
                inside_map[0] -= 1
            param = each.param
            return (lambda env: _map(items_fn(env), param, body_fn, env)), False
        if isinstance(node, TurningRange):
            a, ac, _ = const(node.first)
            b, bc, _ = const(node.turn)
            c, cc, _ = const(node.last)
            return (lambda env: _turning_range(a(env), b(env), c(env))), ac and bc and cc
        if isinstance(node, Call):
            parts = [const(a) for a in node.args]
            fns = [p[0] for p in parts]
            impl = _FUNCTION_IMPLS[node.function]
            is_const = all(p[1] for p in parts)
            if len(fns) == 1:
                (f0,) = fns
                return (lambda env: impl(f0(env))), is_const
            if len(fns) == 2:
                f0, f1 = fns
                return (lambda env: impl(f0(env), f1(env))), is_const
            return (lambda env: impl(*[f(env) for f in fns])), is_const
        if isinstance(node, ListOf):
            parts = [const(a) for a in node.items]
            fns = [p[0] for p in parts]
            if len(fns) > MAX_LIST:
                raise ExprError([ExprProblem("W305", f"a list may hold at most {MAX_LIST} numbers", node.line, node.column)])
            return (lambda env: tuple(f(env) for f in fns)), all(p[1] for p in parts)
        if isinstance(node, Unary):
            f, c, _ = const(node.operand)
            if node.op == "-":
                return (lambda env: -f(env)), c
            return (lambda env: not f(env)), c
        if isinstance(node, Binary):
            lf, lc, _ = const(node.left)
            rf, rc, _ = const(node.right)
            op = node.op
            is_const = lc and rc
            if op == "and":
                return (lambda env: lf(env) and rf(env)), is_const
            if op == "or":
                return (lambda env: lf(env) or rf(env)), is_const
            if op == "..":
                return (lambda env: _range(lf(env), rf(env))), is_const
            if op in _COMPARE:
                cmp = _COMPARE[op]
                return (lambda env: cmp(lf(env), rf(env))), is_const
            if op == "+" and checked.types.get(id(node)) == Type.LIST:
                return (lambda env: _concat(lf(env), rf(env))), is_const
            if op == "+":
                if rc:  # the common `x + 3`: one closure call fewer
                    k = rf({})
                    return (lambda env: _num(lf(env) + k)), is_const
                return (lambda env: _num(lf(env) + rf(env))), is_const
            if op == "-":
                return (lambda env: _num(lf(env) - rf(env))), is_const
            arith = _ARITH[op]
            return (lambda env: arith(lf(env), rf(env))), is_const
        if isinstance(node, Conditional):
            tf, tc, tv = const(node.test)
            af, ac, _ = const(node.then)
            bf, bc, _ = const(node.otherwise)
            if tc:
                return (af, ac) if tv else (bf, bc)
            return (lambda env: af(env) if tf(env) else bf(env)), False
        raise AssertionError(node)

    fn, is_const, value = const(checked.tree)
    return fn, value if is_const else None


#: Where an aggregate's per-seat formula finds this seat's own facts (`me.bid`): `_ME + "bid"`.
_ME = "\x00me."


def _aggregate(name: str, key: str, each: Compiled, mine: tuple[str, ...] = ()) -> Compiled:
    """The closure of `name(key, each)`: `each` is evaluated with each seat's own facts in front of
    the formula's environment (the table-wide names stay those of the environment); `mine`, the
    facts of this seat it reads as `me.FACT`, are kept under `_ME + FACT` in between."""

    if mine:

        def values(env: Env) -> Iterator[Value]:
            own = {_ME + n: env[n] for n in mine}
            for seat in env[key]:  # type: ignore[union-attr]
                yield each(ChainMap(seat, own, env))  # type: ignore[arg-type]

    else:

        def values(env: Env) -> Iterator[Value]:
            for seat in env[key]:  # type: ignore[union-attr]
                yield each(ChainMap(seat, env))  # type: ignore[arg-type]

    if name == "count":
        return lambda env: sum(1 for v in values(env) if v)
    if name == "sum":
        return lambda env: _num(sum(values(env)))  # type: ignore[arg-type]
    if name == "max":
        return lambda env: max(values(env), default=0)  # type: ignore[type-var]
    if name == "min":
        return lambda env: min(values(env), default=0)  # type: ignore[type-var]
    if name == "all":
        return lambda env: all(values(env))
    if name == "any":
        return lambda env: any(values(env))
    raise AssertionError(name)


def _role_fact(role: str, fact: str) -> Compiled:
    """The closure of `ROLE.FACT`: the fact of the seat of `seats` (in bidding order) the role picks."""
    if role == "dealer":

        def read(env: Env) -> Value:
            for seat in env["seats"]:  # type: ignore[union-attr]
                if seat["is_dealer"]:
                    return seat[fact]
            raise EvalError("the dealer does not play this hand: `dealer." + fact + "` cannot be read")

        return read
    if role == "first_bidder":
        return lambda env: env["seats"][0][fact]  # type: ignore[index]
    if role == "last_bidder":
        return lambda env: env["seats"][-1][fact]  # type: ignore[index]
    if role == "highest_bidder":  # max() keeps the first of equal bids: the earlier bidder
        return lambda env: max(env["seats"], key=_bid_of)[fact]  # type: ignore[arg-type]
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
        list_ops=len(_list_builders(checked.tree, checked.types)),
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
    for node in _walk(f.checked.tree):
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
    parts: list[Node] = []
    inside_map = {id(n) for each in _walk(checked.tree) if isinstance(each, Each) for n in _walk(each.body)}
    for node in _walk(checked.tree):
        if id(node) in inside_map:
            continue  # evaluated per item of a map(): lint tries the whole formula instead
        if isinstance(node, Binary) and node.op in ("/", "//", "%"):
            parts.append(node.right)
        elif isinstance(node, Binary) and node.op == "^":
            exponent = node.right
            if not (isinstance(exponent, Literal) and not isinstance(exponent.value, (bool, str)) and exponent.value >= 0):
                parts.append(node.left)
    out = []
    for part in parts:
        reads = frozenset(n.name for n in _walk(part) if isinstance(n, Name) and n.name in checked.names)
        if not reads:
            continue  # a constant divisor: compiling the formula already evaluated it
        fn, _ = compile_(Checked(part, Type.NUMBER, checked.names, checked.types))
        out.append((fn, reads))
    return out


def evaluate(text: str, context: str, env: Env, running: Iterable[str] = ()) -> Value:
    """Convenience for tools and tests: compile and call once."""
    return formula(text, context, running)(env)
