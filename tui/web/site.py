"""The browser door's web application: the login page, the app page, Coven's own static files and ``/ws``.

Every response carries strict security headers (:data:`SECURITY_HEADERS`). Static files are read once at
start-up from ``tui/web/static`` and served by exact name from memory, so no request can reach any other file.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from pathlib import Path

from aiohttp import web

from tui.server.accounts import read_password_file, signed_in_as
from tui.server.limits import address_key
from tui.server.output import cap_send_buffer
from tui.server.players import Login, parse_login
from tui.server.server import ServerState, printable
from tui.web.door import MAX_MESSAGE_BYTES, BrowserSeat
from tui.web.kept_seat import SeatSeal
from tui.web.pages import app_page, login_page
from tui.web.tokens import TOKEN_LIFETIME, TokenSigner

log = logging.getLogger("coven.serve")

STATIC_DIR = Path(__file__).resolve().parent / "static"
COOKIE = "coven_login"
MAX_FORM_BYTES = 4096
"""The largest request body accepted (the login form is far smaller)."""
MAX_NAME = 64
MAX_PASSWORD = 256
CLOSE_SECONDS = 2.0
"""How long a closing socket waits for the page to answer the close."""
_CONTENT_TYPES = {".js": "text/javascript", ".css": "text/css", ".txt": "text/plain"}
CONTENT_SECURITY_POLICY = "; ".join((
    "default-src 'none'",
    "script-src 'self'",
    # xterm.js writes its colours and cell sizes into <style> elements it makes at run time.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
))
SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    # "same-origin", not "no-referrer": under no-referrer a browser posts the login form with "Origin: null".
    "Referrer-Policy": "same-origin",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
    "Cache-Control": "no-store",
}
TOO_MANY = "Too many attempts from {address}; wait a little and try again."
WRONG = "Wrong account or password."


def static_files(directory: Path = STATIC_DIR) -> dict[str, tuple[bytes, str]]:
    """Coven's static files by name: their bytes and content type (read once; nothing else is ever served)."""
    files: dict[str, tuple[bytes, str]] = {}
    for path in sorted(directory.iterdir()):
        if path.is_file() and not path.name.startswith(".") and path.suffix in _CONTENT_TYPES:
            files[path.name] = (path.read_bytes(), _CONTENT_TYPES[path.suffix])
    return files


async def _security_headers(request: web.Request, response: web.StreamResponse) -> None:
    """Add the security headers to every response, errors and the WebSocket's upgrade included."""
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)


def _same_origin(request: web.Request) -> bool:
    """Whether a form post or socket comes from one of this door's own pages (no Origin: not a browser's page)."""
    origin = request.headers.get("Origin")
    return origin is None or origin == f"{request.scheme}://{request.host}"


def _page(html: str, status: int = 200) -> web.Response:
    """An HTML response."""
    return web.Response(text=html, status=status, content_type="text/html", charset="utf-8")


def _redirect(location: str) -> web.Response:
    """A 303 to ``location`` (one of this door's own paths)."""
    return web.Response(status=303, headers={"Location": location})


class Door:
    """The web application's handlers and what they share."""

    def __init__(self, state: ServerState, signer: TokenSigner | None = None) -> None:
        """Handlers for ``state``'s door; a fresh signer (and so a fresh secret) unless one is given."""
        self.state = state
        self.signer = signer or TokenSigner()
        self.seal = SeatSeal(self.signer.derived_key("kept seat"))
        self.files = static_files()
        self.serial = itertools.count(1)
        self.seats: set[BrowserSeat] = set()

    def application(self) -> web.Application:
        """The aiohttp application."""
        app = web.Application(client_max_size=MAX_FORM_BYTES)
        app.on_response_prepare.append(_security_headers)
        app.router.add_get("/", self.index)
        app.router.add_get("/login", self.login_form)
        app.router.add_post("/login", self.login_post)
        app.router.add_get("/static/{name}", self.static)
        app.router.add_get("/ws", self.socket)
        return app

    def _login(self, request: web.Request) -> Login | None:
        """Who the request's cookie says logged in, if it is one this door signed."""
        return self.signer.verify(request.cookies.get(COOKIE))

    async def index(self, request: web.Request) -> web.Response:
        """The app page for a logged-in visitor; the login page's address for anyone else."""
        linear = request.query.get("linear") == "1"
        if self._login(request) is None:
            return _redirect("/login?linear=1" if linear else "/login")
        return _page(app_page(linear=linear))

    async def login_form(self, request: web.Request) -> web.Response:
        """The login page."""
        return _page(login_page(passwords=self.state.config.auth == "password",
                                linear=request.query.get("linear") == "1"))

    async def login_post(self, request: web.Request) -> web.Response:
        """Check a login (same accounts and throttles as SSH) and set the signed cookie, or say why not."""
        passwords = self.state.config.auth == "password"
        address = request.remote or "?"
        key = address_key(address)
        if not _same_origin(request):
            log.warning("web %s refused: a login posted from another site", address)
            return web.Response(status=403, text="Log in from Coven's own login page.")
        try:
            form = await request.post()
        except web.HTTPRequestEntityTooLarge:
            return web.Response(status=413, text="That login form is too large.")
        name, password = form.get("name"), form.get("password", "")
        linear = form.get("linear") == "1"

        def again(message: str, status: int) -> web.Response:
            """The login page once more, saying ``message``."""
            return _page(login_page(passwords=passwords, message=message, linear=linear), status)

        if not self.state.limiter.allow(key):
            log.warning("web %s refused: too many login attempts", address)
            return again(TOO_MANY.format(address=address), 429)
        if not isinstance(name, str) or not isinstance(password, str) or not name.strip() \
                or len(name) > MAX_NAME or len(password) > MAX_PASSWORD:
            return again("Type a name of at most 64 characters.", 400)
        login = parse_login(name, accounts=passwords)
        if passwords:
            account = await self._check_password(key, login.account, password)
            if account is None:
                log.warning("web %s user=%s auth failed method=password", address, printable(login.account))
                return again(WRONG, 401)
            login = Login(account=account, player=login.player, code=login.code)
        log.info("web %s user=%s auth ok method=%s", address, printable(login.account),
                 "password" if passwords else "none")
        response = _redirect("/?linear=1" if linear else "/")
        response.set_cookie(COOKIE, self.signer.sign(login), max_age=int(TOKEN_LIFETIME), path="/",
                            httponly=True, samesite="Strict", secure=request.secure)
        return response

    async def _check_password(self, key: str, account: str, password: str) -> str | None:
        """The account ``password`` signs in to, after the SSH door's throttle waits; the throttle hears the result."""
        path = self.state.config.password_file
        if path is None:
            return None
        throttle = self.state.throttle
        if (wait := throttle.address_wait(key, account)) > 0:
            await asyncio.sleep(wait)
        while (wait := throttle.account_wait(account)) > 0:
            await asyncio.sleep(wait)
        throttle.begin_check(account)
        outcome: bool | None = None
        try:
            # scrypt is slow on purpose: off the event loop. The file is read each time, as over SSH.
            written = await asyncio.get_running_loop().run_in_executor(
                None, lambda: signed_in_as(read_password_file(path), account, password))
            outcome = written is not None
        except Exception as error:  # noqa: BLE001 - a broken file must not crash the door
            log.error("web password check failed: %s", error)
            written = None
        finally:
            throttle.end_check(key, account, outcome)
        return written

    async def static(self, request: web.Request) -> web.Response:
        """One of Coven's static files, by exact name; anything else is not found."""
        found = self.files.get(request.match_info["name"])
        if found is None:
            raise web.HTTPNotFound(text="Not found.")
        body, content_type = found
        response = web.Response(body=body, content_type=content_type)
        response.headers["Cache-Control"] = "no-cache"
        return response

    async def socket(self, request: web.Request) -> web.StreamResponse:
        """The app's WebSocket: refused without a signed login, then one Coven for this visit."""
        address = request.remote or "?"
        number = next(self.serial)
        if not _same_origin(request):
            log.warning("#%d web %s refused: a socket opened from another site", number, address)
            return web.Response(status=403, text="Open Coven from its own page.")
        login = self._login(request)
        if login is None:
            log.warning("#%d web %s refused: no login", number, address)
            return web.Response(status=403, text="Log in first, at /login.")
        if not self.state.limiter.allow(address_key(address)):
            log.warning("#%d web %s refused: too many connection attempts", number, address)
            return web.Response(status=429, text=TOO_MANY.format(address=address))
        if request.transport is not None:  # else a page that reads nothing parks megabytes in the kernel, as over SSH
            cap_send_buffer(request.transport.get_extra_info("socket"))
        ws = web.WebSocketResponse(max_msg_size=MAX_MESSAGE_BYTES, heartbeat=60, timeout=CLOSE_SECONDS)
        await ws.prepare(request)
        seat = BrowserSeat(self.state, ws, request, login, number, address, seal=self.seal,
                           cookie=request.cookies.get(COOKIE, ""))
        self.seats.add(seat)
        try:
            await seat.run()
        finally:
            self.seats.discard(seat)
        return ws

    async def close_all(self, reason: str) -> None:
        """Say goodbye to every visit and hang its Coven up (the door is stopping)."""
        seats = list(self.seats)
        for seat in seats:
            seat.hang_up()
        # A page that does not answer the close is waited for CLOSE_SECONDS at most.
        await asyncio.gather(*(seat.ws.close(code=1001, message=reason.encode("utf-8")) for seat in seats),
                             return_exceptions=True)

