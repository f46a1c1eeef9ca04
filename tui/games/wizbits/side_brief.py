"""The brief side: the compact layout's opponent, dense enough that every character's Main Points show at 80x24.

Each Character takes two lines, its name and its points, the Main Character
first; the deck, discard and hand counts come last, on one line. Non-Elements,
seceded cards and characters that find no room wait behind ``o`` (the panel's
border counts them), but a card a unit on the Pillar targets is always named.
"""

from __future__ import annotations

from rich.console import Console
from rich.text import Text

from engine.wizbits.cards.card_set import CARDS_BY_ID
from engine.wizbits.dice import die_level
from engine.wizbits.terms import Attribute
from engine.wizbits.unit_targets import threatened
from engine.wizbits.views import PermanentView, PlayerView, WizbitsView
from tui.games.wizbits.card import ELEMENT_COLOURS, ELEMENT_GLYPHS

THREAT_MARK = "◎"
"""Marks a card in play that a unit on the Pillar targets (a glyph, so it never rests on colour alone)."""

_MEASURE = Console(width=200, color_system=None, force_terminal=False, legacy_windows=False)
"""Only measures wrapped lines; never prints."""


def brief_points(permanent: PermanentView, width: int) -> str:
    """A Character's Main Points in ``width`` cells: ``" S d8 W d6 M d10 SCN 9 (2 dmg)"`` down to ``"S8 W6 M10 SCN9 (2dmg)"``."""
    points = permanent.points
    if points is None:
        return ""
    s, w, m = die_level(points.strength), die_level(points.will), die_level(points.magic)
    scn, damage = points.scn, permanent.damage
    forms = (
        f" S d{s} W d{w} M d{m} SCN {scn}" + (f" ({damage} dmg)" if damage else ""),
        f" Sd{s} Wd{w} Md{m} SCN {scn}" + (f" ({damage} dmg)" if damage else ""),
        f"Sd{s} Wd{w} Md{m} SCN{scn}" + (f" ({damage} dmg)" if damage else ""),
        f"S{s} W{w} M{m} SCN{scn}" + (f" ({damage}dmg)" if damage else ""),
    )
    return next((form for form in forms if len(form) <= width), forms[-1][: max(width, 1)])


def _name_line(permanent: PermanentView, width: int, aimed: bool) -> tuple[Text, str]:
    """``★ ≈ Tidewhisper Sage ◎ (Elusive)`` cut to ``width``; also the attributes it had no room for."""
    card = CARDS_BY_ID[permanent.card_id]
    head = f"{'★' if permanent.is_main else '•'} {ELEMENT_GLYPHS[card.element]} "
    mark = f" {THREAT_MARK}" if aimed else ""
    room = max(1, width - len(head) - len(mark))
    name = card.name if len(card.name) <= room else card.name[: room - 1] + "…"
    line = Text(head + name, style=f"bold {ELEMENT_COLOURS[card.element]}")
    if mark:
        # The mark is a glyph as well as reverse video, and it is never what the cut takes.
        line.append(mark, style="bold reverse")
    labels = ", ".join(Attribute(attribute).label for attribute in permanent.attributes)
    extra = f" ({labels})" if labels else ""
    if extra and line.cell_len + len(extra) <= width:
        line.append(extra, style="italic")
        extra = ""
    return line, extra


def _character(permanent: PermanentView, width: int, aimed: bool) -> Text:
    """A Character's two lines: its name, then its points (and the attributes the name line had no room for)."""
    line, extra = _name_line(permanent, width, aimed)
    points = brief_points(permanent, width)
    line.append("\n" + points)
    if extra and len(points) + len(extra) <= width:
        line.append(extra, style="italic")
    return line


def _counts(player: PlayerView, width: int) -> Text:
    """``Deck 57 Disc 0 Hand 7`` (and the granted points) in as few lines as ``width`` allows."""
    deck, discard, hand = player.deck_count, len(player.discard), player.hand_count
    forms = [f"Deck {deck}  Disc {discard}  Hand {hand}", f"Deck {deck} Disc {discard} Hand {hand}",
             f"Dk {deck} Dc {discard} Hd {hand}"]
    counts = next((form for form in forms if len(form) <= width), forms[-1])
    out = Text(counts, style="dim")
    if player.points:
        granted = f" · {player.points} granted"
        out.append(granted if len(counts) + len(granted) <= width else f"\n{player.points} granted", style="bold")
    return out


def lines(text: Text, width: int) -> int:
    """How many rows ``text`` takes wrapped to ``width`` cells."""
    return len(text.wrap(_MEASURE, max(width, 1))) if text.plain else 1


def _table(characters: list[PermanentView], width: int, aimed_at: frozenset[int]) -> list[tuple[int | None, Text]]:
    """The densest form: a header, then one row per Character with its die levels and SCN in columns."""
    hurt = any(p.damage for p in characters)
    columns = ("S", "W", "M", "SCN") + (("dmg",) if hurt else ())
    cells = 4 * len(columns)
    header = Text("".join(f"{column:>4}" for column in columns).rjust(width), style="dim")
    rows: list[tuple[int | None, Text]] = [(None, header)]
    for permanent in characters:
        card = CARDS_BY_ID[permanent.card_id]
        points = permanent.points
        assert points is not None  # only characters come here
        mark = THREAT_MARK if permanent.iid in aimed_at else ""
        head = f"{'★' if permanent.is_main else '•'}{ELEMENT_GLYPHS[card.element]} "
        room = max(1, width - cells - len(head) - len(mark))
        name = card.name if len(card.name) <= room else card.name[: room - 1] + "…"
        line = Text(head + name, style=f"bold {ELEMENT_COLOURS[card.element]}")
        if mark:
            line.append(mark, style="bold reverse")
        values = [f"d{die_level(points.strength)}", f"d{die_level(points.will)}", f"d{die_level(points.magic)}",
                  str(points.scn)] + ([str(permanent.damage or "")] if hurt else [])
        line.append(" " * max(0, width - cells - line.cell_len) + "".join(f"{value:>4}" for value in values))
        rows.append((permanent.iid, line))
    return rows


def brief_parts(view: WizbitsView, seat: int, *, width: int, rows: int) -> list[tuple[int | None, Text]]:
    """The brief side in at most ``rows`` rows of ``width`` cells, as ``(iid, lines)`` pieces (``None``: no card).

    Every Character gets two lines (name, points) when all of them fit so; otherwise they share a table of
    one row each. The Main Character always shows; others follow in play order while rows remain, then a
    ``◎ targeted:`` line for any targeted card left out, then the counts.
    """
    player: PlayerView = view.players[seat]
    aimed_at = threatened(view.targets)
    characters = sorted((p for p in player.in_play if p.points is not None and not p.seceded),
                        key=lambda p: not p.is_main)
    counts = _counts(player, width)

    def fit(pieces: list[tuple[int | None, Text]], fixed: int) -> list[tuple[int | None, Text]] | None:
        """The first ``fixed`` pieces and as many more as fit with the threat line and counts (None: none fit)."""
        for keep in range(len(pieces), fixed - 1, -1):
            shown = {iid for iid, _ in pieces[:keep]}
            aimed = [CARDS_BY_ID[p.card_id].name for p in player.in_play if p.iid in aimed_at and p.iid not in shown]
            tail = ([(None, Text(f"{THREAT_MARK} targeted: {', '.join(aimed)}", style="bold"))] if aimed else [])
            tail.append((None, counts))
            chosen = pieces[:keep] + tail
            if sum(lines(piece, width) for _, piece in chosen) <= rows or keep == fixed:
                return chosen
        return None

    two_lines: list[tuple[int | None, Text]] = [(p.iid, _character(p, width, p.iid in aimed_at)) for p in characters]
    whole = fit(two_lines, len(two_lines))
    if len(characters) <= 1 or (whole is not None and sum(lines(t, width) for _, t in whole) <= rows):
        return whole or [(None, counts)]
    # Not all fit two lines each: the table, its header and the Main Character always, the others as rows allow.
    table = fit(_table(characters, width, aimed_at), 2)
    return table or [(None, counts)]
