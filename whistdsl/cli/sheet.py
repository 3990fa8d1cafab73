"""The score sheet players keep on paper: one row per hand, each player's bid and running total.

`score_sheet` builds it as a rich Table (made contracts green with a `*`, missed ones red), and
`fitted_sheet` fits it to a terminal's width (names abbreviated, never the numbers); `legend`
says what the marks on it mean (`NV = ...`), printed under it.
`score_sheet_text` renders the same table as plain text, and `print_sheet` prints it on a console
at its natural width when the output is not a terminal. `play` shows it after every hand and
`replay --show` for a whole record (from the hands the replay recomputes). Its words are the
catalogue's (whistdsl/words/: `sheet.*`), in English unless a `Words` of another language is
given (`play --lang`).
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Protocol

from rich import box
from rich.console import Console
from rich.measure import Measurement
from rich.segment import Segment, Segments
from rich.table import Table
from rich.text import Text

from ..engine.cards import NO_TRUMP, SUIT_SYMBOLS, suit_name
from ..language.values import Number
from ..printable import printable, printable_text
from ..rules.ruleset import Ruleset
from ..words import ENGLISH, Words

MADE_MARK = "*"
MADE_STYLE = "green"
MISSED_STYLE = "red"
RED_SUITS = (1, 2)  # hearts, diamonds


class SheetHand(Protocol):
    """What the sheet reads of a finished hand (engine.HandResult has all of it)."""

    number: int
    size: int
    kind: str
    mark: str
    trump: int
    sitting_out: tuple[int, ...]
    bids: tuple[tuple[int, int], ...]
    taken: tuple[int, ...]
    totals: tuple[Number, ...]
    excused: tuple[bool, ...]  # per seat, excused from bidding (`skip`); () without decisions


def trump_label(trump: int, symbols: bool = True) -> Text:
    """`♠` (red for hearts and diamonds) or, without symbols, `spades`; `NT` for no trump."""
    if trump == NO_TRUMP:
        return Text("NT")
    name = suit_name(trump)
    if not symbols:
        return Text(name)
    return Text(SUIT_SYMBOLS[trump], style="red" if trump in RED_SUITS else "")


def mark_label(mark: str) -> str:
    """A hand's mark as written on the sheet: `NV`; a mark that reads as a number quoted, `"0"`,
    so that it is not taken for the hand size beside it. The mark comes from the ruleset: escaped."""
    mark = printable(mark)
    return f'"{mark}"' if mark.strip("-0123456789") == "" else mark


#: How the sheet marks a hand of a kind with a view of its own but no `mark` of its own.
VIEW_MARKS = {"forehead": "FH", "blind": "BL"}
SAT_OUT_MARK = "-"
EXCUSED_MARK = "x"


def hand_mark(rules: Ruleset, hand: SheetHand) -> str:
    """The mark a hand gets on the sheet: its kind's `mark` (`NV`), else `FH` for a forehead hand
    and `BL` for a blind one, so that every hand not played the usual way is marked; or ``."""
    if hand.mark:
        return hand.mark
    kind = rules.kinds.get(getattr(hand, "kind", ""))
    return VIEW_MARKS.get(kind.view, "") if kind is not None else ""


def kind_words(rules: Ruleset, kind_name: str, words: Words = ENGLISH) -> str:
    """What a hand of this kind is: the kind's `description` (escaped), else what its view means
    (`a forehead hand: everyone sees every card but their own`), else `a zero hand`."""
    kind = rules.kinds.get(kind_name)
    if kind is None:
        return ""
    if kind.description:
        return printable(kind.description)
    if kind.view in VIEW_MARKS:  # what the view means: the catalogue's `play.view.*`
        return words.text(f"sheet.{kind.view}_hand", what=words.text(f"play.view.{kind.view}"))
    return words.text("sheet.kind_hand", kind=printable(kind.name))


def legend(rules: Ruleset, hands: Sequence[SheetHand], seats: int, words: Words = ENGLISH) -> list[str]:
    """What the marks on the sheet of `hands` mean, besides `*` (the caption's), each once and
    only those on it: `- = sat out`, `x = excused from bidding`, then the hands' marks in the
    order they first come (`NV = nevăzut (unseen) - ...`, `FH = a forehead hand: ...`)."""
    said = []
    if any(seat in hand.sitting_out or seat not in dict(hand.bids) for hand in hands for seat in range(seats)):
        said.append(words.text("sheet.sat_out", mark=SAT_OUT_MARK))
    if any(any(hand.excused) for hand in hands):
        said.append(words.text("sheet.excused", mark=EXCUSED_MARK))
    meant: dict[str, str] = {}
    for hand in hands:
        mark = hand_mark(rules, hand)
        if mark and mark not in meant:
            meant[mark] = kind_words(rules, getattr(hand, "kind", ""), words)
    return said + [f"{mark_label(mark)} = {words}" if words else mark_label(mark) for mark, words in meant.items()]


def winners_line(names: Sequence[str], winners: Sequence[int], totals: Sequence[Number], words: Words = ENGLISH) -> str:
    """`Winner: Ana (26)` or `Winners (tied): Ana, Ben (20)` (names escaped)."""
    names = [printable(name) for name in names]
    if len(winners) == 1:
        w = winners[0]
        return words.text("sheet.winner", name=names[w], total=totals[w])
    listed = ", ".join(f"{names[w]} ({totals[w]})" for w in winners)
    return words.text("sheet.winners", names=listed)


#: The ways a sheet's cells are written, widest first: `10* / -120`, `10*/-120`, and the bid
#: above the running total (two lines a hand).
LAYOUTS = ("wide", "compact", "stacked")


def score_sheet(
    rules: Ruleset,
    names: Sequence[str],
    hands: Sequence[SheetHand],
    winners: Sequence[int] | None = None,
    symbols: bool = True,
    layout: str = "wide",
    shown_names: Sequence[str] | None = None,
    max_width: int | None = None,
    padding: int = 1,
    words: Words = ENGLISH,
) -> Table:
    """The sheet of `hands` so far: the hand's number, then its size with the trump (`NT` for none)
    or the hand's mark (`0`, `NV`; `FH`, `BL` for a forehead or blind hand without one), then
    `bid / total` per player: `*` and green when the contract was made, red when missed, `-` for
    a seat sitting the hand out, `x` for one excused from bidding. With `winners`, a caption names
    them; what the marks other than `*` mean is said under the sheet (`legend`). `layout` is one
    of LAYOUTS; `shown_names` heads the columns instead of `names` (abbreviated: `fitted_sheet`), and the
    caption then gives the names in full; `padding` is the space each side of a cell (0 for the
    narrowest sheet: one space between columns). The ruleset's name and the players' names are shown
    escaped, never as markup; the sheet's own words are `words`'."""
    table = Table(
        title=printable_text(rules.name),
        title_justify="left",
        caption_justify="left",
        caption_style="none",
        show_edge=False,
        pad_edge=False,
        padding=(0, padding),
        box=box.SIMPLE_HEAD if symbols else box.ASCII2,
    )
    table.add_column("#", justify="right", no_wrap=True)
    table.add_column(words.text("sheet.hand"), no_wrap=True)
    heads = shown_names if shown_names is not None else names
    # every cell the same width, so the slashes line up: `10* / -120`
    size_width = bid_width = max((len(str(h.size)) for h in hands), default=1)
    total_width = max((len(str(t)) for h in hands for t in h.totals), default=1)
    stacked = layout == "stacked"
    if stacked:  # the bid above the total, digits under digits; padded here, as a cell's end would be cut
        bid_width = total_width = max(bid_width, total_width)
    for seat, name in enumerate(heads):
        style = "bold" if winners and seat in winners else ""
        head = printable_text(name, style=style)
        if stacked:
            head.pad_left(total_width + 1 - len(head))
        table.add_column(head, justify="left" if stacked else "right", no_wrap=True)
    between = {"wide": " / ", "compact": "/", "stacked": "\n"}[layout]
    for hand in hands:
        bid_of = dict(hand.bids)
        cells: list[Text] = []
        for seat in range(len(names)):
            total = f"{hand.totals[seat]!s:>{total_width}}"
            if seat in hand.sitting_out or seat not in bid_of:
                cells.append(Text(f"{SAT_OUT_MARK:>{bid_width}} {between}{total}" + " " * stacked, style="dim"))
                continue
            if hand.excused and hand.excused[seat]:
                cells.append(Text(f"{EXCUSED_MARK:>{bid_width}} {between}{total}" + " " * stacked, style="dim"))
                continue
            bid = bid_of[seat]
            made = hand.taken[seat] == bid
            mark = MADE_MARK if made else " "
            cells.append(Text(f"{bid:>{bid_width}}{mark}{between}{total}" + " " * stacked, style=MADE_STYLE if made else MISSED_STYLE))
        first = Text(f"{hand.size:>{size_width}} ")
        marked = hand_mark(rules, hand)
        first.append_text(Text(mark_label(marked)) if marked else trump_label(hand.trump, symbols))
        table.add_row(Text(str(hand.number)), first, *cells)
    how = words.text("sheet.how_stacked" if layout == "stacked" else "sheet.how")
    caption = Text(f"{how}; {words.text('sheet.made', mark=MADE_MARK)}", style="dim")
    if shown_names is not None:
        you = words.text("table.you")
        key = "; ".join(f"{printable(short)} = {printable(full)}" for short, full in zip(shown_names, names) if short not in (full, you))
        if key:
            caption = Text.assemble(caption, "\n", Text(key, style="dim"))
    if winners and hands:
        line = winners_line(names, winners, hands[-1].totals, words)
        caption = Text.assemble((line, "bold"), "\n", caption)
        # the caption wraps at the table's width: never the winners' line (unless it is wider than the screen)
        table.min_width = len(line) if max_width is None else min(len(line), max_width)
    table.caption = caption
    return table


def abbreviated(names: Sequence[str], width: int, you: int | None = None, words: Words = ENGLISH) -> list[str]:
    """`names` cut to `width` characters (at least 3) and still told apart: `Bartholomew` ->
    `Bart.`; names alike once cut keep their seat's number (`Pla.1`, `Pla.2`); your seat is
    `you` (in `words`' language). A name that fits is kept whole."""
    width = max(width, 3)

    def cut(name: str, tail: str = "") -> str:
        return name if len(name) <= width and not tail else name[: max(width - 1 - len(tail), 1)] + "." + tail

    first = [words.text("table.you") if seat == you else cut(name) for seat, name in enumerate(names)]
    return [cut(name, str(seat + 1)) if seat != you and first.count(first[seat]) > 1 else first[seat] for seat, name in enumerate(names)]


def _natural_width(table: Table) -> int:
    console = Console(file=io.StringIO(), width=10_000, color_system=None)
    return Measurement.get(console, console.options, table).maximum


def fitted_sheet(
    rules: Ruleset,
    names: Sequence[str],
    hands: Sequence[SheetHand],
    width: int,
    winners: Sequence[int] | None = None,
    symbols: bool = True,
    you: int | None = None,
    words: Words = ENGLISH,
) -> Table:
    """The sheet as `score_sheet` makes it, fitted to `width` columns (a terminal's): the first of
    names in full (yours marked `(you)`); names abbreviated, never the numbers; compact cells;
    two lines a hand; the same with one space between columns, which is also what is shown when
    nothing fits."""
    full = [words.text("table.name_you", name=name) if seat == you else name for seat, name in enumerate(names)]
    bid_width = max((len(str(h.size)) for h in hands), default=1)
    total_width = max((len(str(t)) for h in hands for t in h.totals), default=1)
    cell = {"wide": bid_width + 1 + 3 + total_width, "compact": bid_width + 1 + 1 + total_width, "stacked": max(bid_width, total_width) + 1}
    tries = [("wide", None, 1)] + [(layout, abbreviated(names, cell[layout], you, words), 1) for layout in LAYOUTS]
    tries.append(("stacked", abbreviated(names, cell["stacked"], you, words), 0))
    table = None
    for layout, shown, padding in tries:
        table = score_sheet(rules, full, hands, winners, symbols, layout, shown, max_width=width, padding=padding, words=words)
        if _natural_width(table) <= width:
            return table
    assert table is not None
    return table


def print_sheet(console: Console, table: Table, notes: Sequence[str] = ()) -> None:
    """Print `table` on `console` without the spaces rich leaves at each line's end (its cells'
    padding, the stacked layout's): on a terminal at its width, as `fitted_sheet` fitted it;
    elsewhere at the table's full width (no wrapped cells), since a file has no screen edge.
    `notes` (`legend`) follow, each a line: on a terminal wrapped at words to its width."""
    width = console.width
    if not console.is_terminal:
        width = max(width, Measurement.get(console, console.options, table).maximum)
    lines = console.render_lines(table, console.options.update_width(width), pad=False)
    segments: list[Segment] = []
    for line in lines:
        segments.extend(_without_trailing_spaces(line))
        segments.append(Segment.line())
    console.print(Segments(segments), end="", crop=False)
    for note in notes:
        console.print(Text(note, style="dim"), soft_wrap=not console.is_terminal)


def _without_trailing_spaces(line: list[Segment]) -> list[Segment]:
    """A rendered line less the spaces at its end (styles and control codes kept)."""
    kept = list(line)
    at = len(kept) - 1
    while at >= 0:
        segment = kept[at]
        if segment.control is None:
            text = segment.text.rstrip(" ")
            if text:
                kept[at] = Segment(text, segment.style)
                break
            del kept[at]
        at -= 1
    return kept


def score_sheet_text(
    rules: Ruleset,
    names: Sequence[str],
    hands: Sequence[SheetHand],
    winners: Sequence[int] | None = None,
) -> str:
    """The score sheet as plain text (no colours, no escape codes, ASCII rules)."""
    out = io.StringIO()
    console = Console(file=out, color_system=None, force_terminal=False, width=10_000, highlight=False)
    table = score_sheet(rules, names, hands, winners, symbols=False)
    console.print(table, width=Measurement.get(console, console.options, table).maximum)
    lines = [line.rstrip() for line in out.getvalue().splitlines()] + legend(rules, hands, len(names))
    return "\n".join(lines) + "\n"


__all__ = [
    "SheetHand",
    "print_sheet",
    "abbreviated",
    "fitted_sheet",
    "legend",
    "score_sheet",
    "score_sheet_text",
    "trump_label",
    "winners_line",
]
