"""`whistdsl serve`: a table in the browser where people and computer players play a ruleset.

Needs the `web` extra (starlette, uvicorn, websockets); nothing else in whistdsl imports this
package. app.py the application and its routes; tables.py the tables, seats, connections and
computer players; store.py the SQLite database; protocol.py the messages; pages.py the HTML;
static/ the style sheet and scripts. See docs/serve.md.
"""
