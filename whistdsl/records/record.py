"""Game records: a game as JSON (schemas/record.schema.json), written safely after every hand.

A record holds the merged ruleset (and its sha256), the values of its parameters (format 2),
the seed, the players by seat, and every
hand: deal, trump, bids, tricks, taken, points, totals; then `final`. Numbers that can be
fractions are written exactly: integers as JSON numbers, other fractions as strings ("1/2").
The generator's state after the last hand is kept under `resume`, so a game continues exactly;
a person's answers in a hand not finished are kept under `unfinished`, so that it is played again
to where it stopped.

Every write goes to a temporary file that is then renamed over the record, so a failed write
(disk full, folder removed) leaves the last good record in place; `WriteError` says what failed.
"""

from __future__ import annotations

import os
import stat
import tempfile
from fractions import Fraction
from pathlib import Path
from typing import Any

from ..engine.cards import card_text, suit_name
from ..engine.game import Game, HandResult
from ..engine.state import Redealt
from ..language.values import Number
from ..printable import json_text, printable
from ..rules.ruleset import Special

#: Format 2 adds `parameters` (the ruleset's parameters as the game was played), each hand's
#: `choices` (trump named by a seat, blind or look) and a bid's `call` and `blind` (language 2's
#: decisions); format 1 records (without them) are read as ever.
FORMAT = "whistdsl-record/2"
#: The longest player's name a record holds (schemas/record.schema.json says the same).
MAX_PLAYER_NAME = 200


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


def _bid_json(h: HandResult, seat: int, bid: int) -> dict[str, Any]:
    out: dict[str, Any] = {"seat": seat, "bid": bid}
    if h.calls and h.calls[seat]:
        out["call"] = h.calls[seat]
    if h.blind and h.blind[seat]:
        out["blind"] = True
    if h.declarer == seat:
        out["made_for"] = "declarer"  # its winning bid in the auction, made for it
    elif h.excused and h.excused[seat]:
        out["made_for"] = "excused"  # excused from bidding (`skip`): 0, made for it
    elif h.calls and h.calls[seat] and (seat, "auction", h.calls[seat]) in h.choices:
        out["made_for"] = "auction_call"  # the bid of a call it made in the auction (a dash)
    return out


def _redealt_json(r: Redealt, specials: tuple[Special, ...]) -> dict[str, Any]:
    """A deal of the hand dealt again (`redeal`): its cards, the card turned, why, and the
    choices made on it (the auction's passes)."""
    return {
        "deal": [[card_text(c, specials) for c in cards] for cards in r.deal],
        "turn_up": None if r.turn_up is None else card_text(r.turn_up, specials),
        "why": r.why,
        **({"choices": [{"seat": s, "decision": d, "choice": c} for s, d, c in r.choices]} if r.choices else {}),
    }


def hand_json(h: HandResult) -> dict[str, Any]:
    """One finished hand as JSON; cards as text (`QH`, a special card by its mark, `W`: the
    identical cards of two packs are written alike)."""
    specials = h.specials
    choices = {"choices": [{"seat": s, "decision": d, "choice": c} for s, d, c in h.choices]} if h.choices else {}
    return {
        "number": h.number,
        "cards": h.size,
        "kind": h.kind,
        "mark": h.mark,
        "extra": h.extra,
        "dealer": h.dealer,
        "sitting_out": list(h.sitting_out),
        "trump": None if h.trump < 0 else suit_name(h.trump),
        "turn_up": None if h.turn_up is None else card_text(h.turn_up, specials),
        **({"trump_from": h.trump_from} if h.trump_from else {}),
        "deal": [[card_text(c, specials) for c in cards] for cards in h.deal],
        **({"redeals": [_redealt_json(r, specials) for r in h.redeals]} if h.redeals else {}),
        **choices,
        "bids": [_bid_json(h, s, b) for s, b in h.bids],
        "tricks": [
            {"leader": t.leader, "cards": [{"seat": s, "card": card_text(c, specials)} for s, c in t.cards], "winner": t.winner} for t in h.tricks
        ],
        "taken": list(h.taken),
        "points": [exact(p) for p in h.points],
        "bonus": [exact(b) for b in h.bonus],
        "totals": [exact(t) for t in h.totals],
        "running": [{k: exact(v) for k, v in r.items()} for r in h.running],
    }


def _head_json(game: Game, kinds: list[str] | None, work: dict[int, tuple[int, ...]] | None = None) -> dict[str, Any]:
    """What a record says before its hands; none of it changes during a game. `work`: per seat
    of a player that searches, its work a bid and a card decision (so a resumed game's
    players decide as the interrupted game's did)."""
    rules = game.rules
    kinds = kinds or ["unknown"] * game.players
    work = work or {}
    return {
        "format": FORMAT,
        "ruleset": {"name": rules.name, "sha256": rules.sha256, "source": rules.source},
        **(
            {"parameters": {n: exact(v) if rules.parameter(n).type == "number" else v for n, v in rules.parameter_values.items()}}  # type: ignore[arg-type,union-attr]  # every parameter value has its parameter; a number parameter's value is a number
            if rules.parameters
            else {}
        ),
        "seed": game.seed,
        "players": [
            {"seat": i, "name": game.names[i], "kind": kinds[i], **({"work": list(work[i])} if i in work else {})} for i in range(game.players)
        ],
        "first_dealer": game.first_dealer,
        "first_dealer_draw": [card_text(c) for c in game.first_dealer_draw],
    }


def _tail_json(game: Game) -> dict[str, Any]:
    """What a record says after its hands: how to resume, and `final` once the game is over."""
    tail: dict[str, Any] = {}
    if game.history and game.history[-1].rng_state is not None:
        version, state, gauss = game.history[-1].rng_state
        tail["resume"] = {"after_hand": len(game.history), "rng_state": [version, list(state), gauss]}
    if game.result is not None:
        tail["final"] = {
            "totals": [exact(t) for t in game.result.totals],
            "winners": list(game.result.winners),
        }
    return tail


def game_record(game: Game, kinds: list[str] | None = None, work: dict[int, tuple[int, ...]] | None = None) -> dict[str, Any]:
    """The record of `game` so far (every finished hand; `final` once the game is over)."""
    return {**_head_json(game, kinds, work), "hands": [hand_json(h) for h in game.history], **_tail_json(game)}


#: Records are written compactly, as one line.
SEPARATORS = (",", ":")


def record_text(data: dict[str, Any]) -> str:
    """A record (or any JSON report) as written to its file: compact, UTF-8, controls escaped."""
    return json_text(data, separators=SEPARATORS) + "\n"


class WriteError(Exception):
    """A file could not be written (disk full, folder gone, no permission). The file that was
    there before, if any, is left exactly as it was."""

    def __init__(self, path: Path, error: OSError):
        self.path = Path(path)
        self.reason = error.strerror or str(error)
        super().__init__(f"cannot write {printable(self.path)}: {self.reason}")


def refuse_unwritable_target(path: Path) -> None:
    """Raise WriteError (before any work) when `path` exists but is not a regular file: a record
    or report is written beside it and renamed over it, which would replace a directory's name,
    a device (`/dev/full`) or a named pipe with a file."""
    path = Path(path)
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return
    except OSError as e:
        raise WriteError(path, e) from None
    if not stat.S_ISREG(mode):
        what = "a directory" if stat.S_ISDIR(mode) else "not a regular file"
        raise WriteError(path, OSError(f"{what}; name a file to write"))


def _mode_for(path: Path) -> int:
    """The permissions of the file being replaced, or of a new file under the process's umask."""
    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        umask = os.umask(0o022)
        os.umask(umask)
        return 0o666 & ~umask


def write_bytes_atomically(path: Path, data: bytes) -> None:
    """Write `data` to a temporary file beside `path`, then rename it over `path`: readers see the
    old file or the new one, never half a file. Raises WriteError, with the temporary file
    removed and `path` untouched, when anything fails (disk full, folder removed, no permission)."""
    path = Path(path)
    refuse_unwritable_target(path)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as e:
        raise WriteError(path, e) from None
    try:
        os.fchmod(fd, _mode_for(path))  # mkstemp makes it private: give it what a new file gets
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException as e:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(e, OSError):
            raise WriteError(path, e) from None
        raise


def write_text_atomically(path: Path, text: str) -> None:
    """`text` as UTF-8, written atomically (see `write_bytes_atomically`)."""
    write_bytes_atomically(path, text.encode("utf-8"))


class RecordWriter:
    """Writes a game's record after every hand (call `update` whenever a hand may have ended).

    Each finished hand is turned into JSON once and kept; a write joins the kept pieces, so the
    cost of writing after hand k is about the size of the file and no hand is serialised twice.
    The file is byte for byte what `record_text(game_record(game, kinds))` gives, with, in the
    middle of a hand, a person's answers in it so far (`unfinished`, see `answered`).
    """

    def __init__(self, path: Path, game: Game, kinds: list[str], work: dict[int, tuple[int, ...]] | None = None):
        self.path = Path(path)
        self.game = game
        self.kinds = kinds
        self.work = work
        self.written_hands = -1
        self._head: str | None = None  # the record's opening, up to the hands
        self._hands: list[str] = []  # the JSON of game.history[i], for every i kept
        self._last: HandResult | None = None  # the last hand kept, to notice a history rewritten
        #: a person's answers in the hand being played (its number, the answers), kept so that a
        #: game stopped in the middle of a hand resumes where it stopped
        self.unfinished: tuple[int, list[dict[str, Any]]] = (0, [])
        game.keep_rng_states = True  # so the record can say how to resume

    def text(self) -> str:
        """The record of the game so far, as written to the file."""
        game = self.game
        if self._head is None:
            self._head = json_text(_head_json(game, self.kinds, self.work), separators=SEPARATORS)[:-1]
        history = game.history
        if len(history) < len(self._hands) or (self._hands and history[len(self._hands) - 1] is not self._last):
            self._hands.clear()  # hands replaced behind our back: start again
        for hand in history[len(self._hands) :]:
            self._hands.append(json_text(hand_json(hand), separators=SEPARATORS))
        self._last = history[-1] if history else None
        parts = [self._head, ',"hands":[', ",".join(self._hands), "]"]
        tail = _tail_json(game)
        hand, answers = self.unfinished  # type: ignore[assignment]  # `hand` is the unfinished hand's number here, the loop's HandResult above
        if answers and not game.over and hand == len(history) + 1:  # type: ignore[comparison-overlap]  # likewise
            tail["unfinished"] = {"hand": hand, "answers": answers}
        for key, value in tail.items():
            parts += [",", json_text(key), ":", json_text(value, separators=SEPARATORS)]
        parts.append("}\n")
        return "".join(parts)

    def answered(self, answer: dict[str, Any]) -> None:
        """A person's answer (`{"seat": 0, "bid": 3}`, `{"seat": 0, "card": "QH"}`, ...) in the
        hand being played: kept in the record at once (raises WriteError)."""
        hand = len(self.game.history) + 1
        if self.unfinished[0] != hand:
            self.unfinished = (hand, [])
        self.unfinished[1].append(answer)
        self.update(force=True)

    def update(self, force: bool = False) -> None:
        """Write the record if a hand has ended since the last write (or always, with `force`).
        Raises WriteError; the last good record is then still in place."""
        done = len(self.game.history)
        if force or done != self.written_hands:
            write_text_atomically(self.path, self.text())
            self.written_hands = done
