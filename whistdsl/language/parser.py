"""Formula text -> syntax tree: the grammar's LALR parser (grammar/expression.lark, built once
per process with positions, as cel-python builds its own), the friendly syntax messages, the
bounds on length and nesting, and the trees kept of texts parsed before (in this process and
in the per-user cache), so that a command whose formulas were all parsed before never imports
lark."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import fields
from fractions import Fraction
from functools import cache
from typing import TYPE_CHECKING, Any, NamedTuple

from ..resources import grammar_path
from .errors import ExprError, ExprProblem
from .limits import MAX_DEPTH, MAX_DIGITS, MAX_LENGTH
from .tree import (
    NODE_KINDS,
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
    is_aggregate,
)
from .values import Number

if TYPE_CHECKING:  # lark is imported when a text is parsed, not before (a command whose formulas were parsed before never imports it)
    from lark import Lark, Token, Tree
    from lark.exceptions import UnexpectedInput


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
        raise ExprError([ExprProblem("W304", f"brackets are nested more than {MAX_DEPTH} levels deep; the limit is {MAX_DEPTH}", *too_deep)])
    if len(text) > MAX_LENGTH:
        raise ExprError([ExprProblem("W304", f"expression is {len(text)} characters long; the limit is {MAX_LENGTH}")])
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
        kind = NODE_KINDS[data[0]]
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
    column: int = getattr(e, "column", None) or 1  # lark's columns count from 1
    if isinstance(e, UnexpectedEOF) or line is None or line < 1:
        lines = _lines(text)
        line, column = len(lines), len(lines[-1]) + 1
        return ExprProblem("W300", "the expression ends too early", line, column)
    if isinstance(e, UnexpectedCharacters):
        ch = text[e.pos_in_stream] if e.pos_in_stream < len(text) else "?"  # type: ignore[index,operator]  # lark declares `pos_in_stream = None` on UnexpectedInput; UnexpectedCharacters sets an int
        hint = _CHARACTER_HINTS.get(ch, "")
        if ch == '"':
            hint = ': a quoted text must end with " on the same line'
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
        return ExprProblem(
            "W300",
            f"unexpected {str(tok)!r} (expected {_describe_expected(e.expected)}){_token_hint(text, tok, e.expected)}",
            line,
            column,
        )
    return ExprProblem("W300", "syntax error", line, column)


def _token_hint(text: str, tok: Token, expected: Iterable[str]) -> str:
    """What to write instead of an unexpected token people type from other languages, if known."""
    if tok.type == "DOT":
        return ": a number is written 1.5 (digits on both sides of the point), a range 1 .. 13, one fact of a seat dealer.bid"
    if tok.type == "COMPARE" and str(tok) == ">" and text[: getattr(tok, "start_pos", 0) or 0].rstrip().endswith("-"):
        return ": `n -> formula` is written only as the second argument of map(), e.g. map(1 .. 13, n -> [n, n])"
    if tok.type == "COMPARE" and "COMPARE" not in expected:
        return ": comparisons do not chain; write `a < b and b < c`"
    return ""


#: Trees that are not operations: a value, or the list of a call's arguments.
_NOT_OPERATIONS = frozenset({"number", "string", "name", "seat_fact", "arguments", "call_arguments"})


def _tree_depth(tree: Tree, tree_class: type[Tree]) -> int:
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
        stack.extend((child, depth) for child in node.children if isinstance(child, tree_class))
    return deepest


def _pos(item: Tree | Token) -> tuple[int, int]:
    if isinstance(item, str):  # a Token is a str
        return item.line or 1, item.column or 1
    meta = item.meta
    return getattr(meta, "line", 1), getattr(meta, "column", 1)


def _end(item: Tree | Token) -> dict[str, int]:
    """Where the text of a lark tree (or token) ends, as a node's keyword fields: the line and the
    column just after it."""
    where = item if isinstance(item, str) else item.meta  # a Token is a str, and has no meta
    return {"end_line": getattr(where, "end_line", None) or 0, "end_column": getattr(where, "end_column", None) or 0}


class _Spot(NamedTuple):
    """Where a lark tree is (its node's line, column and end), and lark's Token class."""

    line: int
    column: int
    end: dict[str, int]
    Token: type


def _to_ast(item: Tree | Token, token_class: type[Token]) -> Node:
    """Lark tree -> AST (recursive; the depth was bounded before), by the tree's kind (`_TREES`)."""
    if isinstance(item, str):  # a bare token (a Token is a str) where a tree with one child was inlined
        raise AssertionError(f"unexpected token {item!r}")
    build = _TREES.get(item.data)
    if build is None:
        raise AssertionError(f"unknown tree {item.data}")
    return build(item.children, _Spot(*_pos(item), _end(item), token_class))


def _number(ch: list, at: _Spot) -> Node:
    text = str(ch[0])
    digits = len(text) - ("." in text)
    if digits > MAX_DIGITS:
        raise ExprError(
            [
                ExprProblem(
                    "W305", f"this number is written with {digits} digits; the limit is {MAX_DIGITS} (numbers stay below 10^30)", at.line, at.column
                )
            ]
        )
    value: Number = Fraction(text) if "." in text else int(text)
    if isinstance(value, Fraction) and value.denominator == 1:
        value = int(value)
    return Literal(at.line, at.column, value, **at.end)


def _call(ch: list, at: _Spot) -> Node:
    args = tuple(_to_ast(a, at.Token) for a in ch[1].children) if len(ch) > 1 else ()
    name = str(ch[0])
    return (Aggregate if is_aggregate(name, args) else Call)(at.line, at.column, name, args, **at.end)


def _list(ch: list, at: _Spot) -> Node:
    items = tuple(_to_ast(a, at.Token) for a in ch[0].children) if ch else ()
    return ListOf(at.line, at.column, items, **at.end)


def _operator(ch: list, at: _Spot) -> Node:
    """`a OP b`, its node at the operator (`**` is `^`)."""
    op_line, op_col = _pos(ch[1])
    op = "^" if str(ch[1]) == "**" else str(ch[1])
    return Binary(op_line, op_col, op, _to_ast(ch[0], at.Token), _to_ast(ch[2], at.Token), start_line=at.line, start_column=at.column, **at.end)


def _word_operator(op: str) -> Callable[[list, _Spot], Node]:
    """`a and b`, `a or b`, `a .. b`: trees without the operator's token."""

    def build(ch: list, at: _Spot) -> Node:
        return Binary(
            at.line, at.column, op, _to_ast(ch[0], at.Token), _to_ast(ch[1], at.Token), start_line=at.line, start_column=at.column, **at.end
        )

    return build


def _three(kind: type[Node]) -> Callable[[list, _Spot], Node]:
    """`if a then b else c`, `a .. b .. c`: a node of three parts."""

    def build(ch: list, at: _Spot) -> Node:
        return kind(at.line, at.column, *(_to_ast(c, at.Token) for c in ch[:3]), **at.end)

    return build


#: How each kind of lark tree becomes a node.
_TREES: dict[str, Callable[[list, _Spot], Node]] = {
    "number": _number,
    "string": lambda ch, at: Literal(at.line, at.column, str(ch[0])[1:-1], **at.end),
    "name": lambda ch, at: Name(at.line, at.column, str(ch[0]), **at.end),
    "seat_fact": lambda ch, at: SeatFact(at.line, at.column, str(ch[0]), str(ch[1]), **at.end),
    "call": _call,
    "list_op": _list,
    "negate": lambda ch, at: Unary(at.line, at.column, "-", _to_ast(ch[0], at.Token), **at.end),
    "not_op": lambda ch, at: Unary(at.line, at.column, "not", _to_ast(ch[0], at.Token), **at.end),
    "binary": _operator,
    "compare": _operator,
    "or_op": _word_operator("or"),
    "and_op": _word_operator("and"),
    "range_op": _word_operator(".."),
    "conditional": _three(Conditional),
    "turning_range": _three(TurningRange),
    "each": lambda ch, at: Each(at.line, at.column, str(ch[0]), _to_ast(ch[2], at.Token), **at.end),
}
