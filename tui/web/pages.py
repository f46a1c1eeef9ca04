"""The two pages of the browser door: the login form and the terminal. No inline script or style, so the
Content-Security-Policy can forbid both (every script and style sheet is one of Coven's own static files)."""

from __future__ import annotations

from html import escape

_HEAD = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<link rel="stylesheet" href="/static/coven-web.css">
{extra}</head>
"""


def login_page(*, passwords: bool, message: str = "", linear: bool = False) -> str:
    """The login form: a player name, and a password when the door has accounts.

    Args:
        passwords: whether the door runs with ``--auth password``.
        message: why the last attempt failed (plain text; escaped here).
        linear: carry ``?linear=1`` through the login to the app.
    """
    name_label = "Account" if passwords else "Your name"
    password_field = ("""<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required maxlength="256">
""" if passwords else "")
    alert = f'<p id="message" role="alert">{escape(message)}</p>\n' if message else ""
    linear_field = '<input type="hidden" name="linear" value="1">\n' if linear else ""
    return _HEAD.format(title="Coven: log in", extra="") + f"""<body class="login">
<main>
<h1>Coven</h1>
<p>A table for wizarding card games. Log in to play.</p>
{alert}<form method="post" action="/login">
<label for="name">{name_label}</label>
<input id="name" name="name" autocomplete="username" required maxlength="64" autofocus>
{password_field}{linear_field}<button type="submit">Log in</button>
</form>
</main>
</body>
</html>
"""


def app_page(*, linear: bool) -> str:
    """The terminal page: xterm.js (screen-reader mode on) talking to ``/ws``; ``linear`` asks for linear mode."""
    extra = """<link rel="stylesheet" href="/static/xterm.css">
<script src="/static/xterm.js" defer></script>
<script src="/static/addon-fit.js" defer></script>
<script src="/static/coven-web.js" defer></script>
"""
    return _HEAD.format(title="Coven", extra=extra) + f"""<body class="app">
<main id="terminal" data-linear="{'1' if linear else '0'}" aria-label="Coven"></main>
<p id="status" role="status" aria-live="polite"></p>
</body>
</html>
"""
