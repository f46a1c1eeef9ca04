"""When a game's coach may help, and the words that say why not: generic, so any screen may ask.

The player's ``coach`` setting turns it off at this terminal; at a shared table
the host decides when opening it (stored with the table), and a spectator never
gets it while the game is being played.
"""

from __future__ import annotations

from saves.table_records import TableInfo

SETTING_OFF = "The coach is off in your settings (Settings, or: coven settings set coach on)."
HOST_SAID_NO = "The host did not allow the coach at this table."
SPECTATOR = "Spectators never get the coach while the game is being played."


def table_refusal(host_allows: bool, plays_a_seat: bool) -> str | None:
    """Why the coach may not help at a shared table, or None when it may."""
    if not plays_a_seat:
        return SPECTATOR
    return None if host_allows else HOST_SAID_NO


def coach_line(info: TableInfo) -> str:
    """The lobby's word on the host's coach switch, for a game that has a coach ("" otherwise)."""
    from tui.games import game_ui, has_ui

    if not has_ui(info.game_id) or not game_ui(info.game_id).has_coach:
        return ""
    return " Coach: the seated players may ask it." if info.coach else " Coach: not during play."
