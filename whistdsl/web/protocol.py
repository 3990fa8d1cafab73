"""The messages between a page and a table (docs/serve.md, "The protocol").

`read_message` checks what a page sends: at most MAX_MESSAGE_BYTES, JSON, an object the schema
`schemas/table-message.schema.json` accepts (unknown fields refused). The frames the server
sends are built here from what the receiver may see: `view_json` from a `SeatView` (a seat's,
or a spectator's: engine/seat.py `spectator_view`), `question_json` from the seat's `Question`,
`sheet_json` and `last_hand_json` from the finished hands without their deals.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any, Sequence

from ..engine.cards import Card, card_text, suit_name
from ..engine.game import HandResult
from ..engine.observer import SeatView
from ..engine.seat import Question
from ..records.record import exact
from ..resources import data_dir

#: The largest message a page may send (bytes of UTF-8).
MAX_MESSAGE_BYTES = 16 * 1024


class BadMessage(Exception):
    """A message refused; `code` is the error frame's code."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


@cache
def _validator():  # noqa: ANN202 (a jsonschema validator)
    import jsonschema

    schema = json.loads((data_dir("schemas") / "table-message.schema.json").read_text(encoding="utf-8"))
    return jsonschema.Draft202012Validator(schema)


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"the field {key!r} is given twice")
        out[key] = value
    return out


def read_message(text: str | bytes) -> dict[str, Any]:
    """A page's message, checked; raises BadMessage (`too_big`, `bad_message`)."""
    raw = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    if len(raw) > MAX_MESSAGE_BYTES:
        raise BadMessage("too_big", f"a message is at most {MAX_MESSAGE_BYTES // 1024} KiB")
    try:
        data = json.loads(raw.decode("utf-8"), parse_constant=_refuse_constant, object_pairs_hook=_no_duplicates)
    except (UnicodeDecodeError, ValueError) as e:
        raise BadMessage("bad_message", f"not a JSON message: {e}") from None
    errors = list(_validator().iter_errors(data))
    if errors:
        kind = data.get("type") if isinstance(data, dict) else None
        known = ("hello", "answer", "rematch", "hand_over")
        if not isinstance(data, dict):
            why = "a message is a JSON object"
        elif kind not in known:
            why = f"unknown message type; known: {', '.join(known)}"
        else:
            why = f"not a valid {kind} message (see schemas/table-message.schema.json)"
        raise BadMessage("bad_message", why)
    return data  # type: ignore[no-any-return]


def _cards(cards: Sequence[Card], specials: tuple) -> list[str]:
    return [card_text(c, specials) for c in cards]


def _plays(plays: Sequence[tuple[int, Card]], specials: tuple) -> list[list[Any]]:
    return [[seat, card_text(c, specials)] for seat, c in plays]


def _tricks(tricks: Sequence[Any], specials: tuple) -> list[dict[str, Any]]:
    return [{"leader": t.leader, "cards": _plays(t.cards, specials), "winner": t.winner} for t in tricks]


def view_json(view: SeatView) -> dict[str, Any]:
    """The receiver's view as the frame holds it: every card in it is a card of `view`."""
    specials = view.rules.specials
    kind = view.rules.kinds.get(view.kind)
    return {
        "phase": str(view.phase),
        "to_act": view.to_act,
        "hand_number": view.hand_number,
        "hand_size": view.hand_size,
        "kind": view.kind,
        "mark": kind.mark if kind is not None else "",
        "seeing": view.view,
        "extra": view.extra,
        "dealer": view.dealer,
        "sitting_out": list(view.sitting_out),
        "trump": None if view.trump_hidden else suit_name(view.trump),
        "trump_hidden": view.trump_hidden,
        "turn_up": None if view.turn_up is None else card_text(view.turn_up, specials),
        "trump_from": view.trump_from,
        "turn_up_place": view.turn_up_place,
        "hand": None if view.hand is None else _cards(view.hand, specials),
        "others": {str(seat): _cards(cards, specials) for seat, cards in sorted(view.others.items())},
        "bidding_order": list(view.bidding_order),
        "bids": [[seat, bid] for seat, bid in view.bids],
        "calls": list(view.calls),
        "blind": list(view.blind),
        "bids_hidden": view.bids_hidden,
        "excused": list(view.excused),
        "leader": view.leader,
        "trick": _plays(view.trick, specials),
        "tricks": _tricks(view.tricks, specials),
        "taken": list(view.taken),
        "totals": [exact(t) for t in view.totals],
        "decision": view.decision,
        "auction": [[seat, choice] for seat, choice in view.auction],
        "declarer": view.declarer,
        "auction_bid": view.auction_bid,
        "trump_named_by": view.trump_named_by,
    }


def question_json(question: Question | None) -> dict[str, Any] | None:
    if question is None:
        return None
    return {
        "ask": question.ask,
        "decision": question.decision,
        "options": list(question.options),
        "unseen": question.unseen,
        "forbidden": list(question.forbidden),
    }


def sheet_json(history: Sequence[HandResult], players: int) -> list[dict[str, Any]]:
    """Every finished hand as the score sheet shows it: no card but the turned one."""
    rows = []
    for h in history:
        bids: list[int | None] = [None] * players
        for seat, bid in h.bids:
            bids[seat] = bid
        rows.append({
            "number": h.number,
            "cards": h.size,
            "mark": h.mark,
            "trump": None if h.trump < 0 else suit_name(h.trump),
            "dealer": h.dealer,
            "sitting_out": list(h.sitting_out),
            "bids": bids,
            "calls": list(h.calls) if h.calls else [""] * players,
            "blind": list(h.blind) if h.blind else [False] * players,
            "taken": list(h.taken),
            "points": [exact(p) for p in h.points],
            "totals": [exact(t) for t in h.totals],
        })
    return rows


def last_hand_json(hand: HandResult | None) -> dict[str, Any] | None:
    """The last finished hand's tricks (every card in them was played in front of everyone)."""
    if hand is None:
        return None
    return {"number": hand.number, "tricks": _tricks(hand.tricks, hand.specials), "taken": list(hand.taken), "points": [exact(p) for p in hand.points]}


def frame_text(frame: dict[str, Any]) -> str:
    """A frame as sent: compact JSON (the page draws every text with textContent)."""
    return json.dumps(frame, ensure_ascii=False, separators=(",", ":"))
