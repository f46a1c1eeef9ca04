"""Property tests: any JSON thrown at the engine gives a typed error or a legal move."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import ActionError, state_digest
from engine.wizards_cup.cards import CARDS
from tests.helpers.wizards_cup_helpers import RULES, play_random_game

card_ids = st.sampled_from(sorted(CARDS)) | st.text(max_size=8)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=12,
)
actions = st.one_of(
    st.fixed_dictionaries({"type": st.just("team"), "cards": st.lists(card_ids, max_size=7)}),
    st.fixed_dictionaries({"type": st.just("lineup"), "order": st.lists(card_ids, max_size=7)}),
    st.fixed_dictionaries({"type": st.just("swap"), "out": card_ids, "in": card_ids}),
    st.fixed_dictionaries({"type": st.sampled_from(["keep", "duel", "pass"])}),
    json_values,
)


LOGS = [play_random_game(seed, random.Random(seed))[1] for seed in range(7)]


@settings(max_examples=300, deadline=None)
@given(steps=st.integers(min_value=0, max_value=40), seat=st.sampled_from([0, 1, None]), data=actions)
def test_arbitrary_json_is_applied_legally_or_rejected_with_a_reason(steps: int, seat: int | None,
                                                                     data: Any) -> None:
    state = RULES.replay({}, steps % 7, 2, LOGS[steps % 7][:steps])
    before = state_digest(RULES, state)
    try:
        new_state, _ = RULES.apply(state, seat, data)
    except ActionError as error:
        assert error.reason
        assert state_digest(RULES, state) == before
    else:
        action = RULES.parse_action(data)
        assert action in RULES.legal_actions(state, seat)
        assert RULES.parse_action(RULES.action_to_json(action)) == action
        assert new_state is not state
