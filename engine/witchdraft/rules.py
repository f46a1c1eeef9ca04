"""WitchDraft rules: dealing, the two-phase draft, placing and scoring.

Each round of the draft has two stages, as in the rulebook: everyone picks a
card in secret at the same time; once all have picked the picks are revealed,
and then everyone places their own. Only then do the hands pass on.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping, Sequence
from typing import Any

from engine.core.contract import Event, GameRules, Result, Seat
from engine.core.errors import IllegalActionError
from engine.core.plain import plain_fields
from engine.core.rng import seeded_rng
from engine.core.text import check_seat_names
from engine.core.words import plural
from engine.witchdraft.actions import Pick, Place, WitchDraftAction, action_to_json, parse_action
from engine.witchdraft.cards import APPRENTICE_A, APPRENTICES_B, CARDS, COMPANIONS, INGREDIENT_CARDS, RECIPES
from engine.witchdraft.geometry import IllegalPlacement, PlacedCard, Placement, PlayArea
from engine.witchdraft.scoring import CategoryScore, score, total
from engine.witchdraft.state import ApprenticeState, ApprenticeView, WitchDraftState, WitchDraftView

HAND_SIZES = {2: 6, 3: 5, 4: 4, 5: 4}
"""Cards dealt per phase by player count."""

RECIPE_CARDS = {recipe.card_id: recipe for recipe in RECIPES}
INGREDIENT_BY_ID = {card.card_id: card for card in INGREDIENT_CARDS}


def area_of(player: ApprenticeState) -> PlayArea:
    """The player's play area as a geometry value."""
    return PlayArea(tuple(
        PlacedCard(str(card), Placement(int(x), int(y), int(rotation)))  # type: ignore[call-overload]
        for card, x, y, rotation in player.area
    ))


def player_scores(player: ApprenticeState) -> list[CategoryScore]:
    """The eight category scores of a player's area."""
    return score(area_of(player), RECIPE_CARDS[player.recipe], INGREDIENT_BY_ID[player.ingredients])


class WitchDraftRules(GameRules[WitchDraftState, WitchDraftAction, WitchDraftView]):
    """The rules of WitchDraft for 2 to 5 apprentices."""

    def new_state(
        self, options: Mapping[str, Any], seed: int, seats: int, names: Sequence[str] | None = None
    ) -> WitchDraftState:
        """Deal apprentices, secret recipe and ingredient cards, and the first hands."""
        names = check_seat_names(names, seats, "Apprentice")
        rng = seeded_rng(seed, "setup")
        side = str(options.get("apprentices", "A"))
        apprentices = [APPRENTICE_A.card_id] * seats if side == "A" else [
            card.card_id for card in rng.sample(list(APPRENTICES_B), seats)]
        recipes = rng.sample([r.card_id for r in RECIPES], seats)
        ingredients = rng.sample([c.card_id for c in INGREDIENT_CARDS], seats)
        pile = [card.card_id for card in COMPANIONS]
        rng.shuffle(pile)
        faster = bool(options.get("faster", False)) and seats <= 3
        hand_size = 4 if faster else HAND_SIZES[seats]
        players = [
            ApprenticeState(name=names[i], apprentice=apprentices[i], recipe=recipes[i], ingredients=ingredients[i],
                            area=[[apprentices[i], 0, 0, 0]])
            for i in range(seats)
        ]
        state = WitchDraftState(seed=seed, side=side, face_up=bool(options.get("face_up", False)),
                                hand_size=hand_size, players=players, draw_pile=pile)
        self._deal(state)
        return state

    @staticmethod
    def _deal(state: WitchDraftState) -> None:
        for player in state.players:
            player.hand = state.draw_pile[:state.hand_size]
            del state.draw_pile[:state.hand_size]

    def parse_action(self, data: object) -> WitchDraftAction:
        """See :func:`engine.witchdraft.actions.parse_action`."""
        return parse_action(data)

    def action_to_json(self, action: WitchDraftAction) -> dict[str, Any]:
        """See :func:`engine.witchdraft.actions.action_to_json`."""
        return action_to_json(action)

    def to_act(self, state: WitchDraftState) -> tuple[Seat, ...]:
        """Every seat that has not yet picked, or, once the picks are revealed, not yet placed."""
        if state.over:
            return ()
        if state.stage == "place":
            return tuple(i for i, player in enumerate(state.players) if player.picked is not None)
        return tuple(i for i, player in enumerate(state.players) if player.pending is None)

    def choices_are_secret(self, state: WitchDraftState) -> bool:
        """Picks are secret until everyone has picked; placing the revealed picks is public."""
        return not state.over and state.stage != "place"

    def vary_secrets(self, state: WitchDraftState, seat: Seat, rng: random.Random) -> WitchDraftState | None:
        """Swap ``seat``'s hand with cards from the face-down pile, and shuffle the pile.

        The others see only how many cards a hand and the pile hold. The
        recipe and ingredient cards stay: other recipes are not in the state.
        """
        varied = copy.deepcopy(state)
        player = varied.players[seat]
        unseen = player.hand + varied.draw_pile
        if varied.over or len(unseen) < 2:
            return None
        rng.shuffle(unseen)
        player.hand, varied.draw_pile = unseen[:len(player.hand)], unseen[len(player.hand):]
        return varied

    def seat_has_secrets(self, state: WitchDraftState, seat: Seat) -> bool:
        """Always while picking; while placing only the recipe and ingredient cards, unless face up.

        The revealed picks are public, and the draft table does not show the
        rest of the hand while a card is being placed, so with face-up cards
        pass-and-play needs no curtain to place. Secret recipes still need one:
        the table shows them, and the brew points a spot would add give them away.
        """
        if state.stage == "place":
            return not state.face_up
        return True

    def table_action(self, state: WitchDraftState) -> WitchDraftAction | None:
        """WitchDraft has no automatic steps."""
        return None

    def legal_actions(self, state: WitchDraftState, seat: Seat | None) -> list[WitchDraftAction]:
        """Picking: each card in hand once (even if held twice). Placing: every legal spot for the pick."""
        if seat is None or seat not in self.to_act(state):
            return []
        player = state.players[seat]
        if state.stage == "place":
            assert player.picked is not None
            return [Place(placement) for placement in area_of(player).legal_placements(player.picked)]
        return [Pick(card) for card in dict.fromkeys(player.hand)]

    def check_action(self, state: WitchDraftState, seat: Seat | None, action: WitchDraftAction) -> None:
        """Explain exactly why a pick or a placement is not allowed."""
        if seat is None:
            raise IllegalActionError("WitchDraft has no automatic steps")
        player = state.players[seat]
        if isinstance(action, Pick):
            if state.stage != "pick":
                raise IllegalActionError("the picks are revealed: place your card before picking again")
            if action.card not in player.hand:
                name = CARDS[action.card].name if action.card in CARDS else repr(action.card)
                raise IllegalActionError(f"{name} is not in your hand")
            return
        if state.stage != "place" or player.picked is None:
            raise IllegalActionError("pick a card first: cards are placed once every pick is revealed")
        try:
            area_of(player).check(player.picked, action.placement)
        except IllegalPlacement as error:
            raise IllegalActionError(f"that spot is illegal: the card {error.reason}") from error

    def _apply(self, state: WitchDraftState, seat: Seat | None, action: WitchDraftAction) -> list[Event]:
        assert seat is not None
        player = state.players[seat]
        if isinstance(action, Pick):
            player.pending = action.card
            events = [Event("picked", f"{player.name} has picked a card.", {"seat": seat})]
            if all(p.pending is not None for p in state.players):
                events.append(self._reveal(state))
            return events
        card = player.picked
        assert card is not None
        p = action.placement
        player.area.append([card, p.x, p.y, p.rotation])
        player.picked = None
        events = [Event("placed", f"{player.name} adds {CARDS[card].name} to the potion.",
                        {"seat": seat, "card": card, "x": p.x, "y": p.y, "rotation": p.rotation})]
        if all(other.picked is None for other in state.players):
            events += self._pass_hands(state)
        return events

    @staticmethod
    def _reveal(state: WitchDraftState) -> Event:
        """Everyone has picked: turn the picks face up, out of the hands, ready to place."""
        picks: dict[str, str] = {}
        for index, player in enumerate(state.players):
            card = player.pending
            assert card is not None
            player.hand.remove(card)
            player.picked, player.pending = card, None
            picks[str(index)] = card
        state.stage = "place"
        named = "; ".join(f"{player.name} took {CARDS[str(player.picked)].name}" for player in state.players)
        return Event("revealed", f"Picks revealed: {named}.", {"picks": picks})

    def _pass_hands(self, state: WitchDraftState) -> list[Event]:
        """Every pick is placed: end the game or the phase, or pass the hands on."""
        events: list[Event] = []
        state.stage = "pick"
        hands = [player.hand for player in state.players]
        if all(not hand for hand in hands):
            events.append(self._finish(state))
            return events
        if all(len(hand) == 1 for hand in hands) and state.phase == 1:
            for player in state.players:
                state.draw_pile.extend(player.hand)
                player.hand = []
            seeded_rng(state.seed, "shuffle", 2).shuffle(state.draw_pile)
            state.phase, state.pick = 2, 1
            self._deal(state)
            events.append(Event("phase", "Phase 1 is over: the last cards go back and the pile is shuffled. "
                                         "Phase 2 passes the other way.", {"phase": 2}))
            return events
        # Phase 1 passes clockwise (to the next seat), phase 2 counter-clockwise.
        step = 1 if state.phase == 1 else -1
        count = len(state.players)
        passed = [hands[(index - step) % count] for index in range(count)]
        for player, hand in zip(state.players, passed, strict=False):
            player.hand = hand
        state.pick += 1
        return events

    def _finish(self, state: WitchDraftState) -> Event:
        state.over = True
        totals = [total(player_scores(player)) for player in state.players]
        best = max(totals)
        state.winners = [index for index, value in enumerate(totals) if value == best]
        named = [state.players[i].name for i in state.winners]
        names = named[0] if len(named) == 1 else f"{', '.join(named[:-1])} and {named[-1]}"
        if len(state.winners) == 1:
            state.result_reason = f"{names} brews the best potion with {plural(best, 'brew point')}."
        else:
            state.result_reason = f"{names} share the victory with {plural(best, 'brew point')} each."
        return Event("game_end", state.result_reason, {"winners": list(state.winners), "totals": totals})

    def view(self, state: WitchDraftState, seat: Seat | None) -> WitchDraftView:
        """Hands and secret picks only for their owner; recipes too unless face up or over.

        Revealed picks waiting to be placed are public.
        """
        players = []
        for index, player in enumerate(state.players):
            mine = index == seat
            open_cards = mine or state.face_up or state.over
            players.append(ApprenticeView(
                name=player.name, apprentice=player.apprentice,
                area=tuple((str(c), int(x), int(y), int(r)) for c, x, y, r in player.area),  # type: ignore[call-overload]
                hand_count=len(player.hand),
                ready=player.picked is None if state.stage == "place" else player.pending is not None,
                recipe=player.recipe if open_cards else None,
                ingredients=player.ingredients if open_cards else None,
                hand=tuple(player.hand) if mine else None,
                pending=player.pending if mine else None,
                picked=player.picked,
            ))
        return WitchDraftView(
            seat=seat, phase=state.phase, pick=state.pick, stage=state.stage, over=state.over, face_up=state.face_up,
            draw_pile_count=len(state.draw_pile), players=tuple(players),
            winners=tuple(state.winners) if state.winners is not None else None, result_reason=state.result_reason,
        )

    def scores(self, state: WitchDraftState, seat: Seat) -> list[CategoryScore]:
        """The eight category scores of ``seat``'s potion as it stands."""
        return player_scores(state.players[seat])

    def result(self, state: WitchDraftState) -> Result | None:
        """Most brew points wins; tied players share the victory."""
        if state.winners is None:
            return None
        return Result(tuple(state.winners), state.result_reason)

    def state_to_json(self, state: WitchDraftState) -> dict[str, Any]:
        """Every field, hidden ones included."""
        return plain_fields(state)

    def state_from_json(self, data: Mapping[str, Any]) -> WitchDraftState:
        """Inverse of :meth:`state_to_json`."""
        try:
            players = [ApprenticeState(**player) for player in data["players"]]
            return WitchDraftState(**{**data, "players": players})
        except (KeyError, TypeError) as error:
            raise ValueError(f"not a WitchDraft state: {error}") from error

    def progress(self, state: WitchDraftState) -> str:
        """E.g. "Phase 1, pick 3" while picking, "Phase 1, place 3" once those picks are revealed.

        No longer than before the stages were split, so the sessions list keeps its columns.
        """
        if state.over:
            return "Scored"
        step = "place" if state.stage == "place" else "pick"
        return f"Phase {state.phase}, {step} {state.pick}"
