"""The limits of the expression language, and the one limit every reader of numbers shares.

`MAX_DIGITS` is shared by the formulas (language/parser.py), the ruleset loader (rules/load.py)
and the record reader (records/replay.py): it is here, apart from the parser, so that reading a
file does not import it. The others bound a formula and its evaluation.

Limits (all stated in docs/expressions.md), each a clean finding or EvalError, never a crash:
- an expression is at most MAX_LENGTH (2000) characters long;
- brackets nest at most MAX_DEPTH (60) levels deep (`((1))` is 2 levels), and so do
  operations (`1 + 2 + 3` is 2 levels of `+`; `if`, `not`, `-` and calls count too);
- every number met while evaluating, numerator and denominator alike, is below
  MAX_NUMBER (10^30) in size;
- an exponent is a whole number from -MAX_EXPONENT to MAX_EXPONENT (-64..64), and the
  power must itself stay below MAX_NUMBER;
- a list (a range, `repeat`, a concatenation) holds at most MAX_LIST (10000) numbers;
- a number is written with at most MAX_DIGITS (40) digits;
- a formula builds at most MAX_LIST_OPS (16) lists (each range, `repeat`, join of two lists,
  list literal and `map` counts once), so one evaluation handles at most 16 x 10000 numbers;
- `map(list, n -> formula)` evaluates its formula once per item: the lists it builds in all
  (the items' lists and its result) hold at most MAX_LIST_OPS x MAX_LIST numbers together, and
  its result at most MAX_LIST.
"""

#: The most digits a number may be written with, in a formula or in any file.
MAX_DIGITS = 40

MAX_LENGTH = 2000
MAX_DEPTH = 60
MAX_NUMBER = 10**30
MAX_EXPONENT = 64
MAX_LIST = 10_000
MAX_LIST_OPS = 16
#: How many numbers the lists that one map() builds in all may hold together.
MAP_BUDGET = MAX_LIST_OPS * MAX_LIST
