"""Explanations rendered: for a terminal through rich (imported when used), and as Markdown.

Every line goes through `printable` (names and descriptions come from the ruleset's file) and
reaches rich as a Text, never as markup.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..printable import printable
from .document import Explanation, Table

if TYPE_CHECKING:
    from rich.console import Console


def markdown(explanation: Explanation) -> str:
    """The rules as Markdown: a heading per section, a bullet per sentence, the table as a table."""
    out = [f"# {_md(explanation.title)}", ""]
    if explanation.description:
        out += [_md(explanation.description), ""]
    for section in explanation.sections:
        out += [f"## {_md(section.title)}", ""]
        out += [f"- {_md(line)}" for line in section.lines]
        out.append("")
        if section.table is not None:
            out += _md_table(section.table) + [""]
    return "\n".join(out).rstrip() + "\n"


def _md(text: str, cell: bool = False) -> str:
    """Text for Markdown: escaped for the terminal, `|` kept literal, and in a line a leading
    `#`, `-`, `+` or `*` too (they would start a heading or a list)."""
    text = printable(text).replace("|", "\\|")
    return "\\" + text if not cell and text.startswith(("#", "-", "+", "*")) else text


def _md_table(table: Table) -> list[str]:
    out = [_md(table.caption), ""]
    out.append("| " + " | ".join(_md(h, True) for h in table.header) + " |")
    out.append("|" + "|".join("---:" if i else "---" for i in range(len(table.header))) + "|")
    out += ["| " + " | ".join(_md(c, True) for c in row) + " |" for row in table.rows]
    return out


def to_console(console: Console, explanation: Explanation) -> None:
    """The rules for a terminal: bold headings, sentences wrapped at words under a bullet, and
    the worked table lined up (plain text when the console is not a terminal). No line ends in
    spaces."""
    from rich.text import Text

    width = max(40, console.width)

    def say(text: str, style: str = "") -> None:
        console.print(Text(text, style=style), soft_wrap=True)

    for line in _wrapped(printable(explanation.title), width):
        say(line, "bold")
    for line in _wrapped(printable(explanation.description), width):
        say(line)
    for section in explanation.sections:
        say("")
        say(printable(section.title), "bold underline")
        for sentence in section.lines:
            for line in _wrapped(printable(sentence), width, "- ", "  "):
                say(line)
        if section.table is not None:
            t = section.table
            say("")
            for line in _wrapped(printable(t.caption), width):
                say(line, "italic")
            lines = table_lines(t)
            say(lines[0], "bold")
            for line in lines[1:]:
                say(line)


def _wrapped(text: str, width: int, first: str = "", rest: str = "") -> list[str]:
    import textwrap

    if not text:
        return []
    return textwrap.wrap(text, width, initial_indent=first, subsequent_indent=rest, break_long_words=False, break_on_hyphens=False) or [
        first.rstrip()
    ]


def table_lines(table: Table) -> list[str]:
    """The table as lines of text: the first column on the left, numbers to the right."""
    cells = [table.header, *table.rows]
    widths = [max(len(printable(row[i])) for row in cells) for i in range(len(table.header))]
    widths[1:] = [max(widths[1:], default=0)] * (len(widths) - 1)  # one width for every number column
    out = []
    for row in cells:
        parts = [printable(c).ljust(widths[0]) if i == 0 else printable(c).rjust(widths[i] + 2) for i, c in enumerate(row)]
        out.append("".join(parts).rstrip())
    return out
