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

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..state import State

if TYPE_CHECKING:
    from ...language.program import Memo
    from ...language.values import Value
    from ...rules.ruleset import HandSetup, Ruleset
    from ..auction import Auction
    from ..cards import Card
    from ..state import Action, Bid, PresetDeal
    from ..tricks import TrickPlay


class Part(State):
    """What a part of `Game` may use of the game and of the other parts: declared here for the
    type checker only (nothing of it exists at run time, so `State.clone` reads the same
    annotations as before); engine/game.py and each phase's module define them."""

    if TYPE_CHECKING:
        # the game's own facts (engine/game.py `_setup_game`). Those of engine/table.py and
        # engine/trump.py are Any here: naming those modules from every phase would join the
        # phases to the engine's import circle (tests/test_layers.py).
        rules: Ruleset
        players: int
        facts: Any  # engine/table.py TableFacts
        full_deck: tuple[Card, ...]
        tricks_play: TrickPlay
        looked: list[bool]
        _trump_step: Any  # engine/trump.py TrumpStep
        _specials: bool
        _decides: bool
        _names_trump: bool
        _bid_tests: tuple
        _bid_seat_names: tuple
        _bid_sets: tuple
        _bid_memo: Memo
        _setups: dict[int, HandSetup]
        _hand_envs: dict[tuple[int, int], tuple[dict[str, Value], tuple, tuple]]
        _score_reads: Any  # engine/table.py ScoreReads
        # worked out again by a copy (State.WORKED_OUT)
        bid_scratch: dict[str, Value] | None
        legal_bids_memo: list[Bid] | None
        legal_cards_memo: tuple[int, int, list[Card]] | None

        # engine/game.py
        def act(self, action: Action) -> None: ...
        def _seat_value(self, seat: int, name: str) -> Value: ...
        def seat_choices(self, seat: int) -> dict[str, Value]: ...
        def _seat_rows(self, results: bool = False) -> tuple[dict[str, Value], ...]: ...

        # deal.py
        def begin_hand(self, index: int, reuse_hands: bool = False, again: bool = False) -> None: ...
        def deal_again(self, why: str) -> None: ...
        def played_as_dealt(self) -> None: ...
        def may_deal_again_later(self) -> bool: ...
        def redeal_rule(self) -> Any: ...  # rules/ruleset.py Redeal | None
        def seat_orders(self, dealer: int, sits_out: bool, first_bidder: int | None = None) -> Any: ...  # engine/table.py SeatOrders
        def _choose_first_leader(self) -> int: ...
        def _keep_bid_hand_key(self) -> None: ...
        def _seat_table(self, table: Any) -> None: ...  # engine/table.py SeatOrders

        # trump.py
        def set_trump(self, trump: int) -> None: ...
        def _find_trump(self, preset: PresetDeal | None, setup: HandSetup, turned: Card | None, undealt: int, none_first: bool) -> int: ...
        def _no_trump(self, setup: HandSetup, turned: Card | None) -> bool: ...

        # decisions.py
        def decide(self, choice: str) -> None: ...
        def decision_options(self) -> list[str]: ...
        def begin_decisions(self, setup: HandSetup, names_trump: bool | None = None) -> None: ...
        def _ask(self, seat: int, decision: str) -> None: ...
        def _next_bidder(self, seat: int) -> None: ...
        def _trump_chooser(self) -> int: ...

        _auction: Auction | None  # this hand's auction (the `auction` decision), under way or done

        # bidding.py
        def commit_bid(self, bid: Bid) -> None: ...
        def bids_hidden_now(self) -> bool: ...
        def legal_bids(self) -> list[Bid]: ...
        def bid_unobserved(self, choose: list[Callable[[list[int]], int]]) -> None: ...

        # play.py, scoring.py, next_hand.py
        def begin_play(self) -> None: ...
        def legal_cards(self) -> list[Card]: ...
        def can_see_own_hand(self, seat: int) -> bool: ...
        def score_hand(self) -> None: ...
        def next_hand(self) -> None: ...
