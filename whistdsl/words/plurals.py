"""CLDR's plural rules for whole numbers in the catalogue's languages: which plural form
(`one`, `few`, `other`) a count takes, as the browser's `Intl.PluralRules` answers the same
question in web/static/table.js.

    en: one if n == 1; else other
    ro: one if n == 1; few if n == 0 or n % 100 in 2..19 (and 101, 201, ...: n % 100 == 1,
        n != 1); else other ("20 de levate")
    sr: one if n % 10 == 1 and n % 100 != 11; few if n % 10 in 2..4 and n % 100 not in 12..14;
        else other

(CLDR 44, `plurals.xml`.) A number with decimals (`1.5` hours) takes en's `other`, ro's `few`
(its rule's `v != 0`), and in sr the form its decimal digits' number `f` gives by the same test
as a whole number's (`0.1` one, `2.3` few, `1.5` other).
"""

from __future__ import annotations

#: The plural forms each language's messages give.
FORMS: dict[str, tuple[str, ...]] = {"en": ("one", "other"), "ro": ("one", "few", "other"), "sr-Latn": ("one", "few", "other")}


def plural_form(language: str, count: int | float) -> str:
    """The plural form `count` takes in `language` (a tag of FORMS)."""
    if isinstance(count, float) and not count.is_integer():
        if language == "ro":
            return "few"
        if language == "sr-Latn":
            decimals = f"{abs(count):.6f}".rstrip("0").partition(".")[2]
            return plural_form(language, int(decimals))
        return "other"
    n = abs(int(count))
    if language == "ro":
        if n == 1:
            return "one"
        if n == 0 or 1 <= n % 100 <= 19:
            return "few"
        return "other"
    if language == "sr-Latn":
        if n % 10 == 1 and n % 100 != 11:
            return "one"
        if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
            return "few"
        return "other"
    return "one" if n == 1 else "other"
