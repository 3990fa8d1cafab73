"""The worked score table of a typical hand, and scores compared for `explain --diff`.

The cells are `engine.scoring.hand_points`, the very function `whistdsl score` prints, at the same
defaults (no trump, a normal hand, running values at their start, a total of 0), for a hand
size of the schedule near 3 cards: small enough to read, large enough to show every case.
"""

from __future__ import annotations

from ..language.errors import EvalError
from ..language.values import Number
from ..rules.ruleset import NORMAL, FirstBidder, PlannedHand, Ruleset, hand_setup
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


def reads_others(rules: Ruleset) -> bool:
    """Whether the points read the other seats (`count(seats, made)`, `dealer.bid`)."""
    f = rules.points
    return f is not None and bool(f.seat_reads or (f.checked is not None and f.checked.roles))


def grid_with_others(rules: Ruleset, players: int, size: int, call: str = "") -> dict[tuple[int, int], Number]:
    """{(bid, tricks): points} for the seat that bids first, every other playing seat making its
    bid: each bids 0 and takes none, but the last, which bids and takes the tricks left (the
    dealer bids last, or first when the ruleset has the dealer bid first). The same numbers as
    `whistdsl score --others 0/0,...,L/L`. Raises EvalError."""
    from ..engine.scoring import hand_points
    from ..language.environment import result_facts, seat_row, seat_sets, trump_env
    from ..rules.ruleset import start_running

    setup = hand_setup(rules, players, PlannedHand(1, size, NORMAL), len(rules.planned_hands(players)))
    env = trump_env(setup.env, "none")
    playing = setup.playing
    running = start_running(rules, playing)
    dealer_at = 1 if rules.first_bidder == FirstBidder.DEALER and rules.first_bidder_choice is None else playing
    bids = range(size + 1) if not call else (dict(rules.calls)[call],)
    out: dict[tuple[int, int], Number] = {}
    for b in bids:
        for t in range(size + 1):
            rest = size - t
            rows = [seat_row(total=0, is_dealer=dealer_at == 1, position=1, running=running, bid=b, tricks=t, call=call)]
            for place in range(2, playing + 1):
                theirs = rest if place == playing else 0
                rows.append(seat_row(total=0, is_dealer=dealer_at == place, position=place, running=running, bid=theirs, tricks=theirs))
            result_facts(rows[0], b, t)
            given = {"is_dealer": dealer_at == 1, "position": 1, **seat_sets(tuple(rows), 0)}
            out[b, t] = hand_points(rules, env, b, t, given, call=call)
    return out


def number(value: Number) -> str:
    return str(value)


def worked_table(rules: Ruleset, players: int) -> tuple[Table | None, str | None]:
    """The bid x tricks table of a typical hand, and a sentence about it (or why there is none)."""
    if rules.points is None:
        return None, None
    others = reads_others(rules)
    size = typical_size(rules, players)
    if size is None:
        return None, None
    points = grid_with_others if others else grid
    try:
        cells = points(rules, players, size)
        rows = [(str(b), *(number(cells[b, t]) for t in range(size + 1))) for b in range(size + 1)]
        for name, _ in rules.calls:
            called = points(rules, players, size, name)
            ((counted, _),) = {(b, 0) for b, _ in called}
            rows.append((name, *(number(called[counted, t]) for t in range(size + 1))))
    except (EvalError, KeyError):
        return None, "The points of a typical hand cannot be worked out without a game (see `whistdsl score`)."
    header = ("bid \\ tricks", *(str(t) for t in range(size + 1)))
    caption = f"Points in a {size}-card hand with {players} players (no trump), as `whistdsl score` gives them: one row per bid, one column per tricks taken."
    if others:
        caption = (
            f"Points of the first bidder in a {size}-card hand with {players} players (no trump), every other player making "
            "their bid (0, but the last bids and takes the tricks left), as `whistdsl score --others` gives them: "
            "one row per bid, one column per tricks taken."
        )
    return Table(caption, header, tuple(rows)), None
