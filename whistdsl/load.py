"""Load: ruleset files -> plain data that remembers where every node came from.

YAML is read strictly: safe loading only, duplicate keys are findings, anchors and aliases are
refused, and YAML 1.1 scalars that would silently change type (`no`, `on`, `017`, `1:30`, dates)
are findings that say "quote it". `extends:` chains are resolved here and merged (see `merge`).
Every value keeps a reference to its YAML node, so later stages report file:line:col.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from yaml.events import AliasEvent
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode
from yaml.reader import ReaderError

from .findings import Finding, Position
from .resources import bundled_rulesets

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
    layers: list["Loaded"] = field(default_factory=list)  # each file of an extends chain, child first

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


class LoadError(Exception):
    def __init__(self, findings: list[Finding]):
        super().__init__("; ".join(f.message for f in findings))
        self.findings = findings


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

    def compose_node(self, parent: Node | None, index: Any) -> Node:  # type: ignore[override]
        event = self.peek_event()
        if isinstance(event, AliasEvent):
            raise _Refused(event.start_mark, f"YAML alias *{event.anchor} is not allowed: write the value out")
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
                raise _Refused(
                    event.start_mark, f"YAML lists and mappings are nested more than {MAX_YAML_DEPTH} levels deep", "W101"
                )
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


def _yaml_hint(problem: str) -> str:
    """A plain-words hint for PyYAML's commonest complaints."""
    if "'\\t'" in problem:
        return " (a tab: YAML needs spaces, not tabs, for indentation and after `:`)"
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
_PLAIN_DECIMAL = re.compile(r"[-+]?[0-9]+\.[0-9]+")
_BOOL_WORDS = {"true": True, "false": False}


def read_text(path: Path, shown: str) -> Document:
    """Read a file as UTF-8 text within MAX_FILE_BYTES. Raises LoadError (W100, W105)."""
    at = Position(shown, 1, 1)
    try:
        with path.open("rb") as f:
            raw = f.read(MAX_FILE_BYTES + 1)
    except IsADirectoryError:
        raise LoadError([at.finding("W100", "is a directory, not a ruleset file")]) from None
    except OSError as e:
        raise LoadError([at.finding("W100", f"cannot be read: {e.strerror or e}")]) from None
    if len(raw) > MAX_FILE_BYTES:
        raise LoadError(
            [at.finding("W100", f"file is larger than {MAX_FILE_BYTES // 1024} KiB; a ruleset is a small text file")]
        )
    if b"\0" in raw:
        raise LoadError([at.finding("W100", "file is binary (it holds NUL bytes), not YAML text")])
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        line = raw[: e.start].count(b"\n") + 1
        column = e.start - (raw.rfind(b"\n", 0, e.start) + 1) + 1
        raise LoadError(
            [Position(shown, line, column).finding("W100", f"file is not UTF-8 text (byte 0x{raw[e.start]:02x})")]
        ) from None
    if text.startswith("\ufeff"):
        text = text[1:]
    return Document(shown, text)


def parse_document(doc: Document) -> Loaded:
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
        raise LoadError(
            [where.finding("W101", f"the control character U+{character:04X} is not allowed in YAML text: remove it")]
        ) from None
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        where = doc.position_of_index(mark.index) if mark else Position(doc.path, 1, 1)
        problem = (e.problem or "invalid YAML").strip()
        if e.context:
            problem = f"{e.context.strip()}: {problem}"
        raise LoadError([where.finding("W101", f"YAML syntax error: {problem}{_yaml_hint(problem)}")]) from None
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
        if node.style is not None:
            return node.value
        value = node.value
        tag = loader.resolve(ScalarNode, value, (True, False))
        where = doc.position_of_index(node.start_mark.index)
        if tag.endswith(":null"):
            return None
        if tag.endswith(":bool"):
            if value.lower() in _BOOL_WORDS:
                return _BOOL_WORDS[value.lower()]
            findings.append(
                where.finding("W104", f"`{value}` would be read as a yes/no by YAML 1.1: quote it ('{value}') or write true/false")
            )
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
        if tag.endswith(":merge") or tag.endswith(":value"):
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
    """Merge `child` over `base`. The rule, also stated in the README and the schema:

    mappings merge key by key, recursively; any other value in the child (a number, a text, a
    list) replaces the base's value whole; a key set to null in the child removes it.
    `extends` itself is not inherited.
    """
    values = dict(base.values)
    keys = dict(base.keys)

    def drop(prefix: JsonPath) -> None:
        n = len(prefix)
        for table in (values, keys):
            for p in [p for p in table if p[:n] == prefix and len(p) > n]:
                del table[p]

    def walk(b: Any, c: Any, path: JsonPath) -> Any:
        if isinstance(b, dict) and isinstance(c, dict):
            out = dict(b)
            for k, v in c.items():
                p = path + (k,)
                if v is None:
                    out.pop(k, None)
                    drop(p)
                    values.pop(p, None)
                    keys.pop(p, None)
                    continue
                out[k] = walk(b.get(k), v, p)
                keys[p] = child.keys[p]
            values[path] = child.values[path] if path in child.values else values.get(path)  # type: ignore[assignment]
            return out
        drop(path)
        for p, r in child.values.items():
            if p[: len(path)] == path:
                values[p] = r
        for p, r in child.keys.items():
            if p[: len(path)] == path and len(p) > len(path):
                keys[p] = r
        return c

    data = walk(base.data, child.data, ())
    data.pop("extends", None)
    return Loaded(data, values, keys, child.documents + base.documents)


def _is_path(target: str) -> bool:
    """Whether `extends:` names a file (`../base.yaml`) rather than a bundled ruleset
    (`base`, `scoring/exact`: bundled names may hold a slash too)."""
    return target.endswith((".yaml", ".yml")) or target.startswith(("./", "../", "/", "~"))


def _resolve_target(target: str, relative_to: Path) -> Path | None:
    """`extends:` names a file relative to the extending one, or a bundled ruleset by name."""
    if _is_path(target):
        candidate = (relative_to.parent / target).resolve()
        return candidate if candidate.is_file() else None
    return bundled_rulesets().get(target)


def _not_found(target: str, relative_to: Path) -> str:
    """Why an `extends:` target was not found, with a "did you mean" where one is close."""
    import difflib

    bundled = sorted(bundled_rulesets())
    if _is_path(target):
        looked = (relative_to.parent / target).resolve()
        return f"extends: no file `{target}` (looked for {looked})"
    close = difflib.get_close_matches(target, bundled, n=1, cutoff=0.6)
    hint = f"; did you mean `{close[0]}`?" if close else " (`whistdsl list` shows the bundled rulesets)"
    return f"extends: `{target}` is not a bundled ruleset and not a path ending in .yaml{hint}"


def load_ruleset(path: Path, shown: str | None = None) -> Loaded:
    """Read a ruleset file and everything it extends, and merge them. Raises LoadError."""
    shown = shown if shown is not None else str(path)
    chain: list[Path] = []
    shown_chain: list[str] = []
    layers: list[Loaded] = []
    current: Path | None = path
    current_shown = shown
    while current is not None:
        resolved = current.resolve()
        if resolved in chain:
            cycle = " -> ".join(shown_chain + [current_shown])
            ref = layers[-1].values.get(("extends",))
            at = ref.position if ref else Position(shown, 1, 1)
            raise LoadError([at.finding("W401", f"extends cycle: {cycle}")])
        if len(chain) >= MAX_EXTENDS_DEPTH:
            ref = layers[-1].values.get(("extends",))
            at = ref.position if ref else Position(shown, 1, 1)
            raise LoadError([at.finding("W401", f"extends chain is longer than {MAX_EXTENDS_DEPTH} files")])
        chain.append(resolved)
        shown_chain.append(current_shown)
        layer = parse_document(read_text(current, current_shown))
        layers.append(layer)
        target = layer.data.get("extends")
        if target is None:
            break
        if not isinstance(target, str):
            raise LoadError([layer.where(("extends",)).finding("W202", "extends: needs a ruleset name or a relative path")])
        found = _resolve_target(target, current)
        if found is None:
            via = f" (in the chain {' -> '.join(shown_chain)})" if len(shown_chain) > 1 else ""
            raise LoadError([layer.where(("extends",)).finding("W400", _not_found(target, current) + via)])
        current = found
        current_shown = _display(found)
    merged = layers[-1]
    for layer in reversed(layers[:-1]):
        merged = merge(merged, layer)
    merged.data.pop("extends", None)
    merged.layers = layers
    return merged


def _display(path: Path) -> str:
    """A path as findings show it: relative to the working directory when it is below it."""
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)
