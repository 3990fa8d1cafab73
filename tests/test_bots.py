"""Computer players: only legal actions, only their seat's view, and sensible play."""

from __future__ import annotations

import gc
import json
import random
import types
from fractions import Fraction
from pathlib import Path

import pytest
from checked_games import play_checked

from whistdsl import load_rules
from whistdsl.engine import Game, SeatView
from whistdsl.players import BOTS, RandomPlayer, decide, play_out
from whistdsl.players.heuristic import HeuristicPlayer, trick_distribution
from whistdsl.players.mc import MonteCarloPlayer, sample_hands
from whistdsl.records.record import game_record
from whistdsl.records.replay import check_record_shape, replay
from whistdsl.resources import bundled_rulesets

ALL_RULESETS = sorted(bundled_rulesets())


@pytest.mark.parametrize("name", ALL_RULESETS)
def test_heuristic_and_random_players_only_make_legal_moves_in_every_bundled_ruleset(name):
    rules = load_rules(name)
    for players in sorted({rules.players_min, rules.players_max}):
        for seed in range(2):
            bots = [HeuristicPlayer() if s % 2 == 0 else RandomPlayer() for s in range(players)]
            game = play_checked(rules, players, seed, bots)
            assert game.result is not None


@pytest.mark.parametrize("name", ["romanian", "romanian-forehead", "romanian-nv", "scoring/negative"])
def test_monte_carlo_player_only_makes_legal_moves(name):
    rules = load_rules(name)
    n = rules.players_min
    bots = [MonteCarloPlayer(samples=3), HeuristicPlayer()] + [RandomPlayer()] * (n - 2)
    play_checked(rules, n, 5, bots)


def test_every_kind_of_computer_player_plays_hands_dealt_again_legally():
    # Estimation's auction with a hand dealt again when passed out or when a seat is dealt a void
    # (docs/examples/estimation-redeal.yaml): the players that look ahead imagine a hand as dealt
    rules = load_rules(Path(__file__).parent.parent / "docs" / "examples" / "estimation-redeal.yaml")
    bots = [MonteCarloPlayer(samples=2), BOTS["search"](), HeuristicPlayer(), RandomPlayer()]
    game = play_checked(rules, 4, 3, bots)
    assert game.result is not None
    assert any(h.redeals for h in game.history), "seed 3 deals some hand again"


def test_every_kind_of_computer_player_makes_declarations_legally():
    # Estimation with Avoid (docs/examples/estimation-avoid.yaml): a void declared, a new deal
    # asked for; the random player makes any declaration, the others declare nothing
    rules = load_rules(Path(__file__).parent.parent / "docs" / "examples" / "estimation-avoid.yaml")
    bots = [RandomPlayer(), MonteCarloPlayer(samples=2), BOTS["search"](), HeuristicPlayer()]
    game = play_checked(rules, 4, 1, bots)
    assert game.result is not None
    assert any(d == "declare" for h in game.history for _, d, _ in h.choices)


def _referents(obj: object) -> list[object]:
    """What `obj` refers to, not counting a function's module globals (a module is not part of a
    view: any code can import one)."""
    if isinstance(obj, types.FunctionType):
        return [obj.__code__, obj.__defaults__, obj.__kwdefaults__, obj.__closure__, obj.__dict__]
    return gc.get_referents(obj)


def _reachable(root: object) -> list[object]:
    """Every object reachable from `root`: its whole object graph, modules and classes excluded."""
    seen: set[int] = set()
    stack = [root]
    out = []
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, (type, types.ModuleType)):
            continue
        seen.add(id(obj))
        out.append(obj)
        stack.extend(_referents(obj))
    return out


# What each field of a SeatView holds: cards (each must be visible to the seat), or no cards.
CARD_FIELDS = {"hand", "others", "trick", "tricks", "turn_up", "legal"}
OTHER_FIELDS = {
    "seat",
    "players",
    "rules",
    "phase",
    "to_act",
    "hand_number",
    "hand_size",
    "kind",
    "view",
    "extra",
    "dealer",
    "sitting_out",
    "trump",
    "bidding_order",
    "bids",
    "leader",
    "taken",
    "totals",
    "running",
    "hand_env",
    "decision",
    "bids_hidden",
    "trump_named_by",  # language 2's decisions (scalars)
    "declarer",
    "auction_bid",  # the auction's winner and its winning bid (scalars)
    "trump_from",
    "turn_up_place",
    "trump_hidden",  # language 2: where trump came from, whether it is hidden yet
    "redeals",  # how many times the hand was dealt again (a number; the deals dealt again are not shown)
}
# per seat: the named call made (text), whether it bid blind, whether it was excused from bidding,
# the declaration made before the bidding (text);
# and the auction's bids and passes, (seat, text)
DECISION_FIELDS = {"calls", "blind", "excused", "auction", "declared"}
SCALARS = (int, str, bool, Fraction, type(None))


def _cards_in_view(view: SeatView) -> set[int]:
    """The cards held by the view's card fields, read by their structure."""
    found = set(view.hand or ()) | {c for cards in view.others.values() for c in cards}
    found |= {c for _, c in view.trick} | {c for t in view.tricks for _, c in t.cards}
    if view.turn_up is not None:
        found.add(view.turn_up)
    if view.phase == "play" and view.legal is not None:
        found |= set(view.legal)
    return found


def _engine_state(game: Game) -> list[object]:
    """The game's own containers, which a view must copy, never share."""
    state: list[object] = [game, game.hands, *game.hands, *(suit for hand in game.hands for suit in hand)]
    state += [game.deck, game.dealt, *game.dealt, game.trick, game.tricks, game.bids, game.bid_log]
    state += [game.taken, game.totals, game.running, *game.running]
    return [o for o in state if not isinstance(o, tuple) or o]  # () is shared by every empty tuple


def check_view_holds_nothing_hidden(view: SeatView, game: Game, hidden: set[int]) -> None:
    """Walk everything reachable from `view`: no Game, none of the game's own containers, no card
    the seat may not see; and every field holds what it should."""
    assert set(vars(view)) == CARD_FIELDS | OTHER_FIELDS | DECISION_FIELDS, "a SeatView field this test does not know"
    assert all(type(x) is str for x in view.calls) and all(type(x) is bool for x in view.blind)
    reachable = _reachable(view)
    assert not any(isinstance(o, Game) for o in reachable), "a Game is reachable from the view"
    state_ids = {id(o) for o in _engine_state(game)}
    assert not [o for o in reachable if id(o) in state_ids], "the view shares the game's own state"
    # the cards in the view are the visible ones only
    assert not _cards_in_view(view) & hidden
    # the other fields hold no cards: numbers, names and seats only
    for name in OTHER_FIELDS - {"rules", "running", "hand_env", "bids"}:
        value = getattr(view, name)
        assert isinstance(value, SCALARS) or (isinstance(value, tuple) and all(type(x) is int for x in value)), name
    assert all(len(b) == 2 and all(type(x) is int for x in b) for b in view.bids)
    assert all(isinstance(v, SCALARS) for r in view.running for v in r.values())
    assert all(isinstance(v, SCALARS) for v in view.hand_env.values()), "the hand's env holds a collection"
    # the ruleset (shared by every game) holds no copy of a hidden hand
    hands = [frozenset(c for suit in game.hands[s] for c in suit) for s in range(game.players)]
    hidden_hands = {h for h in hands if len(h) >= 2 and h <= hidden}
    for o in _reachable(view.rules):
        if isinstance(o, (list, tuple, set, frozenset)) and len(o) >= 2 and all(type(x) is int for x in o):
            assert frozenset(o) not in hidden_hands, "the ruleset holds a hidden hand"


class Spy:
    """A player that keeps every view it is given (and plays like the heuristic player)."""

    kind = "spy"
    observes = True

    def __init__(self) -> None:
        self.views: list[SeatView] = []
        self.inner = HeuristicPlayer()

    def act(self, view, legal, rng):
        self.views.append(view)
        return self.inner.act(view, legal, rng)


@pytest.mark.parametrize("name", ["romanian", "romanian-forehead", "romanian-nv"])
def test_a_computer_player_cannot_reach_cards_its_seat_may_not_see(name):
    rules = load_rules(name)
    spy = Spy()
    game = Game(rules, players=4, seed=21)
    bots = [spy, RandomPlayer(), RandomPlayer(), RandomPlayer()]
    while not game.over:
        seat = game.to_act
        if seat == 0:
            hidden = set()
            for other in range(1, 4):
                if rules.kinds[game.plan[game.index].kind].view != "forehead":
                    hidden |= {c for s in game.hands[other] for c in s}
            if not game.can_see_own_hand(0):
                hidden |= {c for s in game.hands[0] for c in s}
            action = decide(game, spy)
            check_view_holds_nothing_hidden(spy.views[-1], game, hidden)
            game.act(action)
        else:
            game.act(decide(game, bots[seat]))
    assert spy.views


def test_trick_distribution_adds_up_to_one_and_has_the_right_mean():
    dist = trick_distribution([0.5, 0.25, 1.0])
    assert abs(sum(dist) - 1) < 1e-12
    assert abs(sum(t * p for t, p in enumerate(dist)) - 1.75) < 1e-12


def test_sampled_hands_respect_shown_voids_and_hand_sizes():
    rules = load_rules("serbian")
    rng = random.Random(3)
    for seed in range(30):
        game = Game(rules, players=4, seed=seed)
        while game.phase == "bidding":
            game.act(decide(game, RandomPlayer()))
        for _ in range(9):  # a couple of tricks and a bit
            game.act(decide(game, RandomPlayer()))
        view = game.view(game.to_act)
        hands = sample_hands(view, rng)
        for seat, cards in hands.items():
            assert len(cards) == sum(len(s) for s in game.hands[seat])
        for t in view.tricks:
            led = t.cards[0][1] >> 4
            for seat, c in t.cards[1:]:
                if c >> 4 != led and seat != view.seat:
                    assert all(x >> 4 != led for x in hands[seat]), "a seat that showed a void got that suit"
        everything = [c for cards in hands.values() for c in cards]
        assert len(everything) == len(set(everything))


def test_every_bot_name_is_registered():
    assert {"random", "heuristic", "mc"} <= set(BOTS)


def test_heuristic_player_outscores_random_play():
    rules = load_rules("romanian")
    heuristic_total = random_total = 0
    for seed in range(20):
        kinds = ["heuristic", "random", "random", "random"]
        kinds = kinds[seed % 4 :] + kinds[: seed % 4]
        game = Game(rules, players=4, seed=seed)
        bots = [BOTS[k]() for k in kinds]
        while not game.over:
            game.act(decide(game, bots[game.to_act]))
        for seat, k in enumerate(kinds):
            if k == "heuristic":
                heuristic_total += game.result.totals[seat]
            else:
                random_total += game.result.totals[seat] / 3
    assert heuristic_total > random_total + 20 * 20  # by more than 20 points a game on average


@pytest.mark.parametrize("name", ALL_RULESETS)
def test_play_out_plays_the_heuristic_as_decide_does_in_every_bundled_ruleset(name):
    """play_out's fast path (each seat's chooser inside the engine's loop, reading its
    SeatWindow) makes the same choices as asking the player with the whole view each time."""
    rules = load_rules(name)
    n = rules.players_min
    kinds = ["heuristic"] * (n - 1) + ["random"]
    half = Game(rules, players=n, seed=0).scheduled_hands // 2 + 1  # the second half of the schedule
    slow = Game(rules, players=n, seed=1, start_at=half)
    bots = [BOTS[k]() for k in kinds]
    while not slow.over:
        slow.act(decide(slow, bots[slow.to_act]))
    fast = Game(rules, players=n, seed=1, start_at=half)
    play_out(fast, [BOTS[k]() for k in kinds])
    assert fast.history == slow.history
    assert fast.result == slow.result


#: Example rulesets of rule kinds no bundled ruleset plays: bids made together but the last,
#: calls inside the auction (a dash, a double), a joker that takes the suit its holder declares
EXAMPLE_RULESETS = ["oh-hell-dealer-bids-last.yaml", "estimation-dash-and-double.yaml", "oh-hell-joker.yaml"]
EXAMPLES = Path(__file__).parent.parent / "docs" / "examples"


@pytest.mark.parametrize("name", EXAMPLE_RULESETS)
def test_every_bot_only_makes_legal_moves_in_the_examples_of_newer_rule_kinds(name):
    rules = load_rules(EXAMPLES / name)
    play_checked(rules, 4, 1, [HeuristicPlayer(), RandomPlayer(), MonteCarloPlayer(samples=3), RandomPlayer()])
    # play_out's fast path makes the same choices as asking each player with the whole view
    slow = Game(rules, players=4, seed=2)
    bots = [BOTS[k]() for k in ("heuristic", "random", "heuristic", "random")]
    while not slow.over:
        slow.act(decide(slow, bots[slow.to_act]))
    fast = Game(rules, players=4, seed=2)
    play_out(fast, [BOTS[k]() for k in ("heuristic", "random", "heuristic", "random")])
    assert fast.history == slow.history


@pytest.mark.parametrize("bot", ["random", "heuristic", "mc", "search"])
@pytest.mark.parametrize(("name", "seed"), [("oh-hell-dealer-bids-last.yaml", 3), ("estimation-dash-and-double.yaml", 2)])
def test_each_bot_plays_the_examples_of_newer_rule_kinds_and_the_game_is_recorded_and_replays(name, seed, bot):
    game = Game(load_rules(EXAMPLES / name), players=4, seed=seed)
    play_out(game, [BOTS[bot](), *(BOTS["heuristic"]() for _ in range(3))])  # the bot in seat 0 (mc and search think long)
    assert game.over
    record = json.loads(json.dumps(game_record(game)))
    check_record_shape(record)
    assert replay(record).complete
