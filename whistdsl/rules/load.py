"""Load: ruleset files -> plain data that remembers where every node came from.

YAML is read strictly: safe loading only, duplicate keys are findings, anchors and aliases are
refused, and YAML 1.1 scalars that would silently change type (`no`, `on`, `017`, `1:30`, dates)
are findings that say "quote it". `extends:` chains are resolved here and merged (see `merge`).
Every value keeps a reference to its YAML node, so later stages report file:line:col.
"""

from __future__ import annotations

import codecs
import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from yaml.events import AliasEvent
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode
from yaml.reader import ReaderError

from ..diagnostics.findings import Finding, Position
from ..language.limits import MAX_DIGITS  # the most digits a number may be written with, in any file
from ..printable import UNSAFE, printable
from ..resources import bundled_rulesets, data_dir

#: A ruleset file larger than this is refused unread (rulesets are a few kilobytes).
MAX_FILE_BYTES = 256 * 1024
#: How many files an `extends:` chain may hold.
MAX_EXTENDS_DEPTH = 16
#: How deeply YAML lists and mappings may nest (a ruleset needs 4 or 5 levels).
MAX_YAML_DEPTH = 50

#: Line breaks, as findings count lines: \r\n, \n, or a lone \r.
_LINE_BREAK = re.compile(r"\r\n|\r|\n")

JsonPath = tuple[Any, ...]


def dotted(path: JsonPath) -> str:
    """A path into the ruleset as its author writes it: `scoring.points`, `schedule[2].cards`."""
    out = ""
    for p in path:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out or "the ruleset"


@dataclass
class Document:
    """One YAML file, its text and the nodes its values came from."""

    path: str  # as shown in findings
    text: str
    line_starts: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.line_starts = [0] + [m.end() for m in _LINE_BREAK.finditer(self.text)]

    @property
    def lines(self) -> list[str]:
        """The text's lines, split exactly where positions count a new line."""
        return _LINE_BREAK.split(self.text)

    def position_of_index(self, index: int) -> Position:
        import bisect

        line = bisect.bisect_right(self.line_starts, index) - 1
        return Position(self.path, line + 1, index - self.line_starts[line] + 1)


@dataclass(frozen=True)
class NodeRef:
    """Where a value is: its document and its YAML node's span."""

    document: Document
    start: int
    end: int
    style: str | None  # None for plain scalars and collections; ', ", |, > otherwise

    @property
    def position(self) -> Position:
        return self.document.position_of_index(self.start)

    def position_in_value(self, value: str, line: int, column: int) -> Position:
        """The file position of (line, column) inside this scalar's string value."""
        lines = value.split("\n")
        line = max(1, min(line, len(lines)))
        offset = sum(len(s) + 1 for s in lines[: line - 1]) + max(column - 1, 0)
        text = self.document.text
        j = self.start
        if self.style in ("|", ">"):
            newline = _LINE_BREAK.search(text, j, self.end)
            j = self.end if newline is None else newline.end()
        elif self.style in ("'", '"'):
            j += 1
        i = 0
        while i < offset and i < len(value) and j < self.end:
            if value[i] == text[j]:
                i += 1
                j += 1
            elif text[j] in " \t\r\n\\":
                j += 1
            elif value[i] in " \n":
                i += 1
            else:
                i += 1
                j += 1
        while j < self.end and text[j] in " \t\r\n" and i < len(value) and value[i] not in " \t\r\n":
            j += 1
        return self.document.position_of_index(min(j, len(text)))


@dataclass
class Loaded:
    """Plain data (dicts, lists, str, int, bool, None) with a NodeRef for each value and key."""

    data: Any
    values: dict[JsonPath, NodeRef]
    keys: dict[JsonPath, NodeRef]
    documents: list[Document]
    layers: list[Loaded] = field(default_factory=list)  # each file of an extends chain, child first

    def ref(self, path: JsonPath) -> NodeRef | None:
        """The node of `path`, or of its nearest ancestor that has one."""
        path = tuple(path)
        while True:
            if path in self.values:
                return self.values[path]
            if not path:
                return None
            path = path[:-1]

    def where(self, path: JsonPath, key: bool = False) -> Position:
        path = tuple(path)
        if key and path in self.keys:
            return self.keys[path].position
        ref = self.ref(path)
        if ref is None:
            doc = self.documents[0]
            return Position(doc.path, 1, 1)
        return ref.position


def _bracket_balance(text: str) -> int:
    """Opening brackets less closing ones, outside quoted texts."""
    depth, quoted = 0, False
    for ch in text:
        if ch == '"':
            quoted = not quoted
        elif not quoted and ch in "([":
            depth += 1
        elif not quoted and ch in ")]":
            depth -= 1
    return depth


def split_formulas(loaded: Loaded, path: JsonPath) -> list[tuple[int, int]]:
    """The runs of items of the list at `path` that are one formula which YAML's flow list
    (`[min(n, x)]`) split at its commas: (first item, last item) for each run, where the first
    item opens more brackets than it closes and the run's items, joined with ", ", balance."""
    items = loaded.data
    for key in path:
        if isinstance(items, dict):
            items = items.get(key)
        elif isinstance(items, list) and isinstance(key, int) and 0 <= key < len(items):
            items = items[key]
        else:
            return []
    ref = loaded.values.get(tuple(path))
    if not isinstance(items, list) or ref is None or ref.document.text[ref.start : ref.start + 1] != "[":
        return []
    runs: list[tuple[int, int]] = []
    i = 0
    while i < len(items):
        item = items[i]
        depth = _bracket_balance(item) if isinstance(item, str) else 0
        j = i
        while depth > 0 and j + 1 < len(items) and isinstance(items[j + 1], (str, int)):
            j += 1
            depth += _bracket_balance(str(items[j]))
        if j > i and depth == 0:
            runs.append((i, j))
        i = j + 1
    return runs


def split_message(items: list, first: int, last: int) -> str:
    """What W418 says about items first..last of a list: one formula that YAML split."""
    whole = ", ".join(str(x) for x in items[first : last + 1])
    return (
        f"`{whole}` is one formula, but YAML's flow list [ ... ] split it at the comma{'s' if last - first > 1 else ''} "
        f'into {last - first + 1} items: quote the formula ("{whole}") or write the list one item a line (- {whole})'
    )


class LoadError(Exception):
    """Findings of the load stage. `documents` are the ruleset files read so far: the only
    files whose lines a report may show (never a file that was refused unread)."""

    def __init__(self, findings: list[Finding], documents: list[Document] | None = None):
        super().__init__("; ".join(f.message for f in findings))
        self.findings = findings
        self.documents = list(documents or [])


class _Refused(yaml.YAMLError):
    def __init__(self, mark: yaml.Mark, message: str, code: str = "W103"):
        super().__init__(message)
        self.mark = mark
        self.message = message
        self.code = code


class _StrictLoader(yaml.SafeLoader):
    """A safe loader that refuses anchors, aliases, tags and deep nesting while composing.

    Refusing an alias before it is followed is what keeps an alias bomb (billion laughs)
    from taking minutes; the depth limit keeps PyYAML's recursive composer far from Python's
    recursion limit.
    """

    _depth = 0

    def compose_node(self, parent: Node | None, index: Any) -> Node:
        event = self.peek_event()
        if isinstance(event, AliasEvent):
            raise _Refused(event.start_mark, f"YAML alias *{event.anchor} is not allowed: write the value out")  # type: ignore[arg-type]  # an event the parser made has its marks
        anchor = getattr(event, "anchor", None)
        if anchor is not None:
            raise _Refused(event.start_mark, f"YAML anchor &{anchor} is not allowed: write the value out")
        tag = getattr(event, "tag", None)
        if tag not in (None, "!"):
            shown = tag.replace("tag:yaml.org,2002:", "!!")
            raise _Refused(event.start_mark, f"YAML tag {shown} is not allowed: write a plain value (quote it for a text)")
        self._depth += 1
        try:
            if self._depth > MAX_YAML_DEPTH:
                raise _Refused(event.start_mark, f"YAML lists and mappings are nested more than {MAX_YAML_DEPTH} levels deep", "W101")
            return super().compose_node(parent, index)  # type: ignore[return-value]  # a node is composed for each event below the document's start
        finally:
            self._depth -= 1


#: Characters YAML (1.1, as PyYAML reads it) takes as line breaks, though findings do not count
#: lines at them (\r\n, \n and \r do that): a YAML error near one is about it.
YAML_ONLY_LINE_BREAKS = {"\x85": "U+0085 NEXT LINE", "\u2028": "U+2028 LINE SEPARATOR", "\u2029": "U+2029 PARAGRAPH SEPARATOR"}
#: How many characters PyYAML reads of a key on one line before its `:` (a "simple key").
MAX_SIMPLE_KEY = 1024
_CANNOT_START = re.compile(r"found character '(.)' that cannot start any token")


def _yaml_error_hint(doc: Document, error: yaml.MarkedYAMLError, problem: str) -> str:
    """A plain-words hint for a YAML syntax error: a line break YAML sees where findings see
    none (U+2028, ...) on the lines of the error; a key longer than PyYAML reads; or, from the
    words of the complaint, `_yaml_hint`."""
    marks = [m for m in (error.context_mark, error.problem_mark) if m is not None]
    for mark in marks:
        line = doc.position_of_index(mark.index).line
        start = doc.line_starts[line - 1]
        end = doc.line_starts[line] if line < len(doc.line_starts) else len(doc.text)
        found = [name for ch, name in YAML_ONLY_LINE_BREAKS.items() if ch in doc.text[start:end]]
        if found:
            return f" (line {line} holds {' and '.join(found)}, which YAML reads as a line break: replace it with a space, or break the line there)"
    at = error.problem_mark
    if at is not None and doc.text[at.index : at.index + 1] == ":":  # the error is at a key's `:`
        where = doc.position_of_index(at.index)
        key = doc.text[doc.line_starts[where.line - 1] : at.index].lstrip(" -?")
        if len(key) > MAX_SIMPLE_KEY and ": " not in key:
            return f" (a key of {len(key):,} characters: YAML reads at most {MAX_SIMPLE_KEY:,} characters of a key before its `:`; shorten the key)"
    return _yaml_hint(problem)


def _yaml_hint(problem: str) -> str:
    """A plain-words hint for PyYAML's commonest complaints."""
    if "'\\t'" in problem:
        return " (a tab: YAML needs spaces, not tabs, for indentation and after `:`)"
    if "while parsing a flow sequence" in problem or "while parsing a flow mapping" in problem:
        brackets = "[ ] list" if "flow sequence" in problem else "{ } mapping"
        if "but got ':'" in problem:
            return f' (an item of the {brackets} holds `: `: quote the item, e.g. "a: b", or write the items one a line)'
        if "but got '<stream end>'" in problem:
            return f" (the {brackets} is not closed, or a ` #` in an item starts a comment that hides its end: quote the item)"
        if "but got '<scalar>'" in problem:
            return f" (an item of the {brackets} holds a quoted text and more after it: quote the whole item, or put `,` between items)"
        return f" (an item of the {brackets} holds a character YAML reads as its own: quote the item)"
    if "expected <block end>, but found ']'" in problem or "expected <block end>, but found '}'" in problem:
        return " (a closing bracket with no opening one before it)"
    if "while parsing a flow node" in problem:
        return " (quote the item)"
    cannot_start = _CANNOT_START.search(problem)
    if cannot_start:
        return f" (a value cannot begin with `{cannot_start.group(1)}` in YAML: quote the value)"
    if "mapping values are not allowed here" in problem:
        return " (a `: ` inside a value? quote the value, or check the indentation)"
    if "could not find expected ':'" in problem:
        return " (a key needs `: ` after it; check the indentation)"
    if "expected '<document start>'" in problem:
        return " (check the indentation: the top-level keys start in column 1)"
    if "expected <block end>" in problem or "sequence entries are not allowed here" in problem:
        return " (check the indentation of this line)"
    if "found undefined tag handle" in problem or "found unknown escape character" in problem:
        return " (quote the value with '...')"
    return ""


_PLAIN_INT = re.compile(r"[-+]?(0|[1-9][0-9]*)")
_DIGIT = re.compile(r"[0-9]")
#: A UTF-16 surrogate: YAML's `"\ud800"` escape makes one, and no text holding it can be written.
_SURROGATE = re.compile("[\ud800-\udfff]")
#: Where such an escape is written in a double-quoted scalar.
_SURROGATE_ESCAPE = re.compile(r"\\(?:u[dD][89a-fA-F][0-9a-fA-F]{2}|U0000[dD][89a-fA-F][0-9a-fA-F]{2})")


def _surrogate_finding(doc: Document, node: ScalarNode) -> Finding:
    """A lone surrogate (`"\\ud800"`) is not a character: refuse it where its escape is written."""
    escape = _SURROGATE_ESCAPE.search(doc.text, node.start_mark.index, node.end_mark.index)
    index = escape.start() if escape else node.start_mark.index
    code = ord(_SURROGATE.search(node.value).group())  # type: ignore[union-attr]  # called only for a value that has a lone surrogate
    return doc.position_of_index(index).finding(
        "W100",
        f"the escape for U+{code:04X} is half of a UTF-16 pair, not a character (such text cannot be "
        "printed or saved): write the character itself, or \\U and its eight hex digits",
    )


_PLAIN_DECIMAL = re.compile(r"[-+]?[0-9]+\.[0-9]+")
_BOOL_WORDS = {"true": True, "false": False}


class NotReadable(Exception):
    """A path whistdsl will not read: not a regular file (a directory, a named pipe, a device)
    or not readable at all. The message says why in a few words (`is a named pipe, not a
    regular file`), to follow the path."""


def _kind_of(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a named pipe"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    return "not a file"


def check_regular_file(path: Path, follow_links: bool = True) -> None:
    """Raise NotReadable unless `path` (after symbolic links; without `follow_links`, itself) is a
    regular file; reads nothing."""
    try:
        mode = (os.stat if follow_links else os.lstat)(path).st_mode
    except (OSError, ValueError) as e:
        raise NotReadable(_cannot_read(e)) from None
    if not stat.S_ISREG(mode):
        raise NotReadable(f"is {_kind_of(mode)}, not a regular file")


def _cannot_read(e: Exception) -> str:
    if isinstance(e, OSError):
        return f"cannot be read: {e.strerror or e}"
    return "cannot be read: the path holds a NUL character"


def read_regular_file(path: Path, limit: int, follow_links: bool = True) -> bytes:
    """At most `limit` + 1 bytes of the regular file `path` (more than `limit` means too large).

    Only a regular file is read: a directory, a named pipe or a device (also behind a symbolic
    link) raises NotReadable at once; without `follow_links`, so does a symbolic link. The file
    is opened without blocking (a named pipe with no writer would wait for ever) and checked
    again on the open descriptor, so a path swapped between the check and the open is caught too.
    """
    check_regular_file(path, follow_links)
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
    if not follow_links:
        flags |= getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags)
    except (OSError, ValueError) as e:
        raise NotReadable(_cannot_read(e)) from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise NotReadable(f"is {_kind_of(mode)}, not a regular file")
        chunks: list[bytes] = []
        left = limit + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)
    except OSError as e:
        raise NotReadable(_cannot_read(e)) from None
    finally:
        os.close(fd)


def _wide_encoding(raw: bytes) -> str:
    """The encoding of text saved as UTF-16 or UTF-32 (by its byte order mark, or by the NUL
    bytes of ASCII text in one of UTF-16's two byte orders): `UTF-16`, `UTF-32`; "" otherwise."""
    if raw.startswith((codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)):
        return "UTF-32"
    if raw.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "UTF-16"
    sample = raw[:1024]
    pairs = len(sample) // 2
    if pairs < 2:
        return ""
    nul_first, nul_second = sample[0::2][:pairs].count(0), sample[1::2][:pairs].count(0)
    for nuls, other, order in ((nul_second, nul_first, "utf-16-le"), (nul_first, nul_second, "utf-16-be")):
        if nuls >= pairs * 3 // 4 and other == 0:
            try:
                sample[: pairs * 2].decode(order)
            except UnicodeDecodeError:
                return ""
            return "UTF-16"
    return ""


def read_text(path: Path, shown: str) -> Document:
    """Read a file as UTF-8 text within MAX_FILE_BYTES. Raises LoadError (W100, W105)."""
    at = Position(shown, 1, 1)
    try:
        raw = read_regular_file(path, MAX_FILE_BYTES)
    except NotReadable as e:
        raise LoadError([at.finding("W100", str(e))]) from None
    if len(raw) > MAX_FILE_BYTES:
        raise LoadError([at.finding("W100", f"file is larger than {MAX_FILE_BYTES // 1024} KiB; a ruleset is a small text file")])
    wide = _wide_encoding(raw)
    if wide:
        raise LoadError([at.finding("W100", f"file is {wide} text, not UTF-8: save it as UTF-8")])
    if b"\0" in raw:
        raise LoadError([at.finding("W100", "file is binary (it holds NUL bytes), not YAML text")])
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        line = raw[: e.start].count(b"\n") + 1
        column = e.start - (raw.rfind(b"\n", 0, e.start) + 1) + 1
        raise LoadError([Position(shown, line, column).finding("W100", f"file is not UTF-8 text (byte 0x{raw[e.start]:02x})")]) from None
    if text.startswith("\ufeff"):
        text = text[1:]
    return Document(shown, text)


def parse_document(doc: Document) -> Loaded:  # noqa: C901 one branch per YAML node kind
    """YAML text -> Loaded. Raises LoadError with every finding of the YAML stage."""
    try:
        loader = _StrictLoader(doc.text)
        try:
            root = loader.get_single_node()
        finally:
            loader.dispose()
    except _Refused as e:
        raise LoadError([doc.position_of_index(e.mark.index).finding(e.code, e.message)]) from None
    except ReaderError as e:
        where = doc.position_of_index(e.position) if isinstance(e.position, int) else Position(doc.path, 1, 1)
        character = e.character if isinstance(e.character, int) else ord(str(e.character)[:1] or "?")
        raise LoadError([where.finding("W101", f"the control character U+{character:04X} is not allowed in YAML text: remove it")]) from None
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        where = doc.position_of_index(mark.index) if mark else Position(doc.path, 1, 1)
        problem = (e.problem or "invalid YAML").strip()
        if e.context:
            problem = f"{e.context.strip()}: {problem}"
        raise LoadError([where.finding("W101", f"YAML syntax error: {problem}{_yaml_error_hint(doc, e, problem)}")]) from None
    except yaml.YAMLError as e:
        raise LoadError([Position(doc.path, 1, 1).finding("W101", f"YAML syntax error: {e}")]) from None
    except RecursionError:
        raise LoadError([Position(doc.path, 1, 1).finding("W101", "YAML is nested too deeply")]) from None
    if root is None:
        raise LoadError([Position(doc.path, 1, 1).finding("W105", "file is empty: a ruleset is a YAML mapping")])
    findings: list[Finding] = []
    values: dict[JsonPath, NodeRef] = {}
    keys: dict[JsonPath, NodeRef] = {}

    def ref(node: Node) -> NodeRef:
        style = getattr(node, "style", None)
        return NodeRef(doc, node.start_mark.index, node.end_mark.index, style)

    def scalar(node: ScalarNode) -> Any:
        if _SURROGATE.search(node.value):
            findings.append(_surrogate_finding(doc, node))
            return node.value
        if node.style is not None:
            return node.value
        value = node.value
        tag = loader.resolve(ScalarNode, value, (True, False))
        where = doc.position_of_index(node.start_mark.index)
        if tag.endswith((":int", ":float")) and len(_DIGIT.findall(value)) > MAX_DIGITS:
            findings.append(
                where.finding(
                    "W305",
                    f"this number is written with {len(_DIGIT.findall(value))} digits; the limit is {MAX_DIGITS} (numbers stay below 10^30)",
                )
            )
            return value
        if tag.endswith(":null"):
            return None
        if tag.endswith(":bool"):
            if value.lower() in _BOOL_WORDS:
                return _BOOL_WORDS[value.lower()]
            findings.append(where.finding("W104", f"`{value}` would be read as a yes/no by YAML 1.1: quote it ('{value}') or write true/false"))
            return value
        if tag.endswith(":int"):
            if _PLAIN_INT.fullmatch(value):
                return int(value)
            findings.append(
                where.finding("W104", f"`{value}` would be read as a number in another base or clock time by YAML 1.1: quote it ('{value}')")
            )
            return value
        if tag.endswith(":float"):
            if _PLAIN_DECIMAL.fullmatch(value):
                return value  # an exact decimal: expressions read it as a fraction
            findings.append(
                where.finding("W104", f"`{value}` would be read as an inexact float by YAML 1.1: quote it ('{value}') or write a fraction")
            )
            return value
        if tag.endswith(":timestamp"):
            findings.append(where.finding("W104", f"`{value}` would be read as a date by YAML 1.1: quote it ('{value}')"))
            return value
        if tag.endswith((":merge", ":value")):
            findings.append(where.finding("W104", f"`{value}` has a special meaning in YAML 1.1: quote it ('{value}')"))
            return value
        return value

    # iterative walk: (node, path, container, key-in-container)
    holder: list[Any] = [None]
    stack: list[tuple[Node, JsonPath, Any, Any]] = [(root, (), holder, 0)]
    while stack:
        node, path, container, slot = stack.pop()
        values[path] = ref(node)
        if isinstance(node, ScalarNode):
            container[slot] = scalar(node)
        elif isinstance(node, SequenceNode):
            items: list[Any] = [None] * len(node.value)
            container[slot] = items
            for i, child in enumerate(node.value):
                stack.append((child, path + (i,), items, i))
        elif isinstance(node, MappingNode):
            mapping: dict[str, Any] = {}
            container[slot] = mapping
            seen: dict[str, Node] = {}
            for key_node, value_node in node.value:
                if not isinstance(key_node, ScalarNode):
                    findings.append(
                        doc.position_of_index(key_node.start_mark.index).finding("W202", "a key must be a plain name, not a list or mapping")
                    )
                    continue
                key = key_node.value
                if _SURROGATE.search(key):
                    findings.append(_surrogate_finding(doc, key_node))
                    continue
                if key_node.style is None and key == "<<":
                    findings.append(doc.position_of_index(key_node.start_mark.index).finding("W103", "YAML merge keys (<<) are not allowed"))
                    continue
                if key in seen:
                    first = doc.position_of_index(seen[key].start_mark.index)
                    again = doc.position_of_index(key_node.start_mark.index)
                    findings.append(
                        again.finding(
                            "W102",
                            f"duplicate key `{key}` (first at line {first.line}, again at line {again.line}): "
                            "YAML would silently keep only one; remove or rename one of them",
                        )
                    )
                    continue
                seen[key] = key_node
                keys[path + (key,)] = ref(key_node)
                mapping[key] = None
                stack.append((value_node, path + (key,), mapping, key))
        else:  # pragma: no cover - PyYAML has no other node kinds
            raise AssertionError(node)
    if findings:
        raise LoadError(sorted(findings))
    data = holder[0]
    if not isinstance(data, dict):
        at = doc.position_of_index(root.start_mark.index)
        raise LoadError([at.finding("W105", f"a ruleset is a YAML mapping (key: value lines), not {_shape(data)}")])
    return Loaded(data, values, keys, [doc])


def _shape(value: Any) -> str:
    if isinstance(value, list):
        return "a list"
    if value is None:
        return "an empty value"
    return f"the single value `{str(value)[:40]}`"


# ---------------------------------------------------------------- extends


def merge(base: Loaded, child: Loaded) -> Loaded:
    """Merge `child` over `base`. The rule, also stated in docs/format.md and the schema:

    mappings merge key by key, recursively; any other value in the child (a number, a text, a
    list) replaces the base's value whole; a key set to null in the child removes it.
    `extends` itself is not inherited.
    """
    merger = Merger(base)
    merger.over(child)
    return merger.result()


def _newest_version(base: Any, child: Any) -> int | None:
    """The higher of two files' `whistdsl:` language versions, when both are whole numbers."""
    versions = [d.get("whistdsl") for d in (base, child) if isinstance(d, dict)]
    if len(versions) == 2 and all(type(v) is int for v in versions):
        return max(versions)  # type: ignore[type-var]  # both versions were just found to be ints
    return None


class Merger:
    """Merges the files of an `extends` chain, from the bottom up, at a cost linear in their sizes.

    It starts from the bottom file and takes each file over it in turn (`over`), by the rule of
    `merge`. The work is counted in `visited`: every node and key of a file is visited a bounded
    number of times (once when it comes in, once if a later file replaces it), so a chain of 16
    large files costs the sum of their sizes, never their product. The files' own data is never
    changed; mappings are copied when a later file first merges into them.
    """

    def __init__(self, bottom: Loaded):
        self.data: Any = bottom.data
        self.values: dict[JsonPath, NodeRef] = dict(bottom.values)
        self.keys: dict[JsonPath, NodeRef] = dict(bottom.keys)
        self.documents: list[Document] = list(bottom.documents)
        self.visited = len(bottom.values) + len(bottom.keys)
        self._own: dict[int, dict[str, Any]] = {}  # the mappings this merger made (safe to change), by id

    def over(self, child: Loaded) -> None:
        """Take `child` over what is merged so far. The merged ruleset's `whistdsl:` is the newest
        language version of the chain, so that the merged file alone (as a record holds it) reads
        as the chain did: a version-1 house rule over a version-2 base is version 2."""
        newest = _newest_version(self.data, child.data)
        self.data = self._walk(self.data, child.data, (), child)
        if newest is not None and isinstance(self.data, dict) and self.data.get("whistdsl") != newest:
            self.data = self._owned(self.data)
            self.data["whistdsl"] = newest
        self.documents = child.documents + self.documents

    def result(self) -> Loaded:
        data = self.data
        if isinstance(data, dict) and "extends" in data:
            data = self._owned(data)
            data.pop("extends")
        return Loaded(data, self.values, self.keys, self.documents)

    def _owned(self, mapping: dict[str, Any]) -> dict[str, Any]:
        if id(mapping) in self._own:
            return mapping
        self.visited += len(mapping)
        copy = dict(mapping)
        self._own[id(copy)] = copy
        return copy

    def _walk(self, b: Any, c: Any, path: JsonPath, child: Loaded) -> Any:
        if not (isinstance(b, dict) and isinstance(c, dict)):
            self._forget(b, path)
            self._take(c, path, child)
            return c
        out = self._owned(b)
        for k, v in c.items():
            self.visited += 1
            p = path + (k,)
            if v is None:
                if k in out:
                    self._forget(out.pop(k), p)
                    self.values.pop(p, None)
                    self.keys.pop(p, None)
                continue
            out[k] = self._walk(out.get(k), v, p, child)
            self.keys[p] = child.keys[p]
        if path in child.values:
            self.values[path] = child.values[path]
        return out

    def _forget(self, value: Any, path: JsonPath) -> None:
        """Drop the positions of everything below `path` (a value being replaced or removed)."""
        stack = [(value, path)]
        while stack:
            node, at = stack.pop()
            items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
            for k, v in items:
                self.visited += 1
                p = at + (k,)
                self.values.pop(p, None)
                self.keys.pop(p, None)
                stack.append((v, p))

    def _take(self, value: Any, path: JsonPath, child: Loaded) -> None:
        """Take the positions of `value` (the child's, at `path`) and everything below it."""
        stack = [(value, path)]
        while stack:
            node, at = stack.pop()
            self.visited += 1
            if at in child.values:
                self.values[at] = child.values[at]
            if isinstance(node, dict):
                for k, v in node.items():
                    p = at + (k,)
                    if p in child.keys:
                        self.keys[p] = child.keys[p]
                    stack.append((v, p))
            elif isinstance(node, list):
                stack.extend((v, at + (i,)) for i, v in enumerate(node))


def _is_path(target: str) -> bool:
    """Whether `extends:` names a file (`../base.yaml`) rather than a bundled ruleset
    (`base`, `scoring/exact`: bundled names may hold a slash too)."""
    return target.endswith((".yaml", ".yml")) or target.startswith(("./", "../", "/", "~"))


_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://")


def _quoted(text: str) -> str:
    """A target as a message shows it: control characters escaped, at most 80 characters."""
    text = printable(text)
    return text if len(text) <= 80 else text[:77] + "..."


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


class _ExtendsRefused(Exception):
    """An `extends:` target that is not read: not allowed, not found, or not a regular file;
    `help`: what to write instead, when it is known (a bundled ruleset's name, mistyped)."""

    def __init__(self, message: str, help: str = ""):
        super().__init__(message)
        self.help = help


#: How many folders up from a ruleset the git repository it is in is looked for (its `.git`).
MAX_REPOSITORY_LEVELS = 32


def default_root(path: Path, named: Path | None = None) -> str:
    """The folder `extends:` may lead into when no `--root` is given, for the ruleset `path`:

    - a bundled ruleset's is the bundled rulesets' folder;
    - else the git repository the file is in: the nearest folder at or above the file's own
      holding `.git` (a folder, or a file in a worktree), looked for at most
      MAX_REPOSITORY_LEVELS folders up;
    - else the working folder, when the file is inside it;
    - else the file's own folder.

    `named` is the folder `lint DIR` found the file under: the root is never narrower than it.
    The folder is absolute, as named (symbolic links not resolved).
    """
    bundled = os.path.realpath(data_dir("rulesets"))
    if _inside(os.path.realpath(path), bundled):
        return bundled
    own = os.path.dirname(os.path.abspath(path))
    root = _repository_of(own)
    if root is None:
        try:
            working = os.getcwd()
        except OSError:  # the working folder was removed
            working = None
        root = working if working is not None and _inside(own, working) else own
    if named is not None and _inside(root, os.path.abspath(named)):
        root = os.path.abspath(named)
    return root


def _repository_of(folder: str) -> str | None:
    """The nearest folder at or above `folder` that holds `.git`, or None (nothing is read)."""
    for _ in range(MAX_REPOSITORY_LEVELS):
        if os.path.lexists(os.path.join(folder, ".git")):
            return folder
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent
    return None


@dataclass(frozen=True)
class ExtendsRoot:
    """Where `extends:` may lead: bundled rulesets by name, and relative paths to ruleset files
    (.yaml, .yml) inside `folder`, never through a hidden folder (`.git`, `.config`) below it
    other than one the ruleset named is in itself.

    `folder` is the one named with `--root`, else `default_root` of the ruleset named on the
    command line (the top of the chain). A file of the bundled rulesets may extend only bundled
    rulesets.
    """

    folder: str  # absolute, as named
    real: str  # the same with symbolic links resolved
    bundled: str  # the bundled rulesets' folder, resolved
    own: str  # the real folder of the ruleset named (the top of the chain)

    @property
    def shown(self) -> str:
        """The folder in a message: `rules/`, or "the current folder"."""
        shown = _display(Path(self.folder))
        return "the current folder" if shown == "." else f"`{_quoted(shown)}`"

    @classmethod
    def for_ruleset(cls, path: Path, root: Path | None = None) -> ExtendsRoot:
        folder = os.path.abspath(root) if root is not None else default_root(path)
        own = os.path.dirname(os.path.realpath(path))
        return cls(folder, os.path.realpath(folder), os.path.realpath(data_dir("rulesets")), own)

    def target(self, target: str, extending: Path) -> Path:
        """The file `target` names in `extending`'s `extends:`. Raises _ExtendsRefused, having
        read nothing and looked at nothing outside the allowed folders when it is not allowed."""
        quoted = _quoted(target)
        bundled_only = _inside(os.path.realpath(extending), self.bundled)
        allowed = (
            "a bundled ruleset may extend only bundled rulesets (by name, or a relative path among them)"
            if bundled_only
            else f"extends names a bundled ruleset, or a path relative to this file inside {self.shown}"
        )
        reason = _not_allowed(target)
        if reason is not None:
            raise _ExtendsRefused(f"extends: `{quoted}` is not allowed: {reason}; {allowed}")
        if not _is_path(target):
            found = bundled_rulesets().get(target)
            if found is None:
                raise _ExtendsRefused(*_not_found(target))
            return found
        folders = (self.bundled,) if bundled_only else (self.folder, self.real)
        lexical = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(extending)), target))
        if not any(_inside(lexical, f) for f in folders):
            widen = "" if bundled_only else " (name a wider folder with --root)"
            raise _ExtendsRefused(f"extends: `{quoted}` is not allowed: it leads outside the folder{widen}; {allowed}")
        real = os.path.realpath(lexical)
        if not _inside(real, self.bundled if bundled_only else self.real):
            raise _ExtendsRefused(f"extends: `{quoted}` is not allowed: it is a symbolic link that leads outside the folder; {allowed}")
        if not real.endswith((".yaml", ".yml")):
            link = " (after its symbolic links)" if real != lexical else ""
            raise _ExtendsRefused(f"extends: `{quoted}` is not allowed: it is not a ruleset file (.yaml, .yml){link}; {allowed}")
        if not bundled_only and self._hidden(real):
            raise _ExtendsRefused(
                f"extends: `{quoted}` is not allowed: it leads into a hidden file or folder (a name that begins with a dot); {allowed}"
            )
        try:
            check_regular_file(Path(real))
        except NotReadable as e:
            if not os.path.lexists(real):
                raise _ExtendsRefused(f"extends: no file `{quoted}` (looked for {_display(Path(lexical))})") from None
            raise _ExtendsRefused(f"extends: `{quoted}` {e}") from None
        return Path(real)

    def _hidden(self, real: str) -> bool:
        """Whether the file `real` (inside the root) is, or is in, a hidden folder below the root
        that the ruleset named is not in itself: secrets live in such folders (`.git`, `.ssh`,
        `.config`), rulesets do not."""
        parts = os.path.relpath(real, self.real).split(os.sep)
        own = os.path.relpath(self.own, self.real).split(os.sep) if _inside(self.own, self.real) else []
        shared = 0
        while shared < min(len(parts) - 1, len(own)) and parts[shared] == own[shared]:
            shared += 1
        return any(p.startswith(".") and p not in (".", "..") for p in parts[shared:])


def _not_allowed(target: str) -> str | None:
    """Why an `extends:` target may not be followed whatever the folders, or None."""
    if _URL.match(target):
        return "a URL (whistdsl reads only files on this machine)"
    if target.startswith("~"):
        return "a path from a home folder (~)"
    if os.path.isabs(target) or target.startswith("\\") or re.match(r"[A-Za-z]:", target):
        return "an absolute path"
    if UNSAFE.search(target):
        return "a path holding control characters"
    return None


def _not_found(target: str) -> tuple[str, str]:
    """Why an `extends:` name is not a bundled ruleset, and a "did you mean" where one is close
    (its help)."""
    from ..language.suggestions import did_you_mean

    help = did_you_mean(target, sorted(bundled_rulesets()))
    listed = "" if help else " (`whistdsl list` shows the bundled rulesets)"
    return f"extends: `{_quoted(target)}` is not a bundled ruleset and not a path ending in .yaml{listed}", help


def load_ruleset(path: Path, shown: str | None = None, root: Path | None = None) -> Loaded:
    """Read a ruleset file and everything it extends, and merge them. Raises LoadError.

    `extends:` may lead only where `ExtendsRoot` allows: inside `root` (default: `default_root`
    of `path`) and to the bundled rulesets. The LoadError carries the documents read so far.
    """
    shown = shown if shown is not None else str(path)
    allowed = ExtendsRoot.for_ruleset(path, root)
    chain: list[str] = []
    shown_chain: list[str] = []
    layers: list[Loaded] = []
    documents: list[Document] = []
    current: Path = path
    current_shown = shown
    try:
        while True:
            real = os.path.realpath(current)
            if real in chain:
                cycle = " -> ".join(shown_chain + [current_shown])
                raise LoadError([layers[-1].where(("extends",)).finding("W401", f"extends cycle: {cycle}")])
            if len(chain) >= MAX_EXTENDS_DEPTH:
                at = layers[-1].where(("extends",))
                raise LoadError([at.finding("W401", f"extends chain is longer than {MAX_EXTENDS_DEPTH} files")])
            chain.append(real)
            shown_chain.append(current_shown)
            documents.append(read_text(current, current_shown))
            layer = parse_document(documents[-1])
            layers.append(layer)
            target = layer.data.get("extends")
            if target is None:
                break
            if not isinstance(target, str):
                raise LoadError([layer.where(("extends",)).finding("W202", "extends: needs a ruleset name or a relative path")])
            try:
                current = allowed.target(target, current)
            except _ExtendsRefused as refused:
                via = f" (in the chain {' -> '.join(shown_chain)})" if len(shown_chain) > 1 else ""
                raise LoadError([layer.where(("extends",)).finding("W400", f"{refused}{via}", help=refused.help)]) from None
            current_shown = _display(current)
    except LoadError as e:
        raise LoadError(e.findings, documents) from None
    merger = Merger(layers[-1])
    for layer in reversed(layers[:-1]):
        merger.over(layer)
    merged = merger.result()
    merged.layers = layers
    return merged


def _display(path: Path) -> str:
    """A path as findings show it: relative to the working directory when it is below it."""
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)
