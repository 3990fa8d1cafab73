#!/usr/bin/env python3
"""Hand-written reference engine: Wizard (the card game), uniformly random legal play.

A speed yardstick for whistdsl's language-2 rulesets, written in the style of
../shared/bench/ref_romanian.py (see ref_romanian.py here). Pure Python 3.11, stdlib only.

Rules (exactly those of rulesets/wizard.yaml): N players (3..6), 60 cards: the 52 of a pack
(A high to 2) with 4 Wizards and 4 Jesters (identical cards, no suit). Round r deals r cards,
r = 1 .. 60 // N (20, 15, 12 or 10 rounds). The first dealer is a random seat (the ruleset's
"highest card deals": a uniformly random seat); the deal passes clockwise (dealer of hand
h = first + h). After the deal the next card is turned: a suited card names trump; a Jester
means no trump; a Wizard lets the dealer name any of the four suits (a random choice here, as a
random player makes it); in the last round every card is dealt: no trump. Bids 0..k, starting
left of the dealer, the dealer last, any bid (no hook). The first bidder (left of the dealer)
leads the first trick, then the trick's winner. A Wizard or a Jester may be played at any time;
otherwise a player must follow the suit led if able, else plays anything (no duty to trump).
The suit led is that of the first suited card, unless a Wizard comes before it (then nothing is
to be followed); Jesters led pass the lead on to the next card. The trick goes to the first
Wizard, else the highest trump, else the highest card of the suit led; a trick of Jesters only
goes to the first. Score per hand: exact -> 20 + 10 x tricks, else -10 x |bid - tricks|.

Representation (hot path):
  * deck ids: suited card = suit * 13 + rank (rank 0 a two; suits numbered as whistdsl does:
    spades 0, hearts 1, diamonds 2, clubs 3), Wizards 52..55, Jesters 65..68, so that
    c // 13 is a hand's list (4 = Wizards, 5 = Jesters) and c % 13 the entry in it.
  * hand = 6 small lists, reused across hands (every hand ends with all hands empty); a
    follower's legal cards are its led-suit list plus its Wizards and Jesters, or everything.
  * every seat holds k - t cards at trick t; deal = partial Fisher-Yates of a persistent deck
    list; int(rnd() * n) for every choice.

CLI:
  python ref_wizard.py --games N --players P --seed S   # throughput
  python ref_wizard.py --seconds T --players P           # time-boxed run
  python ref_wizard.py --check --games N --players P     # every game re-verified by check_trace

Trace (with play_game(scores, trace=[])), one game: per hand (card ids in the trace: suited
0..51 as above, a Wizard 52, a Jester 53)
  ("deal", k, dealer, trump, turned, [sorted card ids per seat])   trump -1 = none (also while
                                                                    a turned Wizard waits)
  ("trump", dealer, suit)        only when a Wizard was turned: the dealer names trump
  ("bids", [(seat, bid), ...]); ("play", seat, card) per card; ("end", [tricks], [totals]).
"""

import argparse
import random
import time

PLAYERS = (3, 4, 5, 6)
WIZARD = 52  # in traces
JESTER = 53


def schedule(n):
    return list(range(1, 60 // n + 1))


def trace_id(lst, r):
    """A card's trace id from its hand list and entry."""
    return lst * 13 + r if lst < 4 else WIZARD + lst - 4  # lists 4 and 5: 52 and 53


def make_engine(n, rng, first_dealer=None):
    """Return play_game(scores, trace=None) for n players, bound to rng. The first dealer is
    drawn from rng for each game unless `first_dealer` is given."""
    if n not in PLAYERS:
        raise ValueError("players must be 3..6")
    D = 60
    SCHED = schedule(n)
    ORDER = [tuple((p + i) % n for i in range(1, n)) for p in range(n)]
    PLANS = [[(k, (f + h) % n, n * k < D) for h, k in enumerate(SCHED)] for f in range(n)]
    deck = list(range(52)) + list(range(52, 56)) + list(range(65, 69))
    hands = [[[], [], [], [], [], []] for _ in range(n)]
    bids = [0] * n
    tricks = [0] * n
    seats = range(n)
    rnd = rng.random

    def play_game(scores, trace=None):
        """Play one full schedule; add per-hand scores into `scores`."""
        plan = PLANS[int(rnd() * n) if first_dealer is None else first_dealer]
        for k, dealer, turn in plan:
            # ---- deal: partial Fisher-Yates over the first n*k (+1) slots
            i = 0
            for h in hands:
                for _ in range(k):
                    j = i + int(rnd() * (D - i))
                    c = deck[j]
                    deck[j] = deck[i]
                    deck[i] = c
                    h[c // 13].append(c % 13)
                    i += 1
            trump = -1
            named = False
            if turn:
                j = i + int(rnd() * (D - i))
                c = deck[j]
                deck[j] = deck[i]
                deck[i] = c
                if c < 52:
                    trump = c // 13
                elif c < 56:  # a Wizard: the dealer names trump
                    named = True
            if trace is not None:
                trace.append(
                    (
                        "deal",
                        k,
                        dealer,
                        trump,
                        trace_id(c // 13, c % 13) if turn else None,
                        [sorted(trace_id(s, r) for s in range(6) for r in h[s]) for h in hands],
                    )
                )
            if named:
                trump = int(rnd() * 4)
                if trace is not None:
                    trace.append(("trump", dealer, trump))
            # ---- bidding: left of the dealer first, any bid
            order = ORDER[dealer]
            for p in order:
                bids[p] = int(rnd() * (k + 1))
            bids[dealer] = int(rnd() * (k + 1))
            if trace is not None:
                trace.append(("bids", [(p, bids[p]) for p in order + (dealer,)]))
            # ---- play
            for p in seats:
                tricks[p] = 0
            leader = order[0]
            for t in range(k):
                left = k - t
                h = hands[leader]
                x = int(rnd() * left)
                for s in range(6):
                    lst = h[s]
                    m = len(lst)
                    if x < m:
                        r = lst.pop(x)
                        break
                    x -= m
                win = leader
                if s < 4:  # led = the suit to follow, -1 none yet, -2 free
                    led = bs = s  # bs: the winning card's suit, -3 Jesters only
                    br = r
                    done = False  # done: a Wizard has taken the trick
                elif s == 4:
                    led = -2
                    done = True
                else:
                    led = -1
                    bs = -3
                    done = False
                if trace is not None:
                    trace.append(("play", leader, trace_id(s, r)))
                for p in ORDER[leader]:
                    h = hands[p]
                    if led >= 0 and h[led]:  # holds the suit led: it, a Wizard or a Jester
                        lst = h[led]
                        m = len(lst)
                        x = int(rnd() * (m + len(h[4]) + len(h[5])))
                        if x < m:
                            r = lst.pop(x)
                            s = led
                        else:
                            x -= m
                            s = 4 if x < len(h[4]) else 5
                            r = h[s].pop()
                    else:  # anything
                        x = int(rnd() * left)
                        for s in range(6):
                            lst = h[s]
                            m = len(lst)
                            if x < m:
                                r = lst.pop(x)
                                break
                            x -= m
                    if trace is not None:
                        trace.append(("play", p, trace_id(s, r)))
                    if s < 4:
                        if led == -1:
                            led = s
                        if done:
                            continue
                        if s == trump:
                            if bs != trump or r > br:
                                bs = trump
                                br = r
                                win = p
                        elif s == led and bs != trump and (bs == -3 or r > br):
                            bs = s
                            br = r
                            win = p
                    elif s == 4:
                        if led == -1:
                            led = -2
                        if not done:
                            done = True
                            win = p
                tricks[win] += 1
                leader = win
            # ---- score
            for p in seats:
                b = bids[p]
                w = tricks[p]
                if b == w:
                    scores[p] += 20 + 10 * w
                elif b > w:
                    scores[p] -= 10 * (b - w)
                else:
                    scores[p] -= 10 * (w - b)
            if trace is not None:
                trace.append(("end", list(tricks), list(scores)))

    return play_game


# ---------------------------------------------------------------- checking
# Written again from the rules above, with card lists (Wizards and Jesters are identical
# cards: a hand may hold several) and no shared code.


def suit(c):
    """0..3 for a suited card, None for a Wizard or a Jester."""
    return c // 13 if c < 52 else None


def led_suit(trick):
    """The suit to follow: the first suited card's, unless a Wizard comes first (None)."""
    for c in trick:
        if c == WIZARD:
            return None
        if c != JESTER:
            return suit(c)
    return None


def legal_bids(k, bids_so_far, is_last):
    """Any bid 0..k: no hook."""
    return list(range(k + 1))


def legal_cards(n, hand, trick, trump):
    """The cards of `hand` (a list of ids; Wizards and Jesters may repeat) the rules allow on
    `trick` (the cards played so far), as a list with repeats."""
    led = led_suit(trick)
    if led is not None and any(suit(c) == led for c in hand):
        return [c for c in hand if suit(c) == led or c in (WIZARD, JESTER)]
    return list(hand)


def trick_winner(trick, trump):
    """The index in `trick` of the winning card."""
    for i, c in enumerate(trick):
        if c == WIZARD:
            return i
    trumps = [i for i, c in enumerate(trick) if trump >= 0 and suit(c) == trump]
    if trumps:
        return max(trumps, key=lambda i: trick[i])
    led = led_suit(trick)
    if led is not None:
        return max((i for i, c in enumerate(trick) if suit(c) == led), key=lambda i: trick[i])
    return 0  # Jesters only: the first


def hand_score(bid, taken):
    return 20 + 10 * taken if bid == taken else -10 * abs(bid - taken)


def check_trace(n, trace):
    """Independently re-verify a one-game trace against the rules; return the final totals."""
    sched = schedule(n)
    full = sorted(list(range(52)) + [WIZARD] * 4 + [JESTER] * 4)
    scores = [0] * n
    it = iter(trace)
    first = None
    record = next(it)
    for hi, k in enumerate(sched):
        tag, kk, dealer, trump, turned, dealt = record
        assert tag == "deal" and kk == k
        if first is None:
            first = dealer
        assert dealer == (first + hi) % n, "the deal passes clockwise"
        assert len(dealt) == n and all(len(h) == k for h in dealt)
        allc = sorted([c for h in dealt for c in h] + ([] if turned is None else [turned]))
        rest = list(full)
        for c in allc:
            rest.remove(c)  # raises if a card is dealt more often than the deck holds it
        record = next(it)
        if n * k == 60:
            assert turned is None and trump == -1, "the last round has no trump"
        elif turned == WIZARD:
            assert trump == -1
            tag, who, trump = record
            assert tag == "trump" and who == dealer and 0 <= trump < 4
            record = next(it)
        else:
            assert trump == (-1 if turned == JESTER else suit(turned))
        tag, bidlog = record
        assert tag == "bids" and [p for p, _ in bidlog] == [(dealer + i) % n for i in range(1, n + 1)]
        for i, (_p, b) in enumerate(bidlog):
            assert b in legal_bids(k, 0, i == n - 1)
        bid = dict(bidlog)
        hand = [list(h) for h in dealt]
        tricks = [0] * n
        leader = (dealer + 1) % n
        for _t in range(k):
            trick = []
            for i in range(n):
                tag, p, c = next(it)
                assert tag == "play" and p == (leader + i) % n
                assert c in legal_cards(n, hand[p], trick, trump), "illegal card"
                hand[p].remove(c)
                trick.append(c)
            leader = (leader + trick_winner(trick, trump)) % n
            tricks[leader] += 1
        assert not any(hand)
        tag, etricks, escores = next(it)
        assert tag == "end" and etricks == tricks, (etricks, tricks)
        for p in range(n):
            scores[p] += hand_score(bid[p], tricks[p])
        assert escores == scores
        record = next(it, None)
    assert record is None
    return scores


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--seconds", type=float, default=0.0, help="run for about this long instead of --games")
    ap.add_argument("--players", type=int, default=4, choices=PLAYERS)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args(argv)
    n = a.players
    play = make_engine(n, random.Random(a.seed))
    cards = n * sum(schedule(n))

    if a.check:
        for _ in range(a.games):
            tr = []
            sc = [0] * n
            play(sc, tr)
            assert check_trace(n, tr) == sc
        print(f"check OK: {a.games} games, {n} players")
        return

    total = 0
    games = 0
    t0 = time.perf_counter()
    if a.seconds > 0:
        stop = t0 + a.seconds
        while True:
            for _ in range(20):
                sc = [0] * n
                play(sc)
                total += sum(sc)
            games += 20
            if time.perf_counter() >= stop:
                break
    else:
        for _ in range(a.games):
            sc = [0] * n
            play(sc)
            total += sum(sc)
        games = a.games
    dt = time.perf_counter() - t0
    g = max(games, 1)
    print(f"players={n} games={games} secs={dt:.3f} games/s={games / dt:.1f} cards/game={cards} us/card={dt / g / cards * 1e6:.3f} checksum={total}")


if __name__ == "__main__":
    main()
