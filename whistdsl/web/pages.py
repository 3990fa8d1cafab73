"""The HTML pages of `whistdsl serve`, made on the server with every value escaped.

The start page (a ruleset chosen, pasted or uploaded), the set-up page (the lint findings with
their caret excerpts, the parameters as fields, the players and the seats), the join page (a
free seat and a name), the rules in words, and the table page's shell, which web/static/table.js
draws from the frames with textContent only. No page holds an inline script or style: the
Content-Security-Policy (web/app.py) forbids them.
"""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING, Iterable, Sequence

from ..diagnostics.findings import Finding
from ..language.values import value_text

if TYPE_CHECKING:
    from ..explain import Explanation
    from ..rules.ruleset import Parameter, Ruleset


def h(text: object) -> str:
    """Text for HTML: `<`, `>`, `&` and both quotes escaped (safe in a text and in an attribute)."""
    return escape(str(text), quote=True)


def page(title: str, body: str, scripts: Sequence[str] = (), lang: str = "en") -> str:
    """A whole page: the style sheet and `scripts` from /static, nothing inline."""
    tags = "".join(f'<script src="/static/{h(s)}" defer></script>' for s in scripts)
    return (
        f'<!doctype html><html lang="{h(lang)}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<title>{h(title)}</title><link rel="stylesheet" href="/static/style.css">{tags}</head>'
        f"<body>{body}</body></html>"
    )


def error_page(message: str) -> str:
    return page("whistdsl", f'<main><h1>whistdsl</h1><p class="problem" role="alert">{h(message)}</p><p><a href="/">Start page</a></p></main>')


def start_page(bundled: Iterable[str], chosen: str = "", text: str = "", problem: str = "") -> str:
    options = "".join(f'<option value="{h(n)}"{" selected" if n == chosen else ""}>{h(n)}</option>' for n in bundled)
    alert = f'<p class="problem" role="alert">{h(problem)}</p>' if problem else ""
    body = f"""<main><h1>whistdsl: a table for friends</h1>{alert}
<form method="post" action="/setup" class="panel">
<p><label for="ruleset">A bundled ruleset</label>
<select id="ruleset" name="ruleset"><option value="">(your own, below)</option>{options}</select>
<a id="explain-link" href="/rules">The rules in words</a></p>
<p><label for="text">Or your own ruleset (YAML): paste it here</label>
<textarea id="text" name="text" rows="12" spellcheck="false">{h(text)}</textarea></p>
<p><label for="upload">or upload its file</label> <input type="file" id="upload" accept=".yaml,.yml,text/yaml,text/plain"></p>
<p><button type="submit">Check it and set up the table</button></p>
</form></main>"""
    return page("whistdsl: a new table", body, ["start.js"])


def findings_html(findings: Sequence[Finding], sources: dict[str, list[str]]) -> str:
    """Each finding as `file:line:col: CODE message`, with its line and a caret under the column."""
    items = []
    for f in findings:
        excerpt = ""
        lines = sources.get(f.path)
        if lines is not None and 1 <= f.line <= len(lines):
            line = lines[f.line - 1]
            width = max(1, (f.end_column - f.column) if f.end_line == f.line and f.end_column > f.column else 1)
            caret = " " * max(0, f.column - 1) + "^" * width
            excerpt = f'<pre class="excerpt">{h(line)}\n{h(caret)}</pre>'
        items.append(
            f'<li class="finding {h(f.severity)}"><code>{h(f.path)}:{f.line}:{f.column}</code>: '
            f"<strong>{h(f.severity)} {h(f.code)}</strong> {h(f.message)}{excerpt}</li>"
        )
    return f'<ul class="findings">{"".join(items)}</ul>' if items else ""


def _parameter_field(p: Parameter, value: object) -> str:
    name = f"param.{p.name}"
    label = f'<label for="{h(name)}">{h(p.name)}</label>'
    about = f' <span class="hint">{h(p.description + " ") if p.description else ""}({h(p.domain_words())})</span>'
    if p.type == "yes/no":
        field = f'<select id="{h(name)}" name="{h(name)}"><option value="yes"{" selected" if value is True else ""}>yes</option><option value="no"{" selected" if value is False else ""}>no</option></select>'
    elif p.type == "number":
        field = f'<input id="{h(name)}" name="{h(name)}" value="{h(value_text(value))}" inputmode="decimal" size="6">'
    else:
        field = f'<select id="{h(name)}" name="{h(name)}">' + "".join(
            f'<option value="{h(c)}"{" selected" if c == value else ""}>{h(c)}</option>' for c in p.choices
        ) + "</select>"
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
) -> str:
    """The set-up page: the findings, then (when there is no error) the table's form."""
    errors = [f for f in findings if f.severity == "error"]
    head = f"<h1>{h(rules.name if rules is not None and rules.name else shown)}</h1>"
    alert = f'<p class="problem" role="alert">{h(problem)}</p>' if problem else ""
    listed = findings_html(findings, sources)
    if errors:
        said = f'<p class="problem" role="alert">{len(errors)} error{"s" if len(errors) != 1 else ""}: this ruleset cannot open a table. Fix {"them" if len(errors) != 1 else "it"} and check again.</p>'
        back = start_page_form(chosen, text)
        return page("whistdsl: findings", f"<main>{head}{said}{listed}{back}</main>", ["start.js"])
    assert rules is not None
    kept = f'<input type="hidden" name="ruleset" value="{h(chosen)}"><textarea hidden name="text" aria-hidden="true">{h(text)}</textarea>'
    params = "".join(_parameter_field(p, rules.parameter_values.get(p.name, p.default)) for p in rules.parameters)
    params_html = f"<fieldset><legend>Parameters</legend>{params}</fieldset>" if params else ""
    low, high, default = rules.players_min, rules.players_max, rules.players_default
    players = f'<p><label for="players">Players</label> <input id="players" name="players" type="number" min="{low}" max="{high}" value="{default}"></p>'
    choices = ["human", *bots]
    rows = []
    for seat in range(high):
        kind = "human" if seat < 2 else "heuristic"
        options = "".join(
            f'<option value="{h(k)}"{" selected" if k == kind else ""}>{h("a person" if k == "human" else "computer: " + k)}</option>' for k in choices
        )
        rows.append(f'<p class="seat-row" data-seat="{seat}"><label for="seat{seat}">Seat {seat + 1}</label> <select id="seat{seat}" name="seat{seat}">{options}</select></p>')
    think = '<p><label for="think">Think time of the search player (seconds)</label> <input id="think" name="think" value="0.5" inputmode="decimal" size="5"></p>'
    words = ""
    if explanation is not None:
        words = f'<details class="rules"><summary>The rules in words</summary>{explanation_html(explanation)}</details>'
    form = (
        f'<form method="post" action="/tables" class="panel">{kept}{params_html}{players}'
        f'<fieldset><legend>Seats</legend>{"".join(rows)}{think}</fieldset>'
        '<p><button type="submit">Open the table</button></p></form>'
    )
    return page("whistdsl: set up the table", f"<main>{head}{alert}{listed}{words}{form}</main>", ["start.js"])


def start_page_form(chosen: str, text: str) -> str:
    """The ruleset's form again, under its findings, to fix it and check again."""
    return (
        '<form method="post" action="/setup" class="panel">'
        f'<input type="hidden" name="ruleset" value="{h(chosen)}">'
        f'<p><label for="text">Your ruleset</label><textarea id="text" name="text" rows="16" spellcheck="false">{h(text)}</textarea></p>'
        '<p><button type="submit">Check it again</button> <a href="/">Start again</a></p></form>'
    )


def explanation_html(explanation: Explanation) -> str:
    out = [f"<h2>{h(explanation.title)}</h2>"]
    if explanation.description:
        out.append(f"<p>{h(explanation.description)}</p>")
    for section in explanation.sections:
        out.append(f"<h3>{h(section.title)}</h3><ul>" + "".join(f"<li>{h(line)}</li>" for line in section.lines) + "</ul>")
        table = section.table
        if table is not None:
            head = "".join(f"<th scope=\"col\">{h(c)}</th>" for c in table.header)
            rows = "".join("<tr>" + "".join(f"<td>{h(c)}</td>" for c in row) + "</tr>" for row in table.rows)
            out.append(f'<table class="worked"><caption>{h(table.caption)}</caption><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>')
    return "".join(out)


def rules_page(explanation: Explanation) -> str:
    return page(f"{explanation.title}: the rules", f'<main class="rules">{explanation_html(explanation)}</main>')


def join_page(table_name: str, free: Sequence[tuple[int, str]], problem: str = "") -> str:
    alert = f'<p class="problem" role="alert">{h(problem)}</p>' if problem else ""
    if not free:
        return page("whistdsl: join", f"<main><h1>{h(table_name)}</h1>{alert}<p>Every person's seat is taken.</p></main>")
    seats = "".join(
        f'<p><input type="radio" id="seat{s}" name="seat" value="{s}"{" checked" if i == 0 else ""}> <label for="seat{s}">Seat {s + 1} ({h(name)})</label></p>'
        for i, (s, name) in enumerate(free)
    )
    body = (
        f"<main><h1>{h(table_name)}</h1>{alert}"
        '<form method="post" class="panel"><fieldset><legend>Pick a free seat</legend>'
        f"{seats}</fieldset>"
        '<p><label for="name">Your name</label> <input id="name" name="name" maxlength="40" required autocomplete="nickname"></p>'
        '<p><button type="submit">Sit down</button></p></form></main>'
    )
    return page("whistdsl: join the table", body)


def table_page(lang: str = "en") -> str:
    """The table's shell: table.js draws everything in it from the frames."""
    body = """<main id="table" class="table" aria-live="polite">
<header class="top"><h1 id="title">whistdsl</h1><p id="status" role="status"></p></header>
<section id="links" class="panel" hidden aria-label="Links to send"></section>
<section id="seats" class="panel seats" aria-label="Seats"></section>
<section id="board" class="panel" aria-label="The hand">
<p id="hand-line"></p><p id="trump-line"></p><p id="bids-line"></p>
<div id="trick" class="trick" aria-label="The trick in play"></div>
<p id="last-trick"></p>
</section>
<section id="ask" class="panel ask" aria-label="Your turn"></section>
<section id="hand" class="panel" aria-label="Your cards"></section>
<section id="results" class="panel" aria-label="Hand results"></section>
<section class="panel" aria-label="Score sheet"><h2>Score sheet</h2><div id="sheet" class="sheet"></div></section>
<p id="more"></p>
</main>"""
    return page("whistdsl table", body, ["table.js"], lang=lang)


def closed_page(ruleset: str, records: Sequence[tuple[int, str]], hours: float) -> str:
    """A closed table's link: it was closed with nobody at it; its games' records to download."""
    listed = "".join(f'<li><a href="{h(href)}" download>Game {n} (record, JSON)</a></li>' for n, href in records)
    kept = f"<ul>{listed}</ul>" if listed else "<p>No game of it was kept.</p>"
    body = (
        f"<main><h1>{h(ruleset)}</h1>"
        f'<p role="status">This table was closed: nobody was at it and nothing was played for {h(f"{hours:g}")} hours. '
        "Its games' records can still be downloaded, and <code>whistdsl replay</code> checks them.</p>"
        f'{kept}<p><a href="/">Start page</a></p></main>'
    )
    return page("whistdsl: a closed table", body)
