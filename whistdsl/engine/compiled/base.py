"""What every part of the compiled hand's writer shares: the ruleset and table size, the notes
and constants it gathers, formulas written as Python over the hand's locals, and the position a
hand's set-up leaves, read of the Game into locals and written back.

Each part of a hand has its writer (setup.py, bidding.py, tricks.py, scoring.py), each a
`Writing`; writer.py puts them together into the writer of the whole module.
"""

from __future__ import annotations

import keyword
from typing import TYPE_CHECKING, Any, Protocol

from ...language.catalogue import SEAT_FACTS
from ...language.codegen import python_source
from ...language.program import Formula

if TYPE_CHECKING:
    from ...rules.ruleset import HandSetup, PlannedHand, Ruleset
    from ..cards import Card


#: a seat's own facts, as the generated hand reads them (`seat` is the seat in turn): a compiled
#: hand has no decisions, so each fact of the hand's decisions (the catalogue's SEAT_FACTS: no
#: named call, no blind bid, no declarer, nobody excused, ...) is its default
_SEAT_FACTS = {
    "total": "totals[seat]",
    "is_dealer": "(seat == dealer)",
    **{f.name: repr(f.default) for f in SEAT_FACTS},
}

#: names whose values the engine makes whole numbers of the size of a deck: bids, tricks, counts
SMALL_NAMES = frozenset({"bid", "tricks", "diff", "bids_so_far", "bids_made", "position", "hand_size", "players"})


def _indent(lines: list[str], by: int) -> list[str]:
    """`lines` of source, indented `by` more spaces."""
    pad = " " * by
    return [pad + line if line else line for line in lines]


class Facts(Protocol):
    """What the writer reads of a table's facts (engine/table.py `TableFacts`, which keeps the
    compiled hand: the hand is written from them, and table.py imports this package, not the
    other way round). The game loop's constants are the facts' own dicts, filled as games reach
    each hand."""

    @property
    def rules(self) -> Ruleset: ...
    @property
    def players(self) -> int: ...
    @property
    def deck(self) -> tuple[Card, ...]: ...
    @property
    def plan(self) -> tuple[PlannedHand, ...]: ...
    @property
    def extra_hands(self) -> int: ...
    @property
    def orders(self) -> dict[Any, Any]: ...  # table.py's SeatOrders, by dealer
    @property
    def setups(self) -> dict[int, HandSetup]: ...
    @property
    def no_trump(self) -> dict[int, tuple[HandSetup, bool]]: ...
    @property
    def hand_envs(self) -> dict[Any, Any]: ...


class Writing:
    """The state of one writing of the hand: the table (its facts, ruleset and size), the notes
    on what is left to the interpreter, the constants the source reads, the hand's names bound
    to locals."""

    def __init__(self, facts: Facts):
        self.facts = facts
        self.rules, self.players = facts.rules, facts.players
        self.notes: list[str] = []
        self.constants: dict[str, object] = {}
        self.hand_names: dict[str, str] = {}  # a name read of the hand's env -> its local
        self.declined = False

    def _source(self, formula: Formula, own: dict[str, str]) -> str:
        """The formula as Python: its own names from `own`, the others read of the hand's env
        into locals bound at the hand's start. Raises Untranslatable (and binds nothing)."""
        names = dict(own)
        wanted: dict[str, str] = {}
        for name in sorted(formula.names - set(own)):
            local = self.hand_names.get(name) or wanted.get(name)
            if local is None:
                plain = name.isidentifier() and name.isascii() and not keyword.iskeyword(name)
                local = f"h_{name}" if plain else f"h{len(self.hand_names) + len(wanted)}"
                wanted[name] = local
            names[name] = local
        source = python_source(formula, names, SMALL_NAMES)
        self.hand_names.update(wanted)
        return source

    def _binds(self) -> list[str]:
        """The names formulas read of the hand's env, bound to locals at the hand's start."""
        return [f"    {local} = E[{name!r}]" for name, local in sorted(self.hand_names.items())]

    #: the position a hand's set-up leaves, held in locals of the game loop (`_read_position`
    #: reads them of g, `_write_position` writes them back): the attribute and its local
    _POSITION = (
        ("index", "index"),
        ("setup", "setup"),
        ("dealer", "dealer"),
        ("rotation_dealer", "rotation_dealer"),
        ("sitting_out", "sitting_out"),
        ("bidding_order", "order"),
        ("position", "position"),
        ("play_orders", "play_orders"),
        ("leader", "first_leader"),
        ("deck", "d"),
        ("dealt", "dealt"),
        ("turn_up", "turn_up"),
        ("turn_up_place", "turn_up_place"),
        ("trump_from", "trump_from"),
        ("hand_size", "size"),
        ("trump", "trump"),
        ("bids", "bids"),
        ("bid_log", "bid_log"),
        ("taken", "taken"),
    )

    def _read_position(self) -> list[str]:
        """The game loop's entry: the position of g (a hand at the start of its bidding) in locals."""
        return [
            "    rng = g.rng",
            "    rnd = rng.random",
            "    hands = g.hands",
            "    history = g.history",
            "    plan = g.plan",
            "    first_dealer = g.first_dealer",
            "    kind = g.kind",
            "    kind_name = kind.name",
            "    mark = kind.mark",
            # the hands the loop may set up: those of the schedule, not set-up deals, and none when
            # `end` is asked after each hand (game.py's next_hand asks it)
            "    plain_until = 0 if g.deals or END is not None else min(len(plan), g.scheduled_hands)",
            "    keep_states = g.keep_rng_states",
            "    totals = g.totals",
            "    running = g.running",
            *[f"    {local} = g.{attribute}" for attribute, local in self._POSITION],
            "    cached = (g.hand_env, g.bid_memo_key, g.score_memo_key)",
            "    E = cached[0]",
            "    p = plan[index]",
        ]

    def _write_position(self, played: bool = False) -> list[str]:
        """The game loop's locals back to g: the position game.py's `begin_hand` leaves (the
        bids, bid log and tricks taken are the lists the hand fills); `played`: the position once
        the hand's tricks are played (game.py's `begin_play`, then the last trick), with the
        totals from before this hand's scores."""
        return [
            *[f"    g.{attribute} = {local}" for attribute, local in self._POSITION],
            "    g.hand_env, g.bid_memo_key, g.score_memo_key = cached",
            "    g.bid_scratch = None",
            "    g.legal_bids_memo = None",
            "    g.trick = []",
            "    g.legal_cards_memo = None",
            *(
                [
                    "    g.bids_so_far = so_far",
                    "    g.tricks = tricks",
                    "    g.phase = PLAY",
                    "    g.decision = None",
                    "    g.to_act = first_leader",
                    "    g.trick_order = play_orders[first_leader]",
                    "    g.totals = totals",
                    "    g.running = running",
                ]
                if played
                else ["    g.bids_so_far = 0", "    g.tricks = []", "    g.phase = BIDDING", "    g.to_act = order[0]"]
            ),
        ]

    def _note(self, note: str) -> None:
        if note not in self.notes:
            self.notes.append(note)
