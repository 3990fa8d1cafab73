"""The rules of a ruleset in words (`whistdsl explain`), generated from the compiled Ruleset.

`explain(rules, players)` gives the Explanation (data: sections of sentences and the worked
score table); `markdown` and `to_console` render it; `print_rules` is what the table's "rules"
command calls to show the rules in force; `diff(base, house)` says what a house rule changes.
See docs/explain.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .document import Explanation, Section, Table
from .render import markdown, to_console

if TYPE_CHECKING:
    from rich.console import Console

    from ..rules.ruleset import Ruleset

__all__ = ["Explanation", "Section", "Table", "diff", "explain", "markdown", "print_rules", "to_console"]


def explain(rules: Ruleset, players: int | None = None) -> Explanation:
    """The rules of `rules` in words: for every player count it allows (the worked examples at
    its default count), or for a table of `players` only."""
    from .sections import explanation

    return explanation(rules, players)


def print_rules(console: Console, rules: Ruleset, players: int | None = None) -> None:
    """Print the rules in force at a table of `players` on `console` (the table's "rules" command)."""
    to_console(console, explain(rules, players))


def diff(base: Ruleset, house: Ruleset, players: int | None = None) -> Explanation:
    """What `house` changes against `base`, section by section (see changes.py)."""
    from .changes import changes

    return changes(base, house, players)
