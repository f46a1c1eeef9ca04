"""How often a strong player takes each wizard into a team: Hard's prior for the wizards it has not seen.

Each rate is the share of deals in which Hard, choosing its team, took that wizard when
it was on offer (every wizard but its own displayed card): 240 team choices, seeds
500-619, both seats, measured while Hard still drew hidden teams uniformly.
``python -m tui.cli.bench.wizards_cup_picks`` measures Hard as it now is. A hidden
opponent team is drawn with these as weights, plus :data:`PICK_FLOOR`, so no wizard is
ever ruled out: a person may well take a card a strong player rarely does.
"""

from __future__ import annotations

PICK_RATES: dict[str, float] = {
    "echo-warden": 1.00,
    "umbral-tyrant": 0.87,
    "cinder-duelist": 0.64,
    "brine-witch": 0.42,
    "sunforged-saint": 0.40,
    "starless-oracle": 0.38,
    "night-whisper": 0.37,
    "thornmother": 0.29,
    "hollow-sage": 0.26,
    "mist-warden": 0.18,
    "deepwater-regent": 0.17,
    "dawn-acolyte": 0.11,
    "ember-adept": 0.06,
    "lantern-knight": 0.04,
    "pyre-lord": 0.03,
    "moss-hermit": 0.02,
    "grave-lurker": 0.02,
    "tide-caller": 0.00,
}
"""Share of team choices that took each wizard, when it could be taken."""

PICK_FLOOR = 0.05
"""Added to every rate: the weight of a wizard strong players (almost) never take."""
