"""A tiny test-only game, "count-to-ten", for the saves and CLI tests.

Two seats alternate adding 1 or 2 to a shared total; whoever brings it to the
target wins. After every third move the table takes an automatic step,
bumping the total by a seeded 0 or 1, so logs contain seat-NULL entries and
different seeds give different games. A bump that reaches the target gives
the win to the seat that moved last.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine import Event, GameRules, GameSpec, IllegalActionError, MalformedActionError, OptionSpec, Result
from engine.core import seeded_rng

GAME_ID = "count-to-ten"


@dataclass
class CountState:
    """Mutable state; the contract's apply() copies it before changing it."""

    target: int
    seed: int
    total: int = 0
    next_seat: int = 0
    moves: int = 0
    table_due: bool = False
    last_mover: int | None = None
    winner: int | None = None
    names: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Add:
    """A seat adds 1 or 2."""

    amount: int


@dataclass(frozen=True)
class Bump:
    """The table adds a seeded 0 or 1."""

    amount: int


Action = Add | Bump


class CountRules(GameRules[CountState, Action, dict[str, Any]]):
    """Rules of count-to-ten."""

    def new_state(
        self, options: Mapping[str, Any], seed: int, seats: int, names: Sequence[str] | None = None
    ) -> CountState:
        names = list(names) if names else [f"Seat {index + 1}" for index in range(seats)]
        return CountState(target=int(options.get("target", 10)), seed=seed, names=names)

    def parse_action(self, data: object) -> Action:
        if not isinstance(data, Mapping) or len(data) != 1:
            raise MalformedActionError("an action is {\"add\": n} or {\"bump\": n}")
        ((key, value),) = data.items()
        if type(value) is not int:
            raise MalformedActionError("the amount must be a whole number")
        if key == "add":
            return Add(value)
        if key == "bump":
            return Bump(value)
        raise MalformedActionError(f"unknown action {key!r}")

    def action_to_json(self, action: Action) -> dict[str, Any]:
        return {"add": action.amount} if isinstance(action, Add) else {"bump": action.amount}

    def legal_actions(self, state: CountState, seat: int | None) -> list[Action]:
        if seat is None or seat not in self.to_act(state):
            return []
        return [Add(1), Add(2)]

    def to_act(self, state: CountState) -> tuple[int, ...]:
        if state.winner is not None or state.table_due:
            return ()
        return (state.next_seat,)

    def table_action(self, state: CountState) -> Action | None:
        if state.winner is not None or not state.table_due:
            return None
        return Bump(seeded_rng(state.seed, "bump", state.moves).randint(0, 1))

    def view(self, state: CountState, seat: int | None) -> Any:
        return self.state_to_json(state)

    def result(self, state: CountState) -> Result | None:
        if state.winner is None:
            return None
        return Result((state.winner,), f"The total reached {state.target}.")

    def state_to_json(self, state: CountState) -> dict[str, Any]:
        return {
            "target": state.target,
            "seed": state.seed,
            "total": state.total,
            "next_seat": state.next_seat,
            "moves": state.moves,
            "table_due": state.table_due,
            "last_mover": state.last_mover,
            "winner": state.winner,
            "names": list(state.names),
        }

    def state_from_json(self, data: Mapping[str, Any]) -> CountState:
        return CountState(**data)

    def check_action(self, state: CountState, seat: int | None, action: Action) -> None:
        if seat is None:
            return  # the contract already matched it against table_action()
        if not isinstance(action, Add):
            raise IllegalActionError("only the table may bump")
        if action.amount not in (1, 2):
            raise IllegalActionError("you may add only 1 or 2")

    def _apply(self, state: CountState, seat: int | None, action: Action) -> list[Event]:
        state.total += action.amount
        if seat is None:
            state.table_due = False
            text = f"The table bumps the total by {action.amount} to {state.total}."
        else:
            state.moves += 1
            state.last_mover = seat
            state.next_seat = 1 - seat
            state.table_due = state.moves % 3 == 0
            text = f"{state.names[seat]} adds {action.amount}; the total is {state.total}."
        events = [Event("count", text, {"total": state.total})]
        if state.total >= state.target:
            state.winner = state.last_mover
            state.table_due = False
            events.append(Event("game_end", f"{state.names[state.winner or 0]} wins."))
        return events

    def progress(self, state: CountState) -> str:
        return f"Total {state.total} of {state.target}"

    def seat_has_secrets(self, state: CountState, seat: int) -> bool:
        return False


def first_legal(view: Any, legal: Sequence[Any], rng: Any) -> Any:
    """A bot that always takes the first legal action."""
    return legal[0]


SPEC = GameSpec(
    game_id=GAME_ID,
    title="Count to Ten",
    seat_counts=(2,),
    rules=CountRules(),
    options=(OptionSpec("target", "Target", 10, (10, 15, 1000), "The total that wins."),),
    summary="Add 1 or 2; reach the target first.",
    rules_doc="count-to-ten.md",
    bots={"easy": first_legal, "hard": first_legal},
)


def next_action(spec: GameSpec, state: Any) -> tuple[int | None, Action]:
    """A simple deterministic player: the table's step if due, else add 1."""
    rules = spec.rules
    pending = rules.table_action(state)
    if pending is not None:
        return None, pending
    return rules.to_act(state)[0], Add(1)
