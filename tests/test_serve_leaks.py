"""No frame holds a card its receiver may not see: every frame each seat and a spectator receive
over whole games of eight rulesets (plain, forehead, blind hands, bids made together, Wizard,
blind bids by choice, bids made together but the last, calls in the auction) is checked against the position it was sent at.

The positions are rebuilt from the table's database (its record head and its answers, as a
restart rebuilds them), and what each receiver may know is worked out here from the rules as
the rulesets state them, not by the engine's observer: a seat knows its own cards unless the
hand is a forehead hand, a blind hand while bidding, or it chose to bid blind and has not bid
yet; the others' cards only in a forehead hand; every card played this hand; the turned card
unless trump is shown after the bidding and the bidding is on. A spectator knows the played
cards and the turned card. The last finished hand's tricks (`last_hand`) are the cards everyone
saw played. Bids made together show only the receiver's own until all have bid (all but the
last bidder, for `together: all_but_last`); the auction's calls are shown to all.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from serve_client import Server
from test_serve_protocol import play

from whistdsl.engine.cards import RANK_LETTERS, SUIT_LETTERS, card_text
from whistdsl.engine.seat import Seat
from whistdsl.records.replay import resume

RULESETS = ["romanian", "romanian-forehead", "romanian-nv", "oh-hell-simultaneous", "wizard", "oh-hell-nil"]
#: example rulesets, opened from their text: bids made together but the last, calls in the auction, a joker
EXAMPLES = Path(__file__).parent.parent / "docs" / "examples"
EXAMPLE_RULESETS = ["oh-hell-dealer-bids-last.yaml", "estimation-dash-and-double.yaml", "oh-hell-joker.yaml"]


def sees_own_cards(game, seat: int) -> bool:
    seeing = game.kind.view
    if seeing == "forehead":
        return False
    if game.phase in ("bidding", "decision"):
        if seeing == "blind":
            return False
        if game.rules.blind_bids:
            looked = [c for s, d, c in game.choices if s == seat and d == "blind"]
            return bool(looked) and (looked[-1] == "look" or game.bids[seat] is not None)
    return True


def known_cards(game, receiver: int | None) -> set[str]:
    """The card texts `receiver` (None: a spectator) may see in the position of `game`."""
    specials = game.rules.specials
    known = {card_text(c, specials) for _, c in game.trick} | {card_text(c, specials) for t in game.tricks for _, c in t.cards}
    trump_hidden = game.rules.trump_seen == "after_bidding" and game.phase in ("bidding", "decision")
    if game.turn_up is not None and not trump_hidden:
        known.add(card_text(game.turn_up, specials))
    if receiver is not None and not game.over:
        holders = [receiver] if sees_own_cards(game, receiver) else []
        if game.kind.view == "forehead":
            holders += [s for s in range(game.players) if s != receiver]
        known |= {card_text(c, specials) for s in holders for suit in game.hands[s] for c in suit}
    return known


def strings(value, skip: str = "last_hand"):
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from strings(item, skip)
    elif isinstance(value, dict):
        for key, item in value.items():
            if key != skip:
                yield from strings(item, skip)


@pytest.mark.parametrize("name", RULESETS + EXAMPLE_RULESETS)
def test_no_frame_holds_a_card_its_receivers_view_does_not_hold(tmp_path, name):
    with Server(tmp_path) as server:
        if name in EXAMPLE_RULESETS:
            table, host = server.open_table("", ["human"] * 4, text=(EXAMPLES / name).read_text(encoding="utf-8"))
        else:
            table, host = server.open_table(name, ["human"] * 4)
        tokens = {s: server.join(table, s, f"P{s}") for s in range(4)}
        seats = {s: server.socket(table, t) for s, t in tokens.items()}
        watcher = server.socket(table, table.watch)
        last = play(seats, [watcher], random.Random(name))
        assert last["over"] is not None
        page = server.client.get(f"/t/{table.id}/seat/{tokens[0]}").text
        store = server.app.state.store
        head = json.loads(store.db.execute("SELECT head FROM games WHERE table_id = ?", (table.id,)).fetchone()[0])
        answers = [json.loads(a) for (a,) in store.db.execute("SELECT answer FROM answers WHERE table_id = ? ORDER BY step", (table.id,))]
    game = resume(head)
    specials = game.rules.specials
    deck = {r + s for r in RANK_LETTERS for s in SUIT_LETTERS} | {sp.mark for sp in specials}
    assert not deck & set(page.replace("<", " ").replace(">", " ").split())
    receivers = {**{s: sock.frames for s, sock in seats.items()}, None: watcher.frames}
    by_step = {r: {} for r in receivers}
    for r, frames in receivers.items():
        for frame in frames:
            by_step[r].setdefault(frame["step"], []).append(frame)
    checked = 0
    for step in range(len(answers) + 1):
        if step:
            answer = dict(answers[step - 1])
            Seat(game, answer.pop("seat")).answer(answer)
        for r in receivers:
            allowed = known_cards(game, r)
            for frame in by_step[r].get(step, []):
                shown = {text for text in strings(frame) if text in deck}
                assert shown <= allowed, f"step {step}: {'seat ' + str(r) if r is not None else 'the spectator'} was sent {sorted(shown - allowed)}"
                if game.history:
                    played = [[[s, card_text(c, specials)] for s, c in t.cards] for t in game.history[-1].tricks]
                    assert [t["cards"] for t in frame["last_hand"]["tricks"]] == played
                # bids made together: every bid, or all but the last bidder's (`together: all_but_last`)
                together = len(game.bidding_order) - (1 if game.rules.bids_together_who == "all_but_last" else 0)
                if game.rules.bids_together and game.phase == "bidding" and len(game.bid_log) < together:
                    assert {s for s, _ in frame["view"]["bids"]} <= ({r} if r is not None else set())
                checked += 1
    assert game.over
    assert checked >= len(answers)  # every receiver was sent at least one frame a step on average
