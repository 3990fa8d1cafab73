"""The rule choices that a ruleset writes as one word are str-valued enums on the compiled
Ruleset: each takes exactly the words the schema allows, and a member is that word (in JSON,
in text, as a key), so the ruleset and record formats read and write the same as before."""

from __future__ import annotations

import json

import pytest

from whistdsl import load_rules
from whistdsl.resources import schema_path
from whistdsl.rules.ruleset import FirstBidder, FirstLead, Identical, SpecialsWithoutTrump, TrumpSeen, TurnedCard, WhenVoid


@pytest.mark.parametrize(
    ("enum", "where", "words"),
    [
        (Identical, ("trick", "identical"), {"earlier", "later"}),
        (TurnedCard, ("trump", "turned"), {"set_aside", "dealt"}),
        (TrumpSeen, ("trump", "seen"), {"at_once", "after_bidding"}),
        (SpecialsWithoutTrump, ("trump", "specials_without_trump"), {"highest", "lowest"}),
        (WhenVoid, ("play", "when_void"), {"free", "must_trump", "must_overtrump"}),
    ],
)
def test_each_enum_takes_the_words_the_schema_allows(enum, where, words) -> None:
    schema = json.loads(schema_path().read_text(encoding="utf-8"))
    allowed = schema["properties"][where[0]]["properties"][where[1]]["enum"]
    assert set(allowed) == words
    assert {m.value for m in enum} - {""} == words  # SpecialsWithoutTrump.UNSAID: the key left out


def test_the_words_of_the_first_bidder_and_the_first_lead() -> None:
    # bidding.first and play.first_lead are a word or a {highest|lowest: FORMULA}: the words
    schema = json.loads(schema_path().read_text(encoding="utf-8"))
    for enum, (section, key), words in (
        (FirstBidder, ("bidding", "first"), {"after_dealer", "dealer"}),
        (FirstLead, ("play", "first_lead"), {"first_bidder", "after_dealer", "dealer"}),
    ):
        forms = schema["properties"][section]["properties"][key]["anyOf"]
        assert [set(f["enum"]) for f in forms if f.get("type") == "string"] == [words]
        assert {m.value for m in enum} == words


def test_a_member_is_its_word() -> None:
    assert WhenVoid.MUST_TRUMP == "must_trump" and f"{WhenVoid.MUST_TRUMP}" == "must_trump"
    assert json.dumps({"when_void": WhenVoid.MUST_OVERTRUMP}) == '{"when_void": "must_overtrump"}'
    assert {"free": 1}[WhenVoid.FREE] == 1
    assert not SpecialsWithoutTrump.UNSAID and SpecialsWithoutTrump.HIGHEST


def test_a_compiled_ruleset_holds_members() -> None:
    rules = load_rules("romanian")
    assert type(rules.when_void) is WhenVoid and type(rules.first_bidder) is FirstBidder
    assert type(rules.first_lead) is FirstLead and type(rules.identical) is Identical
    assert type(rules.trump_turned) is TurnedCard and type(rules.trump_seen) is TrumpSeen
