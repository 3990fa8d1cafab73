"""The table manager: every table in memory, its seats, its connections, its computer players.

A `Table` holds one game at a time (rematches follow it) and a `Seat` (engine/seat.py) per seat:
the only way a person's answer reaches the engine. Every change happens on the event loop's
thread, so a table needs no lock: an answer is checked by its seat and written to the database
(web/store.py), and the table is marked changed. Once a turn of the event loop, `Tables.flush`
commits every write of that turn in one transaction and only then sends each changed table's
connections their new frames, each built from its receiver's own view (the parts every receiver
shares, the sheet and the last hand, are encoded once). So no frame shows an answer that is not
kept, and a busy server commits once for many answers rather than once for each.

Computer players answer from their seat's view, each with a generator of its own (the game's is
the engine's alone, so a table is rebuilt exactly from its seed and answers). A player that
answers at once (players/base.py `quick`: `random`, `heuristic`) is asked on the event loop; one
that thinks (`mc`, `search`) in a thread pool, from a snapshot of its view, so the loop goes on
answering other tables meanwhile.

A connection keeps at most one frame waiting (a newer state replaces an older one: a frame is
the whole state), so a slow page costs a frame's memory, not a queue without end.

Nothing grows without end: a server holds at most `Limits.tables` open tables; a table nobody
is at and nothing has happened at for `Limits.close_after` is closed (`close_abandoned`): it
leaves memory, and its games' records stay downloadable by its links (the game in play's record
holds its finished hands); of the closed tables the newest `Limits.closed_tables` are kept, and
a table keeps its newest `Limits.games_per_table` games as rematches follow.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import random
import secrets
import time
from collections import Counter, OrderedDict, deque
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from ..engine.game import Game, IllegalAction, RuleError
from ..engine.seat import NotYourTurn, Seat, spectator_view
from ..players.base import Player, quick
from ..players.bots import BOTS, make_bot
from ..printable import UNSAFE
from ..records.record import exact, game_record, record_text
from ..rules.ruleset import Ruleset
from ..words import Words
from .protocol import encoded, frame_text, last_hand_json, question_json, sheet_json, state_text, view_text
from .store import Store, StoredSeat, StoredTable

HUMAN = "human"
#: A token's random bytes (secrets.token_urlsafe): 192 bits.
TOKEN_BYTES = 24


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def token_role(token: str, seat_hashes: list[str | None], host_hash: str, watch: str) -> tuple[str, int | None] | None:
    """Whose `token` is at a table of these keys: (`seat`, its number), (`watch`, None) or
    (`host`, None); None for any other. Compared on hashes, in constant time."""
    hashed = token_hash(token)
    for seat, held in enumerate(seat_hashes):
        if held is not None and hmac.compare_digest(held, hashed):
            return "seat", seat
    if hmac.compare_digest(host_hash, hashed):
        return "host", None
    if hmac.compare_digest(watch.encode(), token.encode("utf-8", "replace")):
        return "watch", None
    return None


@dataclass(frozen=True)
class Limits:
    """What one server, table and client may hold (docs/serve.md, "Security")."""

    tables: int = 500
    connections_per_table: int = 64
    connections_per_client: int = 64
    messages_per_second: float = 10.0
    burst: int = 20
    name_length: int = 40
    frames_waiting: int = 8  # error frames kept for a slow page beside its latest state
    close_after: float = 24 * 3600.0  # seconds with nobody at a table and nothing played before it is closed
    closed_tables: int = 200  # closed tables kept (the newest), with their games' records
    games_per_table: int = 20  # a table's games kept (the newest) as rematches follow
    rulesets_per_minute: float = 10.0  # rulesets one client address may have linted (to see or open a table)
    rulesets_burst: int = 10
    tables_per_hour: float = 30.0  # tables one client address may open
    tables_burst: int = 10
    addresses: int = 10_000  # client addresses whose allowances are remembered (the longest idle forgotten first)


class Allowance:
    """A token bucket: at most `rate` a second, in bursts of `burst`, by `clock`."""

    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic):
        self.rate = rate
        self.burst = float(burst)
        self.clock = clock
        self._left = self.burst
        self._checked = clock()

    def allow(self) -> bool:
        """Whether one more may be taken now (and it is taken)."""
        now = self.clock()
        self._left = min(self.burst, self._left + max(0.0, now - self._checked) * self.rate)
        self._checked = now
        if self._left < 1:
            return False
        self._left -= 1
        return True


class Allowances:
    """An `Allowance` per client address, for at most `size` addresses: the one idle longest is
    forgotten first (it starts again with a full bucket), so a flood of addresses holds bounded memory."""

    def __init__(self, rate: float, burst: int, size: int, clock: Callable[[], float] = time.monotonic):
        self.rate, self.burst, self.size, self.clock = rate, burst, size, clock
        self._by_address: OrderedDict[str, Allowance] = OrderedDict()

    def allow(self, address: str) -> bool:
        allowance = self._by_address.pop(address, None) or Allowance(self.rate, self.burst, self.clock)
        self._by_address[address] = allowance
        while len(self._by_address) > self.size:
            self._by_address.popitem(last=False)
        return allowance.allow()

    def __len__(self) -> int:
        return len(self._by_address)


class TableError(Exception):
    """A request the table refuses; `code` is the error frame's code, `message` its English
    words; `words` (when set) the catalogue's message id for a person (whistdsl/words/), with its
    `values`: the page says that in its own language."""

    def __init__(self, code: str, message: str, words: str = "", **values: Any):
        super().__init__(message)
        self.code = code
        self.message = message
        self.words = words
        self.values = values

    def text(self, w: Words) -> str:
        """What the refusal says in `w`'s language (its English message where the catalogue has none)."""
        return w.text(self.words, **self.values) if self.words else self.message


class Connection:
    """One open socket: who it is (`role`: seat, watch or host; `seat`), what is still to be sent
    (the latest state and a few error frames), and how fast it may send (a token bucket)."""

    def __init__(self, send: Callable[[str], Awaitable[None]], role: str, seat: int | None, client: str, limits: Limits):
        self.send = send
        self.role = role
        self.seat = seat
        self.client = client
        self.limits = limits
        self._state: str | None = None
        self._errors: deque[str] = deque(maxlen=limits.frames_waiting)
        self._wake = asyncio.Event()
        self._allowance = Allowance(limits.messages_per_second, limits.burst)
        self.closed = False

    def push_state(self, text: str) -> None:
        self._state = text
        self._wake.set()

    def push_error(self, code: str, message: str, words: str = "", values: dict[str, Any] | None = None) -> None:
        """An error frame; `words` (a catalogue id) and its `values` let the page say it in its language."""
        frame: dict[str, Any] = {"type": "error", "code": code, "message": message}
        if words:
            frame.update(words=words, values=values or {})
        self._errors.append(frame_text(frame))
        self._wake.set()

    def allow(self) -> bool:
        """Whether one more message may be taken now (at most `messages_per_second`, in bursts of `burst`)."""
        return self._allowance.allow()

    def finish(self) -> None:
        """Send what is waiting, then stop sending (the socket is to be closed)."""
        self.closed = True
        self._wake.set()

    async def run_sender(self) -> None:
        """Send what is waiting, in order (errors, then the latest state), until `finish`."""
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._errors or self._state is not None:
                if self._errors:
                    text = self._errors.popleft()
                else:
                    text, self._state = self._state, None  # type: ignore[assignment]  # the loop runs while the state is not None
                await self.send(text)
            if self.closed:
                return


@dataclass
class SeatHolder:
    """Who holds a seat: a person (`kind` human) or a computer player of `kind`; `person` when it
    is a person's seat (handed to a computer player for now when `kind` is not human)."""

    seat: int
    kind: str
    person: bool
    name: str
    token_hash: str | None
    player: Player | None = None
    rng: random.Random | None = None

    def stored(self) -> StoredSeat:
        return StoredSeat(self.seat, self.kind, self.person, self.name, self.token_hash)


def bot_question(game: Game, seat: int, player: Player) -> tuple[Any, list | None]:
    """What a computer player is given to answer (players/base.py `decide`): its seat's view
    (None to a player that observes nothing) and its legal actions, as copies it may keep."""
    if not player.observes:
        if game.phase == "bidding":
            return None, list(game.legal_bids())
        if game.phase == "decision":
            return None, list(game.decision_options())
        return None, list(game.legal_cards()) if game.can_see_own_hand(seat) else None
    view = game.view(seat)
    return view, list(view.legal) if view.legal is not None else None


class Table:
    """One table: its ruleset, seats and current game (see the module's docstring)."""

    def __init__(
        self,
        manager: Tables,
        table_id: str,
        rules: Ruleset,
        holders: list[SeatHolder],
        host_hash: str,
        invite: str,
        watch: str,
        think: float,
        number: int,
        game: Game,
    ):
        self.manager = manager
        self.id = table_id
        self.rules = rules
        self.holders = holders
        self.host_hash = host_hash
        self.invite = invite
        self.watch = watch
        self.think = think
        self.number = number  # the game's number at this table (1, then rematches)
        self.game = game
        self.seats = [Seat(game, s) for s in range(game.players)]
        self.step = 0  # answers applied in this game
        self.connections: set[Connection] = set()
        self.problem = ""  # why the table cannot go on (a rule error, a failed write)
        self._bot: asyncio.Handle | asyncio.Future | None = None  # a computer player asked, not yet answered
        self._shared: tuple[tuple[int, int], str, str] | None = None  # (game, hands), the sheet's and last hand's JSON
        self._seating: tuple[tuple, str] | None = None  # who sits where and is here, and its JSON
        self.active = manager.clock()  # when something last happened here (an answer, someone came or left)
        for holder in holders:
            self._seat_player(holder)

    # -- who is who

    def _seat_player(self, holder: SeatHolder) -> None:
        if holder.kind == HUMAN:
            holder.player, holder.rng = None, None
            return
        holder.player = make_bot(holder.kind, think=self.think) if holder.kind in BOTS else make_bot("random")
        holder.rng = random.Random(f"{self.id}:{self.number}:{holder.seat}:{self.step}")

    def role_of(self, token: str) -> tuple[str, int | None] | None:
        """(`seat`, its number), (`watch`, None) or (`host`, None) for a token; None for any other."""
        return token_role(token, [h.token_hash for h in self.holders], self.host_hash, self.watch)

    def kinds(self) -> list[str]:
        return [h.kind for h in self.holders]

    # -- what each connection is sent

    def changed(self) -> None:
        """Every connection gets a new frame once this turn's writes are committed (`Tables.flush`)."""
        self.active = self.manager.clock()
        self.manager.changed(self)

    def send_frames(self) -> None:
        """Every connection's frame of the state now. The view and question are each receiver's
        own (a spectator's and the host's: the view of no seat); the rest is public, encoded once
        for every receiver, and the sheet, the last hand and the seats again only once changed."""
        if not self.connections:
            return
        game = self.game
        key = (self.number, len(game.history))
        if self._shared is None or self._shared[0] != key:
            last = game.history[-1] if game.history else None
            self._shared = (key, encoded(sheet_json(game.history, game.players)), encoded(last_hand_json(last)))
        _, sheet, last_hand = self._shared
        here = {c.seat for c in self.connections}
        seating = (
            game.scheduled_hands,
            self.problem,
            tuple((h.name, h.kind, h.person, h.token_hash is not None, h.seat in here) for h in self.holders),
        )
        if self._seating is None or self._seating[0] != seating:
            self._seating = (
                seating,
                encoded(
                    {
                        "id": self.id,
                        "ruleset": self.rules.name,
                        "hands": game.scheduled_hands,
                        "seats": [
                            {
                                "seat": h.seat,
                                "name": h.name,
                                "kind": h.kind,
                                "person": h.person,
                                "taken": h.token_hash is not None,
                                "here": h.seat in here,
                            }
                            for h in self.holders
                        ],
                        "problem": self.problem,
                    }
                ),
            )
        table = self._seating[1]
        over = encoded(None if game.result is None else {"totals": [exact(t) for t in game.result.totals], "winners": list(game.result.winners)})
        seen: dict[int | None, tuple[str, str]] = {}  # by seat (None: no seat), its view and question
        for connection in list(self.connections):
            seat = connection.seat
            if seat not in seen:
                seen[seat] = self._view_parts(seat)
            view, question = seen[seat]
            parts = [
                ("type", '"state"'),
                ("step", str(self.step)),
                ("game", str(self.number)),
                ("you", encoded(seat)),
                ("role", encoded(connection.role)),
                ("table", table),
                ("view", view),
                ("question", question),
                ("sheet", sheet),
                ("last_hand", last_hand),
                ("over", over),
            ]
            if connection.role == "host":
                parts += [
                    ("links", encoded({"invite": f"/t/{self.id}/join/{self.invite}", "watch": f"/t/{self.id}/watch/{self.watch}"})),
                    ("bots", encoded(sorted(BOTS))),
                ]
            connection.push_state(state_text(parts))

    def _view_parts(self, seat: int | None) -> tuple[str, str]:
        """The JSON of what `seat` sees (None: a spectator) and of its question."""
        if seat is None:
            return view_text(spectator_view(self.game)), "null"
        question = self.seats[seat].question() if self.holders[seat].kind == HUMAN and not self.problem else None
        return view_text(self.seats[seat].view()), encoded(question_json(question))

    # -- answers

    def answer(self, seat: int, answer: dict[str, Any], step: int) -> None:
        """A person's answer to the question of state `step`. Raises TableError and changes nothing
        when it is refused."""
        if self.problem:
            raise TableError("not_allowed", f"the table cannot go on: {self.problem}", "table.problem", problem=self.problem)
        if self.holders[seat].kind != HUMAN:
            raise TableError("not_your_turn", "a computer player holds your seat now", "error.computer_holds_seat")
        if not self.seats[seat].acts_now:
            raise TableError(
                "not_your_turn", "the game is over" if self.game.over else "it is not your turn", "" if self.game.over else "error.not_your_turn"
            )
        if step != self.step:
            raise TableError("stale", "the table has moved on since: answer the question shown now", "error.stale")
        self.apply(seat, answer)

    def apply(self, seat: int, answer: dict[str, Any]) -> None:
        """Give `answer` to the seat, keep it, tell every connection. IllegalAction and
        NotYourTurn become TableError; a rule error stops the table (`problem`)."""
        try:
            kept = self.seats[seat].answer(answer)
        except NotYourTurn as e:
            raise TableError("not_your_turn", str(e)) from None
        except IllegalAction as e:
            raise TableError("illegal", str(e), "error.illegal", reason=str(e)) from None
        except RuleError as e:
            self.problem = e.describe(list(self.game.names))
            self.changed()
            raise TableError("not_allowed", f"the table cannot go on: {self.problem}", "table.problem", problem=self.problem) from None
        self.step += 1
        store = self.manager.store
        try:
            store.answer(self.id, self.number, self.step, kept)
            if self.game.over:
                store.finish_game(self.id, self.number, record_text(game_record(self.game, self.kinds())))
        except Exception as e:  # the disk is full, the database is gone: stop here, resumable from the last answer kept
            self.not_kept(e)
        self.changed()

    def not_kept(self, error: Exception) -> None:
        """A write failed: the table stops, to go on from its last answer kept."""
        self.problem = f"the answer could not be kept ({error}); restart the server to go on from the last answer kept"

    def replay(self, answers: list[dict[str, Any]]) -> None:
        """Apply the answers kept (a server starting again), without storing or sending them."""
        for kept in answers:
            answer = {k: v for k, v in kept.items() if k != "seat"}
            try:
                self.seats[kept["seat"]].answer(answer)
            except (IllegalAction, RuleError, ValueError, KeyError, TypeError, IndexError) as e:
                self.problem = f"the answers kept do not play again ({e})"
                return
            self.step += 1

    # -- computer players

    def schedule_bot(self) -> None:
        """Ask the computer player to act, if one is to act and none is thinking: after the pause
        between computer players' moves (`--bot-pause`), counted from this change (a pause
        still running for an earlier state is cancelled: that state is gone)."""
        if isinstance(self._bot, asyncio.Handle):
            self._bot.cancel()
            self._bot = None
        game = self.game
        if self.problem or game.over or self.holders[game.seat_to_act].kind == HUMAN or self._bot is not None:
            return
        loop = asyncio.get_running_loop()
        pause = self.manager.bot_pause
        if pause:
            self._bot = loop.call_later(pause, self._bot_turn, self.step, self.number)
        else:
            self._bot = loop.call_soon(self._bot_turn, self.step, self.number)

    def _bot_turn(self, step: int, number: int) -> None:
        """The computer player to act answers: at once on the loop when it is quick, else in the
        thread pool (its answer is applied when it comes, if the table has not moved on)."""
        self._bot = None
        game = self.game
        if self.step != step or self.number != number or game.over or self.problem:
            return
        seat = game.seat_to_act
        player = self.holders[seat].player
        if player is None:
            return
        view, legal = bot_question(game, seat, player)
        rng = self.holders[seat].rng
        if quick(player):
            try:
                action = player.act(view, legal, rng)  # type: ignore[arg-type]  # a seat that has a player has its random generator
            except Exception as e:  # a computer player that fails: the table says so rather than hanging
                self._bot_failed(seat, e)
                return
            self._bot_answered(seat, action)
            return
        future = asyncio.get_running_loop().run_in_executor(self.manager.pool, player.act, view, legal, rng)  # type: ignore[arg-type]  # a bot answers the legal actions it is given: bids are numbers or calls
        self._bot = future

        def done(future: asyncio.Future) -> None:
            if future.cancelled():
                return
            self._bot = None
            if self.step != step or self.number != number or self.holders[seat].player is not player:
                self.schedule_bot()  # the table moved on (a seat handed over): ask again
                return
            error = future.exception()
            if error is not None:
                self._bot_failed(seat, error)
            else:
                self._bot_answered(seat, future.result())

        future.add_done_callback(done)

    def _bot_failed(self, seat: int, error: BaseException) -> None:
        self.problem = f"the computer player at seat {seat} failed: {error}"
        self.changed()

    def _bot_answered(self, seat: int, action: Any) -> None:
        try:
            self.apply(seat, self.seats[seat].answer_of(action))
        except TableError as e:
            if not self.problem:
                self.problem = f"the computer player at seat {seat} answered what the rules refuse: {e.message}"
                self.changed()

    # -- the host's and the seats' requests

    def hand_over(self, seat: int, to: str) -> None:
        """The host hands a person's seat to a computer player of kind `to`, or back (`person`)."""
        if not 0 <= seat < len(self.holders) or not self.holders[seat].person:
            raise TableError("not_allowed", "only a person's seat can be handed over")
        if to != "person" and to not in BOTS:
            raise TableError("bad_message", f"no computer player {to!r}; known: {', '.join(sorted(BOTS))}")
        holder = self.holders[seat]
        holder.kind = HUMAN if to == "person" else to
        self._seat_player(holder)
        self.manager.store.set_seat(self.id, holder.stored())
        self.changed()

    def rematch(self) -> None:
        """A new game at this table: the same seats and ruleset, a new deal."""
        if not self.game.over:
            raise TableError("not_allowed", "a rematch is offered once the game is over")
        game = Game(self.rules, self.game.players, names=[h.name for h in self.holders])
        self.manager.store.new_game(self.id, self.number + 1, game_record(game, self.kinds()))
        self.manager.store.prune_games(self.id, self.manager.limits.games_per_table)
        self._start(game, self.number + 1)
        self.changed()

    def _start(self, game: Game, number: int) -> None:
        self.game, self.number, self.step, self.problem = game, number, 0, ""
        self.seats = [Seat(game, s) for s in range(game.players)]
        for holder in self.holders:
            self._seat_player(holder)

    def join(self, invite: str, seat: int, name: str) -> str:
        """A person takes a free person's seat by the invite; their seat token."""
        if not hmac.compare_digest(self.invite.encode(), invite.encode("utf-8", "replace")):
            raise TableError("not_allowed", "this invite is not this table's")
        if not 0 <= seat < len(self.holders) or not self.holders[seat].person:
            raise TableError("not_allowed", "that seat is not a person's seat", "error.not_a_persons_seat")
        holder = self.holders[seat]
        if holder.token_hash is not None:
            raise TableError("not_allowed", "that seat is taken", "error.seat_taken")
        holder.name = self.manager.checked_name(name)
        token = new_token()
        holder.token_hash = token_hash(token)
        self.game.names[seat] = holder.name
        self.manager.store.set_seat(self.id, holder.stored())
        self.changed()
        self.manager.flush()  # kept before the person is sent their seat's link
        return token


class Tables:
    """Every table of a server: made, found by id, rebuilt from the store when it starts."""

    def __init__(self, store: Store, limits: Limits | None = None, bot_pause: float = 0.6, workers: int = 2):
        self.store = store
        self.clock = store.clock
        self.limits = limits or Limits()
        self.bot_pause = bot_pause
        self.pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="whistdsl-bot")
        self.tables: dict[str, Table] = {}
        self.clients: Counter[str] = Counter()
        #: per client address: rulesets linted (to see a table's form or open it), tables opened
        self.linting = Allowances(self.limits.rulesets_per_minute / 60, self.limits.rulesets_burst, self.limits.addresses, self.clock)
        self.opening = Allowances(self.limits.tables_per_hour / 3600, self.limits.tables_burst, self.limits.addresses, self.clock)
        #: compiled rulesets by their source's sha256 and parameters, shared by the tables that play them
        self._rules: dict[tuple[str, str], Ruleset] = {}
        self._changed: dict[Table, None] = {}  # tables to send new frames, in the order they changed
        self._flushing: asyncio.Handle | None = None

    def checked_name(self, name: str) -> str:
        name = " ".join(name.split())
        if not name:
            raise TableError("bad_name", "a name is needed", "error.name_needed")
        if len(name) > self.limits.name_length:
            raise TableError(
                "bad_name", f"a name is at most {self.limits.name_length} characters", "error.name_too_long", count=self.limits.name_length
            )
        if UNSAFE.search(name):
            raise TableError("bad_name", "a name may not hold control characters", "error.name_control")
        return name

    def open_table(self, rules: Ruleset, kinds: list[str], think: float = 0.5, names: list[str] | None = None) -> tuple[Table, str]:
        """A new table for `rules` with a seat per kind (`human` or a computer player's kind);
        the table and the host's token. Raises TableError when the server is full."""
        if len(self.tables) >= self.limits.tables:
            raise TableError(
                "full", f"this server holds {self.limits.tables} tables, its most; try again later", "error.full", count=self.limits.tables
            )
        unknown = [k for k in kinds if k != HUMAN and k not in BOTS]
        if unknown:
            raise TableError("bad_message", f"no computer player {unknown[0]!r}")
        names = names or [f"Seat {s + 1}" if k == HUMAN else f"{k} {s + 1}" for s, k in enumerate(kinds)]
        rules = self._rules.setdefault((rules.sha256, repr(sorted(rules.parameter_values.items()))), rules)
        game = Game(rules, len(kinds), names=list(names))  # ValueError for a table size the rules refuse
        table_id = secrets.token_urlsafe(12)
        host = new_token()
        holders = [SeatHolder(s, k, k == HUMAN, names[s], None) for s, k in enumerate(kinds)]
        table = Table(self, table_id, rules, holders, token_hash(host), new_token(), new_token(), think, 1, game)
        self.store.new_table(
            table_id, table.host_hash, table.invite, table.watch, rules.name, think, [h.stored() for h in holders], game_record(game, kinds)
        )
        self.tables[table_id] = table
        table.changed()
        self.flush()  # kept before the host is sent the table's links
        return table, host

    def changed(self, table: Table) -> None:
        """`table` has changed: its connections get new frames at the end of this turn of the loop."""
        self._changed[table] = None
        if self._flushing is None:
            self._flushing = asyncio.get_running_loop().call_soon(self.flush)

    def flush(self) -> None:
        """Commit every write since the last flush (one transaction), then send each changed
        table's connections their frames and ask its computer player to act. A failed commit
        stops every changed table (each goes on from its last answer kept once restarted)."""
        if self._flushing is not None:
            self._flushing.cancel()
            self._flushing = None
        changed, self._changed = self._changed, {}
        try:
            self.store.commit()
        except Exception as e:
            for table in changed:
                table.not_kept(e)
        for table in changed:
            table.send_frames()
            table.schedule_bot()

    def start(self) -> None:
        """Every open table of the store, where it was; then its computer players go on (a table
        abandoned meanwhile is closed)."""
        for stored in self.store.open_tables():
            table = self._rebuilt(stored)
            if table is not None:
                self.tables[table.id] = table
                table.changed()
                table.active = stored.touched
        self.close_abandoned()

    @property
    def sweep_seconds(self) -> float:
        """How often to look for abandoned tables: a tenth of `close_after`, at most 10 minutes."""
        return min(600.0, max(1.0, self.limits.close_after / 10))

    def close_abandoned(self) -> list[str]:
        """Close every table nobody is at and nothing has happened at for `close_after`, then keep
        only the newest closed tables; the tables closed."""
        now = self.clock()
        closed = [t for t in self.tables.values() if not t.connections and now - t.active >= self.limits.close_after]
        for table in closed:
            self.close(table)
        self.store.prune(self.limits.closed_tables)
        self.store.commit()
        return [t.id for t in closed]

    def close(self, table: Table) -> None:
        """Close `table`: it leaves memory; its records stay (the game in play's, so far)."""
        if table._bot is not None:
            table._bot.cancel()
            table._bot = None
        game = table.game
        record = None if game.over else record_text(game_record(game, table.kinds()))
        self.store.close_table(table.id, table.number, record)
        self.tables.pop(table.id, None)
        self._changed.pop(table, None)

    def _rebuilt(self, stored: StoredTable) -> Table | None:
        from ..records.replay import Disagreement, RecordError, record_rules, resume
        from ..rules.ruleset import SettingError

        head = stored.head
        try:
            key = (head["ruleset"]["sha256"], "")  # as the record holds it: the game's parameters are set by `resume`
            rules = self._rules.get(key)
            if rules is None:
                rules = self._rules[key] = record_rules(head)
            game = resume(head, rules)
            rules = self._rules.setdefault((rules.sha256, repr(sorted(game.rules.parameter_values.items()))), game.rules)
        except (RecordError, Disagreement, SettingError, RuleError, KeyError, TypeError, ValueError):
            return None  # a table whose head no longer compiles is left in the store, unplayed
        holders = [SeatHolder(s.seat, s.kind, s.person, s.name, s.token_hash) for s in stored.seats]
        game.names = [h.name for h in holders]
        table = Table(self, stored.id, rules, holders, stored.host_hash, stored.invite, stored.watch, stored.think, stored.game, game)
        table.replay(stored.answers)
        return table

    def stop(self) -> None:
        """The server stops: what is written is committed, no computer player is asked again."""
        if self._flushing is not None:
            self.flush()
        for table in self.tables.values():
            if table._bot is not None:
                table._bot.cancel()
        self.pool.shutdown(wait=False, cancel_futures=True)
