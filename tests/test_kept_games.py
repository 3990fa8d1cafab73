"""Every game with a person at the table is kept (whistdsl/records/kept.py): stopped by Ctrl-C or
the end of input, it is in the kept-games folder, `whistdsl games` lists it, and `whistdsl play
--resume` (no file: the latest) goes on with it to the end, in a pseudo-terminal.

Each test has its own kept-games folder (tests/conftest.py sets WHISTDSL_DATA_DIR), which the
commands started here inherit.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import sys
from pathlib import Path

import cli_runner
import jsonschema
import pytest
from test_play_cli import RECORD_SCHEMA, STARTED, TINY, YOU, Terminal, inputs_for_the_whole_game, play
from typer.testing import CliRunner

from whistdsl.cli import app
from whistdsl.engine import Game
from whistdsl.players import RandomPlayer, decide
from whistdsl.rules.lint import load_rules

runner = CliRunner()


@pytest.fixture
def tiny(tmp_path: Path) -> Path:
    path = tmp_path / "tiny.yaml"
    path.write_text(TINY, encoding="utf-8")
    return path


def kept_folder() -> Path:
    return Path(os.environ["WHISTDSL_DATA_DIR"]) / "games"


def kept_files() -> list[Path]:
    folder = kept_folder()
    return sorted(folder.glob("*.json")) if folder.is_dir() else []


def start(tiny: Path, *options: str) -> Terminal:
    return Terminal(str(tiny), "--seat", str(YOU), "--bots", "random", *options, cwd=tiny.parent)


def resume(tiny: Path, *options: str) -> Terminal:
    return Terminal("--resume", *options, cwd=tiny.parent)


def answer(t: Terminal, answers: list[str]) -> None:
    """Type `answers`, each at its prompt (a bid, a card, Enter at the end of a hand)."""
    for a in answers:
        t.prompt()
        t.type(a)


def test_ctrl_c_keeps_the_game_says_where_and_play_resume_without_a_file_plays_it_to_the_end(tiny: Path) -> None:
    seed = 5
    answers = inputs_for_the_whole_game(tiny, seed)
    first_hand = 1 + 5 + 1  # your bid, five cards, and Enter at the end of the hand
    t = start(tiny, "--seed", str(seed))
    try:
        answer(t, answers[:first_hand])
        assert "Hand 2 of 3" in t.prompt()
        t.wait_until_reading()
        t.send(b"\x03")  # Ctrl-C
        assert t.wait() == 130, t.output[-3000:]
    finally:
        t.close()
    (kept,) = kept_files()
    assert "game stopped: interrupted (Ctrl-C), after 1 complete hand." in t.output
    assert f"The game is kept in {kept}; continue with: {STARTED} play --resume" in t.said
    data = json.loads(kept.read_text(encoding="utf-8"))
    jsonschema.validate(data, RECORD_SCHEMA)
    assert len(data["hands"]) == 1 and "final" not in data
    assert re.fullmatch(r"\d{8}-\d{6}-tiny-whist\.json", kept.name)

    listed = runner.invoke(app, ["games"])
    assert listed.exit_code == 0, listed.output
    assert kept.name in listed.stdout and "Tiny whist" in listed.stdout
    assert "stopped after hand 1" in listed.stdout

    t = resume(tiny)
    try:
        answer(t, answers[first_hand:])
        assert t.wait() == 0, t.output[-3000:]
    finally:
        t.close()
    assert "Hand 1 of 3" not in t.output and "Hand 2 of 3" in t.output
    assert re.search(r"^Winners?( \(tied\))?: ", t.output, re.M)
    assert f"This game is kept in {kept}" in t.said
    assert kept_files() == [kept], "the resumed game goes on in its own file"
    data = json.loads(kept.read_text(encoding="utf-8"))
    assert len(data["hands"]) == 3 and data["final"]["winners"]
    assert "over, won by" in runner.invoke(app, ["games"]).stdout or "over, tied" in runner.invoke(app, ["games"]).stdout


def test_a_hang_up_under_nohup_stops_without_a_traceback_and_keeps_every_answer_given(tiny: Path, tmp_path: Path) -> None:
    seed = 5
    answers = inputs_for_the_whole_game(tiny, seed)
    nohup_out = tmp_path / "nohup.out"
    t = Terminal(str(tiny), "--seat", str(YOU), "--bots", "random", "--seed", str(seed), cwd=tiny.parent, nohup=nohup_out)
    try:
        answer(t, answers[:2])  # your bid and your first card
        t.prompt()
        assert t.hang_up() == 1  # the terminal's window closed: its end of input
    finally:
        t.close()
    said = nohup_out.read_text(encoding="utf-8")
    assert "Traceback" not in said and "Error" not in said, said
    (kept,) = kept_files()
    assert f"whistdsl: game stopped: the terminal has gone, after 0 complete hands. The game is kept in {kept}" in said
    data = json.loads(kept.read_text(encoding="utf-8"))
    jsonschema.validate(data, RECORD_SCHEMA)
    assert data["unfinished"]["answers"] == [{"seat": YOU, "bid": int(answers[0])}, {"seat": YOU, "card": answers[1]}]


def test_after_the_quick_start_the_command_it_says_to_continue_with_runs_as_printed(tiny: Path, tmp_path: Path) -> None:
    """The Quick start runs `.venv/bin/whistdsl` with nothing activated: `whistdsl` is not on PATH."""
    venv = Path(sys.executable).parent.parent
    if not (venv / "bin" / "whistdsl").is_file():
        pytest.skip("whistdsl is not installed as a script beside this Python")
    path = os.pathsep.join(["/usr/bin", "/bin"])
    if shutil.which("whistdsl", path=path) is not None:
        pytest.skip("a whistdsl is installed system-wide")
    (tmp_path / ".venv").symlink_to(venv, target_is_directory=True)
    quick_start = [os.path.join(".venv", "bin", "whistdsl"), "play"]
    # 40 columns: the kept game's path takes a line of its own, and the next would have room for
    # `continue with: .venv/bin/whistdsl play` but not for `--resume`
    t = Terminal(str(tiny), "--seat", str(YOU), "--bots", "random", "--seed", "5", cwd=tmp_path, env={"PATH": path}, program=quick_start, columns=40)
    try:
        t.expect("Your bid: ")
        t.send(b"\x04")  # Ctrl-D: end of input
        assert t.wait() == 1, t.output[-3000:]
    finally:
        t.close()
    printed = re.search(r"; continue with: (.+)$", t.said)
    assert printed is not None, t.output[-3000:]
    assert printed.group(1) == ".venv/bin/whistdsl play --resume"
    assert any(printed.group(1) in line for line in t.output.splitlines()), "wrapped to the terminal, the command stays on one line"
    t = Terminal(cwd=tmp_path, env={"PATH": path}, program=shlex.split(printed.group(1)))
    try:
        assert "Tiny whist: 4 players, seed 5" in t.prompt()
        t.send(b"\x04")
        assert t.wait() == 1, t.output[-3000:]
    finally:
        t.close()


def test_end_of_input_in_the_first_hand_keeps_the_game_and_resume_deals_the_same_first_hand(tiny: Path) -> None:
    t = start(tiny, "--seed", "3")
    try:
        shown = t.expect("Your bid: ")
        t.send(b"\x04")  # Ctrl-D: end of input
        assert t.wait() == 1, t.output[-3000:]
    finally:
        t.close()
    assert "game stopped: end of input, after 0 complete hands. The game is kept in" in t.said
    (kept,) = kept_files()
    hand = re.search(r"Your hand: (.*)", shown).group(1)  # type: ignore[union-attr]

    t = resume(tiny, str(kept))  # by its path this time
    try:
        again = t.expect("Your bid: ")
    finally:
        t.close()
    assert "Hand 1 of 3" in again
    assert f"Your hand: {hand}" in again, "the same first deal again, from the same seed"


def test_resume_with_no_kept_game_says_so_and_exits_2() -> None:
    result = play("--resume", "--watch")
    assert result.exit_code == 2, result.output
    assert "no unfinished game is kept in" in result.stderr
    assert "Traceback" not in result.output


def test_a_kept_game_is_resumed_by_the_name_games_lists(tiny: Path) -> None:
    seed = 5
    t = start(tiny, "--seed", str(seed))
    try:
        t.expect("Your bid: ")
        t.send(b"\x04")
        t.wait()
    finally:
        t.close()
    (kept,) = kept_files()
    result = play("--resume", kept.name, "--watch")  # a computer player takes your seat
    assert result.exit_code == 0, result.output
    assert "Hand 3 of 3" in result.stdout


def test_a_watched_game_is_not_kept() -> None:
    result = play("romanian", "--watch", "--seed", "1", "--players", "3")
    assert result.exit_code == 0, result.output
    assert kept_files() == []


def test_games_with_none_kept_says_so_and_lists_unreadable_files_without_a_traceback() -> None:
    empty = runner.invoke(app, ["games"])
    assert empty.exit_code == 0
    assert "No games kept yet" in empty.stdout
    kept_folder().mkdir(parents=True)
    (kept_folder() / "20260101-000000-broken.json").write_text("{not json", encoding="utf-8")
    (kept_folder() / "20260101-000001-odd.json").write_text(
        json.dumps({"format": "whistdsl-record/2", "ruleset": {"name": "Odd\x1b[31m"}, "players": [{"name": "A\x07"}], "hands": []}), encoding="utf-8"
    )
    result = runner.invoke(app, ["games"])
    assert result.exit_code == 0, result.output
    assert "20260101-000000-broken.json" in result.stdout and "unreadable: not a record: the file ends too early" in result.stdout
    assert "\x1b" not in result.stdout and "\x07" not in result.stdout, "a file's text is escaped"
    assert "stopped in hand 1" in result.stdout


@pytest.mark.parametrize(("typed", "meant"), [("serbain", "serbian"), ("rumanian", "romanian"), ("oh-hel", "oh-hell")])
def test_a_mistyped_bundled_ruleset_gets_a_did_you_mean(typed: str, meant: str) -> None:
    result = play(typed, "--watch")
    assert result.exit_code == 2
    assert f"did you mean `{meant}`?" in result.stderr


def the_whole_game(tiny: Path, seed: int) -> Game:
    """The game `inputs_for_the_whole_game` answers, played through the engine."""
    game = Game(load_rules(tiny), 4, seed=seed)
    bot = RandomPlayer()
    while not game.over:
        if game.to_act != YOU:
            game.act(decide(game, bot))
        elif game.phase == "bidding":
            game.bid(game.legal_actions()[0])
        else:
            game.play(game.legal_actions()[0] if game.can_see_own_hand(YOU) else None)
    return game


def test_ctrl_c_in_the_middle_of_a_hand_resumes_where_it_stopped_and_ends_as_the_game_uninterrupted(tiny: Path) -> None:
    seed = 5
    answers = inputs_for_the_whole_game(tiny, seed)
    played = 1 + 3  # your bid and three of your five cards in hand 1
    t = start(tiny, "--seed", str(seed))
    try:
        answer(t, answers[:played])
        assert t.prompt().endswith("Your card: ")
        t.wait_until_reading()
        t.send(b"\x03")  # Ctrl-C, with two cards of the hand still to play
        assert t.wait() == 130, t.output[-3000:]
    finally:
        t.close()
    (kept,) = kept_files()
    data = json.loads(kept.read_text(encoding="utf-8"))
    jsonschema.validate(data, RECORD_SCHEMA)
    assert data["hands"] == [] and data["unfinished"]["hand"] == 1
    assert len(data["unfinished"]["answers"]) == played, "every answer of the hand is kept at once"
    assert data["unfinished"]["answers"][0] == {"seat": YOU, "bid": int(answers[0])}

    t = resume(tiny)
    try:
        shown = t.prompt()
        assert f"Hand 1 is played again up to where it stopped ({played} of your answers)." in shown
        assert shown.count("You played ") == played - 1 and shown.endswith("Your card: "), "asked only for the next card"
        t.type(answers[played])
        answer(t, answers[played + 1 :])
        assert t.wait() == 0, t.output[-3000:]
    finally:
        t.close()
    data = json.loads(kept.read_text(encoding="utf-8"))
    expected = the_whole_game(tiny, seed)
    assert [h["totals"] for h in data["hands"]] == [list(h.totals) for h in expected.history]
    assert data["final"]["totals"] == list(expected.result.totals)
    assert "unfinished" not in data


def test_a_data_folder_that_cannot_be_made_is_said_and_the_game_is_played_unkept(tiny: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tiny.parent / "not-a-folder"
    blocker.write_text("a file where the data folder would be\n", encoding="utf-8")
    monkeypatch.setenv("WHISTDSL_DATA_DIR", str(blocker))
    t = start(tiny, "--seed", "3")
    try:
        shown = t.expect("Your bid: ")
        t.send(b"\x04")
        assert t.wait() == 1, t.output[-3000:]
    finally:
        t.close()
    assert f"cannot keep this game in {blocker / 'games'}" in " ".join(shown.split())
    assert "it is played without being kept" in " ".join(shown.split())
    assert "game stopped: end of input, after 0 complete hands." in t.said
    assert "Traceback" not in t.output


def keep_record(name: str, finished: bool, when: float) -> Path:
    """A kept game's file as whistdsl writes one (the facts `whistdsl games` reads), written at `when`."""
    kept_folder().mkdir(parents=True, exist_ok=True)
    path = kept_folder() / name
    record = {
        "format": "whistdsl-record/2",
        "ruleset": {"name": "Tiny whist"},
        "players": [{"name": "Ana"}, {"name": "Ben"}, {"name": "Cy"}],
        "hands": [{}, {}],
    }
    if finished:
        record["final"] = {"winners": [0]}
    path.write_text(json.dumps(record), encoding="utf-8")
    os.utime(path, (when, when))
    return path


def test_a_new_game_keeps_every_unfinished_game_and_the_newest_finished_ones(tiny: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from whistdsl.cli import play as table
    from whistdsl.records import kept

    old_finished = [keep_record(f"2026010{i}-000000-tiny-whist.json", True, 1_000_000 + i) for i in range(1, 5)]
    unfinished = keep_record("20251231-000000-tiny-whist.json", False, 999_999)  # the oldest of all
    stranger = kept_folder() / "20250101-000000-notes.json"
    stranger.write_text("my own notes", encoding="utf-8")
    monkeypatch.setattr(kept, "KEEP_FINISHED", 2)
    writer = table._kept_writer(Game(load_rules(str(tiny)), 4, seed=1), [])
    assert writer is not None and writer.path.exists()
    left = set(kept_files())
    assert old_finished[-2:] == [p for p in old_finished if p in left], "the two newest finished games stay"
    assert not {*old_finished[:2]} & left, "the older finished ones are removed"
    assert unfinished in left and stranger in left and writer.path in left


def test_games_clean_removes_the_finished_games_and_keeps_the_unfinished_ones() -> None:
    finished = [keep_record(f"2026010{i}-000000-tiny-whist.json", True, 1_000_000 + i) for i in range(1, 4)]
    unfinished = keep_record("20260105-000000-tiny-whist.json", False, 1_000_010)
    broken = kept_folder() / "20260106-000000-broken.json"
    broken.write_text("{not json", encoding="utf-8")
    result = runner.invoke(app, ["games", "--clean"])
    assert result.exit_code == 0, result.output
    assert "Removed 3 finished games" in result.stdout
    assert set(kept_files()) == {unfinished, broken}
    assert not any(p.exists() for p in finished)
    assert "20260105-000000-tiny-whist.json" in result.stdout, "then the games left are listed"


def test_games_help_says_how_many_finished_games_stay() -> None:
    from whistdsl.records.kept import KEEP_FINISHED

    result = runner.invoke(app, ["games", "--help"])
    assert result.exit_code == 0
    assert f"the newest {KEEP_FINISHED} stay" in " ".join(result.stdout.split())
    assert "--clean" in result.stdout


# ---------------------------------------------------------------- what else the folder may hold


#: What a stranger (or an accident) may leave in the kept-games folder, named like a kept game or
#: not: each is listed as unreadable, never waited on, never read whole, never removed.
STRAYS = ("named-pipe", "100000-brackets", "link-to-dev-zero", "folder", "link-outside", "sparse-8-gib")
#: A finished record outside the folder, that a link in the folder leads to.
OUTSIDE_RECORD = {
    "format": "whistdsl-record/2",
    "ruleset": {"name": "Elsewhere"},
    "players": [{"name": "Far"}],
    "hands": [],
    "final": {"winners": [0]},
}


def leave_stray(kind: str, outside: Path, when: float = 2_000_000_000) -> Path:
    """A stray `kind` in the kept-games folder, written at `when` (newer than any game here)."""
    kept_folder().mkdir(parents=True, exist_ok=True)
    path = kept_folder() / f"20330518-033320-{kind}.json"
    if kind == "named-pipe":
        os.mkfifo(path)
    elif kind == "100000-brackets":
        path.write_bytes(b"[" * 100_000)
    elif kind == "link-to-dev-zero":
        path.symlink_to("/dev/zero")
    elif kind == "folder":
        path.mkdir()
    elif kind == "link-outside":
        outside.write_text(json.dumps(OUTSIDE_RECORD), encoding="utf-8")
        path.symlink_to(outside)
    else:
        with open(path, "wb") as f:
            f.truncate(8 * 2**30)  # sparse: nothing is written
    os.utime(path, (when, when), follow_symlinks=False)
    return path


def an_unfinished_game(tiny: Path) -> Path:
    """A kept game stopped after its first hand, as `play` keeps one (you at seat 0)."""
    from whistdsl.records.record import RecordWriter

    game = Game(load_rules(tiny), 4, seed=1)
    kept_folder().mkdir(parents=True, exist_ok=True)
    path = kept_folder() / "20260301-120000-tiny-whist.json"
    writer = RecordWriter(path, game, ["human", "random", "random", "random"])
    bot = RandomPlayer()
    while not game.history:
        game.act(decide(game, bot))
    writer.update()
    return path


#: The memory a command may add (RLIMIT_AS): a kept game read whole costs at most MAX_KEPT_BYTES.
MEMORY_CAP = 256 * 2**20


@pytest.mark.parametrize("kind", STRAYS)
def test_games_lists_a_stray_as_unreadable_at_once(kind: str, tiny: Path) -> None:
    game = an_unfinished_game(tiny)
    stray = leave_stray(kind, tiny.parent / "outside.json")
    done = cli_runner.whistdsl("games", timeout=60, memory_cap=MEMORY_CAP, text=True)  # the timeout only guards a hang
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    listed = done.stdout.splitlines()
    at = listed.index(f"  {stray.name}")
    assert listed[at + 1].startswith("      unreadable: "), listed
    assert f"  {game.name}" in listed and "stopped after hand 1" in done.stdout, "the game itself is listed as ever"
    assert "Elsewhere" not in done.stdout, "a link is not followed"


@pytest.mark.parametrize("kind", STRAYS)
def test_play_resume_goes_on_with_the_latest_unfinished_game_past_a_newer_stray(kind: str, tiny: Path) -> None:
    game = an_unfinished_game(tiny)
    leave_stray(kind, tiny.parent / "outside.json")
    done = cli_runner.whistdsl("play", "--resume", "--watch", timeout=60, memory_cap=MEMORY_CAP, text=True)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert "Hand 2 of 3" in done.stdout and "Hand 1 of 3" not in done.stdout
    assert "final" in json.loads(game.read_text(encoding="utf-8")), "the game went on in its own file"


def test_a_new_game_starts_and_is_kept_whatever_strays_are_in_the_folder(tiny: Path) -> None:
    strays = [leave_stray(kind, tiny.parent / "outside.json") for kind in STRAYS]
    t = start(tiny, "--seed", "3")
    try:
        t.expect("Your bid: ")  # its own timeout guards a hang
        t.send(b"\x04")
        assert t.wait() == 1, t.output[-3000:]
    finally:
        t.close()
    assert "Traceback" not in t.output and "The game is kept in" in t.said
    assert all(os.path.lexists(p) for p in strays), "nothing but a finished kept game is removed"
    assert json.loads((tiny.parent / "outside.json").read_text(encoding="utf-8")) == OUTSIDE_RECORD
    assert len([p for p in kept_files() if p not in strays]) == 1, "the new game is kept"


def test_games_clean_removes_only_the_finished_games_whistdsl_kept(tmp_path: Path) -> None:
    ours = keep_record("20260101-000000-tiny-whist.json", True, 1_000_000)
    renamed = keep_record("my-best-game.json", True, 1_000_001)  # a record, but not named as whistdsl names one
    unversioned = keep_record("20260101-000002-tiny-whist.json", True, 1_000_002)
    unversioned.write_text(json.dumps({k: v for k, v in json.loads(unversioned.read_text()).items() if k != "format"}))
    outside = tmp_path / "outside.json"
    outside.write_text(json.dumps(OUTSIDE_RECORD), encoding="utf-8")
    link = kept_folder() / "20260101-000003-tiny-whist.json"
    link.symlink_to(outside)
    strays = [leave_stray(kind, tmp_path / "elsewhere.json") for kind in STRAYS]
    done = cli_runner.whistdsl("games", "--clean", timeout=60, memory_cap=MEMORY_CAP, text=True)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert "Removed 1 finished game from" in done.stdout
    assert not ours.exists() and renamed.exists() and unversioned.exists() and link.is_symlink() and outside.exists()
    assert all(os.path.lexists(p) for p in strays)


def test_a_stray_costs_no_more_reading_than_the_cap(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # in this process: only strays that could neither hang it nor fill its memory if read whole
    from whistdsl.records import kept

    strays = {leave_stray(kind, tmp_path / "outside.json").name for kind in ("100000-brackets", "folder", "link-outside")}
    huge = kept_folder() / "20330518-033320-huge.json"
    with open(huge, "wb") as f:
        f.truncate(4 * kept.MAX_KEPT_BYTES)  # sparse
    read = []
    real_read = os.read

    def counted(fd: int, n: int) -> bytes:
        data = real_read(fd, n)
        read.append(len(data))
        return data

    monkeypatch.setattr(os, "read", counted)
    games = kept.kept_games()
    monkeypatch.undo()
    assert {g.name for g in games} == strays | {huge.name} and all(g.problem for g in games)
    # at most the large file up to the cap and one byte, and the 100 000 `[`: nothing of the others
    assert sum(read) <= kept.MAX_KEPT_BYTES + 1 + 100_000
