"""A refresh is a drop, not a loss (one ``coven web --ssh-port``; Ana hosts over SSH, Bea plays in the browser):
the refreshed tab takes its seat back by itself from its session storage, with nothing typed; a value kept under
another login is refused before any Coven hears of it; and the typed token still takes the seat back."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from saves import Presence, SessionStore, TableStore
from tests.helpers.browser import kept_seat, log_in, screen_text, type_keys, wait_for, wait_for_screen
from tests.helpers.ssh_client import ServeProcess, SSHPlayer, wait_until
from tests.helpers.web_door import CODE_LINE, TOKEN, ssh_port_of, start_web


def _flat(text: str) -> str:
    return " ".join(text.split())


async def _bea_seated_in_a_started_game(door: ServeProcess, page: Any) -> tuple[SSHPlayer, str, str]:
    """Ana hosts a Wizards Cup table over SSH, Bea takes seat 2 in the browser, Ana starts: Ana, the code, the token."""
    from selenium.webdriver.common.keys import Keys

    ana = await SSHPlayer.connect(ssh_port_of(door), "ana")
    await ana.wait_for("C O V E N")
    ana.press("h")
    await ana.wait_for("Host a table")
    await ana.wait_for("Ana")
    ana.press("\x13")  # ctrl+s: a Wizards Cup table with the form's defaults, seat 2 remote
    match = CODE_LINE.search(await ana.wait_for("Waiting for 1 more player"))
    assert match
    code = "".join(match.groups())

    log_in(page, f"http://127.0.0.1:{door.port}", f"bea+{code}")  # straight to the table's seats
    wait_for_screen(page, "Take seat 2")
    type_keys(page, Keys.ENTER)
    wait_for(lambda: TOKEN.search(_flat(screen_text(page))), "Bea's seat token on her page")
    found = TOKEN.search(_flat(screen_text(page)))
    assert found
    await ana.wait_for("Everyone is here. Press s to start.")
    ana.press("s")
    wait_for_screen(page, f"Table {code} · Wizards Cup")  # the game: both choose their teams
    return ana, code, found.group(1)


def _holder(code: str, seat: int) -> str | None:
    """The presence claim of the Coven holding ``seat`` at table ``code`` now (None: the seat waits for its token)."""
    with SessionStore() as store, Presence() as presence:
        return TableStore(store, presence).find(code).seats[seat].claim


def _seat_held(code: str, seat: int) -> bool:
    """Whether some Coven holds ``seat`` at table ``code`` now."""
    return _holder(code, seat) is not None


def _data_dir() -> Path:
    """The test's data folder, which the door shares (so the test reads its tables)."""
    return Path(os.environ["COVEN_DATA_DIR"])


async def test_a_refresh_mid_game_takes_the_seat_back_from_the_tabs_session_storage(page: Any) -> None:
    with start_web(_data_dir(), "--ssh-port", "0") as door:
        ana, code, token = await _bea_seated_in_a_started_game(door, page)
        try:
            wait_for(lambda: kept_seat(page), "the seat kept in the tab's session storage")
            before = _holder(code, 1)
            assert before is not None
            page.refresh()  # the page's socket closes: Bea's Coven is hung up, like a lost SSH link
            # Nothing is typed: the refreshed tab hands its kept seat back, and its new Coven is seated again
            # (so soon, from a warm parent, that Ana's table may never have seen the seat empty).
            wait_for(lambda: _holder(code, 1) not in (None, before), "Bea's new Coven holding her seat")
            wait_for_screen(page, f"Table {code} · Wizards Cup")
            wait_for(lambda: "Pick" in screen_text(page) and "Confirm" in screen_text(page),
                     "Bea's team builder, where she left it")
            assert "Reclaim my seat" not in screen_text(page)
            # The token went nowhere else: not in a cookie, the address or the door's log.
            bare = token.replace("-", "")
            assert all(token not in cookie["value"] and bare not in cookie["value"] for cookie in page.get_cookies())
            assert token not in page.current_url and bare not in page.current_url
            assert "kept seat at table" in door.log
            assert token not in door.log and bare not in door.log
        finally:
            await ana.close()
        page.get("about:blank")  # the visit ends; its Coven is hung up before the door stops
        wait_until(lambda: not door.children(), "every player's Coven to end", 60)


async def test_a_kept_seat_is_refused_to_another_login_and_the_typed_token_still_works(page: Any) -> None:
    from selenium.webdriver.common.keys import Keys

    with start_web(_data_dir(), "--ssh-port", "0") as door:
        base = f"http://127.0.0.1:{door.port}"
        ana, code, token = await _bea_seated_in_a_started_game(door, page)
        try:
            wait_for(lambda: kept_seat(page), "the seat kept in the tab's session storage")
            kept = kept_seat(page)
            page.get(base + "/login")  # Bea's page goes; her tab still keeps her seat
            await ana.wait_for(lambda text: "Bea dropped" in _flat(text), timeout=60)
            # Cal logs in in the same tab, whose storage still holds Bea's seat (as a stolen value would).
            page.delete_all_cookies()
            assert kept_seat(page) == kept
            log_in(page, base, f"cal+{code}")
            wait_for(lambda: "kept seat refused" in door.log, "the door refusing Bea's seat to Cal's login")
            wait_for_screen(page, "Reclaim my seat")
            wait_for(lambda: kept_seat(page) is None, "the page told to forget the refused seat")
            assert not _seat_held(code, 1)  # Cal's Coven never heard of it: the seat still waits for its token
            assert "kept seat at table" not in door.log
            # The typed token is the same check as ever, and still takes the seat back.
            type_keys(page, Keys.ENTER)
            wait_for_screen(page, "Your seat token")
            type_keys(page, token.lower() + Keys.ENTER)
            wait_for_screen(page, f"Table {code} · Wizards Cup")
            await ana.wait_for(lambda text: "is back" in _flat(text), timeout=60)
            assert _seat_held(code, 1)
        finally:
            await ana.close()
        page.get("about:blank")
        wait_until(lambda: not door.children(), "every player's Coven to end", 60)
