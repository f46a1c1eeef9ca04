"""``coven web`` over HTTP, without a browser: headers, static files, logins, the socket's refusals and limits."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import pytest

from tests.helpers.ssh_client import ServeProcess, wait_until
from tests.helpers.web_door import PASSWORD, add_account, raw_get, start_web

FRAMING = ("x-frame-options", "DENY")


@pytest.fixture(scope="module")
def door(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServeProcess]:
    """One ``coven web --auth password`` with the account ana, shared by the module."""
    data_dir = tmp_path_factory.mktemp("web")
    add_account(data_dir, "ana")
    with start_web(data_dir, "--auth", "password", "--rate-burst", "50") as server:
        yield server


def _base(door: ServeProcess) -> str:
    return f"http://127.0.0.1:{door.port}"


def _client() -> aiohttp.ClientSession:
    """A client that keeps cookies for an IP address, as a browser does."""
    return aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))


async def _log_in(session: aiohttp.ClientSession, door: ServeProcess, name: str, password: str) -> aiohttp.ClientResponse:
    """Post the login form as the login page would (same origin), without following the redirect."""
    return await session.post(f"{_base(door)}/login", data={"name": name, "password": password},
                              headers={"Origin": _base(door)}, allow_redirects=False)


@pytest.mark.parametrize("path", ["/login", "/static/xterm.js", "/static/no-such-file.js", "/ws"])
def test_every_response_forbids_framing_and_carries_a_strict_policy(door: ServeProcess, path: str) -> None:
    status, headers, _ = raw_get(door.port, path)
    assert status in (200, 403, 404)
    assert (FRAMING[0], headers.get(FRAMING[0])) == FRAMING
    policy = headers["content-security-policy"]
    assert "frame-ancestors 'none'" in policy
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy.split("script-src")[1].split(";")[0]
    assert "default-src 'none'" in policy
    assert headers["x-content-type-options"] == "nosniff"


@pytest.mark.parametrize("path", [
    "/static/../../../pyproject.toml",
    "/static/..%2f..%2f..%2fpyproject.toml",
    "/static/%2e%2e/%2e%2e/%2e%2e/pyproject.toml",
    "/static/..%5c..%5c..%5cpyproject.toml",
    "/../../pyproject.toml",
    "/static//etc/passwd",
    "/static/%2fetc%2fpasswd",
    "/static/site.py",
    "/static/.hidden",
])
def test_no_path_reaches_a_file_outside_coven_s_static_assets(door: ServeProcess, path: str) -> None:
    status, _, body = raw_get(door.port, path)
    assert status == 404, (path, status)
    assert b"[build-system]" not in body and b"root:" not in body and b"import" not in body


def test_the_static_assets_are_coven_s_own_xterm_with_its_licence(door: ServeProcess) -> None:
    status, headers, body = raw_get(door.port, "/static/xterm.js")
    assert status == 200 and headers["content-type"].startswith("text/javascript")
    status, _, licence = raw_get(door.port, "/static/LICENSE-xterm.txt")
    assert status == 200 and b"xterm.js authors" in licence


def test_the_app_page_sends_a_visitor_without_a_login_to_the_login_page(door: ServeProcess) -> None:
    status, headers, _ = raw_get(door.port, "/?linear=1")
    assert status == 303 and headers["location"] == "/login?linear=1"
    status, _, body = raw_get(door.port, "/login")
    assert status == 200 and b'type="password"' in body and b"<script" not in body


async def test_the_socket_refuses_a_visitor_without_a_signed_login(door: ServeProcess) -> None:
    async with _client() as session:
        for cookies in ({}, {"coven_login": "forged.token"}):
            session.cookie_jar.clear()
            session.cookie_jar.update_cookies(cookies)
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await session.ws_connect(f"{_base(door)}/ws")
            assert refused.value.status == 403
    assert "refused: no login" in door.log


async def test_a_wrong_password_is_refused_and_the_right_one_opens_the_socket(door: ServeProcess) -> None:
    async with _client() as session:
        wrong = await _log_in(session, door, "ana", "not the password")
        assert wrong.status == 401 and "Wrong account or password." in await wrong.text()
        assert "coven_login" not in {cookie.key for cookie in session.cookie_jar}
        right = await _log_in(session, door, "ANA", PASSWORD)  # account names do not depend on case
        assert right.status == 303 and right.headers["Location"] == "/"
        cookie = right.cookies["coven_login"]
        assert cookie["httponly"] and cookie["samesite"] == "Strict"
        async with session.ws_connect(f"{_base(door)}/ws?width=90&height=30",
                                      headers={"Origin": _base(door)}) as ws:
            first = await ws.receive_str(timeout=60)
            assert json.loads(first) == ["size", {"width": 90, "height": 30}]


async def test_a_login_posted_from_another_site_is_refused(door: ServeProcess) -> None:
    async with _client() as session:
        response = await session.post(f"{_base(door)}/login", data={"name": "ana", "password": PASSWORD},
                                      headers={"Origin": "http://evil.example"}, allow_redirects=False)
        assert response.status == 403 and "coven_login" not in response.cookies


async def test_an_oversize_window_is_clamped_at_start_and_on_resize(door: ServeProcess) -> None:
    async with _client() as session:
        await _log_in(session, door, "ana", PASSWORD)
        async with session.ws_connect(f"{_base(door)}/ws?width=1000&height=900",
                                      headers={"Origin": _base(door)}) as ws:
            assert json.loads(await ws.receive_str(timeout=60)) == ["size", {"width": 400, "height": 200}]
            await ws.send_str(json.dumps(["resize", {"width": 5000, "height": 120}]))
            message = await ws.receive()
            while message.type == aiohttp.WSMsgType.BINARY:  # the screen, drawn meanwhile
                message = await ws.receive(timeout=60)
            assert json.loads(message.data) == ["size", {"width": 400, "height": 120}]


async def test_a_message_beyond_the_size_bound_closes_the_socket(door: ServeProcess) -> None:
    async with _client() as session:
        await _log_in(session, door, "ana", PASSWORD)
        async with session.ws_connect(f"{_base(door)}/ws", headers={"Origin": _base(door)}) as ws:
            await ws.receive_str(timeout=60)
            await ws.send_str(json.dumps(["stdin", "x" * 40_000]))  # a piece the page may send: it stays open
            await ws.send_str(json.dumps(["resize", {"width": 81, "height": 25}]))
            message = await ws.receive(timeout=60)
            while message.type == aiohttp.WSMsgType.BINARY:
                message = await ws.receive(timeout=60)
            assert json.loads(message.data) == ["size", {"width": 81, "height": 25}]
            await ws.send_str(json.dumps(["stdin", "x" * 70_000]))
            message = await ws.receive(timeout=60)
            while message.type == aiohttp.WSMsgType.BINARY:
                message = await ws.receive(timeout=60)
            assert message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.CLOSING)
            assert ws.close_code == 1009  # "message too big"


def test_keys_auth_is_refused_with_a_reason(tmp_path: Path) -> None:
    import subprocess
    import sys

    from tests.helpers.ssh_client import ROOT

    done = subprocess.run([sys.executable, "-m", "tui.cli", "web", "--auth", "keys"], capture_output=True,
                          text=True, cwd=ROOT, env={"COVEN_DATA_DIR": str(tmp_path), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 2 and "A browser holds no SSH key" in done.stderr


def test_binding_beyond_loopback_warns_about_tls_and_a_reverse_proxy(tmp_path: Path) -> None:
    with start_web(tmp_path / "loopback") as quiet:
        assert not any("plain HTTP" in line for line in quiet.banner)
    with start_web(tmp_path / "open", "--host", "0.0.0.0") as exposed:
        warning = " ".join(exposed.banner)
        assert "plain HTTP" in warning and "reverse proxy" in warning and "HTTPS" in warning


async def test_linear_1_opens_the_visit_s_coven_in_linear_mode(door: ServeProcess) -> None:
    def command_lines() -> list[list[str]]:
        lines = []
        for pid in door.children():
            try:
                lines.append(Path(f"/proc/{pid}/cmdline").read_bytes().decode().split("\0"))
            except OSError:  # it ended meanwhile
                pass
        return lines

    wait_until(lambda: not command_lines(), "the Coven of earlier visits to be hung up", 60)
    async with _client() as session:
        await _log_in(session, door, "ana", PASSWORD)
        for query, linear in (("?linear=1", True), ("", False)):
            async with session.ws_connect(f"{_base(door)}/ws{query}", headers={"Origin": _base(door)}) as ws:
                await ws.receive_str(timeout=60)
                wait_until(lambda: len(command_lines()) == 1, "the visit's Coven", 60)
                [command] = command_lines()
                assert "play" in command and ("--linear" in command) is linear
                # No SSH door here: the lobby's join line is the browser door's address.
                assert f"--serve-port={door.port}" in command and "--serve-browser" in command
            wait_until(lambda: not command_lines(), "the visit's Coven to be hung up", 60)


async def test_stopping_the_door_hangs_every_visit_s_coven_up(tmp_path: Path) -> None:
    with start_web(tmp_path) as door:
        base = f"http://127.0.0.1:{door.port}"
        async with _client() as session:
            await session.post(f"{base}/login", data={"name": "ana"}, headers={"Origin": base})
            async with session.ws_connect(f"{base}/ws", headers={"Origin": base}) as ws:
                await ws.receive_str(timeout=60)
                wait_until(lambda: len(door.children()) == 1, "the visit's Coven", 60)
                assert door.stop() == 0
                assert door.children() == []
