"""Driving Wizbits games through the rules in tests: set cards where a test needs them, then act and step.

A :class:`Game` holds the current state and the action log, and applies
everything through :class:`~engine.wizbits.rules.WizbitsRules`. Tests may edit
``game.state`` between actions (the dataclasses are plain) to reach a
situation without waiting for the cards to turn up; :meth:`Game.give` keeps
every card instance in exactly one zone while doing it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from engine import Event, get_game
from engine.core.contract import TABLE
from engine.core.rng import seeded_rng
from engine.wizbits.actions import Action, Attack, Pass, Payment, PlayCard
from engine.wizbits.continuous import cost_of, points_of
from engine.wizbits.dice import SPECIAL_CHECK_BREAK_GLOBAL_CHECK, CheckSpec, roll_check
from engine.wizbits.payment import payment_options
from engine.wizbits.pillar.tree import Pillar
from engine.wizbits.pillar.units import Unit
from engine.wizbits.rules import WizbitsRules
from engine.wizbits.state import Permanent, Phase, WizbitsState

RULES: WizbitsRules = get_game("wizbits").rules  # type: ignore[assignment]
NAMES = ["Ana", "Bo"]


def phase_ends(events: Sequence[Event]) -> list[str]:
    """The phases whose end the events record, Play Phase pillars as e.g. ``elements1``."""
    found = []
    for event in events:
        if event.kind == "phase_end":
            phase = event.data["phase"]
            if phase in ("elements", "non_elements", "play"):
                phase = f"{phase}{event.data['play_round']}"
            found.append(phase)
        elif event.kind == "turn_end":
            found.append("turn_end")
    return found


class Game:
    """A game in progress, its log and every event so far."""

    def __init__(self, seed: int = 1, options: dict[str, Any] | None = None) -> None:
        self.options = dict(options or {})
        self.seed = seed
        self.state: WizbitsState = RULES.new_state(self.options, seed, 2, NAMES)
        self.log: list[tuple[int | None, dict[str, Any]]] = []
        self.events: list[Event] = []

    # -- acting ---------------------------------------------------------------

    def act(self, seat: int | None, action: Action) -> list[Event]:
        """Apply ``action`` for ``seat`` (None: the table) through the rules, as JSON."""
        data = RULES.action_to_json(action)
        self.state, events = RULES.apply(self.state, seat, data)
        self.log.append((seat, data))
        self.events.extend(events)
        return events

    def step(self) -> list[Event]:
        """Play the automatic step waiting (fails if there is none)."""
        action = RULES.table_action(self.state)
        assert action is not None, f"no table step in {self.state.phase}"
        return self.act(TABLE, action)

    def pass_(self) -> list[Event]:
        """The seat with Priority passes."""
        assert self.state.priority is not None, f"nobody has Priority in {self.state.phase}"
        return self.act(self.state.priority, Pass())

    def settle(self, safe_tests: bool = True) -> list[Event]:
        """Play automatic steps until a seat must act or the game is over.

        Args:
            safe_tests: Steer the dice so Test Phase checks succeed.
        """
        events: list[Event] = []
        while not self.state.over and RULES.table_action(self.state) is not None:
            if safe_tests and self.state.phase in (Phase.TEST, Phase.SECOND_TEST):
                main = self.state.players[self.state.active].main
                steer_rolls(self.state, [(main, SPECIAL_CHECK_BREAK_GLOBAL_CHECK, True)])
            events += self.step()
        return events

    def advance(self, until: Callable[[WizbitsState], bool], safe_tests: bool = True) -> list[Event]:
        """Steps, passes and no attacks until ``until(state)`` holds (checked whenever a seat may act)."""
        events: list[Event] = []
        for _ in range(500):
            events += self.settle(safe_tests)
            if self.state.over or until(self.state):
                return events
            phase = self.state.phase
            if phase in Phase.PILLARS:
                events += self.pass_()
            elif phase == Phase.ATTACK:
                events += self.act(self.state.active, Attack(()))
            else:
                raise AssertionError(f"advance() can't decide in {phase}")
        raise AssertionError("advance() never got there")

    def to_phase(self, phase: str, play_round: int | None = None) -> list[Event]:
        """Advance to the first moment a seat acts in ``phase`` (and Play Phase ``play_round``)."""
        return self.advance(lambda s: s.phase == phase and (play_round is None or s.play_round == play_round))

    # -- placing cards ------------------------------------------------------------

    def give(self, seat: int, card_id: str, zone: str = "hand", **perm: Any) -> int:
        """Put an instance of ``card_id`` owned by ``seat`` into ``zone`` (hand, play, deck top, discard).

        The instance comes from the seat's deck if it holds one, else a new
        instance is made, so no card is ever in two zones.
        """
        state = self.state
        player = state.players[seat]
        found = [iid for iid in player.deck if state.cards[iid] == card_id]
        if found:
            iid = found[0]
            player.deck.remove(iid)
        else:
            iid = len(state.cards)
            state.cards.append(card_id)
            state.owners.append(seat)
        if zone == "hand":
            player.hand.append(iid)
        elif zone == "play":
            player.in_play.append(Permanent(iid, seat, **perm))
        elif zone == "deck":
            player.deck.append(iid)
        else:
            assert zone == "discard", zone
            player.discard.append(iid)
        return iid

    def empty_deck(self, seat: int, keep: int = 0) -> None:
        """Move all but the top ``keep`` cards of ``seat``'s deck to its discard pile."""
        player = self.state.players[seat]
        cut = len(player.deck) - keep
        player.discard.extend(player.deck[:cut])
        del player.deck[:cut]

    def play(self, seat: int, card_id: str, on: int | None = None, targets: Sequence[int | None] = (),
             pay: Payment | None = None) -> int:
        """Give ``seat`` a card and play it; paid from the deck unless ``pay`` says otherwise. Returns its iid."""
        iid = self.give(seat, card_id)
        if pay is None:
            pay = payment_options(self.state, seat, cost_of(self.state, seat, self.state.card(iid)))[0]
        self.act(seat, PlayCard(iid, on, tuple(targets), pay))
        return iid

    def pillar(self) -> Pillar:
        """The pillar standing now (fails if there is none)."""
        assert self.state.pillar is not None, f"no pillar in {self.state.phase}"
        return self.state.pillar

    def newest_unit(self) -> Unit:
        """The unit played last on the current pillar."""
        assert self.state.pillar is not None
        return max(self.state.pillar.units(), key=lambda unit: unit.uid)

    def permanent(self, iid: int) -> Permanent:
        """Card ``iid`` in play (fails if it is not)."""
        found = self.state.permanent(iid)
        assert found is not None, f"{iid} is not in play"
        return found

    def scn(self, iid: int) -> int:
        """Character ``iid``'s SCN as it stands."""
        return points_of(self.state, self.permanent(iid)).scn


def steer_rolls(state: WizbitsState, wanted: Sequence[tuple[int, CheckSpec, bool]],
                damage: dict[int, int] | None = None) -> None:
    """Pick the state's roll counter so the next checks come out as ``wanted``.

    Each entry is (checking character, check, should succeed); the checks are
    rolled in that order, each with the character's Main Points as they stand
    now plus ``damage[iid]`` more SCN (damage about to land). The dice stay the
    real seeded dice: only where in the sequence the game stands is chosen.
    """
    points = []
    for iid, _, _ in wanted:
        perm = state.permanent(iid)
        assert perm is not None
        now = points_of(state, perm)
        points.append(replace(now, scn=now.scn + (damage or {}).get(iid, 0)))
    for start in range(state.rolls, state.rolls + 20000):
        results = [roll_check(seeded_rng(state.seed, "wizbits", start + 1 + index), spec, point, point.scn).success
                   for index, ((_, spec, _), point) in enumerate(zip(wanted, points, strict=False))]
        if results == [want for _, _, want in wanted]:
            state.rolls = start
            return
    raise AssertionError("no roll sequence found")
