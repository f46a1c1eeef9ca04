"""Wizards Cup rules: phases, legality, duels, rounds and the end of the game."""

from __future__ import annotations

import copy
import itertools
import random
from collections.abc import Mapping, Sequence
from typing import Any

from engine.core.contract import Event, GameRules, Result, Seat
from engine.core.errors import IllegalActionError
from engine.core.plain import plain_fields
from engine.core.rng import seeded_rng
from engine.core.text import check_seat_names
from engine.core.words import plural
from engine.wizards_cup.actions import (
    Action,
    ChooseTeam,
    KeepTeam,
    PlayDuel,
    SetLineup,
    Swap,
    action_to_json,
    parse_action,
)
from engine.wizards_cup.cards import CARDS, LINEUP_SIZE, PICKS, WIZARDS
from engine.wizards_cup.duel import Side, resolve_duel
from engine.wizards_cup.state import Phase, PlayerState, PlayerView, WizardsCupState, WizardsCupView

SIMULTANEOUS = (Phase.TEAM, Phase.LINEUP, Phase.SWAP)


def team_total(team: Sequence[str]) -> int:
    """Sum of the values of a team, the tiebreak when both reach the target together."""
    return sum(CARDS[card].value for card in team)


def card_label(card_id: str) -> str:
    """"Name (Element, value)" for event sentences."""
    wizard = CARDS[card_id]
    return f"{wizard.name} ({wizard.element}, {wizard.value})"


def _pending_cards(player: PlayerState, key: str) -> list[str]:
    """The card ids of a player's pending team or lineup choice."""
    cards = (player.pending or {}).get(key, [])
    assert isinstance(cards, list)
    return [str(card) for card in cards]


class WizardsCupRules(GameRules[WizardsCupState, Action, WizardsCupView]):
    """The rules of Wizards Cup for two players."""

    def new_state(
        self, options: Mapping[str, Any], seed: int, seats: int, names: Sequence[str] | None = None
    ) -> WizardsCupState:
        """Deal each player a random displayed card from their own set."""
        names = check_seat_names(names, seats, "Player")
        players = []
        for index in range(seats):
            displayed = seeded_rng(seed, "displayed", index).choice(WIZARDS).card_id
            players.append(PlayerState(name=names[index], displayed=displayed))
        return WizardsCupState(seed=seed, tokens_to_win=int(options.get("tokens_to_win", 2)), players=players)

    def parse_action(self, data: object) -> Action:
        """See :func:`engine.wizards_cup.actions.parse_action`."""
        return parse_action(data)

    def action_to_json(self, action: Action) -> dict[str, Any]:
        """See :func:`engine.wizards_cup.actions.action_to_json`."""
        return action_to_json(action)

    def to_act(self, state: WizardsCupState) -> tuple[Seat, ...]:
        """In the secret phases, every seat that has not yet decided."""
        if state.phase in SIMULTANEOUS:
            return tuple(index for index, player in enumerate(state.players) if player.pending is None)
        return ()

    def vary_secrets(self, state: WizardsCupState, seat: Seat, rng: random.Random) -> WizardsCupState | None:
        """Reorder ``seat``'s face-down deck, its Waiting Card among them, before the game is over.

        The others know the deck's size, the wizards already seen and the
        displayed card; which hidden wizard waits and the duel order stay secret.
        """
        if state.winners is not None:
            return None
        varied = copy.deepcopy(state)
        player = varied.players[seat]
        hidden = list(player.deck) + ([player.waiting] if player.waiting is not None else [])
        if len(hidden) < 2:
            return None
        rng.shuffle(hidden)
        if player.waiting is not None:
            player.waiting = hidden.pop()
        player.deck = hidden
        return varied

    def choices_are_secret(self, state: WizardsCupState) -> bool:
        """Team picks, lineups and swaps are all made in secret."""
        return state.phase in SIMULTANEOUS

    def table_action(self, state: WizardsCupState) -> Action | None:
        """The next duel, while the duel phase runs."""
        return PlayDuel() if state.phase is Phase.DUEL else None

    def legal_actions(self, state: WizardsCupState, seat: Seat | None) -> list[Action]:
        """All legal actions; the team phase has C(17, 5) = 6188 of them."""
        if seat is None:
            pending = self.table_action(state)
            return [pending] if pending is not None else []
        if seat not in self.to_act(state):
            return []
        player = state.players[seat]
        if state.phase is Phase.TEAM:
            pool = [w.card_id for w in WIZARDS if w.card_id != player.displayed]
            return [ChooseTeam(combo) for combo in itertools.combinations(pool, PICKS)]
        if state.phase is Phase.LINEUP:
            return [SetLineup(order) for order in itertools.permutations(player.team, LINEUP_SIZE)]
        unused = [w.card_id for w in WIZARDS if w.card_id not in player.team]
        swaps: list[Action] = [Swap(out, take) for out in player.team if out != player.displayed for take in unused]
        return [KeepTeam(), *swaps]

    def check_action(self, state: WizardsCupState, seat: Seat | None, action: Action) -> None:
        """Explain exactly why an action is not allowed."""
        if seat is None:
            return
        player = state.players[seat]
        if state.phase is Phase.TEAM:
            if not isinstance(action, ChooseTeam):
                raise IllegalActionError("teams are being chosen; choose 5 wizards")
            self._check_cards(action.cards, PICKS, "a team needs")
            if player.displayed in action.cards:
                raise IllegalActionError(f"{CARDS[player.displayed].name} is already in your team as the displayed card")
        elif state.phase is Phase.LINEUP:
            if not isinstance(action, SetLineup):
                raise IllegalActionError("lineups are being set; order 5 of your 6 wizards")
            self._check_cards(action.order, LINEUP_SIZE, "a lineup needs")
            for card in action.order:
                if card not in player.team:
                    raise IllegalActionError(f"{CARDS[card].name} is not in your team")
        elif state.phase is Phase.SWAP:
            if isinstance(action, KeepTeam):
                return
            if not isinstance(action, Swap):
                raise IllegalActionError("the round is over; swap one wizard or keep your team")
            for card in (action.out, action.take):
                if card not in CARDS:
                    raise IllegalActionError(f"{card!r} is not a Wizards Cup wizard")
            if action.out not in player.team:
                raise IllegalActionError(f"{CARDS[action.out].name} is not in your team")
            if action.out == player.displayed:
                raise IllegalActionError(f"{CARDS[action.out].name} is your displayed card and can't be swapped out")
            if action.take in player.team:
                raise IllegalActionError(f"{CARDS[action.take].name} is already in your team")
        else:
            raise IllegalActionError("no choice is open now")

    @staticmethod
    def _check_cards(cards: Sequence[str], size: int, what: str) -> None:
        for card in cards:
            if card not in CARDS:
                raise IllegalActionError(f"{card!r} is not a Wizards Cup wizard")
        if len(set(cards)) != len(cards):
            twice = next(card for card in cards if cards.count(card) > 1)
            raise IllegalActionError(f"{CARDS[twice].name} is chosen twice")
        if len(cards) != size:
            raise IllegalActionError(f"{what} exactly {size} wizards, not {len(cards)}")

    def _apply(self, state: WizardsCupState, seat: Seat | None, action: Action) -> list[Event]:
        if seat is None:
            return self._play_duel(state)
        player = state.players[seat]
        player.pending = action_to_json(action)
        events = [Event("decided", self._decided_text(state, player, action), {"seat": seat})]
        if all(p.pending is not None for p in state.players):
            events += self._reveal_decisions(state)
        return events

    @staticmethod
    def _decided_text(state: WizardsCupState, player: PlayerState, action: Action) -> str:
        if state.phase is Phase.TEAM:
            return f"{player.name} has chosen a team."
        if state.phase is Phase.LINEUP:
            return f"{player.name} has set a lineup."
        return f"{player.name} has decided about a swap."

    def _reveal_decisions(self, state: WizardsCupState) -> list[Event]:
        events: list[Event] = []
        if state.phase is Phase.TEAM:
            for player in state.players:
                player.team = [player.displayed, *_pending_cards(player, "cards")]
            state.round = 1
            self._start_lineups(state)
            events.append(Event("round_start", "Both teams are chosen. Round 1: set your lineups.", {"round": 1}))
        elif state.phase is Phase.LINEUP:
            for player in state.players:
                order = _pending_cards(player, "order")
                player.waiting = next(card for card in player.team if card not in order)
                player.deck, player.zone, player.discard, player.pending = order, None, [], None
                player.lineup = list(order)
            state.phase, state.duel = Phase.DUEL, 0
            events.append(Event("lineups_set", f"Lineups are set. Round {state.round}: let the duels begin.",
                                {"round": state.round}))
        else:
            for index, player in enumerate(state.players):
                choice = player.pending or {}
                if choice.get("type") == "swap":
                    out, take = str(choice["out"]), str(choice["in"])
                    player.team[player.team.index(out)] = take
                    if out in player.lineup:  # the newcomer opens next round's lineup in its place
                        player.lineup[player.lineup.index(out)] = take
                    text = f"{player.name} swapped one wizard."
                else:
                    text = f"{player.name} kept the same team."
                events.append(Event("swap", text, {"seat": index, "swapped": choice.get("type") == "swap"}))
            state.round += 1
            self._start_lineups(state)
            events.append(Event("round_start", f"Round {state.round}: set your lineups.", {"round": state.round}))
        return events

    @staticmethod
    def _start_lineups(state: WizardsCupState) -> None:
        state.phase, state.duel, state.round_winners = Phase.LINEUP, 0, []
        for player in state.players:
            player.pending, player.waiting, player.zone = None, None, None
            player.deck, player.discard = [], []

    def _play_duel(self, state: WizardsCupState) -> list[Event]:
        state.duel += 1
        events: list[Event] = []
        fresh = [False, False]
        for index, player in enumerate(state.players):
            if player.zone is None:
                player.zone = player.deck.pop(0)
                fresh[index] = True
                if player.zone not in player.seen:
                    player.seen.append(player.zone)
                events.append(Event("reveal", f"{player.name} reveals {card_label(player.zone)}.",
                                    {"seat": index, "card": player.zone}))
        sides = tuple(
            Side(CARDS[str(p.zone)], fresh[i], CARDS[p.waiting] if p.waiting else None, [CARDS[c] for c in p.discard])
            for i, p in enumerate(state.players)
        )
        outcome = resolve_duel((sides[0], sides[1]), state.duel, (state.players[0].name, state.players[1].name))
        first, second = state.players
        label = [f"{CARDS[str(p.zone)].name} ({p.name})" for p in state.players]
        if outcome.winner is None:
            text = f"{label[0]} and {label[1]} are both discarded: {outcome.why}."
            losers = [0, 1]
        else:
            text = f"{label[outcome.winner]} beats {label[1 - outcome.winner]}: {outcome.why}."
            losers = [1 - outcome.winner]
        events.append(Event("duel", text, {
            "round": state.round, "duel": state.duel, "cards": [first.zone, second.zone],
            "winner": outcome.winner, "step": outcome.step, "why": outcome.why, "clash": outcome.clash,
            "powers": [p.source.card_id for p in outcome.active],
        }))
        for index in losers:
            player = state.players[index]
            player.discard.append(str(player.zone))
            player.zone = None
        events += self._check_round_end(state)
        return events

    def _check_round_end(self, state: WizardsCupState) -> list[Event]:
        stuck = [i for i, p in enumerate(state.players) if p.zone is None and not p.deck]
        if not stuck:
            return []
        winners = [i for i in range(len(state.players)) if i not in stuck] or list(range(len(state.players)))
        for index in winners:
            state.players[index].tokens += 1
        state.round_winners = winners
        names = " and ".join(state.players[i].name for i in winners)
        if len(winners) > 1:
            text = f"Neither side can send another wizard: {names} both win round {state.round}."
        else:
            loser = state.players[stuck[0]].name
            text = f"{loser} has no wizard left to send: {names} wins round {state.round} and a Cup Token."
        events = [Event("round_end", text, {"round": state.round, "winners": winners})]
        reached = [i for i, p in enumerate(state.players) if p.tokens >= state.tokens_to_win]
        if reached:
            events.append(self._finish(state, reached))
        else:
            state.phase = Phase.SWAP
            for player in state.players:
                player.pending = None
        return events

    @staticmethod
    def _finish(state: WizardsCupState, reached: list[int]) -> Event:
        state.phase = Phase.OVER
        if len(reached) == 1:
            state.winners = reached
            winner = state.players[reached[0]].name
            state.result_reason = f"{winner} holds {plural(state.tokens_to_win, 'Cup Token')} and wins the Cup."
        else:
            totals = [team_total(p.team) for p in state.players]
            both = f"Both reach {plural(state.tokens_to_win, 'Cup Token')} together"
            if totals[0] == totals[1]:
                state.winners = []
                state.result_reason = f"{both}, and both teams total {totals[0]}: the Cup is shared in a draw."
            else:
                best = 0 if totals[0] < totals[1] else 1
                state.winners = [best]
                state.result_reason = (f"{both}; {state.players[best].name}'s team totals {totals[best]} "
                                       f"against {totals[1 - best]}, and the lower total wins the Cup.")
        return Event("game_end", state.result_reason, {"winners": list(state.winners)})

    def view(self, state: WizardsCupState, seat: Seat | None) -> WizardsCupView:
        """Own team, deck order, Waiting Card and pending choice only for ``seat``.

        Once the game is over every team is shown, as players would turn
        their cards face up at the end of a physical game.
        """
        players = []
        for index, player in enumerate(state.players):
            mine = index == seat or state.phase is Phase.OVER
            players.append(PlayerView(
                name=player.name, displayed=player.displayed, tokens=player.tokens, zone=player.zone,
                discard=tuple(player.discard), deck_count=len(player.deck),
                ready=state.phase in SIMULTANEOUS and player.pending is not None, seen=tuple(player.seen),
                team=tuple(player.team) if mine else None, deck=tuple(player.deck) if mine else None,
                waiting=player.waiting if mine else None,
                pending=dict(player.pending) if mine and player.pending else None,
                lineup=tuple(player.lineup) if mine else None,
            ))
        return WizardsCupView(
            seat=seat, phase=state.phase, round=state.round, duel=state.duel, tokens_to_win=state.tokens_to_win,
            players=(players[0], players[1]), round_winners=tuple(state.round_winners),
            winners=tuple(state.winners) if state.winners is not None else None, result_reason=state.result_reason,
        )

    def result(self, state: WizardsCupState) -> Result | None:
        """The winners once a player holds enough Cup Tokens."""
        if state.winners is None:
            return None
        return Result(tuple(state.winners), state.result_reason)

    def state_to_json(self, state: WizardsCupState) -> dict[str, Any]:
        """Every field, hidden ones included."""
        return plain_fields(state)

    def state_from_json(self, data: Mapping[str, Any]) -> WizardsCupState:
        """Inverse of :meth:`state_to_json`."""
        try:
            players = [PlayerState(**player) for player in data["players"]]
            return WizardsCupState(**{**data, "players": players, "phase": Phase(data["phase"])})
        except (KeyError, TypeError) as error:
            raise ValueError(f"not a Wizards Cup state: {error}") from error

    def progress(self, state: WizardsCupState) -> str:
        """E.g. "Round 2, duel 3"."""
        if state.phase is Phase.TEAM:
            return "Choosing teams"
        if state.phase is Phase.LINEUP:
            return f"Round {state.round}, lineups"
        if state.phase is Phase.DUEL:
            return f"Round {state.round}, duel {state.duel}" if state.duel else f"Round {state.round}, ready"
        if state.phase is Phase.SWAP:
            return f"Round {state.round} over, swaps"
        return f"Finished after round {state.round}"
