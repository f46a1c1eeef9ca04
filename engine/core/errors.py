"""Narrow error types, so callers can tell a bad action from a bug."""


class ActionError(ValueError):
    """An action could not be applied. ``reason`` is a sentence for a person."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class MalformedActionError(ActionError):
    """The action's JSON does not describe any action of this game."""


class IllegalActionError(ActionError):
    """The action is well formed but not allowed in the current state."""


class ReplayError(IllegalActionError):
    """An action log could not be replayed; ``index`` is the 1-based entry."""

    def __init__(self, index: int, reason: str) -> None:
        super().__init__(f"action {index} is illegal: {reason}")
        self.index = index


class UnknownGameError(ValueError):
    """No registered game has the requested id."""


class InvalidOptionsError(ValueError):
    """Game options were of the wrong type or out of range."""


class UnknownRulesVersionError(ValueError):
    """A session names a version of a game's rules that this code does not know (a newer Coven wrote it)."""
