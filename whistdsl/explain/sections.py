"""The sections of the rules in words, one function each, read from the compiled Ruleset.

Every sentence is made from the ruleset's fields and its formulas (words.py): what the engine
plays. Where a rule is worked out per player count (the deck, the hands, the dead hand) it is
evaluated here with the ruleset's own helpers, so the counts are the ones a game has.
"""

from __future__ import annotations

from collections.abc import Callable

from ..language.errors import EvalError
from ..language.values import value_text
from ..rules.ruleset import (
    CLOCKWISE,
    NORMAL,
    STANDARD_WINNER,
    AuctionCall,
    BidsTogether,
    FirstBidder,
    FirstLead,
    PlannedHand,
    Ruleset,
    SuperRank,
    TrumpSeen,
    TurnedCard,
    WildSuits,
    hand_setup,
)
from .document import Explanation, Section
from .scores import worked_table
from .words import Words, condition_words, limit_words, number_words, points_words

# ---------------------------------------------------------------- small words


def way(direction: int) -> str:
    """`clockwise (to the left)` or `counter-clockwise (to the right)`."""
    return "clockwise (to the left)" if direction == CLOCKWISE else "counter-clockwise (to the right)"


def side(direction: int) -> str:
    return "left" if direction == CLOCKWISE else "right"


def listed(items: list[str], word: str = "and") -> str:
    if not items:
        return ""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" {word} " + items[-1]


def trump_name(suit: str) -> str:
    return "no trump" if suit == "none" else suit


def counts(rules: Ruleset, only: int | None = None) -> range:
    """The player counts a per-count rule is said for: every count the ruleset allows, or `only`."""
    return range(only, only + 1) if only is not None else range(rules.players_min, rules.players_max + 1)


def meanings(rules: Ruleset) -> dict[str, str]:
    """What the ruleset's own names mean: running values, parameters, `let` values."""
    out = {r.name: r.description or "a running value of the ruleset" for r in rules.running}
    out.update({p.name: p.description or f"a table option ({p.domain_words()})" for p in rules.parameters})
    for name, f in rules.lets:
        out[name] = f"a value of the ruleset: {' '.join(f.source.split())}"
    return out


def said(w: Words) -> str:
    return w.line()


def _hands(n: int) -> str:
    return f"{n} hand" + ("" if n == 1 else "s")


#: A list of hand sizes longer than this that repeats a shorter run of sizes is said as that run.
LONGEST_LISTED = 24


def _sizes_words(sizes: list[int]) -> str:
    """`6 hands: 3, 2, 1, 1, 2, 3`; a long list that repeats a run of sizes (a schedule played in
    a loop, `repeat(1, 30)`), said by the run: `100 hands: 3, 2, 1, and so on (the same 3 hands
    over and over, 100 in all)`, `30 hands of 1 card each`."""
    period = next(p for p in range(1, len(sizes) + 1) if all(sizes[i] == sizes[i % p] for i in range(p, len(sizes))))
    if len(sizes) <= LONGEST_LISTED or period * 3 > len(sizes):
        return f"{_hands(len(sizes))}: {', '.join(map(str, sizes))}"
    if period == 1:
        return f"{_hands(len(sizes))} of {sizes[0]} card{'' if sizes[0] == 1 else 's'} each"
    run = ", ".join(map(str, sizes[:period]))
    return f"{_hands(len(sizes))}: {run}, and so on (the same {period} hands over and over, {len(sizes)} in all)"


def ranges(numbers: list[int]) -> str:
    """`1 to 3, 7` for [1, 2, 3, 7]."""
    out: list[str] = []
    start = prev = None
    for n in numbers + [None]:
        if start is not None and (n is None or n != prev + 1):  # type: ignore[operator]  # prev is a number whenever start is
            out.append(str(start) if start == prev else f"{start} to {prev}")
            start = None
        if n is not None and start is None:
            start = n
        prev = n
    return ", ".join(out)


# ---------------------------------------------------------------- the sections


def players_and_deck(rules: Ruleset, players: int, only: int | None = None) -> Section:
    lines = []
    low, high = rules.players_min, rules.players_max
    who = f"{low} players" if low == high else f"{low} to {high} players ({rules.players_default} by default)"
    lines.append(f"{who}; each plays alone.")
    lines.append(f"Suits: {listed(list(rules.suits))}. Ranks from high to low: {' '.join(rules.ranks)}.")
    if rules.deck_size is not None:
        for n in counts(rules, only):
            try:
                kept = rules.deck_ranks(n)
                lines.append(
                    f"With {n} players the deck has {rules.deck_count(n)} cards: {kept[0]} down to {kept[-1]} in each suit (the lowest ranks are taken out)."
                )
            except EvalError as e:
                lines.append(f"With {n} players the deck cannot be made: {e}.")
    else:
        lines.append(f"The deck has {rules.deck_count(players)} cards.")
    if rules.copies is not None:
        for n in counts(rules, only):
            lines.append(
                f"With {n} players {rules.deck_copies(n)} packs are shuffled together ({rules.deck_count(n)} cards); two identical cards are equal."
            )
    for s in rules.specials:
        description = rules.source.get("deck", {}).get("specials", {}).get(s.name, {}).get("description", "")
        lines.append(
            f"{s.count} {s.name} card{'s' if s.count != 1 else ''} (shown {s.mark}), "
            + ("a wild card" if s.wild else "without a suit")
            + (f": {description}" if description else "")
            + "."
        )
    return Section("players", "Players and deck", tuple(lines))


def options(rules: Ruleset, players: int, only: int | None = None) -> Section | None:
    if not rules.parameters:
        return None
    lines = []
    for p in rules.parameters:
        value = rules.parameter_values.get(p.name, p.default)
        chosen = "the default" if value == p.default else f"the default is {value_text(p.default)}"
        about = f"{p.description}; " if p.description else ""
        lines.append(f"`{p.name}`: {about}{p.domain_words()}; here {value_text(value)} ({chosen}). Set it with --set {p.name}=VALUE.")
    return Section("options", "Table options", tuple(lines))


def values(rules: Ruleset, players: int, only: int | None = None) -> Section | None:
    """The `let` values, worked out for the table: `run` is 10."""
    if not rules.lets:
        return None
    try:
        worked = rules.let_values(players)
    except EvalError:
        worked = {}
    lines = []
    for name, f in rules.lets:
        written = " ".join(f.source.split())
        value = worked.get(name)
        shown = value_text(value) if value is not None else "not known here"
        how = "" if written == shown else f" ({written})"
        lines.append(f"`{name}` is {shown} with {players} players{how}.")
    return Section("values", "Values used by the rules", tuple(lines))


def deal(rules: Ruleset, players: int, only: int | None = None) -> Section:
    lines = []
    first = rules.first_dealer
    if first == "random":
        lines.append("The first dealer is chosen at random.")
    elif first == "highest_card":
        lines.append("To choose the first dealer, a card is dealt to each player; the highest card deals first.")
    else:
        lines.append(f"Seat {first} deals first.")
    lines.append(f"After each hand the deal passes {way(rules.deal_direction)}.")
    if rules.sits_out is not None:
        always, sometimes = [], []
        for n in counts(rules, only):
            plan = _plan(rules, n)
            out = [h.number for h in plan if _sits_out(rules, n, h, len(plan))]
            if plan and len(out) == len(plan):
                always.append(str(n))
            elif out:
                sometimes.append(f"with {n} players in hands {ranges(out)}")
        if always:
            lines.append(f"With {listed(always, 'or')} players the dealer sits out every hand (a dead hand): the others play it.")
        for words in sometimes:
            lines.append(f"The dealer sits out {words} (a dead hand).")
        if not always and not sometimes:
            at = f"With {only} players the dealer plays every hand; " if only is not None else ""
            lines.append(
                f"{at}{'the' if at else 'The'} dealer sits out (a dead hand) when: {said(condition_words(rules.sits_out, 'hand', meanings(rules)))}."
            )
    lines += _redeal_lines(rules)
    return Section("deal", "The deal", tuple(lines))


def _declare_lines(rules: Ruleset) -> list[str]:
    """`declare`: what each player may declare before the bidding, and when."""
    if rules.declare is None:
        return []
    said_choices = []
    for name, condition in rules.declare.choices:
        what = "ask for a new deal (`redeal`: the same dealer deals again)" if name == "redeal" else f"declare `{name}`"
        said_choices.append(f"{what} when {said(condition_words(condition, 'declare', meanings(rules)))}")
    return [
        f"Before the bidding each player in bidding order may {listed(said_choices, 'or')}; or declare nothing. "
        "Every player sees the declarations; the scoring reads them."
    ]


def _redeal_lines(rules: Ruleset) -> list[str]:
    """`redeal`: when a hand is dealt again, and how often at most."""
    redeal = rules.redeal
    if redeal is None:
        return []
    why = []
    if redeal.when is not None:
        why.append(f"if, once the cards are dealt and trump is known: {said(condition_words(redeal.when, 'redeal', meanings(rules)))}")
    if redeal.passed_out:
        why.append("if every player passes in the auction")
    if not why:
        return []
    times = "once" if redeal.limit == 1 else "twice" if redeal.limit == 2 else f"{redeal.limit} times"
    return [f"The hand is dealt again by the same dealer {'; or '.join(why)}. At most {times} a hand: then it is played as dealt."]


def _plan(rules: Ruleset, n: int) -> tuple[PlannedHand, ...]:
    try:
        if rules.table_problem(n) is not None:
            return ()
        return rules.planned_hands(n)
    except EvalError:
        return ()


def _sits_out(rules: Ruleset, n: int, hand: PlannedHand, total: int) -> bool:
    try:
        return hand_setup(rules, n, hand, total).dealer_sits_out
    except EvalError:
        return False


def hands(rules: Ruleset, players: int, only: int | None = None) -> Section:
    lines = []
    for n in counts(rules, only):
        plan = _plan(rules, n)
        if not plan:
            problem = rules.table_problem(n)
            if problem:
                lines.append(f"With {n} players: not with these options ({problem}).")
            continue
        lines.append(f"With {n} players, {_sizes_words([h.size for h in plan])}.")
        by_kind: dict[str, list[int]] = {}
        for h in plan:
            if h.kind != NORMAL:
                by_kind.setdefault(h.kind, []).append(h.number)
        for kind, numbers in by_kind.items():
            if len(numbers) == 1:
                lines.append(f"With {n} players, hand {numbers[0]} is the {kind} hand.")
            else:
                lines.append(f"With {n} players, hands {ranges(numbers)} are {kind} hands.")
    lines.append("A hand of n cards deals n cards to each player who plays it, and has n tricks.")
    if rules.end is not None:
        when = said(condition_words(rules.end.when, "end", meanings(rules)))
        try:
            cap = rules.end_cap(players)
            most = f"at most {_hands(cap)} with {players} players"
        except EvalError:
            most = f"at most {' '.join(rules.end.hands.source.split())} hands"
        lines.append(f"The game ends after the first hand after which {when}, or after the hands above: the schedule played in a loop, {most}.")
    else:
        lines.append("The game ends after the last hand of the list.")
    if rules.tiebreak is not None:
        try:
            most, cards = rules.tiebreak_plan(players)  # type: ignore[assignment]  # `most` is the end's cap in words above; here the tie-break's count of hands
            size = f"{cards}-card"
            count = f"up to {most}"
        except EvalError:
            size, count = "extra", "some"
        kind = rules.tiebreak.kind
        lines.append(
            f"On a tie for the win, {count} extra {size} hands"
            + (f" ({kind} hands)" if kind != NORMAL else "")
            + f" are played with {players} players, until the tie is broken."
        )
    return Section("hands", "Hands", tuple(lines))


def special_hands(rules: Ruleset, players: int, only: int | None = None) -> Section | None:
    kinds = [k for name, k in rules.kinds.items() if name != NORMAL]
    if not kinds:
        return None
    lines = []
    views = {
        "forehead": "each player holds their cards on the forehead: they see everyone's cards but their own",
        "blind": "the bids are made before anyone looks at their cards (blind)",
        "normal": "played as usual",
    }
    for k in kinds:
        parts = [views.get(k.view, k.view)]
        if k.allowed is not None:
            parts.append(said(limit_words(k.allowed, meanings(rules))))
        if k.mark:
            parts.append(f"the score sheet marks it {k.mark}")
        about = f" ({k.description})" if k.description else ""
        lines.append(f"A {k.name} hand{about}: " + "; ".join(parts) + ".")
    return Section("kinds", "Special hands", tuple(lines))


_SOURCE_WORDS = {
    "turn_up": "the next card after the deal, turned face up",
    "before_deal": "a card turned from the pack before the deal",
    "dealer_last_card": "the dealer's own last card, shown to all (it stays in the dealer's hand)",
    "random": "a suit drawn at random",
}
_WHO = {
    "dealer": "the dealer",
    "first_bidder": "the first bidder",
    "highest_bidder": "the highest bidder (the earlier of equal bids)",
    "declarer": "the declarer (the winner of the auction)",
}


def trump(rules: Ruleset, players: int, only: int | None = None) -> Section:  # noqa: C901 one sentence per trump rule
    lines = []
    plan = _plan(rules, players)
    if rules.auction is not None and rules.auction.suits:
        lines.append("The auction names trump: the declarer's bid names a suit or no trump (see Bidding).")
    if rules.trump_cycle is not None and not (rules.trump_cycle == ("none",) and (rules.trump_choice or rules.auction)):
        cycle = [trump_name(s) for s in rules.trump_cycle]
        if len(cycle) == 1:
            lines.append(f"Every hand is played with {'no trump' if cycle[0] == 'no trump' else cycle[0] + ' as trump'}.")
        else:
            again = f" (hand {len(cycle) + 1} is {cycle[0]} again)" if len(plan) > len(cycle) else ""
            lines.append(f"Trump changes every hand, in turn: {', '.join(cycle)}; then the cycle starts again{again}.")
    elif rules.trump_cycle is not None:
        lines.append("Without a choice of trump the hand has no trump.")
    if rules.trump_from == ("random",):
        lines.append(f"Trump is drawn at random: {drawn_words(rules)}.")
    elif rules.turn_up or rules.trump_from:
        sources = rules.trump_from or ("turn_up",)
        said_sources = [_SOURCE_WORDS.get(s, s) for s in sources]
        lines.append(f"Trump is the suit of {listed(said_sources, 'or else')}; when no card can be found there, the hand has no trump.")
        if "random" in sources:
            lines.append(f"A trump drawn at random is {drawn_words(rules)}.")
        if "before_deal" in sources:
            lines.append(
                "The card turned before the deal is "
                + ("dealt as usual." if rules.trump_turned == TurnedCard.DEALT else "set aside: it is not dealt this hand.")
            )
        if "turn_up" in sources and plan and len(sources) == 1:
            empty = sorted({h.size for h in plan if _cards_left(rules, players, h, len(plan)) == 0})
            if empty:
                lines.append(f"With {players} players no card is left to turn in the {listed([str(s) for s in empty])}-card hands.")
        if rules.specials:
            lines.append("A special card turned up gives no trump.")
    if rules.trump_none_when is not None:
        w = condition_words(rules.trump_none_when, "deal", meanings(rules))
        lines.append(f"No trump (and no card turned) when: {said(w)}.")
        reads_card = any(n.startswith("turn_up_") for n in rules.trump_none_when.names)
        if plan and not reads_card:
            sizes = sorted({h.size for h in plan if _none_when(rules, players, h, len(plan))})
            if sizes:
                lines.append(f"With {players} players that is the {listed([str(s) for s in sizes])}-card hands.")
    choice = rules.trump_choice
    if choice is not None:
        when = f" when {said(condition_words(choice.when, 'trump_choice', meanings(rules)))}" if choice.when is not None else ""
        after = "after the bidding" if choice.after_bidding else "after the deal, before the bidding"
        lines.append(
            f"{_WHO.get(choice.who, choice.who).capitalize()} names trump{when}, {after}: one of {listed([trump_name(o) for o in choice.options], 'or')}."
        )
    if rules.trump_specials:
        lines.append(f"The {listed(list(rules.trump_specials))} cards are trumps, above the ace of trumps (strongest first).")
        if rules.trump_specials_without:
            lines.append(f"In a hand without trump they are the {rules.trump_specials_without} cards and follow no suit.")
    if rules.super_trumps is not None:
        lines.append(_super_trump_words(rules))
    if rules.trump_seen == TrumpSeen.AFTER_BIDDING:
        lines.append("The bidders do not see trump: it is shown when the bidding ends.")
    if not lines:
        lines.append("No trump.")
    return Section("trump", "Trump", tuple(lines))


def drawn_words(rules: Ruleset) -> str:
    """The odds of a random trump (`trump.weights`), outcomes of one weight together, in the
    deck's order: `spades, hearts, diamonds or clubs 1 in 6 each, no trump 2 in 6`."""
    weights = [(o, w) for o, w in rules.trump_weights if w > 0] or [(s, 1) for s in rules.suits]
    if len(weights) == 1:
        return f"{trump_name(weights[0][0])} every time"
    total = sum(w for _, w in weights)
    by_weight: dict[int, list[str]] = {}
    for outcome, w in weights:
        by_weight.setdefault(w, []).append(trump_name(outcome))
    return ", ".join(f"{listed(names, 'or')} {w} in {total}{' each' if len(names) > 1 else ''}" for w, names in by_weight.items())


def _super_trump_words(rules: Ruleset) -> str:
    """`trump.super_trumps` in words: which cards the turned card makes the highest, in what order."""
    st = rules.super_trumps
    assert st is not None
    high, low = rules.ranks[0], rules.ranks[-1]  # high to low
    which = "of the turned card's rank" if st.rank == SuperRank.SAME else f"of the rank just above the turned card's (after {high} comes {low})"
    below = f", below the {listed(list(rules.trump_specials))} cards" if rules.trump_specials else ""
    order = listed([s for s in st.order if s in rules.suits], "then")
    none = "a special card turned, or no card turned, makes none" if rules.specials else "when no card is turned there are none"
    return (
        f"The cards {which} are super trumps: trumps above the ace of trumps{below}, strongest first by suit: {order}. "
        f"Without trump they still beat every other card and follow their own suit; {none}."
    )


def _cards_left(rules: Ruleset, n: int, hand: PlannedHand, total: int) -> int | None:
    try:
        return hand_setup(rules, n, hand, total).cards_left
    except EvalError:
        return None


def _none_when(rules: Ruleset, n: int, hand: PlannedHand, total: int) -> bool:
    try:
        env = hand_setup(rules, n, hand, total).env
        return bool(rules.trump_none_when(env))  # type: ignore[misc]  # asked only when the ruleset has trump.none_when
    except (EvalError, KeyError):
        return False


def _auction_call_words(call: AuctionCall) -> str:
    """A named call of the auction in words: what it does and how often it may be made."""
    times = call.most or 1
    most = (
        ""
        if call.most is None and call.bid is not None
        else f" (at most {'once' if times == 1 else 'twice' if times == 2 else f'{times} times'} a hand)"
    )
    if call.bid is not None:
        return (
            f"At their turn in the auction a player may call {call.name}{most}: out of the auction, "
            f"with a bid of {call.bid} made for them in the bidding; formulas read `auction_call` and `call` as {call.name}."
        )
    return (
        f"At their turn in the auction a player may call {call.name} on another player's highest bid{most}, "
        f"staying in the auction; everyone sees it, and formulas read that player's `auction_call` as {call.name}."
    )


def bidding(rules: Ruleset, players: int, only: int | None = None) -> Section:
    lines = _declare_lines(rules)
    order = way(rules.bidding_direction)
    if rules.auction is not None:
        a = rules.auction
        low = a.min if isinstance(a.min, int) else " ".join(a.min.source.split())
        named = (
            f", each bid naming one of {listed([trump_name(s) for s in a.suits], 'or')} (lowest first; at an equal number a later one outbids)"
            if a.suits
            else ""
        )
        lines.append(
            f"First an auction: in bidding order each player bids a number of tricks from {low} to the hand size{named}, or passes; "
            "a pass is final, and the highest bidder, once all others have passed, is the declarer."
        )
        lines.append("The declarer bids first, with its auction bid as its bid; when everyone passes there is no declarer.")
        lines += [_auction_call_words(call) for call in a.calls]
    if rules.first_bidder_choice is not None:
        c = rules.first_bidder_choice
        lines.append(
            f"The player with the {'highest' if c.highest else 'lowest'} {said(number_words(c.formula, 'first_bidder', meanings(rules))).removeprefix('the ')} bids first "
            f"(ties to the seat nearest after the dealer); the bidding goes {order}."
        )
    elif rules.first_bidder == FirstBidder.DEALER:
        lines.append(f"The dealer bids first; the bidding goes {order}.")
    elif rules.auction is not None:
        lines.append(
            f"The auction, and the bidding without a declarer, start with the player to the {side(rules.bidding_direction)} of the dealer and go {order}."
        )
    else:
        lines.append(
            f"The player to the {side(rules.bidding_direction)} of the dealer bids first; the bidding goes {order}, so the dealer bids last."
        )
    lines.append("Each player bids how many tricks they will take, from 0 to the hand size; a bid is final.")
    if rules.calls:
        lines.append("Besides the numbers, a player may make a named call: " + listed([f"{name} (counts as {n})" for name, n in rules.calls]) + ".")
    if rules.blind_bids:
        lines.append(
            "Before bidding, each player chooses to bid blind (before looking at their cards) or to look; a blind bidder sees their cards once they have bid."
        )
    if rules.bids_together and rules.bids_together_who == BidsTogether.ALL_BUT_LAST:
        lines.append(
            "The bids are made together but for the last: each is hidden from the others until all but the last bidder have bid; "
            "they are shown then, and the last bidder bids seeing them."
        )
    elif rules.bids_together:
        lines.append("The bids are made together: each is hidden from the others until all have bid.")
    if rules.skip is not None:
        lines.append(
            f"A player is excused from bidding (its bid is 0, made for it) when: {said(condition_words(rules.skip, 'skip', meanings(rules)))}."
        )
    if rules.allowed is None:
        lines.append("Every bid from 0 to the hand size is allowed (no hook).")
    else:
        lines.append(said(limit_words(rules.allowed, meanings(rules))).capitalize() + ".")
        example = hook_example(rules, players)
        if example:
            lines.append(example)
    return Section("bidding", "Bidding", tuple(lines))


def hook_example(rules: Ruleset, players: int) -> str | None:
    """ "Example: a 6-card hand with 4 players, after the bids 2, 0, 1 the last bidder may not bid 3."
    (the bidding limit tried for every bid of the last bidder), or None."""
    from ..language.environment import bidding_env, trump_env

    f = rules.allowed
    if f is None or f.seat_reads or (f.checked is not None and f.checked.roles) or rules.calls or rules.auction is not None:
        return None
    plan = _plan(rules, players)
    if not plan:
        return None
    size = min({h.size for h in plan}, key=lambda s: (abs(s - 6), -s))
    hand = next(h for h in plan if h.size == size and h.kind == NORMAL) if any(h.size == size and h.kind == NORMAL for h in plan) else None
    if hand is None:
        return None
    try:
        setup = hand_setup(rules, players, hand, len(plan))
        base = trump_env(setup.env, "none")
        earlier = [(2, 0, 1)[i % 3] for i in range(setup.playing - 1)]
        earlier = [min(b, size) for b in earlier]
        env = bidding_env(
            base, total=0, is_dealer=True, bids_made=len(earlier), bids_so_far=sum(earlier), bidders=setup.playing, running=_start(rules, players)
        )
        env.update({"seats": (), "others": (), "earlier": (), "later": ()})
        refused = []
        for b in range(size + 1):
            env["bid"] = b
            if not f(env):
                refused.append(str(b))
    except (EvalError, KeyError, TypeError):
        return None
    if not refused or len(refused) > size:
        return None
    bids = ", ".join(map(str, earlier))
    who = "the dealer, who bids last," if rules.first_bidder == FirstBidder.AFTER_DEALER and rules.first_bidder_choice is None else "the last bidder"
    return f"Example: in a {size}-card hand with {setup.playing} players, after the bids {bids} {who} may not bid {listed(refused, 'or')}."


def _start(rules: Ruleset, players: int) -> dict:
    from ..rules.ruleset import start_running

    try:
        return start_running(rules, players)
    except EvalError:
        return {}


_VOID = {
    "free": "may play any card (there is no obligation to trump)",
    "must_trump": "must play a trump if they hold one; otherwise any card",
    "must_overtrump": "must play a trump higher than any trump already in the trick if they can, else any trump, else any card",
}
_AMONG = {"trump": "trump", "led": "card of the suit led", "suited": "card of a suit"}


_WILD_SUITS = {
    WildSuits.ANY: "any suit",
    WildSuits.TRUMP: "the trump suit (any suit in a hand without trump)",
    WildSuits.LED: "the suit led (any suit when it leads)",
}


def _wild_lines(rules: Ruleset) -> list[str]:
    """The deck's wild cards in words: the suits each may take, and what it is once played."""
    wild = rules.wild_cards
    if not wild:
        return []
    lines = [
        f"A {s.name} is a wild card: its holder plays it as a card of {_WILD_SUITS[s.wild]}, said as it is played (written {s.mark}=H for hearts)."
        for s in wild
    ]
    order = f" ({', '.join(s.name for s in wild)}, from the highest)" if len(wild) > 1 else ""
    lines.append(
        f"Played, a wild card is the highest card of the suit it takes{order}, above its ace: it follows that suit, "
        "leads it, wins as a card of it (as the highest trump when it takes trump), and played as another suit than the one led it "
        "shows its holder has none of the suit led. While held it belongs to no suit: it never obliges its holder to follow."
    )
    return lines


def play(rules: Ruleset, players: int, only: int | None = None) -> Section:
    lines = []
    lead = rules.first_lead
    if rules.first_lead_choice is not None:
        c = rules.first_lead_choice
        what = said(number_words(c.formula, "first_lead", meanings(rules)))
        lines.append(
            f"The player with the {'highest' if c.highest else 'lowest'} {what.removeprefix('the ')} leads the first trick (ties to the earlier bidder)."
        )
    elif lead == FirstLead.FIRST_BIDDER:
        where = ""
        if rules.first_bidder_choice is not None:
            c = rules.first_bidder_choice
            what = said(number_words(c.formula, "first_bidder", meanings(rules))).removeprefix("the ")
            where = f" (the player with the {'highest' if c.highest else 'lowest'} {what})"
        elif rules.first_bidder == FirstBidder.AFTER_DEALER:
            where = f" (the player to the {side(rules.bidding_direction)} of the dealer" + (", or the declarer" if rules.auction else "") + ")"
        lines.append(f"The first bidder leads the first trick{where}.")
    elif lead == FirstLead.AFTER_DEALER:
        lines.append(f"The player to the {side(rules.play_direction)} of the dealer leads the first trick.")
    else:
        lines.append("The dealer leads the first trick.")
    lines.append(f"Play goes {way(rules.play_direction)}; the winner of each trick leads the next.")
    lines.append(f"A player must follow the suit led if they can; a player who cannot {_VOID.get(rules.when_void, rules.when_void)}.")
    if rules.always_playable:
        lines.append(f"The {listed(list(rules.always_playable))} cards may be played at any time, even when holding the suit led.")
    other = [s.name for s in rules.specials if s.name not in rules.always_playable and s.name not in rules.trump_specials and not s.wild]
    if other:
        lines.append(f"The {listed(other)} cards are played only by a player who cannot follow suit.")
    lines.extend(_wild_lines(rules))
    for name, asks in rules.special_led:
        lines.append(
            f"A {name} led "
            + ("asks nothing: the others may play any card." if asks == "free" else "passes the lead on: the next card sets the suit to follow.")
        )
    if rules.trick_winner == STANDARD_WINNER:
        lines.append("The highest trump wins the trick; if no trump was played, the highest card of the suit led.")
    else:
        rules_said = [f"the {w.pick} {_AMONG.get(w.among, w.among)}" + (" played" if w.pick in ("first", "last") else "") for w in rules.trick_winner]
        lines.append("The trick goes to " + "; else ".join(rules_said) + ".")
    if rules.copies is not None:
        lines.append(f"Of two identical cards in one trick the {rules.identical} played wins.")
    return Section("play", "Play", tuple(lines))


def scoring(rules: Ruleset, players: int, only: int | None = None) -> Section:
    lines = []
    m = meanings(rules)
    if rules.points is not None:
        lines.append(f"Points for a hand: {said(points_words(rules.points, 'scoring', m))}.")
    lines.append("Made means taking exactly the tricks bid.")
    if rules.bonus is not None:
        lines.append(f"A bonus is added to the points: {said(points_words(rules.bonus, 'bonus', m))}.")
    for r in rules.running:
        about = f" ({r.description})" if r.description else ""
        start = said(number_words(r.start, "running_start", m))
        after = said(points_words(r.after_hand, "running", m))
        lines.append(f"Each player keeps a running value `{r.name}`{about}: it starts at {start}; after each hand it becomes: {after}.")
    lines.append("A player's total is the sum of their points" + (" and bonuses" if rules.bonus is not None else "") + ".")
    table, note = worked_table(rules, players)
    if note:
        lines.append(note)
    return Section("scoring", "Scoring", tuple(lines), table)


def winner(rules: Ruleset, players: int, only: int | None = None) -> Section:
    lines = []
    m = meanings(rules)
    if rules.wins_outright is not None:
        lines.append(
            f"A player for whom this holds at the end wins outright, before any ranking: {said(condition_words(rules.wins_outright, 'winner', m))}."
        )
    keys = rules.rank or ()
    if not keys:
        lines.append("The highest total wins.")
    for i, key in enumerate(keys):
        what = said(number_words(key.formula, "winner", m)).removeprefix("the ")
        word = "highest" if key.highest else "lowest"
        lines.append(f"The {word} {what} wins." if i == 0 else f"A tie goes to the {word} {what}.")
    if rules.tiebreak is None:
        lines.append("Players still tied share the win.")
    return Section("winner", "The winner", tuple(lines))


SECTIONS: tuple[Callable[[Ruleset, int, int | None], Section | None], ...] = (
    players_and_deck,
    options,
    values,
    deal,
    hands,
    special_hands,
    trump,
    bidding,
    play,
    scoring,
    winner,
)


def explanation(rules: Ruleset, players: int | None = None) -> Explanation:
    """Every section of `rules` in words (`whistdsl.explain.explain`): for every player count it
    allows (the worked examples at its default count), or for a table of `players` only."""
    n = players if players is not None else rules.players_default
    sections = tuple(s for s in (make(rules, n, players) for make in SECTIONS) if s is not None)
    return Explanation(rules.name or "A ruleset", rules.description, n, sections)
