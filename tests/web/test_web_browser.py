"""``coven web`` in a real headless Chromium: the login, a refusal without one, the menu drawn, a clamped window."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.helpers.browser import log_in, screen_text, wait_for, wait_for_screen
from tests.helpers.ssh_client import ServeProcess
from tests.helpers.web_door import PASSWORD, add_account, start_web

MENU = "C O V E N"


@pytest.fixture(scope="module")
def door(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServeProcess]:
    """One ``coven web --auth password`` with the account ana, shared by the module."""
    data_dir = tmp_path_factory.mktemp("web-browser")
    add_account(data_dir, "ana")
    with start_web(data_dir, "--auth", "password") as server:
        yield server


def _base(door: ServeProcess) -> str:
    return f"http://127.0.0.1:{door.port}"


def test_a_wrong_password_stays_on_the_login_page_and_the_right_one_draws_the_main_menu(
        door: ServeProcess, page: Any) -> None:
    from selenium.webdriver.common.by import By

    log_in(page, _base(door), "ana", "not the password")
    wait_for(lambda: page.find_elements(By.ID, "message"), "the login page's refusal")
    assert page.find_element(By.ID, "message").text == "Wrong account or password."
    assert screen_text(page) == ""  # no terminal, no Coven
    log_in(page, _base(door), "ana", PASSWORD)
    screen = wait_for_screen(page, MENU)
    assert "New game" in screen and "Host a table" in screen
    # Screen-reader mode: the rows are also in the page as text a screen reader reads.
    wait_for(lambda: "New game" in page.execute_script(
        "const tree = document.querySelector('.xterm-accessibility-tree'); return tree ? tree.textContent : '';"),
        "the menu in xterm.js's accessibility tree")
    # The strict policy lets the page run whole: nothing it needs was blocked.
    blocked = [entry["message"] for entry in page.get_log("browser") if "Content Security Policy" in entry["message"]]
    assert blocked == []


def test_without_a_login_the_page_is_the_login_form_and_the_socket_is_refused(door: ServeProcess, page: Any) -> None:
    page.get(_base(door) + "/")
    wait_for(lambda: page.current_url.endswith("/login"), "the login page")
    # The page's own origin, but no cookie: the socket never opens.
    outcome = page.execute_async_script("""
        const done = arguments[arguments.length - 1];
        const socket = new WebSocket(location.origin.replace("http", "ws") + "/ws");
        socket.onopen = () => done("opened");
        socket.onclose = () => done("closed");
    """)
    assert outcome == "closed"
    assert "refused: no login" in door.log


def test_an_oversize_window_is_clamped_to_400_by_200(door: ServeProcess, page: Any) -> None:
    page.set_window_size(6000, 4500)
    wanted = page.execute_script("return [window.innerWidth, window.innerHeight];")
    assert wanted[0] > 400 * 10 and wanted[1] > 200 * 20, "the window could not be made oversize"
    log_in(page, _base(door), "ana", PASSWORD)
    wait_for_screen(page, MENU)
    size = page.execute_script("return [window.covenTerminal.cols, window.covenTerminal.rows];")
    assert size[0] == 400 and size[1] == 200
    assert "clamped to 400x200" in door.log


def test_a_long_paste_goes_in_pieces_and_the_page_plays_on(door: ServeProcess, page: Any) -> None:
    from selenium.webdriver.common.by import By

    log_in(page, _base(door), "ana", PASSWORD)
    wait_for_screen(page, MENU)
    # 100,000 characters: one message would pass the server's bound and close the socket.
    page.execute_script("window.covenTerminal.paste('x'.repeat(100000));")
    page.find_element(By.CSS_SELECTOR, ".xterm-helper-textarea").send_keys("s")
    wait_for_screen(page, "Saved sessions")
    assert page.find_element(By.ID, "status").text == ""  # the socket never closed
