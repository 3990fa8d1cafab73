"""The expression language's errors: a problem found in a formula's text (`ExprProblem`, all of
them raised together as `ExprError`), and `EvalError` for a formula that cannot be evaluated at
some values. A problem carries its finding code, where it is, and, where the fix is known,
`help`: what to write instead (a did-you-mean), kept apart from the message as a finding's is."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ExprProblem:
    """A problem found in an expression: a finding code, a message, a 1-based spot, and `help`
    (what to write instead, e.g. a did-you-mean) when it is known."""

    code: str
    message: str
    line: int = 1
    column: int = 1
    #: where the text the problem is about ends (the column just after it), when known (0: not)
    end_line: int = 0
    end_column: int = 0
    help: str = ""


class ExprError(Exception):
    """Raised by `parse`, `check` and `compile_` with every problem found."""

    def __init__(self, problems: list[ExprProblem]):
        super().__init__("; ".join(p.message for p in problems))
        self.problems = problems


class EvalError(Exception):
    """A formula could not be evaluated (a number too large, a division by zero, ...)."""
