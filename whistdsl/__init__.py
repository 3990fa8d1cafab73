"""whistdsl: write the rules of an Oh Hell-family card game as data and formulas, check them, play them.

The public API: `load_rules` (a path or bundled name -> a compiled `Ruleset`), `lint_path`
(every finding for one file), and the engine's `Game` (see whistdsl.engine).
"""

from .diagnostics.lint import LintResult, RulesetError, lint_path, load_rules
from .rules.ruleset import Ruleset

__version__ = "0.1.0"
__all__ = ["LintResult", "Ruleset", "RulesetError", "lint_path", "load_rules", "__version__"]
