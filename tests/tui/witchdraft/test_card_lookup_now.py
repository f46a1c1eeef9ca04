"""The card lookup's current values at WitchDraft, from an engine-driven draft: in which potion and cells a card
lies (named as the linear rendering names cells), never another apprentice's hand or secret cards."""

from __future__ import annotations

import re

from saves import LiveSession, SeatInfo, SessionStore
from tests.helpers.narration import bot_move
from tui.games import game_ui
from tui.games.witchdraft.narration import area_rows, half_words

UI = game_ui("witchdraft")


def drafted(store: SessionStore) -> LiveSession:
    """Two bots' draft, stopped once each potion holds two companions besides the apprentice."""
    live = LiveSession.create(store, "witchdraft", {}, 5, [SeatInfo("Ana"), SeatInfo("Bo")])
    for _ in range(400):
        if all(len(p.area) >= 3 and p.hand for p in live.state.players):
            return live
        bot_move(live)
    raise AssertionError("the draft never placed two cards each")


def test_a_placed_card_names_its_potion_and_cells(store: SessionStore) -> None:
    live = drafted(store)
    view = live.rules.view(live.state, 0)
    rows = " ".join(area_rows(view.players[0].area))
    for card_id, *_ in view.players[0].area:
        text = UI.card_now(view, 0, card_id)
        assert text is not None and "in your potion" in text.lower()
        for half in (0, 1):
            found = re.search(rf"half {'AB'[half]} at (\w+)", text)
            assert found is not None and f"{half_words(card_id, half)} at {found.group(1)}" in rows, text
    bo_card = view.players[1].area[-1][0]
    bo_text = UI.card_now(view, 0, bo_card)
    assert bo_text is not None and "Bo's potion" in bo_text  # potions are public
    mine = view.players[0]
    assert mine.hand and UI.card_now(view, 0, mine.hand[0]) == "Now: In your hand."
    assert mine.recipe is not None and UI.card_now(view, 0, mine.recipe) == "Now: Your recipe."


def test_another_apprentice_s_hand_and_secrets_stay_hidden(store: SessionStore) -> None:
    live = drafted(store)
    state = live.state
    bo = state.players[1]
    assert not state.face_up
    for seat in (0, None):
        view = live.rules.view(state, seat)
        for card in (*bo.hand, bo.recipe, bo.ingredients):
            text = UI.card_now(view, seat, card) or ""
            assert "Bo's" not in text and "hand" not in text and "recipe" not in text, text
    bo_view = live.rules.view(state, 1)
    assert UI.card_now(bo_view, 1, bo.recipe) == "Now: Your recipe."
    assert UI.card_now(bo_view, 1, bo.ingredients) == "Now: Your ingredient card."
