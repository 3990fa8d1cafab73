"""The cards a person may type at the table (cli/play.py `typed_card`): rank then suit, suit then
rank, the suit symbols with or without the emoji variation selector, a bare rank when only one
card of that rank may be played, and Enter alone for a forced card."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from whistdsl.cli.play import typed_card
from whistdsl.engine.cards import NO_TRUMP, CardSyntaxError, card
from whistdsl.rules.ruleset import Special

QH, QS, TH, TD, SEVEN_C, TWO_H = card("Q", "H"), card("Q", "S"), card("T", "H"), card("T", "D"), card("7", "C"), card("2", "H")


def view(hand: list[int], legal: list[int] | None = None) -> SimpleNamespace:
    return SimpleNamespace(hand=hand, legal=legal if legal is not None else hand, trump=NO_TRUMP)


@pytest.mark.parametrize("typed", ["QH", "qh", "Q♥", "q♥", "Q♥\ufe0f", "Q ♥️", "hq", "HQ", "♥Q", "♥️Q", "h q", " qh "])
def test_the_queen_of_hearts_typed_every_way_is_the_queen_of_hearts(typed: str) -> None:
    assert typed_card(typed, view([QH, QS, TD])) == QH


@pytest.mark.parametrize(("typed", "meant"), [("10h", TH), ("h10", TH), ("♥10", TH), ("T♥️", TH), ("d10", TD), ("c7", SEVEN_C)])
def test_tens_and_suit_first_forms(typed: str, meant: int) -> None:
    assert typed_card(typed, view([TH, TD, SEVEN_C])) == meant


def test_a_bare_rank_is_the_one_legal_card_of_that_rank() -> None:
    hand = [QH, QS, TH, TD]
    assert typed_card("q", view(hand, legal=[QH, TH])) == QH  # QS is held but may not be played now
    assert typed_card("10", view(hand, legal=[TD])) == TD
    assert typed_card("t", view(hand, legal=[TD, QH])) == TD


def test_a_bare_rank_that_fits_several_legal_cards_asks_which() -> None:
    said = typed_card("q", view([QH, QS, TD]))
    assert isinstance(said, str) and said.startswith("which Q: ") and "QS" in said and "QH" in said


def test_a_bare_rank_held_but_not_playable_is_the_card_held_so_the_rules_say_why() -> None:
    assert typed_card("q", view([QS, TH], legal=[TH])) == QS


def test_a_bare_rank_not_held_says_so() -> None:
    assert typed_card("k", view([QS, TH])) == "you hold no K"


def test_enter_plays_a_forced_card_and_otherwise_asks_for_one() -> None:
    assert typed_card("", view([QH, QS, TD], legal=[TD])) == TD
    said = typed_card("", view([QH, QS, TD]))
    assert isinstance(said, str) and said.startswith("type a card")


def test_a_special_card_is_typed_by_its_mark_or_name() -> None:
    specials = (Special(name="wizard", mark="W", count=4), Special(name="jester", mark="J", count=4))
    wizard, jester = 4 * 16, 4 * 16 + 1
    assert typed_card("w", view([wizard, card("J", "H")]), specials) == wizard
    assert typed_card("Jester", view([jester, card("J", "H")]), specials) == jester


def test_a_mark_that_is_also_a_rank_asks_which_card_when_both_are_held() -> None:
    specials = (Special(name="jester", mark="J", count=4),)
    jester, jack_of_hearts, jack_of_spades = 4 * 16, card("J", "H"), card("J", "S")
    said = typed_card("j", view([jester, jack_of_hearts, jack_of_spades]), specials)
    assert said == "which did you mean: JS, JH or Jester? Type a card with its suit, or jester"
    said = typed_card("J", view([jester, jack_of_hearts], legal=[jester]), specials)  # the jack held, not playable now
    assert isinstance(said, str) and said.startswith("which did you mean: JH or Jester?")
    assert typed_card("j", view([jester, QH]), specials) == jester  # no jack held: the Jester
    assert typed_card("j", view([jack_of_hearts, QH]), specials) == jack_of_hearts  # no Jester held: the jack


@pytest.mark.parametrize("typed", ["the best one", "qq", "h", "11h", "hh"])
def test_garbage_is_refused_as_not_a_card(typed: str) -> None:
    with pytest.raises(CardSyntaxError, match="is not a card"):
        typed_card(typed, view([QH, QS]))
