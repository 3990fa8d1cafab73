"""The generic engine: cards, one game of any compiled ruleset, and its scoring.

game.py the Game (its rules, the table's facts, one position, the actions), whose phases are
played by the parts in phases/ (deal, trump, decisions, bidding, play, scoring, next hand);
table.py the static facts of a table (TableFacts); state.py one position (State, Phase) and a
hand's and a game's results; observer.py what a seat
sees (SeatView) and positions imagined from it for look-ahead; tricks.py the trick rules;
cards.py the cards; scoring.py a seat's score; errors.py IllegalAction and RuleError.

The public API is re-exported here: `from whistdsl.engine import Game, IllegalAction`.
"""

from .game import Game, GameResult, HandResult, IllegalAction, PresetDeal, RuleError, SeatView, Trick

__all__ = ["Game", "GameResult", "HandResult", "IllegalAction", "PresetDeal", "RuleError", "SeatView", "Trick"]
