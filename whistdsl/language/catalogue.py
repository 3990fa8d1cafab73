"""The catalogue: every name a formula may use, per context, with its type and meaning.

This is the one table of the expression language's vocabulary. The checker resolves names
against it, the engine fills exactly these names, and the documentation's language reference
(docs/expressions.md) is generated from it (`whistdsl reference`), so the three cannot drift
apart.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, StrEnum


class Type(str, Enum):
    NUMBER = "number"
    BOOL = "yes/no"
    SUIT = "suit"
    TEXT = "text"
    LIST = "list of numbers"
    SEATS = "set of seats"  # read only by an aggregate: count(seats, made)
    ANY = "any"  # only while checking: the type of something already reported as wrong

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class Variable:
    name: str
    type: Type
    doc: str


@dataclass(frozen=True)
class Context:
    """Where a formula is written, and which names it sees there."""

    name: str
    where: str
    doc: str
    variables: tuple[Variable, ...]
    sees_running: bool = False  # the ruleset's own running values (per player)
    sees_lets: bool = True  # the ruleset's named values (`let`), fixed once per game
    #: the facts of one seat that an aggregate's per-seat formula reads of every seat of its set
    #: (the ruleset's running values too, where the context sees them); other names are table-wide
    per_seat: tuple[str, ...] = ()
    #: per-seat facts known only of the seats of `earlier` (in bidding: the bids already made)
    earlier_only: tuple[str, ...] = ()
    #: facts of this seat that an aggregate cannot read of the others (in bidding: its turn;
    #: in the bonus: its points, computed seat by seat)
    own_only: tuple[str, ...] = ()
    #: the seats a formula may read one fact of by their role (`dealer.bid`, ROLES), in this
    #: context; what it may read of them is `per_seat` (less `earlier_only`)
    roles: tuple[str, ...] = ()

    def seat_sets(self) -> tuple[str, ...]:
        """The seat sets this context knows (`seats`, `others`, ...)."""
        return tuple(v.name for v in self.variables if v.type is Type.SEATS)

    #: the ruleset's declared parameters (`parameters:`), fixed once per game from their default
    #: or `--set`; every context sees them, except where a built-in name of the context is the
    #: same (in `scoring.points`, `tricks` is always the tricks taken)
    sees_parameters: bool = True

    def variable(self, name: str) -> Variable | None:
        for v in self.variables:
            if v.name == name:
                return v
        return None


N, B, S, T = Type.NUMBER, Type.BOOL, Type.SUIT, Type.TEXT
SEATS = Type.SEATS

_PLAYERS = Variable("players", N, "players at the table")
_DECK_SIZE = Variable("deck_size", N, "cards in the deck after stripping")
_HAND = (
    _PLAYERS,
    _DECK_SIZE,
    Variable("hand_number", N, "this hand's number, 1 for the first"),
    Variable("hand_size", N, "cards dealt to each playing seat this hand"),
    Variable("hands", N, "hands in the schedule (tie-break hands not counted); with `end`, the cap `end.hands`"),
    Variable("kind", T, 'this hand\'s kind, e.g. "normal" or a name from `kinds`'),
    Variable("extra", B, "this is a tie-break hand played after the schedule"),
)
_PLAYING = (
    Variable("playing", N, "seats that play this hand (players less any who sit out)"),
    Variable("cards_left", N, "cards left undealt after the deal"),
)
_TRUMP = (Variable("trump", S, "this hand's trump suit, or none"),)
#: the card turned for trump (`trump.turn_up`, `trump.from`: the next card, a card turned before
#: the deal, the dealer's last card)
_TURNED = (
    Variable("turn_up_suit", S, "the suit of the card turned for trump; none for a special card or no card turned"),
    Variable("turn_up_rank", T, 'the rank of the suited card turned for trump (e.g. "Q", "T"); "" otherwise'),
    Variable("turn_up_special", T, 'the special card turned for trump, by name (e.g. "wizard"); "" otherwise'),
)
_SEAT = (
    Variable("total", N, "this player's running total before this hand"),
    Variable("is_dealer", B, "this player dealt this hand"),
    Variable("position", N, "this player's place in the bidding order, 1 = bids first"),
)
_BID_NUMBER = Variable("bid", N, "this player's bid (a named call: the number it counts as)")


class Read(StrEnum):
    """How a seat fact is read of the Game's attribute (`SeatFact.state`)."""

    SEAT = "seat"  # a list by seat: state[seat]
    IS_SEAT = "is_seat"  # a seat: seat == state
    HAND = "hand"  # one value for every seat


class Stage(StrEnum):
    """The stages of a hand whose formulas read seat facts, in order: from one on, a fact is seen."""

    SKIP = "skip"  # the skip (`decisions`, `skip`): the auction is over
    BIDDING = "bidding"  # the bidding, the first lead and the scoring
    SCORING = "scoring"  # the scoring contexts only


class Row(StrEnum):
    """When a seat's row (what an aggregate reads of it) holds a seat fact."""

    ALWAYS = "always"  # before the seat has bid too
    BID = "bid"  # once the seat has bid (in the bidding, of `earlier` only)
    RESULTS = "results"  # once the hand is played
    NEVER = ""  # never: a fact of the hand, not of the seat


@dataclass(frozen=True)
class SeatFact:
    """A fact of one seat that the hand's decisions make (a named call, a blind bid, the auction,
    a seat excused from bidding, a declaration): written once, in SEAT_FACTS below, and read from
    there by the catalogue's contexts, the environments (language/environment.py), the engine
    (engine/game.py reads it of its `state` attribute; engine/table.py, engine/phases/), the
    compiled hand (engine/compiled/base.py) and lint (rules/targets.py, rules/domain.py)."""

    name: str
    type: Type
    doc: str
    #: its value when the hand has no such decision (and in the compiled hand, which has none:
    #: written there as `repr(default)`)
    default: str | bool | int
    #: the Game's attribute it is read from (engine/state.py), and how (`Read`)
    state: str
    read: Read = Read.SEAT
    #: the first stage of the hand whose formulas read it
    seen_from: Stage = Stage.BIDDING
    #: when a seat's row (what an aggregate reads of it) holds it
    row: Row = Row.BID
    #: lint's words for a case that reads it: with a value other than its default (`{}` the
    #: value) and with its default; ("", "") when another fact's words say it
    words: tuple[str, str] = ("", "")

    @property
    def variable(self) -> Variable:
        return Variable(self.name, self.type, self.doc)


#: The facts of a seat made by the hand's decisions, in the order the contexts list them.
SEAT_FACTS: tuple[SeatFact, ...] = (
    SeatFact("call", T, 'the named call this player made, e.g. "nil" (`decisions`, `calls`); "" for a number bid', "", "calls"),
    SeatFact(
        "blind",
        B,
        "this player chose to bid blind, before looking at its cards (`decisions`, `blind: may`)",
        False,
        "blind",
        words=("a blind bid", "not blind"),
    ),
    SeatFact(
        "excused",
        B,
        "this player was excused from bidding this hand (`decisions`, `skip`): its bid is 0, made for it",
        False,
        "excused",
        words=("excused from bidding", "not excused"),
    ),
    SeatFact(
        "is_declarer",
        B,
        "this player won the auction: the declarer (`decisions`, `auction`); false without one",
        False,
        "declarer",
        read=Read.IS_SEAT,
        seen_from=Stage.SKIP,
        row=Row.ALWAYS,
        words=("the declarer", "not the declarer"),
    ),
    SeatFact(
        "auction_bid",
        N,
        "the declarer's winning bid in the auction, its contract; 0 when nobody won an auction",
        0,
        "auction_bid",
        read=Read.HAND,
        seen_from=Stage.SKIP,
        row=Row.NEVER,
        words=("the auction won with {}", "no declarer"),
    ),
    SeatFact(
        "declared",
        T,
        'the declaration this player made before the bidding, e.g. "void" (`decisions`, `declare`); "" for none',
        "",
        "declared",
        seen_from=Stage.SCORING,
        row=Row.RESULTS,
        words=("declared {}", "no declaration"),
    ),
    #: a named call of the auction (`decisions: - name: auction, calls:`): Estimation's dash, a double
    SeatFact(
        "auction_call",
        T,
        'the named call this player made in the auction, e.g. "dash" or "double" (`decisions`, auction `calls`); "" for none',
        "",
        "auction_calls",
        row=Row.ALWAYS,
        words=("the call {} in the auction", "no call in the auction"),
    ),
)


def seat_facts_seen(stage: Stage) -> tuple[SeatFact, ...]:
    """The SEAT_FACTS a formula reads in `stage`: those seen from it or from an earlier one."""
    stages = list(Stage)
    return tuple(f for f in SEAT_FACTS if stages.index(f.seen_from) <= stages.index(stage))


def seat_facts_in_rows(row: Row) -> tuple[SeatFact, ...]:
    """The SEAT_FACTS a seat's row holds at `row` (ALWAYS: before its bid, BID, RESULTS)."""
    rows = [Row.ALWAYS, Row.BID, Row.RESULTS]
    return tuple(f for f in SEAT_FACTS if f.row in rows[: rows.index(row) + 1])


def _variables(stage: Stage) -> tuple[Variable, ...]:
    return tuple(f.variable for f in seat_facts_seen(stage))


_ROW_NAMES = tuple(f.name for f in seat_facts_in_rows(Row.BID))  # what the bidding reads of the seats
_ALL_SEATS = Variable("seats", SEATS, "every seat that plays this hand, in bidding order (a seat set, for aggregates)")
_OTHERS = Variable("others", SEATS, "every seat that plays this hand but this one, in bidding order (a seat set)")
_EARLIER = Variable("earlier", SEATS, "the seats that bid before this one this hand, in bidding order (a seat set)")
_LATER = Variable("later", SEATS, "the seats that bid after this one this hand, in bidding order (a seat set)")
_SEAT_SETS = (_ALL_SEATS, _OTHERS, _EARLIER, _LATER)
#: what an aggregate reads of each seat, by context
_PLACE_FACTS = ("total", "is_dealer", "position")
#: what the `redeal` context reads of each seat's cards, as dealt (environment.py `dealt_facts`)
_DEALT_FACTS = ("trumps", "longest", "shortest")
_RESULT_FACTS = ("bid", *(f.name for f in seat_facts_in_rows(Row.RESULTS)), "tricks", "made", "over", "under", "diff")
ME = "me"  # the role of this seat itself (ROLES)
#: the roles (ROLES) a context that knows every bid may read
_ALL_ROLES = (ME, "dealer", "first_bidder", "last_bidder", "highest_bidder")
_RESULT = (
    Variable("tricks", N, "tricks this player took"),
    Variable("made", B, "tricks == bid: the contract was made exactly"),
    Variable("over", B, "tricks > bid"),
    Variable("under", B, "tricks < bid"),
    Variable("diff", N, "abs(bid - tricks)"),
)

#: The player range: fixed before anything else of a game, so its formulas read the parameters
#: alone. Kept out of CONTEXTS (whose contexts are the formulas of a game at a table of some
#: size), but in the reference with them.
TABLE = Context(
    "table",
    "players.min, players.max, players.default",
    "the player range, fixed from the parameters alone (a number, or a formula of parameters)",
    (),
    sees_lets=False,
)

#: A number parameter's range written as a formula (`max: 52 // players`): known once the table
#: is, so it reads the player count and the parameters declared before it. Kept out of CONTEXTS
#: like `table`, but in the reference with them.
PARAMETER_RANGE = Context(
    "parameter_range",
    "parameters.*.min, parameters.*.max",
    "a number parameter's range, once the table is known: the player count and the parameters declared before it",
    (_PLAYERS,),
    sees_lets=False,
)

CONTEXTS: dict[str, Context] = {
    c.name: c
    for c in (
        Context("setup", "deck.size", "fixed once per game, from the player count", (_PLAYERS,), sees_lets=False),
        Context(
            "let",
            "let.*",
            "named values, once per game, in order: each sees the ones before it",
            (_PLAYERS, _DECK_SIZE),
        ),
        Context(
            "schedule",
            "schedule, tiebreak.hands, tiebreak.cards, end.hands",
            "the list of hand sizes, fixed once per game",
            (_PLAYERS, _DECK_SIZE),
        ),
        Context("hand", "dealer.sits_out", "once per hand, before the deal", _HAND),
        Context(
            "deal",
            "trump.none_when",
            "once per hand, once it is known who plays; when it reads the turned card, once that card is turned",
            _HAND + _PLAYING + _TURNED,
        ),
        Context(
            "trump_choice",
            "decisions.when",
            "once per hand, after the deal: does a seat name trump this hand?",
            _HAND
            + _PLAYING
            + (
                Variable("trump", S, "the trump suit the `trump` rule gives this hand, or none"),
                *_TURNED,
            ),
        ),
        Context(
            "redeal",
            "redeal.when",
            "once per hand, once the cards are dealt and trump is known: is the hand dealt again?",
            _HAND
            + _PLAYING
            + _TRUMP
            + (
                Variable(
                    "seats",
                    SEATS,
                    "every seat that plays this hand, in bidding order, with the cards it was dealt (a seat set): any(seats, trumps == 0)",
                ),
            ),
            per_seat=(*_DEALT_FACTS, *_PLACE_FACTS),
            roles=("dealer", "first_bidder", "last_bidder"),
        ),
        Context(
            "declare",
            "decisions.choices.*",
            "once per playing seat and choice, before the bidding: may this player make this declaration?",
            _HAND
            + _PLAYING
            + _TRUMP
            + _SEAT
            + (
                Variable("trumps", N, "this player's cards of the trump suit (0 without trump)"),
                Variable("longest", N, "the cards of this player's longest suit"),
                Variable("shortest", N, "the cards of this player's shortest suit (0: a void)"),
            ),
            sees_running=True,
        ),
        Context(
            "auction",
            "decisions.min",
            "once per hand, before the auction: the lowest bid of the auction",
            _HAND + _PLAYING,
        ),
        Context(
            "skip",
            "decisions.skip",
            "once per playing seat, at its turn to bid: is this seat excused from bidding?",
            _HAND + _PLAYING + _TRUMP + _SEAT + _variables(Stage.SKIP),
            sees_running=True,
        ),
        Context(
            "bidding",
            "bidding.allowed, kinds.*.allowed",
            "once per possible bid: may this player bid `bid` now?",
            _HAND
            + _PLAYING
            + _TRUMP
            + _SEAT
            + (_BID_NUMBER, *_variables(Stage.BIDDING))
            + (
                Variable("bids_so_far", N, "sum of the bids already made this hand"),
                Variable("bids_made", N, "how many players have bid before this one"),
                Variable("is_last", B, "this player bids last this hand"),
                Variable("is_first", B, "this player bids first this hand"),
            )
            + _SEAT_SETS,
            sees_running=True,
            per_seat=("bid", *_ROW_NAMES, *_PLACE_FACTS),
            earlier_only=("bid", *(f.name for f in SEAT_FACTS if f.row == Row.BID)),
            own_only=("bids_made", "is_last", "is_first"),
            roles=(ME, "dealer", "first_bidder", "last_bidder"),
        ),
        Context(
            "scoring",
            "scoring.points",
            "once per playing seat after the hand; running values are as before this hand",
            _HAND + _PLAYING + _TRUMP + _SEAT + (_BID_NUMBER, *_variables(Stage.SCORING)) + _RESULT + _SEAT_SETS,
            sees_running=True,
            per_seat=(*_RESULT_FACTS, *_PLACE_FACTS),
            roles=_ALL_ROLES,
        ),
        Context(
            "bonus",
            "scoring.bonus",
            "after scoring.points; running values are as before this hand",
            _HAND
            + _PLAYING
            + _TRUMP
            + _SEAT
            + (_BID_NUMBER, *_variables(Stage.SCORING))
            + _RESULT
            + (Variable("points", N, "this hand's points from scoring.points"),)
            + _SEAT_SETS,
            sees_running=True,
            per_seat=(*_RESULT_FACTS, *_PLACE_FACTS, "points"),
            roles=_ALL_ROLES,
        ),
        Context(
            "running",
            "running.*.after_hand",
            "after the bonus: each running value's new value (all see the values before this hand)",
            _HAND
            + _PLAYING
            + _TRUMP
            + _SEAT
            + (_BID_NUMBER, *_variables(Stage.SCORING))
            + _RESULT
            + (
                Variable("points", N, "this hand's points from scoring.points"),
                Variable("bonus", N, "this hand's bonus from scoring.bonus"),
            )
            + _SEAT_SETS,
            sees_running=True,
            per_seat=(*_RESULT_FACTS, *_PLACE_FACTS, "points", "bonus"),
            roles=_ALL_ROLES,
        ),
        Context(
            "running_start",
            "running.*.start",
            "each running value's value before the first hand",
            (_PLAYERS,),
        ),
        Context(
            "end",
            "end.when",
            "once after each hand (not after tie-break hands): does the game end now?",
            _HAND
            + _PLAYING
            + _TRUMP
            + (Variable("seats", SEATS, "every player, with the totals and running values after this hand (a seat set): max(seats, total) >= 100"),),
            per_seat=("total",),
        ),
        Context(
            "winner",
            "winner.rank, winner.wins_outright",
            "at the end of the game, once per player",
            (
                _PLAYERS,
                Variable("total", N, "this player's final total"),
                Variable("seats", SEATS, "every player (a seat set, for aggregates)"),
                Variable("others", SEATS, "every player but this one (a seat set)"),
            ),
            sees_running=True,
            per_seat=("total",),
            roles=(ME,),
        ),
        Context(
            "first_bidder",
            "bidding.first.highest, bidding.first.lowest",
            "once per playing seat before the bidding: the seat with the highest (lowest) value bids first",
            _HAND + _PLAYING + _TRUMP + (_SEAT[0], _SEAT[1], _ALL_SEATS, _OTHERS),
            sees_running=True,
            per_seat=("total", "is_dealer"),
            roles=(ME, "dealer"),
        ),
        Context(
            "first_lead",
            "play.first_lead.highest, play.first_lead.lowest",
            "once per playing seat after the bidding: the seat with the highest (lowest) value leads first",
            _HAND + _PLAYING + _TRUMP + _SEAT + (_BID_NUMBER, *_variables(Stage.BIDDING)) + _SEAT_SETS,
            sees_running=True,
            per_seat=("bid", *_ROW_NAMES, *_PLACE_FACTS),
            roles=_ALL_ROLES,
        ),
    )
}

#: Constants every formula may use.
SUITS = ("spades", "hearts", "diamonds", "clubs")
CONSTANTS: dict[str, tuple[Type, str | bool]] = {
    **{s: (S, s) for s in SUITS},
    "none": (S, "none"),
    "true": (B, True),
    "false": (B, False),
}


@dataclass(frozen=True)
class Function:
    name: str
    params: tuple[Type, ...]  # the last one repeats when variadic
    result: Type
    doc: str
    variadic: bool = False
    shown: str = ""  # how the reference writes a call, when not from the parameter types


FUNCTIONS: dict[str, Function] = {
    f.name: f
    for f in (
        Function("abs", (N,), N, "absolute value"),
        Function("min", (N, N), N, "the smallest of two or more numbers", variadic=True),
        Function("max", (N, N), N, "the largest of two or more numbers", variadic=True),
        Function("floor", (N,), N, "round down to a whole number"),
        Function("ceil", (N,), N, "round up to a whole number"),
        Function("tri", (N,), N, "triangular number 1 + 2 + ... + n (0 for n <= 0)"),
        Function("repeat", (N, N), Type.LIST, "repeat(x, n): the list of n copies of x"),
        Function("len", (Type.LIST,), N, "how many numbers a list holds"),
        Function("sum", (Type.LIST,), N, "the sum of a list"),
        Function(
            "map",
            (Type.LIST, Type.ANY),
            Type.LIST,
            "map(list, n -> formula): the formula for each number `n` of the list, its numbers and lists joined "
            "into one list: `map(1 .. 13, n -> [n, n])` is 1, 1, 2, 2, ..., 13, 13",
            shown="map(list of numbers, n -> number or list)",
        ),
    )
}


@dataclass(frozen=True)
class Aggregate:
    """`name(SET, per-seat formula)`: the per-seat formula evaluated for each seat of the set."""

    name: str
    per_seat: Type  # what the per-seat formula gives
    result: Type
    doc: str
    empty: object = 0  # the value over an empty set


AGGREGATES: dict[str, Aggregate] = {
    a.name: a
    for a in (
        Aggregate("count", B, N, "how many seats of the set the condition holds for", 0),
        Aggregate("sum", N, N, "the sum of the formula over the seats of the set (0 for none)", 0),
        Aggregate("max", N, N, "the largest value of the formula over the seats of the set (0 for none)", 0),
        Aggregate("min", N, N, "the smallest value of the formula over the seats of the set (0 for none)", 0),
        Aggregate("all", B, B, "the condition holds for every seat of the set (true for none)", True),
        Aggregate("any", B, B, "the condition holds for some seat of the set (false for none)", False),
    )
}


@dataclass(frozen=True)
class Role:
    """`ROLE.FACT`: one fact of one seat, the seat named by its role in the hand (`dealer.bid`).

    A role picks its seat from `seats` (the playing seats in bidding order) by the facts in
    `picks`; `me` is this seat itself (inside an aggregate's per-seat formula, the seat the
    formula is evaluated for, not the seat of the set)."""

    name: str
    doc: str
    picks: tuple[str, ...] = ()  # the facts of the seats it reads to find its seat


ROLES: dict[str, Role] = {
    r.name: r
    for r in (
        Role(ME, "this seat: `me.bid` inside `count(others, bid > me.bid)` is this seat's bid, `bid` the other seat's"),
        Role("dealer", "the seat that dealt this hand (a ruleset whose dealer may sit out cannot read it)", ("is_dealer",)),
        Role("first_bidder", "the seat that bids first this hand", ("position",)),
        Role("last_bidder", "the seat that bids last this hand", ("position",)),
        Role("highest_bidder", "the seat with the highest bid (ties: the earlier bid)", ("bid", "position")),
    )
}

#: Every seat set some context knows.
SEAT_SETS: frozenset[str] = frozenset(v.name for c in CONTEXTS.values() for v in c.variables if v.type is Type.SEATS)


def _and(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def reference_markdown() -> str:
    """The language reference's tables, generated from this catalogue (docs/expressions.md embeds it)."""
    out = ["| context | written in | evaluated | names |", "|---|---|---|---|"]
    for c in (TABLE, PARAMETER_RANGE, *CONTEXTS.values()):
        names = ", ".join(f"`{v.name}`" for v in c.variables)
        extra = [w for w, seen in (("parameters", c.sees_parameters), ("`let` values", c.sees_lets), ("running values", c.sees_running)) if seen]
        if extra:
            names += (", and " if names else "") + "the ruleset's " + _and(extra)
        out.append(f"| {c.name} | {c.where} | {c.doc} | {names} |")
    out += ["", "| name | type | meaning |", "|---|---|---|"]
    seen: set[str] = set()
    for c in CONTEXTS.values():
        for v in c.variables:
            if v.name not in seen:
                seen.add(v.name)
                out.append(f"| `{v.name}` | {v.type} | {v.doc} |")
    out += ["", "| function | meaning |", "|---|---|"]
    for f in FUNCTIONS.values():
        args = ", ".join(str(p) for p in f.params) + (", ..." if f.variadic else "")
        out.append(f"| `{f.shown or f'{f.name}({args})'}` -> {f.result} | {f.doc} |")
    out += ["", "| aggregate | meaning |", "|---|---|"]
    for a in AGGREGATES.values():
        out.append(f"| `{a.name}(set of seats, {a.per_seat} per seat)` -> {a.result} | {a.doc} |")
    out += ["", "| role | the seat `ROLE.FACT` reads one fact of |", "|---|---|"]
    for r in ROLES.values():
        out.append(f"| `{r.name}` | {r.doc} |")
    out += ["", "| context | what an aggregate reads of each seat | roles |", "|---|---|---|"]
    for c in CONTEXTS.values():
        if c.per_seat:
            facts = ", ".join(f"`{n}`" + (" (of `earlier` only)" if n in c.earlier_only else "") for n in c.per_seat)
            if c.sees_running:
                facts += ", and the ruleset's running values"
            roles = ", ".join(f"`{r}`" for r in c.roles)
            out.append(f"| {c.name} | {facts} | {roles} |")
    return "\n".join(out) + "\n"
