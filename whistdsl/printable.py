"""Text from files, made safe to print: the one place that escapes what a stranger wrote.

Rulesets, records and deal files are written by others. Any text read from them (a key, a value,
a ruleset's name or description, a player's name, a card's text, a source line under a caret)
may hold characters that a terminal obeys rather than shows: an escape sequence (`ESC ] 0 ;` sets
the window's title, `ESC [ 2 J` clears the screen), other C0 and C1 controls, DEL, bidi
overrides and isolates that reorder what is shown (U+202A-U+202E, U+2066-U+2069), line and
paragraph separators, and lone surrogates, which cannot even be encoded and would crash the
print. `printable` writes each of those as a visible escape (`\\x1b`, `\\u202e`, `\\ud800`, `\\n`);
every other character, accents and card suits included, is kept as it is.

`json_text` is `json.dumps` with the same characters written as JSON `\\u` escapes, so JSON
output (lint's `--format json`, game records) is both valid UTF-8 and safe to `cat`, and reads
back to exactly the same values.

Text shown through rich must also not be read as markup: wrap it in `rich.text.Text` (see
`printable_text`), never interpolate it into a markup string.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.text import Text

#: What a terminal would obey or cannot encode: C0 controls (tab and newline are matched too:
#: the callers say whether to keep them), DEL and C1, the bidi embedding, override and isolate
#: controls, the line and paragraph separators, and surrogates (only lone ones reach a str).
UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(match: re.Match[str]) -> str:
    c = match.group()
    named = _NAMED.get(c)
    if named is not None:
        return named
    code = ord(c)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: object, *, tab: bool = False, newline: bool = False) -> str:
    """`text` (anything: it is turned into a str) with every unsafe character escaped. With
    `tab`, tabs are kept (a source line under a caret); with `newline`, line breaks are kept
    (a multi-line report whose lines are each made safe)."""
    text = text if isinstance(text, str) else str(text)
    if tab or newline:
        keep = ("\t" if tab else "") + ("\n" if newline else "")
        return UNSAFE.sub(lambda m: m.group() if m.group() in keep else _escape(m), text)
    return UNSAFE.sub(_escape, text)


def printable_text(text: object, style: str = "") -> Text:
    """A rich Text of `printable(text)`: shown literally, never read as markup."""
    from rich.text import Text  # here: only the commands that draw with rich need rich

    return Text(printable(text), style=style)


def _json_escape(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


#: What json.dumps(ensure_ascii=False) leaves raw that `printable` would escape: DEL, C1, the
#: separators, the bidi controls and surrogates (it already escapes C0 controls itself).
_JSON_UNSAFE = re.compile("[\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def json_text(data: Any, **options: Any) -> str:
    """`json.dumps(data, ensure_ascii=False, **options)`, with every character a terminal would
    obey or UTF-8 cannot encode written as a `\\u` escape. Outside strings JSON is ASCII, so the
    escapes land inside strings and read back to exactly the same text."""
    return _JSON_UNSAFE.sub(_json_escape, json.dumps(data, ensure_ascii=False, **options))


__all__ = ["UNSAFE", "json_text", "printable", "printable_text"]
