"""WitchDraft side panel: your hand, your secret cards and the table.

:class:`DraftHand` only draws a :class:`WitchDraftView` and posts messages:
:class:`DraftHand.CardChosen` when the player chooses a card from the hand and
:class:`DraftHand.WatchSeat` when they want to look at another play area.
Where the card goes and whether that is legal is for the owner and the engine.

The text helpers (:func:`card_row`, :func:`card_picture`, :func:`recipe_text`,
:func:`ingredients_text`, :func:`secret_line`) are public so the potion grid and
the result screen can show cards the same way.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.message import Message
from textual.widget import Widget
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from engine.witchdraft.cards import (
    CARDS,
    INGREDIENT_CARDS_BY_ID,
    RECIPES_BY_ID,
    Animal,
    Card,
    Colour,
    Half,
    Ingredient,
)
from engine.witchdraft.state import ApprenticeView, WitchDraftView
from tui.widgets.seat_private import scroll_home
from tui.widgets.styles import load_css
from tui.widgets.witchdraft_look import (
    ANIMAL_GLYPHS,
    BOND,
    COLOUR_STYLES,
    GEM,
    GEM_STYLE,
    INGREDIENT_LETTERS,
    INGREDIENT_STYLES,
    chip_text,
    legend_text,
)


def colour_text(colour: Colour | None, short: bool = False, bare: bool = False) -> Text:
    """``"■ Crimson"`` in the colour's style; ``"Cr"`` when ``short``, ``"Crimson"`` when ``bare``."""
    if colour is None:
        return Text("—", style="dim")
    label = colour.value[:2] if short else colour.value if bare else f"■ {colour.value}"
    return Text(label, style=COLOUR_STYLES[colour])


def animal_text(animal: Animal | None) -> Text:
    """The companion's glyph and name."""
    if animal is None:
        return Text("apprentice", style="dim")
    return Text(f"{ANIMAL_GLYPHS[animal]} {animal.value}", style="bold")


def _half_text(half: Half) -> Text:
    if half.gem:
        return Text(GEM, style=GEM_STYLE)
    if half.circle is not None:
        return chip_text(half.circle)
    return Text(" ")


def _edge_text(symbol: Ingredient | None) -> Text:
    if symbol is None:
        return Text("─", style="dim")
    return Text(INGREDIENT_LETTERS[symbol], style=f"bold {INGREDIENT_STYLES[symbol]}")


def halves_text(card: Card) -> Text:
    """The card's two halves as ``[◆|Ⓕ]``."""
    return Text.assemble(("[", "dim"), _half_text(card.halves[0]), ("|", "dim"), _half_text(card.halves[1]),
                         ("]", "dim"))


def half_symbols_text(card: Card, prefix: bool = True) -> Text:
    """The card's half symbols, grouped by ingredient: ``½ DDFR`` (without ``½`` unless ``prefix``)."""
    text = Text("½ ", style="dim") if prefix else Text()
    for ingredient, letter in INGREDIENT_LETTERS.items():
        count = sum(edge == ingredient for edge in card.edges)
        if count:
            text.append(letter * count, style=INGREDIENT_STYLES[ingredient])
    if not any(card.edges) and prefix:
        text.append("none", style="dim")
    return text


def card_row(card_id: str) -> Text:
    """One line per card: companion, colour, halves and half symbols (about 28 cells)."""
    card = CARDS[card_id]
    text = animal_text(card.animal)
    text.pad_right(8 - text.cell_len)
    colour = colour_text(card.colour, bare=True)
    colour.pad_right(8 - colour.cell_len)
    return Text.assemble(text, colour, halves_text(card), " ", half_symbols_text(card, prefix=False))


def card_picture(card_id: str) -> list[Text]:
    """Three lines drawing the card at rotation 0 with its six edges, half A left."""
    card = CARDS[card_id]
    edge = [_edge_text(symbol) for symbol in card.edges]
    left = edge[1] if card.edges[1] else Text("│", style="dim")
    right = edge[4] if card.edges[4] else Text("│", style="dim")
    top = Text.assemble(("┌─", "dim"), edge[0], ("─┬─", "dim"), edge[3], ("─┐", "dim"))
    middle = Text.assemble(left, " ", _half_text(card.halves[0]), (" │ ", "dim"), _half_text(card.halves[1]), " ",
                           right)
    bottom = Text.assemble(("└─", "dim"), edge[2], ("─┴─", "dim"), edge[5], ("─┘", "dim"))
    return [top, middle, bottom]


def recipe_text(recipe_id: str) -> Text:
    """The recipe card over two lines: companion, colour pair, monochrome, gem pairs."""
    recipe = RECIPES_BY_ID[recipe_id]
    first, second = recipe.colour_pair
    mono_a, mono_b = recipe.monochrome
    return Text.assemble(
        ("Recipe ", "bold"), (recipe.name, "italic"), "\n",
        " ", animal_text(recipe.companion), (f" {recipe.companion_points}", "bold"), ("  pair ", "dim"),
        colour_text(first, short=True), ("+", "dim"), colour_text(second, short=True),
        (f" {recipe.colour_pair_points}", "bold"), "\n",
        (" mono ", "dim"), colour_text(mono_a), ("/", "dim"), colour_text(mono_b),
        (f" {recipe.monochrome_points}", "bold"),
        ("  ", ""), (GEM * 2, GEM_STYLE), (f" {recipe.gem_pair_points}", "bold"),
    )


def _ingredient_points(card_id: str) -> list[tuple[Text, int]]:
    card = INGREDIENT_CARDS_BY_ID[card_id]
    return [
        (Text(BOND, style="bold"), card.bond_points),
        (Text("D", style=INGREDIENT_STYLES[Ingredient.DRAGON_SCALE]), card.dragon_scale_points),
        (Text("F", style=INGREDIENT_STYLES[Ingredient.FLEA_GRASS]), card.flea_grass_points),
        (Text("R", style=INGREDIENT_STYLES[Ingredient.FIRE_ROOT]), card.fire_root_points),
    ]


def ingredients_text(card_id: str) -> Text:
    """The ingredient card: points per bond, dragon scale, flea grass and fire root, two to a line."""
    card = INGREDIENT_CARDS_BY_ID[card_id]
    text = Text.assemble(("Ingredients ", "bold"), (card.name, "italic"))
    labels = ("bond", "scale", "grass", "root")
    for index, ((glyph, points), label) in enumerate(zip(_ingredient_points(card_id), labels, strict=False)):
        entry = Text.assemble(glyph, (f" {label}", "dim"), (f" {points}", "bold"))
        if index % 2 == 0:
            text.append("\n ")
            entry.pad_right(12 - entry.cell_len)
        text.append_text(entry)
    return text


def secret_line(recipe_id: str, ingredients_id: str) -> Text:
    """Both secret cards on one short line, e.g. ``◎3 Cr+Az4 Am/Ja1 ◆◆2 ∞3 D2 F3 R1``."""
    recipe = RECIPES_BY_ID[recipe_id]
    text = Text.assemble(
        (f"{ANIMAL_GLYPHS[recipe.companion]}{recipe.companion_points} ", "bold"),
        colour_text(recipe.colour_pair[0], True), ("+", "dim"), colour_text(recipe.colour_pair[1], True),
        f"{recipe.colour_pair_points} ",
        colour_text(recipe.monochrome[0], True), ("/", "dim"), colour_text(recipe.monochrome[1], True),
        f"{recipe.monochrome_points} ", (GEM * 2, GEM_STYLE), f"{recipe.gem_pair_points}",
    )
    for glyph, points in _ingredient_points(ingredients_id):
        text.append(" ")
        text.append_text(glyph)
        text.append(str(points))
    return text


class DraftHand(Widget, can_focus=False):
    """The viewing seat's hand, secret cards and the table, beside the potion grid."""

    DEFAULT_CSS = load_css(__file__)

    BINDINGS = [
        Binding("space", "choose", "Pick card"),
        Binding("left_square_bracket", "watch(-1)", "Prev area", show=False),
        Binding("right_square_bracket", "watch(1)", "Areas", key_display="[ ]"),
    ]

    class Signal(Message):
        """Base of the panel's messages."""

        def __init__(self, hand: DraftHand) -> None:
            super().__init__()
            self.hand = hand

        @property
        def control(self) -> DraftHand:
            """The panel that sent this."""
            return self.hand

    class CardChosen(Signal):
        """The player chose ``card_id`` from the hand."""

        def __init__(self, hand: DraftHand, card_id: str) -> None:
            super().__init__(hand)
            self.card_id = card_id

    class CardHighlighted(Signal):
        """The cursor moved onto ``card_id`` (e.g. to preview it on the grid)."""

        def __init__(self, hand: DraftHand, card_id: str) -> None:
            super().__init__(hand)
            self.card_id = card_id

    class WatchSeat(Signal):
        """The player wants to look at ``seat``'s play area."""

        def __init__(self, hand: DraftHand, seat: int) -> None:
            super().__init__(hand)
            self.seat = seat

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.view: WitchDraftView | None = None
        self.cards: tuple[str, ...] = ()
        """The hand on show, in list order."""
        self.watching: int = 0
        """The seat whose play area the player is looking at."""
        self.placing_card: str | None = None
        """Your revealed pick while it waits to be placed (shown instead of the hand)."""
        self._wish: str | None = None  # the card to put the cursor on at the next redraw (a seat's own place)

    def compose(self) -> ComposeResult:
        yield Static(id="dh-title")
        yield OptionList(id="dh-hand")
        yield Static(id="dh-card")
        with VerticalScroll(id="dh-info"):
            yield Static(id="dh-secret")
            yield Static(id="dh-table")
            yield Static(legend_text(), id="dh-legend")

    # --- drawing ---------------------------------------------------------------------------

    def show(self, view: WitchDraftView, watching: int | None = None) -> None:
        """Redraw from ``view``; ``watching`` overrides the seat being looked at."""
        first = self.view is None
        self.view = view
        if watching is not None:
            self.watching = watching
        elif first or not 0 <= self.watching < len(view.players):
            self.watching = view.seat if view.seat is not None else 0
        me = view.me
        self._show_hand(view, me)
        secret = Text()
        if me is not None and me.recipe is not None and me.ingredients is not None:
            secret = Text.assemble(recipe_text(me.recipe), "\n", ingredients_text(me.ingredients))
        self.query_one("#dh-secret", Static).update(secret)
        self.query_one("#dh-secret", Static).display = bool(secret)
        self._show_table()

    def _show_hand(self, view: WitchDraftView, me: ApprenticeView | None) -> None:
        title = Text()
        # The rest of the hand stays off screen while placing: pass-and-play may skip the curtain then.
        hand = tuple(me.hand or ()) if me is not None and view.stage == "pick" else ()
        chosen = me.pending if me is not None else None
        self.placing_card = me.picked if me is not None and view.stage == "place" else None
        if me is None:
            title.append("Watching the table", style="bold")
        elif view.over:
            title.append("The potions are brewed", style="bold")
        elif chosen is not None:
            title.append("Your pick is in", style="bold green")
            title.append(" · waiting for the others", style="dim")
        elif view.stage == "place" and self.placing_card is not None:
            title.append("Picks revealed", style="bold green")
            title.append(" · place yours", style="dim")
        elif view.stage == "place":
            title.append("Placed", style="bold green")
            title.append(" · waiting for the others", style="dim")
        else:
            title.append("Your hand", style="bold")
            title.append(f" · phase {view.phase}, pick {view.pick}", style="dim")
        self.query_one("#dh-title", Static).update(title)
        option_list = self.query_one("#dh-hand", OptionList)
        option_list.display = bool(hand)
        keep = option_list.highlighted if hand == self.cards else None
        self.cards = hand
        options = []
        for card_id in hand:
            row = card_row(card_id)
            if card_id == chosen:
                row.append(" ✓", style="bold green")
            options.append(Option(row))
        option_list.set_options(options)
        wish, self._wish = self._wish, None
        if hand:
            start = hand.index(chosen) if chosen in hand else hand.index(wish) if wish in hand else 0
            option_list.highlighted = keep if keep is not None and keep < len(hand) else start
        self._show_card()

    def _show_card(self) -> None:
        card_id = self.highlighted_card or self.placing_card
        detail = self.query_one("#dh-card", Static)
        detail.display = card_id is not None
        if card_id is None:
            return
        card = CARDS[card_id]
        picture = card_picture(card_id)
        side = [Text(card.name, style="bold"),
                Text.assemble(animal_text(card.animal), " ", colour_text(card.colour)),
                half_symbols_text(card)]
        detail.update(Text("\n").join(Text.assemble(art, "  ", words) for art, words in zip(picture, side, strict=False)))

    def _show_table(self) -> None:
        view = self.view
        assert view is not None
        text = Text.assemble(("Table", "bold"), (f" · draw pile {view.draw_pile_count}", "dim"))
        width = min(12, max(len(player.name) for player in view.players))
        for seat, player in enumerate(view.players):
            watched = seat == self.watching
            text.append("\n")
            text.append("▶ " if watched else "  ", style="bold cyan")
            name = player.name if len(player.name) <= width else player.name[:width - 1] + "…"
            text.append(name.ljust(width), style="bold cyan" if watched else "bold")
            text.append(f" {len(player.area) - 1:>2} placed", style="")
            if not view.over:
                text.append(" ✓" if player.ready else " …", style="bold green" if player.ready else "dim")
            if seat == view.seat:
                text.append(" (you)", style="dim")
            if player.picked is not None:  # revealed, not placed yet
                card = CARDS[player.picked]
                text.append("\n    picked ", style="dim")
                text.append_text(animal_text(card.animal))
                text.append(" ")
                text.append_text(colour_text(card.colour, bare=True))
            if seat == view.seat:
                continue
            if player.recipe is not None and player.ingredients is not None:
                text.append("\n    ")
                text.append_text(secret_line(player.recipe, player.ingredients))
            else:
                text.append(" recipe hidden", style="dim italic")
        self.query_one("#dh-table", Static).update(text)

    # --- choosing --------------------------------------------------------------------------

    @property
    def highlighted_card(self) -> str | None:
        """The card under the cursor, if the hand is on show."""
        if not self.cards or not self.is_mounted:
            return None
        index = self.query_one("#dh-hand", OptionList).highlighted
        return self.cards[index] if index is not None and index < len(self.cards) else None

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        self._show_card()
        card_id = self.highlighted_card
        if card_id is not None:
            self.post_message(self.CardHighlighted(self, card_id))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.action_choose()

    def action_choose(self) -> None:
        """Post :class:`CardChosen` for the highlighted card, unless your pick is already in."""
        me = self.view.me if self.view is not None else None
        card_id = self.highlighted_card
        view = self.view
        if me is None or card_id is None or view is None or view.over or view.stage != "pick" or me.ready:
            return
        self.post_message(self.CardChosen(self, card_id))

    def action_watch(self, step: int) -> None:
        """Look at the next (``1``) or previous (``-1``) seat's play area."""
        if self.view is None:
            return
        self.watching = (self.watching + step) % len(self.view.players)
        self._show_table()
        self.post_message(self.WatchSeat(self, self.watching))

    def remember(self) -> str | None:
        """The card under the cursor: where this seat left its hand (kept per seat by the table)."""
        return self.highlighted_card

    def restore(self, card_id: str | None) -> None:
        """Before the next seat's view is drawn: its cursor goes on ``card_id`` if it is in that hand, else the top.

        Nothing of the last seat's cursor is kept, and the notes scroll back to their start.
        """
        self._wish = card_id
        self.cards = ()
        scroll_home(self.query_one("#dh-hand"), self.query_one("#dh-info"))

    def focus_hand(self) -> None:
        """Put the keyboard on the hand list."""
        self.query_one("#dh-hand", OptionList).focus()


__all__ = [
    "ANIMAL_GLYPHS", "COLOUR_STYLES", "DraftHand", "card_picture", "card_row", "colour_text",
    "ingredients_text", "recipe_text", "secret_line",
]
