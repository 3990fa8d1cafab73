"""The `search` player (players/search.py): legal in every bundled ruleset, blind to what its
seat cannot see, repeatable, and its exact solver agrees with brute force over the engine."""

from __future__ import annotations

import random

import pytest

from whistdsl import load_rules
from whistdsl.engine import Game
from whistdsl.engine.game import PLAY
from whistdsl.players import BOTS, decide
from whistdsl.players.bots import make_bot
from whistdsl.players.heuristic import HeuristicPlayer
from whistdsl.players.search import HandFacts, Position, Scorer, SearchPlayer, flat_hands, solve
from whistdsl.resources import bundled_rulesets

ALL_RULESETS = sorted(bundled_rulesets())


def test_search_is_a_bot_and_takes_the_thinking_time():
    assert "search" in BOTS
    bot = make_bot("search", 0.2)
    assert isinstance(bot, SearchPlayer) and bot.think == 0.2
    assert type(make_bot("heuristic", 0.2)) is HeuristicPlayer  # the others answer at once


@pytest.mark.parametrize("name", ALL_RULESETS)
def test_search_player_only_makes_legal_moves_in_every_bundled_ruleset(name):
    rules = load_rules(name)
    n = rules.players_min
    half = Game(rules, players=n, seed=0).scheduled_hands // 2 + 1  # the second half of the schedule: short
    game = Game(rules, players=n, seed=3, start_at=half)
    bots = [SearchPlayer(samples=2)] + [HeuristicPlayer() for _ in range(n - 1)]
    while not game.over:
        seat = game.to_act
        legal = game.legal_actions()
        action = decide(game, bots[seat])
        if action is None:
            assert not game.can_see_own_hand(seat)
        else:
            assert action in legal, f"search chose {action}, not in {legal}"
        game.act(action)
    assert game.result is not None


def _swap_unseen(game: Game, seat: int) -> Game:
    """A copy of `game` in which two other seats have swapped two cards of one suit: nothing
    seat `seat` can see changes (counts, suits and voids stay)."""
    other = game.clone()
    seats = [s for s in range(game.players) if s != seat and s not in game.sitting_out]
    for a in seats:
        for b in seats:
            for suit in range(4):
                if a < b and other.hands[a][suit] and other.hands[b][suit] and other.hands[a][suit][0] != other.hands[b][suit][-1]:
                    x, y = other.hands[a][suit][0], other.hands[b][suit][-1]
                    other.hands[a][suit][0], other.hands[b][suit][-1] = y, x
                    other.hands[a][suit].sort(reverse=True)
                    other.hands[b][suit].sort(reverse=True)
                    return other
    return other  # nothing to swap: the caller sees the same hands


@pytest.mark.parametrize("name", ["openspiel", "romanian", "oh-hell-nil", "wizard"])
def test_decisions_read_only_the_seat_view(name):
    """Two games that differ only in cards seat 0 cannot see: the same views, and the same
    decision with the same generator, bid and card alike."""
    rules = load_rules(name)
    game = Game(rules, players=4, seed=11)
    bots = [HeuristicPlayer() for _ in range(4)]
    checked = 0
    while not game.over and checked < 6:
        seat = game.to_act
        view = game.view(seat)
        if view.legal and len(view.legal) > 1 and view.hand is not None:
            twin = _swap_unseen(game, seat)
            if twin.hands == game.hands:
                game.act(decide(game, bots[seat]))
                continue
            assert twin.view(seat) == view
            mine = SearchPlayer(samples=4).act(view, list(view.legal), random.Random(5))
            theirs = SearchPlayer(samples=4).act(twin.view(seat), list(twin.view(seat).legal), random.Random(5))  # type: ignore[arg-type]
            assert mine == theirs
            checked += 1
        game.act(decide(game, bots[seat]))
    assert checked >= 3


def test_a_fixed_sample_count_plays_the_same_game():
    rules = load_rules("openspiel", settings=["tricks=6"])
    histories = []
    for _ in range(2):
        game = Game(rules, players=4, seed=21)
        bots = [SearchPlayer(samples=3) for _ in range(4)]
        while not game.over:
            game.act(decide(game, bots[game.to_act]))
        histories.append(game.history)
    assert histories[0] == histories[1]


def _brute_force(game: Game, me: int) -> tuple[float, ...]:
    """max^n by the engine itself: every legal card of the seat to act, on a clone; the seat
    keeps the card best for it, of equal ones the worst for `me`, then the smallest vector; the
    hand scored by the engine."""
    if game.phase != PLAY:
        return tuple(float(p) for p in game.history[-1].points)
    seat = game.to_act
    best = None
    for c in game.legal_cards():
        sim = game.clone()
        sim.act(c)
        v = _brute_force(sim, me)
        if best is None or v[seat] > best[seat] or (v[seat] == best[seat] and (v[me], v) < (best[me], best)):
            best = v
    return best  # type: ignore[return-value]


@pytest.mark.parametrize("name,players,tricks_left", [("openspiel", 4, 3), ("romanian", 3, 3), ("serbian", 4, 2), ("oh-hell-nil", 4, 3)])
def test_the_solver_agrees_with_brute_force_over_the_engine(name, players, tricks_left):
    rules = load_rules(name, settings=["tricks=5"]) if name == "openspiel" else load_rules(name)
    compared = 0
    start = next(h.number for h in Game(rules, players=players, seed=0).plan if h.size >= tricks_left + 2)
    for seed in range(40):
        game = Game(rules, players=players, seed=seed, start_at=start)
        bots = [HeuristicPlayer() for _ in range(players)]
        while not game.over and not (game.phase == PLAY and not game.trick and sum(map(len, game.hands[game.to_act])) == tricks_left):
            game.act(decide(game, bots[game.to_act]))
            if game.history:
                break
        if game.over or game.history or game.phase != PLAY:
            continue
        me = game.to_act
        expected = _brute_force(game.clone(), me)
        facts = HandFacts(game, Scorer(game, 1.0), game.trump)
        hands = {s: [c for suit in game.hands[s] for c in suit] for s in range(players)}
        pos = Position(flat_hands(hands, players, bool(rules.specials)), [], game.leader, list(game.taken), list(game.bids), facts)  # type: ignore[arg-type]
        assert solve(pos, [0]) == expected, f"seed {seed}"
        compared += 1
        if compared >= 8:
            break
    assert compared >= 4


@pytest.mark.parametrize("when_void", ["free", "must_trump", "must_overtrump"])
def test_the_rollouts_card_is_the_heuristics_card(when_void):
    """standard_card, read off the hand's suit lists, is choose_card of the legal cards."""
    from whistdsl.engine.tricks import legal_cards
    from whistdsl.players.heuristic import choose_card
    from whistdsl.players.search import standard_card

    rng = random.Random(when_void)
    deck = [s * 16 + r for s in range(4) for r in range(13)]
    for _ in range(3000):
        rng.shuffle(deck)
        size = rng.randint(1, 8)
        played = rng.randint(0, 3)
        hand = [sorted((c for c in deck[:size] if c >> 4 == s), reverse=True) for s in range(4)]
        trick = [(k + 1, c) for k, c in enumerate(deck[size : size + played])]
        trump = rng.choice([-1, 0, 1, 2, 3])
        need = rng.randint(-2, 3)
        last = played == 3
        expected = choose_card(legal_cards(hand, trick, trump, when_void), trick, trump, need, last)
        assert standard_card(hand, trick, trump, when_void, need, last) == expected, (hand, trick, trump, need, last)


def test_simulate_and_play_take_the_thinking_time():
    import json

    from typer.testing import CliRunner

    from whistdsl.cli import app

    runner = CliRunner()
    args = ["simulate", "openspiel", "--set", "tricks=3", "-n", "2", "-p", "4", "--seed", "1", "--workers", "1", "--format", "json"]
    result = runner.invoke(app, [*args, "--bots", "search,heuristic,heuristic,heuristic", "--think", "0.002"])
    assert result.exit_code == 0, result.output
    assert set(json.loads(result.stdout)["bots"]) == {"search", "heuristic"}
    refused = runner.invoke(app, [*args, "--bots", "search", "--think", "0"])
    assert refused.exit_code == 2 and "--think" in refused.output
    watched = runner.invoke(app, ["play", "openspiel", "--set", "tricks=2", "--watch", "--seed", "3", "--bots", "search", "--think", "0.002"])
    assert watched.exit_code == 0, watched.output
    assert "search" in watched.output


def test_search_outplays_the_heuristic_in_a_short_match():
    """Duplicate hands of OpenSpiel's game: search at two seats, the heuristic at two, then
    the seats swapped; search scores more by over a point a seat a hand (these 24 plays: about
    2.9; the heuristic misses many more bids)."""
    rules = load_rules("openspiel", settings=["tricks=5"])
    margin = 0.0
    for deal in range(12):
        for searching in ((0, 2), (1, 3)):
            game = Game(rules, players=4, seed=500 + deal)
            bots = [SearchPlayer(samples=12) if s in searching else HeuristicPlayer() for s in range(4)]
            while not game.over:
                game.act(decide(game, bots[game.to_act]))
            points = game.history[-1].points
            margin += sum(points[s] for s in searching) - sum(points[s] for s in range(4) if s not in searching)
    assert margin > 2 * 24


def test_a_resumed_game_of_search_players_ends_as_the_uninterrupted_one(tmp_path):
    """The record keeps each searching seat's work a decision (what --think gave); a game
    resumed from it plays the same as the uninterrupted game, whatever this process measures."""
    import json

    from typer.testing import CliRunner

    from whistdsl.cli import app
    from whistdsl.records.record import game_record

    runner = CliRunner()
    full = tmp_path / "full.json"
    played = runner.invoke(
        app, ["play", "romanian", "--players", "3", "--watch", "--seed", "4", "--bots", "search", "--think", "0.001", "--record", str(full)]
    )
    assert played.exit_code == 0, played.output
    whole = json.loads(full.read_text())
    work = {p["seat"]: tuple(p["work"]) for p in whole["players"]}
    assert sorted(work) == [0, 1, 2] and len(set(work.values())) == 1
    # the record as it stood after hand 4 of the same game, played here with the recorded work
    game = Game(load_rules("romanian"), players=3, seed=4)
    game.keep_rng_states = True
    bots = [SearchPlayer(units=work[s]) for s in range(3)]
    while len(game.history) < 4:
        game.act(decide(game, bots[game.to_act]))
    part = tmp_path / "part.json"
    part.write_text(json.dumps(game_record(game, ["search"] * 3, work)))
    resumed = runner.invoke(app, ["play", "--resume", str(part), "--watch", "--think", "0.5"])  # the record's work wins
    assert resumed.exit_code == 0, resumed.output
    again = json.loads(part.read_text())
    assert again["hands"] == whole["hands"] and again["final"] == whole["final"]


def test_each_kind_of_decision_has_its_own_work(tmp_path):
    """`--think` buys each kind of decision (a bid, a card by play-outs, a card by the exact
    search) the work of those seconds at that kind's own measured rate; a record from before
    the exact search had its own measure keeps two numbers, and resumes with the exact search
    given the play-outs' work."""
    import json

    from typer.testing import CliRunner

    from whistdsl.cli import app
    from whistdsl.players.search import KINDS, units_per_second, work_units
    from whistdsl.records.record import game_record

    assert KINDS == ("bid", "card", "exact")
    units = work_units(0.01)
    assert len(units) == 3 and all(u >= 1 for u in units)
    assert units == tuple(max(1, int(0.01 * units_per_second(k))) for k in KINDS)
    old = SearchPlayer(units=(300, 400))
    same = SearchPlayer(units=(300, 400, 400))
    game = Game(load_rules("openspiel", settings=["tricks=3"]), players=4, seed=8)
    twin = Game(load_rules("openspiel", settings=["tricks=3"]), players=4, seed=8)
    while not game.over:
        action = decide(game, old)
        assert decide(twin, same) == action
        game.act(action)
        twin.act(action)
    game = Game(load_rules("openspiel", settings=["tricks=3"]), players=4, seed=9)
    game.keep_rng_states = True
    record = game_record(game, ["search"] * 4, dict.fromkeys(range(4), (300, 400)))
    path = tmp_path / "old.json"
    path.write_text(json.dumps(record))
    resumed = CliRunner().invoke(app, ["play", "--resume", str(path), "--watch"])
    assert resumed.exit_code == 0, resumed.output
    assert [p["work"] for p in json.loads(path.read_text())["players"]] == [[300, 400]] * 4


@pytest.mark.parametrize(
    "name,players",
    [("romanian", 4), ("romanian", 6), ("serbian", 4), ("wizard", 4), ("oh-hell-nil", 4), ("oh-hell-two-decks", 8), ("openspiel", 4)],
)
def test_the_position_made_from_a_view_is_the_hand_in_play(name, players):
    """The search's look-ahead copy (`view_position`: the seat's view and a guess at the hidden
    cards), given the real cards, is the engine's hand: the same trick in progress, leader,
    tricks taken and bids, then card by card the same legal cards for every seat, the same
    trick winners, and at the end the engine's own points for the hand (bonus included).
    Checked mid-trick and at a trick's start, in several hands of each game."""
    from whistdsl.players.search import view_position

    rules = load_rules(name)
    checked = 0
    for seed in range(6):
        game = Game(rules, players=players, seed=seed)
        bots = [HeuristicPlayer() for _ in range(players)]
        rng = random.Random(seed)
        while not game.over and checked < 6 * (seed + 1):
            if game.phase == PLAY and game.tricks and rng.random() < 0.3:
                view = game.view(game.to_act)
                hands = {s: [c for suit in game.hands[s] for c in suit] for s in range(players) if s not in game.sitting_out}
                pos = view_position(view, hands, 1.0, random.Random(0))
                assert (pos.trick, pos.leader, pos.taken) == (list(game.trick), game.leader, list(game.taken))
                assert pos.bids == [b if b is not None else 0 for b in game.bids]
                real, number = game.clone(), game.hand_number
                while real.phase == PLAY and real.hand_number == number:
                    seat = real.to_act
                    assert pos.to_act() == seat
                    legal = real.legal_cards()
                    assert sorted(pos.legal(seat)) == sorted(legal)
                    card = rng.choice(legal)
                    pos.play(card)
                    real.act(card)
                record = real.history[-1]
                assert record.number == number
                assert pos.taken == list(record.taken)
                assert pos.facts.scorer.values(pos.bids, pos.taken, pos.facts.calls) == tuple(float(p) for p in record.points)
                checked += 1
            game.act(decide(game, bots[game.to_act]))
    assert checked >= 12


def test_the_thinking_measure_is_spread_over_the_hands_of_a_game(monkeypatch):
    """The rate `--think` is turned into is measured on decisions from several hands of the
    table's game (a game's mix of hand sizes), at most a share of each kind's time in any one
    hand: not all in its first hand. (A clock of its own, so the count does not hang on the
    machine's speed.)"""
    from whistdsl.players import search

    measured: list[tuple[str, int, int]] = []  # (kind, hand number, hand size)
    act = search.SearchPlayer.act

    def noted(self, view, legal, rng):
        measured.append((self.kind_of(view), view.hand_number, view.hand_size))
        return act(self, view, legal, rng)

    class Clock:  # every decision takes 0.01 s of CPU, whatever the machine
        now = 0.0

        @classmethod
        def process_time(cls) -> float:
            cls.now += 0.01
            return cls.now

    monkeypatch.setattr(search.SearchPlayer, "act", noted)
    monkeypatch.setattr(search, "time", Clock)
    spent = dict.fromkeys(search.KINDS, 0.0)
    rates: dict[str, list[float]] = {k: [] for k in search.KINDS}
    search._measure(load_rules("oh-hell"), 4, range(3), spent, rates)
    for kind in search.KINDS:
        hands = {h for k, h, _ in measured if k == kind}
        assert len(hands) >= search.MEASURE_HANDS, (kind, hands)
        assert spent[kind] >= search.MEASURE_SECONDS and all(r > 0 for r in rates[kind])
        assert len(rates[kind]) == len([m for m in measured if m[0] == kind])  # one rate a measured decision
    assert len({size for _, _, size in measured}) >= search.MEASURE_HANDS  # oh-hell's hands shrink 12 .. 1
