"""The pages of `whistdsl serve`: a ruleset linted as `whistdsl lint` lints it (findings with
line, column and caret; errors keep the table closed; the same limits), its parameters as form
fields, everything from files and people escaped, and a Content-Security-Policy without inline
script on every response."""

from __future__ import annotations

import re

import pytest
from serve_client import Server

from whistdsl.web.app import CSP

HOSTILE = '<script>alert(1)</script>"><img src=x onerror=alert(2)>'
RAW = ("<script>alert(1)", "<img src=x", "onerror=alert(2)>")


def no_inline_script_or_style(page: str) -> None:
    assert not re.search(r"<script(?![^>]*\bsrc=)", page), "a script without src"
    assert "<style" not in page and not re.search(r"\sstyle=", page)
    tags = re.findall(r"<[a-zA-Z][^>]*>", page)  # escaped text holds no `<`: these are the page's own tags
    assert not [t for t in tags if re.search(r"\son[a-z]+=", t)], "an event handler attribute"


def test_every_response_carries_the_security_headers_and_no_page_holds_inline_script(tmp_path):
    with Server(tmp_path) as server:
        table, host = server.open_table("serbian", ["human", "random", "random", "random"])
        for path in (
            "/",
            "/rules?ruleset=serbian",
            f"/t/{table.id}/host/{host}",
            f"/t/{table.id}/join/{table.invite}",
            f"/t/{table.id}/rules",
            "/static/table.js",
            "/nope",
        ):
            response = server.client.get(path)
            assert response.headers["content-security-policy"] == CSP, path
            assert "script-src 'self'" in CSP and "unsafe-inline" not in CSP
            assert response.headers["x-content-type-options"] == "nosniff" and response.headers["referrer-policy"] == "no-referrer"
            if response.headers["content-type"].startswith("text/html"):
                no_inline_script_or_style(response.text)
        setup = server.client.post("/setup", data={"ruleset": "openspiel", "text": ""})
        no_inline_script_or_style(setup.text)


def test_a_ruleset_with_errors_shows_its_findings_with_line_column_and_caret_and_cannot_open_a_table(tmp_path):
    text = "whistdsl: 2\nextends: serbian\nname: House\nbidding:\n  allowed: bid <= hand_sise\n"
    with Server(tmp_path) as server:
        response = server.client.post("/setup", data={"ruleset": "", "text": text})
        assert response.status_code == 422
        assert re.search(r"your-ruleset\.yaml:5:\d+</code>: <strong>error W\d+</strong>", response.text)
        assert "hand_sise" in response.text and re.search(r"\n\s*\^+</pre>", response.text)
        assert 'action="/tables"' not in response.text
        refused = server.client.post("/tables", data={"ruleset": "", "text": text, "players": "4", **{f"seat{s}": "random" for s in range(4)}})
        assert refused.status_code == 422 and not server.tables


@pytest.mark.parametrize(
    "extends, said",
    [
        ("/etc/passwd", "an absolute path"),
        ("../../etc/passwd.yaml", "leads outside the folder"),
        ("https://example.com/x.yaml", "a URL"),
        ("serbain", "did you mean `serbian`"),
    ],
)
def test_a_pasted_ruleset_extends_only_bundled_rulesets(tmp_path, extends, said):
    with Server(tmp_path) as server:
        response = server.client.post("/setup", data={"ruleset": "", "text": f"whistdsl: 2\nextends: {extends}\n"})
        assert response.status_code == 422 and said in response.text.replace("&#x27;", "'")


def test_a_pasted_ruleset_over_the_lint_limit_is_refused_unread(tmp_path):
    with Server(tmp_path) as server:
        response = server.client.post("/setup", data={"ruleset": "", "text": "# " + "x" * (256 * 1024)})
        assert response.status_code == 422 and "larger than 256 KiB" in response.text


def test_declared_parameters_become_fields_whose_values_open_the_table(tmp_path):
    with Server(tmp_path) as server:
        setup = server.client.post("/setup", data={"ruleset": "openspiel", "text": ""})
        assert setup.status_code == 200
        assert re.search(r'<input id="param\.tricks" name="param\.tricks" value="5"', setup.text)
        assert "cards dealt to each player" in setup.text and "The rules in words" in setup.text
        assert re.search(r'<input id="players" name="players" type="number" min="3" max="7" value="3">', setup.text)
        form = {"ruleset": "openspiel", "text": "", "players": "4", **{f"seat{s}": "random" for s in range(4)}}
        refused = server.client.post("/tables", data={**form, "param.tricks": "99"})
        assert refused.status_code == 422 and "tricks" in refused.text and not server.tables
        table, _ = server.open_table("openspiel", ["random"] * 4, params={"tricks": "3"})
        assert table.rules.parameter_values["tricks"] == 3 and table.game.hand_size == 3


def test_names_descriptions_and_rule_text_from_files_and_people_are_escaped(tmp_path):
    text = f"whistdsl: 2\nextends: openspiel\nname: '{HOSTILE}'\ndescription: '{HOSTILE}'\n"
    with Server(tmp_path) as server:
        setup = server.client.post("/setup", data={"ruleset": "", "text": text})
        assert setup.status_code == 200, setup.text[:3000]
        table, host = server.open_table("", ["human", "human", "random"], text=text)
        token = server.join(table, 0, HOSTILE[:40])
        pages = [
            setup.text,
            server.client.get(f"/t/{table.id}/rules").text,
            server.client.get(f"/t/{table.id}/join/{table.invite}").text,
            server.client.get(f"/t/{table.id}/seat/{token}").text,
        ]
        for page in pages:
            for raw in RAW:
                assert raw not in page
            no_inline_script_or_style(page)
        assert "&lt;script&gt;alert(1)&lt;/script&gt;&quot;&gt;&lt;img src=x onerror=alert(2)&gt;" in pages[0]
        assert "&lt;script&gt;" in pages[1] and "&lt;script&gt;" in pages[2]
        bad = server.client.post("/setup", data={"ruleset": "", "text": text + "bidding:\n  allowed: '<img src=x onerror=alert(3)>'\n"})
        assert "<img src=x onerror=alert(3)>" not in bad.text and "&lt;img src=x onerror=alert(3)&gt;" in bad.text
