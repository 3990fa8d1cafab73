"""The compiled hand of a ruleset at a table size: its source written (writer.py), compiled once
and run in a namespace of the engine's own names."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ...language.codegen import HELPERS
from ...language.errors import EvalError
from ...language.limits import MAX_NUMBER
from ..cards import NO_TRUMP, SPECIAL, STRENGTH_OF, SUIT_OF
from ..state import DealtCards, HandResult, Phase, PlayedTricks, Trick
from ..trump import ON_TABLE
from .writer import HandWriter

if TYPE_CHECKING:
    from .base import Facts


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


def compiled_hand(facts: Facts) -> CompiledHand:
    """The generated hand of a table (`facts`: its ruleset and size, its deck, schedule and
    set-ups; the hand is kept on them, engine/table.py `TableFacts.compiled`)."""
    rules, players = facts.rules, facts.players
    writer = HandWriter(facts)
    source = writer.module()
    if writer.declined:
        return CompiledHand(source, None, tuple(writer.notes))
    namespace: dict[str, Any] = dict(  # exec's globals: whatever the source below defines
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
    namespace.update(writer.constants, HandResult=HandResult, new_result=tuple.__new__)
    # the name as Python writes it: compile refuses a file name with a NUL in it, and a ruleset may be named so
    code = compile(source, f"<whistdsl compiled: {rules.name!r}, {players} players>", "exec")
    exec(code, namespace)  # the source is ours: written above from checked formulas, no file text
    return CompiledHand(
        source, namespace["play_hand"], tuple(writer.notes), namespace.get("play_game_random"), namespace.get("start_hand"), namespace["play_tricks"]
    )
