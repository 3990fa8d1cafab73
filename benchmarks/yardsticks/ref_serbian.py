#!/usr/bin/env python3
"""Hand-written reference engine: Serbian whist, uniformly random legal play.

A speed yardstick for whistdsl, written in the style of ../shared/bench/ref_romanian.py
(see ref_romanian.py here). Pure Python 3.11, stdlib only.

Rules (exactly those of rulesets/serbian.yaml): N players (4..6), the 52-card deck, ranks
A high to 2. Schedule: 52 // N cards down to 2, then N hands of 1 card, then 2 up to 52 // N
(4 players: 13..2, 1, 1, 1, 1, 2..13 = 28 hands; 5 players: 10..2, 5 x 1, 2..10; 6 players:
8..2, 6 x 1, 2..8). Play moves counter-clockwise: seats are numbered clockwise, so the seat
after p is p - 1. The first dealer is a random seat; the deal passes to the right (dealer of
hand h = first - h). Trump rotates with the hand, spades, diamonds, hearts, clubs, no trump,
and the cycle continues (hand h: CYCLE[h % 5]); no card is turned. Bids 0..k, starting with
the dealer's right-hand neighbour, the dealer last; the dealer may not make sum(bids) == k
(the hook). The first bidder leads the first trick, then the trick's winner. Must follow
suit, else must trump if able, else any card. The highest trump wins, else the highest card
of the suit led. Score per hand: exact -> 10 + tricks; missed with no trick -> -10; missed
otherwise -> tricks.

Representation (hot path, as in ref_romanian.py):
  * card id c = suit * 13 + rank, rank 0 lowest (a two), suits numbered as whistdsl does:
    spades 0, hearts 1, diamonds 2, clubs 3.
  * hand = 4 small lists of ranks, reused across hands (every hand ends with all hands
    empty): legality is `if lst:`, a random legal card `lst.pop(int(rnd() * len(lst)))`.
  * every seat holds k - t cards at trick t; deal = partial Fisher-Yates of a persistent
    deck list; int(rnd() * n) for every choice.
  * the schedule is expanded once per first dealer: (hand size, dealer, trump) per hand.

CLI:
  python ref_serbian.py --games N --players P --seed S   # throughput
  python ref_serbian.py --seconds T --players P           # time-boxed run
  python ref_serbian.py --check --games N --players P     # every game re-verified by check_trace

Trace (with play_game(scores, trace=[])), one game: per hand
  ("deal", k, dealer, trump, turned, [sorted card ids per seat])   trump -1 = none, turned None
  ("bids", [(seat, bid), ...])                                      in bidding order
  ("play", seat, card) per card, and ("end", [tricks per seat], [running totals]).
"""

import argparse
import random
import time

PLAYERS = (4, 5, 6)
RANKS = 13
CYCLE = (0, 2, 1, 3, -1)  # spades, diamonds, hearts, clubs, no trump


def schedule(n):
    top = 52 // n
    return list(range(top, 1, -1)) + [1] * n + list(range(2, top + 1))


def make_engine(n, rng, first_dealer=None):
    """Return play_game(scores, trace=None) for n players, bound to rng. The first dealer is
    drawn from rng for each game unless `first_dealer` is given."""
    if n not in PLAYERS:
        raise ValueError("players must be 4..6")
    R = RANKS
    D = 4 * R
    SCHED = schedule(n)
    # ORDER[p] = the seats after p, counter-clockwise (to the right), p excluded.
    ORDER = [tuple((p - i) % n for i in range(1, n)) for p in range(n)]
    PLANS = [[(k, (f - h) % n, CYCLE[h % 5]) for h, k in enumerate(SCHED)] for f in range(n)]
    deck = list(range(D))
    hands = [[[], [], [], []] for _ in range(n)]
    bids = [0] * n
    tricks = [0] * n
    seats = range(n)
    rnd = rng.random

    def play_game(scores, trace=None):
        """Play one full schedule; add per-hand scores into `scores`."""
        plan = PLANS[int(rnd() * n) if first_dealer is None else first_dealer]
        for k, dealer, trump in plan:
            # ---- deal: partial Fisher-Yates over the first n*k slots
            i = 0
            for h in hands:
                for _ in range(k):
                    j = i + int(rnd() * (D - i))
                    c = deck[j]
                    deck[j] = deck[i]
                    deck[i] = c
                    h[c // R].append(c % R)
                    i += 1
            if trace is not None:
                trace.append(("deal", k, dealer, trump, None, [sorted(s * R + r for s in range(4) for r in h[s]) for h in hands]))
            # ---- bidding: the dealer's right-hand neighbour first, the hook on the dealer
            order = ORDER[dealer]
            tot = 0
            for p in order:
                b = int(rnd() * (k + 1))
                bids[p] = b
                tot += b
            forb = k - tot
            if forb >= 0:  # k choices, skip the forbidden one
                b = int(rnd() * k)
                if b >= forb:
                    b += 1
            else:
                b = int(rnd() * (k + 1))
            bids[dealer] = b
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
                for s in range(4):
                    lst = h[s]
                    m = len(lst)
                    if x < m:
                        r = lst.pop(x)
                        break
                    x -= m
                led = bs = s
                br = r
                win = leader
                if trace is not None:
                    trace.append(("play", leader, s * R + r))
                for p in ORDER[leader]:
                    h = hands[p]
                    lst = h[led]
                    if lst:  # must follow
                        r = lst.pop(int(rnd() * len(lst)))
                        s = led
                        if bs == led and r > br:
                            br = r
                            win = p
                    elif trump >= 0 and h[trump]:  # must trump
                        lst = h[trump]
                        r = lst.pop(int(rnd() * len(lst)))
                        s = trump
                        if bs != trump or r > br:
                            bs = trump
                            br = r
                            win = p
                    else:  # discard anything
                        x = int(rnd() * left)
                        for s in range(4):
                            lst = h[s]
                            m = len(lst)
                            if x < m:
                                r = lst.pop(x)
                                break
                            x -= m
                    if trace is not None:
                        trace.append(("play", p, s * R + r))
                tricks[win] += 1
                leader = win
            # ---- score
            for p in seats:
                b = bids[p]
                w = tricks[p]
                if b == w:
                    scores[p] += 10 + w
                elif w:
                    scores[p] += w
                else:
                    scores[p] -= 10
            if trace is not None:
                trace.append(("end", list(tricks), list(scores)))

    return play_game


# ---------------------------------------------------------------- checking
# Written again from the rules above, with sets and no shared code: the engine's tricks (lists
# reused, counts instead of sets, the hook as an index shift) are not trusted here.


def suit(c):
    return c // RANKS


def legal_bids(k, bids_so_far, is_last):
    """The bids the rules allow: 0..k, and the last bidder may not make the sum k."""
    return [b for b in range(k + 1) if not (is_last and bids_so_far + b == k)]


def legal_cards(n, hand, trick, trump):
    """The cards of `hand` (a set of ids) the rules allow on `trick` (the cards played so far);
    the same at every table size n."""
    if not trick:
        return set(hand)
    led = suit(trick[0])
    follow = {c for c in hand if suit(c) == led}
    if follow:
        return follow
    trumps = {c for c in hand if trump >= 0 and suit(c) == trump}
    return trumps or set(hand)


def trick_winner(trick, trump):
    """The index in `trick` of the winning card: the highest trump, else the highest of the led suit."""
    trumps = [i for i, c in enumerate(trick) if suit(c) == trump]
    cands = trumps or [i for i, c in enumerate(trick) if suit(c) == suit(trick[0])]
    return max(cands, key=lambda i: trick[i])


def hand_score(bid, taken):
    if bid == taken:
        return 10 + taken
    return taken if taken else -10


def check_trace(n, trace):
    """Independently re-verify a one-game trace against the rules; return the final totals."""
    sched = schedule(n)
    scores = [0] * n

    def right(p, i=1):
        return (p - i) % n

    it = iter(trace)
    first = None
    for hi, k in enumerate(sched):
        tag, kk, dealer, trump, turned, dealt = next(it)
        assert tag == "deal" and kk == k
        if first is None:
            first = dealer
        assert dealer == right(first, hi), "the deal passes to the right"
        assert trump == [0, 2, 1, 3, -1][hi % 5], "trump cycle S, D, H, C, none"
        assert turned is None
        assert len(dealt) == n and all(len(h) == k for h in dealt)
        allc = [c for h in dealt for c in h]
        assert len(set(allc)) == n * k and all(0 <= c < 52 for c in allc)
        tag, bidlog = next(it)
        assert tag == "bids"
        assert [p for p, _ in bidlog] == [right(dealer, i) for i in range(1, n + 1)]
        so_far = 0
        for i, (_p, b) in enumerate(bidlog):
            assert b in legal_bids(k, so_far, i == n - 1), "bid out of range or hooked"
            so_far += b
        bid = dict(bidlog)
        hand = [set(h) for h in dealt]
        tricks = [0] * n
        leader = right(dealer)
        for _t in range(k):
            trick = []
            for i in range(n):
                tag, p, c = next(it)
                assert tag == "play" and p == right(leader, i)
                assert c in legal_cards(n, hand[p], trick, trump), "illegal card"
                hand[p].remove(c)
                trick.append(c)
            leader = right(leader, trick_winner(trick, trump))
            tricks[leader] += 1
        assert not any(hand)
        tag, etricks, escores = next(it)
        assert tag == "end" and etricks == tricks, (etricks, tricks)
        for p in range(n):
            scores[p] += hand_score(bid[p], tricks[p])
        assert escores == scores
    assert next(it, None) is None
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
