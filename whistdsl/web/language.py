"""The language of a page of `whistdsl serve`: the `?lang=` switch (the links on every page),
else the `lang` cookie the switch set, else the browser's Accept-Language, else English.

`page_words(request)` gives a request's `Words`; `LanguageCookie` (ASGI middleware) keeps a
switch's choice: a response to a request with a `?lang=` the catalogue knows sets the cookie
(a year, the whole site, not read by scripts), and every page says `Vary: Accept-Language,
Cookie`. A value it does not know is ignored: the page
is in the language the cookie or the header asks for, and no cookie is set.
"""

from __future__ import annotations

from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import parse_qs

from starlette.requests import HTTPConnection

from ..words import Words, from_accept_language, language_of

COOKIE = "lang"
COOKIE_SECONDS = 365 * 24 * 3600


def _switched(query: str) -> str | None:
    """The catalogue's language the query's `lang=` asks for, or None."""
    values = parse_qs(query, max_num_fields=50).get("lang", []) if query else []
    return language_of(values[-1][:35]) if values else None


def choose(query_lang: str | None, cookie: str | None, accept_language: str | None) -> str:
    """The page's language: the switch's, else the cookie's, else the header's (English when
    none of them is one of the catalogue's languages)."""
    for asked in (query_lang, cookie):
        found = language_of(asked[:35]) if asked else None
        if found is not None:
            return found
    return from_accept_language(accept_language)


def page_words(request: HTTPConnection) -> Words:
    """The words of `request`'s page."""
    params = request.query_params.getlist("lang")
    return Words(choose(params[-1] if params else None, request.cookies.get(COOKIE), request.headers.get("accept-language")))


class LanguageCookie:
    """ASGI middleware: a response to `?lang=TAG` (a language of the catalogue) sets the cookie;
    every page says that it varies with Accept-Language and the cookie (`Vary`), so no cache
    between gives one person's language to another."""

    def __init__(self, app: Any, secure: bool = False):
        self.app = app
        self.secure = secure

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope.get("path", "").startswith("/static/"):
            await self.app(scope, receive, send)
            return
        headers = [(b"vary", b"Accept-Language, Cookie")]
        language = _switched(scope.get("query_string", b"").decode("latin-1"))
        if language is not None:
            cookie: SimpleCookie = SimpleCookie()
            cookie[COOKIE] = language
            cookie[COOKIE].update({"path": "/", "max-age": COOKIE_SECONDS, "samesite": "Lax", "httponly": True})  # type: ignore[arg-type]  # Morsel.update takes any values; typeshed says str
            if self.secure:
                cookie[COOKIE]["secure"] = True
            headers.append((b"set-cookie", cookie.output(header="").strip().encode("latin-1")))

        async def with_headers(message: dict) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *headers]
            await send(message)

        await self.app(scope, receive, with_headers)
