"""`whistdsl play`: whole games with --watch, the game record, option errors, and a person at a
terminal (a pseudo-terminal here) whose illegal answers are refused with a reason.

The terminal games use a tiny ruleset (three short hands: a normal one, a forehead one, a blind
one). The test finds a seed that sets up the situation it needs by playing the same game through
the engine first: the computer players draw from the game's one generator and a person's answers
draw nothing, so the command deals and plays exactly the same cards.
"""

from __future__ import annotations

import fcntl
import json
import os
import pty
import re
import select
import shlex
import signal
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Iterator
from pathlib import Path

import jsonschema
import pytest
from typer.testing import CliRunner, Result

from whistdsl.cli import app
from whistdsl.engine import Game
from whistdsl.engine.cards import card_text
from whistdsl.players import RandomPlayer, decide
from whistdsl.rules.lint import load_rules

ROOT = Path(__file__).resolve().parent.parent
RECORD_SCHEMA = json.loads((ROOT / "schemas" / "record.schema.json").read_text(encoding="utf-8"))
#: How the tests start whistdsl as a process (here and in tests/cli_runner.py), as the commands
#: it suggests then begin (`continue with: ... play --resume`): whistdsl/suggest.py
STARTED = shlex.join([sys.executable, "-m", "whistdsl"])
runner = CliRunner()

TINY = """\
whistdsl: 1
name: Tiny whist
description: three short hands - a normal one, a forehead one and a blind one
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
  nv:
    view: blind
    mark: NV
schedule:
  - 5
  - cards: 1
    kind: forehead
  - cards: 2
    kind: nv
trump:
  turn_up: true
bidding:
  allowed: not (is_last and bids_so_far + bid == hand_size)
play:
  when_void: must_trump
scoring:
  points: if made then 10 + tricks else 0
winner:
  rank: [highest total]
"""

YOU = 0  # the dealer of the first hand (`first: 0`): you bid last, after the hook is known


@pytest.fixture
def tiny(tmp_path: Path) -> Path:
    path = tmp_path / "tiny.yaml"
    path.write_text(TINY, encoding="utf-8")
    return path


def play(*args: str, input: str | None = None) -> Result:
    return runner.invoke(app, ["play", *args], input=input)


# ---------------------------------------------------------------- --watch


def test_watch_plays_a_whole_serbian_game_without_input_and_names_the_winner() -> None:
    result = play(str(ROOT / "rulesets" / "serbian.yaml"), "--watch", "--seed", "7")
    assert result.exit_code == 0, result.output
    assert "Hand 28 of 28" in result.stdout
    assert re.search(r"^Winners?( \(tied\))?: .*\(-?\d+\)", result.stdout, re.M)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_watch_plays_a_whole_romanian_game_for_every_table_size(players: int) -> None:
    hands = 3 * players + 12
    result = play("romanian", "--watch", "--seed", "7", "--players", str(players))
    assert result.exit_code == 0, result.output
    assert f"Hand {hands} of {hands}" in result.stdout
    assert "Winner" in result.stdout
    sheet_rows = re.findall(rf"^\s*{hands}\s+8 NT|^\s*{hands}\s+1 ", result.stdout, re.M)
    assert sheet_rows, "the score sheet ends with the last hand's row"


def test_piped_output_is_plain_text_with_made_contracts_marked_by_a_star() -> None:
    result = play("romanian", "--watch", "--seed", "3", "--players", "3", "--names", "Adrian,Mihai,Paul")
    assert result.exit_code == 0, result.output
    assert "\x1b" not in result.stdout
    header = next(line for line in result.stdout.splitlines() if line.split()[:2] == ["#", "hand"])
    assert header.split()[2:] == ["Adrian", "Mihai", "Paul"]
    assert re.search(r"\d\* / +-?\d+", result.stdout), "made contracts carry a *"
    assert re.search(r"\d  / +-?\d+", result.stdout), "missed contracts do not"


def test_watch_record_is_valid_against_the_record_schema_and_holds_every_hand(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    result = play("romanian", "--watch", "--seed", "7", "--players", "6", "--record", str(record), "--bots", "random")
    assert result.exit_code == 0, result.output
    data = json.loads(record.read_text(encoding="utf-8"))
    jsonschema.validate(data, RECORD_SCHEMA)
    assert len(data["hands"]) == 30
    assert [p["kind"] for p in data["players"]] == ["random"] * 6
    assert data["final"]["winners"]
    assert not list(tmp_path.glob(".game.json.*")), "no temporary file is left behind"


def test_watch_serbian_seed_7_records_28_hands_with_the_trump_cycle_and_the_deal_passing_right(tmp_path: Path) -> None:
    record = tmp_path / "serbian.json"
    result = play(str(ROOT / "rulesets" / "serbian.yaml"), "--watch", "--seed", "7", "--record", str(record))
    assert result.exit_code == 0, result.output
    hands = json.loads(record.read_text(encoding="utf-8"))["hands"]
    assert [h["cards"] for h in hands] == [*range(13, 1, -1), 1, 1, 1, 1, *range(2, 14)]
    cycle = ["spades", "diamonds", "hearts", "clubs", None]
    assert [h["trump"] for h in hands] == [cycle[i % 5] for i in range(28)]
    for before, after in zip(hands, hands[1:]):
        assert after["dealer"] == (before["dealer"] - 1) % 4, "the deal passes to the right"
    for h in hands:
        assert h["tricks"][0]["leader"] == (h["dealer"] - 1) % 4, "the player right of the dealer leads"


def test_the_same_seed_prints_the_same_game() -> None:
    first = play("oh-hell", "--watch", "--seed", "11", "--players", "7")
    second = play("oh-hell", "--watch", "--seed", "11", "--players", "7")
    assert first.exit_code == second.exit_code == 0
    assert first.stdout == second.stdout


# ---------------------------------------------------------------- refusals before the game


def test_without_a_terminal_on_standard_input_play_says_so_and_exits_2() -> None:
    result = play("serbian", "--seed", "1", input="3\n")
    assert result.exit_code == 2
    assert "not a terminal" in result.stderr and "--watch" in result.stderr
    assert "Hand 1" not in result.stdout


@pytest.mark.parametrize(
    ("options", "said"),
    [
        (["serbian", "--players", "3"], "4 to 6 players, not 3"),
        (["romanian", "--players", "7"], "3 to 6 players, not 7"),
        (["serbian", "--bots", "nosuch"], "unknown computer player 'nosuch'"),
        (["serbian", "--bots", "random,random"], "--bots"),
        (["serbian", "--names", "A,B,C"], "3 names for 4 players"),
        (["serbian", "--names", "A,B,A,C"], "different name"),
        (["serbian", "--names", "A,,B,C"], "empty entry"),
        (["serbian", "--seat", "4"], "--seat"),
        (["serbian", "--first-dealer", "-1"], "--first-dealer"),
        (["no-such-ruleset"], "no such ruleset"),
        (["serbian", "--players", "many"], "--players"),
    ],
)
def test_bad_options_are_refused_with_a_message_and_exit_2(options: list[str], said: str) -> None:
    result = play(*options, "--watch")
    assert result.exit_code == 2, result.output
    assert said in result.output
    assert "Traceback" not in result.output


def test_a_record_that_cannot_be_written_is_refused_before_the_game(tmp_path: Path) -> None:
    result = play("serbian", "--watch", "--record", str(tmp_path / "missing-dir" / "game.json"))
    assert result.exit_code == 2
    assert "--record" in result.stderr
    assert "Hand 1" not in result.stdout


# ---------------------------------------------------------------- a person at a terminal


#: A prompt, at the start of a line: line editing may draw a prompt again on its own line (with
#: the answer typed so far), and that is not a new prompt
PROMPT = re.compile(r"^(Your bid|Your card|Press Enter to play your card|Hand \d+ is over; press Enter \(or type help\)): ", re.M)
#: The numbers in /proc/PID/syscall of read() and of the select() calls that wait for a file to be
#: readable (line editing waits in one of them), by machine (x86_64, i386, arm64 and the generic table).
READ_SYSCALL = {"x86_64": 0, "i386": 3, "i686": 3, "aarch64": 63, "arm64": 63, "riscv64": 63}.get(os.uname().machine, 63)
SELECT_SYSCALLS = {"x86_64": {23, 270}, "i386": {82, 142, 308}, "i686": {82, 142, 308}}.get(os.uname().machine, {72})
#: The number of wait4() (how Python waits for a child on Linux), where it is known.
WAIT_SYSCALL = {"x86_64": 61, "aarch64": 260, "arm64": 260, "riscv64": 260}.get(os.uname().machine)
#: What a person does not see: control sequences (`\x1b[` ... and a final character from `@` to
#: `~`: colours, and line editing's cursor moves and inserted blanks), a terminal title, CR
ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07]*\x07|\r")


class Terminal:
    """`whistdsl play ...` in a pseudo-terminal: wait for text, type lines, read the exit code."""

    def __init__(
        self,
        *args: str,
        cwd: Path,
        columns: int = 160,
        env: dict[str, str | None] | None = None,
        nohup: Path | None = None,
        program: list[str] | None = None,
    ):
        """`nohup`: as `nohup` starts a command, hang-ups ignored and standard error into this file.
        `program`: the command line before `args`, as a shell runs it (found on `env`'s PATH);
        by default `python -m whistdsl play`."""
        # PAGER=cat: a text longer than the screen is printed, not paged (as git's tests set GIT_PAGER)
        # INPUTRC: line editing as it comes, whatever the person running the tests has set up
        env = {**os.environ, "COLUMNS": str(columns), "LINES": "50", "TERM": "xterm-256color", "PAGER": "cat", "INPUTRC": os.devnull, **(env or {})}
        env = {name: value for name, value in env.items() if value is not None and name != "NO_COLOR"}  # None: unset
        self.columns = columns
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: the command, with the pseudo-terminal as its terminal
            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 50, columns, 0, 0))  # the window's size too
            os.chdir(cwd)
            # a test run started in the background by a shell ignores Ctrl-C, and a child would
            # inherit that (Python then installs no KeyboardInterrupt): give the command the default
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            if nohup is not None:
                signal.signal(signal.SIGHUP, signal.SIG_IGN)
                os.dup2(os.open(nohup, os.O_WRONLY | os.O_CREAT | os.O_TRUNC), 2)
            command = program or [sys.executable, "-m", "whistdsl", "play"]
            os.execvpe(command[0], [*command, *args], env)
        self.raw = b""
        self.output = ""
        self.seen = 0
        self.status: int | None = None

    def _read(self, timeout: float) -> bool:
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return True
        try:
            chunk = os.read(self.fd, 65536)
        except OSError:  # the child has gone and the terminal is closed
            return False
        if not chunk:
            return False
        self.raw += chunk  # decoded whole each time: a chunk may end inside a character or an escape
        # as a person reads it: the no-break spaces that keep a list's items whole are spaces
        self.output = ANSI.sub("", self.raw.decode("utf-8", errors="replace")).replace("\u00a0", " ")
        return True

    def expect(self, text: str, timeout: float = 20) -> str:
        """Wait until `text` appears after what was already expected; return the output up to it."""
        deadline = time.monotonic() + timeout
        while text not in self.output[self.seen :]:
            if time.monotonic() > deadline or not self._read(0.2):
                raise AssertionError(f"{text!r} never came; the terminal shows:\n{self.output[-3000:]}")
        at = self.output.index(text, self.seen) + len(text)
        before, self.seen = self.output[self.seen : at], at
        return before

    def prompt(self, timeout: float = 20) -> str:
        """Wait for the next prompt; return what was shown since the last one (the prompt included)."""
        deadline = time.monotonic() + timeout
        while not PROMPT.search(self.output, self.seen):
            if time.monotonic() > deadline or not self._read(0.2):
                raise AssertionError(f"no prompt came; the terminal shows:\n{self.output[-3000:]}")
        at = PROMPT.search(self.output, self.seen).end()  # type: ignore[union-attr]
        before, self.seen = self.output[self.seen : at], at
        return before

    @property
    def said(self) -> str:
        """The output with every run of white space as one space: the table wraps its lines at
        words to the terminal's width."""
        return " ".join(self.output.split())

    def type(self, line: str) -> None:
        os.write(self.fd, (line + "\n").encode("utf-8"))

    def wait_until_reading(self, timeout: float = 20) -> None:
        """Wait until the command is blocked reading its terminal, not merely about to.

        A prompt on the screen is not enough: between printing it and entering read(), a
        signal is taken by Python's handler but read() then blocks anyway (the handler runs
        only once read() returns), so a Ctrl-C sent in that window is not seen until Enter.
        Linux says which system call a sleeping process is in: wait for read() on fd 0, or (line
        editing, readline) for select() on fd 0 alone (its first argument, the number of files, 1).
        """
        self._wait_until_in({READ_SYSCALL: 0, **dict.fromkeys(SELECT_SYSCALLS, 1)}, "waited for input", timeout)

    def wait_until_waiting_for_a_child(self, timeout: float = 20) -> None:
        """Wait until the command is blocked waiting for a process it started (the pager) to end."""
        if WAIT_SYSCALL is None:
            pytest.skip(f"the number of wait4() on {os.uname().machine} is not known here")
        self._wait_until_in({WAIT_SYSCALL: None}, "waited for a process it started", timeout)

    def _wait_until_in(self, calls: dict[int, int | None], what: str, timeout: float) -> None:
        """Wait until the command is in one of the system calls `calls` names by number (with the
        first argument given there, unless None)."""
        syscall = Path(f"/proc/{self.pid}/syscall")
        if not syscall.exists():
            pytest.skip("needs /proc/PID/syscall (Linux) to know the command is blocked in a system call")
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            fields = syscall.read_text().split()
            number = int(fields[0]) if len(fields) > 1 and fields[0].isdigit() else None
            if number in calls and (calls[number] is None or int(fields[1], 16) == calls[number]):
                return
            self._read(0.01)  # keep draining the screen meanwhile
        raise AssertionError(f"the command never {what}; the terminal shows:\n{self.output[-3000:]}")

    def send(self, raw: bytes) -> None:
        os.write(self.fd, raw)

    def wait(self, timeout: float = 20) -> int:
        """The exit code, once the command has ended (reading all it says meanwhile)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self._read(0.1)
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                while self._read(0.05) and select.select([self.fd], [], [], 0)[0]:
                    pass
                self.status = os.waitstatus_to_exitcode(status)
                return self.status
        raise AssertionError(f"the command did not end; the terminal shows:\n{self.output[-3000:]}")

    def hang_up(self, timeout: float = 20) -> int:
        """Close the terminal, as when its window is closed; the command's exit code."""
        os.close(self.fd)
        self.fd = -1
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.status = os.waitstatus_to_exitcode(status)
                return self.status
            time.sleep(0.05)
        raise AssertionError("the command did not end when its terminal hung up")

    def close(self) -> None:
        if self.status is None:
            try:
                os.kill(self.pid, signal.SIGKILL)
                os.waitpid(self.pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass
        if self.fd >= 0:
            os.close(self.fd)


@pytest.fixture
def terminal(tiny: Path) -> Iterator[callable]:
    opened: list[Terminal] = []

    def start(*options: str, columns: int = 160, env: dict[str, str | None] | None = None) -> Terminal:
        t = Terminal(str(tiny), "--seat", str(YOU), "--bots", "random", *options, cwd=tiny.parent, columns=columns, env=env)
        opened.append(t)
        return t

    yield start
    for t in opened:
        t.close()


def bots_until_you(game: Game) -> None:
    """Let the computer seats act, exactly as the command does, until it is your turn."""
    bot = RandomPlayer()
    while not game.over and game.to_act != YOU:
        game.act(decide(game, bot))


def a_seed_where(tiny: Path, fits) -> tuple[int, Game]:
    """The first seed whose game, played by the engine up to your first card, `fits`."""
    rules = load_rules(tiny)
    for seed in range(500):
        game = Game(rules, 4, seed=seed)
        bots_until_you(game)
        if fits(game):
            return seed, game
    raise AssertionError("no seed sets up the situation")


def hook_then_legal(game: Game) -> tuple[int, int] | None:
    """(the hook value, a legal bid) when you bid last and the hook forbids one of several bids."""
    forbidden, legal = game.forbidden_bids(), game.legal_actions()
    if len(forbidden) == 1 and len(legal) > 1:
        return forbidden[0], legal[0]
    return None


def test_a_hook_bid_and_garbage_are_refused_with_a_reason_then_a_legal_bid_is_accepted(tiny: Path, terminal) -> None:
    seed, game = a_seed_where(tiny, hook_then_legal)
    hook, legal = hook_then_legal(game)  # type: ignore[misc]
    t = terminal("--seed", str(seed))
    shown = t.expect("Your bid: ")
    assert f"You may bid 0 to 5, but not {hook}: the bids would add up to the hand size" in shown
    assert "Your hand: " in shown
    t.type(str(hook))
    assert "the bids would add up to" in t.expect("Your bid: ")
    t.type("lots")
    assert "'lots' is not a bid" in t.expect("Your bid: ")
    t.type("6")
    assert "A bid is a whole number from 0 to 5" in t.expect("Your bid: ")
    t.type("?")
    assert f"but not {hook}: the bids would add up" in t.expect("Your bid: "), "? shows the table again"
    t.type(str(legal))
    t.expect(f"You bid {legal}.")
    t.expect("Bids: ")
    assert "Traceback" not in t.output


def first_card_situation(game: Game):
    """At your first card: (a card of another suit while you can follow, a card you do not hold,
    a legal card), when you hold the led suit and another suit."""
    if game.phase != "bidding" or hook_then_legal(game) is None:
        return None
    game.bid(game.legal_actions()[0])
    bots_until_you(game)
    view = game.view(YOU)
    if not view.trick or view.hand is None:
        return None
    led = view.trick[0][1] >> 4
    off_suit = [c for c in view.hand if c >> 4 != led and c not in view.legal]
    if not off_suit or not view.legal:
        return None
    not_held = next(c for c in game.deck if c not in view.hand and c not in [c for _, c in view.trick])
    return off_suit[0], not_held, view.legal[0]


def test_an_illegal_card_is_refused_with_a_reason_then_a_legal_card_is_accepted(tiny: Path, terminal) -> None:
    seed, _ = a_seed_where(tiny, lambda g: first_card_situation(g) is not None)
    game = Game(load_rules(tiny), 4, seed=seed)
    bots_until_you(game)
    bid = game.legal_actions()[0]
    off_suit, not_held, legal = first_card_situation(game)  # type: ignore[misc]
    t = terminal("--seed", str(seed))
    t.expect("Your bid: ")
    t.type(str(bid))
    t.expect("Your card: ")
    t.type(card_text(off_suit).lower())
    assert "You must follow suit" in t.expect("Your card: ")
    t.type(card_text(not_held))
    assert f"You do not hold {card_text(not_held)}" in t.expect("Your card: ")
    t.type("the best one")
    assert "is not a card" in t.expect("Your card: ")
    t.type(card_text(legal))
    t.expect("You played ")
    assert "Traceback" not in t.output


LEFT, UP, DELETE = "\x1b[D", "\x1b[A", "\x1b[3~"  # the keys as a terminal sends them


def test_at_a_terminal_the_arrow_keys_edit_the_answer_and_bring_back_the_answers_before(tiny: Path, terminal) -> None:
    seed, game = a_seed_where(tiny, hook_then_legal)
    _, legal = hook_then_legal(game)  # type: ignore[misc]
    t = terminal("--seed", str(seed))
    t.expect("Your bid: ")
    t.type("she\t")  # Tab completes a command
    t.expect("bid / running total")
    t.expect("Your bid: ")
    t.type(UP)  # the answer before, again: the sheet again
    t.expect("bid / running total")
    t.expect("Your bid: ")
    t.type(f"x{legal}{LEFT}{LEFT}{DELETE}")  # a slip of the finger, mended: left twice, delete the x
    t.expect(f"You bid {legal}.")
    assert "is not a bid" not in t.output
    assert "Traceback" not in t.output


def test_without_a_terminal_a_prompt_is_a_plain_line_and_line_editing_is_not_loaded(tmp_path: Path) -> None:
    program = (
        "import sys\n"
        "from rich.console import Console\n"
        "from rich.text import Text\n"
        "from whistdsl.cli.prompt import asker\n"
        "answer = asker(Console(force_terminal=True))(Text('Your bid: ', style='bold'), ['help'])\n"
        "print(repr(answer), 'readline' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", program], input="3\n", capture_output=True, text=True, cwd=tmp_path, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "Your bid: " in done.stdout and done.stdout.endswith("'3' False\n"), done.stdout
    assert "\x01" not in done.stdout and "\x02" not in done.stdout


def test_end_of_input_at_a_prompt_stops_cleanly_with_exit_1(terminal) -> None:
    t = terminal("--seed", "1")
    t.expect("Your bid: ")
    t.send(b"\x04")  # Ctrl-D: end of input
    assert t.wait() == 1, t.output[-3000:]
    assert "game stopped: end of input, after 0 complete hands" in t.output
    assert "Traceback" not in t.output


def inputs_for_the_whole_game(tiny: Path, seed: int) -> list[str]:
    """Your answers, in order, for a whole game: the first legal bid or card; Enter on the forehead,
    and Enter at the end of every hand but the last."""
    game = Game(load_rules(tiny), 4, seed=seed)
    answers = []
    while True:
        hands = len(game.history)
        bots_until_you(game)
        if len(game.history) > hands and not game.over:
            answers.append("")  # the hand ended with a computer player's card: the pause
        if game.over:
            return answers
        if game.phase == "bidding":
            answers.append(str(game.legal_actions()[0]))
            game.bid(game.legal_actions()[0])
        elif not game.can_see_own_hand(YOU):
            answers.append("")
            game.play(None)
        else:
            answers.append(card_text(game.legal_actions()[0]))
            game.play(game.legal_actions()[0])
        if len(game.history) > hands and not game.over:
            answers.append("")  # the hand ended with your card: the pause


def test_ctrl_c_stops_with_exit_130_and_the_record_holds_every_complete_hand(tiny: Path, terminal, tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    seed = 5
    first_hand = 1 + 5 + 1  # your bid, five cards and Enter at the end of the hand
    t = terminal("--seed", str(seed), "--record", str(record))
    for answer in inputs_for_the_whole_game(tiny, seed)[:first_hand]:
        t.prompt()
        t.type(answer)
    assert "Hand 2 of 3" in t.prompt()
    t.wait_until_reading()  # a Ctrl-C just before the read would wait for Enter: no race
    t.send(b"\x03")  # Ctrl-C
    assert t.wait() == 130, t.output[-3000:]
    assert "game stopped: interrupted (Ctrl-C), after 1 complete hand." in t.said
    assert f"The record {record} holds every complete hand" in t.said
    assert "Traceback" not in t.output
    data = json.loads(record.read_text(encoding="utf-8"))
    jsonschema.validate(data, RECORD_SCHEMA)
    assert len(data["hands"]) == 1 and "final" not in data
    assert data["players"][YOU]["kind"] == "human"


def test_a_whole_game_at_the_terminal_plays_forehead_and_blind_hands_and_ends_with_the_sheet(tiny: Path, terminal) -> None:
    seed = 2
    t = terminal("--seed", str(seed), "--names", "Ana,Ben,Cy,Dan")
    seen = set()
    for answer in inputs_for_the_whole_game(tiny, seed):
        shown = t.prompt()
        if "Forehead hand" in shown and shown.endswith("Your bid: "):
            assert "Your card is on your forehead. You see: Ben " in shown
            assert "Your hand" not in shown.split("Hand 2 of 3")[-1]
            seen.add("forehead bid")
        if shown.endswith("Press Enter to play your card: "):
            seen.add("forehead card")
        if "NV hand" in shown and shown.endswith("Your bid: "):
            assert "You bid blind" in shown and "Your hand" not in shown.split("Hand 3 of 3")[-1]
            seen.add("blind bid")
        t.type(answer)
    assert seen == {"forehead bid", "forehead card", "blind bid"}
    assert t.wait() == 0, t.output[-3000:]
    assert re.search(r"^Winners?( \(tied\))?: .*\(-?\d+\)", t.output, re.M)
    assert re.search(r"^ *3 +2 NV ", t.output, re.M), "the blind hand's row is marked NV"
    assert re.search(r"^ *2 +1 FH ", t.output, re.M), "the forehead hand's row is marked FH (its kind has no mark)"
    assert "Traceback" not in t.output


# ---------------------------------------------------------------- the pause and the commands


def test_the_end_of_a_hand_waits_for_enter_and_commands_at_any_prompt_show_the_tricks_the_sheet_and_the_rules(tiny: Path, terminal) -> None:
    seed = 5
    answers = inputs_for_the_whole_game(tiny, seed)
    t = terminal("--seed", str(seed))
    for answer in answers[: 1 + 5]:  # your bid and five cards
        t.prompt()
        t.type(answer)
    shown = t.prompt()
    assert shown.endswith("Hand 1 is over; press Enter (or type help): ")
    assert "Hand 1, taken/bid: " in shown and "Hand 2 of 3" not in shown, "the next deal waits"
    assert re.search(r"^ *1 +5 ", shown, re.M), "the sheet so far comes before the pause"
    t.type("last")
    last = t.prompt()
    assert "The last trick (hand 1, trick 5, led by " in last
    assert len(re.findall(r"^ +5  .* -> ", last, re.M)) == 1
    t.type("sheet")
    assert re.search(r"^ *1 +5 ", t.prompt(), re.M)
    t.type("rules")
    rules = t.prompt()
    assert "Tiny whist" in rules and "three short hands" in rules
    assert "The next hand: 1 card, a forehead hand" in rules
    t.type("what")
    assert "'what' is not a command: press Enter for the next hand" in t.prompt()
    t.type("")
    shown = t.prompt()
    assert "Hand 2 of 3" in shown and shown.endswith("Your bid: ")
    t.type("tricks")
    tricks = t.prompt()
    assert "The tricks of hand 1, in order" in tricks, "before a trick of this hand, the last hand's"
    assert [int(n) for n in re.findall(r"^ +(\d)  .* -> ", tricks, re.M)] == [1, 2, 3, 4, 5]
    t.type("help")
    helped = t.prompt()
    for command in ("last", "tricks", "sheet", "rules", "help"):
        assert re.search(rf"^  {command} +\S", helped, re.M), command
    assert "Your card is on your forehead. You see: " in helped, "help shows the table again"
    t.type("?")
    assert "Commands at any prompt:" in t.prompt()
    assert "Traceback" not in t.output


def test_rules_longer_than_the_terminal_are_paged_and_the_prompt_comes_back(tiny: Path, terminal) -> None:
    # the pager: each line it is given marked, so that the test sees it was paged (the rules of
    # Tiny whist at 160 columns are longer than the terminal's 50 lines)
    t = terminal("--seed", "5", env={"PAGER": "sed 's/^/paged| /'"})
    t.prompt()
    t.type("rules")
    shown = t.prompt()
    assert "paged| Tiny whist" in shown and "paged| The next hand: " not in shown
    assert re.search(r"^paged\| This hand: 5 cards", shown, re.M), "the whole text goes to the pager (hand 1 deals 5 cards)"
    assert shown.endswith("Your bid: "), "then the prompt comes back"
    t.type("help")
    assert "paged|" not in t.prompt(), "a text that fits is printed"
    assert "Traceback" not in t.output


def test_without_a_pager_named_the_rules_go_to_less_in_colour_and_stay_on_the_screen(tiny: Path, terminal) -> None:
    """No PAGER: less, with LESS=FRX (colours shown, the text left on the screen when less quits)
    unless the person has set LESS. The `less` here notes what it was given."""
    bin_dir = tiny.parent / "bin"
    bin_dir.mkdir()
    less = bin_dir / "less"
    less.write_text(f'#!/bin/sh\nprintf %s "${{LESS-unset}}" > {less}.LESS\ncat > {less}.text\necho "less showed it"\n', encoding="utf-8")
    less.chmod(0o755)
    path = f"{bin_dir}{os.pathsep}{os.environ['PATH']}"
    for given, seen in ((None, "FRX"), ("-S", "-S")):
        t = terminal("--seed", "5", env={"PAGER": None, "LESS": given, "PATH": path})
        t.prompt()
        t.type("rules")
        shown = t.prompt()
        assert "less showed it" in shown and shown.endswith("Your bid: "), shown
        assert (bin_dir / "less.LESS").read_text(encoding="utf-8") == seen
        paged = (bin_dir / "less.text").read_text(encoding="utf-8")
        assert "Tiny whist" in paged and "\x1b[1m" in paged, "the rules, in their colours"
        assert "Tiny whist" not in shown, "shown by the pager, not printed as well"


def test_ctrl_c_in_the_pager_is_the_pagers_and_the_game_goes_on(tiny: Path, terminal) -> None:
    """Ctrl-C while the pager shows the rules goes to the whole terminal's group, whistdsl too (a
    pager such as less takes it for itself): the game goes on once the pager ends. The pager here
    ignores Ctrl-C and ends on a line typed at the terminal."""
    pager = tiny.parent / "pager"
    pager.write_text('#!/bin/sh\ntrap "" INT\ncat > /dev/null\necho "pager waits"\nread line < /dev/tty\necho "pager done"\n', encoding="utf-8")
    pager.chmod(0o755)
    t = terminal("--seed", "5", env={"PAGER": str(pager)})
    t.prompt()
    t.type("rules")
    t.expect("pager waits")  # it has read the whole text, and ignores Ctrl-C
    t.wait_until_waiting_for_a_child()  # and whistdsl waits for it to end: the Ctrl-C comes now
    t.send(b"\x03")
    t.type("")
    shown = t.prompt()
    assert "pager done" in shown and shown.endswith("Your bid: "), shown
    assert "interrupted" not in t.output and "Traceback" not in t.output


@pytest.mark.parametrize("pager", ["/no/such/pager", "less 'unbalanced", "not-a-program"])
def test_a_pager_that_cannot_run_leaves_the_rules_printed(tiny: Path, terminal, pager: str) -> None:
    """A PAGER that is not found, not a command line, or not a program: the rules are printed."""
    if pager == "not-a-program":  # executable, but neither a binary nor a script
        pager = str(tiny.parent / pager)
        Path(pager).write_bytes(b"\x00\x01 not a program\n")
        Path(pager).chmod(0o755)
    t = terminal("--seed", "5", env={"PAGER": pager})
    t.prompt()
    t.type("rules")
    shown = t.prompt()
    assert "Tiny whist" in shown and re.search(r"^This hand: 5 cards", shown, re.M), shown
    assert shown.endswith("Your bid: ") and "Traceback" not in t.output


def test_a_watched_game_never_waits(tiny: Path) -> None:
    result = play(str(tiny), "--watch", "--seed", "5")
    assert result.exit_code == 0, result.output
    assert "is over; press Enter" not in result.stdout


# ---------------------------------------------------------------- narrow terminals

LONG_NAMES = ["Bartholomew", "Christabella", "Maximiliane", "Konstantinos"]


@pytest.mark.parametrize("columns", [60, 80])
def test_at_a_narrow_terminal_every_line_fits_and_words_and_numbers_are_never_cut(tiny: Path, terminal, columns: int) -> None:
    seed = 2
    t = terminal("--seed", str(seed), "--names", ",".join(LONG_NAMES), columns=columns)
    for answer in inputs_for_the_whole_game(tiny, seed):
        t.prompt()
        t.type(answer)
    assert t.wait() == 0, t.output[-3000:]
    lines = t.output.splitlines()
    too_wide = [line for line in lines if len(line) > columns]
    assert not too_wide, f"lines wider than {columns} columns: {too_wide[:3]}"
    for name in LONG_NAMES:
        for k in range(1, len(name)):
            assert f"{name[:k]}\n{name[k:]}" not in t.output, f"{name} cut at the screen's edge"
    for name in [*LONG_NAMES, "You"]:  # a list's item stays whole: `Maximiliane 1/2`, `You 0`
        found = re.search(rf"{name} *\n(\d+/\d+|\d+[,)])", t.output)
        assert not found, f"{name} parted from its number at the end of a line: {t.output[found.start() - 200 : found.end() + 50]!r}"
    final = t.output[[m.start() for m in re.finditer(r"^Tiny whist *$", t.output, re.M)][-1] :]
    rows = re.findall(r"^ *3 +2 NV .*$", final, re.M)
    assert rows, "the last sheet has the last hand's row"
    assert "\u2026" not in final, "nothing on the sheet is cut with an ellipsis"
    if columns == 60:
        assert all(name in final for name in LONG_NAMES[1:]), "abbreviated names are given in full under the sheet"
