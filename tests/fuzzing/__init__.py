"""Fuzzers for issue 9 ("no input breaks whistdsl"), shared by the CI tests and benchmarks/fuzz.py.

- `expressions`: formulas in the shape of grammar/expression.lark, with the names of a context of
  whistdsl/catalogue.py (and a few names that context does not have);
- `rulesets`: mutants of the bundled rulesets and the oracle each must meet (lint findings, a
  game that runs to its end or to the hand cap, or a rule error: nothing else);
- `records`: mutants of real game records and the oracle of `whistdsl replay` (exit 0, 1 or 2
  with a message: never an uncaught exception);
- `keystrokes`: seeded keystroke sessions typed into `whistdsl play` under a pseudo-terminal.

The CI tests (tests/test_fuzz_*.py) run a bounded, derandomized number of examples; the same
generators run for minutes in `benchmarks/fuzz.py`.
"""
