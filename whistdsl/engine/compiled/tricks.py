"""The compiled hand's tricks: standard tricks (follow suit, the ruleset's rule for a player
void), special cards and ordered winner rules written out for random play, else engine/tricks.py's
trick rules called for each card."""

from __future__ import annotations

from ..cards import SPECIAL, SUIT_OF
from .base import Writing, _indent


class TricksWriter(Writing):
    """Writes the tricks of a hand."""

    def _play(self, random: bool, in_locals: bool = False) -> list[str]:
        """The tricks (`in_locals`: in the game loop, whose locals hold the seat orders)."""
        rules = self.rules
        if in_locals:
            lines = ["    # the tricks", "    leader = first_leader"]
        else:
            lines = [
                "    # the tricks",
                "    leader = g.leader",
                "    play_orders = g.play_orders",
                "    taken = g.taken",
            ]
        if not (random and (rules.standard_tricks or self._special_tricks_written_out())):  # these keep PlayedTricks instead
            lines += ["    tricks = g.tricks"]
        if not rules.standard_tricks and random and self._special_tricks_written_out():
            lines += self._special_tricks_random(in_locals)
        elif not rules.standard_tricks:
            if self._special_tricks_written_out():
                self._note(
                    "special cards or trick rules beyond the standard: written out for random play; players choosing their own cards call the trick rules (engine/tricks.py) for each card"
                )
            else:
                self._note("special cards or trick rules beyond the standard: the trick rules (engine/tricks.py) are called for each card")
            lines += self._general_tricks(random)
        elif random:
            lines += self._standard_tricks_random(rules.when_void)
        else:
            lines += self._standard_tricks(rules.when_void)
        if in_locals:
            return [line.replace("    g.tricks = PlayedTricks(", "    tricks = PlayedTricks(") for line in lines]
        lines += ["    g.trick = []", "    g.legal_cards_memo = None"]
        return lines

    #: The start of a hand's play, standard or with special cards: each trick's seats in order.
    _TRICKS_HEAD = (
        "    played = []  # every card of the hand, in playing order",
        "    wins = []  # each trick's winner",
        "    first_leader = leader",
        "    for t in range(size):",
        "        left = size - t  # every playing seat holds this many cards now",
        "        seats = play_orders[leader]",
    )
    #: a uniformly random card of hand `h` holding `left` cards: the same card as the random
    #: player's pick from the hand's cards listed suit by suit
    _ANY_CARD = [
        "x = int(rnd() * left)",
        "for s in SUITS:",
        "    lst = h[s]",
        "    if x < len(lst):",
        "        c = lst.pop(x)",
        "        break",
        "    x -= len(lst)",
    ]

    def _standard_tricks_random(self, when_void: str) -> list[str]:
        """Random play of standard tricks: follow suit; when void, the ruleset's rule; the highest
        trump, else the highest card of the led suit (cards of one suit compare by value)."""
        self.constants["SUITS"] = (0, 1, 2, 3)
        any_card = lambda indent: [" " * indent + line for line in self._ANY_CARD]  # noqa: E731
        lines = [
            *self._TRICKS_HEAD,
            "        h = hands[leader]",
            *any_card(8),
            *(["        start = len(played)  # the trick's cards: played[start:], in the order of `seats`"] if when_void == "must_overtrump" else []),
            "        played.append(c)",
            "        led = win_suit = s",
            "        win_card = c",
            "        win = leader",
            "        for seat in seats[1:]:",
            "            h = hands[seat]",
            "            lst = h[led]",
            "            if lst:  # must follow suit",
            "                c = lst.pop(int(rnd() * len(lst)))",
            "                played.append(c)",
            "                if win_suit == led and c > win_card:",
            "                    win, win_card = seat, c",
            "                continue",
        ]
        if when_void != "free":
            lines += ["            lst = h[trump] if trump >= 0 else None", "            if lst:"]
            if when_void == "must_overtrump":
                lines += [
                    "                best = max((x for x in played[start:] if SUIT_OF[x] == trump), default=-1)  # must over-trump if it can",
                    "                legal = [x for x in lst if x > best] or lst",
                    "                c = legal[int(rnd() * len(legal))]",
                    "                lst.remove(c)",
                ]
            else:
                lines += ["                c = lst.pop(int(rnd() * len(lst)))  # must trump"]
            lines += [
                "                played.append(c)",
                "                if win_suit != trump or c > win_card:",
                "                    win, win_card, win_suit = seat, c, trump",
                "                continue",
            ]
        lines += [
            "            # any card",
            *any_card(12),
            "            played.append(c)",
            "            if (s == win_suit and c > win_card) or (s == trump and win_suit != trump):",
            "                win, win_card, win_suit = seat, c, s",
            "        wins.append(win)",
            "        taken[win] += 1",
            "        leader = win",
            "    g.tricks = PlayedTricks(first_leader, play_orders, played, wins)  # its Tricks built when read",
        ]
        return lines

    def _standard_tricks(self, when_void: str) -> list[str]:
        """Standard tricks with the players' own choices (each checked against the legal cards)."""
        lines = [
            "    for t in range(size):",
            "        trick = g.trick = []",
            "        seats = play_orders[leader]",
            "        h = hands[leader]",
            "        legal = h[0] + h[1] + h[2] + h[3]",
            "        g.to_act, g.legal_cards_memo = leader, None  # the position a player may look at",
            "        c = choose[leader](legal)",
            "        if c not in legal:",
            "            raise g.card_refusal(leader, c)",
            "        s = SUIT_OF[c]",
            "        h[s].remove(c)",
            "        trick.append((leader, c))",
            "        led = win_suit = s",
            "        win_card = c",
            "        win = leader",
            "        for seat in seats[1:]:",
            "            h = hands[seat]",
            "            if h[led]:",
            "                legal = h[led]  # must follow suit",
        ]
        if when_void == "must_overtrump":
            lines += [
                "            elif trump >= 0 and h[trump]:  # void: must over-trump if it can, else trump",
                "                best = max((x for _, x in trick if SUIT_OF[x] == trump), default=-1)",
                "                legal = [x for x in h[trump] if x > best] or h[trump]",
            ]
        elif when_void != "free":
            lines += [
                "            elif trump >= 0 and h[trump]:  # void: must trump",
                "                legal = h[trump]",
            ]
        lines += [
            "            else:  # any card",
            "                legal = h[0] + h[1] + h[2] + h[3]",
            "            g.to_act, g.legal_cards_memo = seat, None",
            "            c = choose[seat](legal)",
            "            if c not in legal:",
            "                raise g.card_refusal(seat, c)",
            "            s = SUIT_OF[c]",
            "            h[s].remove(c)",
            "            trick.append((seat, c))",
            "            if (s == win_suit and c > win_card) or (s == trump and win_suit != trump):",
            "                win, win_card, win_suit = seat, c, s",
            "        tricks.append(new_trick(Trick, (leader, tuple(trick), win)))",
            "        taken[win] += 1",
            "        leader = win",
        ]
        return lines

    def _special_tricks_written_out(self) -> bool:
        """Whether random play of this ruleset's general trick rules (special cards, ordered
        winner rules) is written out: all but specials that are trumps (`trump.specials`) and a
        player void who must over-trump, which call engine/tricks.py for each card."""
        return not self.rules.trump_specials and self.rules.when_void != "must_overtrump"

    def _special_tricks_random(self, in_locals: bool = False) -> list[str]:
        """Random play of the general trick rules without trump specials, as engine/tricks.py's
        general path plays them: the suit to follow is set by the first suited card, unless a
        special that does not pass the lead on (`play.special_led`) comes first (nothing to
        follow); a player who can follow may add the specials playable at any time; the winner
        is the pick of the first `trick.winner` rule that matches a card, each rule's pick kept
        as the cards come. Each card is drawn as the random player draws it from
        engine/tricks.py's legal cards, listed in the same order. The play is kept
        flat, as for standard tricks (`PlayedTricks`)."""
        rules = self.rules
        index = {s.name: i for i, s in enumerate(rules.specials)}
        has_specials = bool(rules.specials)
        playable = sorted(16 * SPECIAL + index[n] for n in rules.always_playable if n in index)
        every = has_specials and len(playable) == len(rules.specials)  # every special may be played at any time
        passes = frozenset(16 * SPECIAL + index[n] for n, how in rules.special_led if how == "pass" and n in index)
        self.constants.update(SUITS=(0, 1, 2, 3, SPECIAL) if has_specials else (0, 1, 2, 3), PASSES=passes, PLAYABLE=frozenset(playable))
        if not has_specials or not playable:
            extra = None
        elif every:
            extra = "h[SPECIAL]"
        else:
            extra = "[x for x in h[SPECIAL] if x in PLAYABLE]"

        # a card is taken out of its list by its place, or by its value where the list may hold
        # identical cards (copies, a special's count): then the first of them goes, as the
        # interpreter takes it, which keeps the lists in the same order
        deck = self.facts.deck
        suited = [c for c in deck if SUIT_OF[c] != SPECIAL]
        specials = [c for c in deck if SUIT_OF[c] == SPECIAL]
        suited_once, specials_once = len(set(suited)) == len(suited), len(set(specials)) == len(specials)

        def take(at: str, once: bool, indent: int) -> list[str]:
            pad = " " * indent
            return [f"{pad}c = lst.pop({at})"] if once else [f"{pad}c = lst[{at}]", f"{pad}lst.remove(c)"]

        def draw(follow: str) -> list[str]:
            """A card of the hand's list `follow` (suit `s`), or of the specials playable with it."""
            if extra is None:
                return [f"            lst = h[{follow}]", *take("int(rnd() * len(lst))", suited_once, 12), f"            s = {follow}"]
            return [
                f"            lst = h[{follow}]",
                "            m = len(lst)",
                f"            more = {extra}",
                "            x = int(rnd() * (m + len(more)))",
                "            if x < m:",
                *take("x", suited_once, 16),
                f"                s = {follow}",
                "            else:",
                *(
                    ["                c = more.pop(x - m)"]
                    if every and specials_once
                    else ["                c = more[x - m]", "                h[SPECIAL].remove(c)"]
                ),
                "                s = SPECIAL",
            ]

        start, update, decide = self._winner_lines(index)
        lines = [
            *self._TRICKS_HEAD,
            "        led = -3  # the suit to follow: not set yet (no card, or led specials that pass the lead on)",
            *start,
            "        for seat in seats:",
            "            h = hands[seat]",
            "            if led >= 0 and h[led]:  # must follow suit, or play a special playable at any time",
            *_indent(draw("led"), 4),
        ]
        if rules.when_void != "free":  # must_trump (must_overtrump calls engine/tricks.py)
            lines += [
                "            elif led >= 0 and trump >= 0 and h[trump]:  # void: must trump, or play such a special",
                *_indent(draw("trump"), 4),
            ]
        lines += [
            "            else:  # any card",
            "                x = int(rnd() * left)",
            "                for s in SUITS:",
            "                    lst = h[s]",
            "                    m = len(lst)",
            "                    if x < m:",
            *take("x", suited_once and specials_once, 24),
            "                        break",
            "                    x -= m",
            "            played.append(c)",
        ]
        suited_lines = ["if led == -3:", "    led = s", *update["suited"]]
        if has_specials:
            lines += [
                "            if s == SPECIAL:",
                "                if led == -3 and c not in PASSES:",
                "                    led = -2  # a special led that frees the trick: nothing to follow",
                *_indent(update["special"], 16),
                "            else:",
                *_indent(suited_lines, 16),
            ]
        else:
            lines += _indent(suited_lines, 12)
        lines += [
            *decide,
            "        if win is None:  # no rule picks a card: the interpreter names the rule",
            *(
                [
                    "            tricks = PlayedTricks(first_leader, play_orders, played[: len(played) - len(seats)], wins)",
                    *_indent(self._write_position(played=True), 8),
                ]
                if in_locals
                else ["            g.tricks = PlayedTricks(first_leader, play_orders, played[: len(played) - len(seats)], wins)"]
            ),
            "            g.trick = list(zip(seats, played[len(played) - len(seats) :]))",
            "            win = g.trick_winner(g.trick)",
            "        wins.append(win)",
            "        taken[win] += 1",
            "        leader = win",
            "    g.tricks = PlayedTricks(first_leader, play_orders, played, wins)  # its Tricks built when read",
        ]
        return lines

    def _winner_lines(self, index: dict[str, int]) -> tuple[list[str], dict[str, list[str]], list[str]]:
        """The `trick.winner` rules kept as a trick's cards come, as engine/tricks.py's general
        winner picks without trump specials: (the start of a trick, the lines after each card
        `c` of suit `s` played by `seat`, by the card's kind, "special" or "suited" (a special
        card matches only a rule naming it; a suited card only the others), the winner `win` at
        its end: None when no rule picks a card). Rule k's pick so far is `wk` (a seat, or None),
        its card's strength `bk`."""
        rules = self.rules
        later = rules.identical == "later"
        start: list[str] = []
        update: dict[str, list[str]] = {"special": [], "suited": []}  # by the card's kind
        decide: list[str] = []
        for k, rule in enumerate(rules.trick_winner):
            among, pick = rule.among, rule.pick
            w, b, bc = f"w{k}", f"b{k}", f"c{k}"
            start.append(f"        {w} = None  # {rule.text}")
            if among == "trump":
                test, special = "s == trump", False
            elif among == "led":
                test, special = "s == led", False
            elif among == "suited":
                test, special = "True", False
            else:
                test, special = f"c == {16 * SPECIAL + index[among]}", True
            if special and pick in ("highest", "lowest"):  # identical cards: the earlier, or the later
                pick = "last" if later else "first"
            kind = "special" if special else "suited"
            if pick == "first":
                update[kind] += [f"if {w} is None and {test}:  # {rule.text}", f"    {w} = seat"]
            elif pick == "last":
                update[kind] += [f"if {test}:  # {rule.text}", f"    {w} = seat"]
            else:
                sign = "" if pick == "highest" else "-"
                better = f"strength > {b}" + (f" or (strength == {b} and c == {bc})" if later else "")
                update[kind] += [
                    f"if {test}:  # {rule.text}",
                    f"    strength = {sign}STRENGTH_OF[c]",
                    f"    if {w} is None or {better}:",
                    f"        {w}, {b}, {bc} = seat, strength, c" if later else f"        {w}, {b} = seat, strength",
                ]
            decide.append(f"        {'if' if k == 0 else 'elif'} {w} is not None:")
            decide.append(f"            win = {w}")
        decide += ["        else:", "            win = None"] if decide else ["        win = None"]
        return start, update, decide

    def _general_tricks(self, random: bool) -> list[str]:
        """Special cards and ordered winner rules: engine/tricks.py's general trick rules, called."""
        if random:
            pick = ["                c = legal[int(rnd() * len(legal))]"]
        else:
            pick = [
                "                g.to_act, g.legal_cards_memo = seat, None  # the position a player may look at",
                "                c = choose[seat](legal)",
                "                if c not in legal:",
                "                    raise g.card_refusal(seat, c)",
            ]
        return [
            "    legal_cards = g.tricks_play.legal",
            f"    when_void = {self.rules.when_void.value!r}",
            "    for t in range(size):",
            "        trick = g.trick = []",
            "        for seat in play_orders[leader]:",
            "            h = hands[seat]",
            "            legal = legal_cards(h, trick, trump, when_void)",
            *[line[4:] for line in pick],
            "            h[SUIT_OF[c]].remove(c)",
            "            trick.append((seat, c))",
            "        win = g.trick_winner(trick)  # names the rule when none picks a card",
            "        tricks.append(new_trick(Trick, (leader, tuple(trick), win)))",
            "        taken[win] += 1",
            "        leader = win",
        ]
