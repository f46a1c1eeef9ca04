"""The README's picture of the browser door, taken through a real headless Chromium (``make screenshots``).

Needs Chromium, chromedriver (Debian: ``apt-get install chromium chromium-driver``) and selenium (a test
tool, installed by ``make screenshots``); without them the picture is skipped with a line saying why.
"""

from __future__ import annotations

import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from tui.server.connection import SOURCE_ROOT

WINDOW = (1000, 640)
"""The browser window's size in pixels: about 100x33 cells of the page's terminal."""
LIMIT_SECONDS = 60.0
_LISTENING = re.compile(r"listening on \S+:(\d+)")
_SCREEN_TEXT = """
const term = window.covenTerminal;
if (!term) { return ""; }
const lines = [];
for (let row = 0; row < term.rows; row++) {
  const line = term.buffer.active.getLine(row);
  lines.push(line ? line.translateToString(true) : "");
}
return lines.join("\\n");
"""


def _start_door() -> tuple[subprocess.Popen[str], int]:
    """``coven web --port 0`` on loopback (this process's data folder), and its port."""
    door = subprocess.Popen([sys.executable, "-m", "tui.cli", "web", "--port", "0", "--no-warm"], cwd=SOURCE_ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL, text=True)
    assert door.stdout is not None
    for line in door.stdout:
        if match := _LISTENING.search(line):
            return door, int(match.group(1))
    door.wait()
    raise RuntimeError("coven web did not start")


def capture_browser_door(directory: Path) -> list[Path]:
    """Log in at a fresh ``coven web`` in headless Chromium and save the main menu as ``browser-door.png``.

    Returns the picture's path, or nothing (with a line on stderr) where there is no browser.
    """
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver_path = shutil.which("chromedriver")
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
        from selenium.webdriver.common.by import By
    except ImportError:
        chromium = None
    if chromium is None or driver_path is None:
        print("skipped browser-door.png: no headless browser; install chromium and chromium-driver "
              "(Debian: apt-get install chromium chromium-driver)", file=sys.stderr)
        return []
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                     f"--window-size={WINDOW[0]},{WINDOW[1]}"):
        options.add_argument(argument)
    door, port = _start_door()
    browser = webdriver.Chrome(options=options, service=Service(driver_path))
    try:
        browser.get(f"http://127.0.0.1:{port}/")
        browser.find_element(By.ID, "name").send_keys("Ana")
        browser.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        deadline = time.monotonic() + LIMIT_SECONDS
        while "No unfinished game" not in str(browser.execute_script(_SCREEN_TEXT)):
            if time.monotonic() > deadline:
                raise RuntimeError("the browser door never drew the main menu")
            time.sleep(0.1)
        time.sleep(0.5)  # the cursor's blink and the last cells settle
        path = directory / "browser-door.png"
        browser.save_screenshot(str(path))
        return [path]
    finally:
        browser.quit()
        door.send_signal(signal.SIGTERM)
        door.wait(timeout=30)
        if door.stdout is not None:
            door.stdout.close()

