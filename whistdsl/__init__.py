"""whistdsl: write the rules of an Oh Hell-family card game as data and formulas, check them, play them.

The public API: `load_rules` (a path or bundled name -> a compiled `Ruleset`), `lint_path`
(every finding for one file), and the engine's `Game` (see whistdsl.engine).

The names are imported when first used (PEP 562), so that `import whistdsl` (and every
`whistdsl` command, which imports the package first) does not pay for the checker and the
engine before it needs them.
"""

from __future__ import annotations

from .version import __version__

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing on the way to --version

__all__ = ["LintResult", "Ruleset", "RulesetError", "lint_path", "load_rules", "__version__"]

#: Where each public name lives.
_HOMES = {
    "LintResult": "whistdsl.rules.lint",
    "RulesetError": "whistdsl.rules.lint",
    "lint_path": "whistdsl.rules.lint",
    "load_rules": "whistdsl.rules.lint",
    "Ruleset": "whistdsl.rules.ruleset",
}

if TYPE_CHECKING:
    from .rules.lint import LintResult, RulesetError, lint_path, load_rules
    from .rules.ruleset import Ruleset


def __getattr__(name: str) -> object:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'whistdsl' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
