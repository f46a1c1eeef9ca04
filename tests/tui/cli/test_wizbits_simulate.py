"""`coven simulate`: headless bot games, their figures, and clear errors; the pillar statistics behind them."""

from __future__ import annotations

import re

import pytest

from engine import TABLE, get_game
from engine.wizbits.actions import Pass, PlayCard
from engine.wizbits.stats import PillarRecord, PillarWatch, summarise
from tui.cli import main

SPEC = get_game("wizbits")
RULES = SPEC.rules


def _figures(out: str) -> dict[str, float]:
    """The numbers of each ``label: number`` line."""
    found = {}
    for line in out.splitlines():
        match = re.match(r"^([a-z #0-9]+): ([0-9.]+)", line)
        if match:
            found[match.group(1)] = float(match.group(2))
    return found


def test_simulate_prints_figures_that_add_up(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "wizbits", "--games", "6", "--bots", "normal,easy", "--seed", "4"]) == 0
    captured = capsys.readouterr()
    assert captured.err == ""
    figures = _figures(captured.out)
    assert figures["normal"] + figures["easy"] + figures["draws"] == 6
    for label in ("normal", "easy", "draws"):
        share = re.search(rf"^{label}: \d+(?: wins?)? \(([0-9.]+)%\)", captured.out, re.M)
        assert share is not None and float(share.group(1)) == pytest.approx(100 * figures[label] / 6, abs=0.05)
    assert figures["average turns"] >= 1
    assert figures["average actions"] > 0
    assert figures["average pillar size"] >= 1  # averaged over pillars with units played
    assert 1 <= figures["average pillar depth"] <= figures["average pillar size"]
    assert "6 games, seed 4" in captured.out
    assert "\x1b" not in captured.out  # no progress bar or colour off a terminal


def test_simulate_is_reproducible_and_seeded(capsys: pytest.CaptureFixture[str]) -> None:
    outputs = []
    for seed in ("1", "1", "2"):
        assert main(["simulate", "wizbits", "--games", "4", "--seed", seed]) == 0
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1]
    # Without --bots the quick levels play: Hard searches, and 4 games of it would take a minute.
    assert "normal vs easy" in outputs[0].splitlines()[0]
    assert outputs[0].splitlines()[1:] != outputs[2].splitlines()[1:]


def test_simulate_passes_game_options_to_every_game(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "wizbits", "--games", "4", "--seed", "9"]
    assert main(argv) == 0
    default = capsys.readouterr().out
    assert main([*argv, "--option", "deck_1=tidal-dusk", "--option", "deck_2=tidal-dusk"]) == 0
    mirror = capsys.readouterr().out
    assert "options: deck_1=tidal-dusk, deck_2=tidal-dusk" in mirror
    assert mirror.splitlines()[2:] != default.splitlines()[1:]  # other decks, other games


def test_simulate_numbers_same_bot_twice(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "wizbits", "--games", "2", "--bots", "easy,easy"]) == 0
    figures = _figures(capsys.readouterr().out)
    assert figures["easy #1"] + figures["easy #2"] + figures["draws"] == 2


def test_simulate_other_games_without_wizbits_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "wizards-cup", "--games", "3", "--bots", "easy,easy"]) == 0
    out = capsys.readouterr().out
    figures = _figures(out)
    assert figures["easy #1"] + figures["easy #2"] + figures["draws"] == 3
    assert "pillar" not in out and "turns" not in out


@pytest.mark.parametrize("argv,message", [
    (["simulate", "chess"], "Unknown game 'chess'"),
    (["simulate", "wizbits", "--bots", "normal,expert"], "Unknown bot level 'expert'"),
    (["simulate", "wizbits", "--bots", "normal"], "needs 2 bots"),
    (["simulate", "wizbits", "--games", "0"], "--games must be at least 1"),
    (["simulate", "wizbits", "--games", "many"], "--games takes a whole number"),
    (["simulate", "wizbits", "--seed", "1.5"], "--seed takes a whole number"),
    (["simulate", "wizbits", "--option", "deck_2"], "--option takes NAME=VALUE"),
    (["simulate", "wizbits", "--option", "colour=red"], "unknown option 'colour'"),
    (["simulate", "wizbits", "--option", "rtf=3"], "option 'rtf' must be one of 1, 2"),
])
def test_simulate_bad_input_is_one_line_and_status_2(argv: list[str], message: str,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1 and message in lines[0] and "Traceback" not in captured.err


def _to_first_pillar(seed: int, watch: PillarWatch) -> object:
    state = SPEC.new_state({"deck_1": "ember-dawn", "deck_2": "ember-dawn"}, seed, 2)
    while state.pillar is None:
        step = RULES.table_action(state)
        assert step is not None
        state, events = RULES.apply(state, TABLE, step)
        watch.observe(state, events)
    return state


def test_pillar_watch_counts_units_and_depth() -> None:
    watch = PillarWatch()
    state = _to_first_pillar(1, watch)
    assert watch.pillars == []
    seat = RULES.to_act(state)[0]
    plays = [a for a in RULES.legal_actions(state, seat) if isinstance(a, PlayCard) and a.on is None]
    assert plays, "the opening hand should hold an Element to play"
    state, events = RULES.apply(state, seat, plays[0])
    watch.observe(state, events)
    while state.phase == "elements":  # both pass, then the table resolves the pillar
        step = RULES.table_action(state)
        if step is not None:
            state, events = RULES.apply(state, TABLE, step)
        else:
            state, events = RULES.apply(state, RULES.to_act(state)[0], Pass())
        watch.observe(state, events)
    assert watch.pillars == [PillarRecord(units=1, depth=1)]
    watch.finish()  # the next, still empty, pillar counts as opened
    assert watch.pillars[-1] == PillarRecord(units=0, depth=0)


def test_summary_averages_pillars_with_units_only() -> None:
    summary = summarise([PillarRecord(0, 0), PillarRecord(3, 2), PillarRecord(5, 4), PillarRecord(0, 0)])
    assert (summary.pillars, summary.built) == (4, 2)
    assert (summary.mean_units, summary.mean_depth) == (4.0, 3.0)
    assert (summary.max_units, summary.max_depth) == (5, 4)
    assert summarise([]).mean_units == 0.0
