"""One headless Chromium per test module of the browser door (starting one costs a second or two of CPU)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.helpers.browser import headless_chromium


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """A headless Chromium shared by the module's tests; each test starts logged out (no cookies)."""
    driver = headless_chromium()
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture
def page(browser: Any) -> Any:
    """The shared browser, logged out, at its usual window size."""
    browser.delete_all_cookies()
    browser.set_window_size(1000, 700)
    return browser
