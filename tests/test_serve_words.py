"""The language of `whistdsl serve`'s pages: Accept-Language, the `?lang=` switch and the
cookie it sets, a bad value ignored; every page's `<html lang>`; the words a page's script
reads, in `data-words` as escaped JSON; refusals said in the page's language."""

from __future__ import annotations

import html
import json
import re

from serve_client import Server

from whistdsl.words import LANGUAGES

RO = {"accept-language": "ro-RO,ro;q=0.9,en;q=0.5"}


def html_lang(page: str) -> str:
    found = re.search(r'<html lang="([^"]*)"', page)
    assert found, page[:200]
    return found.group(1)


def page_words(page: str) -> dict:
    found = re.search(r'<body data-words="([^"]*)"', page)
    assert found, "no data-words on the body"
    return json.loads(html.unescape(found.group(1)))


def test_a_browser_asking_for_romanian_gets_a_romanian_start_page(tmp_path) -> None:
    with Server(tmp_path) as server:
        page = server.client.get("/", headers=RO).text
        assert html_lang(page) == "ro"
        assert "o masă pentru prieteni" in page and "Verifică-l și pregătește masa" in page
        assert "a table for friends" not in page
        assert "set-cookie" not in server.client.get("/", headers=RO).headers  # the header chooses, nothing is kept
        english = server.client.get("/", headers={"accept-language": "fr, de;q=0.5"}).text
        assert html_lang(english) == "en" and "a table for friends" in english
        serbian = server.client.get("/", headers={"accept-language": "sr-Latn-RS"}).text
        assert html_lang(serbian) == "sr-Latn" and "sto za prijatelje" in serbian


def test_every_page_links_to_the_three_languages(tmp_path) -> None:
    with Server(tmp_path) as server:
        page = server.client.get("/").text
        nav = re.search(r'<nav class="languages"[^>]*>(.*?)</nav>', page)
        assert nav is not None
        assert 'href="/?lang=ro"' in nav.group(1) and 'href="/?lang=sr-Latn"' in nav.group(1)
        assert '<strong lang="en">English</strong>' in nav.group(1)  # the page's own: not a link
        rules = server.client.get("/rules?ruleset=serbian", headers=RO).text
        assert 'href="/rules?ruleset=serbian&amp;lang=en"' in rules  # the switch keeps the page's query


def test_the_switch_sets_a_cookie_that_later_pages_follow_over_the_browser_s_language(tmp_path) -> None:
    with Server(tmp_path) as server:
        table, host = server.open_table("serbian", ["human", "random", "random", "random"])
        response = server.client.get("/?lang=sr-Latn", headers=RO)
        assert html_lang(response.text) == "sr-Latn"
        cookie = response.headers["set-cookie"]
        assert cookie.startswith("lang=sr-Latn;") and "Path=/" in cookie and "HttpOnly" in cookie and "SameSite=Lax" in cookie
        assert server.client.cookies.get("lang") == "sr-Latn"
        for path in (f"/t/{table.id}/host/{host}", f"/t/{table.id}/join/{table.invite}", f"/t/{table.id}/rules", "/t/nope/rules"):
            assert html_lang(server.client.get(path, headers=RO).text) == "sr-Latn", path
        join = server.client.get(f"/t/{table.id}/join/{table.invite}", headers=RO).text
        assert "Izaberi slobodno mesto" in join and "Tvoje ime" in join
        again = server.client.get("/?lang=ro")
        assert html_lang(again.text) == "ro" and server.client.cookies.get("lang") == "ro"
        assert html_lang(server.client.get("/").text) == "ro"


def test_a_bad_lang_value_is_ignored_safely(tmp_path) -> None:
    with Server(tmp_path) as server:
        for bad in ("fr", "<script>", "%22%3E%3Cimg", "x" * 5000, "sr-Cyrl-XX-" + "a" * 40, ""):
            response = server.client.get(f"/?lang={bad}", headers=RO)
            assert response.status_code == 200
            assert html_lang(response.text) == "ro", bad  # the header's language
            assert "set-cookie" not in response.headers, bad
            assert "<script>" not in response.text.replace('<script src="/static/start.js" defer></script>', "")
        server.client.cookies.set("lang", "<b>nonsense")
        assert html_lang(server.client.get("/", headers=RO).text) == "ro"
        server.client.cookies.set("lang", "sr")
        assert html_lang(server.client.get("/", headers=RO).text) == "sr-Latn"


def test_the_table_page_carries_its_script_s_words_as_escaped_json_in_its_language(tmp_path) -> None:
    with Server(tmp_path) as server:
        table, host = server.open_table("romanian", ["human", "random", "random"])
        page = server.client.get(f"/t/{table.id}/host/{host}?lang=ro").text
        assert html_lang(page) == "ro" and "Tabela de scor" in page
        words = page_words(page)
        assert words["table.your_bid"] == "Anunțul tău"
        assert words["trump.suit"] == "atu {suit}" and words["table.trick"] == "Levata {number}"
        assert words["table.hand_line"]["few"] == "Mâna {hand}: {count} cărți, împarte {dealer}."
        assert not [k for k in words if k.startswith(("web.", "play.")) and k != "web.too_big_file"]  # only what the script reads
        attribute = re.search(r'data-words="([^"]*)"', page).group(1)
        assert "<" not in attribute and ">" not in attribute and "'" not in attribute  # escaped: it cannot end the attribute
        for language in LANGUAGES:
            other = server.client.get(f"/t/{table.id}/host/{host}?lang={language}").text
            assert set(page_words(other)) == set(words)


def test_a_refusal_is_said_in_the_page_s_language(tmp_path) -> None:
    with Server(tmp_path) as server:
        table, _ = server.open_table("serbian", ["human", "random", "human", "random"])
        server.join(table, 0, "Ana")
        response = server.client.post(f"/t/{table.id}/join/{table.invite}?lang=ro", data={"seat": "0", "name": "Ben"})
        assert response.status_code == 422 and "Locul acesta e ocupat." in response.text
        response = server.client.post(f"/t/{table.id}/join/{table.invite}", data={"seat": "2", "name": ""})
        assert response.status_code == 422 and "E nevoie de un nume." in response.text  # the cookie the switch set
        assert "Nu există o astfel de masă." in server.client.get("/t/nope/rules").text
        socket = server.socket(table, server.join(table, 2, "Ben"))
        socket.answer({"bid": 0}, step=socket.state["step"] + 5)
        error = socket.error()
        assert error["code"] in ("stale", "not_your_turn") and error["words"].startswith("error.")
        assert error["message"]  # the English words stay for any other reader of the protocol


def test_the_rules_in_words_say_they_are_in_english_in_another_language(tmp_path) -> None:
    with Server(tmp_path) as server:
        ro = server.client.get("/rules?ruleset=romanian&lang=ro").text
        assert "(în engleză)" in ro and '<div lang="en">' in ro
        sr = server.client.get("/rules?ruleset=serbian&lang=sr-Latn").text
        assert "(na engleskom)" in sr
        en = server.client.get("/rules?ruleset=serbian&lang=en").text
        assert "(in English)" not in en


def test_the_language_cookie_is_secure_with_secure_cookies_and_pages_vary_with_the_language(tmp_path) -> None:
    with Server(tmp_path, secure_cookies=True) as server:
        response = server.client.get("/?lang=ro")
        assert "Secure" in response.headers["set-cookie"] and response.headers["vary"] == "Accept-Language, Cookie"
        assert "vary" not in server.client.get("/static/table.js").headers


def test_no_english_word_of_the_catalogue_is_left_in_a_romanian_start_or_set_up_page(tmp_path) -> None:
    """Each page's own words, not only those a test names: no English text of the catalogue
    (one without placeholders, that Romanian says otherwise) stands between a page's tags; but
    the switch names each language in its own words ("English"), and the rules in words are
    English, and say so."""
    english, romanian = LANGUAGES["en"], LANGUAGES["ro"]
    said = {
        text
        for key, text in english.items()
        if isinstance(text, str) and "{" not in text and len(text) > 3 and romanian[key] != text and key != "language.name"
    }
    with Server(tmp_path) as server:
        start = server.client.get("/", headers=RO).text
        setup = server.client.post("/setup", data={"ruleset": "serbian", "text": ""}, headers=RO).text
        setup = re.sub(r'<details class="rules">.*?</details>', "", setup, flags=re.S)
        for page in (start, setup):
            shown = {html.unescape(t).strip() for t in re.findall(r">([^<>]+)<", page)}
            assert not shown & said, sorted(shown & said)
