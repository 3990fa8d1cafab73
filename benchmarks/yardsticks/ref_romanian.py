#!/usr/bin/env python3
"""Hand-written reference engine: Romanian whist, uniformly random legal play.

A speed yardstick for whistdsl: ../shared/bench/ref_romanian.py (the engine the issue measured
whistdsl against), generalised to play exactly rulesets/romanian.yaml at every table size. The
shared engine lets all 6 players play every hand; here, as the ruleset and the seed say, with 6
players the dealer is a dead hand (sits the hand out, scores nothing). It also draws the first
dealer for each game instead of always seat 0 (the same distribution as the ruleset's
"highest card deals": a uniformly random seat). At 3 to 5 players it plays the same games as the
shared engine. Pure Python 3.11, stdlib only.

Rules (those of rulesets/romanian.yaml): N players (3..6), deck = the 8N highest cards (4 suits
x 2N ranks: A..9, A..7, A..5, A..3), the same 48 with 6 players. Schedule: N x 1-card hands,
2..7, N x 8, 7..2, N x 1. The first dealer is a random seat; the deal passes clockwise (dealer
of hand h = first + h). With 6 players the dealer sits out: 5 seats play each hand. After the
deal the next card is turned up for trump; 8-card hands have no trump (the written rule, also
with 6 players when 8 cards are left over). Bids 0..k, starting left of the dealer; the last
bidder (the dealer, or with 6 players the seat to the dealer's right) may not make
sum(bids) == k (the hook). The first bidder leads the first trick, then the trick's winner.
Must follow suit, else must trump if able, else any card. The highest trump wins, else the
highest card of the suit led. Score per hand: exact -> 5 + tricks, else -|bid - tricks|.

Representation (hot path, as in the shared engine):
  * card id c = suit * R + rank, R = 2N ranks per suit, rank 0 lowest; suits numbered as
    whistdsl does (spades 0, hearts 1, diamonds 2, clubs 3).
  * hand = 4 small lists of ranks, reused across hands (every hand ends with all hands
    empty): legality is `if lst:`, a random legal card `lst.pop(int(rnd() * len(lst)))`.
  * every playing seat holds k - t cards at trick t; deal = partial Fisher-Yates of a
    persistent deck list; int(rnd() * n) for every choice.
  * the schedule is expanded once per first dealer, with each hand's seat orders.

CLI:
  python ref_romanian.py --games N --players P --seed S   # throughput
  python ref_romanian.py --seconds T --players P           # time-boxed run
  python ref_romanian.py --check --games N --players P     # every game re-verified by check_trace

Trace (with play_game(scores, trace=[])), one game: per hand
  ("deal", k, dealer, trump, turned, [sorted card ids per seat, [] for the dead hand])
  ("bids", [(seat, bid), ...]) in bidding order; ("play", seat, card) per card;
  ("end", [tricks per seat], [running totals]).
"""

import argparse
import random
import time

PLAYERS = (3, 4, 5, 6)


def schedule(n):
    return [1] * n + list(range(2, 8)) + [8] * n + list(range(7, 1, -1)) + [1] * n


def make_engine(n, rng, first_dealer=None):
    """Return play_game(scores, trace=None) for n players, bound to rng. The first dealer is
    drawn from rng for each game unless `first_dealer` is given."""
    if n not in PLAYERS:
        raise ValueError("players must be 3..6")
    R = 2 * n
    D = 4 * R  # deck size = 8n
    SCHED = schedule(n)
    dead = n == 6  # the dealer sits out
    hands = [[[], [], [], []] for _ in range(n)]

    def orders(dealer):
        """(bidders before the last, the last bidder, followers of each leader, playing hands,
        playing seats) for a hand with this dealer."""
        playing = [(dealer + i) % n for i in range(1, n + 1) if not (dead and i == n)]
        follow = [tuple(q for q in ((p + i) % n for i in range(1, n)) if q in playing) for p in range(n)]
        return tuple(playing[:-1]), playing[-1], follow, [hands[p] for p in playing], tuple(playing)

    TABLE = [orders(d) for d in range(n)]
    PLANS = [[(k, (f + h) % n, k != 8) + TABLE[(f + h) % n] for h, k in enumerate(SCHED)] for f in range(n)]
    deck = list(range(D))
    bids = [0] * n
    tricks = [0] * n
    seats = range(n)
    rnd = rng.random

    def play_game(scores, trace=None):
        """Play one full schedule; add per-hand scores into `scores`."""
        plan = PLANS[int(rnd() * n) if first_dealer is None else first_dealer]
        for k, dealer, turn, order, last, FOL, dealt, playing in plan:
            # ---- deal: partial Fisher-Yates over the first k * (seats playing) (+1) slots
            i = 0
            for h in dealt:
                for _ in range(k):
                    j = i + int(rnd() * (D - i))
                    c = deck[j]
                    deck[j] = deck[i]
                    deck[i] = c
                    h[c // R].append(c % R)
                    i += 1
            if turn:  # i < D: a card is left to turn
                j = i + int(rnd() * (D - i))
                c = deck[j]
                deck[j] = deck[i]
                deck[i] = c
                trump = c // R
            else:
                trump = -1
            if trace is not None:
                trace.append(
                    ("deal", k, dealer, trump, deck[i] if turn else None, [sorted(s * R + r for s in range(4) for r in h[s]) for h in hands])
                )
            # ---- bidding: left of the dealer first, the hook on the last bidder
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
            bids[last] = b
            if trace is not None:
                trace.append(("bids", [(p, bids[p]) for p in playing]))
            # ---- play
            for p in seats:
                tricks[p] = 0
            leader = playing[0]
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
                for p in FOL[leader]:
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
            for p in playing:
                b = bids[p]
                w = tricks[p]
                if b == w:
                    scores[p] += 5 + w
                elif b > w:
                    scores[p] -= b - w
                else:
                    scores[p] -= w - b
            if trace is not None:
                trace.append(("end", list(tricks), list(scores)))

    return play_game


# ---------------------------------------------------------------- checking
# Written again from the rules above, with sets and no shared code.


def ranks_per_suit(n):
    return 2 * n


def legal_bids(k, bids_so_far, is_last):
    """The bids the rules allow: 0..k, and the last bidder may not make the sum k."""
    return [b for b in range(k + 1) if not (is_last and bids_so_far + b == k)]


def legal_cards(n, hand, trick, trump):
    """The cards of `hand` (a set of ids) the rules allow on `trick` (the cards played so far)
    at a table of n players."""

    def suit(c):
        return c // ranks_per_suit(n)

    if not trick:
        return set(hand)
    led = suit(trick[0])
    follow = {c for c in hand if suit(c) == led}
    if follow:
        return follow
    trumps = {c for c in hand if trump >= 0 and suit(c) == trump}
    return trumps or set(hand)


def trick_winner(trick, trump, ranks):
    """The index in `trick` of the winning card: the highest trump, else the highest of the led suit."""

    def suit(c):
        return c // ranks

    trumps = [i for i, c in enumerate(trick) if suit(c) == trump]
    cands = trumps or [i for i, c in enumerate(trick) if suit(c) == suit(trick[0])]
    return max(cands, key=lambda i: trick[i])


def hand_score(bid, taken):
    return 5 + taken if bid == taken else -abs(bid - taken)


def check_trace(n, trace):
    """Independently re-verify a one-game trace against the rules; return the final totals."""
    R = ranks_per_suit(n)
    D = 4 * R
    sched = schedule(n)
    scores = [0] * n
    it = iter(trace)
    first = None
    for hi, k in enumerate(sched):
        tag, kk, dealer, trump, turned, dealt = next(it)
        assert tag == "deal" and kk == k
        if first is None:
            first = dealer
        assert dealer == (first + hi) % n, "the deal passes clockwise"
        out = {dealer} if n == 6 else set()
        playing = [(dealer + i) % n for i in range(1, n + 1) if (dealer + i) % n not in out]
        assert len(dealt) == n and all(len(dealt[p]) == (0 if p in out else k) for p in range(n))
        allc = [c for h in dealt for c in h]
        assert len(set(allc)) == len(allc) == k * len(playing) and all(0 <= c < D for c in allc)
        if k == 8:
            assert turned is None and trump == -1, "8-card hands have no trump"
        else:
            assert turned is not None and turned not in allc and 0 <= turned < D
            assert trump == turned // R
        tag, bidlog = next(it)
        assert tag == "bids" and [p for p, _ in bidlog] == playing
        so_far = 0
        for i, (_p, b) in enumerate(bidlog):
            assert b in legal_bids(k, so_far, i == len(playing) - 1), "bid out of range or hooked"
            so_far += b
        bid = dict(bidlog)
        hand = [set(h) for h in dealt]
        tricks = [0] * n
        leader = playing[0]
        for _t in range(k):
            trick = []
            order = [(leader + i) % n for i in range(n) if (leader + i) % n not in out]
            for p_expected in order:
                tag, p, c = next(it)
                assert tag == "play" and p == p_expected
                assert c in legal_cards(n, hand[p], trick, trump), "illegal card"
                hand[p].remove(c)
                trick.append(c)
            leader = order[trick_winner(trick, trump, R)]
            tricks[leader] += 1
        assert not any(hand)
        tag, etricks, escores = next(it)
        assert tag == "end" and etricks == tricks, (etricks, tricks)
        for p in playing:
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
    cards = (n - (n == 6)) * sum(schedule(n))

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
            for _ in range(50):
                sc = [0] * n
                play(sc)
                total += sum(sc)
            games += 50
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
