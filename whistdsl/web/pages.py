"""The HTML pages of `whistdsl serve`, made on the server with every value escaped.

The start page (a ruleset chosen, pasted or uploaded), the set-up page (the lint findings with
their caret excerpts, the parameters as fields, the players and the seats), the join page (a
free seat and a name), the rules in words, and the table page's shell, which web/static/table.js
draws from the frames with textContent only. No page holds an inline script or style: the
Content-Security-Policy (web/app.py) forbids them.

Every word a person reads comes from the catalogue (whistdsl/words/), in the page's language
(`Words`, chosen by web/language.py); each page links to the catalogue's languages. The words a
page's script needs travel in its `data-words` attribute, as escaped JSON. The rules in words
(whistdsl/explain) are English only: in another language the page says so.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from html import escape
from typing import TYPE_CHECKING

from ..diagnostics.findings import Finding
from ..language.values import value_text
from ..words import ENGLISH, LANGUAGES, Words, words_for

if TYPE_CHECKING:
    from ..explain import Explanation
    from ..rules.ruleset import Parameter, Ruleset


def h(text: object) -> str:
    """Text for HTML: `<`, `>`, `&` and both quotes escaped (safe in a text and in an attribute)."""
    return escape(str(text), quote=True)


#: The ids of the messages the pages' scripts read (web/static/*.js), sent in `data-words`.
SCRIPT_WORDS = ("suit.", "rank.", "card.", "trump.", "table.", "error.", "web.too_big_file")


def page(title: str, body: str, scripts: Sequence[str] = (), w: Words = ENGLISH, switch: str = "") -> str:
    """A whole page in `w`'s language: the style sheet and `scripts` from /static, nothing
    inline; the words the scripts read in the body's `data-words` (JSON, escaped as any
    attribute); links to the page in each language (`switch`: the path they go to, by default
    this page's own)."""
    tags = "".join(f'<script src="/static/{h(s)}" defer></script>' for s in scripts)
    data = f' data-words="{h(json.dumps(w.for_page(SCRIPT_WORDS), ensure_ascii=False))}"' if scripts else ""
    return (
        f'<!doctype html><html lang="{h(w.language)}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<title>{h(title)}</title><link rel="stylesheet" href="/static/style.css">{tags}</head>'
        f"<body{data}>{language_links(w, switch)}{body}</body></html>"
    )


def language_links(w: Words, switch: str = "") -> str:
    """`English · Română · Srpski (latinica)`: each a link to `switch?lang=TAG` (the server keeps
    the choice in a cookie); the page's own language is not a link."""
    links = []
    for tag in LANGUAGES:
        name = words_for(tag).text("language.name")
        if tag == w.language:
            links.append(f'<strong lang="{h(tag)}">{h(name)}</strong>')
        else:
            href = f"{switch}{'&' if '?' in switch else '?'}lang={tag}"
            links.append(f'<a href="{h(href)}" lang="{h(tag)}" hreflang="{h(tag)}">{h(name)}</a>')
    return f'<nav class="languages" aria-label="{h(w.text("web.switch"))}">{" · ".join(links)}</nav>'


def error_page(message: str, w: Words = ENGLISH) -> str:
    return page(
        "whistdsl",
        f'<main><h1>whistdsl</h1><p class="problem" role="alert">{h(message)}</p><p><a href="/">{h(w.text("web.start_page"))}</a></p></main>',
        w=w,
        switch="/",
    )


def start_page(bundled: Iterable[str], chosen: str = "", text: str = "", problem: str = "", w: Words = ENGLISH) -> str:
    options = "".join(f'<option value="{h(n)}"{" selected" if n == chosen else ""}>{h(n)}</option>' for n in bundled)
    alert = f'<p class="problem" role="alert">{h(problem)}</p>' if problem else ""
    t = w.text
    body = f"""<main><h1>{h(t("web.start_heading"))}</h1>{alert}
<form method="post" action="/setup" class="panel">
<p><label for="ruleset">{h(t("web.bundled"))}</label>
<select id="ruleset" name="ruleset"><option value="">{h(t("web.your_own_below"))}</option>{options}</select>
<a id="explain-link" href="/rules">{h(t("table.rules_link"))}</a>{_in_english(w)}</p>
<p><label for="text">{h(t("web.paste"))}</label>
<textarea id="text" name="text" rows="12" spellcheck="false">{h(text)}</textarea></p>
<p><label for="upload">{h(t("web.upload"))}</label> <input type="file" id="upload" accept=".yaml,.yml,text/yaml,text/plain"></p>
<p><button type="submit">{h(t("web.check"))}</button></p>
</form></main>"""
    return page(t("web.start_title"), body, ["start.js"], w, switch="/")


def _in_english(w: Words) -> str:
    """` (in English)` after a link to the rules in words, in a language other than English."""
    return "" if w.language == "en" else f' <span class="hint">{h(w.text("web.in_english"))}</span>'


def findings_html(findings: Sequence[Finding], sources: dict[str, list[str]]) -> str:
    """Each finding as `file:line:col: CODE message`, with its line and a caret under the column,
    then its help (what to write, e.g. a "did you mean") when it has one."""
    items = []
    for f in findings:
        excerpt = ""
        lines = sources.get(f.path)
        if lines is not None and 1 <= f.line <= len(lines):
            line = lines[f.line - 1]
            width = max(1, (f.end_column - f.column) if f.end_line == f.line and f.end_column > f.column else 1)
            caret = " " * max(0, f.column - 1) + "^" * width
            excerpt = f'<pre class="excerpt">{h(line)}\n{h(caret)}</pre>'
        helped = f'<p class="help">{h(f.help)}</p>' if f.help else ""
        items.append(
            f'<li class="finding {h(f.severity)}"><code>{h(f.path)}:{f.line}:{f.column}</code>: '
            f"<strong>{h(f.severity)} {h(f.code)}</strong> {h(f.message)}{excerpt}{helped}</li>"
        )
    return f'<ul class="findings">{"".join(items)}</ul>' if items else ""


def _parameter_field(p: Parameter, value: object, w: Words) -> str:
    name = f"param.{p.name}"
    label = f'<label for="{h(name)}">{h(p.name)}</label>'
    about = f' <span class="hint">{h(p.description + " ") if p.description else ""}({h(p.domain_words())})</span>'
    if p.type == "yes/no":
        field = f'<select id="{h(name)}" name="{h(name)}"><option value="yes"{" selected" if value is True else ""}>{h(w.text("web.yes"))}</option><option value="no"{" selected" if value is False else ""}>{h(w.text("web.no"))}</option></select>'
    elif p.type == "number":
        field = f'<input id="{h(name)}" name="{h(name)}" value="{h(value_text(value))}" inputmode="decimal" size="6">'  # type: ignore[arg-type]  # a parameter's value is a Value of the language
    else:
        field = (
            f'<select id="{h(name)}" name="{h(name)}">'
            + "".join(f'<option value="{h(c)}"{" selected" if c == value else ""}>{h(c)}</option>' for c in p.choices)
            + "</select>"
        )
    return f"<p>{label} {field}{about}</p>"


def setup_page(
    chosen: str,
    text: str,
    shown: str,
    findings: Sequence[Finding],
    sources: dict[str, list[str]],
    rules: Ruleset | None,
    bots: Sequence[str],
    explanation: Explanation | None = None,
    problem: str = "",
    w: Words = ENGLISH,
) -> str:
    """The set-up page: the findings, then (when there is no error) the table's form."""
    t = w.text
    errors = [f for f in findings if f.severity == "error"]
    head = f"<h1>{h(rules.name if rules is not None and rules.name else shown)}</h1>"
    alert = f'<p class="problem" role="alert">{h(problem)}</p>' if problem else ""
    listed = findings_html(findings, sources)
    if errors:
        said = f'<p class="problem" role="alert">{h(w.count("web.errors", len(errors)))}</p>'
        back = start_page_form(chosen, text, w)
        return page(t("web.findings_title"), f"<main>{head}{said}{listed}{back}</main>", ["start.js"], w, switch="/")
    assert rules is not None
    kept = f'<input type="hidden" name="ruleset" value="{h(chosen)}"><textarea hidden name="text" aria-hidden="true">{h(text)}</textarea>'
    params = "".join(_parameter_field(p, rules.parameter_values.get(p.name, p.default), w) for p in rules.parameters)
    params_html = f"<fieldset><legend>{h(t('web.parameters'))}</legend>{params}</fieldset>" if params else ""
    low, high, default = rules.players_min, rules.players_max, rules.players_default
    players = f'<p><label for="players">{h(t("web.players"))}</label> <input id="players" name="players" type="number" min="{low}" max="{high}" value="{default}"></p>'
    choices = ["human", *bots]
    rows = []
    for seat in range(high):
        kind = "human" if seat < 2 else "heuristic"
        options = "".join(
            f'<option value="{h(k)}"{" selected" if k == kind else ""}>{h(t("table.person") if k == "human" else t("table.computer", kind=k))}</option>'
            for k in choices
        )
        rows.append(
            f'<p class="seat-row" data-seat="{seat}"><label for="seat{seat}">{h(t("table.seat", number=seat + 1))}</label> <select id="seat{seat}" name="seat{seat}">{options}</select></p>'
        )
    think = f'<p><label for="think">{h(t("web.think"))}</label> <input id="think" name="think" value="0.5" inputmode="decimal" size="5"></p>'
    words = ""
    if explanation is not None:
        words = f'<details class="rules"><summary>{h(t("table.rules_link"))}{_in_english(w)}</summary>{explanation_html(explanation)}</details>'
    form = (
        f'<form method="post" action="/tables" class="panel">{kept}{params_html}{players}'
        f"<fieldset><legend>{h(t('table.seats'))}</legend>{''.join(rows)}{think}</fieldset>"
        f'<p><button type="submit">{h(t("web.open"))}</button></p></form>'
    )
    return page(t("web.setup_title"), f"<main>{head}{alert}{listed}{words}{form}</main>", ["start.js"], w, switch="/")


def start_page_form(chosen: str, text: str, w: Words = ENGLISH) -> str:
    """The ruleset's form again, under its findings, to fix it and check again."""
    return (
        '<form method="post" action="/setup" class="panel">'
        f'<input type="hidden" name="ruleset" value="{h(chosen)}">'
        f'<p><label for="text">{h(w.text("web.your_ruleset"))}</label><textarea id="text" name="text" rows="16" spellcheck="false">{h(text)}</textarea></p>'
        f'<p><button type="submit">{h(w.text("web.check_again"))}</button> <a href="/">{h(w.text("web.start_again"))}</a></p></form>'
    )


def explanation_html(explanation: Explanation) -> str:
    out = [f"<h2>{h(explanation.title)}</h2>"]
    if explanation.description:
        out.append(f"<p>{h(explanation.description)}</p>")
    for section in explanation.sections:
        out.append(f"<h3>{h(section.title)}</h3><ul>" + "".join(f"<li>{h(line)}</li>" for line in section.lines) + "</ul>")
        table = section.table
        if table is not None:
            head = "".join(f'<th scope="col">{h(c)}</th>' for c in table.header)
            rows = "".join("<tr>" + "".join(f"<td>{h(c)}</td>" for c in row) + "</tr>" for row in table.rows)
            out.append(f'<table class="worked"><caption>{h(table.caption)}</caption><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>')
    return "".join(out)


def rules_page(explanation: Explanation, w: Words = ENGLISH, switch: str = "") -> str:
    """The rules in words: English in every language (whistdsl/explain is English), said so in
    the page's language; the text itself is marked `lang="en"`."""
    note = f'<p class="hint">{h(w.text("web.in_english"))}</p>' if w.language != "en" else ""
    return page(
        w.text("web.rules_title", name=explanation.title),
        f'<main class="rules">{note}<div lang="en">{explanation_html(explanation)}</div></main>',
        w=w,
        switch=switch,
    )


def join_page(table_name: str, free: Sequence[tuple[int, str]], problem: str = "", w: Words = ENGLISH) -> str:
    t = w.text
    alert = f'<p class="problem" role="alert">{h(problem)}</p>' if problem else ""
    if not free:
        return page(t("web.join_title"), f"<main><h1>{h(table_name)}</h1>{alert}<p>{h(t('web.every_seat_taken'))}</p></main>", w=w)
    seats = "".join(
        f'<p><input type="radio" id="seat{s}" name="seat" value="{s}"{" checked" if i == 0 else ""}> <label for="seat{s}">{h(t("web.seat_of", number=s + 1, name=name))}</label></p>'
        for i, (s, name) in enumerate(free)
    )
    body = (
        f"<main><h1>{h(table_name)}</h1>{alert}"
        f'<form method="post" class="panel"><fieldset><legend>{h(t("web.pick_free_seat"))}</legend>'
        f"{seats}</fieldset>"
        f'<p><label for="name">{h(t("web.your_name"))}</label> <input id="name" name="name" maxlength="40" required autocomplete="nickname"></p>'
        f'<p><button type="submit">{h(t("web.sit_down"))}</button></p></form></main>'
    )
    return page(t("web.join_title"), body, w=w)


def table_page(w: Words = ENGLISH) -> str:
    """The table's shell: table.js draws everything in it from the frames, in the words of the
    body's `data-words`."""
    t = lambda key: h(w.text(key))  # noqa: E731
    body = f"""<main id="table" class="table" aria-live="polite">
<header class="top"><h1 id="title">whistdsl</h1><p id="status" role="status"></p></header>
<section id="links" class="panel" hidden aria-label="{t("table.links_label")}"></section>
<section id="seats" class="panel seats" aria-label="{t("table.seats")}"></section>
<section id="board" class="panel" aria-label="{t("table.hand_label")}">
<p id="hand-line"></p><p id="trump-line"></p><p id="bids-line"></p>
<div id="trick" class="trick" aria-label="{t("table.trick_in_play")}"></div>
<p id="last-trick"></p>
</section>
<section id="ask" class="panel ask" aria-label="{t("table.your_turn")}"></section>
<section id="hand" class="panel" aria-label="{t("table.your_cards")}"></section>
<section id="results" class="panel" aria-label="{t("table.results_label")}"></section>
<section class="panel" aria-label="{t("table.score_sheet")}"><h2>{t("table.score_sheet")}</h2><div id="sheet" class="sheet"></div></section>
<p id="more"></p>
</main>"""
    return page(w.text("web.table_title"), body, ["table.js"], w)


def closed_page(ruleset: str, records: Sequence[tuple[int, str]], hours: float, w: Words = ENGLISH) -> str:
    """A closed table's link: it was closed with nobody at it; its games' records to download."""
    t = w.text
    listed = "".join(f'<li><a href="{h(href)}" download>{h(t("web.closed_game", number=n))}</a></li>' for n, href in records)
    kept = f"<ul>{listed}</ul>" if listed else f"<p>{h(t('web.none_kept'))}</p>"
    said = h(w.count("web.closed", hours, command="\x00")).replace("\x00", "<code>whistdsl replay</code>")
    body = f'<main><h1>{h(ruleset)}</h1><p role="status">{said}</p>{kept}<p><a href="/">{h(t("web.start_page"))}</a></p></main>'
    return page(t("web.closed_title"), body, w=w)
