"""The phases of a hand, each played by a part of `Game` (engine/game.py mixes them all in).

A hand runs deal -> trump -> decisions -> bidding -> play -> scoring -> next hand (engine/state.py
`Phase`), and each has a module here with its entry point:

- deal.py `begin_hand`: the hand set up, its cards dealt;
- trump.py `set_trump`: the trump found, and the hand's values for formulas;
- decisions.py `decide`: the ruleset's own decisions (a trump named, blind or look, the auction);
- bidding.py `bid`: the legal bids, a bid made or refused;
- play.py `play`: the legal cards, a card played or refused, the tricks;
- scoring.py `score_hand`: the hand scored and recorded;
- next_hand.py `next_hand`: the next hand, a tie-break, or the end of the game.

Each part reads and changes the position (engine/state.py `State`) and calls the others through
the game; none imports another.
"""
