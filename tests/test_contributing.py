"""CONTRIBUTING.md stays true: every file it names exists, and every name of the code it names
(a function, a class, a constant, a field) is defined in the package or the tests, so that its
checklist of a new kind of rule cannot quietly point at something renamed or gone."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).parent.parent
PAGE = ROOT / "CONTRIBUTING.md"
SPANS = re.findall(r"`([^`\n]+)`", PAGE.read_text(encoding="utf-8"))
SOURCE = "\n".join(p.read_text(encoding="utf-8") for folder in ("whistdsl", "tests") for p in sorted((ROOT / folder).rglob("*.py")))


def named_files() -> list[str]:
    """Spans that are a path: `docs/development.md`, `engine/compiled/pieces.py`, `rulesets/`."""
    return [s for s in SPANS if re.fullmatch(r"\.?[\w./-]+(/|\.(py|md|json|yaml|toml))", s) and " " not in s]


def named_code() -> list[str]:
    """Spans that are a name of the code: `_check_meaning`, `PIECES`, `SeatView`, `HumanPlayer.take_turn`."""
    return [s for s in SPANS if re.fullmatch(r"[A-Za-z_]\w*(\.\w+)?", s) and re.search(r"[_A-Z]", s) and not named_file(s)]


def named_file(span: str) -> Path | None:
    """The file or folder a span names, from the top of the repository or inside the package."""
    for base in (ROOT, ROOT / "whistdsl", ROOT / "whistdsl" / "engine", ROOT / "whistdsl" / "players"):
        for candidate in (base / span, base / f"{span}.py"):
            if candidate.exists():
                return candidate
    return None


def test_every_file_contributing_names_exists() -> None:
    files = named_files()
    assert "engine/compiled/pieces.py" in files and "schemas/ruleset.schema.json" in files  # the reading finds them
    assert [f for f in files if named_file(f) is None] == []


def test_every_name_of_the_code_contributing_names_is_defined() -> None:
    names = named_code()
    assert {"PIECES", "why_not_compiled", "_check_meaning", "State"} <= set(names)  # the reading finds them
    defined = re.compile(r"(?m)^\s*(?:def|class)\s+(\w+)|^\s*(\w+)\s*(?::[^=\n]*)?=|^\s*(\w+)\s*:|^\s*(?:from\s+\S+\s+)?import\s+(.+)$")
    known: set[str] = set()
    for m in defined.finditer(SOURCE):
        known.update(w for w in re.findall(r"\w+", " ".join(g for g in m.groups() if g)))
    assert [n for n in names if n.split(".")[-1] not in known] == []
