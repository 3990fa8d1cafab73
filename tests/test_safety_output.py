"""What whistdsl prints and writes is safe, whatever the files it reads hold.

Printing: every text that comes from a ruleset, a record or a deal file reaches the terminal with
its control characters escaped (escape sequences, C1 controls, bidi overrides, lone surrogates),
and is never read as rich markup. Writing: a record or report is written whole or not at all; a
failed write says so, exits non-zero and leaves the last good file in place; the record of a long
game costs the same per hand from the first hand to the last. And the command line's other
failure paths (a garbage generator state, a bad set-up deal, a rule error) end with a message.
"""

from __future__ import annotations

import json
import os
import re
import resource
import signal
import subprocess
from pathlib import Path

import jsonschema
import pytest
from cli_runner import whistdsl
from test_play_cli import STARTED
from typer.testing import CliRunner

from whistdsl.cli import app
from whistdsl.diagnostics.findings import Finding, render_github, render_json, render_text
from whistdsl.engine import Game, RuleError
from whistdsl.engine import game as engine
from whistdsl.players import BOTS, decide
from whistdsl.printable import json_text, printable
from whistdsl.records import record
from whistdsl.records.record import RecordWriter, WriteError, game_record, write_text_atomically
from whistdsl.rules.lint import load_rules

ROOT = Path(__file__).resolve().parent.parent
RECORD_SCHEMA = json.loads((ROOT / "schemas" / "record.schema.json").read_text(encoding="utf-8"))
runner = CliRunner()

OWNED = "\x1b]0;owned\x07"  # sets the terminal's title
CLEAR = "\x1b[2J"  # clears the screen
#: What may never reach the terminal raw: C0 controls but tab and newline, DEL, C1, the bidi
#: embedding/override/isolate controls, the line and paragraph separators, surrogates.
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def run(*args: str, cwd: Path, limit_file_size: int | None = None) -> subprocess.CompletedProcess[str]:
    """`python -m whistdsl ARGS` as a process (forked: tests/cli_runner.py); with `limit_file_size`,
    no file it writes may grow past that many bytes (a full disk, as far as the command can tell)."""

    def limit() -> None:  # pragma: no cover - runs in the child
        if limit_file_size is not None:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit_file_size, limit_file_size))

    env = {"COLUMNS": "100", "NO_COLOR": "1", "PYTHONIOENCODING": "utf-8", "FORCE_COLOR": None}
    done = whistdsl(*args, cwd=cwd, env=env, timeout=120, preexec_fn=limit)
    out = subprocess.CompletedProcess(done.args, done.returncode, done.stdout.decode("utf-8"), done.stderr.decode("utf-8"))
    assert "Traceback" not in out.stdout + out.stderr, out.stderr
    return out


def assert_nothing_raw(text: str) -> None:
    found = RAW.search(text)
    assert found is None, f"raw {found.group()!r} in the output: {text[max(0, found.start() - 80) : found.end() + 80]!r}"


# ---------------------------------------------------------------- the one escaping function


def test_printable_escapes_escape_sequences_controls_bidi_overrides_and_lone_surrogates() -> None:
    shown = printable(f"a{OWNED}b{CLEAR}c\x9b\x7f\u202ed\u2066e\ud800f\r\n\t\x00")
    assert shown == "a\\x1b]0;owned\\x07b\\x1b[2Jc\\x9b\\x7f\\u202ed\\u2066e\\ud800f\\r\\n\\t\\x00"
    assert_nothing_raw(shown)
    shown.encode("utf-8")  # a lone surrogate could not be encoded: escaped, it can
    assert printable(shown) == shown, "escaping twice changes nothing"


def test_printable_keeps_accents_card_suits_emoji_and_markup_brackets_as_they_are() -> None:
    text = "Ştefan ♠♥ 🂡 👩‍👩‍👧 [bold]x[/bold] \\x1b"
    assert printable(text) == text
    assert printable("a\tb", tab=True) == "a\tb" and printable("a\tb") == "a\\tb"
    assert printable("a\nb\x1b", newline=True) == "a\nb\\x1b"


def test_json_text_reads_back_to_the_same_values_and_holds_no_raw_control_or_surrogate() -> None:
    data = {"name": f"{OWNED}\x9b\ud800\u202e\x7f é ♠", "n": [1, "1/2"]}
    text = json_text(data)
    assert_nothing_raw(text)
    text.encode("utf-8")
    assert json.loads(text) == data
    assert "é ♠" in text, "other characters are kept, not \\u-escaped"


# ---------------------------------------------------------------- lint's findings


def hostile_finding() -> Finding:
    return Finding(f"rules{CLEAR}.yaml", 2, 14, "W200", f"unknown key '{OWNED}x\ud800' (\x9b) 100%\r\nnext")


def test_render_text_escapes_path_message_and_source_line_and_the_caret_stays_under_the_spot() -> None:
    f = Finding("r.yaml", 1, 12, "W203", f"'{CLEAR}' is not one of clockwise, anticlockwise")
    line = "dir\u202e\x1b[2J: \tabc"  # the spot (column 12) is the `a` after the tab
    shown = render_text([f], {"r.yaml": [line]})
    assert_nothing_raw(shown)
    message, source, caret = shown.splitlines()
    assert message == "r.yaml:1:12: W203 '\\x1b[2J' is not one of clockwise, anticlockwise"
    assert source == "    1 | dir\\u202e\\x1b[2J: \tabc"
    assert caret.index("^") == source.index("abc"), "the caret is under the spot of the escaped line"


def test_render_github_lets_no_control_character_through() -> None:
    shown = render_github([hostile_finding()])
    assert_nothing_raw(shown)
    assert "\r" not in shown and shown.count("\n") == 0, "one annotation, one line"
    assert "\\x1b]0;owned\\x07" in shown and "100%25" in shown


def test_render_json_escapes_c1_controls_and_lone_surrogates_and_reads_back_exactly() -> None:
    finding = hostile_finding()
    shown = render_json([finding])
    assert_nothing_raw(shown)
    shown.encode("utf-8")
    assert json.loads(shown) == [finding.as_json()]


RULESET_WITH_ESCAPES = """\
whistdsl: 1
name: Escapes
extends: serbian
"\\e]0;owned\\a": 1
direction: "\\e[2J \\x9b sideways"
"""


@pytest.mark.parametrize("format", ["text", "json", "github"])
def test_lint_prints_an_escape_sequence_in_a_key_and_a_value_escaped(tmp_path: Path, format: str) -> None:
    (tmp_path / "escapes.yaml").write_text(RULESET_WITH_ESCAPES, encoding="utf-8")
    done = run("lint", "escapes.yaml", "--format", format, cwd=tmp_path)
    assert done.returncode == 1
    out = done.stdout + done.stderr
    assert_nothing_raw(out)
    assert "\\x1b]0;owned\\x07" in out or "\\u001b]0;owned\\u0007" in out, out
    assert "\\x1b[2J" in out or "\\u001b[2J" in out, out
    assert "\\x9b" in out or "\\u009b" in out, out


def test_lint_escapes_a_bidi_override_in_the_source_line_it_quotes(tmp_path: Path) -> None:
    (tmp_path / "bidi.yaml").write_text("whistdsl: 1\nname: Bidi\nextends: serbian\ndirection: sideways  # \u202e evil \u2066\n", encoding="utf-8")
    done = run("lint", "bidi.yaml", cwd=tmp_path)
    assert done.returncode == 1
    assert_nothing_raw(done.stdout + done.stderr)
    assert "# \\u202e evil \\u2066" in done.stdout


# ---------------------------------------------------------------- names and descriptions


HOSTILE_TINY = """\
whistdsl: 1
name: "\\e]0;owned\\a Tiny \\e[2J [bold]x[/bold]"
description: "desc \\e[31m red \\u202e rtl"
players: {min: 3, max: 4, default: 4}
direction: clockwise
deck:
  suits: [spades, hearts, diamonds, clubs]
  ranks: [A, K, Q, J, T, 9, 8, 7, 6, 5, 4, 3, 2]
dealer:
  first: 0
kinds:
  forehead:
    view: forehead
    description: "kind \\e]0;x\\a [red]desc"
schedule:
  - 5
  - cards: 1
    kind: forehead
trump:
  turn_up: true
scoring:
  points: if made then 10 + tricks else 0
"""
SHOWN_NAME = "\\x1b]0;owned\\x07 Tiny \\x1b[2J [bold]x[/bold]"


@pytest.fixture
def hostile_tiny(tmp_path: Path) -> Path:
    path = tmp_path / "tiny.yaml"
    path.write_text(HOSTILE_TINY, encoding="utf-8")
    return path


def test_play_shows_a_hostile_ruleset_name_and_kind_description_escaped_and_not_as_markup(hostile_tiny: Path) -> None:
    done = run("play", hostile_tiny.name, "--watch", "--seed", "1", cwd=hostile_tiny.parent)
    assert done.returncode == 0, done.stderr
    assert_nothing_raw(done.stdout + done.stderr)
    assert done.stdout.startswith(f"{SHOWN_NAME}: 4 players, seed 1")
    assert "Forehead hand: kind \\x1b]0;x\\x07 [red]desc" in done.stdout
    assert done.stdout.count(SHOWN_NAME) >= 2, "the score sheet's title too"


@pytest.mark.parametrize("format", ["table", "csv"])
def test_simulate_shows_a_hostile_ruleset_name_escaped(hostile_tiny: Path, format: str) -> None:
    done = run("simulate", hostile_tiny.name, "-n", "4", "--workers", "1", "--format", format, cwd=hostile_tiny.parent)
    assert done.returncode == 0, done.stderr
    assert_nothing_raw(done.stdout + done.stderr)
    assert SHOWN_NAME in done.stdout


def test_list_shows_names_and_descriptions_escaped(hostile_tiny: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("whistdsl.cli.commands.bundled_rulesets", lambda: {f"tiny{CLEAR}": hostile_tiny})
    result = runner.invoke(app, ["list"])
    assert result.exit_code == 0
    assert_nothing_raw(result.output)
    assert result.output.startswith("tiny\\x1b[2J ") and "desc \\x1b[31m red \\u202e rtl" in result.output


HOSTILE_NAMES = [f"{OWNED}Ana", "[bold red]Ben[/]", "Cy\x9b", "[/]\u202eDan"]


def played_record(tmp_path: Path, hands: int | None = None, names: list[str] = HOSTILE_NAMES) -> Path:
    """A record of a seeded Serbian game of computer players with these names (after `hands`
    hands, or the whole game), written by the record writer."""
    game = Game(load_rules("serbian"), 4, seed=1, names=names)
    path = tmp_path / "names.json"
    writer = RecordWriter(path, game, ["random"] * 4)
    bots = [BOTS["random"]() for _ in range(4)]
    while not game.over and (hands is None or len(game.history) < hands):
        game.act(decide(game, bots[game.to_act]))
    writer.update(force=True)
    return path


def test_replay_show_prints_the_record_s_player_names_escaped_and_never_as_markup(tmp_path: Path) -> None:
    path = played_record(tmp_path)
    done = run("replay", path.name, "--show", "--tricks", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert_nothing_raw(done.stdout + done.stderr)
    assert "\\x1b]0;owned\\x07Ana" in done.stdout
    assert "[bold red]Ben[/]" in done.stdout and "[/]\\u202eDan" in done.stdout, "markup is shown as written"
    assert "Cy\\x9b" in done.stdout


def test_play_resume_prints_the_record_s_player_names_escaped(tmp_path: Path) -> None:
    path = played_record(tmp_path, hands=3)
    done = run("play", "--resume", path.name, "--watch", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert_nothing_raw(done.stdout + done.stderr)
    assert "\\x1b]0;owned\\x07Ana" in done.stdout and "[bold red]Ben[/]" in done.stdout


def test_a_record_of_players_with_a_lone_surrogate_or_c1_in_their_names_is_valid_utf8_json(tmp_path: Path) -> None:
    names = ["Ana\ud800", "Ben\x9b", f"Cy{OWNED}", "Dan\u202e"]
    path = played_record(tmp_path, hands=2, names=names)
    raw = path.read_bytes()
    text = raw.decode("utf-8")  # strict: every byte is UTF-8
    assert_nothing_raw(text)
    assert [p["name"] for p in json.loads(text)["players"]] == names


# ---------------------------------------------------------------- the record of a long game


def play_recorded(path: Path, seed: int = 1) -> tuple[Game, RecordWriter, list[bytes]]:
    """A seeded Serbian game of heuristic players, as `play --watch --seed` plays it, written
    after every hand; returns the game, the writer and the file's bytes after each write."""
    game = Game(load_rules("serbian"), 4, seed=seed, names=[f"Player {i + 1}" for i in range(4)])
    writer = RecordWriter(path, game, ["heuristic"] * 4)
    writer.update(force=True)
    files = [path.read_bytes()]
    bots = [BOTS["heuristic"]() for _ in range(4)]
    while not game.over:
        before = len(game.history)
        game.act(decide(game, bots[game.to_act]))
        if len(game.history) != before:
            writer.update()
            files.append(path.read_bytes())
    writer.update(force=True)
    files.append(path.read_bytes())
    return game, writer, files


def test_the_record_writer_writes_byte_for_byte_the_record_format_after_every_hand(tmp_path: Path) -> None:
    game, _, files = play_recorded(tmp_path / "r.json")
    final = json.loads(files[-1])
    jsonschema.validate(final, RECORD_SCHEMA)
    # the same bytes as the whole record dumped at once, as whistdsl wrote records before
    assert files[-1] == (json.dumps(game_record(game, ["heuristic"] * 4), ensure_ascii=False, separators=(",", ":")) + "\n").encode()
    for k, data in enumerate(files[1:-1], start=1):
        part = json.loads(data)
        assert [h["number"] for h in part["hands"]] == list(range(1, k + 1))
        assert part["hands"] == final["hands"][:k] and part["resume"]["after_hand"] == k


def test_a_recorded_game_of_n_hands_serialises_each_hand_once_not_once_per_write(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    real = record.hand_json
    monkeypatch.setattr(record, "hand_json", lambda hand: calls.append(hand.number) or real(hand))
    game, _, files = play_recorded(tmp_path / "r.json")
    n = len(game.history)
    assert n == 28 and len(files) == n + 2
    assert sorted(calls) == list(range(1, n + 1)), f"{len(calls)} hands serialised for {n} (rebuilding would take {n * (n + 1) // 2})"


def test_the_record_writer_notices_a_history_rewritten_behind_its_back(tmp_path: Path) -> None:
    game, writer, _ = play_recorded(tmp_path / "r.json")
    game.history[-1] = game.history[-1]._replace(taken=tuple(reversed(game.history[-1].taken)))
    assert json.loads(writer.text())["hands"][-1]["taken"] == list(game.history[-1].taken)


# ---------------------------------------------------------------- writes that fail


def special_targets(tmp_path: Path) -> dict[str, Path]:
    (tmp_path / "folder").mkdir()
    os.mkfifo(tmp_path / "pipe")
    (tmp_path / "full").symlink_to("/dev/full")  # a link: were it replaced, /dev/full is not
    return {"a directory": tmp_path / "folder", "a named pipe": tmp_path / "pipe", "a device": tmp_path / "full"}


def test_a_record_that_is_a_device_a_pipe_or_a_directory_is_refused_before_the_game_with_exit_2(tmp_path: Path) -> None:
    for what, target in special_targets(tmp_path).items():
        done = run("play", "serbian", "--watch", "--record", target.name, cwd=tmp_path)
        assert done.returncode == 2, (what, done.stderr)
        assert f"--record: cannot write {target.name}:" in done.stderr and "Hand 1" not in done.stdout, what
        assert done.stderr.count("\n") == 1, done.stderr
    assert (tmp_path / "full").is_symlink() and (tmp_path / "folder").is_dir()


def test_simulate_out_that_is_a_device_a_pipe_or_a_directory_is_refused_before_playing_with_exit_2(tmp_path: Path) -> None:
    for what, target in special_targets(tmp_path).items():
        done = run("simulate", "serbian", "-n", "1000000", "--out", target.name, cwd=tmp_path)
        assert done.returncode == 2, (what, done.stderr)
        assert f"--out: cannot write {target.name}:" in done.stderr, what


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def test_a_full_disk_mid_game_stops_it_with_exit_1_and_keeps_the_last_good_record(tmp_path: Path) -> None:
    _, _, files = play_recorded(tmp_path / "expected.json")
    # the file may grow to hold 3 hands, not 4: the write after hand 4 fails (EFBIG)
    done = run("play", "serbian", "--watch", "--seed", "1", "--record", "r.json", cwd=tmp_path, limit_file_size=len(files[3]) + 10)
    assert done.returncode == 1, done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("whistdsl: game stopped: cannot write r.json: File too large."), last
    assert f"The record r.json holds 3 complete hands; continue with: {STARTED} play --resume r.json" in last
    assert (tmp_path / "r.json").read_bytes() == files[3], "the last good record, whole"
    assert leftovers(tmp_path) == []
    assert run("replay", "r.json", cwd=tmp_path).returncode == 0


def test_simulate_out_that_cannot_be_written_exits_1_and_keeps_the_old_report(tmp_path: Path) -> None:
    (tmp_path / "report.json").write_text("the old report\n", encoding="utf-8")
    done = run("simulate", "serbian", "-n", "4", "--workers", "1", "-f", "json", "--out", "report.json", cwd=tmp_path, limit_file_size=100)
    assert done.returncode == 1, done.stderr
    assert done.stderr.strip() == "whistdsl: cannot write report.json: File too large"
    assert (tmp_path / "report.json").read_text(encoding="utf-8") == "the old report\n"
    assert leftovers(tmp_path) == []


def test_simulate_out_is_written_whole_through_a_temporary_file(tmp_path: Path) -> None:
    done = run("simulate", "serbian", "-n", "4", "--workers", "1", "-f", "json", "--out", "report.json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))["games"] == 4
    assert leftovers(tmp_path) == []


def fail_writes_after(monkeypatch: pytest.MonkeyPatch, hands: int, failure) -> None:
    """Once the game holds `hands` hands, call `failure(path)` before each record write."""
    real = RecordWriter.text

    def text(self: RecordWriter) -> str:
        if len(self.game.history) >= hands:
            failure(self.path)
        return real(self)

    monkeypatch.setattr(RecordWriter, "text", text)


def test_the_record_folder_removed_mid_game_stops_it_with_exit_1_and_says_the_record_is_gone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "d"
    folder.mkdir()

    def remove(path: Path) -> None:
        if folder.exists():
            for p in folder.iterdir():
                p.unlink()
            folder.rmdir()

    fail_writes_after(monkeypatch, 3, remove)
    result = runner.invoke(app, ["play", "serbian", "--watch", "--seed", "1", "--record", str(folder / "r.json")])
    assert result.exit_code == 1
    assert f"game stopped: cannot write {folder / 'r.json'}: No such file or directory." in result.stderr
    assert "There is no record at" in result.stderr
    assert "Hand 4 of" not in result.stdout, "the game stops at the failed write"


def test_a_record_folder_made_read_only_mid_game_stops_it_with_exit_1_and_keeps_the_last_good_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_mkstemp = record.tempfile.mkstemp

    class ReadOnly:
        armed = False

        @staticmethod
        def mkstemp(*args, **kwargs):
            if ReadOnly.armed:
                raise PermissionError(13, "Permission denied")
            return real_mkstemp(*args, **kwargs)

    def arm(path: Path) -> None:
        ReadOnly.armed = True

    monkeypatch.setattr(record, "tempfile", ReadOnly)
    fail_writes_after(monkeypatch, 3, arm)
    path = tmp_path / "r.json"
    result = runner.invoke(app, ["play", "serbian", "--watch", "--seed", "1", "--record", str(path)])
    assert result.exit_code == 1
    assert (
        f"cannot write {path}: Permission denied. The record {path} holds 2 complete hands; continue with: whistdsl play --resume {path}"
        in result.stderr
    )
    data = json.loads(path.read_text(encoding="utf-8"))
    assert len(data["hands"]) == 2 and data["resume"]["after_hand"] == 2
    assert leftovers(tmp_path) == []


def test_a_failed_write_leaves_the_old_file_and_no_temporary_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "r.json"
    path.write_text("old\n", encoding="utf-8")

    def broken(tmp: str, target: Path) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(record.os, "replace", broken)
    with pytest.raises(WriteError, match="No space left on device"):
        write_text_atomically(path, "new\n")
    monkeypatch.undo()
    assert path.read_text(encoding="utf-8") == "old\n" and leftovers(tmp_path) == []


# ---------------------------------------------------------------- rule errors


GROWING = """\
whistdsl: 1
name: Growing
extends: serbian
running:
  x:
    description: squared every hand, until it passes the number cap in hand 7
    start: 2
    after_hand: x * x
scoring:
  points: if made then 10 + x else 0
"""


@pytest.fixture
def growing(tmp_path: Path) -> Path:
    path = tmp_path / "growing.yaml"
    path.write_text(GROWING, encoding="utf-8")
    return path


def test_a_rule_error_in_play_is_one_escaped_line_exit_1_and_the_record_keeps_every_complete_hand(growing: Path) -> None:
    names = f"A{CLEAR},B,C,D"
    done = run("play", growing.name, "--watch", "--seed", "1", "--names", names, "--record", "r.json", cwd=growing.parent)
    assert done.returncode == 1, done.stderr
    assert_nothing_raw(done.stdout + done.stderr)
    assert done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith("whistdsl: rule error in hand 7, seat ")
    assert "running.x.after_hand (growing.yaml:8:17)" in done.stderr
    assert done.stderr.rstrip().endswith("the game stopped after 6 complete hands (the record r.json holds them)")
    data = json.loads((growing.parent / "r.json").read_text(encoding="utf-8"))
    jsonschema.validate(data, RECORD_SCHEMA)
    assert len(data["hands"]) == 6 and "final" not in data and data["resume"]["after_hand"] == 6


def test_resume_of_a_record_whose_next_hand_stops_with_a_rule_error_exits_1_and_keeps_the_record(growing: Path) -> None:
    assert run("play", growing.name, "--watch", "--seed", "1", "--record", "r.json", cwd=growing.parent).returncode == 1
    before = (growing.parent / "r.json").read_bytes()
    done = run("play", "--resume", "r.json", "--watch", cwd=growing.parent)
    assert done.returncode == 1, done.stderr
    assert "rule error in hand 7" in done.stderr and "after 6 complete hands" in done.stderr
    assert json.loads((growing.parent / "r.json").read_bytes())["hands"] == json.loads(before)["hands"]


def stop_in_hand(monkeypatch: pytest.MonkeyPatch, number: int) -> None:
    """The engine stops with a rule error when hand `number` begins (the hand before it has just ended)."""
    real = engine.Game.begin_hand

    def start(self: Game, index: int, reuse_hands: bool = False) -> None:
        if self.plan[index].number == number:
            raise RuleError(f"planted {OWNED}", hand=number, seat=1, origin="sits_out (planted.yaml:1:1)")
        real(self, index, reuse_hands)

    monkeypatch.setattr(engine.Game, "begin_hand", start)


def test_a_rule_error_as_a_hand_ends_keeps_that_hand_in_the_record(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    stop_in_hand(monkeypatch, 3)  # raised inside the card that ends hand 2, before the record is written
    path = tmp_path / "r.json"
    result = runner.invoke(app, ["play", "serbian", "--watch", "--seed", "1", "--names", "Ana,Ben,Cy,Dan", "--record", str(path)])
    assert result.exit_code == 1
    assert "whistdsl: rule error in hand 3, seat 1 (Ben): sits_out (planted.yaml:1:1): planted \\x1b]0;owned\\x07" in result.stderr
    assert f"the game stopped after 2 complete hands (the record {path} holds them)" in result.stderr
    assert len(json.loads(path.read_text(encoding="utf-8"))["hands"]) == 2


def test_replay_of_a_record_whose_rules_stop_with_a_rule_error_exits_1_with_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = played_record(tmp_path, hands=4)
    stop_in_hand(monkeypatch, 3)
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 1
    assert result.stderr.count("\n") == 1
    assert "rule error in hand 3, seat 1 ([bold red]Ben[/]): sits_out (planted.yaml:1:1): planted \\x1b]0;owned\\x07" in result.stderr


# ---------------------------------------------------------------- resume and set-up deals


@pytest.mark.parametrize(
    "state",
    [
        [3],
        [3, [1, 2, 3], None],
        [3, ["a"] * 625, None],
        [3, [2**40] * 625, None],
        [3, [-1] * 625, None],
        [3, [1.5] * 625, None],
        [3, [True] * 625, None],
        [3, [1] * 624 + [625], None],
        [2, [1] * 625, None],
        [3, [1] * 625, "x"],
        [3, {"a": 1}, None],
    ],
    ids=[
        "one-item",
        "short",
        "strings",
        "too-large",
        "negative",
        "fractions",
        "booleans",
        "index-past-the-end",
        "version-2",
        "gauss-text",
        "a-mapping",
    ],
)
def test_resume_from_a_garbage_generator_state_is_a_clean_exit_2(tmp_path: Path, state: list) -> None:
    path = played_record(tmp_path, hands=2)
    data = json.loads(path.read_text(encoding="utf-8"))
    data["resume"]["rng_state"] = state
    path.write_text(json.dumps(data), encoding="utf-8")
    result = runner.invoke(app, ["play", "--resume", str(path), "--watch"])
    assert result.exit_code == 2, result.output
    assert "--resume: the record's generator state (resume.rng_state) cannot be restored" in result.stderr
    assert result.stderr.count("\n") == 1


def deal_file(tmp_path: Path, change) -> Path:
    """A deal file of Serbian's first four hands (from a recorded game), changed by `change`."""
    full = json.loads(played_record(tmp_path).read_text(encoding="utf-8"))
    hands = [{"number": h["number"], "dealer": h["dealer"], "deal": h["deal"]} for h in full["hands"][:4]]
    change(hands)
    path = tmp_path / "deals.json"
    path.write_text(json.dumps({"format": full["format"], "hands": hands}), encoding="utf-8")
    return path


def _twice(hands, number):
    deal = hands[number - 1]["deal"]
    deal[1][0] = deal[0][0]


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (lambda h: _twice(h, 1), "hand 1: "),
        (lambda h: _twice(h, 3), "hand 3: "),
        (lambda h: h[2]["deal"][1].pop(), "hand 3: seat 1 is dealt 10 cards; the hand needs 11"),
        (lambda h: h[2].update(dealer=9), "hand 3: dealer 9 is not a seat"),
        (lambda h: h[1].update(deal=h[1]["deal"][:3]), "hand 2: the deal lists 3 seats, the game has 4"),
        (lambda h: h[0]["deal"].extend([[]] * 5), "the deal file deals to 9 seats; Serbian whist is for"),
        (lambda h: h[3]["deal"][0].__setitem__(0, "1X"), ""),
    ],
    ids=["card-twice-hand-1", "card-twice-hand-3", "wrong-count-hand-3", "dealer-out-of-range", "wrong-seat-count", "too-many-seats", "not-a-card"],
)
def test_a_bad_hand_in_a_deal_file_is_refused_before_the_game_with_exit_2(tmp_path: Path, change, said: str) -> None:
    path = deal_file(tmp_path, change)
    result = runner.invoke(app, ["play", "serbian", "--watch", "--deal", str(path)])
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("whistdsl: --deal: ") and said in result.stderr, result.stderr
    assert "Hand 1" not in result.stdout, "refused before any hand is played"


def test_a_good_deal_file_still_plays(tmp_path: Path) -> None:
    path = deal_file(tmp_path, lambda hands: None)
    result = runner.invoke(app, ["play", "serbian", "--watch", "--deal", str(path)])
    assert result.exit_code == 0, result.output


def test_play_refuses_names_and_seeds_a_record_could_not_hold(tmp_path):
    from typer.testing import CliRunner

    from whistdsl.cli import app
    from whistdsl.records.record import MAX_PLAYER_NAME
    from whistdsl.records.replay import _record_validator

    schema = _record_validator().schema
    assert schema["properties"]["players"]["items"]["properties"]["name"]["maxLength"] == MAX_PLAYER_NAME
    long_name = "A" * (MAX_PLAYER_NAME + 1)
    runner = CliRunner()
    result = runner.invoke(app, ["play", "romanian", "--watch", "--names", f"{long_name},B,C,D"])
    assert result.exit_code == 2 and f"at most {MAX_PLAYER_NAME} characters" in result.output
    result = runner.invoke(app, ["play", "romanian", "--watch", "--seed", "1" * 41])
    assert result.exit_code == 2 and "--seed" in result.output
