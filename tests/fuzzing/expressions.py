"""Formulas generated in the shape of grammar/expression.lark, for a context of the catalogue.

`expressions(context, want, lets, running)` draws the text of one formula: numbers (small,
fractional, huge), names the context has (and, now and then, one it does not have), arithmetic
with every operator (`+ - * / // % ^`), comparisons, `and`/`or`/`not`, `if ... then ... else`,
ranges, lists and the catalogue's functions. Sub-expressions are bracketed, so a formula parses
unless it is one of the few deliberately broken ones; it is mostly well typed (so that it reaches
lint's meaning checks and the engine), sometimes not.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from hypothesis import strategies as st

from whistdsl.language.catalogue import CONSTANTS, CONTEXTS, FUNCTIONS, SUITS, Type

Draw = Callable[[st.SearchStrategy], object]

N, B, S, T, L = Type.NUMBER, Type.BOOL, Type.SUIT, Type.TEXT, Type.LIST

#: Number literals: the values formulas meet, and the edges (zero, fractions, past the number cap).
NUMBERS = ("0", "1", "2", "3", "4", "5", "7", "8", "10", "13", "52", "100", "0.5", "1.5", "2.25")
HUGE = ("1000000", "1" + "0" * 30, "9" * 40)
#: Names no context has: typos of real names, and words of other games.
#: Text literals: kind names (real and not).
TEXTS = ('"normal"', '"zero"', '"nv"', '""')
UNKNOWN_NAMES = ("trick", "bids", "score", "totals", "dealer", "suit", "player", "x")
ARITHMETIC = ("+", "-", "*", "/", "//", "%", "^", "**")
COMPARISONS = ("==", "!=", "<", "<=", ">", ">=")
NUMBER_FUNCTIONS = tuple(name for name, f in FUNCTIONS.items() if f.params == (N,))  # abs floor ceil tri
VARIADIC = tuple(name for name, f in FUNCTIONS.items() if f.variadic)  # min max


def names_of(context: str, type_: Type, lets: Sequence[str] = (), running: Sequence[str] = ()) -> list[str]:
    """The names of `type_` a formula in `context` may read (let values and running values count as numbers)."""
    c = CONTEXTS[context]
    out = [v.name for v in c.variables if v.type == type_]
    if type_ == N:
        out += list(lets) if c.sees_lets else []
        out += list(running) if c.sees_running else []
    out += [name for name, (t, _) in CONSTANTS.items() if t == type_]
    return out


def foreign_names(context: str) -> list[str]:
    """Names of other contexts that `context` does not see (e.g. `tricks` while bidding)."""
    mine = {v.name for v in CONTEXTS[context].variables}
    return sorted({v.name for c in CONTEXTS.values() for v in c.variables} - mine)


class _Generator:
    def __init__(self, draw: Draw, context: str, lets: Sequence[str], running: Sequence[str]):
        self.draw = draw
        self.context = context
        self.names = {t: names_of(context, t, lets, running) for t in (N, B, S, T)}
        self.wrong = foreign_names(context) + list(UNKNOWN_NAMES)
        c = CONTEXTS[context]
        # the ruleset's own values, read more often than their share: they are what grows
        self.own = (list(lets) if c.sees_lets else []) + (list(running) if c.sees_running else [])
        if c.variable("total") is not None:
            self.own.append("total")

    def pick(self, options: Sequence[str]) -> str:
        return self.draw(st.sampled_from(list(options)))

    def chance(self, p: float) -> bool:
        return _chance(self.draw, p)

    def name(self, type_: Type) -> str | None:
        if self.chance(0.03):
            return self.pick(self.wrong)
        if type_ == N and self.own and _chance(self.draw, 0.3):
            return self.pick(self.own)
        names = self.names[type_]
        return self.pick(names) if names else None

    def expr(self, type_: Type, depth: int) -> str:
        if self.chance(0.02):  # now and then a formula of the wrong type
            type_ = self.pick([N, B, S, T, L])
        return {N: self.number, B: self.boolean, S: self.suit, T: self.text, L: self.list_}[type_](depth)

    def sub(self, type_: Type, depth: int) -> str:
        """A sub-expression, bracketed when it is compound (so precedence never changes its meaning)."""
        text = self.expr(type_, depth - 1)
        return text if _atomic(text) else f"({text})"

    def conditional(self, type_: Type, depth: int) -> str:
        return f"if {self.sub(B, depth)} then {self.sub(type_, depth)} else {self.sub(type_, depth)}"

    def number(self, depth: int) -> str:
        if depth <= 0 or self.chance(0.3):
            name = self.name(N)
            if name is not None and self.chance(0.6):
                return name
            return self.pick(HUGE if _chance(self.draw, 0.04) else NUMBERS)
        shape = self.draw(st.integers(0, 6))
        if shape == 0:
            return f"-{self.sub(N, depth)}"
        if shape == 1:
            return f"{self.pick(NUMBER_FUNCTIONS)}({self.expr(N, depth - 1)})"
        if shape == 2:
            args = [self.expr(N, depth - 1) for _ in range(self.draw(st.integers(2, 3)))]
            return f"{self.pick(VARIADIC)}({', '.join(args)})"
        if shape == 3:
            return f"{self.pick(('len', 'sum'))}({self.expr(L, depth - 1)})"
        if shape == 4:
            return self.conditional(N, depth)
        return f"{self.sub(N, depth)} {self.pick(ARITHMETIC)} {self.sub(N, depth)}"

    def boolean(self, depth: int) -> str:
        if depth <= 0 or self.chance(0.2):
            return self.name(B) or "true"
        shape = self.draw(st.integers(0, 6))
        if shape == 0:
            return f"not {self.sub(B, depth)}"
        if shape == 1:
            return f"{self.sub(B, depth)} {self.pick(('and', 'or'))} {self.sub(B, depth)}"
        if shape == 2 and self.names[S]:
            return f"{self.suit(0)} {self.pick(('==', '!='))} {self.pick((*SUITS, 'none'))}"
        if shape == 3 and self.names[T]:
            return f"{self.text(0)} {self.pick(('==', '!='))} {self.pick(TEXTS)}"
        if shape == 4:
            return self.conditional(B, depth)
        return f"{self.sub(N, depth)} {self.pick(COMPARISONS)} {self.sub(N, depth)}"

    def suit(self, depth: int) -> str:
        if depth > 0 and self.chance(0.2):
            return self.conditional(S, depth)
        return self.name(S) or "spades"

    def text(self, depth: int) -> str:
        if depth > 0 and self.chance(0.2):
            return self.conditional(T, depth)
        return self.name(T) if self.chance(0.5) and self.names[T] else self.pick(TEXTS)

    def list_(self, depth: int) -> str:
        shape = self.draw(st.integers(0, 4))
        if shape == 0:
            return f"{self.sub(N, depth)} .. {self.sub(N, depth)}"
        if shape == 1:
            return f"repeat({self.expr(N, depth - 1)}, {self.expr(N, depth - 1)})"
        if shape == 2:
            items = [self.expr(N, depth - 1) for _ in range(self.draw(st.integers(0, 4)))]
            return f"[{', '.join(items)}]"
        if shape == 3 and depth > 0:
            return self.conditional(L, depth)
        return f"[{self.sub(N, depth)}]"


def _chance(draw: Draw, p: float) -> bool:
    """True with probability about `p`; False for the simplest draw (0), so shrinking turns it off."""
    return draw(st.integers(0, 999)) >= 1000 - round(1000 * p)


def _atomic(text: str) -> bool:
    return text.replace("_", "").replace(".", "").isalnum() or (text.startswith('"') and text.count('"') == 2)


def _broken(draw: Draw, text: str) -> str:
    """A formula made unparseable or odd in one of the ways people get them wrong."""
    how = draw(st.integers(0, 5))
    if how == 0:
        return text + " +"
    if how == 1:
        return "(" * draw(st.integers(1, 70)) + text
    if how == 2:
        return text + " " + text  # two expressions side by side
    if how == 3:
        return f"{text} # a comment"
    if how == 4:
        return f"{text} == {text} == {text}"  # comparisons do not chain
    return text.replace(" ", "", 1)


@st.composite
def expressions(
    draw: Draw,
    context: str,
    want: Type | None = None,
    lets: Sequence[str] = (),
    running: Sequence[str] = (),
    depth: int = 3,
) -> str:
    """The text of one formula for `context`, of type `want` (any type when None)."""
    g = _Generator(draw, context, lets, running)
    type_ = want if want is not None else draw(st.sampled_from([N, N, L, B]))
    text = g.expr(type_, draw(st.integers(0, depth)))
    if _chance(draw, 0.03):
        text = _broken(draw, text)
    return text
