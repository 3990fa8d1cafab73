"""The generic engine: cards, one game of any compiled ruleset, and its scoring.

The public API is re-exported here: `from whistdsl.engine import Game, IllegalAction`.
"""

from .game import Game, GameResult, HandResult, IllegalAction, PresetDeal, RuleError, SeatView, Trick

__all__ = ["Game", "GameResult", "HandResult", "IllegalAction", "PresetDeal", "RuleError", "SeatView", "Trick"]
