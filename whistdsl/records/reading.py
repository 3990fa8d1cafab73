"""Reading a record file's JSON within the record limits, before anything looks at what it says.

Every reader of records goes through here: `whistdsl replay`, `play --resume` and `play --deal`
(records/replay.py, which then checks the record's shape), and the list of kept games
(records/kept.py, which reads a few facts of each). Only a regular file is read, without
blocking, and at most the byte limit of it (plus one byte, to know it is larger); its nesting
and its number of values are counted on the bytes before they are parsed, so that no file can
make the parser recurse or fill the memory; a number of more than MAX_DIGITS digits, NaN,
Infinity and a lone surrogate (`"\\ud800"`) are refused, each with where it is.
"""

from __future__ import annotations

import itertools
import json
import math
import re
from array import array
from pathlib import Path
from typing import Any

from ..language.limits import MAX_DIGITS
from ..rules.load import NotReadable, read_regular_file

#: A record file larger than this is refused unread (a game of 1000 hands is a few MiB).
MAX_RECORD_BYTES = 64 * 1024 * 1024
#: How deeply a record's lists and objects may nest (a record needs 8 levels, its ruleset a few more).
MAX_RECORD_DEPTH = 64
#: The most values (numbers, texts, lists, objects) a record may hold: far above a long game's.
MAX_RECORD_VALUES = 2_000_000

#: A JSON string, to be skipped when counting brackets and commas.
_JSON_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"')
#: Opening brackets count +1, closing ones -1 (as signed bytes): the running sum is the depth.
_BRACKET_STEPS = bytes.maketrans(b"[{]}", b"\x01\x01\xff\xff")
_NOT_BRACKETS = bytes(set(range(256)) - set(b"[]{}"))
#: A \u escape of a UTF-16 surrogate: JSON's way to write half a character.
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")
_SURROGATE = re.compile("[\ud800-\udfff]")


class NotARecord(ValueError):
    """Why a file is not a record's JSON, in a few words to follow its name (`is a named pipe,
    not a regular file`, `not a record: ...`)."""


def read_record_json(path: Path, limit: int = MAX_RECORD_BYTES, follow_links: bool = True) -> Any:
    """The JSON of the record file `path`, read within the limits (at most `limit` bytes; without
    `follow_links`, a symbolic link is refused too). Raises NotARecord."""
    try:
        raw = read_regular_file(Path(path), limit, follow_links)
    except NotReadable as e:
        raise NotARecord(str(e)) from None
    if len(raw) > limit:
        raise NotARecord(f"not a record: the file is larger than {limit // 2**20} MiB")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise NotARecord("not a record (not UTF-8 text)") from None
    _check_record_size(raw)
    try:
        data = json.loads(text, parse_int=_record_int, parse_float=_record_float, parse_constant=_record_constant)
    except _BadNumber as e:
        raise NotARecord(f"not a record: {_where(raw, e.text)}: {e}") from None
    except json.JSONDecodeError as e:
        stripped = raw.rstrip()
        if stripped.startswith((b"{", b"[")) and not stripped.endswith((b"}", b"]")):
            raise NotARecord("not a record: the file ends too early (truncated?)") from None
        raise NotARecord(f"not a record: invalid JSON: {e.msg} at line {e.lineno}, column {e.colno}") from None
    except RecursionError:  # pragma: no cover - the depth is checked first
        raise NotARecord("not a record: nested too deeply") from None
    if _SURROGATE_ESCAPE.search(raw):
        _refuse_surrogates(data)
    return data


class _BadNumber(ValueError):
    def __init__(self, text: str, message: str):
        super().__init__(message)
        self.text = text


def _record_int(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_DIGITS:
        raise _BadNumber(text, f"a number written with {digits} digits; the limit is {MAX_DIGITS}")
    return int(text)


def _record_float(text: str) -> float:
    if len(text) > MAX_DIGITS + 10 or not math.isfinite(value := float(text)):
        raise _BadNumber(text, f"the number {text[:20]}{'...' if len(text) > 20 else ''} is too long or too large")
    return value


def _record_constant(text: str) -> Any:
    raise _BadNumber(text, f"{text} is not a number a record may hold (JSON has no NaN or Infinity)")


def _where(raw: bytes, text: str) -> str:
    """`line L, column C` of the first place `text` is written in the file."""
    index = max(raw.find(text.encode("ascii", "replace")), 0)
    line = raw.count(b"\n", 0, index) + 1
    column = index - (raw.rfind(b"\n", 0, index) + 1) + 1
    return f"line {line}, column {column}"


def _check_record_size(raw: bytes) -> None:
    """Refuse a record nested more than MAX_RECORD_DEPTH levels or holding more than
    MAX_RECORD_VALUES values, counted on the text (strings left out) before it is parsed."""
    bare = _JSON_STRING.sub(b'""', raw)
    brackets = bare.translate(None, _NOT_BRACKETS)
    values = bare.count(b",") + len(brackets) // 2 + 1
    if values > MAX_RECORD_VALUES:
        raise NotARecord(f"not a record: it holds more than {MAX_RECORD_VALUES:,} values")
    if brackets:
        depth = max(itertools.accumulate(array("b", brackets.translate(_BRACKET_STEPS))))
        if depth > MAX_RECORD_DEPTH:
            raise NotARecord(f"not a record: lists and objects are nested more than {MAX_RECORD_DEPTH} levels deep")


def _refuse_surrogates(data: Any) -> None:
    """A lone surrogate (`"\\ud800"`) in any text or key is refused, naming where it is."""
    stack: list[tuple[Any, tuple[Any, ...]]] = [(data, ())]
    while stack:
        value, path = stack.pop()
        if isinstance(value, str) and _SURROGATE.search(value):
            where = "/".join(str(p) for p in path) or "the top level"
            raise NotARecord(
                f"not a record: the text at {where} holds half of a UTF-16 pair (a \\ud800-\\udfff escape without its other half), not a character"
            )
        if isinstance(value, dict):
            for k, v in value.items():
                if _SURROGATE.search(k):
                    where = "/".join(str(p) for p in path) or "the top level"
                    raise NotARecord(f"not a record: a key at {where} holds half of a UTF-16 pair, not a character")
                stack.append((v, path + (k,)))
        elif isinstance(value, list):
            stack.extend((v, path + (i,)) for i, v in enumerate(value))


__all__ = ["MAX_RECORD_BYTES", "MAX_RECORD_DEPTH", "MAX_RECORD_VALUES", "NotARecord", "read_record_json"]
