"""Computer players stronger than `random`: `heuristic` and `mc` (Monte Carlo).

Both are generic: they read the ruleset (its scoring formula, its play rules) and their seat's
view, never a variant's name. They register themselves in `whistdsl.players.BOTS`.
"""
