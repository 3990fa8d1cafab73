"""The one "did you mean": the closest of the names that would have been right to one that is not
(a name in a formula, a role, a seat's fact, a key, a ruleset's name, a finding code), as
rule-engine's `suggestions.py` gives it. A finding carries it as its `help`, apart from its
message (the checker's `ExprProblem.help`, a lint `Finding.help`); a usage error adds it to its
sentence. It is here, at the bottom of the layers, so that every layer may use it."""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable

#: How alike (0 to 1, difflib's ratio) a name must be to be suggested: difflib's own default.
CUTOFF = 0.6


def closest(word: str, choices: Iterable[str], cutoff: float = CUTOFF) -> str | None:
    """The choice closest to `word`, when one is at least `cutoff` alike; else None."""
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=cutoff)
    return close[0] if close else None


def _quoted(choice: str) -> str:
    return f"`{choice}`"


def did_you_mean(word: str, choices: Iterable[str], cutoff: float = CUTOFF, shown: Callable[[str], str] = _quoted) -> str:
    """`did you mean `tricks`?` for the closest choice (written by `shown`: in backticks by
    default), or "" when none is close enough."""
    close = closest(word, choices, cutoff)
    return f"did you mean {shown(close)}?" if close is not None else ""
