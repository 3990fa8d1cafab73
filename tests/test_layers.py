"""The package's imports flow one way: no import circle, and no import from a layer to one above it.

The layers, from the ground up (docs/development.md, "The layers"), are LAYERS below. A module
is in the layer of the longest name in LAYERS that it is or lies under. The import graph is read
from the source with `ast`, nothing is imported: every `import` and `from ... import` counts,
wherever it stands (at module level, inside a function, under `if TYPE_CHECKING:`), and so does
a string that is a module's whole dotted name (what `importlib.import_module` is given: the
lazy commands of cli/commands.py, the names `whistdsl` hands on). `from package import name`
counts as importing the submodule when `name` is one, else the package's `__init__`.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "whistdsl"

#: From the ground up. A module may import its own layer's modules and those of the layers below.
LAYERS: tuple[tuple[str, ...], ...] = (
    # the ground: the version, escaping text from files, "did you mean", bundled files, the cache
    ("whistdsl.version", "whistdsl.printable", "whistdsl.suggest", "whistdsl.resources", "whistdsl.cache", "whistdsl.words"),
    ("whistdsl.diagnostics",),  # what a finding is (code, position, help) and its formats
    ("whistdsl.language",),  # the expression language
    ("whistdsl.rules",),  # a ruleset file -> a compiled, frozen Ruleset (load_rules)
    ("whistdsl.engine",),  # one game of any Ruleset
    ("whistdsl.explain",),  # a Ruleset in words (with the engine's scoring for worked examples)
    ("whistdsl.players",),  # the computer players
    ("whistdsl.records",),  # game records: written, read, replayed
    ("whistdsl.tournament",),  # many games between computer players, tallied
    ("whistdsl.web",),  # the table in the browser
    ("whistdsl.cli", "whistdsl.__main__"),  # the command line
    ("whistdsl",),  # the package's face: the public names, handed on when first used
)


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def imports_of(name: str, path: Path, known: set[str]) -> set[tuple[str, int]]:
    """(module imported, line) for every import of a whistdsl module in `path`."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[tuple[str, int]] = set()

    def owner(dotted: str) -> str:  # the module that `dotted` is or lies in
        while dotted not in known:
            dotted = dotted.rpartition(".")[0]
        return dotted

    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {(owner(a.name), node.lineno) for a in node.names if a.name.split(".")[0] == "whistdsl"}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            if source.split(".")[0] != "whistdsl":
                continue
            for a in node.names:
                found.add((f"{source}.{a.name}" if f"{source}.{a.name}" in known else owner(source), node.lineno))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in known and "." in node.value:
            found.add((node.value, node.lineno))
    found.discard((name, 0))
    return {(target, line) for target, line in found if target != name}


def import_graph() -> dict[str, set[tuple[str, int]]]:
    found = modules()
    return {name: imports_of(name, path, set(found)) for name, path in found.items()}


def layer_of(name: str) -> int:
    best, where = -1, -1
    for i, names in enumerate(LAYERS):
        for prefix in names:
            if (name == prefix or name.startswith(prefix + ".")) and len(prefix) > best:
                best, where = len(prefix), i
    assert where >= 0, f"{name} is in no layer: add it to LAYERS (and to docs/development.md)"
    return where


def circles(graph: dict[str, set[tuple[str, int]]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    edges = {m: sorted({t for t, _ in out}) for m, out in graph.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def test_every_module_is_in_a_layer_and_the_graph_is_read() -> None:
    graph = import_graph()
    for name in graph:
        layer_of(name)
    # the reading itself, on imports known to be there: a relative one, one inside a function
    # and one under TYPE_CHECKING
    assert any(t == "whistdsl.rules.ruleset" for t, _ in graph["whistdsl.engine.tricks"])
    assert any(t == "whistdsl.cache" for t, _ in graph["whistdsl.language.parser"])  # inside functions
    assert any(t == "whistdsl.rules.lint" for t, _ in graph["whistdsl"])  # under TYPE_CHECKING, and by name
    assert any(t == "whistdsl.tournament.runner" for t, _ in graph["whistdsl.cli.simulate"])


def test_no_import_circle() -> None:
    assert circles(import_graph()) == []


def test_no_import_runs_up_the_layers() -> None:
    graph = import_graph()
    upward = sorted(
        f"{name}:{line} imports {target} (layer {layer_of(name)} -> {layer_of(target)})"
        for name, out in graph.items()
        for target, line in out
        if layer_of(target) > layer_of(name)
    )
    assert upward == []


#: The most lines a class may take (its decorators not counted): a class larger than this does
#: more than one thing, and is split along its seams (issue 26).
MOST_LINES_OF_A_CLASS = 500


def class_sizes() -> dict[str, int]:
    """Every class in the package (nested ones too), by module and name: its lines, from its
    `class` line to its last."""
    sizes: dict[str, int] = {}
    for name, path in modules().items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                assert node.end_lineno is not None
                sizes[f"{name}.{node.name}"] = node.end_lineno - node.lineno + 1
    return sizes


def test_no_class_is_over_500_lines() -> None:
    sizes = class_sizes()
    assert sizes["whistdsl.engine.game.Game"] > 100  # the reading finds them
    over = sorted(f"{name}: {lines} lines" for name, lines in sizes.items() if lines > MOST_LINES_OF_A_CLASS)
    assert over == []


def test_the_checks_find_circles_and_place_modules_in_their_layers() -> None:
    graph = {"a": {("b", 1)}, "b": {("c", 1)}, "c": {("a", 1)}, "d": {("a", 1), ("e", 2)}, "e": {("d", 3)}, "f": set()}
    assert sorted(circles(graph)) == [["a", "b", "c"], ["d", "e"]]
    assert layer_of("whistdsl.rules.lint") < layer_of("whistdsl.engine.game") < layer_of("whistdsl.cli.play")
    assert layer_of("whistdsl.cache") == layer_of("whistdsl.version") == 0
    assert layer_of("whistdsl") == len(LAYERS) - 1  # the face, above the command line
