"""The writer of a ruleset's compiled hand: the whole module's source (`play_hand`,
`play_hand_random`, `play_tricks`, `play_game_random`, `start_hand`), put together from the
writers of each part of a hand."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...language.codegen import Untranslatable
from .base import _indent
from .bidding import BiddingWriter
from .pieces import _only_a_trump_named_before_the_bidding, why_not_compiled
from .scoring import ScoringWriter
from .setup import SetUpWriter
from .tricks import TricksWriter

if TYPE_CHECKING:
    from ...language.program import Formula


class HandWriter(SetUpWriter, BiddingWriter, TricksWriter, ScoringWriter):
    """Writes the source of `play_hand` for one ruleset and table size."""

    def module(self) -> str:
        rules, n = self.rules, self.players
        head = [
            f"# The compiled hand of {rules.name!r} at {n} players: written by whistdsl from the ruleset's",
            "# checked formulas and rules (engine/compiled.py). g is the Game, at the start of a hand's",
            "# bidding. play_hand_random: every seat plays uniformly at random, drawing from g.rng",
            "# exactly as the random player does; play_hand: choose[seat](legal) picks each action;",
            "# play_tricks: the same from the first card; play_game_random: the rest of the game at",
            "# random, its position in locals; start_hand: a hand's plain set-up.",
            "",
        ]
        why = why_not_compiled(rules)
        if why is not None:
            self.declined = True
            self.notes.append(f"every hand is interpreted: {why}")
            return "\n".join(head + [f"# Not compiled: {why}; game.py plays these hands.", ""])
        bodies = {}
        for random in (True, False):
            bodies[random] = [*self._bidding(random), *self._play(random), *self._scoring()]
        in_locals = self._in_locals()  # before the set-up: the hand's own names, bound per hand
        loop_body = [*self._bidding(True, in_locals), *self._play(True, in_locals)]
        plain = self._plain_setup()
        if plain is not None and in_locals:
            loop_body += self._scoring(close=self._close_in_locals(), leave="break", in_locals=True)
        elif plain is not None:
            close = (
                None
                if rules.end is not None
                else [  # `end`: game.py's close_hand asks it after each hand
                    "    index = g.index",
                    "    if index + 1 < len(g.plan) and not g.stop_after_hand:  # the next hand of the schedule",
                    "        g.record_hand(points, bonuses, totals_after, running_after)",
                    "        if not start_hand(g, index + 1):",
                    "            g.begin_hand(index + 1, reuse_hands=True)",
                    "    else:",
                    "        g.close_hand(points, bonuses, totals_after, running_after)",
                ]
            )
            loop_body += self._scoring(close=close, leave="continue")
        binds = self._binds()
        start = [
            "    rnd = g.rng.random",
            "    size = g.hand_size",
            "    trump = g.trump",
            "    dealer = g.dealer",
            "    E = g.hand_env",
            "    order = g.bidding_order",
            "    totals = g.totals",
            "    running = g.running",
            "    bids = g.bids",
            "    bid_log = g.bid_log",
            "    hands = g.hands",
            *binds,
        ]
        lines = [
            *head,
            "def play_hand(g, choose):",
            "    if choose is None:",
            "        return play_hand_random(g)",
            *start,
            *bodies[False],
            "def play_hand_random(g):",
            *start,
            *bodies[True],
            "def play_tricks(g, choose):",
            "    # the tricks and the scoring of a hand whose bidding is done (by players that read",
            "    # their views: game.py), choose[seat](legal) picking each card",
            *start,
            *self._play(False),
            *self._scoring(),
        ]
        if plain is not None and in_locals:
            lines += [
                "def play_game_random(g):",
                "    # this hand and the next ones, at random. The position is kept in locals from hand",
                "    # to hand and written back to g where anything else may look: at the game's end,",
                "    # at a hand game.py sets up or scores, at a rule error",
                "    while True:",
                "        if g.phase != BIDDING or g.bid_log or g.kind.view == 'forehead':",
                "            return",
                *(
                    [
                        "        if not all(type(t) is int and -TOTALS_ROOM < t < TOTALS_ROOM for t in g.totals):",
                        "            g.play_hand_unobserved(None)  # totals near the number limit: each hand's checked",
                        "            continue",
                    ]
                    if "TOTALS_ROOM" in self.constants
                    else []
                ),
                *_indent(self._read_position(), 4),
                "        while True:  # a hand, from its bidding; `break`: the position is g's again",
                *_indent(binds, 8),
                *_indent(loop_body, 8),
                *plain,
            ]
        elif plain is not None:
            lines += [
                "def play_game_random(g):",
                "    # this hand and the next ones, at random, while each begins its bidding with a",
                "    # hand the compiled engine plays (start_hand set up the plain ones)",
                "    while True:",
                "        if g.phase != BIDDING or g.bid_log or g.kind.view == 'forehead':",
                "            return",
                *_indent(start + loop_body, 4),
                *plain,
            ]
        return "\n".join(lines) + "\n"

    def _in_locals(self) -> bool:
        """Whether the game loop keeps the position in locals from hand to hand: when every part
        of a hand is written out (the interpreter's parts read the position from g)."""
        rules = self.rules
        if rules.first_lead_choice is not None:
            return False
        if not rules.standard_tricks and not self._special_tricks_written_out():
            return False
        if rules.has_decisions and not _only_a_trump_named_before_the_bidding(rules):
            return False
        if rules.points is None or rules.scores_in_passes:
            return False
        formulas = [f for f in (rules.allowed, *(k.allowed for k in rules.kinds.values())) if f is not None]
        if any(k.allowed is not None for k in rules.kinds.values()):
            return False
        probe = HandWriter(self.facts)  # can the limits and the scoring be written out?
        f: Formula | None
        try:
            for f in formulas:
                probe._source(f, {})
            for f in (rules.points, rules.bonus, *(r.after_hand for r in rules.running)):
                if f is not None:
                    probe._source(f, {})
        except Untranslatable:
            return False
        return True
