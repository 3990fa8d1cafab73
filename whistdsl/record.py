"""Game records: a game as JSON (schemas/record.schema.json), written safely after every hand.

A record holds the merged ruleset (and its sha256), the seed, the players by seat, and every
hand: deal, trump, bids, tricks, taken, points, totals; then `final`. Numbers that can be
fractions are written exactly: integers as JSON numbers, other fractions as strings ("1/2").
The generator's state after the last hand is kept under `resume`, so a game continues exactly.
"""

from __future__ import annotations

import json
import os
import tempfile
from fractions import Fraction
from pathlib import Path
from typing import Any

from .cards import card_text, suit_name
from .engine import Game, HandResult
from .expression import Number

FORMAT = "whistdsl-record/1"


def exact(value: Number) -> int | str:
    """An exact number for JSON: an int, or a fraction as a string like "1/2"."""
    if isinstance(value, Fraction):
        return value.numerator if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    return int(value)


def read_exact(value: int | str) -> Number:
    if isinstance(value, int):
        return value
    f = Fraction(value)
    return f.numerator if f.denominator == 1 else f


def hand_json(h: HandResult) -> dict[str, Any]:
    return {
        "number": h.number,
        "cards": h.size,
        "kind": h.kind,
        "mark": h.mark,
        "extra": h.extra,
        "dealer": h.dealer,
        "sitting_out": list(h.sitting_out),
        "trump": None if h.trump < 0 else suit_name(h.trump),
        "turn_up": None if h.turn_up is None else card_text(h.turn_up),
        "deal": [[card_text(c) for c in cards] for cards in h.deal],
        "bids": [{"seat": s, "bid": b} for s, b in h.bids],
        "tricks": [
            {"leader": t.leader, "cards": [{"seat": s, "card": card_text(c)} for s, c in t.cards], "winner": t.winner}
            for t in h.tricks
        ],
        "taken": list(h.taken),
        "points": [exact(p) for p in h.points],
        "bonus": [exact(b) for b in h.bonus],
        "totals": [exact(t) for t in h.totals],
        "running": [{k: exact(v) for k, v in r.items()} for r in h.running],
    }


def game_record(game: Game, kinds: list[str] | None = None) -> dict[str, Any]:
    """The record of `game` so far (every finished hand; `final` once the game is over)."""
    rules = game.rules
    kinds = kinds or ["unknown"] * game.players
    record: dict[str, Any] = {
        "format": FORMAT,
        "ruleset": {"name": rules.name, "sha256": rules.sha256, "source": rules.source},
        "seed": game.seed,
        "players": [{"seat": i, "name": game.names[i], "kind": kinds[i]} for i in range(game.players)],
        "first_dealer": game.first_dealer,
        "first_dealer_draw": [card_text(c) for c in game.first_dealer_draw],
        "hands": [hand_json(h) for h in game.history],
    }
    if game.history and game.history[-1].rng_state is not None:
        version, state, gauss = game.history[-1].rng_state
        record["resume"] = {"after_hand": len(game.history), "rng_state": [version, list(state), gauss]}
    if game.result is not None:
        record["final"] = {
            "totals": [exact(t) for t in game.result.totals],
            "winners": list(game.result.winners),
        }
    return record


def write_json_atomically(path: Path, data: dict[str, Any]) -> None:
    """Write to a temporary file beside `path`, then rename: a crash never leaves half a file."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent or Path("."))
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n")  # dumps: the C encoder
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


class RecordWriter:
    """Writes a game's record after every hand (call `update` whenever a hand may have ended)."""

    def __init__(self, path: Path, game: Game, kinds: list[str]):
        self.path = Path(path)
        self.game = game
        self.kinds = kinds
        self.written_hands = -1
        game.keep_rng_states = True  # so the record can say how to resume

    def update(self, force: bool = False) -> None:
        done = len(self.game.history)
        if force or done != self.written_hands:
            write_json_atomically(self.path, game_record(self.game, self.kinds))
            self.written_hands = done
