"""The trump of a hand (`set_trump`): found from the ruleset's sources after the deal (or none),
and the hand's values for formulas that follow from it.

A part of `Game` (engine/game.py), which mixes in every phase; its entry point is `set_trump`.
"""

from __future__ import annotations

from ...language.environment import trump_env
from ...language.errors import EvalError
from ...language.values import Value
from ...rules.ruleset import HandSetup
from ..cards import NO_TRUMP, Card, suit_name, turn_up_facts
from ..errors import formula_error
from ..state import PresetDeal
from ..tricks import hand_trick_play
from . import Part


class FindingTrump(Part):
    """The part of `Game` that plays the trump (entry point: `set_trump`)."""

    def _find_trump(self, preset: PresetDeal | None, setup: HandSetup, turned: Card | None, undealt: int, none_first: bool) -> int:
        """The trump step: this hand's trump from the ruleset's sources (engine/trump.py), and
        what every seat sees of it (the turned card, where it is, which source gave it)."""
        step = self._trump_step
        self.turn_up: Card | None = None
        self.turn_up_place = ""
        self.trump_from = ""
        if preset is not None and preset.trump is not None and not step.random:
            self.turn_up = preset.turn_up
            return preset.trump
        if none_first:
            return NO_TRUMP
        found = step.find(setup.plan.number, self.dealer, self.dealt, turned, self.rng.random, self.deck, undealt, preset)
        self.turn_up, self.turn_up_place, self.trump_from = found.card, found.place, found.source
        if step.none_reads_card and self._no_trump(setup, found.card):
            return NO_TRUMP
        return found.trump  # type: ignore[no-any-return]  # the trump step is Any to the phases (see Part): its found.trump is a suit number

    def set_trump(self, trump: int) -> None:
        """This hand's trump, and the hand's env that formulas read from now on."""
        self.trump = trump
        if self.rules.super_trumps is not None:  # the turned card names this hand's super trumps
            self.tricks_play = hand_trick_play(self.rules, self.players, self.turn_up)
        index = self.index
        # the hand's env is read-only once built: shared by every game that reaches this hand
        cached = self._hand_envs.get((index, trump)) if index < self.scheduled_hands else None
        if cached is None:
            self.hand_env: dict[str, Value] = trump_env(self.setup.env, suit_name(trump))
            self._keep_bid_hand_key()
            #: what the scoring formulas read of this hand: the first part of their memo's key
            self.score_memo_key = tuple([self.hand_env[name] for name in self._score_reads.hand_names])
            if index < self.scheduled_hands:
                self._hand_envs[(index, trump)] = (self.hand_env, self.bid_memo_key, self.score_memo_key)
        else:
            self.hand_env, self.bid_memo_key, self.score_memo_key = cached
        #: the values the bidding limits read, filled in place turn by turn (None: built again)
        self.bid_scratch: dict[str, Value] | None = None
        self.legal_bids_memo = None

    def _no_trump(self, setup: HandSetup, turned: Card | None) -> bool:
        """`trump.none_when`: before the deal, or, when it reads the turned card, once it is turned."""
        env = setup.env if not self._trump_step.none_reads_card else dict(setup.env, **turn_up_facts(turned, self.rules.specials))
        try:
            return bool(self.rules.trump_none_when.cached(env))  # type: ignore[union-attr]  # asked only when the ruleset has trump.none_when
        except EvalError as e:
            raise formula_error(e, (self.rules.trump_none_when,), env, hand=setup.plan.number) from None
