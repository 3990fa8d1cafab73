"""The allow-list of the compiled hand (`PIECES`): each piece of the generated hand with the rules
it supports, and `why_not_compiled`, the first rule of a ruleset no piece supports (its hands
are then played by the interpreter alone)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import MISSING, fields
from functools import cache
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from ...rules.ruleset import Ruleset


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


def _no_wild_cards(rules: Ruleset) -> bool:
    """Whether the deck's special cards are none of them wild (`deck.specials.<name>.wild`): a
    wild card, played as a suit, is played by the interpreter alone."""
    return not rules.wild_cards


#: The allow-list of the generated hand: each piece with the rules (the ruleset's fields) it
#: supports. A ruleset that gives any other field a value other than its default, or a value a
#: piece does not support, is played by the interpreter alone, every hand: a rule nobody lists
#: here falls back to the interpreter, never played differently by generated code.
PIECES: tuple[Piece, ...] = (
    Piece("what the ruleset is (no rule of play)", dict.fromkeys(
        ("name", "description", "version", "source", "lets", "parameters", "parameter_values", "players_range",
         "players_min", "players_max", "players_default"))),
    Piece("the table, the deck and the schedule (the table's facts: engine/table.py)", {
        **dict.fromkeys(("deal_direction", "bidding_direction", "play_direction", "suits", "ranks", "deck_size", "copies",
                         "first_dealer", "sits_out", "kinds", "schedule")),
        "specials": _no_wild_cards}),
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
    "redeal": "its hands may be dealt again",
    "declare": "its hands have declarations before the bidding",
    "super_trumps": "its turned card names super trumps",
    "specials": "its deck has wild cards",
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
    for name, default in _defaults(type(rules)).items():  # type: ignore[arg-type]  # a class is hashable; mypy checks its instances' __hash__
        if name in supported:
            test = supported[name]
            if test is None or test(rules):
                continue
        elif default is not _NO_DEFAULT and getattr(rules, name) == default:
            continue  # a rule the generated hand does not know, left as by default
        return RULE_WORDS.get(name, f"the rule {name!r} is not compiled")
    return None
