"""The observer: what one seat may see of a game.

`SeatView` is everything one seat may know at one moment: what computer players receive.
`seat_view(game, seat)` builds it (it is `Game.view`): the seat's own cards when it may see
them, the cards on the others' foreheads, the bids as far as they are shown, the tricks, the
totals, the legal actions when it is to act. A position imagined from a view, for look-ahead,
is engine/game.py's `look_ahead` (`Game.from_view`): it builds a Game, which reads this module.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..language.values import Number, Value
from ..rules.ruleset import Ruleset
from .cards import NO_TRUMP, SPECIAL, Card, by_suit
from .state import Phase, Trick

if TYPE_CHECKING:
    from .phases import Part


@dataclass(frozen=True)
class SeatView:
    """Everything one seat may know at one moment: what computer players receive.

    `hand` is None when this seat may not see its own cards (forehead hands; blind hands while
    bidding). `others` holds other seats' current cards only in forehead hands. `legal` is the
    legal bids, or the legal cards when the seat can see them (None when it cannot).
    """

    seat: int
    players: int
    rules: Ruleset
    phase: str
    to_act: int | None
    hand_number: int
    hand_size: int
    kind: str
    view: str  # normal | forehead | blind
    extra: bool
    dealer: int
    sitting_out: tuple[int, ...]
    trump: int
    turn_up: Card | None
    hand: tuple[Card, ...] | None
    others: dict[int, tuple[Card, ...]]
    bidding_order: tuple[int, ...]
    bids: tuple[tuple[int, int], ...]
    leader: int | None
    trick: tuple[tuple[int, Card], ...]
    tricks: tuple[Trick, ...]
    taken: tuple[int, ...]
    totals: tuple[Number, ...]
    running: tuple[dict[str, Number], ...]
    legal: tuple[int, ...] | None
    hand_env: dict[str, Value] = field(repr=False, compare=False, default_factory=dict)
    decision: str | None = None  # in the decision phase: "trump" (name it) or "blind" (bid blind or look)
    calls: tuple[str, ...] = ()  # per seat, the named call it made as far as this seat sees ("" otherwise)
    blind: tuple[bool, ...] = ()  # per seat, whether it bids blind (by choice)
    bids_hidden: bool = False  # the bids are made together: the others' bids are not shown yet (`together`)
    trump_named_by: int | None = None  # the seat that named this hand's trump (decisions)
    declarer: int | None = None  # the seat that won the auction, once it is over
    auction_bid: int = 0  # the declarer's winning bid (0: none)
    auction: tuple[tuple[int, str], ...] = ()  # the auction's bids and passes so far, (seat, choice)
    excused: tuple[bool, ...] = ()  # per seat, excused from bidding this hand (`skip`), once its turn came
    trump_from: str = ""  # the source of `trump.from` that gave trump ("" for version 1's, or hidden)
    #: where the turned card is (engine/trump.py): "table" (face up, not dealt), "dealer" (the
    #: dealer's own last card: the dealer holds it until it is played), "pack" (dealt as usual)
    turn_up_place: str = ""
    trump_hidden: bool = False  # trump is shown only after the bidding, and the bidding is on
    redeals: int = 0  # how many times this hand has been dealt again so far (`redeal`)
    declared: tuple[str, ...] = ()  # per seat, the declaration it made before the bidding ("" for none)

    @property
    def played(self) -> frozenset[Card]:
        """Every card this seat has seen played this hand."""
        return frozenset(c for t in self.tricks for _, c in t.cards) | {c for _, c in self.trick}


BIDDING, DECISION, OVER, PLAY = Phase.BIDDING, Phase.DECISION, Phase.OVER, Phase.PLAY


def _by_suit(hand: list[list[Card]]) -> tuple[Card, ...]:
    """A hand's cards as `game.by_suit` orders them (spades to clubs, high to low, then the
    specials in the deck's order), from its lists by suit."""
    cards: list[Card] = []
    for suit in hand[:SPECIAL]:
        if suit:
            cards += sorted(suit, reverse=True)
    if len(hand) > SPECIAL and hand[SPECIAL]:
        cards += sorted(hand[SPECIAL])
    return tuple(cards)


def seat_view(game: Part, seat: int) -> SeatView:
    """What `seat` may see now: computed from the hand's kind and the history, nothing more."""
    if not 0 <= seat < game.players:
        raise ValueError(f"no seat {seat}")
    phase = game.phase
    visible = game.can_see_own_hand(seat) and phase != OVER
    own = _by_suit(game.hands[seat]) if visible else None
    others: dict[int, tuple[Card, ...]] = {}
    if game.hand_kind.view == "forehead" and phase != OVER:
        others = {s: _by_suit(game.hands[s]) for s in range(game.players) if s != seat and s not in game.sitting_out}
    legal: tuple[int, ...] | None = None
    if game.to_act == seat:
        if phase == BIDDING:
            legal = tuple(game.legal_bids())  # type: ignore[arg-type]  # the view's legal actions: cards, bids or options as the phase has them
        elif phase == DECISION:
            legal = tuple(game.decision_options())  # type: ignore[arg-type]  # a decision's options are names; the legal actions are declared cards and bids
        elif visible:
            legal = tuple(by_suit(game.legal_cards()))
    # bids made together are shown once all of them are made (`together`: all, or all but the last)
    hidden = phase in (BIDDING, DECISION) and game.bids_hidden_now()
    bids = tuple(game.bid_log)
    calls = tuple(game.calls)
    if hidden:
        bids = tuple(b for b in bids if b[0] == seat)  # the others' bids are shown once all have bid
        calls = tuple(c if s == seat else "" for s, c in enumerate(calls))
    plan = game.plan[game.index]
    # a trump shown only after the bidding (`trump.seen: after_bidding`): unknown until then
    trump_hidden = game._trump_step.hidden_while_bidding and phase in (BIDDING, DECISION)
    hand_env = dict(game.hand_env)
    if trump_hidden:
        hand_env["trump"] = "none"
    # every field given: filled in as the dataclass's own __init__ would, without its cost per field
    view = object.__new__(SeatView)
    view.__dict__.update(
        seat=seat,
        players=game.players,
        rules=game.rules,
        phase=phase,
        to_act=game.to_act,
        hand_number=plan.number,
        hand_size=plan.size,
        kind=plan.kind,
        view=game.hand_kind.view,
        extra=game.setup.extra,
        dealer=game.dealer,
        sitting_out=game.sitting_out,
        trump=NO_TRUMP if trump_hidden else game.trump,
        turn_up=None if trump_hidden else game.turn_up,
        hand=own,
        others=others,
        bidding_order=game.bidding_order,
        bids=bids,
        leader=game.leader if phase == PLAY else None,
        trick=tuple(game.trick),
        tricks=tuple(game.tricks),
        taken=tuple(game.taken),
        totals=tuple(game.totals),
        running=tuple([dict(r) for r in game.running]),
        legal=legal,
        hand_env=hand_env,
        decision=game.decision if phase == DECISION else None,
        calls=calls,
        blind=tuple(game.blind),
        bids_hidden=bool(hidden),
        trump_named_by=game.trump_named_by,
        declarer=game.declarer,
        auction_bid=game.auction_bid,
        auction=tuple(game._auction.log) if game._auction is not None else (),
        excused=tuple(game.excused),
        trump_from="" if trump_hidden else game.trump_from,
        turn_up_place="" if trump_hidden else game.turn_up_place,
        trump_hidden=trump_hidden,
        redeals=len(game.redealt),
        declared=tuple(game.declared),
    )
    return view
