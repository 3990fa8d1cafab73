"""The table's words in one catalogue: English (en), română (ro) and srpski in the Latin script (sr-Latn), read by
the browser's table (web/) and the terminal's (cli/play.py) alike.

One file per language holds its words (en.py, ro.py, sr_latn.py: a dict of message id -> text,
plural messages as a dict of CLDR forms); plurals.py says which form a count takes. Here:
`Words` (a language's words, with values put in), `words_for` (the words of a tag),
`language_of` (a tag as a person or a page may write it: `ro-RO`, `sr` -> the catalogue's tag,
or None) and `from_accept_language` (the best of the catalogue's languages for a browser's
Accept-Language header; English when none fits).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from . import en, ro, sr_latn
from .plurals import FORMS, plural_form

#: The catalogue's languages, by their BCP 47 tags; the first is the default.
LANGUAGES: dict[str, Mapping[str, str | dict[str, str]]] = {"en": en.WORDS, "ro": ro.WORDS, "sr-Latn": sr_latn.WORDS}
DEFAULT = "en"
#: Primary language subtags read as one of the catalogue's languages. `sr` in any script is
#: sr-Latn (every reader of srpski reads the Latin script; no Cyrillic catalogue is kept); `bs`,
#: `hr`, `cnr` and the old tag `sh` too: one language for these words (adut, štih, pik, herc,
#: karo, tref are theirs as well), and nearer their readers than English. The old tag `mo` is ro.
_PRIMARY = {"en": "en", "ro": "ro", "mo": "ro", "sr": "sr-Latn", "sh": "sr-Latn", "bs": "sr-Latn", "hr": "sr-Latn", "cnr": "sr-Latn"}
_TAG = re.compile(r"[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*")
_PLACE = re.compile(r"\{(\w+)\}")
#: The most of an Accept-Language header read (a browser sends a few dozen characters).
MAX_HEADER = 1024


def language_of(tag: str) -> str | None:
    """The catalogue's language for a BCP 47 tag (`ro-RO` -> `ro`, `sr`, `sr-Latn-RS` or
    `sr-Cyrl` -> `sr-Latn`, `EN_us` -> `en`), or None for another language or a malformed tag."""
    tag = tag.strip().replace("_", "-")
    if not _TAG.fullmatch(tag):
        return None
    return _PRIMARY.get(tag.split("-")[0].lower())


def from_accept_language(header: str | None) -> str:
    """The catalogue's language a browser asks for first (the highest `q`, the first of equals;
    `q=0` is "not this one"), English when none of them is the catalogue's or the header is
    malformed. A malformed entry is skipped; the others still count."""
    best, best_q = DEFAULT, 0.0
    for entry in (header or "")[:MAX_HEADER].split(","):
        tag, _, params = entry.partition(";")
        language = language_of(tag)
        if language is None:
            continue
        q = 1.0
        for param in params.split(";"):
            key, _, value = param.partition("=")
            if key.strip().lower() == "q":
                try:
                    q = float(value.strip()) if re.fullmatch(r"(0(\.\d{0,3})?|1(\.0{0,3})?)", value.strip()) else -1.0
                except ValueError:
                    q = -1.0
        if q > best_q:
            best, best_q = language, q
    return best


@dataclass(frozen=True)
class Words:
    """One language's words: `text(id, name=value, ...)` and `count(id, n, ...)` for a plural
    message (its form chosen by `n`, which is put in as `{count}`)."""

    language: str

    @property
    def catalogue(self) -> Mapping[str, str | dict[str, str]]:
        return LANGUAGES[self.language]

    def text(self, key: str, **values: object) -> str:
        message = self.catalogue[key]
        if isinstance(message, dict):
            raise TypeError(f"{key} is a plural message: use count()")
        return fill(message, values)

    def count(self, key: str, n: int | float, **values: object) -> str:
        message = self.catalogue[key]
        if not isinstance(message, dict):
            raise TypeError(f"{key} is not a plural message: use text()")
        return fill(message[plural_form(self.language, n)], {"count": f"{n:g}" if isinstance(n, float) else n, **values})

    def template(self, key: str, n: int | None = None) -> str:
        """A message as written, its placeholders not filled (for a text assembled of styled
        parts); a plural message's form for `n`."""
        message = self.catalogue[key]
        if isinstance(message, dict):
            if n is None:
                raise TypeError(f"{key} is a plural message: give its count")
            return message[plural_form(self.language, n)]
        return message

    def for_page(self, prefixes: tuple[str, ...]) -> dict[str, str | dict[str, str]]:
        """The messages whose ids start with one of `prefixes` (what a page's script reads)."""
        return {key: value for key, value in self.catalogue.items() if key.startswith(prefixes)}


def fill(message: str, values: Mapping[str, object]) -> str:
    """`message` with each `{name}` replaced by its value (a name without a value stays as it is)."""
    return _PLACE.sub(lambda m: str(values[m.group(1)]) if m.group(1) in values else m.group(0), message)


def placeholders(message: str) -> set[str]:
    """The `{name}` placeholders of a message."""
    return set(_PLACE.findall(message))


def words_for(language: str | None) -> Words:
    """The words of one of the catalogue's languages (a tag `language_of` reads); English for
    None or another language."""
    found = language_of(language) if language else None
    return Words(found or DEFAULT)


ENGLISH = Words(DEFAULT)

__all__ = [
    "DEFAULT",
    "ENGLISH",
    "FORMS",
    "LANGUAGES",
    "Words",
    "fill",
    "from_accept_language",
    "language_of",
    "placeholders",
    "plural_form",
    "words_for",
]
