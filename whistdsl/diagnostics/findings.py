"""Findings: what `whistdsl lint` reports, one shape for every stage, and its renderers.

A finding has a file, a line and column (1-based), a stable code, a severity and a message,
and where the text it is about ends (`end_line`, and `end_column` just after it, as ruff's
`end_location`; 0 when the stage did not say: `with_ends` works it out from the source line),
and, where the fix is known, `help`: what to write (printed under the finding, `help: ...`; a
did-you-mean is help, not part of the message). Every stage names its findings from one table of
codes (codes.py); a finding's `url` is its code's page there.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field, replace

from ..printable import json_text, printable
from .codes import DOCS, WARNINGS
from .codes import url as code_url

__all__ = ["CODES", "WARNINGS", "Finding", "Position", "render_github", "render_json", "render_text", "with_ends"]

#: Every finding code, with a one-line meaning (the codes and their documentation: codes.py).
CODES: dict[str, str] = {code: doc.summary for code, doc in DOCS.items()}


@dataclass(frozen=True, order=True)
class Finding:
    path: str
    line: int
    column: int
    code: str
    message: str
    severity: str = field(default="error", compare=False)
    end_line: int = field(default=0, compare=False)
    end_column: int = field(default=0, compare=False)
    help: str = field(default="", compare=False)

    @property
    def url(self) -> str:
        """The page of its code (codes.py `url`), as ruff's diagnostics name their rule's."""
        return code_url(self.code)

    def as_json(self) -> dict[str, object]:
        """Its fields, `help` null when there is none, and its code's page, `url`."""
        return {**asdict(self), "help": self.help or None, "url": self.url}


@dataclass(frozen=True)
class Position:
    """Where a YAML node (or a spot inside an expression) is: file, 1-based line and column."""

    path: str
    line: int
    column: int

    def finding(self, code: str, message: str, severity: str = "error", end: Position | None = None, help: str = "") -> Finding:
        """A finding here; `end`: where the text it is about ends (just after it), when known;
        `help`: what to write, when the fix is known."""
        assert code in CODES, code
        ends = (end.line, end.column) if end is not None and (end.line, end.column) > (self.line, self.column) else (0, 0)
        return Finding(self.path, self.line, self.column, code, message, severity, *ends, help)

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column}"


def _source_line(sources: dict[str, list[str]], finding: Finding) -> str | None:
    """The ruleset line a finding points at, as it was written (escape it before printing)."""
    lines = sources.get(finding.path)
    if lines is None or not 1 <= finding.line <= len(lines):
        return None
    return lines[finding.line - 1]


#: The ANSI styles of a finding on a colour terminal (ruff's): the place bold, an error's code
#: and underline red, a warning's yellow, the gutter blue.
_STYLES = {"place": "1", "error": "1;31", "warning": "1;33", "gutter": "1;34"}
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*|[0-9]+(\.[0-9]+)?(/[0-9]+)?")
_OPERATOR = re.compile(r"==|!=|<=|>=|->|\.\.|//|[-+*/%^<>]")
_CLOSING = {"(": ")", "[": "]", "{": "}"}
#: Words that begin a whole expression: `if ... then ... else ...` is underlined to its end.
_OPENING_WORDS = ("if",)


def _paint(text: str, style: str, colour: bool) -> str:
    return f"\x1b[{_STYLES[style]}m{text}\x1b[0m" if colour and text else text


def underline_span(line: str, column: int, code: str) -> int:
    """How many characters of `line` from `column` (1-based) a finding is about, to underline
    them all as ruff does: a name (`dealer.bid`), a number, a quoted text, a bracketed part, an
    operator; a whole `if ... else ...` or, for a finding about a YAML value rather than a spot
    in a formula, the whole value written on the line (without a comment after it)."""
    at = max(column - 1, 0)
    rest = line[at:]
    if not rest.strip():
        return 1
    value = _value_end(line, at) - at
    if not code.startswith("W3") and _starts_value(line, at):
        return max(1, value)
    word = _WORD.match(rest)
    if word:
        if word.group(0) in _OPENING_WORDS:
            return max(1, value)
        return len(word.group(0))
    first = rest[0]
    if first in "\"'":
        close = rest.find(first, 1)
        return close + 1 if close > 0 else max(1, value)
    if first in _CLOSING:
        depth = 0
        for i, ch in enumerate(rest):
            depth += ch == first
            depth -= ch == _CLOSING[first]
            if depth == 0:
                return i + 1
        return max(1, value)
    operator = _OPERATOR.match(rest)
    return len(operator.group(0)) if operator else 1


def _starts_value(line: str, at: int) -> bool:
    """Whether `at` is where a value begins on `line`: after `key:`, a list's `- `, or inside a
    flow list or mapping (`[`, `{`, `,`)."""
    return line[:at].rstrip().endswith((":", "-", ",", "[", "{"))


def _value_end(line: str, at: int) -> int:
    """Where the value written from `at` ends on `line`: before a ` #` comment, less trailing spaces."""
    end = len(line)
    quote = ""
    in_flow = "{" in line[:at] or "[" in line[:at]  # a value of a flow mapping or list ends at `,` `}` `]`
    for i in range(at, len(line)):
        ch = line[i]
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "\"'":
            quote = ch
        elif (ch == "#" and i > at and line[i - 1] in " \t") or (in_flow and ch in ",}]"):
            end = i
            break
    return len(line[:end].rstrip())


def underline_length(finding: Finding, line: str) -> int:
    """How many characters of `line` (the finding's own) to underline: up to the end the finding
    carries (to the end of its value on this line when that end is on a later line), or else as
    `underline_span` reads the line."""
    start = max(finding.column - 1, 0)
    if finding.end_line == finding.line and finding.end_column > finding.column:
        return max(1, min(finding.end_column, len(line) + 1) - finding.column)
    if finding.end_line > finding.line:
        return max(1, _value_end(line, start) - start)
    return underline_span(line, finding.column, finding.code)


def with_ends(findings: list[Finding], sources: dict[str, list[str]]) -> list[Finding]:
    """The findings, each with where its text ends: the end it carries, or else the end of what
    the terminal report underlines on its source line (one character when there is no line)."""
    out = []
    for f in findings:
        if f.end_line:
            out.append(f)
            continue
        line = _source_line(sources, f)
        length = underline_length(f, line) if line is not None else 1
        out.append(replace(f, end_line=f.line, end_column=f.column + length))
    return out


def render_text(findings: list[Finding], sources: dict[str, list[str]], colour: bool = False) -> str:
    """`path:line:col: CODE message` (`CODE warning: message` for a warning), then the source
    line and the spot underlined (`^^^^`: the whole name, value or expression, up to the end
    the finding carries; on one line: to the end of it when the text goes on below), and
    `help: ...` when the finding says what to write. Paths, messages and source lines come
    from files: each is printed with its controls escaped (the underline still lands under the
    spot of the escaped line). With `colour`, in ANSI colours for a terminal."""
    out: list[str] = []
    for f in findings:
        style = "warning" if f.severity == "warning" else "error"
        label = _paint(f.code, style, colour) + (" " + _paint("warning:", style, colour) if f.severity == "warning" else "")
        out.append(_paint(printable(f"{f.path}:{f.line}:{f.column}:"), "place", colour) + f" {label} " + printable(f.message))
        line = _source_line(sources, f)
        if line is not None and len(line) <= 300:
            gutter = f"{f.line:>5} | "
            out.append(_paint(gutter, "gutter", colour) + printable(line, tab=True))
            start = max(f.column - 1, 0)
            before = printable(line[:start], tab=True)
            marked = printable(line[start : start + underline_length(f, line)], tab=True)
            caret_pad = "".join(c if c == "\t" else " " for c in before)
            out.append(_paint(" " * (len(gutter) - 2) + "| ", "gutter", colour) + caret_pad + _paint("^" * max(1, len(marked)), style, colour))
        if f.help:
            out.append(_paint("help:", "place", colour) + " " + printable(f.help))
    return "\n".join(out)


def render_json(findings: list[Finding]) -> str:
    """The findings as a JSON list (`help` null when a finding has none, `url` its code's page);
    texts keep their characters, unsafe ones as `\\u` escapes."""
    return json_text([f.as_json() for f in findings], indent=2)


def _github_escape(text: str, property_value: bool = False) -> str:
    """A workflow command's value: controls escaped as text first (a raw one could end the
    command or reach the log's terminal), then GitHub's own %-escapes."""
    text = printable(text).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if property_value:
        text = text.replace(":", "%3A").replace(",", "%2C")
    return text


def render_github(findings: list[Finding]) -> str:
    """GitHub Actions workflow commands: one annotation per finding, with `endLine` and
    `endColumn` when the finding says where its text ends (`with_ends`), its `help` on a line of
    its own after the message, and then its code's page (`see: URL`)."""
    return "\n".join(
        f"::{f.severity} file={_github_escape(f.path, True)},line={f.line},col={f.column},"
        + (f"endLine={f.end_line},endColumn={f.end_column}," if f.end_line else "")
        + f"title={f.code}::{_github_escape(f.code + ' ' + f.message)}"
        + (f"%0Ahelp: {_github_escape(f.help)}" if f.help else "")
        + f"%0Asee: {_github_escape(f.url)}"
        for f in findings
    )
