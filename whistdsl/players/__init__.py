"""The seats' decision makers: `random`, `heuristic`, `mc` (Monte Carlo) and `search`, by name in `BOTS`.

The public API is re-exported here: `from whistdsl.players import BOTS, decide, play_out`.
"""

from .base import Player, RandomPlayer, decide, play_out
from .bots import BOTS

__all__ = ["BOTS", "Player", "RandomPlayer", "decide", "play_out"]
