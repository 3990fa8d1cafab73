"""The messages between a page and a table (docs/serve.md, "The protocol").

`read_message` checks what a page sends: at most MAX_MESSAGE_BYTES, JSON, an object the schema
`schemas/table-message.schema.json` accepts (unknown fields refused), by a check made from the
schema itself (`_check`: the few keywords it uses, much faster than `jsonschema`). The frames
the server sends are built here from what the receiver may see: `view_json` from a `SeatView`
(a seat's, or a spectator's: engine/seat.py `spectator_view`), `question_json` from the seat's
`Question`, `sheet_json` and `last_hand_json` from the finished hands without their deals.
A state frame is assembled from its parts' JSON (`state_text`), so a part every receiver shares
is encoded once.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from functools import cache, lru_cache
from typing import Any

from ..engine.cards import Card, card_text, suit_name
from ..engine.game import HandResult
from ..engine.observer import SeatView
from ..engine.seat import Question
from ..engine.state import Trick
from ..engine.tricks import super_trump_cards
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


#: The keywords of JSON Schema the message schema uses, and so the ones `_check` knows.
KEYWORDS = frozenset(
    {
        "$schema",
        "$id",
        "title",
        "description",
        "type",
        "const",
        "properties",
        "required",
        "additionalProperties",
        "oneOf",
        "minLength",
        "maxLength",
        "pattern",
        "minimum",
        "maximum",
    }
)


def _is_type(value: Any, name: str) -> bool:
    """JSON Schema's types (an integer is a number without a fraction; a bool is not a number)."""
    if name == "string":
        return isinstance(value, str)
    if name == "object":
        return isinstance(value, dict)
    if name == "null":
        return value is None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    return name == "number" or (name == "integer" and (isinstance(value, int) or value.is_integer()))


def _check(schema: dict[str, Any]) -> Callable[[Any], bool]:
    """Whether a value is valid under `schema`, as JSON Schema says, for the keywords in KEYWORDS
    (any other is refused here, so the schema cannot grow a rule this check would skip). The
    messages are checked tens of times faster than by `jsonschema`, with the same answers
    (tests/test_serve_protocol.py compares the two)."""
    unknown = set(schema) - KEYWORDS
    if unknown:
        raise ValueError(f"the message schema uses {sorted(unknown)}, which the message check does not know")
    checks: list[Callable[[Any], bool]] = []
    if "type" in schema:
        types = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        checks.append(lambda v: any(_is_type(v, t) for t in types))
    if "const" in schema:
        const = schema["const"]
        checks.append(lambda v: type(v) is type(const) and v == const)
    if "properties" in schema:
        properties = {name: _check(sub) for name, sub in schema["properties"].items()}
        checks.append(lambda v: not isinstance(v, dict) or all(c(v[name]) for name, c in properties.items() if name in v))
    if "required" in schema:
        required = tuple(schema["required"])
        checks.append(lambda v: not isinstance(v, dict) or all(name in v for name in required))
    if "additionalProperties" in schema:
        if schema["additionalProperties"] is not False:
            raise ValueError("the message check knows additionalProperties: false only")
        named = frozenset(schema.get("properties", ()))
        checks.append(lambda v: not isinstance(v, dict) or named.issuperset(v))
    if "oneOf" in schema:
        alternatives = [_check(sub) for sub in schema["oneOf"]]
        checks.append(lambda v: sum(1 for c in alternatives if c(v)) == 1)
    if "minLength" in schema:
        low = schema["minLength"]
        checks.append(lambda v: not isinstance(v, str) or len(v) >= low)
    if "maxLength" in schema:
        high = schema["maxLength"]
        checks.append(lambda v: not isinstance(v, str) or len(v) <= high)
    if "pattern" in schema:
        pattern = re.compile(schema["pattern"])
        checks.append(lambda v: not isinstance(v, str) or pattern.search(v) is not None)
    if "minimum" in schema:
        minimum = schema["minimum"]
        checks.append(lambda v: not _is_type(v, "number") or v >= minimum)
    if "maximum" in schema:
        maximum = schema["maximum"]
        checks.append(lambda v: not _is_type(v, "number") or v <= maximum)
    return lambda v: all(c(v) for c in checks)


def message_schema() -> dict[str, Any]:
    """The schema of the messages a page may send (schemas/table-message.schema.json)."""
    return json.loads((data_dir("schemas") / "table-message.schema.json").read_text(encoding="utf-8"))  # type: ignore[no-any-return]  # the bundled schema file holds a JSON object


@cache
def _checks() -> dict[str, Callable[[Any], bool]]:
    """A check for each message type: the schema's alternative whose `type` is that type (the
    alternatives are told apart by `type` alone, so a message the whole schema accepts is one
    its type's alternative accepts)."""
    return {branch["properties"]["type"]["const"]: _check(branch) for branch in message_schema()["oneOf"]}


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
    if not isinstance(data, dict):
        raise BadMessage("bad_message", "a message is a JSON object")
    kind = data.get("type")
    check = _checks().get(kind) if isinstance(kind, str) else None
    if check is None:
        raise BadMessage("bad_message", f"unknown message type; known: {', '.join(_checks())}")
    if not check(data):
        raise BadMessage("bad_message", f"not a valid {kind} message (see schemas/table-message.schema.json)")
    return data


def _cards(cards: Sequence[Card], specials: tuple) -> list[str]:
    return [card_text(c, specials) for c in cards]


def _plays(plays: Sequence[tuple[int, Card]], specials: tuple) -> list[list[Any]]:
    return [[seat, card_text(c, specials)] for seat, c in plays]


def _trick_json(trick: Trick, specials: tuple) -> dict[str, Any]:
    return {"leader": trick.leader, "cards": _plays(trick.cards, specials), "winner": trick.winner}


def _tricks(tricks: Sequence[Trick], specials: tuple) -> list[dict[str, Any]]:
    return [_trick_json(t, specials) for t in tricks]


@lru_cache(maxsize=8192)
def _trick_text(trick: Trick, specials: tuple) -> str:
    """A finished trick's JSON, kept: a trick is sent in every frame until its hand ends."""
    return encoded(_trick_json(trick, specials))


def view_json(view: SeatView) -> dict[str, Any]:
    """The receiver's view as the frame holds it: every card in it is a card of `view`."""
    return {**_view_fields(view), "tricks": _tricks(view.tricks, view.rules.specials)}


def view_text(view: SeatView) -> str:
    """`view_json(view)` as a frame holds it, each finished trick's JSON made once (`_trick_text`)."""
    specials = view.rules.specials
    tricks = ",".join(_trick_text(t, specials) for t in view.tricks)
    return f'{encoded(_view_fields(view))[:-1]},"tricks":[{tricks}]}}'


def _view_fields(view: SeatView) -> dict[str, Any]:
    """Everything of `view_json` but the finished tricks of the hand."""
    specials = view.rules.specials
    kind = view.rules.kinds.get(view.kind)
    fields: dict[str, Any] = {
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
        "taken": list(view.taken),
        "totals": [exact(t) for t in view.totals],
        "decision": view.decision,
        "auction": [[seat, choice] for seat, choice in view.auction],
        "declarer": view.declarer,
        "auction_bid": view.auction_bid,
        "trump_named_by": view.trump_named_by,
        "redeals": view.redeals,
        "declared": list(view.declared),
    }
    if specials:  # each special card's name in the rules by its mark (JK: joker), for the page's words
        fields["specials"] = {special.mark: special.name for special in specials}
    if view.rules.super_trumps is not None:  # the cards this hand's turned card makes trumps above the ace, strongest first
        fields["super_trumps"] = [card_text(c) for c in super_trump_cards(view.rules, view.players, view.turn_up)]
    if view.rules.auction is not None and view.rules.auction.suits:  # before the auction's end, its winning bid is still to name trump
        fields["trump_by_auction"] = str(view.phase) == "decision" and view.decision in ("declare", "auction")
    if view.rules.bids_together:  # which bids are made together: every bid, or all but the last bidder's
        fields["together"] = str(view.rules.bids_together_who)
    if view.rules.auction is not None and view.rules.auction.calls:  # the calls of the auction: each one's bid made for its caller, or null
        fields["auction_calls"] = {call.name: call.bid for call in view.rules.auction.calls}
    return fields


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
        rows.append(
            {
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
            }
        )
    return rows


def last_hand_json(hand: HandResult | None) -> dict[str, Any] | None:
    """The last finished hand's tricks (every card in them was played in front of everyone)."""
    if hand is None:
        return None
    return {
        "number": hand.number,
        "tricks": _tricks(hand.tricks, hand.specials),
        "taken": list(hand.taken),
        "points": [exact(p) for p in hand.points],
    }


def encoded(value: Any) -> str:
    """A value as a frame holds it: compact JSON (the page draws every text with textContent)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def frame_text(frame: dict[str, Any]) -> str:
    """A frame as sent."""
    return encoded(frame)


def state_text(parts: Sequence[tuple[str, str]]) -> str:
    """A state frame as sent, from its fields' names and their values' JSON (`encoded`): a part
    that every receiver shares is encoded once, not once for each."""
    return "{" + ",".join(f'"{name}":{text}' for name, text in parts) + "}"
