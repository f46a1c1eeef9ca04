"""Two Wizards Cup searches at once: the coach and a Hard bot may think in two threads of one process.

Their shared tables (duel contexts and resolved duels, built on first use) once grew under both
threads and broke one of them ("The coach could not work this out."). Each child below starts with
cold tables, as a player's first press of h does, and releases two searches together.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]

CHILD = r"""
import json, os, sys, tempfile, threading
os.environ["COVEN_DATA_DIR"] = tempfile.mkdtemp()
from engine import get_game
from engine.wizards_cup import coach

spec = get_game("wizards-cup")
state = spec.new_state({}, 7, 2, ["Ana", "Bo"])
ana = ["dawn-acolyte", "tide-caller", "thornmother", "lantern-knight", "mist-warden"]
bo = ["ember-adept", "umbral-tyrant", "starless-oracle", "thornmother", "moss-hermit"]
for seat, team in ((0, ana), (1, bo)):
    action = spec.rules.parse_action({"type": "team", "cards": team})
    state, _ = spec.rules.apply(state, seat, action)
view = spec.rules.view(state, 0)
team = tuple(view.me.team)
orders = [team[:5], team[1:6]]
found = [None, None]
go = threading.Event()

def think(index):
    go.wait()
    try:
        found[index] = repr(coach.advise_lineup(view, orders[index]))
    except Exception as error:
        found[index] = f"failed: {error!r}"

if sys.argv[1] == "together":
    threads = [threading.Thread(target=think, args=(n,)) for n in (0, 1)]
    for thread in threads:
        thread.start()
    go.set()
    for thread in threads:
        thread.join()
else:
    go.set()
    think(0)
    think(1)
print(json.dumps(found))
"""


def advice(how: str) -> list[str]:
    """Both lineups' advice from a fresh interpreter, worked out ``"together"`` or ``"in turn"``."""
    done = subprocess.run([sys.executable, "-c", CHILD, how], cwd=REPO, capture_output=True, text=True,
                          timeout=300, check=True)
    found: list[str] = json.loads(done.stdout)
    return found


def test_two_searches_started_together_give_what_they_give_one_after_the_other() -> None:
    in_turn = advice("in turn")
    assert all(not line.startswith("failed") for line in in_turn), in_turn
    assert advice("together") == in_turn
