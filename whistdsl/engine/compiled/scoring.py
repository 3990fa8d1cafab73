"""The compiled hand's scoring: the points, bonus and running values written out seat by seat,
the totals kept under the number limit, else the interpreter scores the hand."""

from __future__ import annotations

from ...language.codegen import Untranslatable, whole_number_bound
from ...language.limits import MAX_NUMBER
from .base import _SEAT_FACTS, SMALL_NAMES, Writing, _indent


class ScoringWriter(Writing):
    """Writes the scoring of a hand."""

    def _totals_room(self) -> int | None:
        """How large the totals may be at the game loop's entry for no hand's total to reach the
        number limit in the rest of the game, when each hand's points (and bonus) are provably
        whole numbers of a known size (language/codegen.py `whole_number_bound`); else None."""
        rules = self.rules
        each = [whole_number_bound(f, SMALL_NAMES) for f in (rules.points, rules.bonus) if f is not None]
        if not each or None in each:
            return None
        facts = self.facts
        room = MAX_NUMBER - (len(facts.plan) + facts.extra_hands + 1) * sum(each)  # type: ignore[arg-type]  # `None in each` returned above: each bound is an int
        return room if room > 0 else None

    def _scoring(self, close: list[str] | None = None, leave: str = "return", in_locals: bool = False) -> list[str]:
        """The scoring, then `close` (the hand's end: by default game.py's `close_hand`); `leave`
        ends the generated function's hand where the interpreter took over (`in_locals`: after
        writing the game loop's position back)."""
        rules = self.rules
        handed_back = ["    g.score_hand()  # the interpreter scores the hand", f"    {leave}", ""]
        if rules.points is None or rules.scores_in_passes:
            self._note("the scoring reads the other seats' points: the interpreter scores each hand")
            return handed_back
        own = {
            "bid": "bid",
            "tricks": "won",
            "made": "(won == bid)",
            "over": "(won > bid)",
            "under": "(won < bid)",
            "diff": "abs(bid - won)",
            "position": "(k + 1)",
            **_SEAT_FACTS,
            "points": "pts",
            "bonus": "bon" if rules.bonus is not None else "0",
            **{name: f"run[{name!r}]" for name in rules.running_names},
        }
        try:
            points = self._source(rules.points, own)
            bonus = self._source(rules.bonus, own) if rules.bonus is not None else "0"
            after = [(r.name, self._source(r.after_hand, own)) for r in rules.running]
        except Untranslatable as e:
            self._note(f"the scoring is left to the interpreter ({e} is not written out)")
            return handed_back
        reads_turn = any("(k + 1)" in src for src in (points, bonus, *(src for _, src in after)))  # `position`
        if rules.bonus is None:
            self.constants["NO_BONUS"] = (0,) * self.players
        lines = [
            "    # the scoring, seat by seat",
            f"    points = [0] * {self.players}",
            f"    bonuses = [0] * {self.players}" if rules.bonus is not None else "    bonuses = NO_BONUS",
            "    totals_after = list(totals)",
            "    running_after = list(running)" if after else "    running_after = running  # no running values: the same (empty) ones",
            "    try:",
            "        for k, seat in enumerate(order):" if reads_turn else "        for seat in order:",
            "            bid = bids[seat]",
            "            won = taken[seat]",
        ]
        if after:
            lines.append("            run = running[seat]")
        lines += [f"            pts = {points}"]
        if rules.bonus is not None:
            lines += [f"            bon = {bonus}"]
        if after:
            lines.append("            running_after[seat] = {" + ", ".join(f"{name!r}: {src}" for name, src in after) + "}")
        if rules.bonus is not None:
            lines += ["            points[seat] = pts + bon", "            bonuses[seat] = bon", "            total = totals[seat] + pts + bon"]
        else:  # no bonus: every seat's stays 0
            lines += ["            points[seat] = pts", "            total = totals[seat] + pts"]
        room = self._totals_room() if in_locals else None
        if room is not None:  # whole numbers that cannot reach the limit (the game loop's entry sees to it)
            self.constants["TOTALS_ROOM"] = room
            lines += ["            totals_after[seat] = total"]
        else:
            lines += [
                "            if type(total) is not int or not -MAX < total < MAX:",
                "                raise EvalError('handed to the interpreter')  # fractions and the number limit",
                "            totals_after[seat] = total",
            ]
        lines += [
            "    except EvalError:",
            *(_indent(self._write_position(played=True), 4) if in_locals else []),
            "        g.score_hand()  # the interpreter scores the hand, and names a formula that fails",
            f"        {leave}",
            *(close or ["    g.close_hand(points, bonuses, totals_after, running_after)"]),
            "",
        ]
        return lines
