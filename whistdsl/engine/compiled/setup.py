"""The compiled hand's set-up: a plain hand of the schedule dealt and its trump found, in
`start_hand` and in the game loop, and the loop's move to the next hand (the result recorded,
the next hand set up, or the position handed back to game.py)."""

from __future__ import annotations

from ..cards import suit_number
from .base import Writing, _indent
from .pieces import _only_a_trump_named_before_the_bidding


class SetUpWriter(Writing):
    """Writes the set-up of a hand, and the game loop's next hand."""

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
                "                tuple(g.choices), tuple(g.calls), tuple(g.blind), tuple(g.excused), g.declarer, g.auction_bid, trump_from, (),"
                if self.rules.has_decisions  # game.py's begin_decisions keeps the hand's decision fields
                else "                (), (), (), (), None, 0, trump_from, (),"
            ),
            "            ),",
            "        )",
            "    )",
            "    nxt = index + 1",
            "    if nxt < plain_until and not g.stop_after_hand:  # a hand of the schedule: set up here when plain",
            f"        known = PLAIN_HANDS.get(nxt * {self.players} + first_dealer)",
            "        if known is None:  # the first game at this table to reach it: kept if it is plain",
            *_indent(self._plain_hand(), 8),
            "        if known is not None and known[0] is plan[nxt] and known[0].kind == kind_name:",
            "            totals = totals_after",
            "            running = running_after",
            "            p, setup, none_first, dealer, sitting_out, order, position, play_orders, first_leader, deal_order = known",
            "            index = nxt",
            "            rotation_dealer = dealer",
            "            size = p.size",
            *_indent(self._deal_lines(), 8),
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

    def _plain_setup(self) -> list[str] | None:
        """The source of `start_hand(g, index)`: game.py's `begin_hand` for a hand of the
        schedule already worked out (its set-up, seat orders and trump env kept on the table's
        facts), of the same kind as the last one, dealt at random with version 1's trump step.
        None when the ruleset's set-up has more (decisions, trump sources, a first bidder chosen
        by a formula, `trump.none_when` reading the turned card): game.py sets those hands up."""
        rules = self.rules
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
        facts = self.facts
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

    def _plain_hand(self) -> list[str]:
        """The game loop's look at hand `nxt` the first time a game at this table reaches it:
        when it is plain (its set-up worked out for this plan, `trump.none_when` asked before
        the deal), what its set-up needs is kept in `known` and in PLAIN_HANDS, by hand and first
        dealer: the plan's hand, its set-up, `none_first`, its dealer and seat orders. Every
        part is the same for each game at the table (the facts keep them once worked out), so
        the next games read one tuple per hand instead of working them out again."""
        rules, n = self.rules, self.players
        none_first = (
            [
                "        kept = NO_TRUMP_KEPT.get(nxt)  # trump.none_when, asked before the deal",
                "        if kept is not None and kept[0] is setup_next:",
                "            none_first = kept[1]",
            ]
            if rules.trump_none_when is not None
            else ["        none_first = False"]
        )
        self.constants["PLAIN_HANDS"] = {}  # hand * players + first dealer -> what its set-up reads
        return [
            "    p_next = plan[nxt]",
            "    setup_next = SETUPS.get(nxt)",
            "    none_first = None",
            "    if setup_next is not None and setup_next.plan is p_next:",
            *none_first,
            "    if none_first is not None:",
            f"        dealer_next = (first_dealer + {rules.deal_direction} * nxt) % {n}",
            "        table = ORDERS.get((dealer_next, setup_next.dealer_sits_out, None)) or g.seat_orders(dealer_next, setup_next.dealer_sits_out)",
            f"        known = PLAIN_HANDS[nxt * {n} + first_dealer] = (",
            "            p_next, setup_next, none_first, dealer_next, table.sitting_out, table.bidding_order, table.position,",
            "            table.play_orders, table.first_leader, table.deal_order,",
            "        )",
        ]

    def _setup_lines(self) -> list[str]:
        """A plain hand's set-up into locals (`_POSITION`): hand `index` of the plan (`p`), its
        `setup`, and `none_first` (trump.none_when asked before the deal) already found."""
        rules, n = self.rules, self.players
        return [
            f"    dealer = rotation_dealer = (first_dealer + {rules.deal_direction} * index) % {n}",
            "    table = ORDERS.get((dealer, setup.dealer_sits_out, None)) or g.seat_orders(dealer, setup.dealer_sits_out)",
            "    sitting_out = table.sitting_out",
            "    order = table.bidding_order",
            "    position = table.position",
            "    play_orders = table.play_orders",
            "    first_leader = table.first_leader",
            "    deal_order = table.deal_order",
            "    size = p.size",
            *self._deal_lines(),
        ]

    def _deal_lines(self) -> list[str]:
        """A plain hand's deal, trump and fresh bids into locals, its seat orders (`deal_order`
        among them), size and `none_first` found."""
        rules, n = self.rules, self.players
        lines = [
            "    # the deal: a partial Fisher-Yates shuffle, each card to its seat as it is drawn (trump.py deal_from)",
            "    d = list(FULL_DECK)",
            "    i = 0",
            "    for seat in deal_order:",
            "        h = hands[seat]",
            "        first = i",
            "        for i in range(first, first + size):",
            "            j = i + int(rnd() * (DECK_SIZE - i))",
            "            c = d[j]",
            "            d[j] = d[i]",
            "            d[i] = c",
            "            h[SUIT_OF[c]].append(c)",
            "        i = first + size",
            f"    dealt = DealtCards(d, deal_order, size, {n})  # each seat's cards read off the deck when asked",
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
