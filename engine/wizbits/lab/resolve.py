"""The Pillar Lab's resolution: passes, steps and answers to triggers, all through the game's own rules.

Split from :mod:`engine.wizbits.lab.table`, which builds the table and re-exports
these names. Every pass and step goes through
:class:`~engine.wizbits.rules.WizbitsRules`, so the events, dice and texts
are the game's.
"""

from __future__ import annotations

from engine.core.contract import Event
from engine.core.errors import IllegalActionError
from engine.wizbits.actions import ChooseTargets, Pass, Step
from engine.wizbits.lab.model import LabError, LabTable
from engine.wizbits.phases import drop_dead_continues
from engine.wizbits.pillar.tree import Unit
from engine.wizbits.rules import WizbitsRules

RULES = WizbitsRules()
"""The game's own rules object: the Lab passes and resolves through it."""

__all__ = ["RULES", "next_group", "pass_priority", "start", "step"]


def _through_rules(table: LabTable, seat: int | None, action: Pass | Step | ChooseTargets) -> list[Event]:
    try:
        table.state, events = RULES.apply(table.state, seat, action)
    except IllegalActionError as error:  # a Lab bug, not a player's mistake: say what the game said
        raise LabError(f"the game refused {action}: {error.reason}") from None
    table.events.extend(events)
    return events


def _settle(table: LabTable, passing: bool) -> list[Event]:
    """Answer what the game would ask before going on: flip Income targets (the first legal choice).

    With ``passing``, whoever holds Priority passes too; without, the Lab stops
    there, so the player can answer triggers a step set off.
    """
    events: list[Event] = []
    state = table.state
    while not table.done and not state.over:
        if state.pending:
            seat = int(state.pending[0]["seat"])
            choice = RULES.legal_actions(state, seat)[0]
            assert isinstance(choice, ChooseTargets)
            events += _through_rules(table, seat, choice)
        elif passing and not state.resolving and state.priority is not None:
            events += _through_rules(table, state.priority, Pass())
        else:
            break
        state = table.state
    return events


def start(table: LabTable) -> tuple[LabTable, list[Event]]:
    """Both players pass: the pillar starts to resolve (or, if empty, its base does its work at once)."""
    twin = table.copy()
    twin.started = True
    twin.shown = twin.state.pillar.copy() if twin.state.pillar is not None else None
    events = _settle(twin, passing=True)
    return twin, events


def pass_priority(table: LabTable) -> tuple[LabTable, list[Event]]:
    """The seat holding Priority after a trigger passes; after two passes in a row, resolution goes on.

    Raises:
        LabError: nobody holds Priority now.
    """
    seat = table.priority
    if seat is None:
        raise LabError("nobody holds Priority now")
    twin = table.copy()
    assert twin.state.pillar is not None
    before = twin.state.pillar.copy()
    events = _through_rules(twin, seat, Pass())
    events += _settle(twin, passing=False)
    if twin.done:
        drop_dead_continues(twin.state, before)
        twin.shown = before
    return twin, events


def next_group(table: LabTable) -> tuple[Unit, ...]:
    """The units the next step resolves, in increasing precedence (empty when nothing is left)."""
    if table.done or table.state.pillar is None:
        return ()
    return table.state.pillar.next_group()


def step(table: LabTable) -> tuple[LabTable, list[Event], tuple[Unit, ...]]:
    """Resolve one step as the game's table does, then pass again if triggers reopened Priority.

    Returns:
        The new table, the step's events and the units that resolved.

    Raises:
        LabError: resolution has not started, or nothing is left.
    """
    group = next_group(table)
    if not table.started or not group:
        raise LabError("nothing is waiting to resolve")
    if table.priority is not None:
        raise LabError(f"{table.state.players[table.priority].name} holds Priority: answer the trigger or pass first")
    twin = table.copy()
    assert twin.state.pillar is not None
    leftover = twin.state.pillar.copy()
    leftover.resolve_group()
    events = _through_rules(twin, None, Step("resolve"))
    events += _settle(twin, passing=False)
    drop_dead_continues(twin.state, leftover)
    twin.shown = leftover if twin.done else None
    return twin, events, group
