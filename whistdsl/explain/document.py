"""The rules in words as data: an Explanation is a title and sections of sentences (and a table).

The renderings (render.py) and the diff (changes.py) read only this, so the terminal, the Markdown
and `--diff` say the same things.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Table:
    """A small table (the worked scores): a header row and rows of cells, and what it shows."""

    caption: str
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class Section:
    """One part of the rules: `key` names it for the diff (`scoring`), `title` for the reader."""

    key: str
    title: str
    lines: tuple[str, ...]
    table: Table | None = None


@dataclass(frozen=True)
class Explanation:
    """The rules of one ruleset at one table size, as a person would write them for the table."""

    title: str
    description: str
    players: int
    sections: tuple[Section, ...] = field(default=())

    def section(self, key: str) -> Section | None:
        return next((s for s in self.sections if s.key == key), None)

    def text(self) -> str:
        """Every sentence and table cell, in order, one line each (for searching and tests)."""
        out = [self.title, self.description]
        for s in self.sections:
            out.append(s.title)
            out.extend(s.lines)
            if s.table is not None:
                out.append(s.table.caption)
                out.append(" ".join(s.table.header))
                out.extend(" ".join(row) for row in s.table.rows)
        return "\n".join(line for line in out if line)
