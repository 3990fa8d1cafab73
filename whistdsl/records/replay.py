"""Replay: re-run a game record against its rules, resume it, or play set-up deals.

Every recorded deal is handed to the engine as a set-up deal, and every recorded bid and card
is applied through the engine's own checks; then tricks, taken counts, points, running values,
totals and winners are compared with what the record says. The first disagreement is reported
with the hand, the trick (or "bidding"), the seat, what the record says and what the rules say.
Resuming is the same replay followed by restoring the random generator's state.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..engine.cards import NO_TRUMP, CardSyntaxError, card_text, parse_card, suit_name, suit_number
from ..engine.game import Game, HandResult, IllegalAction, PresetDeal, RuleError
from ..engine.trump import trump_step
from ..language.errors import EvalError
from ..language.values import value_text
from ..resources import record_schema_path
from ..rules.lint import RulesetError, rules_from_data
from ..rules.load import MAX_FILE_BYTES
from ..rules.ruleset import MAX_GAME_HANDS, Ruleset, SettingError, Special, read_settings, unknown_parameter
from .reading import NotARecord, read_record_json
from .record import FORMAT, exact, read_exact

if TYPE_CHECKING:  # jsonschema is imported when a record is first checked (it is slow to import)
    import jsonschema

SUPPORTED_VERSION = int(FORMAT.rsplit("/", 1)[1])
#: The record schema's patterns, as written there: a card, and an exact number (an integer, or a
#: fraction with a denominator that is not 0). Each ends in `(?![\s\S])`, not `$`, which in
#: Python would also match before a final newline.
CARD_PATTERN = "^([2-9TJQKA][SHDC]|[A-Z][A-Z0-9]{0,2})(?![\\s\\S])"
EXACT_PATTERN = "^-?[0-9]{1,40}(/[1-9][0-9]{0,39})?(?![\\s\\S])"


class RecordError(Exception):
    """A file that is not a record this version can read (exit 2 on the command line)."""


class Disagreement(Exception):
    """The record and the rules disagree (exit 1 on the command line)."""

    def __init__(self, hand: int, where: str, message: str):
        super().__init__(f"hand {hand}, {where}: {message}")
        self.hand = hand
        self.where = where

    def said(self, names: Sequence[str] | None) -> str:
        """The disagreement as the table would say it: each `seat N` by the player's name, as the
        table and the score sheet call them (`seat 2` is `Player 3` at a table of default names),
        or `NAME (seat N)` when two players share a name."""
        text = str(self)
        if not names:
            return text
        unique = len(set(names)) == len(names)

        def named(match: re.Match) -> str:
            seat = int(match.group(1))
            if not 0 <= seat < len(names):
                return match.group(0)  # type: ignore[no-any-return]  # re.Match of a str pattern: group(0) is a str
            return names[seat] if unique else f"{names[seat]} (seat {seat})"

        return re.sub(r"\bseat (\d+)\b", named, text)


@cache
def _record_validator() -> jsonschema.Draft202012Validator:
    import jsonschema

    return jsonschema.Draft202012Validator(json.loads(record_schema_path().read_text(encoding="utf-8")))


#: The most hands a record may hold: twice the most a game can have (schedule and tie-break hands).
MAX_RECORD_HANDS = 2 * MAX_GAME_HANDS


def read_record(path: Path) -> dict[str, Any]:
    """Read and shape-check a record. Raises RecordError with a clear message.

    The file is read within the record limits (records/reading.py: a regular file only, at most
    MAX_RECORD_BYTES of it, its nesting and its number of values counted before it is parsed,
    numbers and texts checked), then its shape is checked against the record schema.
    """
    try:
        data = read_record_json(Path(path))
    except NotARecord as e:
        raise RecordError(f"{path}: {e}") from None
    return check_record_shape(data, str(path))


def check_record_shape(data: Any, shown: str = "record") -> dict[str, Any]:
    """The record's shape against schemas/record.schema.json: the first error, by its place."""
    if not isinstance(data, dict):
        raise RecordError(f"{shown}: not a record (a JSON object is expected)")
    fmt = data.get("format")
    if isinstance(fmt, str) and fmt.startswith("whistdsl-record/"):
        version = fmt.rsplit("/", 1)[1]
        if version.isdigit() and len(version) <= 9 and int(version) > SUPPORTED_VERSION:
            raise RecordError(f"{shown}: written in record format {fmt}; this whistdsl reads {FORMAT} (upgrade whistdsl)")
    # the schema checks each list's length before its items, so the first error is found
    # without walking a list that is too long; a record that passed it before, the very same
    # data, is known to pass (the per-user cache, whistdsl/cache.py)
    from ..cache import known, remember

    try:
        same = json.dumps(data, sort_keys=True, ensure_ascii=True)
    except (TypeError, ValueError):  # a value JSON does not write back (a fraction): checked every time
        same = None
    if same is not None and known("record-shape", same):
        return data
    error = next(iter(_record_validator().iter_errors(data)), None)
    if error is not None:
        where = "/".join(str(p) for p in error.absolute_path) or "the top level"
        raise RecordError(f"{shown}: not a valid record at {where}: {_record_message(error)}")
    if same is not None:
        remember("record-shape", same)
    return data


def _record_message(error: jsonschema.ValidationError) -> str:
    """The schema's complaint in words, never repeating a long value whole."""
    if error.validator in ("anyOf", "oneOf") and error.context:
        # the alternative of the value's own type says what is wrong with it
        fitting = [e for e in error.context if e.validator != "type"]
        if fitting:
            return _record_message(fitting[0])
    # the schema's value and the record's, JSON of any shape; validation sets both (jsonschema's
    # Unset marks an error made by hand)
    v = error.validator
    limit: Any = error.validator_value
    value: Any = error.instance
    if v == "maxItems":
        return f"a list of {len(value)} items; at most {limit} are allowed"
    if v == "minItems":
        return f"a list of {len(value)} items; at least {limit} are needed"
    if v == "maxLength":
        return f"a text of {len(value)} characters; at most {limit} are allowed"
    if v == "maxProperties":
        return f"{len(value)} entries; at most {limit} are allowed"
    if v == "pattern" and isinstance(value, str):
        shown = value if len(value) <= 40 else value[:37] + "..."
        return f"{json.dumps(shown, ensure_ascii=True)} is not {_RECORD_PATTERN_WORDS.get(limit, 'of the right form')}"
    message = error.message
    return message if len(message) <= 200 else message[:197] + "..."


#: What the record schema's patterns mean, in words.
_RECORD_PATTERN_WORDS = {
    CARD_PATTERN: "a card (rank then suit, e.g. TS; or the mark of a special card of the deck, e.g. W)",
    EXACT_PATTERN: 'an exact number (a whole number, or a fraction such as "1/2" with a denominator that is not 0)',
}


def record_rules(record: dict[str, Any]) -> Ruleset:
    """The ruleset stored inside a record (its merged copy), compiled: checked exactly as a
    ruleset file, within the same size (MAX_FILE_BYTES, measured as compact JSON)."""
    source = record["ruleset"]["source"]
    if len(json.dumps(source, separators=(",", ":"))) > MAX_FILE_BYTES:
        raise RecordError(f"the ruleset inside the record is larger than {MAX_FILE_BYTES // 1024} KiB, the limit of a ruleset file")
    try:
        return rules_from_data(source, "<ruleset in record>")
    except RulesetError as e:
        first = e.result.findings[0] if e.result.findings else None
        raise RecordError(f"the ruleset inside the record does not lint clean: {first.message if first else ''}") from None


def preset_deals(record: dict[str, Any], specials: tuple[Special, ...] = ()) -> dict[int, PresetDeal]:
    """The record's deals as set-up deals for the engine, by hand number (`specials`: the
    special cards of the record's deck, written by their marks)."""
    deals = {}
    for hand in record["hands"]:
        try:
            deal = tuple(tuple(parse_card(c, specials) for c in cards) for cards in hand["deal"])
            turn_up = parse_card(hand["turn_up"], specials) if hand.get("turn_up") else None
            # the deals dealt again before this one (`redeal`), by the same dealer, in order
            redeals = tuple(
                PresetDeal(
                    deal=tuple(tuple(parse_card(c, specials) for c in cards) for cards in r["deal"]),
                    dealer=hand.get("dealer"),
                    turn_up=parse_card(r["turn_up"], specials) if r.get("turn_up") else None,
                )
                for r in hand.get("redeals", ())
            )
        except CardSyntaxError as e:
            raise Disagreement(hand["number"], "deal", str(e)) from None
        # a trump named by a seat is replayed as its decision, not set up
        named = any(c.get("decision") in ("trump", "auction") for c in hand.get("choices", ()))
        trump = hand.get("trump") if not named else None
        deals[hand["number"]] = PresetDeal(
            deal=deal,
            dealer=hand.get("dealer"),
            turn_up=turn_up,
            # a set-up deal may name its trump suit instead of a turned-up card
            # (a trump drawn at random may be none: no trump, as drawn)
            trump=suit_number(trump) if trump is not None and turn_up is None else NO_TRUMP if not named and _drawn_no_trump(hand) else None,
            redeals=redeals,
        )
    return deals


def _drawn_no_trump(hand: dict[str, Any]) -> bool:
    """Whether the record says this hand's trump was drawn at random and came out no trump."""
    return "trump" in hand and hand["trump"] is None and hand.get("trump_from") == "random" and not hand.get("turn_up")


def _replay_decisions(game: Game, hand: dict[str, Any]) -> None:  # noqa: C901 one check per decision kind
    """Replay a hand's decisions and bids in the order the rules ask for them (language 2): each
    recorded choice and bid (its named call, whether blind) through the engine's own checks."""
    number = hand["number"]
    # the choices made on the deals dealt again (the auction's passes), then on the one played
    choices = [*(c for r in hand.get("redeals", ()) for c in r.get("choices", ())), *hand.get("choices", [])]
    bids = [b for b in hand.get("bids", []) if "made_for" not in b]  # the rest the engine makes itself
    made_for = [b for b in hand.get("bids", []) if "made_for" in b]
    try:
        while game.hand_number == number and game.phase in ("decision", "bidding") and not game.over:
            if game.phase == "decision":
                if not choices:
                    if bids:
                        raise Disagreement(
                            number,
                            "bidding",
                            f"the rules ask seat {game.to_act} to choose {_decision_words(game.decision)} first; the record has no such choice",
                        )
                    break
                c = choices.pop(0)
                seat, decision, choice = c["seat"], c["decision"], c["choice"]
                if (seat, decision) != (game.to_act, game.decision):
                    raise Disagreement(
                        number,
                        "bidding",
                        f"the record says seat {seat} chose {_decision_words(decision)} next; by the rules seat {game.to_act} chooses {_decision_words(game.decision)}",
                    )
                try:
                    game.decide(choice)
                except IllegalAction as e:
                    raise Disagreement(number, "bidding", f"seat {seat} chose {choice} but {e.detail}") from None
                continue
            if not bids:
                break
            b = bids.pop(0)
            seat, bid, call = b["seat"], b["bid"], b.get("call")
            if game.to_act != seat:
                if game.bids[seat] is not None and (seat == game.declarer or game.excused[seat]):
                    why = "it won the auction" if seat == game.declarer else "it is excused from bidding"
                    raise Disagreement(
                        number, "bidding", f"the record says seat {seat} bid {call or bid}; by the rules its bid is made for it ({why})"
                    )
                raise Disagreement(number, "bidding", f"the record says seat {seat} bid next; by the rules seat {game.to_act} bids")
            if bool(b.get("blind", False)) != bool(game.blind[seat]):
                said, chose = ("blind", "to look") if b.get("blind") else ("after looking", "to bid blind")
                raise Disagreement(number, "bidding", f"the record says seat {seat} bid {said}, but it chose {chose}")
            counts = dict(game.rules.calls)
            if call is not None and call in counts and counts[call] != bid:
                raise Disagreement(number, "bidding", f"seat {seat} called {call}, which counts as {counts[call]}, but the record says {bid}")
            try:
                game.bid(call if call is not None else bid)
            except IllegalAction as e:
                raise Disagreement(number, "bidding", f"seat {seat} bid {call or bid} but {e.detail}") from None
    except ValueError as e:  # this hand's deals dealt again, or the next hand's recorded deal, do not fit
        raise Disagreement(_deal_hand(e, number + 1), "deal", _deal_problem(e)) from None
    if choices:
        c = choices[0]
        raise Disagreement(
            number, "bidding", f"the record says seat {c['seat']} chose {_decision_words(c['decision'])}; by the rules there is no such choice now"
        )
    if bids:
        raise Disagreement(number, "bidding", f"the record has a bid by seat {bids[0]['seat']} after everyone has bid")
    if game.hand_number == number and game.phase == "play":
        _check_made_for(game, number, made_for)
    if game.hand_number == number and game.phase == "play" and "trump" in hand:
        trump = None if game.trump < 0 else suit_name(game.trump)
        if hand["trump"] != trump:
            named = f"seat {game.trump_named_by} named {trump or 'none'}" if game.trump_named_by is not None else f"the rules say {trump or 'none'}"
            raise Disagreement(number, "deal", f"the record says trump is {hand['trump'] or 'none'}, but {named}")


def _check_made_for(game: Game, number: int, made_for: list[dict[str, Any]]) -> None:
    """The bids the record says were made for a seat (the declarer's contract, an excused seat's
    0, the bid of a call made in the auction) must be the ones the engine made, and every one the engine made must be in the record."""
    recorded = {b["seat"]: b for b in made_for}
    for seat in game.bidding_order:
        called = game.calls[seat] and game.calls[seat] == game.auction_calls[seat]  # a dash in the auction
        why = "declarer" if seat == game.declarer else "excused" if game.excused[seat] else "auction_call" if called else None
        b = recorded.pop(seat, None)
        if why is None:
            if b is not None:
                raise Disagreement(
                    number, "bidding", f"the record says seat {seat}'s bid was made for it ({b['made_for']}); by the rules it bids itself"
                )
            continue
        if b is None:
            raise Disagreement(number, "bidding", f"by the rules seat {seat}'s bid is made for it ({why}); the record has no such bid")
        if b["made_for"] != why or b["bid"] != game.bids[seat]:
            raise Disagreement(
                number,
                "bidding",
                f"the record says seat {seat}'s bid {b['bid']} was made for it ({b['made_for']}); by the rules it is {game.bids[seat]} ({why})",
            )
    for seat in recorded:
        raise Disagreement(number, "bidding", f"the record has a bid made for seat {seat}, which does not bid this hand")


def _decision_words(decision: str | None) -> str:
    return {"trump": "trump", "auction": "a bid or pass in the auction", "declare": "a declaration or no"}.get(decision or "", "whether to bid blind")


def played_parameters(record: dict[str, Any], rules: Ruleset, settings: Sequence[str] = ()) -> Ruleset:
    """`rules` with the parameters the record was played with (format 2 keeps them), and the
    `--set` values of those it does not state (a format 1 record, a set-up deal file).

    A `--set` that disagrees with the record is refused: the record is a game played with its
    values, and replaying it with others would only report that the game differs."""
    recorded = dict(record.get("parameters") or {})
    for name, value in recorded.items():  # a fractional number is kept exactly, as "3/2"
        p = rules.parameter(name)
        if p is not None and p.type == "number" and isinstance(value, str):
            try:
                recorded[name] = read_exact(value)
            except (ValueError, ZeroDivisionError):
                pass  # not a number: with_parameters says so
    chosen = read_settings(rules, settings)
    for name, value in chosen.items():
        if name in recorded and (recorded[name] != value or type(recorded[name]) is not type(value)):
            raise SettingError(
                f"--set {name}={value_text(value)}: the record was played with {name} = {value_text(recorded[name])}; "
                "replay reads the parameters from the record (leave this --set out)"
            )
    for name in recorded:
        if rules.parameter(name) is None:
            raise Disagreement(
                1,
                "set-up",
                f"the record was played with the parameter {name} = {value_text(recorded[name])}: {unknown_parameter(rules, name)}",
            )
    try:
        return rules.with_parameters({**chosen, **recorded}) if rules.parameters or recorded else rules
    except (ValueError, EvalError) as e:
        raise Disagreement(1, "set-up", f"the record's parameters do not fit {rules.name}: {e}") from None


@dataclass
class ReplayResult:
    game: Game
    hands: int  # hands checked completely
    complete: bool  # the record holds the whole game, `final` included


def replay(  # noqa: C901 each check a record gets, in the order of play
    record: dict[str, Any],
    rules: Ruleset | None = None,
    on_hand: Callable[[Game, HandResult], None] | None = None,
    settings: Sequence[str] = (),
) -> ReplayResult:
    """Re-run `record` against `rules` (default: its own ruleset), with the parameters the record
    was played with; `settings` (`--set NAME=VALUE`) gives those it does not state. Raises
    Disagreement, and SettingError for a setting that does not fit or disagrees with the record."""
    if rules is None:
        if "ruleset" not in record:
            raise RecordError("this record holds no ruleset: name one (--ruleset)")
        rules = record_rules(record)
    rules = played_parameters(record, rules, settings)
    hands = record["hands"]
    players = len(record["players"]) if "players" in record else (len(hands[0]["deal"]) if hands else rules.players_default)
    set_up = "players" not in record  # a set-up deal file may put any dealer at any hand
    if not rules.players_min <= players <= rules.players_max:
        raise Disagreement(1, "set-up", f"the record has {players} players; {rules.name} allows {rules.players_min} to {rules.players_max}")
    if rules.table_problem(players) is not None:
        raise Disagreement(1, "set-up", f"the record has {players} players: {rules.table_problem(players)}")
    planned = rules.planned_hands(players)
    for hand in hands:  # the schedule first: a deal of the wrong size says less
        number = hand["number"]
        if number <= len(planned) and hand.get("cards", planned[number - 1].size) != planned[number - 1].size:
            raise Disagreement(number, "deal", f"the record says {hand['cards']} cards; the rules deal {planned[number - 1].size}")
    deals = preset_deals(record, rules.specials)
    first_dealer = record.get("first_dealer", hands[0].get("dealer", 0) if hands else 0)
    try:
        game = Game(
            rules,
            players=players,
            seed=record.get("seed"),
            first_dealer=first_dealer,
            names=[p["name"] for p in record["players"]] if "players" in record else None,
            deals=deals,
        )
    except ValueError as e:
        raise Disagreement(hands[0]["number"] if hands else 1, "deal", _deal_problem(e)) from None
    complete_hands = 0
    for i, hand in enumerate(hands):
        number = hand["number"]
        if game.over:
            raise Disagreement(number, "deal", f"the record goes on, but by the rules the game ended after hand {number - 1}")
        plan = game.plan[game.index]
        cards, kind = hand.get("cards", plan.size), hand.get("kind", plan.kind)
        if plan.number != number or plan.size != cards or plan.kind != kind:
            raise Disagreement(
                number,
                "deal",
                f"the record says hand {number} deals {cards} cards ({kind}); the rules say hand {plan.number} deals {plan.size} ({plan.kind})",
            )
        expected_dealer = game.rotation_dealer if game.index > 0 else game.dealer
        if hand.get("dealer", expected_dealer) != expected_dealer and not set_up:
            raise Disagreement(number, "deal", f"the record says seat {hand['dealer']} deals; the rules pass the deal to seat {expected_dealer}")
        if "sitting_out" in hand and sorted(hand["sitting_out"]) != list(game.sitting_out):
            raise Disagreement(number, "deal", f"the record says {hand['sitting_out']} sit out; the rules say {list(game.sitting_out)}")
        if hand.get("trump_from", game.trump_from) != game.trump_from:
            said = game.trump_from.replace("_", " ") if game.trump_from else "no source"
            raise Disagreement(
                number, "deal", f"the record says trump came from {hand['trump_from'].replace('_', ' ')}; by the rules it comes from {said}"
            )
        drawn = trump_step(rules).drawn
        if game.trump_from == "random" and not hand.get("choices") and game.trump not in drawn:
            drawn_words = ", ".join("no trump" if o == NO_TRUMP else suit_name(o) for o in drawn)
            raise Disagreement(
                number, "deal", f"the record says trump {hand.get('trump') or 'none'} was drawn at random; the rules draw only {drawn_words}"
            )
        rules_trump = None if game.trump < 0 else suit_name(game.trump)
        if "trump" in hand and hand["trump"] != rules_trump and not hand.get("choices"):
            raise Disagreement(number, "deal", f"the record says trump is {hand['trump'] or 'none'}; the rules say {rules_trump or 'none'}")
        if rules.has_decisions or hand.get("choices"):
            _replay_decisions(game, hand)
        for b in hand.get("bids", []) if not rules.has_decisions else ():
            seat, bid = b["seat"], b["bid"]
            if game.phase != "bidding":
                raise Disagreement(number, "bidding", f"the record has a bid by seat {seat} after everyone has bid")
            if game.to_act != seat:
                raise Disagreement(number, "bidding", f"the record says seat {seat} bid next; by the rules seat {game.to_act} bids")
            try:
                game.bid(bid)
            except IllegalAction as e:
                raise Disagreement(number, "bidding", f"seat {seat} bid {bid} but {e.detail}") from None
            except ValueError as e:  # the next hand's recorded deal does not fit
                raise Disagreement(number + 1, "deal", _deal_problem(e)) from None
        for t, trick in enumerate(hand.get("tricks", []), start=1):
            where = f"trick {t}"
            if game.phase != "play":
                raise Disagreement(number, where, "the record has a trick before the bidding is complete")
            if trick["leader"] != game.to_act:
                raise Disagreement(number, where, f"the record says seat {trick['leader']} led; by the rules seat {game.to_act} leads")
            for played in trick["cards"]:
                seat, text = played["seat"], played["card"]
                if game.to_act != seat:
                    raise Disagreement(number, where, f"the record says seat {seat} played next; by the rules seat {game.to_act} plays")
                try:
                    game.play(parse_card(text, game.rules.specials))
                except (IllegalAction, CardSyntaxError) as e:
                    detail = getattr(e, "detail", str(e))
                    raise Disagreement(number, where, f"seat {seat} played {text} but {detail}") from None
                except ValueError as e:  # the next hand's recorded deal does not fit
                    raise Disagreement(number + 1, "deal", _deal_problem(e)) from None
            finished = game.history[-1] if game.history and game.history[-1].number == number else None
            done = finished.tricks if finished is not None else game.tricks
            if len(done) < t:
                cards = len(trick["cards"])
                raise Disagreement(
                    number,
                    where,
                    f"the record's trick has {cards} card{'' if cards == 1 else 's'}; every trick has one from each of the {len(game.bidding_order)} seats that play",
                )
            last = done[-1]
            if trick["winner"] != last.winner:
                cards = " ".join(card_text(c, game.rules.specials) for _, c in last.cards)
                raise Disagreement(number, where, f"the record says seat {trick['winner']} won; by the rules seat {last.winner} wins ({cards})")
        finished = game.history[-1] if game.history and game.history[-1].number == number else None
        if finished is None:
            later = hands[i + 1 :]
            if later and not (set_up and not any(h.get("bids") or h.get("tricks") for h in later)):
                raise Disagreement(number, "end of hand", "this hand is incomplete but the record goes on")
            listed = [key for key in ("taken", "points", "bonus", "totals", "running") if key in hand]
            if listed:
                raise Disagreement(number, "end of hand", f"the record lists the hand's {listed[0]}, but the hand is not finished")
            try:  # a set-up deal file: the later hands are deals only, each checked as its hand would be
                check_set_up_deals(game, {h["number"]: deals[h["number"]] for h in later})
            except ValueError as e:
                raise Disagreement(_deal_hand(e, number), "deal", _deal_problem(e)) from None
            break  # a partial record (set-up deals, an interrupted hand): checked as far as it goes
        _compare_results(hand, finished)
        complete_hands += 1
        if on_hand is not None:
            on_hand(game, finished)
    final = record.get("final")
    if final is not None:
        if not game.over:
            nxt = game.plan[game.index]
            raise Disagreement(nxt.number, "end", f"the record ends the game; by the rules hand {nxt.number} ({nxt.size} cards) follows")
        want = [exact(t) for t in game.game_result.totals]
        if final["totals"] != want:
            raise Disagreement(hands[-1]["number"], "end", f"the record's final totals are {final['totals']}; the rules say {want}")
        if sorted(final["winners"]) != sorted(game.game_result.winners):
            raise Disagreement(
                hands[-1]["number"],
                "end",
                f"the record says the winner is {_seats(final['winners'])}; by the rules it is {_seats(game.game_result.winners)}",
            )
    return ReplayResult(game, complete_hands, final is not None)


def check_set_up_deals(game: Game, deals: dict[int, PresetDeal]) -> None:
    """Check set-up deals of later hands of the schedule now, exactly as the engine will when each
    hand begins (a game set up at that hand). Raises ValueError (`hand N: ...`) for one that does
    not fit. A tie-break hand's deal is checked when it is played."""
    first_dealer = game.first_dealer  # a set-up deal that names its dealer moves the deal on from there
    for number in sorted(deals):
        if number <= game.plan[game.index].number or number > game.scheduled_hands:
            continue
        try:
            probe = Game(game.rules, game.players, seed=0, first_dealer=first_dealer, deals={number: deals[number]}, start_at=number)
        except (RuleError, EvalError):
            return  # the game cannot reach this hand: it stops before, with the rule error
        first_dealer = probe.first_dealer


def _deal_hand(e: ValueError, default: int) -> int:
    """The hand number the engine's message about a set-up deal starts with (`hand 3: ...`)."""
    m = re.match(r"hand (\d+): ", str(e))
    return int(m.group(1)) if m else default


def _deal_problem(e: ValueError) -> str:
    """The engine's message about a set-up deal, without its own "hand N: " prefix."""
    text = str(e)
    return text.split(": ", 1)[1] if text.startswith("hand ") and ": " in text else text


def _seats(seats) -> str:
    seats = list(seats)
    return " and ".join(f"seat {s}" for s in seats) if seats else "nobody"


def _compare_results(hand: dict[str, Any], result: HandResult) -> None:
    number = hand["number"]
    for k, (recorded, redealt) in enumerate(zip(hand.get("redeals", ()), result.redeals), 1):
        if recorded["why"] != redealt.why:
            said = {"when": "`redeal.when` held of it", "passed_out": "every seat passed in the auction"}
            raise Disagreement(
                number, "deal", f"the record says deal {k} of this hand was dealt again as {said[recorded['why']]}; by the rules {said[redealt.why]}"
            )
    checks = [
        ("taken", result.taken, "tricks taken"),
        ("points", result.points, "points"),
        ("bonus", result.bonus, "bonus"),
        ("totals", result.totals, "totals"),
    ]
    for key, want, what in checks:
        if key not in hand:
            continue
        got = hand[key]
        if len(got) != len(want):
            raise Disagreement(number, "scoring", f"the record lists {what} for {len(got)} seats; the game has {len(want)}")
        for seat, (recorded, computed) in enumerate(zip(got, want)):
            if read_exact(recorded) != computed:
                raise Disagreement(number, "scoring", f"seat {seat}: the record says {what} {recorded}; the rules say {exact(computed)}")
    if "running" in hand:
        for seat, (got, running) in enumerate(zip(hand["running"], result.running)):
            want_json = {k: exact(v) for k, v in running.items()}
            if got != want_json:
                raise Disagreement(number, "scoring", f"seat {seat}: the record's running values are {got}; the rules say {want_json}")


def resume(record: dict[str, Any], rules: Ruleset | None = None, settings: Sequence[str] = ()) -> Game:
    """The game of an interrupted record, positioned after its last complete hand, with the
    random generator exactly where it was: it ends as the uninterrupted game would have. It keeps
    the parameters the record was played with (`settings` may only repeat them)."""
    state = record.get("resume")
    if state is None and record.get("hands") == [] and record.get("final") is None and "seed" in record:
        return _restart(record, rules, settings)
    if state is None:
        raise RecordError("the record has no resume point (it was written without one, or holds no complete hand)")
    if record.get("final") is not None:
        raise RecordError("the game in this record is already over")
    complete = state["after_hand"]
    if complete != len(record["hands"]):
        raise RecordError(f"the record's resume point is after hand {complete}, but it holds {len(record['hands'])} hands")
    restored = _generator_state(state["rng_state"])
    result = replay(record, rules, settings=settings)
    result.game.rng.setstate(restored)
    if result.game.history:  # so a record written from here on can be resumed again
        result.game.history[-1] = result.game.history[-1]._replace(rng_state=restored)
    result.game.first_dealer_draw = tuple(parse_card(c, result.game.rules.specials) for c in record.get("first_dealer_draw", []))
    # the next hand was dealt when the last recorded hand ended, before the state was restored:
    # deal it again from the restored generator
    game = result.game
    game.keep_rng_states = True
    if not game.over:
        game.begin_hand(game.index)
    return game


def _restart(record: dict[str, Any], rules: Ruleset | None, settings: Sequence[str]) -> Game:
    """A game stopped before its first hand ended, started again from its seed: the same players,
    the same first dealer and, since nothing was drawn yet but the deal, the same first deal."""
    game = replay(record, rules, settings=settings).game  # the record's rules, parameters, seed, seats
    again = Game(game.rules, game.players, seed=game.seed, names=list(game.names))
    if again.first_dealer == game.first_dealer:  # the rules' own first dealer (drawn again alike), not --first-dealer
        game = again
    game.keep_rng_states = True
    return game


#: Python's Mersenne Twister state: version 3, 624 words of 32 bits and the index (0 to 624).
_MT_WORDS = 624


def _generator_state(saved: Any) -> tuple[int, tuple[int, ...], float | None]:
    """A record's `resume.rng_state` as a state `random.Random.setstate` takes, checked first:
    whatever a file holds there (garbage, a short list, strings, numbers out of range) is a
    RecordError, never an exception from inside `random`."""

    def bad(why: str) -> RecordError:
        return RecordError(f"the record's generator state (resume.rng_state) cannot be restored: {why}")

    if not isinstance(saved, list) or len(saved) != 3:
        raise bad("it must be a list of 3 items: [version, [624 words and an index], gauss]")
    version, internal, gauss = saved
    if type(version) is not int or version != 3:
        raise bad(f"version {version!r}; this whistdsl restores version 3")
    if not isinstance(internal, list) or len(internal) != _MT_WORDS + 1:
        size = len(internal) if isinstance(internal, list) else type(internal).__name__
        raise bad(f"the state must be a list of {_MT_WORDS + 1} whole numbers, not {size}")
    for i, word in enumerate(internal):
        if type(word) is not int or not 0 <= word < 2**32:
            raise bad(f"item {i} of the state is {word!r}, not a whole number from 0 to 2**32 - 1")
    if not internal[-1] <= _MT_WORDS:
        raise bad(f"the state's index is {internal[-1]}, not 0 to {_MT_WORDS}")
    if gauss is not None and (type(gauss) not in (int, float) or gauss != gauss or abs(gauss) == float("inf")):
        raise bad(f"gauss is {gauss!r}, not a number or null")
    state = (version, tuple(internal), None if gauss is None else float(gauss))
    try:
        random.Random().setstate(state)
    except (TypeError, ValueError, OverflowError) as e:  # pragma: no cover - checked above
        raise bad(str(e)) from None
    return state


@dataclass(frozen=True)
class Step:
    """One action of a hand run: who acted, in which phase, the legal actions then, the action."""

    seat: int
    phase: str
    legal: tuple[int, ...]
    action: int | None


@dataclass
class HandRun:
    steps: list[Step]
    result: HandResult | None  # None when the actions stop before the hand ends
    game: Game


def run_hand(
    rules: Ruleset,
    deal: PresetDeal,
    actions: list[int | str | None],
    *,
    players: int | None = None,
    hand_number: int = 1,
    seed: int = 0,
) -> HandRun:
    """Play one hand from a given deal: bids as numbers, then cards as text (`"QH"`) or numbers.

    Returns every step with the legal actions seen at that moment, and the hand's result.
    Raises IllegalAction (with its reason) at the first action the rules refuse.
    """
    game = Game(rules, players=players, seed=seed, first_dealer=deal.dealer, deals={hand_number: deal}, start_at=hand_number)
    steps: list[Step] = []
    for action in actions:
        if game.over or len(game.history) > 0:
            raise IllegalAction("the hand is over; there are more actions than it needs", "game_over")
        seat, phase = game.seat_to_act, game.phase
        legal = tuple(game.legal_actions()) if phase == "bidding" or game.can_see_own_hand(seat) else ()
        value = parse_card(action, rules.specials) if isinstance(action, str) else action
        game.act(value)
        steps.append(Step(seat, phase, legal, value))
    result = game.history[0] if game.history else None
    return HandRun(steps, result, game)
