"""`whistdsl simulate`: seeded tournaments whose numbers depend on the seed alone, reported under
stable keys, with exact statistics that merge in any order; bad options are usage errors."""

from __future__ import annotations

import json
import random
import re
import sys
from fractions import Fraction
from pathlib import Path
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner, Result

from whistdsl.cli import app
from whistdsl.cli.simulate import TIMING_KEYS, summary_json
from whistdsl.players import BOTS, RandomPlayer
from whistdsl.tournament.games import CHUNKS_PER_WORKER, Simulation, chunks, in_flight
from whistdsl.tournament.runner import Summary, simulate
from whistdsl.tournament.tally import MAX_BINS, Histogram, Moments, Tally

runner = CliRunner()


def run(*args: str) -> Result:
    """`whistdsl simulate ARGS`, with random players unless --bots says otherwise (they are the
    quickest; the default players, as `play`'s, are tested on their own below)."""
    bots = [] if "--bots" in args or "-b" in args else ["--bots", "random"]
    return runner.invoke(app, ["simulate", *args, *bots])


def simulate_json(*args: str) -> dict:
    result = run("--format", "json", *args)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def without_timing(summary: dict) -> dict:
    return {k: v for k, v in summary.items() if k not in TIMING_KEYS}


# ---------------------------------------------------------------- determinism


def test_the_same_seed_gives_the_same_numbers_with_one_worker_or_two() -> None:
    once = simulate_json("romanian", "--games", "24", "--seed", "7", "--workers", "1")
    again = simulate_json("romanian", "--games", "24", "--seed", "7", "--workers", "1")
    two_workers = simulate_json("romanian", "--games", "24", "--seed", "7", "--workers", "2")
    assert without_timing(once) == without_timing(again) == without_timing(two_workers)
    assert once["games"] == 24 and once["seed"] == 7


def test_another_seed_plays_other_games() -> None:
    first = simulate_json("romanian", "--games", "12", "--seed", "1", "--workers", "1")
    second = simulate_json("romanian", "--games", "12", "--seed", "2", "--workers", "1")
    assert first["bots"]["random"]["mean"] != second["bots"]["random"]["mean"]


def test_game_seeds_and_seats_depend_only_on_the_tournament_seed_and_the_game_number() -> None:
    sim = Simulation("romanian", 4, ("a", "b", "c", "d"), seed=5, games=8)
    assert sim.game_seed(3) == Simulation("romanian", 4, ("a",) * 4, seed=5, games=1000).game_seed(3)
    assert len({sim.game_seed(g) for g in range(8)}) == 8


def test_seats_rotate_so_every_bot_sits_in_every_seat() -> None:
    sim = Simulation("romanian", 4, ("a", "b", "c", "d"), seed=0, games=4)
    assert [sim.seat_bots(g) for g in range(4)] == [
        ("a", "b", "c", "d"),
        ("b", "c", "d", "a"),
        ("c", "d", "a", "b"),
        ("d", "a", "b", "c"),
    ]


# ---------------------------------------------------------------- the report


def test_json_holds_the_summary_under_stable_keys() -> None:
    summary = simulate_json("serbian", "--games", "10", "--seed", "3", "--workers", "1", "--players", "5")
    assert {"games", "bots", "seats", "positions", "hand_sizes", "games_per_second", "ruleset", "players", "seed"} <= set(summary)
    assert summary["players"] == 5 and summary["games"] == 10 and summary["ruleset"] == "Serbian whist"
    assert set(summary["bots"]) == {"random"}
    bot = summary["bots"]["random"]
    assert {"games", "mean", "ci95", "win_share", "made_share"} <= set(bot)
    assert bot["games"] == 50  # seats played: 5 seats x 10 games
    assert [seat["seat"] for seat in summary["seats"]] == [0, 1, 2, 3, 4]
    assert list(summary["positions"]) == ["1", "2", "3", "4", "5"]
    assert all({"made_share", "contracts"} <= set(p) for p in summary["positions"].values())
    assert summary["positions"]["5"]["dealer_share"] == 1  # in Serbian whist the dealer bids last
    assert all("made_share" in s for s in summary["hand_sizes"].values())
    assert summary["games_per_second"] > 0


def test_made_shares_are_shares_and_win_shares_add_up_to_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(BOTS, "also-random", RandomPlayer)  # any name in the registry is a bot
    summary = simulate_json("romanian", "--games", "16", "--seed", "11", "--workers", "1", "--bots", "random,also-random,random,also-random")
    assert set(summary["bots"]) == {"random", "also-random"}
    assert summary["bots"]["random"]["games"] == summary["bots"]["also-random"]["games"] == 32
    assert sum(b["win_share"] for b in summary["bots"].values()) == pytest.approx(1, abs=1e-5)
    assert sum(s["win_share"] for s in summary["seats"]) == pytest.approx(1, abs=1e-5)
    shares = [b["made_share"] for b in summary["bots"].values()]
    shares += [s["made_share"] for s in summary["seats"]]
    shares += [p["made_share"] for part in ("positions", "hand_sizes") for p in summary[part].values()]
    shares += [p["made_share"] for b in summary["bots"].values() for p in b["positions"].values()]
    assert all(0 <= share <= 1 for share in shares)
    contracts = sum(p["contracts"] for p in summary["positions"].values())
    assert contracts == sum(s["contracts"] for s in summary["hand_sizes"].values()) == sum(b["contracts"] for b in summary["bots"].values())


def test_csv_and_table_reports_give_games_per_second() -> None:
    csv_report = run("romanian", "--games", "4", "--seed", "1", "--workers", "1", "--format", "csv")
    assert csv_report.exit_code == 0, csv_report.output
    lines = csv_report.stdout.splitlines()
    assert lines[0] == "section,name,games,mean,ci95,win_share,made_share,contracts,value"
    assert any(line.startswith("bot,random,16,") for line in lines)
    assert any(line.startswith("run,games_per_second,") for line in lines)
    table = run("romanian", "--games", "4", "--seed", "1", "--workers", "1")
    assert table.exit_code == 0, table.output
    assert "games/s" in table.stdout and "4 (dealer)" in table.stdout


def test_out_writes_the_report_to_a_file(tmp_path: Path) -> None:
    target = tmp_path / "summary.json"
    result = run("romanian", "--games", "4", "--seed", "1", "--workers", "1", "--format", "json", "--out", str(target))
    assert result.exit_code == 0, result.output
    assert json.loads(target.read_text(encoding="utf-8"))["games"] == 4


def test_plot_draws_a_png(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    figure = tmp_path / "tournament.png"
    result = run("romanian", "--games", "6", "--seed", "1", "--workers", "1", "--plot", str(figure))
    assert result.exit_code == 0, result.output
    assert figure.read_bytes().startswith(b"\x89PNG") and figure.stat().st_size > 1000


def test_plot_without_matplotlib_is_a_usage_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # what importlib sees when it is not installed
    result = run("romanian", "--games", "2", "--workers", "1", "--plot", str(tmp_path / "x.png"))
    assert result.exit_code == 2
    assert "matplotlib" in result.output and not (tmp_path / "x.png").exists()


@pytest.mark.parametrize(
    "options, says",
    [
        (["--bots", "nobody"], "unknown bot 'nobody'"),
        (["--bots", "random,random"], "2 bots for 4 players"),
        (["--bots", "random,"], "empty"),
        (["--players", "9"], "--players must be within 3..6"),
        (["--players", "2"], "--players must be within 3..6"),
        (["--games", "0"], "--games"),
        (["--workers", "0"], "--workers"),
        (["--plot", "figure.pdf"], ".png or .svg"),
        (["--format", "xml"], "--format"),
    ],
)
def test_bad_options_are_usage_errors(options: list[str], says: str) -> None:
    result = run("romanian", "--games", "2", *options)
    assert result.exit_code == 2, result.output
    assert says in result.output
    assert "Traceback" not in result.output


def test_an_unknown_ruleset_is_a_usage_error() -> None:
    result = run("no-such-ruleset", "--games", "2")
    assert result.exit_code == 2 and "no such ruleset" in result.output


class IllegalBot:
    kind = "illegal"
    observes = False

    def act(self, view, legal, rng):
        return 99  # never a legal bid


def test_a_game_that_fails_exits_1_naming_the_game_and_its_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(BOTS, "illegal", IllegalBot)
    result = run("romanian", "--games", "3", "--seed", "1", "--workers", "1", "--bots", "illegal")
    assert result.exit_code == 1
    assert "game 0 (seed " in result.output and "IllegalAction" in result.output


# ---------------------------------------------------------------- exact statistics


def finished(totals: tuple, winners: tuple) -> SimpleNamespace:
    return SimpleNamespace(result=SimpleNamespace(totals=totals, winners=winners), history=[])


def test_a_tie_between_k_winners_gives_each_one_kth_of_the_win() -> None:
    tally = Tally()
    tally.add_game(finished((10, 10, 10, 3), (0, 1, 2)), ("a", "b", "b", "c"))
    tally.add_game(finished((1, 2, 3, 4), (3,)), ("a", "b", "b", "c"))
    assert {bot: line.wins for bot, line in tally.bots.items()} == {"a": Fraction(1, 3), "b": Fraction(2, 3), "c": 1}
    assert [tally.seats[s].wins for s in range(4)] == [Fraction(1, 3)] * 3 + [1]


def test_mean_and_95_percent_interval_from_exact_sums() -> None:
    scores = Moments()
    for x in (1, 2, 3, Fraction(4)):
        scores.add(x)
    assert scores.mean() == 2.5
    assert scores.sd() == pytest.approx((5 / 3) ** 0.5)
    assert scores.ci95() == pytest.approx(1.96 * (5 / 3) ** 0.5 / 2)
    assert Moments().mean() is None and Moments().ci95() is None


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.integers(-5000, 5000) | st.fractions(-300, 300, max_denominator=6), max_size=400),
    st.integers(1, 5),
    st.randoms(use_true_random=False),
)
def test_histograms_merged_in_any_order_are_the_same_and_stay_small(scores: list, parts: int, rng: random.Random) -> None:
    whole = Histogram()
    for x in scores:
        whole.add(x)
    pieces = [Histogram() for _ in range(parts)]
    for x in scores:
        rng.choice(pieces).add(x)
    rng.shuffle(pieces)
    merged = Histogram()
    for piece in pieces:
        merged.merge(piece)
    assert (merged.shift, merged.counts) == (whole.shift, whole.counts)
    assert len(whole.counts) <= MAX_BINS and sum(whole.counts.values()) == len(scores)
    if scores:
        low, count = whole.bins()[0]
        assert low <= min(scores) < low + whole.width


def test_the_library_runs_a_simulation_without_the_command() -> None:
    summary = simulate(Simulation("oh-hell", 3, ("random",) * 3, seed=4, games=5), workers=1)
    data = summary_json(summary)
    assert data["games"] == 5 and data["players"] == 3 and summary.tally.bots["random"].scores.n == 15


def test_workers_play_from_the_rules_the_parent_compiled(tmp_path):
    # the file is gone once the parent has compiled it: forked workers must not read it again
    from whistdsl import load_rules

    path = tmp_path / "house.yaml"
    path.write_text("whistdsl: 1\nextends: romanian\nname: house\n", encoding="utf-8")
    rules = load_rules(path)
    path.unlink()
    sim = Simulation(str(path), 4, ("random",) * 4, seed=3, games=6)
    alone = simulate(sim, workers=1, rules=rules)
    together = simulate(sim, workers=2, rules=rules)
    assert summary_json(together)["seats"] == summary_json(alone)["seats"]
    assert together.tally.games == 6


# ---------------------------------------------------------------- memory: bounded however many games


def test_the_statistics_of_a_run_are_those_of_its_two_halves_merged() -> None:
    from whistdsl import load_rules
    from whistdsl.tournament.games import play_games

    rules = load_rules("romanian")
    sim = Simulation("romanian", 4, ("random", "heuristic", "random", "heuristic"), seed=9, games=12)
    whole = play_games(sim, rules, 0, 12)
    halves = play_games(sim, rules, 6, 12)  # merged in the other order: the order cannot matter
    halves.merge(play_games(sim, rules, 0, 6))
    assert halves == whole and whole.games == 12
    assert summary_json(simulate(sim, workers=1, rules=rules))["bots"] == summary_json(Summary(sim, rules.name, halves, 1.0, 1))["bots"]


class Handed:
    """A stand-in future: the chunk it plays, and whether it has finished."""

    def __init__(self, chunk: tuple[int, int]) -> None:
        self.chunk = chunk


@pytest.mark.parametrize("finish", ["oldest", "newest", "all"])
@pytest.mark.parametrize("limit", [1, 2, 4])
def test_no_more_than_the_limit_of_chunks_is_in_flight_and_every_chunk_comes_back_once(finish: str, limit: int) -> None:
    made: list[tuple[int, int]] = []

    def work():  # counts the chunks made: they are made as they are handed out, not all at first
        for chunk in chunks(1000, 2):
            made.append(chunk)
            yield chunk

    handed: list[Handed] = []
    unfinished: set[Handed] = set()
    most = 0

    def submit(chunk: tuple[int, int]) -> Handed:
        nonlocal most
        future = Handed(chunk)
        handed.append(future)
        unfinished.add(future)
        most = max(most, len(unfinished))
        return future

    def first_done(pending: set[Handed]) -> set[Handed]:
        assert pending == unfinished
        order = sorted(pending, key=lambda f: f.chunk)
        done = {"oldest": order[:1], "newest": order[-1:], "all": order}[finish]
        unfinished.difference_update(done)
        return set(done)

    back = []
    for future in in_flight(work(), submit, first_done, limit):
        assert len(made) - len(back) <= limit  # made but not yet merged: never more than the limit
        back.append(future.chunk)
    assert most == limit
    assert sorted(back) == list(chunks(1000, 2)) == made
    assert sum(stop - start for start, stop in back) == 1000


def test_a_limit_below_one_chunk_is_refused() -> None:
    with pytest.raises(ValueError):
        list(in_flight([(0, 1)], lambda chunk: chunk, lambda pending: pending, 0))


def test_local_workers_keep_a_bounded_number_of_chunks_in_flight(monkeypatch: pytest.MonkeyPatch) -> None:
    import whistdsl.tournament.runner as module

    limits = []
    real = module.in_flight

    def watched(work, submit, first_done, limit):
        limits.append(limit)
        return real(work, submit, first_done, limit)

    monkeypatch.setattr(module, "in_flight", watched)
    summary = simulate(Simulation("oh-hell", 3, ("random",) * 3, seed=4, games=40), workers=2)
    assert limits == [2 * CHUNKS_PER_WORKER] and summary.tally.games == 40


# ---------------------------------------------------------------- what a person sees (issue 12)


def test_the_default_players_are_plays_and_one_kind_shows_no_bots_table() -> None:
    from whistdsl.players.bots import DEFAULT_BOT

    assert DEFAULT_BOT == "heuristic"
    summary = json.loads(runner.invoke(app, ["simulate", "oh-hell", "-n", "4", "-s", "1", "-w", "1", "-f", "json"]).stdout)
    assert summary["bots_in_game_0"] == ["heuristic"] * 4
    table = runner.invoke(app, ["simulate", "oh-hell", "-n", "4", "-s", "1", "-w", "1", "--bots", "random"])
    assert table.exit_code == 0, table.output
    assert "random at every seat" in table.stdout
    assert "Bots (" not in table.stdout and "100.0%" not in table.stdout  # no table of one bot winning every game
    two = runner.invoke(app, ["simulate", "oh-hell", "-n", "4", "-s", "1", "-w", "1", "--bots", "random,heuristic,random,heuristic"])
    assert "Bots (" in two.stdout and "random" in two.stdout and "heuristic" in two.stdout


def test_plain_tables_have_no_spaces_at_line_ends(tmp_path: Path) -> None:
    piped = run("oh-hell", "-n", "4", "-s", "1", "-w", "1")
    out = tmp_path / "report.txt"
    written = run("oh-hell", "-n", "4", "-s", "1", "-w", "1", "--out", str(out))
    assert piped.exit_code == written.exit_code == 0
    for text in (piped.stdout, out.read_text(encoding="utf-8")):
        lines = text.splitlines()
        assert len(lines) > 10 and all(line == line.rstrip() for line in lines)


@pytest.mark.parametrize(
    "games, seconds, said",
    [(1000, 2.0, "500 games/s"), (20, 8.0, "2.5 games/s"), (20, 283.8, "14.2 s a game"), (0, 3.0, "no game finished")],
)
def test_the_speed_is_never_a_rounded_zero(games: int, seconds: float, said: str) -> None:
    tally = Tally()
    tally.games = games
    summary = Summary(Simulation("oh-hell", 4, ("mc",) * 4, seed=1, games=20), "Oh Hell", tally, seconds, 1)
    assert summary.speed() == said


def test_ctrl_c_keeps_the_games_played_and_marks_the_summary_partial() -> None:
    sim = Simulation("oh-hell", 3, ("random",) * 3, seed=4, games=40)
    seen: list[int] = []

    def progress(done: int) -> None:
        seen.append(done)
        if len(seen) == 2:
            raise KeyboardInterrupt  # as Ctrl-C would, between two chunks

    summary = simulate(sim, workers=1, progress=progress)
    assert summary.partial and summary.tally.games == sum(seen) < 40
    data = summary_json(summary)
    assert data["partial"] is True and data["games_asked"] == 40 and data["games"] == sum(seen)
    assert "partial" not in summary_json(simulate(Simulation("oh-hell", 3, ("random",) * 3, seed=4, games=4), workers=1))
    from whistdsl.cli.simulate import summary_csv

    assert "run,partial,,,,,,,True" in summary_csv(summary) and "run,games_asked,,,,,,,40" in summary_csv(summary)


def test_ctrl_c_at_a_terminal_stops_the_workers_quietly_and_shows_the_partial_report() -> None:
    """In a pseudo-terminal, as a person would: Ctrl-C once the progress bar shows. The terminal
    sends SIGINT to every process of the group; no worker may print a traceback of its own."""
    import os
    import pty
    import re
    import select
    import signal
    import time

    pid, fd = pty.fork()
    if pid == 0:
        signal.signal(signal.SIGINT, signal.SIG_DFL)  # a suite started in the background ignores it
        env = dict(os.environ, COLUMNS="100", LINES="40", TERM="xterm", WHISTDSL_NO_CACHE="1")
        os.execve(
            sys.executable, [sys.executable, "-m", "whistdsl", "simulate", "oh-hell", "-n", "1000000", "-s", "3", "-w", "2", "--bots", "random"], env
        )
    raw = b""

    def read_until(done, timeout: float = 120) -> str:
        nonlocal raw
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]|\r", "", raw.decode("utf-8", "replace"))
            if done(text):
                return text
            if select.select([fd], [], [], 0.2)[0]:
                try:
                    chunk = os.read(fd, 65536)
                except OSError:
                    chunk = b""
                if not chunk:
                    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]|\r", "", raw.decode("utf-8", "replace"))
                raw += chunk
        raise AssertionError(f"timed out; the terminal shows:\n{raw[-3000:]!r}")

    try:
        read_until(lambda text: re.search(r"playing.*[1-9][0-9]*/1000000", text) is not None)  # a chunk is back
        os.write(fd, b"\x03")
        shown = read_until(lambda text: False, timeout=60)  # to the end of the output
        _, status = os.waitpid(pid, 0)
    finally:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        os.close(fd)
    assert os.waitstatus_to_exitcode(status) == 130, shown
    assert "PARTIAL: stopped by Ctrl-C after" in shown and "of 1000000 games" in shown and "Seats" in shown
    assert "Traceback" not in shown and "Process " not in shown and "KeyboardInterrupt" not in shown


def test_the_progress_bar_labels_its_time_column() -> None:
    import io

    from rich.console import Console
    from rich.progress import Progress

    from whistdsl.cli.simulate import progress_columns

    out = io.StringIO()
    console = Console(file=out, width=100, force_terminal=True, color_system=None, legacy_windows=False)
    with Progress(*progress_columns(), console=console, auto_refresh=False) as bar:
        task = bar.add_task("Oh Hell: playing", total=40)
        bar.advance(task, 10)
        bar.refresh()
    shown = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]|\r", "", out.getvalue()).splitlines()[-1]
    # the time left is a clock (h:mm:ss), or dashes before there is a rate: after its label
    assert re.search(r"Oh Hell: playing .* 10/40 time left [-0-9]:[-0-9]{2}:[-0-9]{2}$", shown.rstrip()), shown
