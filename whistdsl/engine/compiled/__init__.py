"""The compiled engine: a ruleset's hand written out as Python source, once per table size.

The generic engine (game.py) interprets a ruleset: at every bid and card it asks the ruleset's
data what to do. For players that see only their legal actions (random play, simulations,
rollouts) this module writes one Python function per ruleset and table size, `play_hand(g,
choose)`, that bids, plays and scores a whole hand with the ruleset's choices already made:
the bidding limits and the scoring formulas written out as Python expressions
(language/codegen.py) over locals of the hand, the seat orders, the rule for a player void in
the led suit, and the trick winner inlined; uniformly random choices drawn in place. The source
is compiled with `compile()` once and kept on the table's facts; `whistdsl compile RULESET`
prints it.

It is the same engine, not a second one: the function works on the same `Game`, draws from the
same generator in the same order as the interpreter with the same players, and leaves the same
position and history behind, so a game gives the same record whichever plays it (tests run
every bundled ruleset both ways). What it does not write out it hands back to the interpreter:
a formula it cannot write (aggregates over seats, `ROLE.FACT`, `map`) is called as a formula, a
hand with decisions other than a trump named before the bidding, or one whose players cannot
see their cards, is played by game.py, and anything unusual (a formula that fails, a total
that is a fraction or past the number limit, an illegal action) is handed to the interpreter to
score or to report, so rule errors read the same.

The writer is split by the parts of a hand: base.py (what every part shares), setup.py (the
deal, the trump, the game loop's next hand), bidding.py, tricks.py, scoring.py, put together by
writer.py; pieces.py is the allow-list (`PIECES`), hand.py compiles and runs the source.
"""

from .base import SMALL_NAMES
from .hand import CompiledHand, compiled_hand
from .pieces import PIECES, RULE_WORDS, Piece, why_not_compiled

__all__ = ["PIECES", "RULE_WORDS", "SMALL_NAMES", "CompiledHand", "Piece", "compiled_hand", "why_not_compiled"]
