"""The compiled engine: a ruleset's hand written out as Python source, once per table size.

The generic engine (game.py) interprets a ruleset: at every bid and card it asks the ruleset's
data what to do. For players that see only their legal actions (random play, simulations,
rollouts) this module writes one Python function per ruleset and table size, `play_hand(g,
choose)`, that bids, plays and scores a whole hand with the ruleset's choices already made:
the bidding limits and the scoring formulas written out as Python expressions
(language/codegen.py) over locals of the hand, the seat orders, the rule for a player void in
the led suit, and the trick winner inlined; uniformly random choices drawn in place. The source
is compiled with `compile()` once and kept on the table's facts; `whistdsl compile RULESET`
prints it.

It is the same engine, not a second one: the function works on the same `Game`, draws from the
same generator in the same order as the interpreter with the same players, and leaves the same
position and history behind, so a game gives the same record whichever plays it (tests run
every bundled ruleset both ways). What it does not write out it hands back to the interpreter:
a formula it cannot write (aggregates over seats, `ROLE.FACT`, `map`) is called as a formula, a
hand with decisions other than a trump named before the bidding, or one whose players cannot
see their cards, is played by game.py, and anything unusual (a formula that fails, a total
that is a fraction or past the number limit, an illegal action) is handed to the interpreter to
score or to report, so rule errors read the same.
"""

from __future__ import annotations

import keyword
from collections.abc import Callable
from dataclasses import MISSING, dataclass, fields
from functools import cache
from typing import TYPE_CHECKING, NamedTuple

from ..language.codegen import HELPERS, Untranslatable, python_source, whole_number_bound
from ..language.errors import EvalError
from ..language.limits import MAX_NUMBER
from ..language.program import Formula, Memo
from .cards import NO_TRUMP, SPECIAL, STRENGTH_OF, SUIT_OF, suit_number
from .state import DealtCards, Phase, PlayedTricks, Trick
from .trump import ON_TABLE

if TYPE_CHECKING:
    from ..rules.ruleset import Ruleset


#: a seat's own facts, as the generated hand reads them (`seat` is the seat in turn): a compiled
#: hand has no decisions, so no named call, no blind bid, no declarer and nobody excused
_SEAT_FACTS = {
    "total": "totals[seat]",
    "is_dealer": "(seat == dealer)",
    "call": "''",
    "blind": "False",
    "is_declarer": "False",
    "auction_bid": "0",
    "excused": "False",
}

#: names whose values the engine makes whole numbers of the size of a deck: bids, tricks, counts
SMALL_NAMES = frozenset({"bid", "tricks", "diff", "bids_so_far", "bids_made", "position", "hand_size", "players"})


class _AllBids(dict):
    """size -> [0, 1, ..., size]: every bid, for a ruleset without bidding limits (made once a size)."""

    def __missing__(self, size: int) -> list[int]:
        bids = self[size] = list(range(size + 1))
        return bids


@dataclass(frozen=True)
class CompiledHand:
    """The generated hand of one ruleset at one table size: its source, the function compiled
    from it (None when the ruleset's hands are left to the interpreter), and why parts of it
    are left to the interpreter."""

    source: str
    play_hand: Callable | None
    interpreted: tuple[str, ...]
    #: plays this hand and the next ones at random for as long as their set-up is the plain one
    #: (None when the ruleset's set-up is left to game.py)
    play_game_random: Callable | None = None
    #: the plain set-up of a hand (`start_hand(g, index)`; False: game.py's `begin_hand` sets it up)
    start_hand: Callable | None = None
    #: the tricks and scoring of a hand from the first card (`play_tricks(g, choose)`), its
    #: bidding done by game.py (None when the ruleset's hands are left to the interpreter)
    play_tricks: Callable | None = None


def compiled_hand(rules: Ruleset, players: int) -> CompiledHand:
    """The generated hand of `rules` at `players` seats (kept on the table's facts)."""
    writer = _Writer(rules, players)
    source = writer.module()
    if writer.declined:
        return CompiledHand(source, None, tuple(writer.notes))
    namespace = dict(
        HELPERS,
        EvalError=EvalError,
        SUIT_OF=SUIT_OF,
        STRENGTH_OF=STRENGTH_OF,
        Trick=Trick,
        PlayedTricks=PlayedTricks,
        DealtCards=DealtCards,
        new_trick=tuple.__new__,
        PLAY=Phase.PLAY,
        BIDDING=Phase.BIDDING,
        MAX=MAX_NUMBER,
        NO_TRUMP=NO_TRUMP,
        SPECIAL=SPECIAL,
        ON_TABLE=ON_TABLE,
    )
    from .game import HandResult  # loaded by now: the facts holding this hand are a Game's

    namespace.update(writer.constants, HandResult=HandResult, new_result=tuple.__new__)
    code = compile(source, f"<whistdsl compiled: {rules.name}, {players} players>", "exec")
    exec(code, namespace)  # the source is ours: written above from checked formulas, no file text
    return CompiledHand(
        source, namespace["play_hand"], tuple(writer.notes), namespace.get("play_game_random"), namespace.get("start_hand"), namespace["play_tricks"]
    )


class Piece(NamedTuple):
    """A piece of the generated hand and the rules it supports: the ruleset's fields it plays
    as the interpreter does, each with the values it supports (a test of the ruleset; None: any
    value the ruleset may hold)."""

    name: str
    supports: dict[str, Callable[[Ruleset], bool] | None]


def _trump_named_before_the_bidding(rules: Ruleset) -> bool:
    choice = rules.trump_choice
    return choice is None or not (choice.after_bidding or choice.who == "declarer")


def _only_a_trump_named_before_the_bidding(rules: Ruleset) -> bool:
    """Whether the hand's only decision is a trump a seat names before the bidding (Wizard's
    dealer when a Wizard is turned): the compiled set-up deals and finds the trump, game.py's
    `begin_decisions` asks the seat when the rule says so."""
    return (
        rules.trump_choice is not None
        and _trump_named_before_the_bidding(rules)
        and not (rules.calls or rules.blind_bids or rules.bids_together or rules.auction is not None or rules.skip is not None)
    )


#: The allow-list of the generated hand: each piece with the rules (the ruleset's fields) it
#: supports. A ruleset that gives any other field a value other than its default, or a value a
#: piece does not support, is played by the interpreter alone, every hand: a rule nobody lists
#: here falls back to the interpreter, never played differently by generated code.
PIECES: tuple[Piece, ...] = (
    Piece("what the ruleset is (no rule of play)", dict.fromkeys(
        ("name", "description", "version", "source", "lets", "parameters", "parameter_values", "players_range",
         "players_min", "players_max", "players_default"))),
    Piece("the table, the deck and the schedule (the table's facts: engine/table.py)", dict.fromkeys(
        ("deal_direction", "bidding_direction", "play_direction", "suits", "ranks", "deck_size", "copies", "specials",
         "first_dealer", "sits_out", "kinds", "schedule"))),
    Piece("the set-up: the deal and the trump (start_hand, else game.py)", {
        **dict.fromkeys(("trump_cycle", "turn_up", "trump_none_when", "trump_from", "trump_turned", "trump_seen",
                         "trump_specials", "trump_specials_without", "first_bidder", "first_bidder_choice")),
        "trump_choice": _trump_named_before_the_bidding}),
    Piece("the bidding", {"allowed": None}),
    Piece("the play (the standard trick rules and, for random play, special cards and ordered winner rules written out; trump specials and must_overtrump with them called for each card)", dict.fromkeys(
        ("when_void", "first_lead", "first_lead_choice", "trick_winner", "identical", "always_playable", "special_led"))),
    Piece("the scoring", dict.fromkeys(("points", "bonus", "running"))),
    Piece("the end of the game (game.py's next_hand)", dict.fromkeys(("rank", "wins_outright", "tiebreak", "end"))),
)  # fmt: skip

#: The words for a rule the generated hand does not support (a field not in `PIECES`, or a value
#: its piece does not support); a field not here is named by its own name.
RULE_WORDS = {
    "trump_choice": "a seat names trump after the bidding",
    "calls": "its hands have named calls",
    "blind_bids": "its hands have blind bids",
    "bids_together": "its hands have bids made together",
    "auction": "its hands have an auction",
    "skip": "its hands have seats excused from bidding",
    "super_trumps": "its turned card names super trumps",
}


@cache
def _defaults(kind: type) -> dict[str, object]:
    """Each field of the dataclass `kind` (a Ruleset) and its default value (`_NO_DEFAULT` for
    a field without one)."""
    out: dict[str, object] = {}
    for f in fields(kind):
        if f.default is not MISSING:
            out[f.name] = f.default
        elif f.default_factory is not MISSING:
            out[f.name] = f.default_factory()
        else:
            out[f.name] = _NO_DEFAULT
    return out


_NO_DEFAULT = object()


def why_not_compiled(rules: Ruleset) -> str | None:
    """Why hands of `rules` are played by the interpreter only (None: they are compiled): the
    first rule it holds that no piece of `PIECES` supports."""
    supported: dict[str, Callable[[Ruleset], bool] | None] = {}
    for piece in PIECES:
        supported.update(piece.supports)
    for name, default in _defaults(type(rules)).items():
        if name in supported:
            test = supported[name]
            if test is None or test(rules):
                continue
        elif default is not _NO_DEFAULT and getattr(rules, name) == default:
            continue  # a rule the generated hand does not know, left as by default
        return RULE_WORDS.get(name, f"the rule {name!r} is not compiled")
    return None


def _indent(lines: list[str], by: int) -> list[str]:
    """`lines` of source, indented `by` more spaces."""
    pad = " " * by
    return [pad + line if line else line for line in lines]


class _Writer:
    """Writes the source of `play_hand` for one ruleset and table size."""

    def __init__(self, rules: Ruleset, players: int):
        self.rules, self.players = rules, players
        self.notes: list[str] = []
        self.constants: dict[str, object] = {}
        self.hand_names: dict[str, str] = {}  # a name read of the hand's env -> its local
        self.declined = False

    # ------------------------------------------------------------ names

    def _source(self, formula: Formula, own: dict[str, str]) -> str:
        """The formula as Python: its own names from `own`, the others read of the hand's env
        into locals bound at the hand's start. Raises Untranslatable (and binds nothing)."""
        names = dict(own)
        wanted = {}
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

    # ------------------------------------------------------------ the module

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

    def _binds(self) -> list[str]:
        """The names formulas read of the hand's env, bound to locals at the hand's start."""
        return [f"    {local} = E[{name!r}]" for name, local in sorted(self.hand_names.items())]

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
        probe = _Writer(rules, self.players)  # can the limits and the scoring be written out?
        try:
            for f in formulas:
                probe._source(f, {})
            for f in (rules.points, rules.bonus, *(r.after_hand for r in rules.running)):
                if f is not None:
                    probe._source(f, {})
        except Untranslatable:
            return False
        return True

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

    def _totals_room(self) -> int | None:
        """How large the totals may be at the game loop's entry for no hand's total to reach the
        number limit in the rest of the game, when each hand's points (and bonus) are provably
        whole numbers of a known size (language/codegen.py `whole_number_bound`); else None."""
        rules = self.rules
        each = [whole_number_bound(f, SMALL_NAMES) for f in (rules.points, rules.bonus) if f is not None]
        if not each or None in each:
            return None
        from .table import table_facts

        facts = table_facts(rules, self.players)
        room = MAX_NUMBER - (len(facts.plan) + facts.extra_hands + 1) * sum(each)  # type: ignore[arg-type]
        return room if room > 0 else None

    def _close_in_locals(self) -> list[str]:
        """The hand's end in the game loop: its result in the history (as game.py's
        `record_hand` builds it), then the next hand's set-up in locals, or the position
        written back and game.py goes on (the end of the game, a hand it sets up)."""
        return [
            "    history.append(",
            "        new_result(",
            "            HandResult,",
            "            (",
            "                p.number, p.size, p.kind, mark, setup.extra, dealer, sitting_out, trump, turn_up, dealt,",
            "                tuple(bid_log), tricks, tuple(taken), tuple(points), tuple(bonuses), tuple(totals_after),",
            "                tuple(running_after), rng.getstate() if keep_states else None, SPECIALS,",
            (
                "                tuple(g.choices), tuple(g.calls), tuple(g.blind), tuple(g.excused), g.declarer, g.auction_bid, trump_from,"
                if self.rules.has_decisions  # game.py's begin_decisions keeps the hand's decision fields
                else "                (), (), (), (), None, 0, trump_from,"
            ),
            "            ),",
            "        )",
            "    )",
            "    nxt = index + 1",
            "    if nxt < plain_until and not g.stop_after_hand:  # a hand of the schedule: set up here when plain",
            "        p_next = plan[nxt]",
            "        setup_next = SETUPS.get(nxt)",
            "        if not (setup_next is None or setup_next.plan is not p_next or kind_name != p_next.kind):",
            *(
                [
                    "            kept = NO_TRUMP_KEPT.get(nxt)  # trump.none_when, asked before the deal",
                    "            none_first = kept[1] if kept is not None and kept[0] is setup_next else None",
                    "        else:",
                    "            none_first = None",
                    "        if none_first is not None:",
                ]
                if self.rules.trump_none_when is not None
                else ["            none_first = False"]
            ),
            "            totals = totals_after",
            "            running = running_after",
            "            index, p, setup = nxt, p_next, setup_next",
            *_indent(self._setup_lines(), 8),
            *(_indent(self._decisions_in_locals(), 8) if self.rules.has_decisions else []),
            "            continue",
            "    # the position written back: game.py goes on from here",
            *self._write_position(played=True),
            "    g.totals = totals_after",
            "    g.running = running_after",
            "    g.next_hand()",
            "    break",
        ]

    def _decisions_in_locals(self) -> list[str]:
        """The game loop's set-up of a hand whose only decision is a trump named before the
        bidding: game.py's `begin_decisions` keeps the hand's decision fields; when a seat names
        trump, the position is written back and game.py asks it (the loop is left)."""
        back = [*self._write_position(), "    g.totals = totals", "    g.running = running"]
        return [
            "    key = (index, trump, turn_up)  # the trump rule's condition, remembered (game.py's names_trump)",
            "    known = NAMES_TRUMP.get(key)",
            "    if known is None or known[0] is not setup:",
            *_indent(back, 4),
            "        known = NAMES_TRUMP[key] = (setup, g.names_trump(setup))",
            "    if known[1]:  # a seat names trump: game.py asks it",
            *_indent(back, 4),
            "        g.begin_decisions(setup, True)",
            "        break",
            "    g.begin_decisions(setup, False)  # the hand's decision fields: nobody names trump",
        ]

    # ------------------------------------------------------------ the set-up of a hand

    def _plain_setup(self) -> list[str] | None:
        """The source of `start_hand(g, index)`: game.py's `begin_hand` for a hand of the
        schedule already worked out (its set-up, seat orders and trump env kept on the table's
        facts), of the same kind as the last one, dealt at random with version 1's trump step.
        None when the ruleset's set-up has more (decisions, trump sources, a first bidder chosen
        by a formula, `trump.none_when` reading the turned card): game.py sets those hands up."""
        rules, n = self.rules, self.players
        names_trump = _only_a_trump_named_before_the_bidding(rules)
        if (rules.has_decisions and not names_trump) or rules.trump_from or rules.first_bidder_choice is not None:
            self._note("each hand is set up by game.py (decisions, trump sources or a chosen first bidder)")
            return None
        none_when = rules.trump_none_when
        if none_when is not None and none_when.names & {"turn_up_suit", "turn_up_rank", "turn_up_special"}:
            self._note("each hand is set up by game.py (trump.none_when reads the turned card)")
            return None
        lines = [
            "",
            "def start_hand(g, index):",
            "    # game.py begin_hand's plain case; False (having drawn nothing): game.py sets the hand up",
            "    p = g.plan[index]",
            "    setup = SETUPS.get(index)",
            "    kind = g.kind",
            "    if setup is None or setup.plan is not p or kind.name != p.kind or g.deals or index >= g.scheduled_hands:",
            "        return False",
        ]
        if none_when is not None:
            lines += [
                "    kept = NO_TRUMP_KEPT.get(index)  # trump.none_when, asked before the deal",
                "    if kept is None or kept[0] is not setup:",
                "        return False",
                "    none_first = kept[1]",
            ]
        lines += [
            "    first_dealer = g.first_dealer",
            "    hands = g.hands",
            "    rnd = g.rng.random",
            *self._setup_lines(),
            *self._write_position(),
            *(
                [
                    "    # a seat may name trump (game.py asks it), else the bidding; the trump rule's condition",
                    "    # asked once per hand of the schedule, trump and card turned (game.py's names_trump)",
                    "    key = (index, trump, turn_up)",
                    "    known = NAMES_TRUMP.get(key)",
                    "    if known is None or known[0] is not setup:",
                    "        known = NAMES_TRUMP[key] = (setup, g.names_trump(setup))",
                    "    g.begin_decisions(setup, known[1])",
                ]
                if names_trump
                else []
            ),
            "    return True",
            "",
        ]
        from .table import table_facts  # the facts being built: compiled_hand is their `compiled`

        facts = table_facts(rules, n)
        self.constants.update(
            ORDERS=facts.orders,
            SETUPS=facts.setups,
            NO_TRUMP_KEPT=facts.no_trump,
            HAND_ENVS=facts.hand_envs,
            FULL_DECK=facts.deck,
            DECK_SIZE=len(facts.deck),
            END=rules.end,
            SPECIALS=rules.specials,
        )
        if names_trump:
            self.constants["NAMES_TRUMP"] = {}  # (hand, trump, card turned) -> (its set-up, whether a seat names trump)
        return lines

    def _setup_lines(self) -> list[str]:
        """A plain hand's set-up into locals (`_POSITION`): hand `index` of the plan (`p`), its
        `setup`, and `none_first` (trump.none_when asked before the deal) already found."""
        rules, n = self.rules, self.players
        lines = [
            f"    dealer = rotation_dealer = (first_dealer + {rules.deal_direction} * index) % {n}",
            "    table = ORDERS.get((dealer, setup.dealer_sits_out, None)) or g.seat_orders(dealer, setup.dealer_sits_out)",
            "    sitting_out = table.sitting_out",
            "    order = table.bidding_order",
            "    position = table.position",
            "    play_orders = table.play_orders",
            "    first_leader = table.first_leader",
            "    size = p.size",
            "    # the deal: a partial Fisher-Yates shuffle, each card to its seat as it is drawn (trump.py deal_from)",
            "    d = list(FULL_DECK)",
            "    i = 0",
            "    for seat in table.deal_order:",
            "        h = hands[seat]",
            "        first = i",
            "        for i in range(first, first + size):",
            "            j = i + int(rnd() * (DECK_SIZE - i))",
            "            c = d[j]",
            "            d[j] = d[i]",
            "            d[i] = c",
            "            h[SUIT_OF[c]].append(c)",
            "        i = first + size",
            f"    dealt = DealtCards(d, table.deal_order, size, {n})  # each seat's cards read off the deck when asked",
            "    # version 1 turns the next card whenever one is left (trump.py draw)",
            "    turned = None",
            "    if i < DECK_SIZE:",
            "        j = i + int(rnd() * (DECK_SIZE - i))",
            "        turned = d[j]",
            "        d[j] = d[i]",
            "        d[i] = turned",
            "    turn_up = None",
            "    turn_up_place = ''",
            "    trump_from = ''",
        ]
        if rules.trump_cycle:
            self.constants["CYCLE"] = tuple(suit_number(s) for s in rules.trump_cycle)
            find = ["trump = CYCLE[(p.number - 1) % len(CYCLE)]"]
        elif rules.turn_up:
            find = [
                "if turned is None:",
                "    trump = NO_TRUMP",
                "else:",
                "    trump = NO_TRUMP if SUIT_OF[turned] == SPECIAL else SUIT_OF[turned]",
                "    turn_up = turned",
                "    turn_up_place = ON_TABLE",
            ]
        else:
            find = ["trump = NO_TRUMP"]
        if rules.trump_none_when is not None:
            lines += ["    if none_first:", "        trump = NO_TRUMP", "    else:", *["        " + line for line in find]]
        else:
            lines += ["    " + line for line in find]
        lines += [
            f"    bids = [None] * {n}",
            "    bid_log = []",
            f"    taken = [0] * {n}",
            "    # the hand's env, as game.py set_trump keeps it per (hand, trump)",
            "    cached = HAND_ENVS.get((index, trump))",
            "    if cached is None:  # the first game at this table to reach it: game.py works it out",
            *[f"        g.{attribute} = {local}" for attribute, local in self._POSITION],
            "        g.set_trump(trump)",
            "        cached = (g.hand_env, g.bid_memo_key, g.score_memo_key)",
            "    E = cached[0]",
        ]
        return lines

    # ------------------------------------------------------------ bidding

    def _bidding(self, random: bool, in_locals: bool = False) -> list[str]:
        """The bidding (`in_locals`: in the game loop, which writes the position back itself)."""
        rules = self.rules
        formulas = [f for f in (rules.allowed, *(k.allowed for k in rules.kinds.values())) if f is not None]
        kinds_differ = any(k.allowed is not None for k in rules.kinds.values())
        own = {
            "bid": "b",
            "bids_so_far": "so_far",
            "bids_made": "k",
            "is_last": "(k == last)",
            "is_first": "(k == 0)",
            "position": "(k + 1)",
            **_SEAT_FACTS,
            **{name: f"running[seat][{name!r}]" for name in rules.running_names},
        }
        test = None
        if formulas and not kinds_differ:
            try:
                test = " and ".join(self._source(f, own) for f in formulas)
            except Untranslatable as e:
                self._note(f"bidding.allowed is called as a formula ({e} is not written out)")
        elif kinds_differ:
            self._note("the bidding limits differ by kind of hand: the interpreter works out the legal bids")
        lines = [
            "    # the bidding, in bidding order",
            "    last = len(order) - 1",
            "    so_far = 0",
            "    for k, seat in enumerate(order):",
        ]
        if not formulas:
            self.constants["ALL_BIDS"] = _AllBids()
            lines[-1:-1] = ["    legal = ALL_BIDS[size]  # no bidding limits: every bid, for every seat"]
        elif test is not None:
            # the limits are pure: the legal bids are remembered by the values they read, in
            # two steps: this hand's memo (by what is the same for every bid of the hand), then
            # the bid's entry in it (by what changes from bid to bid)
            read = sorted(set().union(*(f.names for f in formulas)) - {"bid"})
            per_bid = [name for name in read if name in own]
            per_hand = "".join(f"{self.hand_names[name]}, " for name in read if name not in own)
            self.constants["LEGAL_BIDS"] = Memo(4096)
            if set(per_bid) <= self._BY_TURN:  # a whole number: the bids so far, and the turn
                key = f"so_far * {self.players} + k"
            else:
                key = "(" + "".join(f"{own[name]}, " for name in per_bid) + ")"
            lines[-1:-1] = [
                f"    hand_key = (size, last, {per_hand})",
                "    legal_of = LEGAL_BIDS.get(hand_key)",
                "    if legal_of is None:",
                "        legal_of = LEGAL_BIDS.keep(hand_key, {})",
            ]
            lines += [
                f"        key = {key}",
                "        legal = legal_of.get(key)",
                "        if legal is None:",
                "            try:",
                f"                legal = [b for b in range(size + 1) if {test}]",
                "            except EvalError:",
                "                legal = None",
                "            if not legal:  # the interpreter reports the rule error, naming the formula",
                *(_indent(self._write_position(), 12) if in_locals else []),
                "                g.to_act, g.bids_so_far, g.legal_bids_memo = seat, so_far, None",
                "                g.allowed_bids()",
                "                raise AssertionError('the interpreter found legal bids where the compiled hand found none')",
                "            legal_of[key] = legal",
            ]
        else:
            lines += [
                "        g.to_act, g.bids_so_far, g.legal_bids_memo = seat, so_far, None",
                "        legal = g.allowed_bids()  # the interpreter's limits (formulas not written out)",
            ]
        if random:
            lines += ["        b = legal[int(rnd() * len(legal))]"]
        else:
            lines += [
                "        g.to_act, g.bids_so_far, g.legal_bids_memo = seat, so_far, legal  # the position a player may look at",
                "        b = choose[seat](legal)",
                "        if type(b) is not int or b not in legal:",
                "            raise g.bid_refusal(b, legal)",
            ]
        lines += [
            "        bids[seat] = b",
            "        bid_log.append((seat, b))",
            "        so_far += b",
        ]
        if in_locals:
            return lines
        lines += [
            "    g.bids_so_far = so_far",
            "    g.legal_bids_memo = None",
        ]
        if rules.first_lead_choice is None:  # game.py begin_play, with the leader the seat orders name
            lines += ["    g.phase = PLAY", "    g.decision = None", "    g.to_act = g.leader", "    g.trick_order = g.play_orders[g.leader]"]
        else:
            lines += ["    g.begin_play()"]
        return lines

    #: the bidding's own names that follow from the bids so far and the turn (`k`) alone
    _BY_TURN = frozenset({"bids_so_far", "bids_made", "is_last", "is_first", "position"})

    def _note(self, note: str) -> None:
        if note not in self.notes:
            self.notes.append(note)

    # ------------------------------------------------------------ the tricks

    def _play(self, random: bool, in_locals: bool = False) -> list[str]:
        """The tricks (`in_locals`: in the game loop, whose locals hold the seat orders)."""
        rules = self.rules
        if in_locals:
            lines = ["    # the tricks", "    leader = first_leader"]
        else:
            lines = [
                "    # the tricks",
                "    leader = g.leader",
                "    play_orders = g.play_orders",
                "    taken = g.taken",
            ]
        if not (random and (rules.standard_tricks or self._special_tricks_written_out())):  # these keep PlayedTricks instead
            lines += ["    tricks = g.tricks"]
        if not rules.standard_tricks and random and self._special_tricks_written_out():
            lines += self._special_tricks_random(in_locals)
        elif not rules.standard_tricks:
            if self._special_tricks_written_out():
                self._note(
                    "special cards or trick rules beyond the standard: written out for random play; players choosing their own cards call the trick rules (engine/tricks.py) for each card"
                )
            else:
                self._note("special cards or trick rules beyond the standard: the trick rules (engine/tricks.py) are called for each card")
            lines += self._general_tricks(random)
        elif random:
            lines += self._standard_tricks_random(rules.when_void)
        else:
            lines += self._standard_tricks(rules.when_void)
        if in_locals:
            return [line.replace("    g.tricks = PlayedTricks(", "    tricks = PlayedTricks(") for line in lines]
        lines += ["    g.trick = []", "    g.legal_cards_memo = None"]
        return lines

    #: a uniformly random card of hand `h` holding `left` cards: the same card as the random
    #: player's pick from the hand's cards listed suit by suit
    #: The start of a hand's play, standard or with special cards: each trick's seats in order.
    _TRICKS_HEAD = (
        "    played = []  # every card of the hand, in playing order",
        "    wins = []  # each trick's winner",
        "    first_leader = leader",
        "    for t in range(size):",
        "        left = size - t  # every playing seat holds this many cards now",
        "        seats = play_orders[leader]",
    )
    _ANY_CARD = [
        "x = int(rnd() * left)",
        "for s in SUITS:",
        "    lst = h[s]",
        "    if x < len(lst):",
        "        c = lst.pop(x)",
        "        break",
        "    x -= len(lst)",
    ]

    def _standard_tricks_random(self, when_void: str) -> list[str]:
        """Random play of standard tricks: follow suit; when void, the ruleset's rule; the highest
        trump, else the highest card of the led suit (cards of one suit compare by value)."""
        self.constants["SUITS"] = (0, 1, 2, 3)
        any_card = lambda indent: [" " * indent + line for line in self._ANY_CARD]  # noqa: E731
        lines = [
            *self._TRICKS_HEAD,
            "        h = hands[leader]",
            *any_card(8),
            *(["        start = len(played)  # the trick's cards: played[start:], in the order of `seats`"] if when_void == "must_overtrump" else []),
            "        played.append(c)",
            "        led = win_suit = s",
            "        win_card = c",
            "        win = leader",
            "        for seat in seats[1:]:",
            "            h = hands[seat]",
            "            lst = h[led]",
            "            if lst:  # must follow suit",
            "                c = lst.pop(int(rnd() * len(lst)))",
            "                played.append(c)",
            "                if win_suit == led and c > win_card:",
            "                    win, win_card = seat, c",
            "                continue",
        ]
        if when_void != "free":
            lines += ["            lst = h[trump] if trump >= 0 else None", "            if lst:"]
            if when_void == "must_overtrump":
                lines += [
                    "                best = max((x for x in played[start:] if SUIT_OF[x] == trump), default=-1)  # must over-trump if it can",
                    "                legal = [x for x in lst if x > best] or lst",
                    "                c = legal[int(rnd() * len(legal))]",
                    "                lst.remove(c)",
                ]
            else:
                lines += ["                c = lst.pop(int(rnd() * len(lst)))  # must trump"]
            lines += [
                "                played.append(c)",
                "                if win_suit != trump or c > win_card:",
                "                    win, win_card, win_suit = seat, c, trump",
                "                continue",
            ]
        lines += [
            "            # any card",
            *any_card(12),
            "            played.append(c)",
            "            if (s == win_suit and c > win_card) or (s == trump and win_suit != trump):",
            "                win, win_card, win_suit = seat, c, s",
            "        wins.append(win)",
            "        taken[win] += 1",
            "        leader = win",
            "    g.tricks = PlayedTricks(first_leader, play_orders, played, wins)  # its Tricks built when read",
        ]
        return lines

    def _standard_tricks(self, when_void: str) -> list[str]:
        """Standard tricks with the players' own choices (each checked against the legal cards)."""
        lines = [
            "    for t in range(size):",
            "        trick = g.trick = []",
            "        seats = play_orders[leader]",
            "        h = hands[leader]",
            "        legal = h[0] + h[1] + h[2] + h[3]",
            "        g.to_act, g.legal_cards_memo = leader, None  # the position a player may look at",
            "        c = choose[leader](legal)",
            "        if c not in legal:",
            "            raise g.card_refusal(leader, c)",
            "        s = SUIT_OF[c]",
            "        h[s].remove(c)",
            "        trick.append((leader, c))",
            "        led = win_suit = s",
            "        win_card = c",
            "        win = leader",
            "        for seat in seats[1:]:",
            "            h = hands[seat]",
            "            if h[led]:",
            "                legal = h[led]  # must follow suit",
        ]
        if when_void == "must_overtrump":
            lines += [
                "            elif trump >= 0 and h[trump]:  # void: must over-trump if it can, else trump",
                "                best = max((x for _, x in trick if SUIT_OF[x] == trump), default=-1)",
                "                legal = [x for x in h[trump] if x > best] or h[trump]",
            ]
        elif when_void != "free":
            lines += [
                "            elif trump >= 0 and h[trump]:  # void: must trump",
                "                legal = h[trump]",
            ]
        lines += [
            "            else:  # any card",
            "                legal = h[0] + h[1] + h[2] + h[3]",
            "            g.to_act, g.legal_cards_memo = seat, None",
            "            c = choose[seat](legal)",
            "            if c not in legal:",
            "                raise g.card_refusal(seat, c)",
            "            s = SUIT_OF[c]",
            "            h[s].remove(c)",
            "            trick.append((seat, c))",
            "            if (s == win_suit and c > win_card) or (s == trump and win_suit != trump):",
            "                win, win_card, win_suit = seat, c, s",
            "        tricks.append(new_trick(Trick, (leader, tuple(trick), win)))",
            "        taken[win] += 1",
            "        leader = win",
        ]
        return lines

    def _special_tricks_written_out(self) -> bool:
        """Whether random play of this ruleset's general trick rules (special cards, ordered
        winner rules) is written out: all but specials that are trumps (`trump.specials`) and a
        player void who must over-trump, which call engine/tricks.py for each card."""
        return not self.rules.trump_specials and self.rules.when_void != "must_overtrump"

    def _special_tricks_random(self, in_locals: bool = False) -> list[str]:
        """Random play of the general trick rules without trump specials, as engine/tricks.py's
        general path plays them: the suit to follow is set by the first suited card, unless a
        special that does not pass the lead on (`play.special_led`) comes first (nothing to
        follow); a player who can follow may add the specials playable at any time; the winner
        is the pick of the first `trick.winner` rule that matches a card, each rule's pick kept
        as the cards come. Each card is drawn as the random player draws it from
        engine/tricks.py's legal cards, listed in the same order. The play is kept
        flat, as for standard tricks (`PlayedTricks`)."""
        rules = self.rules
        index = {s.name: i for i, s in enumerate(rules.specials)}
        has_specials = bool(rules.specials)
        playable = sorted(16 * SPECIAL + index[n] for n in rules.always_playable if n in index)
        every = has_specials and len(playable) == len(rules.specials)  # every special may be played at any time
        passes = frozenset(16 * SPECIAL + index[n] for n, how in rules.special_led if how == "pass" and n in index)
        self.constants.update(SUITS=(0, 1, 2, 3, SPECIAL) if has_specials else (0, 1, 2, 3), PASSES=passes, PLAYABLE=frozenset(playable))
        if not has_specials or not playable:
            extra = None
        elif every:
            extra = "h[SPECIAL]"
        else:
            extra = "[x for x in h[SPECIAL] if x in PLAYABLE]"

        # a card is taken out of its list by its place, or by its value where the list may hold
        # identical cards (copies, a special's count): then the first of them goes, as the
        # interpreter takes it, which keeps the lists in the same order
        from .table import table_facts  # the facts being built: compiled_hand is their `compiled`

        deck = table_facts(rules, self.players).deck
        suited = [c for c in deck if SUIT_OF[c] != SPECIAL]
        specials = [c for c in deck if SUIT_OF[c] == SPECIAL]
        suited_once, specials_once = len(set(suited)) == len(suited), len(set(specials)) == len(specials)

        def take(at: str, once: bool, indent: int) -> list[str]:
            pad = " " * indent
            return [f"{pad}c = lst.pop({at})"] if once else [f"{pad}c = lst[{at}]", f"{pad}lst.remove(c)"]

        def draw(follow: str) -> list[str]:
            """A card of the hand's list `follow` (suit `s`), or of the specials playable with it."""
            if extra is None:
                return [f"            lst = h[{follow}]", *take("int(rnd() * len(lst))", suited_once, 12), f"            s = {follow}"]
            return [
                f"            lst = h[{follow}]",
                "            m = len(lst)",
                f"            more = {extra}",
                "            x = int(rnd() * (m + len(more)))",
                "            if x < m:",
                *take("x", suited_once, 16),
                f"                s = {follow}",
                "            else:",
                *(
                    ["                c = more.pop(x - m)"]
                    if every and specials_once
                    else ["                c = more[x - m]", "                h[SPECIAL].remove(c)"]
                ),
                "                s = SPECIAL",
            ]

        start, update, decide = self._winner_lines(index)
        lines = [
            *self._TRICKS_HEAD,
            "        led = -3  # the suit to follow: not set yet (no card, or led specials that pass the lead on)",
            *start,
            "        for seat in seats:",
            "            h = hands[seat]",
            "            if led >= 0 and h[led]:  # must follow suit, or play a special playable at any time",
            *_indent(draw("led"), 4),
        ]
        if rules.when_void != "free":  # must_trump (must_overtrump calls engine/tricks.py)
            lines += [
                "            elif led >= 0 and trump >= 0 and h[trump]:  # void: must trump, or play such a special",
                *_indent(draw("trump"), 4),
            ]
        lines += [
            "            else:  # any card",
            "                x = int(rnd() * left)",
            "                for s in SUITS:",
            "                    lst = h[s]",
            "                    m = len(lst)",
            "                    if x < m:",
            *take("x", suited_once and specials_once, 24),
            "                        break",
            "                    x -= m",
            "            played.append(c)",
        ]
        suited_lines = ["if led == -3:", "    led = s", *update["suited"]]
        if has_specials:
            lines += [
                "            if s == SPECIAL:",
                "                if led == -3 and c not in PASSES:",
                "                    led = -2  # a special led that frees the trick: nothing to follow",
                *_indent(update["special"], 16),
                "            else:",
                *_indent(suited_lines, 16),
            ]
        else:
            lines += _indent(suited_lines, 12)
        lines += [
            *decide,
            "        if win is None:  # no rule picks a card: the interpreter names the rule",
            *(
                [
                    "            tricks = PlayedTricks(first_leader, play_orders, played[: len(played) - len(seats)], wins)",
                    *_indent(self._write_position(played=True), 8),
                ]
                if in_locals
                else ["            g.tricks = PlayedTricks(first_leader, play_orders, played[: len(played) - len(seats)], wins)"]
            ),
            "            g.trick = list(zip(seats, played[len(played) - len(seats) :]))",
            "            win = g.trick_winner(g.trick)",
            "        wins.append(win)",
            "        taken[win] += 1",
            "        leader = win",
            "    g.tricks = PlayedTricks(first_leader, play_orders, played, wins)  # its Tricks built when read",
        ]
        return lines

    def _winner_lines(self, index: dict[str, int]) -> tuple[list[str], list[str], list[str]]:
        """The `trick.winner` rules kept as a trick's cards come, as engine/tricks.py's general
        winner picks without trump specials: (the start of a trick, the lines after each card
        `c` of suit `s` played by `seat`, by the card's kind, "special" or "suited" (a special
        card matches only a rule naming it; a suited card only the others), the winner `win` at
        its end: None when no rule picks a card). Rule k's pick so far is `wk` (a seat, or None),
        its card's strength `bk`."""
        rules = self.rules
        later = rules.identical == "later"
        start: list[str] = []
        update: dict[str, list[str]] = {"special": [], "suited": []}  # by the card's kind
        decide: list[str] = []
        for k, rule in enumerate(rules.trick_winner):
            among, pick = rule.among, rule.pick
            w, b, bc = f"w{k}", f"b{k}", f"c{k}"
            start.append(f"        {w} = None  # {rule.text}")
            if among == "trump":
                test, special = "s == trump", False
            elif among == "led":
                test, special = "s == led", False
            elif among == "suited":
                test, special = "True", False
            else:
                test, special = f"c == {16 * SPECIAL + index[among]}", True
            if special and pick in ("highest", "lowest"):  # identical cards: the earlier, or the later
                pick = "last" if later else "first"
            kind = "special" if special else "suited"
            if pick == "first":
                update[kind] += [f"if {w} is None and {test}:  # {rule.text}", f"    {w} = seat"]
            elif pick == "last":
                update[kind] += [f"if {test}:  # {rule.text}", f"    {w} = seat"]
            else:
                sign = "" if pick == "highest" else "-"
                better = f"strength > {b}" + (f" or (strength == {b} and c == {bc})" if later else "")
                update[kind] += [
                    f"if {test}:  # {rule.text}",
                    f"    strength = {sign}STRENGTH_OF[c]",
                    f"    if {w} is None or {better}:",
                    f"        {w}, {b}, {bc} = seat, strength, c" if later else f"        {w}, {b} = seat, strength",
                ]
            decide.append(f"        {'if' if k == 0 else 'elif'} {w} is not None:")
            decide.append(f"            win = {w}")
        decide += ["        else:", "            win = None"] if decide else ["        win = None"]
        return start, update, decide

    def _general_tricks(self, random: bool) -> list[str]:
        """Special cards and ordered winner rules: engine/tricks.py's general trick rules, called."""
        if random:
            pick = ["                c = legal[int(rnd() * len(legal))]"]
        else:
            pick = [
                "                g.to_act, g.legal_cards_memo = seat, None  # the position a player may look at",
                "                c = choose[seat](legal)",
                "                if c not in legal:",
                "                    raise g.card_refusal(seat, c)",
            ]
        return [
            "    legal_cards = g.tricks_play.legal",
            f"    when_void = {self.rules.when_void.value!r}",
            "    for t in range(size):",
            "        trick = g.trick = []",
            "        for seat in play_orders[leader]:",
            "            h = hands[seat]",
            "            legal = legal_cards(h, trick, trump, when_void)",
            *[line[4:] for line in pick],
            "            h[SUIT_OF[c]].remove(c)",
            "            trick.append((seat, c))",
            "        win = g.trick_winner(trick)  # names the rule when none picks a card",
            "        tricks.append(new_trick(Trick, (leader, tuple(trick), win)))",
            "        taken[win] += 1",
            "        leader = win",
        ]

    # ------------------------------------------------------------ scoring

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
