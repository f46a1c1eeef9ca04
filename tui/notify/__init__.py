"""Notices outside the app: a short JSON POST when a table asks a player who is not connected.

:mod:`tui.notify.url` checks a URL (from ``coven serve --notify-url`` or a
player's Settings), :mod:`tui.notify.notice` builds the notice,
:mod:`tui.notify.sender` sends it off the game screen's thread, and
:mod:`tui.notify.seat_asked` is the one call a table makes when a seat is newly asked.
"""
