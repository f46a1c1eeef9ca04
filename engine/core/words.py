"""Words that agree with their numbers, shared by every game's sentences and screens.

English plurals are irregular enough that each caller names the noun, and a
noun that does not simply take an "s" names its plural too.
"""

from __future__ import annotations


def plural(count: float, noun: str, plural_form: str | None = None) -> str:
    """The count followed by the noun that agrees with it.

    ``plural(1, "Cup Token")`` is ``"1 Cup Token"``, ``plural(0, "card")`` is
    ``"0 cards"`` and ``plural(3, "copy", "copies")`` is ``"3 copies"``. Only
    one (or minus one) takes the singular, as in "0 cards" and "1.5 minutes".

    Args:
        count: How many; a float is shown in its shortest form (``1.0`` as ``1``).
        noun: The singular noun, possibly several words ("different card").
        plural_form: The plural when it is not ``noun + "s"``.
    """
    shown = str(count) if isinstance(count, int) else f"{count:g}"
    if abs(count) == 1:
        return f"{shown} {noun}"
    return f"{shown} {plural_form if plural_form is not None else noun + 's'}"
