"""The table's words (whistdsl/words/): every language complete, with the same placeholders and
the plural forms its CLDR rule gives; the plural forms worked by hand; the language a browser's
Accept-Language header asks for, malformed headers and q=0 included."""

from __future__ import annotations

import pytest

from whistdsl.words import FORMS, LANGUAGES, from_accept_language, language_of, placeholders, plural_form, words_for


def test_the_catalogue_has_english_romanian_and_serbian_latin_by_their_bcp47_tags() -> None:
    assert list(LANGUAGES) == ["en", "ro", "sr-Latn"]


@pytest.mark.parametrize("language", ["ro", "sr-Latn"])
def test_every_message_id_is_in_every_language_and_no_other(language: str) -> None:
    english, other = LANGUAGES["en"], LANGUAGES[language]
    assert sorted(set(english) - set(other)) == [], "missing"
    assert sorted(set(other) - set(english)) == [], "not in English"


@pytest.mark.parametrize("language", ["en", "ro", "sr-Latn"])
def test_every_message_has_the_english_placeholders_exactly_and_its_language_s_plural_forms(language: str) -> None:
    for key, english in LANGUAGES["en"].items():
        message = LANGUAGES[language][key]
        assert isinstance(message, dict) == isinstance(english, dict), key
        if isinstance(english, dict):
            assert isinstance(message, dict)
            assert tuple(message) == FORMS[language], key
            wanted = placeholders(english["other"]) - {"count"}  # a form may leave the count out ("one card")
            for form, text in message.items():
                assert placeholders(text) - {"count"} == wanted, (key, form)
            assert all(placeholders(text) - {"count"} == wanted for text in english.values()), key
        else:
            assert isinstance(message, str) and message.strip(), key
            assert placeholders(message) == placeholders(english), key


#: The plural form of each count, worked by hand from CLDR's rules (plurals.xml):
#: en: one 1; ro: one 1, few 0 and n % 100 in 2..19 and 101; sr: one n % 10 = 1 but not 11,
#: few n % 10 in 2..4 but not 12..14.
HAND_WORKED = {
    "en": {1: "one", 2: "other", 5: "other", 11: "other", 12: "other", 21: "other", 22: "other", 101: "other", 0: "other"},
    "ro": {1: "one", 2: "few", 5: "few", 11: "few", 12: "few", 19: "few", 20: "other", 21: "other", 22: "other", 101: "few", 120: "other", 0: "few"},
    "sr-Latn": {
        1: "one",
        2: "few",
        5: "other",
        11: "other",
        12: "other",
        14: "other",
        21: "one",
        22: "few",
        25: "other",
        101: "one",
        111: "other",
        0: "other",
    },
}


@pytest.mark.parametrize("language", list(HAND_WORKED))
def test_plural_forms_follow_cldr(language: str) -> None:
    assert {n: plural_form(language, n) for n in HAND_WORKED[language]} == HAND_WORKED[language]


def test_plural_messages_read_as_their_language_says_them() -> None:
    assert words_for("ro").count("play.cards", 1) == "1 carte"
    assert words_for("ro").count("play.cards", 13) == "13 cărți"
    assert words_for("ro").count("play.cards", 20) == "20 de cărți"
    assert words_for("sr-Latn").count("play.cards", 1) == "1 karta"
    assert words_for("sr-Latn").count("play.cards", 3) == "3 karte"
    assert words_for("sr-Latn").count("play.cards", 13) == "13 karata"
    assert words_for("sr-Latn").count("play.cards", 21) == "21 karta"
    assert words_for("en").count("play.cards", 1) == "1 card"


def test_the_seed_games_own_words_are_the_catalogue_s() -> None:
    ro, sr = words_for("ro"), words_for("sr-Latn")
    assert ro.text("trump.suit", suit=ro.text("suit.hearts")) == "atu cupă"
    assert ro.text("trump.none") == "fără atu"
    assert ro.text("table.trick", number=3) == "Levata 3"
    assert ro.text("table.score_sheet") == "Tabela de scor"
    assert sr.text("trump.suit", suit=sr.text("suit.hearts")) == "adut herc"
    assert sr.text("trump.none") == "bez aduta"
    assert sr.text("table.trick", number=3) == "Štih 3"
    assert sr.text("rank.J") == "žandar"


def test_a_value_is_put_in_as_it_is_and_a_missing_one_left_as_its_placeholder() -> None:
    en = words_for("en")
    assert en.text("table.waiting", name="{count} <b>") == "Waiting for {count} <b>."
    assert en.text("table.waiting") == "Waiting for {name}."


@pytest.mark.parametrize(
    ("tag", "language"),
    [
        ("en", "en"),
        ("en-GB", "en"),
        ("EN_us", "en"),
        ("ro", "ro"),
        ("ro-RO", "ro"),
        ("ro-MD", "ro"),
        ("mo", "ro"),
        ("sr", "sr-Latn"),
        ("sr-Latn", "sr-Latn"),
        ("sr-Latn-RS", "sr-Latn"),
        ("sr-RS", "sr-Latn"),
        ("sr-Cyrl", "sr-Latn"),
        ("sh", "sr-Latn"),
        ("hr", "sr-Latn"),
        ("bs-BA", "sr-Latn"),
        ("cnr", "sr-Latn"),
        ("fr", None),
        ("", None),
        ("*", None),
        ("ro-", None),
        ("r o", None),
        ("<script>", None),
        ("x" * 9, None),
    ],
)
def test_a_tag_is_read_as_one_of_the_catalogue_s_languages_or_none(tag: str, language: str | None) -> None:
    assert language_of(tag) == language


@pytest.mark.parametrize(
    ("header", "language"),
    [
        ("ro-RO,ro;q=0.9,en-US;q=0.8,en;q=0.7", "ro"),
        ("en-US,en;q=0.9,ro;q=0.8", "en"),
        ("fr-FR, fr;q=0.9, sr-Latn-RS;q=0.5, en;q=0.3", "sr-Latn"),
        ("de, en;q=0.2, ro;q=0.4", "ro"),
        ("sr", "sr-Latn"),
        ("ro;q=0, en", "en"),
        ("ro;q=0", "en"),
        ("ro;q=0.000, sr;q=0.001", "sr-Latn"),
        ("fr, de", "en"),
        ("", "en"),
        (None, "en"),
        ("*", "en"),
        (";;;,,,q=,", "en"),
        ("ro;q=abc, sr", "sr-Latn"),
        ("ro;q=2, sr;q=0.5", "sr-Latn"),
        ("ro;q=-1", "en"),
        ("ro;q=nan, en", "en"),
        ("<script>alert(1)</script>, ro", "ro"),
        ("ro;level=1;q=0.8, en;q=0.7", "ro"),
        ("x" * 5000 + ", ro", "en"),
        ("sr-Latn;q=0.8, ro;q=0.8", "sr-Latn"),
    ],
)
def test_accept_language_gives_the_best_language_of_the_catalogue_english_by_default(header: str | None, language: str) -> None:
    assert from_accept_language(header) == language


@pytest.mark.parametrize("module", ["en", "ro", "sr_latn"])
def test_no_message_id_is_written_twice_in_a_language_s_file(module: str) -> None:
    """A dict literal keeps the last of two equal keys without a word: a translator's second
    entry would hide the first."""
    import ast
    from pathlib import Path

    import whistdsl.words

    tree = ast.parse((Path(whistdsl.words.__file__).parent / f"{module}.py").read_text(encoding="utf-8"))
    words = next(node.value for node in tree.body if isinstance(node, ast.AnnAssign) and getattr(node.target, "id", "") == "WORDS")
    assert isinstance(words, ast.Dict)
    keys = [key.value for key in words.keys if isinstance(key, ast.Constant)]
    assert len(keys) == len(words.keys) and sorted(k for k in set(keys) if keys.count(k) > 1) == []


def test_a_number_with_decimals_takes_its_cldr_form() -> None:
    """CLDR: en `other`; ro `few` (v != 0); sr by its decimal digits f (f % 10 = 1 and f % 100 != 11: one; 2..4: few)."""
    assert [plural_form("en", x) for x in (1.5, 0.5, 24.0, 1.0)] == ["other", "other", "other", "one"]
    assert [plural_form("ro", x) for x in (1.5, 0.5, 24.0, 1.0)] == ["few", "few", "other", "one"]
    assert [plural_form("sr-Latn", x) for x in (0.1, 2.3, 1.5, 1.11, 24.0, 21.0)] == ["one", "few", "other", "other", "few", "one"]
    assert words_for("ro").count("play.cards", 24.0) == "24 de cărți"
