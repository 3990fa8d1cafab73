"""Golden records: whole seeded games of every bundled ruleset, recorded once and kept as test data.

tests/test_golden_records.py plays each case of `CASES` again and asserts that the record comes
out byte for byte as kept in tests/data/golden_records/ (by the compiled runner and by the
interpreter alike), and that `whistdsl replay` finds each kept record clean. They pin down the
games themselves while the engine is reshaped (issue 26): a change of the engine that changes a
single card played, a shuffle or a draw of the generator fails them.

Each case is one game: a bundled ruleset at a table size, a seed, the computer players in every
seat, and how the game is driven:

- `play_out`: players/base.py `play_out`, as `whistdsl simulate` plays (with random players the
  compiled engine's generated game loop, with players of their own rule its generated hands,
  with players reading their views the interpreter's bidding and the compiled play);
- `act`: one action at a time, `game.act(decide(game, player))`, as `whistdsl play --watch`
  plays (the interpreter, views built for every decision).

The records are kept gzipped (`zcat` reads them); each is what `whistdsl play --watch --record`
writes for that game.

    python tests/golden_records.py --the-games-change-on-purpose

writes them all again. Run it ONLY when a change of the games is intended (a rule of a bundled
ruleset changed, the record format changed, the shuffle changed on purpose), and say so in the
commit: a change of the engine that is meant to leave the games as they were must pass the test
with the records as they are.
"""

from __future__ import annotations

import gzip
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from whistdsl import load_rules
from whistdsl.engine import Game
from whistdsl.players import decide, play_out
from whistdsl.players.bots import make_bot
from whistdsl.players.mc import MonteCarloPlayer
from whistdsl.records.record import game_record, record_text
from whistdsl.resources import bundled_rulesets
from whistdsl.rules.ruleset import Ruleset

FOLDER = Path(__file__).resolve().parent / "data" / "golden_records"

#: The seed of every case (a case's own seed may differ: see `CASES`).
SEED = 26


@dataclass(frozen=True)
class Case:
    """One kept game: `ruleset` (a bundled name) at `players`, `bots` in every seat, `seed`, driven by `driver`."""

    ruleset: str
    players: int
    bots: str  # a name in BOTS, or "mc4": the Monte Carlo player with 4 samples a decision
    driver: str  # "play_out" or "act"
    seed: int = SEED

    @property
    def path(self) -> Path:
        return FOLDER / f"{self.ruleset}-{self.players}p-{self.bots}-{self.driver}-{self.seed}.json.gz"

    @property
    def runners(self) -> tuple[bool, ...]:
        """The runners that play it (Game.use_compiled): both for `play_out`; `act` is the interpreter's alone."""
        return (True, False) if self.driver == "play_out" else (False,)


@cache
def bundled(name: str) -> Ruleset:
    return load_rules(bundled_rulesets()[name])


def _cases() -> tuple[Case, ...]:
    cases = [Case(name, bundled(name).players_default, "heuristic", "play_out") for name in bundled_rulesets()]
    # random players: the generated game loop (compiled rulesets) and the interpreter's random draws
    for name in (
        "romanian",
        "serbian",
        "wizard",
        "kachuful",
        "boerenbridge",
        "oh-hell-two-decks",
        "oh-hell-nil",
        "estimation",
        "romanian-forehead-both",
        "romanian-tiebreak",
        "oh-hell-dealer-last-card",
        "oh-hell-picture-no-trump",
    ):
        cases.append(Case(name, bundled(name).players_default, "random", "play_out"))
    # other table sizes: a dealer's hook at 3, the schedule at 6, a dealer sitting out, two decks at 10
    cases += [Case("romanian", 3, "random", "play_out"), Case("romanian", 6, "heuristic", "play_out"),
              Case("serbian", 5, "heuristic", "play_out"), Case("kachuful", 3, "random", "play_out"),
              Case("oh-hell-two-decks", 10, "random", "play_out"), Case("wizard", 6, "random", "play_out"),
              Case("oh-hell", 7, "heuristic", "play_out")]  # fmt: skip
    # one action at a time, as `whistdsl play --watch`: decisions, forehead and blind, Wizard's specials
    for name in (
        "wizard",
        "romanian-forehead",
        "romanian-forehead-both",
        "estimation",
        "oh-hell-nil",
        "oh-hell-simultaneous",
        "oh-hell-highest-bidder-trump",
        "romanian",
        "openspiel",
    ):
        cases.append(Case(name, bundled(name).players_default, "heuristic", "act"))
    cases.append(Case("wizard", 4, "random", "act", seed=7))
    # the Monte Carlo player looks ahead (engine/game.py look_ahead): short games
    cases += [Case("openspiel", 3, "mc4", "act"), Case("oh-hell-picture-no-trump", 3, "mc4", "play_out"),
              Case("romanian-forehead", 3, "mc4", "act", seed=3)]  # fmt: skip
    return tuple(cases)


CASES = _cases()


def player(bots: str):
    if bots == "mc4":
        return MonteCarloPlayer(samples=4)
    return make_bot(bots)


def played(case: Case, compiled: bool = True) -> str:
    """The record of `case`'s game, played now (with the compiled runner where it applies, or
    with the interpreter alone), as `whistdsl play --record` writes it."""
    rules = bundled(case.ruleset)
    game = Game(rules, case.players, seed=case.seed)
    game.use_compiled = compiled
    game.keep_rng_states = True  # as the record writer does, so the record says how to resume
    players = [player(case.bots) for _ in range(case.players)]
    if case.driver == "play_out":
        play_out(game, players)
    else:
        while not game.over:
            game.act(decide(game, players[game.to_act]))  # type: ignore[index]
    kind = "mc" if case.bots == "mc4" else case.bots
    return record_text(game_record(game, [kind] * case.players))


def kept(case: Case) -> str:
    return gzip.decompress(case.path.read_bytes()).decode("utf-8")


def regenerate() -> None:
    FOLDER.mkdir(parents=True, exist_ok=True)
    wanted = {case.path for case in CASES}
    for old in FOLDER.rglob("*.json.gz"):
        if old not in wanted:
            old.unlink()
    for case in CASES:
        case.path.parent.mkdir(parents=True, exist_ok=True)
        # mtime=0: the same record gives the same file
        case.path.write_bytes(gzip.compress(played(case).encode("utf-8"), mtime=0))
        print(case.path.relative_to(FOLDER))


if __name__ == "__main__":
    if sys.argv[1:] != ["--the-games-change-on-purpose"]:
        sys.exit(
            "usage: python tests/golden_records.py --the-games-change-on-purpose\n"
            "Writes every golden record again from the engine as it is now. Run it only when a change of the\n"
            "games is intended (a bundled ruleset's rules, the record format, the shuffle); an engine change that\n"
            "should leave the games as they were must pass tests/test_golden_records.py with the records as they are."
        )
    regenerate()
