"""Where the grammar, the JSON Schema and the bundled rulesets are, installed or in a checkout.

The files live once, at the top of the repository (grammar/, schemas/, rulesets/). A wheel
carries them inside the package (whistdsl/grammar, ...); an editable install or a checkout
finds them beside the package. Nothing else in whistdsl looks for them.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


@cache
def data_dir(name: str) -> Path:
    """The directory `name` (grammar, schemas, rulesets): inside the wheel, else the checkout."""
    for candidate in (_PACKAGE / name, _PACKAGE.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"whistdsl is installed without its {name}/ directory")


def grammar_path() -> Path:
    return data_dir("grammar") / "expression.lark"


def schema_path() -> Path:
    return data_dir("schemas") / "ruleset.schema.json"


def record_schema_path() -> Path:
    return data_dir("schemas") / "record.schema.json"


def bundled_rulesets() -> dict[str, Path]:
    """Bundled rulesets by name, as `whistdsl list` shows them (`scoring/exact`, ...)."""
    root = data_dir("rulesets")
    return {p.relative_to(root).with_suffix("").as_posix(): p for p in sorted(root.rglob("*.yaml"))}
