"""What a house rule changes against its base (`whistdsl explain --diff BASE HOUSE`).

Both rulesets are explained at the same table size and compared section by section: the
sentences that differ are shown as they were and as they are. Scoring is compared by numbers
too, over the bid x tricks grid of every hand size the game plays: each group of results (made,
more tricks, fewer tricks, no trick at all) that moves by one amount says so ("a miss costs 10
more"), naming the hand sizes when that holds of only some of them.
"""

from __future__ import annotations

from fractions import Fraction

from ..language.errors import EvalError
from ..language.values import Number
from ..rules.ruleset import Ruleset
from .document import Explanation, Section
from .scores import grid, number, reads_others, typical_size

#: The groups of results the scores are compared over, each with how a sentence names it.
GROUPS = (
    ("made", "a made bid"),
    ("over", "taking more tricks than bid"),
    ("under", "taking fewer tricks than bid (at least one trick)"),
    ("nothing", "no trick at all after a bid above 0"),
)


#: The most changed cells one sentence lists.
SHOWN = 4


def changes(base: Ruleset, house: Ruleset, players: int | None = None) -> Explanation:
    """The sections of `house` that differ from `base`, each line marked `before:` / `now:`."""
    from .sections import explanation as explain

    n = players if players is not None else house.players_default
    if not base.players_min <= n <= base.players_max:
        n = house.players_default if base.players_min <= house.players_default <= base.players_max else n
    old = explain(base, _within(base, players) if players is not None else None)
    new = explain(house, players)
    sections: list[Section] = []
    keys = [s.key for s in new.sections] + [s.key for s in old.sections if new.section(s.key) is None]
    for key in keys:
        was, now = old.section(key), new.section(key)
        before = list(was.lines) if was is not None else []
        after = list(now.lines) if now is not None else []
        lines: list[str] = []
        if key == "scoring":
            lines += score_changes(base, house, n)
        gone = [line for line in before if line not in after]
        added = [line for line in after if line not in before]
        lines += [f"before: {line}" for line in gone] + [f"now: {line}" for line in added]
        if lines:
            title = (now or was).title  # type: ignore[union-attr]  # a section changed is in one ruleset or the other
            sections.append(Section(key, title, tuple(lines)))
    title = f"{house.name or 'The house rule'} against {base.name or 'its base'}"
    description = "What changes, section by section." if sections else "No rule changes: the two rulesets play the same game."
    return Explanation(title, description, n, tuple(sections))


def _within(rules: Ruleset, n: int) -> int:
    return min(max(n, rules.players_min), rules.players_max)


def score_changes(base: Ruleset, house: Ruleset, players: int) -> list[str]:
    """Sentences saying how the points move, group by group, over every hand size the house rule's
    game plays (`hand_sizes`). A group that moves the same way in every hand (by one amount, or
    by one amount per bid, trick or trick off) says it once; one that does not says how in each
    size, naming the sizes ("in hands of 1 to 3 cards"), so that a change that shows only in
    some hands is not missed."""
    if base.points is None or house.points is None:
        return []
    if reads_others(base) or reads_others(house):
        return []  # the points depend on the other seats: the words say how
    grids: dict[int, tuple[dict[tuple[int, int], Number], dict[tuple[int, int], Number]]] = {}
    for size in hand_sizes(house, players):
        try:
            grids[size] = (grid(base, _within(base, players), size), grid(house, players, size))
        except (EvalError, KeyError):
            continue
    if all(old == new for old, new in grids.values()):
        return []
    moved: dict[str, dict[tuple[int, int, int], Number]] = {g: {} for g, _ in GROUPS}  # (size, bid, tricks): the change
    for size, (old, new) in grids.items():
        for (b, t), value in new.items():
            moved[_group(b, t)][size, b, t] = value - old[b, t]
    said = dict(GROUPS)
    steady = {g: next(iter(set(d.values()))) for g, d in moved.items() if len(set(d.values())) == 1}
    misses = ("over", "under", "nothing")
    out: list[str] = []
    if all(g in steady for g in misses) and len({steady[g] for g in misses}) == 1 and steady["over"] != 0:
        out.append(f"scoring: a miss {_moves(steady['over'])}")
        rest = ["made"]
    else:
        rest = [g for g, _ in GROUPS]
    for g in rest:
        deltas = moved[g]
        if set(deltas.values()) <= {0}:
            continue
        if g in steady:
            out.append(f"scoring: {said[g]} {_moves(steady[g], g == 'made')}")
            continue
        fitted = _fit([((b, t), d) for (_, b, t), d in deltas.items()])
        if fitted is not None:
            out.append(f"scoring: {said[g]} {fitted}")
            continue
        out += _by_size(g, deltas, grids)
    out[-1] += f" (compared over {_sizes_words(list(grids), 'the ')} the game plays, with {players} players, no trump)"
    return out


def _by_size(group: str, deltas: dict[tuple[int, int, int], Number], grids: dict) -> list[str]:
    """How one group's points move in each hand size, each way said once with the sizes it
    holds in (the changed cells of the smallest such hand, for a group that moves cell by cell)."""
    found: dict[str, list[int]] = {}
    for size in sorted({s for s, _, _ in deltas}):
        here = {(b, t): d for (s, b, t), d in deltas.items() if s == size}
        amounts = set(here.values())
        if amounts <= {0}:
            continue
        fitted = _fit(list(here.items()))
        if len(amounts) == 1:
            text = _moves(next(iter(amounts)), group == "made")
        elif fitted is not None:
            text = fitted
        else:
            old, new = grids[size]
            cells = [
                f"bid {b}, {t} trick{'s' if t != 1 else ''}: {number(old[b, t])} -> {number(new[b, t])}" for (b, t) in sorted(here) if here[b, t] != 0
            ]
            shown = "; ".join(cells[:SHOWN]) + (f"; and {len(cells) - SHOWN} more" if len(cells) > SHOWN else "")
            text = f"scores differently ({shown})"
            text = next((t for t in found if t.startswith("scores differently")), text)  # one sentence: the first size's cells
        found.setdefault(text, []).append(size)
    return [
        f"scoring: {dict(GROUPS)[group]} {text} (in {_sizes_words(sizes)}"
        + (f"; the cells of the {sizes[0]}-card hand" if text.startswith("scores differently") and len(sizes) > 1 else "")
        + ")"
        for text, sizes in found.items()
    ]


def hand_sizes(rules: Ruleset, players: int) -> list[int]:
    """The hand sizes the game plays at `players` (each once), or the typical one alone."""
    try:
        return sorted({h.size for h in rules.planned_hands(players)})
    except EvalError:
        size = typical_size(rules, players)
        return [size] if size is not None else []


def _sizes_words(sizes: list[int], the: str = "") -> str:
    """`a 3-card hand`, `hands of 1 to 8 cards`, `hands of 1, 3 and 5 cards`."""
    ordered = sorted(set(sizes))
    if len(ordered) == 1:
        article = the or ("an " if str(ordered[0]).startswith("8") or ordered[0] in (11, 18) else "a ")
        return f"{article}{ordered[0]}-card hand"
    if ordered == list(range(ordered[0], ordered[-1] + 1)):
        listed = f"{ordered[0]} to {ordered[-1]}"
    else:
        listed = ", ".join(map(str, ordered[:-1])) + f" and {ordered[-1]}"
    return f"{the}hands of {listed} cards"


def _fit(deltas: list[tuple[tuple[int, int], Number]]) -> str | None:
    """How the points move when that is a constant plus an amount per unit of the bid, the tricks
    or the tricks off, over at least 3 values of it: "scores 4 x bid more", "costs 11 x bid - 10
    more"; else None."""
    for word, unit in (("bid", lambda b, t: b), ("tricks", lambda b, t: t), ("diff", lambda b, t: abs(b - t))):
        points: dict[int, Number] = {}
        for (b, t), d in deltas:
            if points.setdefault(unit(b, t), d) != d:
                break  # two amounts for one value: not a function of it
        else:
            if len(points) < 3:
                continue
            (u0, d0), (u1, d1) = sorted(points.items())[:2]
            per = Fraction(d1 - d0) / (u1 - u0)
            base = d0 - per * u0
            if per == 0 or any(d != base + per * u for u, d in points.items()):
                continue
            sign = 1 if per > 0 else -1  # scores more, or costs more
            k, c = per * sign, base * sign
            amount = (word if k == 1 else f"{number(_whole(k))} x {word}") + ("" if c == 0 else f" {'+' if c > 0 else '-'} {number(_whole(abs(c)))}")
            return f"scores {amount} more" if sign > 0 else f"costs {amount} more"
    return None


def _whole(v: Fraction) -> Number:
    return v.numerator if v.denominator == 1 else v


def _group(bid: int, tricks: int) -> str:
    if tricks == bid:
        return "made"
    if tricks > bid:
        return "over"
    return "under" if tricks > 0 else "nothing"


def _moves(delta: Number, made: bool = False) -> str:
    """+5: "scores 5 more"; -10: "costs 10 more" (a made bid: "scores 10 less")."""
    if delta > 0:
        return f"scores {number(delta)} more"
    return f"scores {number(-delta)} less" if made else f"costs {number(-delta)} more"
