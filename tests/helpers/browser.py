"""A real headless Chromium for the browser door's tests, driven by Selenium and Debian's chromedriver.

Without a browser on the machine the tests that need one skip, saying how to install it;
``.ci/run`` installs it, so in CI they run.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable
from typing import Any

import pytest

INSTALL_HINT = ("no headless browser for the browser door's tests: install one with "
                "`apt-get install chromium chromium-driver` (Debian; `.ci/run` does this in CI)")
BOUND = 60.0
"""Seconds before a wait gives up (a hung test's end, not a speed requirement)."""
_SCREEN_TEXT = """
const term = window.covenTerminal;
if (!term) { return null; }
const buffer = term.buffer.active;
const lines = [];
for (let row = 0; row < term.rows; row++) {
  const line = buffer.getLine(buffer.viewportY + row);
  lines.push(line ? line.translateToString(true) : "");
}
return lines.join("\\n");
"""


def browser_paths() -> tuple[str, str] | None:
    """Chromium's and chromedriver's paths, or None when either is missing."""
    chromium = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    driver = shutil.which("chromedriver")
    return (chromium, driver) if chromium and driver else None


def headless_chromium(width: int = 1000, height: int = 700) -> Any:
    """A headless Chromium at ``width`` x ``height`` pixels; the test skips when there is none."""
    paths = browser_paths()
    if paths is None:
        pytest.skip(INSTALL_HINT)
    webdriver = pytest.importorskip("selenium.webdriver", reason=INSTALL_HINT)
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = paths[0]
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     f"--window-size={width},{height}"):
        options.add_argument(argument)
    return webdriver.Chrome(options=options, service=Service(paths[1]))


def screen_text(driver: Any) -> str:
    """The text on the page's terminal, one line a row ("" before the terminal exists)."""
    return str(driver.execute_script(_SCREEN_TEXT) or "")


def wait_for(check: Callable[[], object], what: str, bound: float = BOUND) -> None:
    """Poll ``check`` until it is true; fail naming ``what`` after ``bound`` seconds."""
    deadline = time.monotonic() + bound
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.1)


def wait_for_screen(driver: Any, text: str, bound: float = BOUND) -> str:
    """Wait until ``text`` is on the page's terminal; the screen then."""
    deadline = time.monotonic() + bound
    while text not in (screen := screen_text(driver)):
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {text!r} on the page's terminal; it shows:\n{screen}")
        time.sleep(0.1)
    return screen


def log_in(driver: Any, base: str, name: str, password: str | None = None, query: str = "") -> None:
    """Open the door at ``base``, fill in the login form and send it."""
    from selenium.webdriver.common.by import By

    driver.get(base + "/" + query)
    wait_for(lambda: driver.find_elements(By.ID, "name"), "the login form")
    driver.find_element(By.ID, "name").send_keys(name)
    if password is not None:
        driver.find_element(By.ID, "password").send_keys(password)
    driver.find_element(By.CSS_SELECTOR, "button[type=submit]").click()


def type_keys(driver: Any, keys: str) -> None:
    """Type ``keys`` into the page's terminal, as a player at the keyboard."""
    from selenium.webdriver.common.by import By

    driver.find_element(By.CSS_SELECTOR, ".xterm-helper-textarea").send_keys(keys)


def kept_seat(driver: Any) -> str | None:
    """What the page keeps in its session storage for a refresh (None: nothing)."""
    kept = driver.execute_script("return window.sessionStorage.getItem('coven-kept-seat');")
    return None if kept is None else str(kept)
