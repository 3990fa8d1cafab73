"""Tournaments of computer players: play many seeded games of one ruleset and measure the bots,
the seats and the bidding positions (the dealer's disadvantage, measured).

Games are played in chunks, in worker processes; each chunk returns a `Tally` of exact counts
and sums (ints and Fractions) that is merged into the running total and dropped, so memory stays
flat however many games are played. Game g is seeded from (seed, g) alone and seats the bots
rotated by g, so the numbers do not depend on how the games were split between workers, nor on
the order in which chunks come back.
"""

from __future__ import annotations

import csv
import hashlib
import io
import itertools
import math
import os
import time
from collections import Counter
from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction
from pathlib import Path
from typing import Annotated, Any, Callable, Iterable, Iterator, Optional, TypeVar

import typer

from ..diagnostics.lint import load_rules, resolve_ruleset_argument
from ..engine.game import Game, RuleError
from ..language.values import Number, value_text
from ..players.base import BOTS, DEFAULT_BOT, make_bot, play_out, thinks
from ..players.search import DEFAULT_THINK, KINDS, work_units
from ..printable import printable
from ..records.record import WriteError, refuse_unwritable_target, write_bytes_atomically, write_text_atomically
from ..rules.load import default_root
from ..rules.ruleset import Ruleset
from .options import ROOT_OPTION, SET_OPTION, THINK_OPTION, open_rules
from .options import usage as _usage

#: At most this many bins in a score histogram (bins get wider, never more numerous).
MAX_BINS = 128
#: A chunk of games is at most this long, so a progress bar moves and results stream back.
MAX_CHUNK = 250
#: At most this many chunks per worker are handed out and not yet merged: one to play, one
#: waiting beside it so the worker never idles while its last result travels back.
CHUNKS_PER_WORKER = 2
#: About this many bins across the drawn score distributions.
PLOT_BINS = 40


#: Games start..stop-1 of a simulation, played and tallied together.
Chunk = tuple[int, int]
F = TypeVar("F")  # a handle on a chunk being played (a concurrent.futures or a Dask future)


class SimulationError(RuntimeError):
    """A game of the simulation failed (a bot's illegal action, a formula that cannot be evaluated)."""


# ------------------------------------------------------------------ what to play


@dataclass(frozen=True)
class Simulation:
    """What to play: `games` games of the ruleset at `ruleset` (a path or bundled name) with
    `players` seats; `bots` names one bot kind per seat for game 0, and game g rotates it by g."""

    ruleset: str
    players: int
    bots: tuple[str, ...]
    seed: int
    games: int
    root: str | None = None  # the folder its `extends:` may lead into (`--root`, else its default root as found here)
    settings: tuple[str, ...] = ()  # the `--set NAME=VALUE` options: the ruleset's parameters
    #: the work a decision of each kind (players/search.py KINDS) of the players that search
    #: (`--think` seconds turned into work once, here, so every worker's players do the same)
    work: tuple[int, ...] | None = None

    def seat_bots(self, game: int) -> tuple[str, ...]:
        """The bot kind at each seat in game `game`: the bot list rotated by game % players."""
        shift = game % self.players
        return self.bots[shift:] + self.bots[:shift]

    def game_seed(self, game: int) -> int:
        """Game `game`'s seed: a function of (seed, game) only."""
        digest = hashlib.blake2b(f"{self.seed}/{game}".encode(), digest_size=8).digest()
        return int.from_bytes(digest, "big")


def bots_for_seats(text: str, players: int) -> tuple[str, ...]:
    """`--bots` as one kind per seat: one name for every seat, or exactly one per seat.
    Raises ValueError naming the problem."""
    names = tuple(name.strip() for name in text.split(","))
    if not all(names):
        raise ValueError(f"--bots {text!r}: a bot name is empty")
    unknown = [name for name in names if name not in BOTS]
    if unknown:
        raise ValueError(f"unknown bot {unknown[0]!r}; the bots are {', '.join(sorted(BOTS))}")
    if len(names) == 1:
        return names * players
    if len(names) != players:
        raise ValueError(f"--bots names {len(names)} bots for {players} players: give one name, or one per seat")
    return names


# ------------------------------------------------------------------ exact running statistics


@dataclass
class Moments:
    """Count, sum and sum of squares of a sample of final scores, exactly."""

    n: int = 0
    total: Number = 0
    squares: Number = 0

    def add(self, x: Number) -> None:
        self.n += 1
        self.total += x
        self.squares += x * x

    def merge(self, other: Moments) -> None:
        self.n += other.n
        self.total += other.total
        self.squares += other.squares

    def mean(self) -> float | None:
        return float(Fraction(self.total) / self.n) if self.n else None

    def sd(self) -> float | None:
        """The sample standard deviation (n - 1 in the denominator)."""
        if self.n < 2:
            return None
        variance = Fraction(self.squares * self.n - self.total * self.total) / (self.n * (self.n - 1))
        return math.sqrt(variance)

    def ci95(self) -> float | None:
        """The half-width of the 95% confidence interval of the mean: 1.96 sd / sqrt(n)."""
        sd = self.sd()
        return None if sd is None else 1.96 * sd / math.sqrt(self.n)


@dataclass
class Histogram:
    """Counts of scores in bins [k * width, (k + 1) * width), width = 2**shift. When there would be
    more than MAX_BINS bins the width doubles, so the histogram stays small; since the width only
    ever grows to the least that fits, merging in any order gives the same histogram."""

    shift: int = 0
    counts: Counter = field(default_factory=Counter)

    @property
    def width(self) -> int:
        return 1 << self.shift

    def add(self, x: Number) -> None:
        self.counts[x.numerator // (x.denominator << self.shift)] += 1
        if len(self.counts) > MAX_BINS:
            self._coarsen(self.shift + 1)

    def merge(self, other: Histogram) -> None:
        if other.shift > self.shift:
            self._coarsen(other.shift)
        step = self.shift - other.shift
        for k, count in other.counts.items():
            self.counts[k >> step] += count
        if len(self.counts) > MAX_BINS:
            self._coarsen(self.shift + 1)

    def _coarsen(self, shift: int) -> None:
        while True:
            step = shift - self.shift
            counts: Counter = Counter()
            for k, count in self.counts.items():
                counts[k >> step] += count
            if len(counts) <= MAX_BINS:
                self.shift, self.counts = shift, counts
                return
            shift += 1

    def bins(self) -> list[tuple[int, int]]:
        """(lower edge, count) of each non-empty bin, lowest first."""
        return [(k * self.width, self.counts[k]) for k in sorted(self.counts)]


@dataclass
class Line:
    """One bot kind's (or one seat's) games: final scores, wins (a tie between k winners gives each
    1/k) and a histogram of final scores."""

    scores: Moments = field(default_factory=Moments)
    wins: Fraction = Fraction(0)
    histogram: Histogram = field(default_factory=Histogram)

    def merge(self, other: Line) -> None:
        self.scores.merge(other.scores)
        self.wins += other.wins
        self.histogram.merge(other.histogram)


#: A contract's circumstances: (bot kind, seat, bidding position (1 = bids first), hand size, is the dealer)
ContractKey = tuple[str, int, int, int, bool]


@dataclass
class Tally:
    """Exact statistics of some games, mergeable in any order: per bot kind and per seat the final
    scores and wins, and every contract counted by its circumstances (a bounded table whose margins
    are the made shares by bot, seat, bidding position and hand size)."""

    games: int = 0
    bots: dict[str, Line] = field(default_factory=dict)
    seats: dict[int, Line] = field(default_factory=dict)
    contracts: Counter = field(default_factory=Counter)  # ContractKey -> bids
    made: Counter = field(default_factory=Counter)  # ContractKey -> contracts made

    def add_game(self, game: Game, seat_bots: tuple[str, ...]) -> None:
        result = game.result
        assert result is not None, "the game is not over"
        self.games += 1
        for seat, bot in enumerate(seat_bots):
            score = result.totals[seat]
            for line in (self._line(self.bots, bot), self._line(self.seats, seat)):
                line.scores.add(score)
                line.histogram.add(score)
        share = Fraction(1, len(result.winners))
        for seat in result.winners:
            self.bots[seat_bots[seat]].wins += share
            self.seats[seat].wins += share
        contracts, made = self.contracts, self.made
        for hand in game.history:
            taken, size, dealer = hand.taken, hand.size, hand.dealer
            for position, (seat, bid) in enumerate(hand.bids, 1):
                key = (seat_bots[seat], seat, position, size, seat == dealer)
                contracts[key] += 1
                if taken[seat] == bid:
                    made[key] += 1

    @staticmethod
    def _line(lines: dict, key: Any) -> Line:
        line = lines.get(key)
        if line is None:
            line = lines[key] = Line()
        return line

    def merge(self, other: Tally) -> None:
        self.games += other.games
        for mine, theirs in ((self.bots, other.bots), (self.seats, other.seats)):
            for key, line in theirs.items():
                self._line(mine, key).merge(line)
        self.contracts.update(other.contracts)
        self.made.update(other.made)

    def made_by(self, part: int) -> dict[Any, tuple[int, int]]:
        """(contracts, made) by one part of the contract key (0 bot, 1 seat, 2 position, 3 size, 4 dealer)."""
        out: dict[Any, list[int]] = {}
        for key, bids in self.contracts.items():
            row = out.setdefault(key[part], [0, 0])
            row[0] += bids
            row[1] += self.made[key]
        return {k: (row[0], row[1]) for k, row in sorted(out.items())}

    def made_by_pair(self, first: int, second: int) -> dict[tuple[Any, Any], tuple[int, int]]:
        """(contracts, made) by two parts of the contract key."""
        out: dict[tuple[Any, Any], list[int]] = {}
        for key, bids in self.contracts.items():
            row = out.setdefault((key[first], key[second]), [0, 0])
            row[0] += bids
            row[1] += self.made[key]
        return {k: (row[0], row[1]) for k, row in sorted(out.items())}


# ------------------------------------------------------------------ playing


@dataclass
class _WorkerState:
    """One process's means of playing games of a simulation: the compiled rules and the bots."""

    simulation: Simulation
    rules: Ruleset


_WORKER: _WorkerState | None = None
_WORKER_FAILED = ""  # why this worker has no rules, if it could not load them


def _start_worker(simulation: Simulation) -> None:
    """A worker's set-up: a forked worker has the parent's compiled rules already; a spawned one
    compiles them again (a failure there is reported by the first chunk, not as a traceback).
    A worker ignores Ctrl-C: the terminal sends it to every process of the group, and the parent
    alone answers it (it stops the workers and reports the games played so far), so no worker
    prints a traceback of its own."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    global _WORKER, _WORKER_FAILED
    if _WORKER is not None and _WORKER.simulation == simulation:
        return
    try:
        _WORKER = _WorkerState(simulation, load_rules(simulation.ruleset, simulation.root, simulation.settings))
    except Exception as e:  # the file changed or went away since the parent read it
        _WORKER = None
        _WORKER_FAILED = f"a worker could not load {simulation.ruleset}: {type(e).__name__}: {e}"


def _play_chunk_in_worker(chunk: Chunk) -> Tally:
    if _WORKER is None:
        raise SimulationError(_WORKER_FAILED or "a worker has no ruleset")
    return play_games(_WORKER.simulation, _WORKER.rules, *chunk)


def play_games(simulation: Simulation, rules: Ruleset, start: int, stop: int, tally: Tally | None = None) -> Tally:
    """Play games start..stop-1 of `simulation` and tally them (into `tally` when given: each
    game is added as it ends, so an interruption loses only the game being played)."""
    tally = Tally() if tally is None else tally
    for g in range(start, stop):
        seat_bots = simulation.seat_bots(g)
        seed = simulation.game_seed(g)
        try:
            game = Game(rules, simulation.players, seed=seed)
            game.keep_rng_states = False  # no game is resumed here: skip saving the generator per hand
            play_out(game, [make_bot(bot, units=simulation.work) for bot in seat_bots])
        except RuleError as e:
            raise SimulationError(f"game {g} (seed {seed}, bots {','.join(seat_bots)}) stopped: {e}") from None
        except Exception as e:
            raise SimulationError(f"game {g} (seed {seed}, bots {','.join(seat_bots)}) failed: {type(e).__name__}: {e}") from e
        tally.add_game(game, seat_bots)
    return tally


def chunk_size(games: int, workers: int) -> int:
    """Games in a chunk: small enough to keep every worker busy and the progress bar moving."""
    return max(1, min(MAX_CHUNK, games // (workers * 16)))


def chunks(games: int, workers: int) -> Iterator[Chunk]:
    """Games 0..games-1 as ranges (start, stop) of chunk_size games, made one at a time."""
    size = chunk_size(games, workers)
    for start in range(0, games, size):
        yield start, min(games, start + size)


def in_flight(work: Iterable[Chunk], submit: Callable[[Chunk], F], first_done: Callable[[set[F]], Iterable[F]], limit: int) -> Iterator[F]:
    """Hand out `work` with `submit(chunk) -> future` and yield each future as `first_done(pending)`
    (some finished ones) returns it; a chunk is made and handed out only when one that came back
    has been taken, so never more than `limit` chunks are made and not yet merged, however many
    games the work holds."""
    if limit < 1:
        raise ValueError("at least one chunk must be in flight")
    work = iter(work)
    pending = {submit(chunk) for chunk in itertools.islice(work, limit)}
    while pending:
        for future in set(first_done(pending)):
            pending.discard(future)
            yield future
            pending.update(submit(chunk) for chunk in itertools.islice(work, 1))  # its place, once it is merged


def available_cores() -> int:
    return os.cpu_count() or 1


@dataclass
class Summary:
    """A finished simulation: what was played, its tally, and how long it took."""

    simulation: Simulation
    rules_name: str
    tally: Tally
    seconds: float
    workers: int
    parameters: dict[str, Any] = field(default_factory=dict)  # the ruleset's parameters as played

    #: True when the simulation was stopped (Ctrl-C) before every game was played.
    partial: bool = False

    @property
    def games_per_second(self) -> float:
        return self.tally.games / self.seconds if self.seconds > 0 else float("inf")

    def speed(self) -> str:
        """`561 games/s`, `2.4 games/s`, or for slow players `14.2 s a game`: never a rounded 0."""
        rate = self.games_per_second
        if rate == float("inf"):
            return "no time measured"
        if rate >= 100:
            return f"{rate:.0f} games/s"
        if rate >= 1:
            return f"{rate:.1f} games/s"
        return f"{self.seconds / self.tally.games:.1f} s a game" if self.tally.games else "no game finished"


def _play_in_processes(
    simulation: Simulation, rules: Ruleset, work: Iterator[Chunk], workers: int, total: Tally, progress: Callable[[int], None] | None
) -> None:
    """Play `work` in `workers` processes and merge each chunk's tally into `total` as it comes
    back, with CHUNKS_PER_WORKER chunks per worker in flight at most."""
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

    global _WORKER
    _WORKER = _WorkerState(simulation, rules)  # inherited by forked workers
    context = multiprocessing.get_context()
    with ProcessPoolExecutor(workers, mp_context=context, initializer=_start_worker, initargs=(simulation,)) as pool:
        try:
            for future in in_flight(
                work,
                lambda chunk: pool.submit(_play_chunk_in_worker, chunk),
                lambda pending: wait(pending, return_when=FIRST_COMPLETED).done,
                workers * CHUNKS_PER_WORKER,
            ):
                tally = future.result()
                total.merge(tally)
                if progress:
                    progress(tally.games)
        except BaseException:
            pool.shutdown(wait=False, cancel_futures=True)  # a failed game or ^C: play no more chunks
            for process in list((getattr(pool, "_processes", None) or {}).values()):
                process.terminate()  # a chunk being played is given up, not waited for
            raise


def simulate(
    simulation: Simulation,
    workers: int | None = None,
    progress: Callable[[int], None] | None = None,
    rules: Ruleset | None = None,
    scheduler: str | None = None,
) -> Summary:
    """Play the simulation's games in `workers` processes (default: every core; 1 plays here, in
    this process), or on the workers of the Dask cluster whose scheduler is at `scheduler`
    (whistdsl/cli/cluster.py), calling `progress(games just finished)` as chunks come back.

    Ctrl-C (KeyboardInterrupt) stops the games: the summary of the games finished so far is
    returned, marked `partial`."""
    if rules is None:
        rules = load_rules(simulation.ruleset, simulation.root, simulation.settings)
    total = Tally()
    began = time.perf_counter()
    partial = False
    used = workers or 1
    try:
        if scheduler is not None:
            from .cluster import play_on_cluster

            used = play_on_cluster(scheduler, simulation, rules, total, progress)
        else:
            used = workers or available_cores()
            work = chunks(simulation.games, used)
            used = max(1, min(used, math.ceil(simulation.games / chunk_size(simulation.games, used))))  # one per chunk at most
            if used == 1:
                for start, stop in work:
                    before = total.games
                    play_games(simulation, rules, start, stop, total)
                    if progress:
                        progress(total.games - before)
            else:
                _play_in_processes(simulation, rules, work, used, total, progress)
    except KeyboardInterrupt:
        partial = True
    seconds = time.perf_counter() - began
    return Summary(simulation, rules.name, total, seconds, used, dict(rules.parameter_values), partial)


# ------------------------------------------------------------------ reports


def _share(part: Number, whole: Number) -> float | None:
    return round(float(Fraction(part) / whole), 6) if whole else None


def _round(x: float | None) -> float | None:
    return None if x is None else round(x, 6)


def _line_json(line: Line, games: int, contracts: tuple[int, int]) -> dict[str, Any]:
    return {
        "games": line.scores.n,
        "mean": _round(line.scores.mean()),
        "sd": _round(line.scores.sd()),
        "ci95": _round(line.scores.ci95()),
        "win_share": _share(line.wins, games),
        "made_share": _share(contracts[1], contracts[0]),
        "contracts": contracts[0],
    }


def summary_json(summary: Summary) -> dict[str, Any]:
    """The summary under stable keys (the JSON of `--format json`)."""
    sim, tally = summary.simulation, summary.tally
    by_bot, by_seat = tally.made_by(0), tally.made_by(1)
    by_bot_position = tally.made_by_pair(0, 2)
    by_position_dealer = tally.made_by_pair(2, 4)
    bots: dict[str, Any] = {}
    for bot in dict.fromkeys(sim.bots):
        line = tally.bots.get(bot, Line())
        entry = _line_json(line, tally.games, by_bot.get(bot, (0, 0)))
        entry["positions"] = {
            str(p): {"made_share": _share(m, c), "contracts": c} for (b, p), (c, m) in by_bot_position.items() if b == bot
        }
        entry["histogram"] = {"bin_width": line.histogram.width, "counts": {str(lower): n for lower, n in line.histogram.bins()}}
        bots[bot] = entry
    positions: dict[str, Any] = {}
    for position, (c, m) in tally.made_by(2).items():
        dealer = by_position_dealer.get((position, True), (0, 0))[0]
        positions[str(position)] = {"made_share": _share(m, c), "contracts": c, "dealer_share": _share(dealer, c)}
    return {
        "ruleset": summary.rules_name,
        **({"parameters": summary.parameters} if summary.parameters else {}),
        "players": sim.players,
        "seed": sim.seed,
        "games": tally.games,
        **({"partial": True, "games_asked": sim.games} if summary.partial else {}),
        "bots_in_game_0": list(sim.bots),
        **({"search_work": dict(zip(KINDS, sim.work))} if sim.work is not None else {}),
        "bots": bots,
        "seats": [
            dict(seat=seat, **_line_json(tally.seats.get(seat, Line()), tally.games, by_seat.get(seat, (0, 0))))
            for seat in range(sim.players)
        ],
        "positions": positions,
        "hand_sizes": {str(size): {"made_share": _share(m, c), "contracts": c} for size, (c, m) in tally.made_by(3).items()},
        "dealer": {
            ("dealer" if is_dealer else "others"): {"made_share": _share(m, c), "contracts": c}
            for is_dealer, (c, m) in tally.made_by(4).items()
        },
        "workers": summary.workers,
        "seconds": round(summary.seconds, 3),
        "games_per_second": float(f"{summary.games_per_second:.4g}"),
    }


#: Keys of the JSON summary that measure the machine, not the games.
TIMING_KEYS = ("seconds", "games_per_second", "workers")


def _text(x: Any) -> str:
    if x is None:
        return ""
    return str(x)


def summary_csv(summary: Summary) -> str:
    """One table: a row per bot, seat, bidding position and hand size, then the run's facts."""
    data = summary_json(summary)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["section", "name", "games", "mean", "ci95", "win_share", "made_share", "contracts", "value"])

    def line_row(section: str, name: Any, d: dict[str, Any]) -> list[str]:
        return [section, str(name), *(_text(d.get(k)) for k in ("games", "mean", "ci95", "win_share", "made_share", "contracts")), ""]

    for bot, d in data["bots"].items():
        writer.writerow(line_row("bot", bot, d))
    for d in data["seats"]:
        writer.writerow(line_row("seat", d["seat"], d))
    for position, d in data["positions"].items():
        writer.writerow(line_row("position", position, d))
    for size, d in data["hand_sizes"].items():
        writer.writerow(line_row("hand_size", size, d))
    for who, d in data["dealer"].items():
        writer.writerow(line_row("dealer", who, d))
    for key in ("ruleset", "players", "seed", "games", "partial", "games_asked", "workers", "seconds", "games_per_second"):
        if key in data:  # partial and games_asked: only for a simulation stopped by Ctrl-C
            writer.writerow(["run", key, "", "", "", "", "", "", printable(_text(data[key]))])  # the name from the ruleset
    return out.getvalue()


def _percent(x: float | None) -> str:
    return "–" if x is None else f"{100 * x:.1f}%"


def _mean_ci(d: dict[str, Any]) -> str:
    if d["mean"] is None:
        return "–"
    return f"{d['mean']:.2f}" + ("" if d["ci95"] is None else f" ± {d['ci95']:.2f}")


def render_tables(summary: Summary, console: Any) -> None:
    """The summary as rich tables on `console`."""
    from rich.table import Table
    from rich.text import Text

    from ..printable import printable_text

    data = summary_json(summary)
    kinds = list(data["bots"])
    at_every_seat = f"{kinds[0]} at every seat" if len(kinds) == 1 else "bots " + ",".join(summary.simulation.bots) + " (rotated each game)"
    played = f"{data['games']} games" if not summary.partial else f"{data['games']} of {summary.simulation.games} games"
    if summary.partial:
        console.print(Text(f"PARTIAL: stopped by Ctrl-C after {played}; the figures are of those games only", style="bold yellow"))
    console.print(
        Text.assemble(
            printable_text(data["ruleset"], style="bold"),  # the ruleset's name: escaped, never markup
            printable_text("".join(f", {name} = {value_text(v)}" for name, v in summary.parameters.items())),
            f", {data['players']} players, {at_every_seat}, {played}, seed {data['seed']}: "
            f"{summary.speed()} ({data['seconds']:.1f} s, {data['workers']} worker(s))",
        )
    )
    if len(kinds) > 1:  # with one kind of bot at every seat, its line is the whole table's: nothing to compare
        bots = Table(title="Bots (games: seats played; mean final score ± 95% interval)", title_justify="left")
        for column in ("bot", "games", "mean score", "win share", "made share", "contracts"):
            bots.add_column(column, justify="left" if column == "bot" else "right")
        for bot, d in data["bots"].items():
            bots.add_row(bot, str(d["games"]), _mean_ci(d), _percent(d["win_share"]), _percent(d["made_share"]), str(d["contracts"]))
        console.print(bots)
    seats = Table(title="Seats (mean final score ± 95% interval)", title_justify="left")

    for column in ("seat", "games", "mean score", "win share", "made share"):
        seats.add_column(column, justify="right")
    for d in data["seats"]:
        seats.add_row(str(d["seat"]), str(d["games"]), _mean_ci(d), _percent(d["win_share"]), _percent(d["made_share"]))
    console.print(seats)
    names = list(data["bots"])
    positions = Table(title="Made by bidding position", title_justify="left")
    positions.add_column("position", justify="right")
    positions.add_column("contracts", justify="right")
    positions.add_column("made share", justify="right")
    if len(names) > 1:
        for bot in names:
            positions.add_column(bot, justify="right")
    for position, d in data["positions"].items():
        label = position + (" (dealer)" if d["dealer_share"] == 1 else "")
        row = [label, str(d["contracts"]), _percent(d["made_share"])]
        if len(names) > 1:
            row += [_percent(data["bots"][bot]["positions"].get(position, {}).get("made_share")) for bot in names]
        positions.add_row(*row)
    console.print(positions)
    sizes = Table(title="Made by hand size", title_justify="left")
    for column in ("cards", "contracts", "made share"):
        sizes.add_column(column, justify="right")
    for size, d in data["hand_sizes"].items():
        sizes.add_row(size, str(d["contracts"]), _percent(d["made_share"]))
    console.print(sizes)


def plot_summary(summary: Summary, path: Path) -> None:
    """Draw the final-score distribution of each bot and the made share by bidding position
    (PNG or SVG, by the file's suffix). Needs matplotlib (the `plot` extra)."""
    from matplotlib.figure import Figure  # the object API renders with Agg: no display, no pyplot state

    data = summary_json(summary)
    tally = summary.tally
    figure = Figure(figsize=(11, 4.5), layout="constrained")
    scores, made = figure.subplots(1, 2)
    lines = {bot: tally.bots[bot] for bot in data["bots"] if bot in tally.bots}
    shift = max((line.histogram.shift for line in lines.values()), default=0)
    keys = [k << line.histogram.shift for line in lines.values() for k in line.histogram.counts]
    span = (max(keys) - min(keys)) if keys else 0
    while span >> shift > PLOT_BINS:  # wide enough bins to show a shape
        shift += 1
    for bot, line in lines.items():
        histogram = Histogram(shift)
        histogram.merge(line.histogram)
        bins = histogram.bins()
        if not bins:
            continue
        edges = [lower for lower, _ in bins]
        counts = [count / line.scores.n for _, count in bins]
        scores.bar(edges, counts, width=histogram.width, align="edge", alpha=0.5, label=bot)
    scores.set_title(f"Final scores ({data['ruleset']}, {data['players']} players, {data['games']} games)")
    scores.set_xlabel("final score")
    scores.set_ylabel("share of games")
    scores.legend()
    positions = list(data["positions"])
    names = list(data["bots"])
    width = 0.8 / max(1, len(names))
    for i, bot in enumerate(names):
        shares = [data["bots"][bot]["positions"].get(p, {}).get("made_share") or 0 for p in positions]
        made.bar([int(p) - 0.4 + width * (i + 0.5) for p in positions], shares, width=width, label=bot)
    made.set_xticks([int(p) for p in positions])
    made.set_xticklabels([p + ("\ndealer" if data["positions"][p]["dealer_share"] == 1 else "") for p in positions])
    made.set_ylim(0, 1)
    made.set_title("Contracts made by bidding position")
    made.set_xlabel("bidding position (1 bids first)")
    made.set_ylabel("share made")
    made.legend()
    image = io.BytesIO()
    figure.savefig(image, format=path.suffix.lower().lstrip("."))
    write_bytes_atomically(path, image.getvalue())


# ------------------------------------------------------------------ the command


class ReportFormat(str, Enum):
    table = "table"
    json = "json"
    csv = "csv"


def _with(rules: Any) -> str:
    """` with tricks = 13` when the ruleset has parameters (the player range may depend on them)."""
    shown = " and ".join(f"{name} = {value_text(v)}" for name, v in rules.parameter_values.items())
    return f" with {shown}" if shown else ""


def progress_columns() -> tuple[Any, ...]:
    """The columns of the progress bar at a terminal: what is played, the bar, games done of
    games asked, and the time left, labelled."""
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeRemainingColumn

    return (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TextColumn("time left"), TimeRemainingColumn())


def simulate_command(
    ruleset: Annotated[str, typer.Argument(metavar="RULESET", help="A ruleset file or a bundled ruleset's name.")],
    games: Annotated[int, typer.Option("--games", "-n", metavar="N", help="How many games to play (1 or more).", min=1)] = 1000,
    players: Annotated[Optional[int], typer.Option("--players", "-p", metavar="N", help="Players at the table (default: the ruleset's).")] = None,
    bots: Annotated[
        str,
        typer.Option(
            "--bots", "-b", metavar="KIND[,KIND...]",
            help=f"Computer players ({', '.join(BOTS)}): one kind for every seat, or one per seat, rotated each game "
            "(by default the computer players of `play`).",
        ),
    ] = DEFAULT_BOT,
    seed: Annotated[Optional[int], typer.Option("--seed", "-s", metavar="S", help="The tournament's seed (default: a random one, reported).")] = None,
    workers: Annotated[Optional[int], typer.Option("--workers", "-w", metavar="N", help="Processes to play in (default: every core).", min=1)] = None,
    format: Annotated[ReportFormat, typer.Option("--format", "-f", metavar="FORMAT", help="table, json or csv.")] = ReportFormat.table,
    out: Annotated[Optional[Path], typer.Option("--out", "-o", metavar="FILE", help="Write the report to FILE instead of standard output.")] = None,
    plot: Annotated[Optional[Path], typer.Option("--plot", metavar="FILE", help="Also draw score distributions and made share by position (.png or .svg; needs matplotlib).")] = None,
    think: Annotated[Optional[float], THINK_OPTION] = None,
    root: Annotated[Optional[Path], ROOT_OPTION] = None,
    settings: Annotated[Optional[list[str]], SET_OPTION] = None,
    scheduler: Annotated[
        Optional[str],
        typer.Option("--scheduler", metavar="ADDRESS", help="Play on the workers of the Dask cluster with this scheduler (tcp://host:8786; needs whistdsl[cluster])."),
    ] = None,
) -> None:
    """Play many games between computer players and measure bots, seats and bidding positions.

    Ctrl-C stops the games and reports those finished, marked partial (exit 130).

    \b
    Examples:
      whistdsl simulate house.yaml
      whistdsl simulate house.yaml -n 200 -p 4 --bots heuristic,random,heuristic,random
      whistdsl simulate house.yaml --format json --out results.json
    """
    import importlib.util
    import json
    import random

    from rich.console import Console

    rules = open_rules(ruleset, root, settings)
    players = players if players is not None else rules.players_default
    if not rules.players_min <= players <= rules.players_max:
        raise _usage(f"--players must be within {rules.players_min}..{rules.players_max} for {rules.name}{_with(rules)}")
    if rules.table_problem(players) is not None:
        raise _usage(f"--players {players}: {rules.table_problem(players)}")
    try:
        seat_bots = bots_for_seats(bots, players)
    except ValueError as e:
        raise _usage(str(e)) from None
    if plot is not None:
        if plot.suffix.lower() not in (".png", ".svg"):
            raise _usage(f"--plot {plot}: the file must end in .png or .svg")
        if importlib.util.find_spec("matplotlib") is None:
            raise _usage("--plot needs matplotlib: pip install 'whistdsl[plot]'")
    if scheduler is not None:
        if importlib.util.find_spec("distributed") is None:
            raise _usage("--scheduler needs Dask distributed: pip install 'whistdsl[cluster]'")
        if workers is not None:
            raise _usage("--workers counts processes on this machine: with --scheduler the cluster's workers play")
    for option, target in (("--out", out), ("--plot", plot)):
        if target is None:
            continue
        if not target.resolve().parent.is_dir():
            raise _usage(f"{target}: no such directory")
        try:  # refused before the games are played, not after
            refuse_unwritable_target(target)
        except WriteError as e:
            raise _usage(f"{option}: {e}") from None
    path = resolve_ruleset_argument(ruleset)
    assert path is not None  # open_rules found it
    simulation = Simulation(
        ruleset=str(path.absolute()),
        root=str(root.absolute()) if root is not None else default_root(path),  # a worker may run in another folder
        players=players,
        bots=seat_bots,
        seed=seed if seed is not None else random.SystemRandom().randrange(2**32),
        games=games,
        settings=tuple(settings or ()),
        work=work_units(think if think is not None else DEFAULT_THINK, rules, players) if any(thinks(b) for b in seat_bots) else None,
    )
    status = Console(stderr=True)
    try:
        if status.is_terminal:
            from rich.markup import escape
            from rich.progress import Progress

            # refreshed by hand, not by rich's thread: worker processes are forked from this one
            with Progress(*progress_columns(), console=status, transient=True, auto_refresh=False) as bar:
                task = bar.add_task(escape(f"{printable(rules.name)}: playing"), total=games)  # the column reads markup

                def advance(done: int) -> None:
                    bar.advance(task, done)
                    bar.refresh()

                summary = simulate(simulation, workers, advance, rules, scheduler)
        else:
            summary = simulate(simulation, workers, None, rules, scheduler)
    except SimulationError as e:
        typer.echo(f"whistdsl: {printable(e)}", err=True)
        raise typer.Exit(1) from None
    if summary.partial:
        typer.echo(f"whistdsl: interrupted after {summary.tally.games} of {games} games: the report is partial", err=True)
    if format is ReportFormat.json:
        text = json.dumps(summary_json(summary), indent=2) + "\n"
    elif format is ReportFormat.csv:
        text = summary_csv(summary)
    else:
        text = ""
    shown = Console()
    if format is ReportFormat.table and out is None and shown.is_terminal:
        render_tables(summary, shown)
    elif format is ReportFormat.table:
        buffer = io.StringIO()
        render_tables(summary, Console(file=buffer, width=100 if out is not None else shown.width, no_color=True, highlight=False))
        text = "".join(line.rstrip() + "\n" for line in buffer.getvalue().splitlines())  # plain text: no padding at line ends
    try:
        if out is not None:
            write_text_atomically(out, text)  # a temporary file renamed: never half a report
            typer.echo(f"wrote {printable(out)} ({summary.speed()})", err=True)
        elif text:
            typer.echo(printable(text, newline=True), nl=False)
        if plot is not None:
            plot_summary(summary, plot)
            typer.echo(f"drew {printable(plot)}", err=True)
    except WriteError as e:
        typer.echo(f"whistdsl: {e}", err=True)
        raise typer.Exit(1) from None
    if summary.partial:
        raise typer.Exit(130)
