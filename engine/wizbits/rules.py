"""Wizbits Elemenstor Battle under Coven's engine contract.

Who acts: the player with Priority in a pillar; the attacker, then the
defender, then the attacker again in Conflict; both players at once when they
divide battle damage in secret; the owner of a pending flip Income when it
needs targets. Everything automatic (reconciling, Test Phase checks, each
resolution step, the end of the turn) is a :data:`~engine.core.contract.TABLE`
step, so a replay can stop between any two resolution steps.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping, Sequence
from itertools import combinations, product
from math import comb
from typing import Any

from engine.core.contract import Event, GameRules, JsonDict, Result, Seat, check_rules_version
from engine.core.errors import IllegalActionError, InvalidOptionsError
from engine.core.rng import seeded_rng
from engine.core.text import check_seat_names
from engine.core.words import plural
from engine.wizbits import actions as act
from engine.wizbits.actions import Action
from engine.wizbits.cards.starter_decks import STARTER_DECKS
from engine.wizbits.conflict import (
    assign_choices,
    check_assign,
    check_attack,
    check_block,
    check_division,
    declare_assignments,
    declare_attack,
    declare_blocks,
    divide,
    fighters,
    may_battle,
    sides,
    total_strength,
)
from engine.wizbits.continuous import target_options
from engine.wizbits.decklist import Deck, parse_decklist
from engine.wizbits.flow import end_turn, pass_priority, reconcile_up, resolve_step, test_phase
from engine.wizbits.phases import drop_dead_continues, phase_label, place_triggers
from engine.wizbits.plays import apply_activate, apply_play, check_activate, check_play, unit_actions
from engine.wizbits.resolve import discard_from_hand, pending_slots, run_pending
from engine.wizbits.reveals import undo_barrier
from engine.wizbits.state import (
    HAND_SIZE,
    RULES_VERSION,
    SEQUENTIAL_RULINGS,
    Permanent,
    Phase,
    PlayerState,
    WizbitsState,
    opponent,
)
from engine.wizbits.state import state_from_json as _state_from_json
from engine.wizbits.state import state_to_json as _state_to_json
from engine.wizbits.views import WizbitsView, make_view

MAX_DISCARD_CHOICES = 64
"""Reconcile discards are offered as this many combinations at most (any exact set is accepted)."""


_SECTION_HEADINGS = frozenset({"Characters", "Elements", "Non-Elements"})
"""Comments a written deck list puts above each category; never a title on their own."""


def decklist_title(text: str) -> str | None:
    """The title of a deck list: its first line when that is a ``# Title`` comment, as saved decks start.

    A first comment that only heads the Characters (or another category) is no title.
    """
    lines = [line.strip() for line in text.strip().splitlines()]
    if not lines or not lines[0].startswith("#"):
        return None
    title = lines[0].lstrip("#").strip()
    return title if title and title not in _SECTION_HEADINGS else None


def resolve_deck(choice: str) -> tuple[str, Deck]:
    """A deck option: a starter deck's id, or the text of a deck list (named by its ``# Title`` line).

    Raises:
        InvalidOptionsError: neither a starter deck nor a valid deck list.
    """
    if choice in STARTER_DECKS:
        starter = STARTER_DECKS[choice]
        return starter.name, starter.deck
    try:
        return decklist_title(choice) or "Deck list", parse_decklist(choice)
    except ValueError as error:
        raise InvalidOptionsError(f"not a starter deck or a valid deck list: {error}") from error


class WizbitsRules(GameRules[WizbitsState, Action, WizbitsView]):
    """Rules of Wizbits Elemenstor Battle for two players."""

    rules_version = RULES_VERSION
    oldest_rules_version = 1

    def undo_barrier(self, before: WizbitsState, after: WizbitsState, seat: Seat, events: list[Event]) -> str | None:
        """A move that showed a hidden card, or used chance, cannot be taken back (see :mod:`engine.wizbits.reveals`).

        Judged by what became known to either seat or a spectator, never by
        hand sizes; a card the mover played from their own hand was theirs to
        know, so that alone may be taken back. A payment from the deck shows
        its cards, so it stays. Sessions begun under rules versions 1 and 2
        keep their own rule, a hand that grew.
        """
        return undo_barrier(before, after, seat)

    def under_rules(self, state: WizbitsState, version: int) -> WizbitsState:
        """``state`` set to play under rules version ``version`` (see :data:`engine.wizbits.state.RULES_VERSION`).

        Raises:
            UnknownRulesVersionError: ``version`` is not one this code can play.
        """
        state.rules_version = check_rules_version(self, version)
        return state

    def new_state(self, options: Mapping[str, Any], seed: int, seats: int,
                  names: Sequence[str] | None = None) -> WizbitsState:
        """Shuffle both decks, put each Main Character in play and let the seed pick who starts."""
        if seats != 2:
            raise InvalidOptionsError("Wizbits is played by two players")
        names = check_seat_names(names, seats, "Player")
        cards: list[str] = []
        owners: list[int] = []
        players = []
        for seat in range(2):
            deck_name, deck = resolve_deck(str(options.get(f"deck_{seat + 1}", "ember-dawn")))
            ids = deck.card_ids()
            first_iid = len(cards)
            cards.extend(ids)
            owners.extend([seat] * len(ids))
            iids = list(range(first_iid, len(cards)))
            main = next(iid for iid in iids if cards[iid] == deck.main)
            library = [iid for iid in iids if iid != main]
            seeded_rng(seed, "deck", seat).shuffle(library)
            players.append(PlayerState(names[seat], deck_name, main, deck=library,
                                       in_play=[Permanent(main, seat)]))
        first = seeded_rng(seed, "first").randrange(2)
        return WizbitsState(seed=seed, format=str(options.get("format", "constructed")),
                            rtf=int(options.get("rtf", 1)), cards=cards, owners=owners, players=players,
                            first=first, active=first)

    # -- JSON -----------------------------------------------------------------------

    def parse_action(self, data: object) -> Action:
        """See :func:`engine.wizbits.actions.parse_action`."""
        return act.parse_action(data)

    def action_to_json(self, action: Action) -> JsonDict:
        """See :func:`engine.wizbits.actions.action_to_json`."""
        return act.action_to_json(action)

    def state_to_json(self, state: WizbitsState) -> JsonDict:
        """The whole state as JSON values."""
        return _state_to_json(state)

    def state_from_json(self, data: Mapping[str, Any]) -> WizbitsState:
        """Rebuild a state from :meth:`state_to_json` output."""
        return _state_from_json(data)

    # -- who acts -------------------------------------------------------------------

    def to_act(self, state: WizbitsState) -> tuple[Seat, ...]:
        """The seats that must decide now; empty while the table plays a step."""
        if state.over:
            return ()
        if state.pending:
            return (int(state.pending[0]["seat"]),)
        phase = state.phase
        if phase in (Phase.RECONCILE_UP, Phase.RECONCILE_DOWN):
            return (state.active,) if len(state.players[state.active].hand) > HAND_SIZE else ()
        if phase in Phase.PILLARS:
            return () if state.resolving or state.priority is None else (state.priority,)
        if phase in (Phase.ATTACK, Phase.ASSIGN):
            return (state.active,)
        if phase == Phase.BLOCK:
            return (opponent(state.active),)
        if phase == Phase.DIVIDE:
            return tuple(seat for seat in (state.active, opponent(state.active)) if state.division[seat] is None)
        return ()

    def table_action(self, state: WizbitsState) -> Action | None:
        """The automatic step waiting, if any."""
        if state.over or state.pending or self.to_act(state):
            return None
        phase = state.phase
        if phase == Phase.RECONCILE_UP:
            return act.Step("reconcile")
        if phase == Phase.TEST:
            return act.Step("test")
        if phase == Phase.SECOND_TEST:
            return act.Step("second_test")
        if phase == Phase.RECONCILE_DOWN:
            return act.Step("end_turn")
        if phase in Phase.PILLARS and state.resolving:
            return act.Step("resolve")
        return None

    # -- legal actions -------------------------------------------------------------

    def legal_actions(self, state: WizbitsState, seat: Seat | None) -> list[Action]:
        """Every action ``seat`` may take now (see :func:`engine.wizbits.payment.payment_options`)."""
        if seat is None:
            step = self.table_action(state)
            return [step] if step is not None else []
        if seat not in self.to_act(state):
            return []
        if state.pending:
            return [act.ChooseTargets(tuple(choice)) for choice in product(*self._pending_options(state))]
        phase = state.phase
        if phase in (Phase.RECONCILE_UP, Phase.RECONCILE_DOWN):
            hand = state.players[seat].hand
            extra = len(hand) - HAND_SIZE
            return [act.DiscardCards(tuple(chosen))
                    for chosen, _ in zip(combinations(hand, extra), range(MAX_DISCARD_CHOICES), strict=False)]
        if phase in Phase.PILLARS:
            return [act.Pass(), *unit_actions(state, seat)]
        if phase == Phase.ATTACK:
            own = fighters(state, seat)
            return [act.Attack(tuple(chosen)) for size in range(len(own) + 1) for chosen in combinations(own, size)]
        if phase == Phase.BLOCK:
            return [act.Block(blocks) for blocks in _block_options(state, seat)]
        if phase == Phase.ASSIGN:
            choices = assign_choices(state)
            attackers = sorted(choices)
            options = [[None, *choices[attacker]] for attacker in attackers]
            return [act.Assign(tuple((a, d) for a, d in zip(attackers, picked, strict=False) if d is not None))
                    for picked in product(*options)]
        if phase == Phase.DIVIDE:
            return [act.Divide(split) for split in _division_options(state, seat)]
        return []

    def _pending_options(self, state: WizbitsState) -> list[list[int | None]]:
        pending = state.pending[0]
        seat = int(pending["seat"])
        options: list[list[int | None]] = []
        for effect in pending_slots(state, pending):
            found: list[int | None] = list(target_options(state, seat, effect))
            options.append(found or [None])
        return options

    # -- checking and applying -------------------------------------------------------

    def check_action(self, state: WizbitsState, seat: Seat | None, action: Action) -> None:
        """Raise :class:`IllegalActionError` with a reason if ``action`` is not allowed."""
        if seat is None:
            return  # the contract already matched it against table_action
        if state.pending:
            if not isinstance(action, act.ChooseTargets):
                raise IllegalActionError("choose targets for the flip ability first")
            options = self._pending_options(state)
            if len(action.targets) != len(options) or any(t not in o for t, o in zip(action.targets, options, strict=False)):
                raise IllegalActionError("those are not legal targets for the flip ability")
            return
        phase = state.phase
        if phase in (Phase.RECONCILE_UP, Phase.RECONCILE_DOWN):
            if not isinstance(action, act.DiscardCards):
                raise IllegalActionError("discard down to seven cards")
            hand = state.players[seat].hand
            if len(set(action.cards)) != len(action.cards) or not set(action.cards) <= set(hand) \
                    or len(action.cards) != len(hand) - HAND_SIZE:
                raise IllegalActionError(f"discard exactly {plural(len(hand) - HAND_SIZE, 'different card')} from your hand")
        elif phase in Phase.PILLARS:
            if isinstance(action, act.PlayCard):
                check_play(state, seat, action)
            elif isinstance(action, act.Activate):
                check_activate(state, seat, action)
            elif not isinstance(action, act.Pass):
                raise IllegalActionError("play a card, use an ability or pass")
        elif phase == Phase.ATTACK and isinstance(action, act.Attack):
            check_attack(state, action.attackers)
        elif phase == Phase.BLOCK and isinstance(action, act.Block):
            check_block(state, action.blocks)
        elif phase == Phase.ASSIGN and isinstance(action, act.Assign):
            check_assign(state, action.assignments)
        elif phase == Phase.DIVIDE and isinstance(action, act.Divide):
            check_division(state, seat, action.damage)
        else:
            raise IllegalActionError(f"that is not something to do during {phase_label(state)}")

    def _apply(self, state: WizbitsState, seat: Seat | None, action: Action) -> list[Event]:
        events = self._carry_out(state, seat, action)
        # Whatever took a card out of play (or flipped it), its Continue units leave the pillar with it
        # (rules version 1 left them there until the pillar ended).
        if state.rules_version >= SEQUENTIAL_RULINGS:
            drop_dead_continues(state)
        return events

    def _carry_out(self, state: WizbitsState, seat: Seat | None, action: Action) -> list[Event]:
        events: list[Event] = []
        if isinstance(action, act.Step):
            {"reconcile": reconcile_up, "test": test_phase, "resolve": resolve_step,
             "second_test": lambda s, e: test_phase(s, e, second=True),
             "end_turn": end_turn}[action.step](state, events)
            return events
        assert seat is not None
        if isinstance(action, act.ChooseTargets):
            place_triggers(state, run_pending(state, state.pending[0], action.targets, events), events)
        elif isinstance(action, act.DiscardCards):
            discard_from_hand(state, seat, list(action.cards), events)
        elif isinstance(action, act.PlayCard):
            apply_play(state, seat, action, events)
        elif isinstance(action, act.Activate):
            apply_activate(state, seat, action, events)
        elif isinstance(action, act.Pass):
            pass_priority(state, seat, events)
        elif isinstance(action, act.Attack):
            declare_attack(state, action.attackers, events)
        elif isinstance(action, act.Block):
            declare_blocks(state, action.blocks, events)
        elif isinstance(action, act.Assign):
            declare_assignments(state, action.assignments, events)
        elif isinstance(action, act.Divide):
            divide(state, seat, action.damage, events)
        return events

    # -- views and results ---------------------------------------------------------

    def view(self, state: WizbitsState, seat: Seat | None) -> WizbitsView:
        """What ``seat`` may know."""
        return make_view(state, seat)

    def result(self, state: WizbitsState) -> Result | None:
        """The winner and why, once the game is over."""
        if not state.over:
            return None
        return Result(() if state.winner is None else (state.winner,), state.reason)

    def vary_secrets(self, state: WizbitsState, seat: Seat, rng: random.Random) -> WizbitsState | None:
        """Deal ``seat``'s hand anew from its hand and deck together, and shuffle its deck.

        The others know only how many cards each holds, so their views stay the same.
        """
        varied = copy.deepcopy(state)
        player = varied.players[seat]
        unseen = player.hand + player.deck
        if len(unseen) < 2:
            return None
        rng.shuffle(unseen)
        player.hand, player.deck = unseen[:len(player.hand)], unseen[len(player.hand):]
        return varied

    def first_seat(self, state: WizbitsState) -> Seat | None:
        """The seat that took (or takes) the first turn; the seed picks it."""
        return state.first

    def seat_has_secrets(self, state: WizbitsState, seat: Seat) -> bool:
        """A seat's own view shows its hand, so it is secret while the hand holds a card."""
        return bool(state.players[seat].hand)

    def progress(self, state: WizbitsState) -> str:
        """E.g. "Turn 3 (Ana): Play Phase 1: Elements"."""
        if state.over:
            return f"Finished on turn {state.turn}"
        return f"Turn {state.turn} ({state.players[state.active].name}): {phase_label(state)}"


def _block_options(state: WizbitsState, seat: int) -> list[tuple[tuple[int, int], ...]]:
    defenders = fighters(state, seat)
    options = [[None, *(a for a in state.attackers if may_battle(state, d, a))] for d in defenders]
    return [tuple((d, a) for d, a in zip(defenders, picked, strict=False) if a is not None) for picked in product(*options)]


MAX_FULL_DIVISIONS = 300
"""Above this many ways to split damage, legal actions offer a few typical splits (any exact split is accepted)."""


def _compositions(total: int, parts: int) -> list[tuple[int, ...]]:
    """Ways to write ``total`` as ``parts`` non-negative whole numbers."""
    if parts == 1:
        return [(total,)]
    return [(first, *rest) for first in range(total + 1) for rest in _compositions(total - first, parts - 1)]


def _typical_splits(total: int, parts: int) -> list[tuple[int, ...]]:
    """All on one target, or as even as possible starting from each target."""
    splits = {tuple(total if index == target else 0 for index in range(parts)) for target in range(parts)}
    for start in range(parts):
        share, extra = divmod(total, parts)
        even = [share + (1 if (index - start) % parts < extra else 0) for index in range(parts)]
        splits.add(tuple(even))
    return sorted(splits)


def _division_options(state: WizbitsState, seat: int) -> list[tuple[tuple[int, int], ...]]:
    for side, own, targets in sides(state):
        if side == seat:
            total = total_strength(state, own)
            ways = comb(total + len(targets) - 1, len(targets) - 1)
            splits = _compositions(total, len(targets)) if ways <= MAX_FULL_DIVISIONS \
                else _typical_splits(total, len(targets))
            return [tuple((iid, n) for iid, n in zip(targets, split, strict=False) if n > 0) for split in splits]
    return []
