"""`whistdsl play RULESET`: a whole game at the terminal, you against computer players, or (with
`--watch`) computer players only.

A person's seat is a `HumanPlayer`: it holds the seat's `Seat` (engine/seat.py, the one way in
for people, which the web table uses too), never the `Game`. It shows the seat's view, asks for
the answer its question wants (read by cli/prompt.py: with line editing and history at a
terminal), turns the text typed into an answer (`typed_card`, `auction_answer`), gives it to the
seat, and asks again with a one-line reason when the seat refuses it. `TableTalk` prints what
happens at the table (hand headers, bids, cards, tricks, the score sheet) on a rich Console,
read through the person's seat (or a spectator's, watching): colours on a terminal, plain text
when the output is a file or a pipe. `run_game` holds the game and drives the table.

The words shown are the catalogue's (whistdsl/words/), in the language of `--lang` (or
WHISTDSL_LANG; English by default, never the machine's locale: the same command shows the same
words anywhere); the same ids as the browser's table where both say the same thing. What is
typed stays as it is in every language (`QH`, `pass`, `help`), and so do the rules in words
(`rules`) and the messages of refused answers from the engine.
"""

from __future__ import annotations

import re
import sys
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.text import Text

from ..engine.cards import (
    NO_TRUMP,
    RANK_LETTERS,
    SPECIAL,
    SUIT_LETTERS,
    SUIT_SYMBOLS,
    Card,
    CardSyntaxError,
    card_shown,
    card_text,
    is_special,
    is_wild_played,
    parse_card,
    reads_as_rank,
    sort_hand,
    special_card,
    strength,
    suit_name,
    suit_of,
    wild_held,
)
from ..engine.game import BIDDING, DECISION, OVER, Game, HandResult, IllegalAction, PresetDeal, RuleError, SeatView, Trick
from ..engine.seat import Seat, Spectator
from ..engine.tricks import super_trump_cards
from ..language.errors import EvalError
from ..language.limits import MAX_DIGITS
from ..language.values import value_text
from ..players.base import Player, decide
from ..players.bots import BOTS, DEFAULT_BOT, make_bot, thinks
from ..players.search import DEFAULT_THINK, work_units
from ..printable import printable
from ..records.record import MAX_PLAYER_NAME, RecordWriter, WriteError, refuse_unwritable_target
from ..rules.ruleset import Ruleset, Special
from ..suggest import NO_BREAK, command, unbroken
from ..words import ENGLISH, LANGUAGES, Words, language_of
from .options import ROOT_OPTION, SET_HELP, THINK_OPTION, open_rules
from .options import err as _say_error
from .options import usage as _usage
from .prompt import Ask, asker
from .sheet import RED_SUITS, VIEW_MARKS, fitted_sheet, legend, mark_label, print_sheet, score_sheet, trump_label
from .terminal import page, wrap_width

HUMAN = "human"
INTERRUPTED = 130  # the shell's code for Ctrl-C
RULE_ERROR = 1  # the rules cannot go on: the game stops with a rule error
WRITE_FAILED = 1  # the record could not be written: the game stops, the last good record kept


#: The hand's header when a seat is still to name trump (`Game.trump_to_be_named`): the
#: catalogue's `play.named_by.WHO`.
_TRUMP_NAMED_BY = ("auction", "dealer", "first_bidder", "highest_bidder", "declarer")


def styled(template: str, **values: str | Text) -> Text:
    """A catalogue message (`Words.template`) with its `{name}` placeholders filled, keeping the
    style of a value that is a Text (a card in red, a trump in bold)."""
    out = Text()
    for i, part in enumerate(re.split(r"\{(\w+)\}", template)):
        if i % 2 == 0:
            out.append(part)
        else:
            value = values.get(part, "{" + part + "}")
            out.append_text(value) if isinstance(value, Text) else out.append(value)
    return out


class Stop(Exception):
    """The person at the terminal stopped the game (Ctrl-C, end of input)."""

    def __init__(self, message: str, code: int):
        super().__init__(message)
        self.message = message
        self.code = code


#: Why the game stops when its terminal has gone (closed, or hung up under `nohup`): nothing more
#: can be shown or read there. The game is kept, as at the end of input (the same exit code, 1).
GONE = "the terminal has gone"


#: joins the words of one item of a list (`Table.item`): textwrap, unlike rich, does not break there
_KEEP_WHOLE = "\u00a0"


class TableTalk:
    """What the table says: hand headers, bids, cards, tricks and results, for one console.

    It reads the game only through `window`: the person's `Seat` (engine/seat.py), or a
    `Spectator` when watching; it says nothing the window does not show. `names` are the seats'
    names. Watching, the talk is compact: one line for the bids and one per trick. Names, and
    every text of the ruleset shown, are printed with their control characters escaped.
    """

    def __init__(self, console: Console, window: Seat | Spectator, names: Sequence[str], words: Words = ENGLISH):
        self.console = console
        self.words = words
        self.t = words.text
        self.window = window
        self.rules = window.view().rules
        self.names = [printable(name) for name in names]
        self.you = window.seat  # the person's seat, None when watching
        self.compact = self.you is None
        self.symbols = console.encoding.lower().replace("-", "").startswith("utf")
        self.pausing = False  # at the end of a hand, before the next (already dealt) is shown

    # -- words

    def who(self, seat: int) -> str:
        """A seat's name, or `You` for the person's (at the start of a sentence)."""
        return self.t("play.you") if seat == self.you else self.names[seat]

    def whom(self, seat: int) -> str:
        """A seat's name, or `you` for the person's (inside a sentence)."""
        return self.t("table.you") if seat == self.you else self.names[seat]

    def styled(self, key: str, n: int | None = None, **values: str | Text) -> Text:
        """The catalogue's message `key` (for the count `n`, put in as `{count}`) with Text values kept styled."""
        if n is not None:
            values = {"count": str(n), **values}
        return styled(self.words.template(key, n), **values)

    def card(self, c: Card, trump: int = NO_TRUMP, dim: bool = False) -> Text:
        """`K♠` (hearts and diamonds in red, trumps in bold) or `KS` where symbols cannot be shown;
        a special card by its mark (`W`), or its name where the mark reads as a rank (`Jester`), in bold."""
        suit = suit_of(c)
        if suit == SPECIAL:
            text = printable(card_shown(c, self.rules.specials))
            return Text(text, style="dim" if dim else "bold magenta")
        if is_wild_played(c):  # a wild card played as a suit: `JK=♥`
            mark = printable(card_text(wild_held(c, self.rules.specials), self.rules.specials))
            text = mark + "=" + (SUIT_SYMBOLS[suit] if self.symbols else SUIT_LETTERS[suit])
            return Text(text, style="dim" if dim else "bold magenta")
        text = RANK_LETTERS[strength(c)] + (SUIT_SYMBOLS[suit] if self.symbols else SUIT_LETTERS[suit])
        if dim:
            return Text(text, style="dim")
        style = "red" if suit in RED_SUITS else ""
        return Text(text, style=f"{style} bold".strip() if suit == trump else style)

    def hand(self, cards: Sequence[Card], trump: int, legal: Sequence[Card] | None = None) -> Text:
        """A hand sorted by suit, trumps first and marked; cards that may not be played now dimmed."""
        out = Text()
        previous = None
        ordered = sort_hand(cards, trump)
        if legal is not None and self.rules.wild_cards:  # a wild card held is playable when one of its suits is
            legal = [wild_held(c, self.rules.specials) for c in legal]
        supers: tuple[Card, ...] = ()
        if self.rules.super_trumps is not None and trump != NO_TRUMP:  # shown with the trumps, above the ace
            view = self.window.view()
            supers = tuple(c for c in super_trump_cards(self.rules, view.players, view.turn_up) if c in ordered)
            first = next((i for i, c in enumerate(ordered) if suit_of(c) != SPECIAL), len(ordered))
            ordered = ordered[:first] + list(supers) + [c for c in ordered[first:] if c not in supers]
        for c in ordered:
            suit = trump if c in supers else suit_of(c)
            if previous is not None and suit != previous:
                out.append(f" ({self.t('play.trump_mark')})" if previous == trump else "")
                out.append("   ")
            elif previous is not None:
                out.append(" ")
            out.append_text(self.card(c, trump, dim=legal is not None and c not in legal))
            previous = suit
        if previous is not None and previous == trump:
            out.append(f" ({self.t('play.trump_mark')})")
        return out

    def cards_of(self, plays: Sequence[tuple[int, Card]], trump: int) -> Text:
        """`Ana K♠, Ben 2♠`: cards with who played (or holds) them."""
        out = Text()
        for i, (seat, c) in enumerate(plays):
            if i:
                out.append(", ")
            out.append(f"{self.who(seat)} ")
            out.append_text(self.card(c, trump))
        return out

    def suit_words(self, suit: int) -> str:
        """A suit's name in the table's language (`hearts`, `cupă`, `herc`)."""
        return self.t(f"suit.{suit_name(suit)}")

    def trump_words(self, trump: int) -> Text:
        if trump == NO_TRUMP:
            return Text(self.t("trump.none"))
        suit = Text()
        if self.symbols:
            suit.append_text(trump_label(trump))
            suit.append(" ")
        suit.append(self.suit_words(trump))
        return self.styled("trump.suit", suit=suit)

    def where_trump_comes_from(self, view: SeatView) -> Text:
        """`trump hearts (turned up: 7H)`; `the dealer's last card, 7H, is trump: hearts`;
        `trump drawn at random: hearts`; `trump hearts (named by Ana; turned up: W)`; `trump is
        shown after the bidding`."""
        if view.trump_hidden:
            return Text(self.t("play.trump_hidden"))
        words = self.trump_words(view.trump)
        if view.trump_named_by is not None:
            if view.turn_up is not None:
                return self.styled("play.trump_named_turned", trump=words, name=self.whom(view.trump_named_by), card=self.card(view.turn_up))
            return self.styled("play.trump_named", trump=words, name=self.whom(view.trump_named_by))
        if view.turn_up is None:
            if view.trump_from == "random":
                return self.styled("play.trump_random", trump=words)
            return words
        card = self.card(view.turn_up)
        if view.trump_from == "dealer_last_card":
            return self.styled("play.trump_dealer_card", card=card, name=self.whom(view.dealer), trump=words)
        if view.trump_from == "before_deal":
            key = "play.trump_before_deal_pack" if view.turn_up_place == "pack" else "play.trump_before_deal"
            return self.styled(key, card=card, trump=words)
        return self.styled("play.trump_turned", trump=words, card=card)  # the next card after the deal

    def trump_shown(self) -> None:
        """After the bidding, a trump kept hidden is shown (`trump.seen: after_bidding`)."""
        self.say(self.styled("play.trump_now_shown", trump=self.where_trump_comes_from(self.window.view())))

    def say(self, *parts: str | Text, style: str = "") -> None:
        """One line; plain parts are escaped (Text parts are built from escaped words) and never
        read as markup."""
        shown = [printable(part) if isinstance(part, str) else part for part in parts]
        text = Text.assemble(*shown, style=style)
        if self.console.is_terminal and _KEEP_WHOLE in text.plain:  # a list whose items `item` keeps whole
            wrapped = textwrap.wrap(text.plain, self.console.width, break_long_words=False, break_on_hyphens=False)
            text = Text("\n".join(wrapped).replace(_KEEP_WHOLE, " "), style=style)
        # on a terminal, wrapped at words to its width; in a file or a pipe, one line as it is
        self.console.print(text, highlight=False, soft_wrap=not self.console.is_terminal)

    def item(self, words: str) -> str:
        """One item of a list said on one line (`Gustav Adolf 0/2`): on a terminal `say` wraps the
        line between the items, never inside one (rich would break at any space)."""
        return words.replace(" ", _KEEP_WHOLE) if self.console.is_terminal else words

    # -- events

    def hand_starts(self) -> None:
        g = self.window
        view = g.view()
        t = self.t
        if view.extra:
            title = t("play.hand_title_tie_break", hand=view.hand_number)
        elif self.rules.end is not None:  # the game ends on a condition: the schedule's hands are a cap
            title = t("play.hand_title_at_most", hand=view.hand_number, hands=g.scheduled_hands)
        else:
            title = t("play.hand_title", hand=view.hand_number, hands=g.scheduled_hands)
        kind = self.rules.kinds[view.kind]
        self.console.print()
        self.console.rule(title, align="left", style="dim")
        named_by = g.trump_to_be_named()
        if named_by is None:
            trump = self.where_trump_comes_from(view)
        else:
            trump = Text(t(f"play.named_by.{named_by}"))
            if view.turn_up is not None:  # turned up, and naming no trump (a Wizard)
                trump = self.styled("play.trump_turned", trump=trump, card=self.card(view.turn_up))
        header = self.styled("play.hand_header", view.hand_size, trump=trump, dealer=self.whom(view.dealer))
        if view.sitting_out:
            out = ", ".join(self.whom(s) for s in view.sitting_out)
            header.append(
                t("play.you_sit_out") if list(view.sitting_out) == [self.you] else self.words.count("play.sit_out", len(view.sitting_out), names=out)
            )
        self.say(header)
        if view.redeals:
            self.say(self.words.count("play.dealt_again", view.redeals))
        supers = () if view.trump_hidden else super_trump_cards(self.rules, view.players, view.turn_up)
        if supers:  # the cards the turned card makes trumps above the ace (`trump.super_trumps`)
            self.say(self.styled("trump.super_trumps", cards=Text(", ").join(self.card(c, view.trump) for c in supers)))
        what = kind.description or (t(f"play.view.{view.view}") if view.view in VIEW_MARKS else "")
        if what:
            label = mark_label(kind.mark) if kind.mark else kind.name.capitalize()
            self.say(t("play.kind_hand", kind=label, what=what), style="italic")  # say escapes the ruleset's words

    def bid_made(self, seat: int, bid: int) -> None:
        if self.compact:
            return
        g = self.window.view()
        t, you = self.t, seat == self.you
        # bids are made in the bidding order: this one is the `place`-th; the first `together` are hidden
        # until the last of them is made (when that is the hand's last bid, the bidding is over)
        place, together = g.bidding_order.index(seat) + 1, g.rules.bidders_together(len(g.bidding_order))
        if seat == g.declarer:
            self.say(t("play.declarer_you" if you else "play.declarer", name=self.who(seat), bid=bid))
        elif g.excused[seat]:
            self.say(t("play.excused_you") if you else t("play.excused_seat", name=self.who(seat)))
        elif seat != self.you and (place < together or place == together < len(g.bidding_order)):
            self.say(t("play.has_bid_blind" if g.blind[seat] else "play.has_bid", name=self.who(seat)))
        elif g.calls[seat]:
            self.say(t("play.called_blind" if g.blind[seat] else "play.called", name=self.who(seat), call=printable(g.calls[seat]), bid=bid))
        else:
            self.say(t("play.bid_blind" if g.blind[seat] else "play.bid", name=self.who(seat), bid=bid))
        if place == together < len(g.bidding_order):  # the bids made together are shown; the last bidder sees them
            self.say(t("play.bids_shown", bids=", ".join(self._bid_words(g, s, b) for s, b in g.bids)))

    def decision_made(self, seat: int, decision: str, choice: str) -> None:
        """A seat's decision, as the table sees it: a trump named, a choice to bid blind."""
        t = self.t
        if decision == "auction":
            g = self.window.view()
            if choice == "pass":
                self.say(t("play.you_pass") if seat == self.you else t("play.passes", name=self.who(seat)))
            elif not choice[:1].isdigit():  # a named call of the auction (a dash, a double)
                self.say(t("play.auction_call", name=self.who(seat), call=printable(choice)))
            else:
                self.say(t("play.auction_bid", name=self.who(seat), bid=printable(self.auction_words(choice))))
            if g.decision == "auction" and not g.auction and g.redeals:  # passed out: a new deal, a new auction
                self.say(t("play.passed_out_dealt_again"), style="bold")
            elif g.decision != "auction":  # the auction is over
                if g.declarer is None:
                    named_by = self.window.trump_to_be_named()
                    trump = self.where_trump_comes_from(g) if named_by is None else Text(t(f"play.named_by.{named_by}"))
                    self.say(self.styled("play.all_passed", trump=trump), style="bold")
                else:
                    key = "play.won_auction_you" if g.declarer == self.you else "play.won_auction"
                    trump = Text.assemble(" (", self.trump_words(g.trump), ")") if g.trump_named_by == g.declarer else ""  # type: ignore[assignment]  # a text or a styled Text: both print the same way
                    self.say(self.styled(key, name=self.who(g.declarer), bid=self.auction_words(str(g.auction_bid)), trump=trump), style="bold")
        elif decision == "trump":
            named = (
                t("play.named_no_trump")
                if choice == "none"
                else t("play.named_trump", suit=t(f"suit.{choice}") if f"suit.{choice}" in self.words.catalogue else choice)
            )
            self.say(t("play.named", name=self.who(seat), named=named))
        elif decision == "declare":
            if choice == "redeal":
                self.say(t("play.declared_redeal", name=self.who(seat)), style="bold")
            elif choice != "no":
                self.say(t("play.declared", name=self.who(seat), declaration=printable(choice)))
        elif choice == "blind" and not self.compact:
            self.say(t("play.will_bid_blind", name=self.who(seat)))

    def auction_words(self, bid: str) -> str:
        """An auction's bid in the table's words: `5 hearts` -> `5 cupă`; `5 none` -> `5 fără atu`."""
        number, _, suit = bid.partition(" ")
        if suit == "none":
            return f"{number} {self.t('play.auction_none')}"
        return f"{number} {self.t('suit.' + suit)}" if f"suit.{suit}" in self.words.catalogue else bid

    def _bid_words(self, view: SeatView, seat: int, bid: int) -> str:
        """`Ana 2`, `Ana nil blind`; `Ana excused` for a seat excused from bidding (its 0 made for it)."""
        if view.excused[seat]:
            return self.item(f"{self.who(seat)} {self.t('play.excused')}")
        call = printable(view.calls[seat]) if view.calls[seat] else str(bid)
        return self.item(f"{self.who(seat)} {call}" + (f" {self.t('table.blind')}" if view.blind[seat] else ""))

    def bidding_over(self) -> None:
        g = self.window.view()
        total = sum(b for _, b in g.bids)
        size = g.hand_size
        bids = ", ".join(self._bid_words(g, s, b) for s, b in g.bids)
        if total > size:
            self.say(self.words.count("play.bids_over", size, bids=bids, total=total, over=total - size))
        else:
            self.say(self.words.count("play.bids_under", size, bids=bids, total=total, under=size - total))

    def card_played(self, seat: int, card: Card, trump: int) -> None:
        if not self.compact:
            self.say(self.styled("play.played", name=self.who(seat), card=self.card(card, trump)))

    def trick_won(self, trick: Trick, number: int, trump: int, bids: dict[int, int], taken: Sequence[int]) -> None:
        w = trick.winner
        if self.compact:
            self.say(f"  {number:>2}  ", self.cards_of(trick.cards, trump), f"  -> {self.who(w)}")
        else:
            self.say(self.t("play.won_trick", name=self.who(w), number=number, taken=taken[w], bid=bids[w]), style="bold")

    def hand_over(self, result: HandResult) -> None:
        """The hand's results; with a person at the table, after the sheet so far (the results
        stay beside the pause's prompt, however long the sheet)."""
        if not self.compact and self.window.result() is None:  # the last sheet comes with the winner
            self.sheet()
        bids = dict(result.bids)
        parts = []
        for seat in range(len(self.names)):
            if seat in result.sitting_out:
                continue
            points = result.points[seat]
            if result.excused and result.excused[seat]:
                bid, made = self.t("play.excused"), ""
            else:
                bid, made = bids[seat], " " + self.t("table.made" if result.taken[seat] == bids[seat] else "table.missed")  # type: ignore[assignment]  # a bid is shown as a number or as the word for an excused seat
            parts.append(self.item(f"{self.who(seat)} {result.taken[seat]}/{bid}{made} {'+' if points > 0 else ''}{points}"))
        said = self.t("play.hand_taken_bid", hand=result.number) if not self.compact else self.t("play.taken_bid")
        self.say(f"{said} ", "; ".join(parts))

    # -- what the commands at a prompt show

    def commands(self) -> None:
        self.say(self.t("play.commands"), style="bold")
        width = max(map(len, COMMANDS))
        for name in COMMANDS:
            self.say(f"  {name:<{width}}  {self.t('play.command.' + name)}")

    def _tricks_shown(self) -> tuple[str, Sequence[Trick], int]:
        """(`this hand` or `hand N`, its tricks, its trump): this hand's tricks, or, before any is
        played, the last hand's."""
        view = self.window.view()
        played = () if view.tricks else self.window.hands_played()
        if played:
            last = played[-1]
            return self.t("play.of_hand", hand=last.number), last.tricks, last.trump
        return self.t("play.this_hand"), view.tricks, view.trump

    def _trick_line(self, number: int, trick: Trick, trump: int) -> None:
        self.say(f"  {number:>2}  ", self.cards_of(trick.cards, trump), f"  -> {self.who(trick.winner)}")

    def last_trick(self) -> None:
        which, tricks, trump = self._tricks_shown()
        if not tricks:
            self.say(self.t("play.no_trick_yet"))
            return
        self.say(self.t("play.last_trick", which=which, number=len(tricks), name=self.whom(tricks[-1].leader)))
        self._trick_line(len(tricks), tricks[-1], trump)

    def hand_tricks(self) -> None:
        which, tricks, trump = self._tricks_shown()
        if not tricks:
            self.say(self.t("play.no_trick_in_hand"))
            return
        self.say(self.t("play.tricks_of", which=which))
        for i, trick in enumerate(tricks, 1):
            self._trick_line(i, trick, trump)

    def rules_in_force(self) -> None:
        """The rules in force, in words (whistdsl/explain, as `whistdsl explain` says them for this
        table), then this hand's size, kind and trump; in a pager (`page`) when they are longer
        than the terminal, as git shows a long text."""
        from ..explain import print_rules

        view = self.window.view()
        rules = self.rules
        with self.console.capture() as captured:
            print_rules(self.console, rules, view.players)
            if rules.parameter_values:
                self.say(self.t("play.parameters", values=", ".join(f"{name} = {value_text(v)}" for name, v in rules.parameter_values.items())))
            if view.phase != OVER:
                kind = rules.kinds[view.kind]
                key = "play.next_hand_is" if self.pausing else "play.this_hand_is"
                cards = self.words.count("play.cards", view.hand_size)
                if view.kind != "normal":
                    cards = self.t("play.cards_of_kind", cards=cards, kind=kind.name)
                self.say(self.styled(key, cards=cards, trump=self.where_trump_comes_from(view)))
        text = captured.get()
        if self.console.is_terminal and text.count("\n") >= self.console.height - 1:
            page(text)
            return
        self.console.file.write(text)
        self.console.file.flush()

    def sheet(self, winners: Sequence[int] | None = None) -> None:
        """The score sheet so far: on a terminal fitted to its width (names abbreviated, never
        the numbers), elsewhere whole."""
        rules, hands = self.rules, self.window.hands_played()
        self.console.print()
        marks = legend(rules, hands, len(self.names), self.words)  # type: ignore[arg-type]  # a HandResult has every field a SheetHand reads
        if self.console.is_terminal:
            print_sheet(self.console, fitted_sheet(rules, self.names, hands, self.console.width, winners, self.symbols, self.you, self.words), marks)  # type: ignore[arg-type]  # a HandResult has every field a SheetHand reads
            return
        names = [self.t("table.name_you", name=n) if s == self.you else n for s, n in enumerate(self.names)]
        print_sheet(self.console, score_sheet(rules, names, hands, winners, symbols=self.symbols, words=self.words), marks)  # type: ignore[arg-type]  # a HandResult has every field a SheetHand reads

    def game_over(self) -> None:
        result = self.window.result()
        assert result is not None
        self.sheet(result.winners)

    # -- what the person sees before acting

    def before_bid(self, view: SeatView, forbidden: Sequence[int]) -> None:
        t = self.t
        if view.hand is not None:
            self.say(f"{t('play.your_hand')} ", self.hand(view.hand, view.trump))
        elif view.view == "blind":
            self.say(t("play.blind_hand"), style="italic")
        elif view.blind and view.blind[view.seat]:
            self.say(t("play.you_bid_blind"), style="italic")
        if view.others:
            self.say(f"{t('play.forehead_you_see')} ", self.cards_of(self._others(view), view.trump))
        if view.bids_hidden:
            last_sees = view.rules.bidders_together(len(view.bidding_order)) < len(view.bidding_order)
            self.say(t("play.bids_hidden_but_last" if last_sees else "play.bids_hidden"))
        elif view.bids:
            so_far = sum(b for _, b in view.bids)
            self.say(t("play.bids_so_far", bids=", ".join(self._bid_words(view, s, b) for s, b in view.bids), total=so_far, size=view.hand_size))
        else:
            self.say(t("play.you_bid_first"))
        self.say(may_bid(view, forbidden, self.words))

    def before_decision(self, view: SeatView) -> None:
        """What the person must decide now, and the options, said plainly."""
        t = self.t
        options = list(view.legal or ())
        if view.decision == "auction":
            if view.hand is not None:
                self.say(f"{t('play.your_hand')} ", self.hand(view.hand, NO_TRUMP))
            if view.auction:
                said = ", ".join(f"{self.who(s)} {printable(self.auction_words(c))}" for s, c in view.auction)
                self.say(t("play.auction_so_far", said=said))
            bids = [str(o) for o in options if str(o)[:1].isdigit()]
            calls = [printable(str(o)) for o in options if str(o) != "pass" and not str(o)[:1].isdigit()]  # named calls (a dash, a double)
            if bids:
                example = bids[0]
                short = f" or {example.split()[0]}{example.split()[1][0]}" if len(example.split()) == 2 else ""
                self.say(t("play.outbid", low=self.auction_words(bids[0]), high=self.auction_words(bids[-1]), example=f"{example}{short}"))
            else:
                self.say(t("play.no_outbid"))
            if calls:
                self.say(t("play.auction_calls", calls=", ".join(calls)))
        elif view.decision == "trump":
            if view.hand is not None:
                self.say(f"{t('play.your_hand')} ", self.hand(view.hand, NO_TRUMP))
            if view.bids:
                self.say(t("play.bids_list", bids=", ".join(self._bid_words(view, s, b) for s, b in view.bids)))
            words = ", ".join(t("play.none_no_trump") if o == "none" else self.option_words(o) for o in options)  # type: ignore[arg-type,comparison-overlap]  # SeatView.legal is declared cards; in a decision it holds the options' names
            turned = self.styled("play.card_turned_up", card=self.card(view.turn_up)) if view.turn_up is not None else ""
            self.say(turned, t("play.you_name_trump", options=words))
        elif view.decision == "declare":
            if view.hand is not None:
                self.say(f"{t('play.your_hand')} ", self.hand(view.hand, view.trump))
            self.say(t("play.you_may_declare", options=", ".join(printable(str(o)) for o in options if str(o) != "no")))
        else:
            self.say(t("play.blind_or_look"))

    def option_words(self, suit: str) -> str:
        """A suit's name as typed (`hearts`), with the table's word beside it in another language: `hearts (cupă)`."""
        key = f"suit.{suit}"
        if key not in self.words.catalogue or self.t(key) == suit:
            return suit
        return f"{suit} ({self.t(key)})"

    def before_card(self, view: SeatView) -> None:
        t = self.t
        trick_number = len(view.tricks) + 1
        if view.trick:
            self.say(
                f"{t('play.trick_led', number=trick_number, size=view.hand_size, name=self.who(view.trick[0][0]))} ",
                self.cards_of(view.trick, view.trump),
            )
        else:
            self.say(t("play.trick_you_lead", number=trick_number, size=view.hand_size))
        bids = dict(view.bids)
        excused = view.excused or (False,) * view.players
        taken = ", ".join(self.item(f"{self.who(s)} {view.taken[s]}/{t('play.excused') if excused[s] else bids[s]}") for s in view.bidding_order)
        self.say(f"{t('play.taken_bid')} {taken}", style="dim")
        if view.hand is not None:
            self.say(f"{t('play.your_hand')} ", self.hand(view.hand, view.trump, view.legal))
        else:
            self.say(f"{t('play.forehead_you_see')} ", self.cards_of(self._others(view), view.trump))

    @staticmethod
    def _others(view: SeatView) -> list[tuple[int, Card]]:
        return [(s, c) for s in sorted(view.others) for c in view.others[s]]


_SUIT_LETTERS = {"s": "spades", "h": "hearts", "d": "diamonds", "c": "clubs", "n": "none"}


def auction_answer(answer: str) -> str:
    """An auction bid as typed, in the options' words: `5h`, `5 h`, `5 hearts` -> `5 hearts`;
    `5nt`, `5 no trump` -> `5 none`; `p` -> `pass`."""
    text = " ".join(answer.lower().split())
    if text in ("p", "pass"):
        return "pass"
    m = re.fullmatch(r"(\d{1,2}) ?(.*)", text)
    if not m:
        return text
    number, rest = m.groups()
    if not rest:
        return number
    rest = rest.replace("no trump", "none").replace("nt", "none") if rest.startswith("n") else rest
    suit = next((name for letter, name in _SUIT_LETTERS.items() if rest in (letter, name)), rest)
    return f"{number} {suit}"


def may_bid(view: SeatView, forbidden: Sequence[int], words: Words = ENGLISH) -> str:
    """What the seat may bid, with the forbidden values said plainly (the hook by its reason)."""
    t = words.text
    size = view.hand_size
    legal = view.legal or ()
    calls = [printable(b) for b in legal if isinstance(b, str)]  # type: ignore[redundant-expr]  # SeatView.legal is declared cards; in the bidding it holds the calls' names too
    if calls:
        numbers = may_bid(replace(view, legal=tuple(b for b in legal if not isinstance(b, str))), forbidden, words)  # type: ignore[redundant-expr]  # SeatView.legal is declared cards; in the bidding it holds the calls' names too
        return t("play.or_call", numbers=numbers[:-1], calls=f" {t('play.or')} ".join(calls))
    if not forbidden:
        return t("play.may_bid", size=size)
    so_far = sum(b for _, b in view.bids)
    hook = size - so_far if len(view.bids) == len(view.bidding_order) - 1 else None
    if list(forbidden) == [hook]:
        why = t("play.hook_why", so_far=so_far, hook=hook, size=size)
        if len(legal) == 1:
            return t("play.must_bid_hook", bid=legal[0], hook=hook, why=why)
        return t("play.may_bid_but", size=size, hook=hook, why=why)
    if len(legal) == 1:
        return t("play.must_bid", bid=legal[0])
    return t("play.may_bid_these", bids=", ".join(map(str, legal)), forbidden=", ".join(map(str, forbidden)))


_RANK = r"10|[2-9tjqka]"
_SUIT_FIRST = re.compile(rf"([shdc♠♤♥♡♦♢♣♧])\s*({_RANK})", re.I)
#: The variation selectors a terminal may send after a suit symbol (`♥️` is ♥ and U+FE0F).
_VARIATION_SELECTORS = str.maketrans("", "", "\ufe0e\ufe0f")


def typed_card(answer: str, view: SeatView, specials: tuple = (), shown: Callable[[Card], str] | None = None, words: Words = ENGLISH) -> Card | str:
    """The card a person typed: rank then suit (`QH`, `10h`, `Q♥`, `Q♥️`), suit then rank (`hq`,
    `♥Q`), a special's mark or name; a bare rank (`q`, `10`) when one card of that rank may be
    played now (or, when none may, the one held, for the engine to say why not); Enter alone for
    a forced card. A special's mark that is also a rank (a Jester marked `J`) is that special
    when no card of the rank is held, else a question. A str is the reason it is not understood
    or the question (cards in it written by `shown`, by default `card_shown`); garbage raises
    CardSyntaxError."""
    if shown is None:
        shown = lambda c: card_shown(c, specials)  # noqa: E731
    legal = list(view.legal or ())
    text = answer.translate(_VARIATION_SELECTORS).strip()
    if not text:
        if len(legal) == 1:
            return legal[0]
        return words.text("play.type_a_card", specials=specials_typed(specials, words))
    bare_rank = re.fullmatch(_RANK, text, re.I) is not None
    refused: CardSyntaxError | None = None
    try:
        chosen = parse_card(text, specials)
        if is_special(chosen) and specials[strength(chosen)].wild and not bare_rank:
            return _wild_typed(chosen, view, specials, shown, words)
        if not (bare_rank and is_special(chosen)):
            return chosen
    except CardSyntaxError as e:
        refused = e
    suit_first = _SUIT_FIRST.fullmatch(text)
    if suit_first:
        return parse_card(suit_first.group(2) + suit_first.group(1), specials)
    if refused is not None and not bare_rank:
        raise refused
    rank = "T" if text == "10" else text.upper()
    held = [c for c in view.hand or () if suit_of(c) != SPECIAL and RANK_LETTERS[strength(c)] == rank]
    marked = [(special_card(i), s) for i, s in enumerate(specials) if s.mark.lower() == text.lower()]
    if marked and marked[0][0] in (view.hand or ()):  # the special, or a card of its rank?
        special, defined = marked[0]
        if not held:
            return special
        cards = ", ".join(shown(c) for c in sort_hand(set(held), view.trump))
        return words.text("play.which_did_you_mean", cards=cards, special=shown(special), name=printable(defined.name))
    of_rank = [c for c in legal if suit_of(c) != SPECIAL and RANK_LETTERS[strength(c)] == rank]
    if len(set(of_rank)) == 1:
        return of_rank[0]
    if of_rank:
        which = " or ".join(shown(c) for c in sort_hand(set(of_rank), view.trump))
        return words.text("play.which_rank", rank=rank, cards=which)
    if held:
        return held[0]  # not playable now: the engine says why
    return words.text("play.hold_no", rank=words.text("rank.T") if rank == "T" else rank)  # `you hold no K`, `you hold no ten`


def _wild_typed(special: Card, view: SeatView, specials: tuple, shown: Callable[[Card], str], words: Words) -> Card | str:
    """A wild card typed without its suit: the one suit it may take now, else the question of
    which (the engine says why when it may take none)."""
    forms = [c for c in view.legal or () if is_wild_played(c) and wild_held(c, specials) == special]
    if len(forms) == 1:
        return forms[0]
    if not forms:
        return special
    mark = specials[strength(special)].mark
    return words.text(
        "play.wild_which_suit",
        name=printable(specials[strength(special)].name),
        cards=", ".join(shown(c) for c in forms),
        example=printable(f"{mark}={SUIT_LETTERS[suit_of(forms[0])]}"),
    )


def specials_typed(specials: Sequence[Special], words: Words = ENGLISH) -> str:
    """`, or W for a wizard, or jester for a jester`: how the deck's special cards are typed (by
    name where the mark reads as a rank)."""
    return "".join(
        words.text("play.wild_typed", typed=printable(f"{s.mark}=H"), name=printable(s.name))
        if s.wild
        else words.text("play.special_typed", typed=printable(s.name if reads_as_rank(s.mark) else s.mark), name=printable(s.name))
        for s in specials
    )


#: The commands understood at every prompt, with what each shows (`help` lists them). No rank,
#: suit, decision or bid is spelled like them; a ruleset's call or special card that is wins.
COMMANDS = {
    "last": "the last trick",
    "tricks": "this hand's tricks so far",
    "sheet": "the score sheet",
    "rules": "the rules in force",
    "help": "this list, then the table again (also ?)",
}


class HumanPlayer:
    """A person at the terminal, reaching the game only through its `Seat`: sees the seat's
    view, answers its question at a prompt, and is asked again with the reason when the seat
    refuses the answer. At every prompt the COMMANDS show the table's past
    (the last trick, the sheet, the rules) and the prompt comes back. Ctrl-C and end of input
    raise `Stop`."""

    kind = HUMAN
    observes = True

    def __init__(self, seat: Seat, talk: TableTalk, ask: Ask, on_answer: Callable[[dict], None] | None = None, replaying: Sequence[dict] = ()):
        """`seat` is the person's one way to the game: its view, its question, its answers.
        `on_answer` is told every answer taken (to keep it in the record at once); `replaying`
        are the answers of a hand stopped in the middle (a record's `unfinished`), played again
        first, without asking."""
        self.seat = seat
        self.talk = talk
        self.ask = ask
        self.on_answer = on_answer
        self.replaying = list(replaying)

    def _answer(self, answer: dict) -> None:
        """Give `answer` to the seat (IllegalAction when the rules refuse it), and tell `on_answer`."""
        kept = self.seat.answer(answer)
        if self.on_answer is not None:
            self.on_answer(kept)

    def _replay(self) -> bool:
        """Play the next answer kept from a hand stopped in the middle; False (and no more of them)
        when there is none or it does not fit the game as it is."""
        if not self.replaying:
            return False
        kept = self.replaying.pop(0)
        try:
            if kept.get("seat") != self.seat.seat:
                raise ValueError("another seat's answer")
            self.seat.answer({key: value for key, value in kept.items() if key != "seat"})
        except (ValueError, TypeError):  # an IllegalAction is a ValueError
            self.replaying.clear()
            return False
        return True

    def act(self, view: SeatView | None, legal: list[int] | None, rng: object) -> None:  # pragma: no cover
        raise TypeError("a human player takes its turn with take_turn()")

    def take_turn(self) -> None:  # noqa: C901 one branch per kind of turn
        """Ask the person for the seat's answer now, until the seat takes one."""
        question = self.seat.question()
        assert question is not None, "a person is asked on its seat's turn"
        if self._replay():
            return
        view = self.seat.view()
        rules = view.rules
        if question.ask == "decision":
            self.talk.before_decision(view)
            options = list(question.options)
            t = self.talk.t
            prompt = Text(
                t(
                    {"trump": "play.prompt_trump", "auction": "play.prompt_auction", "declare": "play.prompt_declare"}.get(
                        question.decision or "", "play.prompt_blind"
                    )
                ),
                style="bold",
            )
            while True:
                answer = self._read(prompt, lambda: self.talk.before_decision(view), options).lower()  # type: ignore[arg-type]  # a decision's options are names
                if question.decision == "auction":
                    answer = auction_answer(answer)
                    chosen = [o for o in options if o == answer]
                    if not chosen:
                        bids = [str(o) for o in options if str(o)[:1].isdigit()]  # not the named calls
                        self._refuse(
                            t("play.not_outbid", answer=repr(printable(answer)), low=bids[0], high=bids[-1])
                            if bids
                            else t("play.none_outbids", answer=repr(printable(answer)))
                        )
                        continue
                    self._answer({"decision": chosen[0]})
                    return
                chosen = [o for o in options if o == answer] or [o for o in options if answer and o.startswith(answer)]  # type: ignore[misc,union-attr]  # a decision's options are names
                if len(chosen) != 1:
                    self._refuse(t("play.not_an_option", answer=repr(printable(answer)), options=", ".join(options)))  # type: ignore[arg-type]  # a decision's options are names
                    continue
                self._answer({"decision": chosen[0]})
                return
        if question.ask == "bid":
            self.talk.before_bid(view, question.forbidden)
            t = self.talk.t
            prompt = Text(t("play.your_bid"), style="bold")
            calls = [name for name, _ in rules.calls]
            while True:
                answer = self._read(prompt, lambda: self.talk.before_bid(view, question.forbidden), calls)
                try:
                    bid: int | str = answer.lower() if answer.lower() in calls else int(answer)
                except ValueError:
                    either = f" {t('play.or')} "
                    named = f",{either}{either.join(calls)}" if calls else ""
                    self._refuse(t("play.not_a_bid", answer=repr(printable(answer)), size=view.hand_size) + named)
                    continue
                try:
                    self._answer({"bid": bid})
                    return
                except IllegalAction as e:
                    self._refuse(str(e))
        else:
            self.talk.before_card(view)
            hidden = question.unseen
            t = self.talk.t
            prompt = Text(t("play.press_enter_card" if hidden else "play.your_card"), style="bold")
            specials = [w for s in rules.specials for w in (s.mark.lower(), s.name.lower())]
            while True:
                answer = self._read(prompt, lambda: self.talk.before_card(view), specials)
                try:
                    if hidden:
                        if answer:
                            self._refuse(t("play.cannot_see"))
                            continue
                        self._answer({"card": None})
                    else:
                        chosen = typed_card(answer, view, rules.specials, lambda c: self.talk.card(c).plain, self.talk.words)  # type: ignore[assignment]  # `chosen` is the options chosen above and the card (or why not) here
                        if isinstance(chosen, str):
                            self._refuse(chosen)
                            continue
                        self._answer({"card": card_text(chosen, rules.specials)})  # type: ignore[arg-type]  # the str case (why not) was refused just above
                    return
                except (IllegalAction, CardSyntaxError) as e:
                    self._refuse(str(e))

    def pause(self, finished: HandResult) -> None:
        """The end of a hand: wait for Enter (commands work meanwhile) before the next deal."""
        t = self.talk.t
        prompt = Text(t("play.hand_over", hand=finished.number), style="bold")
        self.talk.pausing = True
        try:
            while True:
                answer = self._read(prompt, lambda: None)
                if not answer:
                    return
                self._refuse(t("play.not_a_command", answer=repr(printable(answer))))
        finally:
            self.talk.pausing = False

    def _read(self, prompt: Text, again: Callable[[], None], answers: Sequence[str] = ()) -> str:
        """The next answer that is not a command (`answers`: words that answer here, never taken
        for a command); a command is done and the prompt comes back."""
        while True:
            try:
                answer = self.ask(prompt, answers).strip()
            except EOFError:
                raise Stop("end of input", 1) from None
            except KeyboardInterrupt:
                raise Stop("interrupted (Ctrl-C)", INTERRUPTED) from None
            except OSError as e:  # the terminal cannot be read (it has gone)
                if isinstance(e, BrokenPipeError):
                    raise
                raise Stop(GONE, 1) from None
            word = answer.lower()
            if word in answers or (word not in COMMANDS and word != "?"):
                return answer
            if word in ("help", "?"):
                self.talk.commands()
                again()
            elif word == "last":
                self.talk.last_trick()
            elif word == "tricks":
                self.talk.hand_tricks()
            elif word == "sheet":
                self.talk.sheet()
            else:
                self.talk.rules_in_force()

    def _refuse(self, reason: str) -> None:
        """One line: the reason, then the prompt again."""
        self.talk.say(f"{reason[:1].upper()}{reason[1:]}.", style="red")


def run_game(game: Game, seats: Sequence[Player | HumanPlayer], talk: TableTalk, writer: RecordWriter | None) -> None:  # noqa: C901 the table's steps in the order of play
    """Play `game` to the end, telling the table what happens and writing the record after every hand."""
    announced = -1
    person = next((p for p in seats if isinstance(p, HumanPlayer)), None)
    while not game.over:
        if len(game.history) != announced:
            announced = len(game.history)
            talk.hand_starts()
        seat = game.seat_to_act
        phase, hands_before, tricks_before, trump = game.phase, len(game.history), len(game.tricks), game.trump
        bids_before = len(game.bid_log)
        player = seats[seat]
        try:
            if isinstance(player, HumanPlayer):
                player.take_turn()
            else:
                game.act(decide(game, player))
        except KeyboardInterrupt:
            raise Stop("interrupted (Ctrl-C)", INTERRUPTED) from None
        if phase in (DECISION, BIDDING):
            if phase == DECISION:
                # the last choice made: on the deal dealt again after it, when it passed the hand out
                s, decision, choice = game.choices[-1] if game.choices else game.redealt[-1].choices[-1]
                talk.decision_made(s, decision, choice)
            new = game.bid_log[bids_before:]  # a bid, and those made for a seat after it (declarer, excused)
            for s, b in new:
                talk.bid_made(s, b)
            if new and game.phase != BIDDING and not (game.phase == DECISION and game.decision == "blind"):
                talk.bidding_over()
                if game.rules.trump_seen == "after_bidding":
                    talk.trump_shown()
            continue
        finished = game.history[-1] if len(game.history) > hands_before else None
        if finished is not None:
            tricks, taken, bids = finished.tricks, finished.taken, dict(finished.bids)
        else:
            tricks, taken, bids = tuple(game.tricks), game.taken, dict(game.bid_log)  # type: ignore[assignment]  # taken per seat: a list from the game, a tuple from a finished hand; both only read
        if len(tricks) > tricks_before:
            trick = tricks[-1]
            talk.card_played(seat, trick.cards[-1][1], trump)
            talk.trick_won(trick, len(tricks), trump, bids, taken)
        else:
            talk.card_played(seat, game.trick[-1][1], trump)
        if finished is not None:
            talk.hand_over(finished)
            if writer is not None:
                writer.update()
            if person is not None and not game.over:
                person.pause(finished)
    if writer is not None:
        writer.update(force=True)
    talk.game_over()


# ---------------------------------------------------------------- the command


def _hands(count: int) -> str:
    return f"{count} complete hand{'s' if count != 1 else ''}"


def _split(option: str, value: str) -> list[str]:
    parts = [p.strip() for p in value.split(",")]
    if any(not p for p in parts):
        raise _usage(f"{option}: an empty entry in {value!r}; separate entries with commas, e.g. A,B,C,D")
    return parts


def _bot_kinds(value: str, computer_seats: list[int]) -> dict[int, str]:
    kinds = _split("--bots", value)
    unknown = [k for k in kinds if k not in BOTS]
    if unknown:
        raise _usage(f"--bots: unknown computer player {unknown[0]!r}; known: {', '.join(sorted(BOTS))}")
    if len(kinds) == 1:
        kinds = kinds * len(computer_seats)
    if len(kinds) != len(computer_seats):
        raise _usage(
            f"--bots: give one kind for every computer seat, or {len(computer_seats)} (one per computer seat, in seat order), not {len(kinds)}"
        )
    return dict(zip(computer_seats, kinds))


def _with(rules: Ruleset) -> str:
    """` with tricks = 13` when the ruleset has parameters (the player range may depend on them)."""
    shown = " and ".join(f"{name} = {value_text(v)}" for name, v in rules.parameter_values.items())
    return f" with {shown}" if shown else ""


#: What `--lang TAG` means.
LANG_HELP = (
    f"The language of the table's words: {', '.join(LANGUAGES)} (en by default, whatever the machine's locale;"
    " `ro-RO`, `sr` and the like are read as the language they name). What you type stays the same (QH, pass, help)."
)


def play_command(  # noqa: C901 an option a branch
    ruleset: Annotated[
        str | None,
        typer.Argument(
            metavar="RULESET", help="A ruleset file or a bundled ruleset's name (see `whistdsl list`); with --resume, the record's own by default."
        ),
    ] = None,
    players: Annotated[int | None, typer.Option("--players", "-p", metavar="N", help="Players at the table (default: the ruleset's).")] = None,
    seed: Annotated[
        int | None, typer.Option("--seed", metavar="S", help="Seed of the shuffles and the computer players: the same seed plays the same game.")
    ] = None,
    seat: Annotated[int, typer.Option("--seat", metavar="K", help="Your seat, 0 to N-1 (seat K+1 sits to your left).")] = 0,
    watch: Annotated[bool, typer.Option("--watch", help="Computer players in every seat; nothing is asked.")] = False,
    names: Annotated[str | None, typer.Option("--names", metavar="A,B,C,D", help="The players' names, by seat.")] = None,
    bots: Annotated[
        str,
        typer.Option(
            "--bots",
            metavar="KIND[,KIND...]",
            help=f"Computer players ({', '.join(BOTS)}): one kind for all, or one per computer seat in seat order.",
        ),
    ] = DEFAULT_BOT,
    record: Annotated[Path | None, typer.Option("--record", metavar="FILE", help="Write the game record (JSON) to FILE after every hand.")] = None,
    first_dealer: Annotated[
        int | None, typer.Option("--first-dealer", metavar="K", help="The first dealer's seat (default: as the ruleset says).")
    ] = None,
    resume: Annotated[
        str | None,
        typer.Option(
            "--resume",
            metavar="[RECORD]",
            help="Continue an interrupted game from its record's last complete hand (same players, seats and random stream); with no RECORD, the latest unfinished kept game (see `whistdsl games`).",
        ),
    ] = None,
    deal: Annotated[
        Path | None, typer.Option("--deal", metavar="FILE", help="Play the set-up deals in FILE (a partial record) instead of shuffling those hands.")
    ] = None,
    think: Annotated[float | None, THINK_OPTION] = None,
    root: Annotated[Path | None, ROOT_OPTION] = None,
    settings: Annotated[
        list[str] | None, typer.Option("--set", metavar="NAME=VALUE", help=SET_HELP + " With --resume, the record's own values are kept.")
    ] = None,
    lang: Annotated[str | None, typer.Option("--lang", metavar="TAG", envvar="WHISTDSL_LANG", show_envvar=True, help=LANG_HELP)] = None,
) -> None:
    """Play a whole game at the terminal against computer players (or watch them: --watch).

    \b
    Examples:
      whistdsl play NAME                 a bundled ruleset (see `whistdsl list`)
      whistdsl play house.yaml --players 5 --record game.json
      whistdsl play --resume game.json
    """
    words = _table_words(lang)
    if resume is not None:
        _resume_command(_record_to_resume(resume), ruleset, watch, record, root, settings or [], think, words)
        return
    if ruleset is None:
        raise _usage(f"name a ruleset (a file or a bundled name, see `{command('list')}`), or --resume a record")
    rules = open_rules(ruleset, root, settings)
    if record is not None:
        _refuse_record_target(record)
    deals = _read_deals(deal, rules.specials) if deal is not None else {}
    seats_dealt = players is None and bool(deals)
    if seats_dealt:
        players = len(next(iter(deals.values())).deal)
    n = players if players is not None else rules.players_default
    if not rules.players_min <= n <= rules.players_max:
        if seats_dealt:
            raise _usage(f"--deal: the deal file deals to {n} seats; {rules.name} is for {rules.players_min} to {rules.players_max} players")
        raise _usage(f"--players: {rules.name} is for {rules.players_min} to {rules.players_max} players{_with(rules)}, not {n}")
    if rules.table_problem(n) is not None:
        raise _usage(f"--players {n}: {rules.table_problem(n)}")
    if not 0 <= seat < n:
        raise _usage(f"--seat: a seat from 0 to {n - 1}, not {seat}")
    if first_dealer is not None and not 0 <= first_dealer < n:
        raise _usage(f"--first-dealer: a seat from 0 to {n - 1}, not {first_dealer}")
    you = None if watch else seat
    seat_names = _split("--names", names) if names is not None else [f"Player {i + 1}" for i in range(n)]
    if len(seat_names) != n:
        raise _usage(f"--names: {len(seat_names)} names for {n} players")
    if len(set(seat_names)) != n:
        raise _usage("--names: every player needs a different name")
    if any(len(name) > MAX_PLAYER_NAME for name in seat_names):
        raise _usage(f"--names: a name may be at most {MAX_PLAYER_NAME} characters long")
    if seed is not None and not -(10**MAX_DIGITS) < seed < 10**MAX_DIGITS:
        raise _usage(f"--seed: a whole number of at most {MAX_DIGITS} digits")
    computer_seats = [s for s in range(n) if s != you]
    bot_kinds = _bot_kinds(bots, computer_seats)
    if not watch and not sys.stdin.isatty():
        raise _usage(
            "standard input is not a terminal, so there is no one to ask for bids and cards; "
            "run it in a terminal, or use --watch to let computer players take every seat"
        )
    try:
        game = Game(rules, n, seed=seed, first_dealer=first_dealer, names=seat_names, deals=deals)
    except EvalError as e:
        _say_error(f"{rules.name} cannot be played with {n} players: {e}")
        raise typer.Exit(1) from None
    except RuleError as e:
        _say_error(e.describe(seat_names))
        raise typer.Exit(RULE_ERROR) from None
    except ValueError as e:  # a set-up deal that does not fit the hand
        raise _usage(f"--deal: {e}") from None
    if deals:
        _check_deals(game, deals)
    _play(game, rules, seat_names, you, bot_kinds, record, think=think, words=words)


def _table_words(lang: str | None) -> Words:
    """The words of `--lang` (or WHISTDSL_LANG): English when not given; a tag the catalogue does
    not know is refused (exit 2)."""
    if lang is None or not lang.strip():
        return ENGLISH
    language = language_of(lang)
    if language is None:
        raise _usage(f"--lang: {lang!r} is not a language of the table's words; known: {', '.join(LANGUAGES)}")
    return Words(language)


def _refuse_record_target(record: Path) -> None:
    """`--record` must name a file that can be replaced: not a directory, a device or a pipe (exit 2)."""
    try:
        refuse_unwritable_target(record)
    except WriteError as e:
        raise _usage(f"--record: {e}") from None


def _check_deals(game: Game, deals: dict[int, PresetDeal]) -> None:
    """Every set-up deal of the schedule is checked before the first hand: a bad hand 20 is
    refused now (exit 2) rather than after 19 hands of play."""
    from ..records.replay import check_set_up_deals

    try:
        check_set_up_deals(game, deals)
    except ValueError as e:
        raise _usage(f"--deal: {e}") from None


def _play(  # noqa: C901 an option a branch
    game: Game,
    rules,
    seat_names: list[str],
    you: int | None,
    bot_kinds: dict[int, str],
    record: Path | None,
    replaying: Sequence[dict] = (),
    think: float | None = None,
    work: dict[int, tuple[int, ...]] | None = None,
    words: Words = ENGLISH,
) -> None:
    """Seat the players, write the record after every hand, play to the end or a clean stop.

    The record goes to `record` (`--record FILE`, or the file resumed); a game with a person at
    the table and no such file is kept in the kept-games folder (records/kept.py). The table
    speaks `words`' language."""
    n = game.players

    console = Console(highlight=False)
    talk = TableTalk(console, Seat(game, you) if you is not None else Spectator(game), seat_names, words)
    t = words.text
    kinds = [bot_kinds.get(s, HUMAN) for s in range(n)]
    # the players that search: the work a decision `think` gives here, or the record's (resumed)
    work = dict(work or {})
    searching = [s for s, k in enumerate(kinds) if k != HUMAN and thinks(k) and s not in work]
    if searching:
        units = work_units(think if think is not None else DEFAULT_THINK, game.rules, game.players)
        work.update(dict.fromkeys(searching, units))
    writer = None
    if record is not None:
        writer = RecordWriter(record, game, kinds, work)
        if replaying:  # the answers kept stay in the record while they are played again
            writer.unfinished = (len(game.history) + 1, list(replaying))
        try:
            writer.update(force=True)  # the record as it stands: the file can be written
        except WriteError as e:
            raise _usage(f"--record: {e}") from None
    elif you is not None:
        writer = _kept_writer(game, kinds, work)
    kept = writer is not None and _is_kept(writer.path)
    seats: list[Player | HumanPlayer] = [
        HumanPlayer(Seat(game, s), talk, asker(console, list(COMMANDS)), writer.answered if writer is not None else None, replaying)
        if k == HUMAN
        else make_bot(k, units=work.get(s))
        for s, k in enumerate(kinds)
    ]

    table = ", ".join(f"{talk.who(s)} ({k})" if k != HUMAN else t("table.name_you", name=seat_names[s]) for s, k in enumerate(kinds))
    talk.say(Text(t("play.players", name=printable(rules.name), count=n, seed=game.seed), style="bold"))
    talk.say(t("play.seats", seats=table))
    if you is not None:
        talk.say(
            t("play.how_to_type_kept" if writer is not None else "play.how_to_type", specials=specials_typed(game.rules.specials, words)), style="dim"
        )
    if replaying and you is not None:
        talk.say(words.count("play.played_again", len(replaying), hand=len(game.history) + 1), style="dim")
    try:
        run_game(game, seats, talk, writer)
        if kept:
            assert writer is not None
            talk.say(t("play.kept_in", path=str(writer.path), command=talk.item(command("games"))), style="dim")
    except (Stop, KeyboardInterrupt, OSError) as e:
        if isinstance(e, BrokenPipeError):
            raise  # the reader of a pipe has gone: main() ends quietly
        stop = e if isinstance(e, Stop) else Stop("interrupted (Ctrl-C)", INTERRUPTED) if isinstance(e, KeyboardInterrupt) else Stop(GONE, 1)
        if not _blank_line(console):
            stop = Stop(GONE, 1)
        _say_last(_stopped(f"game stopped: {stop.message}, after {_hands(len(game.history))}", game, writer, record, resumable=True))
        raise typer.Exit(stop.code) from None
    except WriteError as e:
        assert writer is not None
        _blank_line(console)
        _say_last(f"game stopped: {e}. {_last_good_record(writer)}")
        raise typer.Exit(WRITE_FAILED) from None
    except RuleError as e:
        _blank_line(console)
        _say_last(_stopped(f"{e.describe(seat_names)}; the game stopped after {_hands(len(game.history))}", game, writer, record))
        raise typer.Exit(RULE_ERROR) from None
    except ValueError as e:  # a tie-break hand's set-up deal that does not fit (an illegal action is an IllegalAction)
        if isinstance(e, IllegalAction) or not game.deals:
            raise
        _blank_line(console)
        _keep_complete_hands(writer)
        _say_last(f"--deal: {e}; the game stopped after {_hands(len(game.history))}", _say_error)
        raise typer.Exit(2) from None


def _blank_line(console: Console) -> bool:
    """A blank line after the table's last, before the game's last words (on standard error);
    False when the terminal has gone (writing fails: EIO). Standard output then writes to
    /dev/null, so that nothing more fails there, Python's own last flush included."""
    try:
        console.print()
        console.file.flush()
        return True
    except OSError as e:
        if isinstance(e, BrokenPipeError):
            raise
        _to_nowhere(sys.stdout)
        return False


def _say_last(message: str, say: Callable[[str], None] | None = None) -> None:
    """The game's last words on standard error, said by `say` (by default `_say_stopped`);
    nothing where standard error has gone too (it is the terminal that hung up)."""
    try:
        (say or _say_stopped)(message)
        sys.stderr.flush()
    except OSError:
        _to_nowhere(sys.stderr)


def _to_nowhere(stream) -> None:
    """Send what is still to be written to `stream`, and all after, to /dev/null."""
    import os

    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), stream.fileno())
    except (OSError, ValueError):
        pass


def _say_stopped(message: str) -> None:
    """Why the game stopped and where it is kept, on standard error: on a terminal wrapped at
    words to its width (a path is never cut), elsewhere one line."""
    width = wrap_width(sys.stderr)
    if width is None:
        _say_error(message.replace(NO_BREAK, " "))
        return
    import textwrap

    from .common import error_line

    typer.echo(textwrap.fill(error_line(message), width, break_long_words=False, break_on_hyphens=False).replace(NO_BREAK, " "), err=True)


def _kept_writer(game: Game, kinds: list[str], work: dict[int, tuple[int, ...]] | None = None) -> RecordWriter | None:
    """A writer of the game's record into the kept-games folder, or None (said) when the folder
    cannot be made or written: the game is then played unkept, never refused."""
    from ..records.kept import games_dir, new_game_path, prune

    try:
        writer = RecordWriter(new_game_path(game.rules.name), game, kinds, work)
        writer.update(force=True)
        prune()  # the newest finished games stay, and every unfinished one (this one too)
        return writer
    except (OSError, WriteError) as e:
        reason = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
        _say_error(f"cannot keep this game in {games_dir()}: {reason}; it is played without being kept")
        return None


def _is_kept(path: Path) -> bool:
    """Whether `path` is a kept game (in the kept-games folder)."""
    from ..records.kept import games_dir

    try:
        return path.resolve().parent == games_dir().resolve()
    except OSError:
        return False


def _stopped(message: str, game: Game, writer: RecordWriter | None, record: Path | None, resumable: bool = False) -> str:
    """`message` (why the game stopped, after how many hands) with what became of its record:
    what failed in writing its last hands, or where it is (and, for a game stopped by the
    player, how to continue it)."""
    kept = _keep_complete_hands(writer)
    if kept is not None:
        return f"{message}. {kept}"
    if writer is None:
        return message + ("." if resumable else "")
    if _is_kept(writer.path):
        how = f"; continue with: {unbroken(command('play', '--resume'))}" if resumable else ""
        return f"{message}. The game is kept in {writer.path}{how}"
    if resumable:
        return f"{message}. The record {record} holds every complete hand; continue with: {unbroken(command('play', '--resume', str(record)))}"
    return f"{message} (the record {record} holds {'it' if len(game.history) == 1 else 'them'})"


def _keep_complete_hands(writer: RecordWriter | None) -> str | None:
    """Write every complete hand the record may not hold yet (a hand can end in the same step
    that then fails); None when all went well, else what failed and what the file holds."""
    if writer is None:
        return None
    try:
        writer.update()
    except WriteError as e:
        return f"And {e}. {_last_good_record(writer)}"
    return None


def _last_good_record(writer: RecordWriter) -> str:
    """What the last good record holds and how to continue, or that it is gone."""
    path = writer.path
    if writer.written_hands < 0 or not path.is_file():
        return f"There is no record at {path} (its folder was removed?)."
    return f"The record {path} holds {_hands(writer.written_hands)}; continue with: {unbroken(command('play', '--resume', str(path)))}"


def _read_deals(path: Path, specials: tuple = ()) -> dict[int, PresetDeal]:
    """The set-up deals of a (partial) record file, by hand number."""
    from ..records.replay import Disagreement, RecordError, preset_deals, read_record

    try:
        return preset_deals(read_record(path), specials)
    except RecordError as e:
        raise _usage(f"--deal: {e}") from None
    except Disagreement as e:
        raise _usage(f"--deal: {path}: {e}") from None


#: `--resume` with no record: the latest unfinished kept game.
LATEST = ""


def _latest_when_left_out(args: list[str]) -> list[str]:
    """`--resume` with no value (at the end, or before another option) as `--resume=` (LATEST):
    typer cannot say that an option's value may be left out."""
    out = list(args)
    for i, arg in enumerate(out):
        if arg == "--":
            break
        if arg == "--resume" and (i + 1 == len(out) or out[i + 1].startswith("-")):
            out[i] = f"--resume={LATEST}"
    return out


def _adjust_command(command) -> None:
    parse_args = command.parse_args
    command.parse_args = lambda ctx, args: parse_args(ctx, _latest_when_left_out(args))


play_command.adjust_command = _adjust_command  # type: ignore[attr-defined]  # a command function carries this hook for cli/commands.py (an attribute of our own)


def _record_to_resume(value: str) -> Path:
    """The record `--resume` names: a file, a kept game's name (as `whistdsl games` lists it), or
    with no value the latest unfinished kept game."""
    from ..records.kept import games_dir, latest_unfinished

    if value == LATEST:
        latest = latest_unfinished()
        if latest is None:
            raise _usage(f"--resume: no unfinished game is kept in {games_dir()}; name a record (see `{command('games')}`)")
        return latest.path
    path = Path(value)
    if not path.exists() and path.name == value and (games_dir() / value).is_file():
        return games_dir() / value
    return path


def _resume_command(
    path: Path,
    ruleset: str | None,
    watch: bool,
    record: Path | None,
    root: Path | None = None,
    settings: list[str] | None = None,
    think: float | None = None,
    words: Words = ENGLISH,
) -> None:
    """`play --resume RECORD`: the same players in the same seats, from the last complete hand,
    with the parameters the record was played with (a `--set` may only repeat them)."""
    from ..records.replay import Disagreement, RecordError, read_record
    from ..records.replay import resume as resume_game
    from ..rules.ruleset import SettingError

    if record is not None:
        _refuse_record_target(record)
    try:
        data = read_record(path)
        rules = open_rules(ruleset, root) if ruleset is not None else None
        game = resume_game(data, rules, settings or ())
    except (RecordError, SettingError) as e:
        raise _usage(f"--resume: {e}") from None
    except Disagreement as e:
        _say_error(f"--resume: {path} does not agree with the rules: {e}")
        raise typer.Exit(1) from None
    except RuleError as e:
        _say_error(f"--resume: {path}: {e.describe([p['name'] for p in data.get('players', [])])}")
        raise typer.Exit(RULE_ERROR) from None
    kinds = [p.get("kind", "random") for p in data["players"]]
    humans = [s for s, k in enumerate(kinds) if k == HUMAN]
    you = None if watch or not humans else humans[0]
    if you is None:
        kinds = [DEFAULT_BOT if k == HUMAN or k not in BOTS else k for k in kinds]
    elif not sys.stdin.isatty():
        raise _usage("the record has a human seat but standard input is not a terminal; use --watch to let a computer player take it")
    bot_kinds = {s: k for s, k in enumerate(kinds) if s != you and k != HUMAN}
    for s in humans[1:]:
        bot_kinds.setdefault(s, DEFAULT_BOT)
    unfinished = data.get("unfinished") or {}
    replaying = unfinished.get("answers", []) if you is not None and unfinished.get("hand") == len(game.history) + 1 else []
    work = {p["seat"]: tuple(p["work"]) for p in data["players"] if "work" in p}  # as the game was played
    _play(game, game.rules, list(game.names), you, bot_kinds, record if record is not None else path, replaying, think, work, words)
