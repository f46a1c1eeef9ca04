"""``coven web``: the browser door. Each browser visit gets its own ``coven play`` on a pty, as over SSH.

The parts: :mod:`~tui.web.config` (flags; imports nothing heavy, so ``coven --help``
stays quick), :mod:`~tui.web.tokens` (signed login cookies), :mod:`~tui.web.pages`
(the login and app pages), :mod:`~tui.web.site` (the aiohttp application: pages,
static files, security headers, logins) and :mod:`~tui.web.door` (one browser
visit's WebSocket and its Coven). aiohttp is imported only when ``coven web`` runs.
"""
