"""The worked score table of a typical hand, and scores compared for `explain --diff`.

The cells are `engine.scoring.hand_points`, the very function `whistdsl score` prints, at the same
defaults (no trump, a normal hand, running values at their start, a total of 0), for a hand
size of the schedule near 3 cards: small enough to read, large enough to show every case.
"""

from __future__ import annotations

from ..language.expression import EvalError, Number
from ..rules.ruleset import NORMAL, PlannedHand, Ruleset, hand_setup
from .document import Table


def typical_size(rules: Ruleset, players: int) -> int | None:
    """The hand size of the schedule nearest 3 cards (the smaller on a tie), or None."""
    try:
        sizes = {h.size for h in rules.planned_hands(players)}
    except EvalError:
        return None
    return min(sizes, key=lambda s: (abs(s - 3), s)) if sizes else None


def grid(rules: Ruleset, players: int, size: int, call: str = "") -> dict[tuple[int, int], Number]:
    """{(bid, tricks): points} for a hand of `size` cards, as `whistdsl score` gives them.
    Raises EvalError (a formula that cannot be evaluated there)."""
    from ..engine.scoring import hand_points
    from ..language.environment import trump_env

    setup = hand_setup(rules, players, PlannedHand(1, size, NORMAL), len(rules.planned_hands(players)))
    env = trump_env(setup.env, "none")
    bids = range(size + 1) if not call else (dict(rules.calls)[call],)
    return {(b, t): hand_points(rules, env, b, t, call=call) for b in bids for t in range(size + 1)}


def number(value: Number) -> str:
    return str(value)


def worked_table(rules: Ruleset, players: int) -> tuple[Table | None, str | None]:
    """The bid x tricks table of a typical hand, and a sentence about it (or why there is none)."""
    if rules.points is None:
        return None, None
    if rules.points.seat_reads or (rules.points.checked is not None and rules.points.checked.roles):
        return None, "The points read the other players' results, so no table of one player's points is shown: `whistdsl score RULESET --cards N --others ...` gives them."
    size = typical_size(rules, players)
    if size is None:
        return None, None
    try:
        cells = grid(rules, players, size)
        rows = [(str(b), *(number(cells[b, t]) for t in range(size + 1))) for b in range(size + 1)]
        for name, _ in rules.calls:
            called = grid(rules, players, size, name)
            ((counted, _),) = {(b, 0) for b, _ in called}
            rows.append((name, *(number(called[counted, t]) for t in range(size + 1))))
    except (EvalError, KeyError):
        return None, "The points of a typical hand cannot be worked out without a game (see `whistdsl score`)."
    header = ("bid \\ tricks", *(str(t) for t in range(size + 1)))
    caption = f"Points in a {size}-card hand with {players} players (no trump), as `whistdsl score` gives them: one row per bid, one column per tricks taken."
    return Table(caption, header, tuple(rows)), None
