"""Random legal Wizbits games: no exception, cards conserved, replay, JSON round trips, views keep secrets.

Hypothesis draws the options, the seed and every choice from the legal
actions; automatic steps are played as the table offers them. A plain loop of
seeded random games adds breadth, and a finished game goes through export and
import.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import state_digest
from engine.core.contract import TABLE
from engine.wizbits.actions import Action, Pass
from engine.wizbits.pillar.units import UnitKind
from engine.wizbits.state import WizbitsState
from saves import LiveSession, SeatInfo, SessionStore, export_session, import_session
from tests.helpers.wizbits_game import NAMES, RULES, Game

STEP_LIMIT = 1500
"""Games are cut off after this many actions (random games end far sooner, by decking or a failed check)."""


def zones(state: WizbitsState) -> dict[int, list[str]]:
    """Every zone each card instance is found in."""
    found: dict[int, list[str]] = {iid: [] for iid in range(len(state.cards))}
    for seat, player in enumerate(state.players):
        for name, cards in (("deck", player.deck), ("hand", player.hand), ("discard", player.discard)):
            for iid in cards:
                found[iid].append(f"{name}{seat}")
        for perm in player.in_play:
            found[perm.iid].append(f"play{seat}")
    if state.pillar is not None:
        for unit in state.pillar.units():
            if unit.kind is UnitKind.CARD:
                found[int(unit.payload["iid"])].append("pillar")
    return found


def check_conserved(state: WizbitsState) -> None:
    """Every card is in exactly one zone, and sits with its owner."""
    for iid, places in zones(state).items():
        assert len(places) == 1, f"card {iid} ({state.cards[iid]}) is in {places}"
        if places[0] != "pillar":
            assert places[0].endswith(str(state.owners[iid])), f"card {iid} is in {places[0]}"


def check_round_trip(state: WizbitsState) -> None:
    """state_to_json -> JSON text -> state_from_json -> state_to_json gives the same data."""
    data = RULES.state_to_json(state)
    again = RULES.state_to_json(RULES.state_from_json(json.loads(json.dumps(data))))
    assert again == data


def _int_runs(value: Any) -> list[list[int]]:
    """Every list of whole numbers anywhere inside ``value``."""
    runs: list[list[int]] = []
    if isinstance(value, dict):
        for item in value.values():
            runs += _int_runs(item)
    elif isinstance(value, (list, tuple)):
        if value and all(isinstance(item, int) and not isinstance(item, bool) for item in value):
            runs.append(list(value))
        for item in value:
            runs += _int_runs(item)
    return runs


def check_views(state: WizbitsState) -> None:
    """No view holds the opponent's hand or any deck's cards or order."""
    decks = [player.deck for player in state.players]
    for seat in (0, 1, None):
        view = RULES.view(state, seat)
        hidden = {iid for deck in decks for iid in deck}
        for index, player in enumerate(state.players):
            if index != seat:
                assert view.players[index].hand is None
                hidden |= set(player.hand)
            else:
                assert view.players[index].hand == tuple(player.hand)
            assert view.players[index].deck_count == len(player.deck)
        assert not hidden & set(view.cards), f"seat {seat} can identify {hidden & set(view.cards)}"
        for run in _int_runs(asdict(view)):
            for deck in decks:
                if len(deck) >= 2:
                    assert run != deck and run != deck[::-1], "a deck's order is in a view"
        if view.pending is not None:
            assert view.pending["seat"] == seat


def check_step(game: Game) -> None:
    """The checks made after every action."""
    check_conserved(game.state)
    check_round_trip(game.state)
    check_views(game.state)


def play(game: Game, choose: Callable[[int, list[Action]], Action], each: Callable[[Game], None]) -> None:
    """Play to the end: table steps when offered, else the first seat to act chooses."""
    for _ in range(STEP_LIMIT):
        if RULES.result(game.state) is not None:
            return
        table = RULES.table_action(game.state)
        if table is not None:
            assert RULES.legal_actions(game.state, TABLE) == [table]
            game.act(TABLE, table)
        else:
            seats = RULES.to_act(game.state)
            assert seats, f"nobody acts in {game.state.phase}"
            legal = RULES.legal_actions(game.state, seats[0])
            assert legal, f"no legal action in {game.state.phase}"
            game.act(seats[0], choose(seats[0], legal))
        each(game)


def check_replay(game: Game) -> None:
    """Replaying the log from the options and seed reproduces the state digest."""
    again = RULES.replay(game.options, game.seed, 2, game.log, NAMES)
    assert state_digest(RULES, again) == state_digest(RULES, game.state)


OPTIONS = st.fixed_dictionaries({
    "format": st.sampled_from(["constructed", "limited"]),
    "rtf": st.sampled_from([1, 2]),
    "deck_1": st.sampled_from(["ember-dawn", "tidal-dusk"]),
    "deck_2": st.sampled_from(["ember-dawn", "tidal-dusk"]),
})


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(options=OPTIONS, seed=st.integers(0, 2**31 - 1), data=st.data())
def test_random_legal_games_keep_every_promise(options: dict[str, Any], seed: int, data: st.DataObject) -> None:
    game = Game(seed, options)
    check_step(game)
    play(game, lambda seat, legal: data.draw(st.sampled_from(legal)), check_step)
    check_replay(game)


def _patient(rng: random.Random) -> Callable[[int, list[Action]], Action]:
    # Passing half the time keeps decks from running out at once, so games reach battles and later turns.
    def choose(seat: int, legal: list[Action]) -> Action:
        if Pass() in legal and rng.random() < 0.5:
            return Pass()
        return rng.choice(legal)
    return choose


def test_a_hundred_seeded_random_games() -> None:
    turns = []
    for seed in range(100):
        rng = random.Random(seed)
        decks = ["ember-dawn", "tidal-dusk"]
        options = {"deck_1": rng.choice(decks), "deck_2": rng.choice(decks),
                   "format": rng.choice(["constructed", "limited"])}
        game = Game(seed, options)
        play(game, _patient(rng), lambda g: check_conserved(g.state))
        check_replay(game)
        assert RULES.result(game.state) is not None, f"seed {seed} did not finish"
        turns.append(game.state.turn)
    assert max(turns) > 1  # some games get past the first turn


def test_an_exported_finished_game_imports_with_the_same_digest(tmp_path: Path) -> None:
    rng = random.Random(11)
    with SessionStore() as store:
        session = LiveSession.create(store, "wizbits", {"deck_2": "tidal-dusk"}, 11,
                                     [SeatInfo("Ana"), SeatInfo("Bo")])
        for _ in range(STEP_LIMIT):
            if session.finished:
                break
            if session.table_action is not None:
                session.play_table()
                continue
            seat = session.to_act[0]
            session.apply(seat, _patient(rng)(seat, RULES.legal_actions(session.state, seat)))
        assert session.finished
        path = export_session(store, session.session_id, tmp_path / "wizbits.json")
        imported = LiveSession.load(store, import_session(store, path))
        assert imported.finished and imported.digest == session.digest
        assert imported.result == session.result
