"""The compiled hand's bidding: the legal bids (the ruleset's limits written out, remembered by
the values they read), a random bid or the player's, checked."""

from __future__ import annotations

from ...language.codegen import Untranslatable
from ...language.program import Memo
from .base import _SEAT_FACTS, Writing, _indent


class _AllBids(dict):
    """size -> [0, 1, ..., size]: every bid, for a ruleset without bidding limits (made once a size)."""

    def __missing__(self, size: int) -> list[int]:
        bids = self[size] = list(range(size + 1))
        return bids


class BiddingWriter(Writing):
    """Writes the bidding."""

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
