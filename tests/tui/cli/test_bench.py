"""`coven bench` runs on every registered game and prints its figures."""

from __future__ import annotations

import importlib
import io
import re

import pytest
from rich.console import Console

import tui.cli.bench.games
import tui.cli.bench.seat_memory
import tui.cli.bench.wizards_cup
from engine import get_game
from tui.cli import main
from tui.cli.bench.games import DEFAULT_PLANS
from tui.cli.bench.games import plan as bench_plan
from tui.cli.bench.progress import Progress
from tui.cli.bench.targets import TARGETS


@pytest.mark.usefixtures("wide_output")
# Wizbits' figures are read by test_bench_wizbits_figures, from one run of its bench.
@pytest.mark.parametrize("game_id,extra", [("wizards-cup", "hard vs normal (1 game)"),
                                           ("witchdraft", "placements + gains")])
def test_bench_prints_figures(game_id: str, extra: str, capsys: pytest.CaptureFixture[str],
                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tui.cli.bench.games, "PILLAR_SIZES", (50, 200))  # the real sizes are for the command, not CI
    # Wizards Cup's Hard plays one game against each level (a Normal decision is a second of CPU), and its
    # per-pair loop times 300 rounds: the figures are the command's, the test sees that each is printed.
    monkeypatch.setattr(tui.cli.bench.wizards_cup, "STRENGTH_GAMES", (1, 1))
    monkeypatch.setattr(tui.cli.bench.wizards_cup, "LOOP_SAMPLE", 300)
    # Its games against Hard are whole games of one round (to one Cup Token), as seat-memory's test plays them:
    # half the CPU of the default two.
    rules = get_game("wizards-cup").rules
    dealt = rules.new_state
    monkeypatch.setattr(rules, "new_state", lambda options, seed, seats, names=None:
                        dealt({**options, "tokens_to_win": 1}, seed, seats, names))
    assert main(["bench", game_id, "--games", "2"]) == 0
    out = capsys.readouterr().out
    assert "games/s" in out and "normal bot decision" in out and extra in out
    for figure in ("timeline: load a log", "timeline: read its history in order", "timeline: read a step at random"):
        assert re.search(re.escape(figure) + r".*│ +(median )?\d+(\.\d+)? (µs/step|ms)", out), figure


@pytest.mark.usefixtures("wide_output")
def test_bench_wizbits_figures(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tui.cli.bench.games, "PILLAR_SIZES", (50, 200))
    assert main(["bench", "wizbits", "--games", "2"]) == 0
    captured = capsys.readouterr()
    out = captured.out
    for row in ("pillar of 50 units", "pillar of 200 units", "normal vs easy game (2)",
                "normal vs normal game (2)", "legal actions"):
        assert row in out
    assert "µs/unit" in out and "target 200" in out
    assert "games/s" in out and "normal bot decision" in out and "pillar time / (n log2 n)" in out
    # Progress goes to stderr, one line a stage as it starts, and each game of the slow stage against Hard.
    lines = captured.err.splitlines()
    assert lines and all(re.fullmatch(r"coven bench wizbits \[\d+ s\]: .+", line) for line in lines), lines
    said = [line.split("]: ", 1)[1] for line in lines]
    assert said[0] == "random games, 2 games" and said[-1] == "done"
    assert said[1:3] == ["hard against easy, 1 game", "hard against easy: 1 of 1"]
    for stage in ("pillars of 50, 200 units", "normal against easy, then against normal, 4 games",
                  "legal actions through whole games, 2 games",
                  "hard and normal decisions at positions with a choice, 2 positions"):
        assert stage in said, said


def test_a_slow_stage_says_each_tenth_of_the_way() -> None:
    out = io.StringIO()
    progress = Progress("coven bench x", Console(file=out, width=40))
    quick = progress.stage("quick", 50, "game")
    for done in range(1, 51):
        quick(done)
    slow = progress.stage("slow", 25, "game", slow=True)
    for done in range(1, 26):
        slow(done, "ignored", 0.5)  # a loop's own report callback may pass more
    said = [line.split("]: ", 1)[1] for line in out.getvalue().splitlines()]
    assert said == ["quick, 50 games", "slow, 25 games", *(f"slow: {done} of 25" for done in (3, 6, 9, 12, 15, 18, 21,
                                                                                             24, 25))]


def test_each_game_bench_without_games_runs_its_default_plan(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[tuple[str, int | None]] = []

    def recorded(game_id: str, games: int | None = None) -> int:
        asked.append((game_id, games))
        return 0

    monkeypatch.setattr(tui.cli.bench.games, "run", recorded)
    for game_id in ("wizards-cup", "witchdraft", "wizbits"):
        assert main(["bench", game_id]) == 0
    assert asked == [("wizards-cup", None), ("witchdraft", None), ("wizbits", None)]
    assert all(bench_plan(game_id) == DEFAULT_PLANS[game_id] for game_id, _ in asked)
    assert bench_plan("wizbits", 40).matches == 8  # --games still scales every count, as before


def test_every_bench_default_stays_small(monkeypatch: pytest.MonkeyPatch) -> None:
    """What a default run plays, sized so each takes under a minute on a 2-core machine (measured; see the README).

    A game against Hard costs about 4 s of CPU in Wizards Cup, half a second in WitchDraft and 20 s to a minute
    in Wizbits, so the plans are held by how many such games they play.
    """
    # No whole Wizbits game against Hard: its decision times come from a few positions instead.
    wizbits = bench_plan("wizbits")
    assert wizbits.strong != "hard" and wizbits.extra // 5 <= 2
    wizards_cup = bench_plan("wizards-cup")
    assert wizards_cup.matches + 2 * max(2, min(wizards_cup.extra // 10, 10)) <= 14
    witchdraft = bench_plan("witchdraft")
    assert witchdraft.matches + 2 * max(1, min(witchdraft.extra // 10, 10)) <= 40
    counts: dict[str, int] = {}
    for name, target in TARGETS.items():
        module = importlib.import_module(f"tui.cli.bench.{target.module}")
        monkeypatch.setattr(module, "run",
                            lambda name=name, **count: [counts.setdefault(name, each) for each in count.values()] and 0)
        assert main(["bench", name]) == 0
    assert counts["wizbits-hard"] == 1  # one game against Wizbits Hard is 20 s to a minute of CPU
    assert counts["witchdraft-bots"] * 2 <= 80
    assert counts["serve"] <= 8  # each step of its echo ramp adds this many seats, up to 7 steps' worth
    # Its own default plan: one Wizards Cup game against Hard, fresh and warm (Wizbits with --games).
    assert "seat-memory" not in counts
    assert tui.cli.bench.seat_memory.GAMES == 1 and tui.cli.bench.seat_memory.DEFAULT_PLANS == ("wizards-cup",)


@pytest.mark.usefixtures("wide_output")
def test_bench_tables_measures_how_soon_another_process_sees_a_move(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["bench", "tables", "--games", "5"])
    out = capsys.readouterr().out
    assert code in (0, 1)  # 1 would mean a move took over 300 ms; the figure is the command's, not CI's
    for row in ("actions measured", "commit → other process, median", "95th percentile", "target 300 ms",
                "reloading a whole session"):
        assert row in out


@pytest.mark.usefixtures("wide_output")
def test_bench_serve_prints_each_figure_for_coven_warm_and_fresh_and_the_bare_app(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    import tui.cli.bench.serve

    monkeypatch.setattr(tui.cli.bench.serve, "QUIET_SECONDS", 0.3)  # smaller counts; the figures are the command's
    monkeypatch.setattr(tui.cli.bench.serve, "RAMP_STEPS", 2)  # two steps show the ramp adds seats each time
    monkeypatch.setattr(tui.cli.bench.serve, "RAMP_ROUNDS", 2)
    monkeypatch.setattr(tui.cli.bench.serve, "CONNECT_TRIES", 2)  # connects one after another, as its 5 are
    assert main(["bench", "serve", "--games", "2"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    figures: dict[str, tuple[float, float, float]] = {}
    for row in ("first frame 100x30", "key press (down)", "resize to 120x40", "first frame 120x40",
                "resize / first frame 120x40", "connect to menu, 1 client (median of 2)", "connect, 2 at once, median",
                "connect, 2 at once, slowest", "seat at the menu, RSS", "seat at the menu, USS",
                "seat at the menu, PSS", "seats at the menu per GB (by PSS)"):
        [line] = [line for line in lines if line.count("│") == 7 and line.split("│")[1].strip() == row]
        cells = [cell.strip() for cell in line.split("│")[2:7]]
        warm, fresh, bare, warm_ratio, fresh_ratio = (float(cell.split()[0].rstrip("x").replace(",", ""))
                                                      for cell in cells)
        assert warm > 0 and fresh > 0 and bare > 0, line
        assert warm_ratio == pytest.approx(warm / bare, rel=0.05, abs=0.01), line
        assert fresh_ratio == pytest.approx(fresh / bare, rel=0.05, abs=0.01), line
        if "seat at the menu" in row:  # memory in MB (1,000,000 bytes, as the targets)
            assert all(cell.endswith(" MB") for cell in cells[:3]), line
        figures[row] = (warm, fresh, bare)
    # Seats per GB: 1,000,000,000 bytes over a seat's PSS in MB (the printed PSS is rounded to 0.1 MB).
    for seats, pss in zip(figures["seats at the menu per GB (by PSS)"], figures["seat at the menu, PSS"], strict=True):
        assert seats == pytest.approx(1000 / pss, abs=0.6)
    assert re.search(r"The warm parent itself: \d+\.\d MB PSS, shared by every warm seat\. The host's KSM is "
                     r"(on|off): ", out)
    # The floor under warm Coven: the bare app forked from the same warm parent, measured in the same run.
    floor = re.search(r"The floor, the bare app forked from the same warm parent: connect ([\d,]+) ms "
                      r"\((\d+\.\d\d)x the fresh bare app, warm Coven (\d+\.\d\d)x it; medians of 2, alternating\), "
                      r"a seat at rest (\d+\.\d) MB USS, (\d+\.\d) MB PSS\.", out)
    assert floor is not None, out
    floor_ms, floor_ratio, warm_to_floor, floor_uss, floor_pss = (float(group.replace(",", ""))
                                                                  for group in floor.groups())
    assert floor_ms > 0 and floor_ratio > 0 and warm_to_floor > 0 and 0 < floor_uss <= floor_pss
    [ramp] = [line for line in lines if line.startswith("Key echo with every warm seat pressing keys")]
    steps = [int(seats) for seats in re.findall(r"(\d+) seats \d+ ms", ramp)]
    assert steps and steps == [2 * (number + 1) for number in range(len(steps))], ramp  # 2 more at each step
    assert re.search(r"Active seats this machine holds before a key's echo passes 100 ms at the 95th percentile: "
                     r"(at least \d+|\d+|fewer than 2) \(\d+ cores\)", out)


@pytest.mark.usefixtures("wide_output")
def test_bench_startup_prints_both_medians_their_ratio_and_both_peak_rss(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "startup", "--games", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    rows = {}
    for line in lines:
        cells = [cell.strip() for cell in line.split("│")[1:-1]]
        if len(cells) == 3 and cells[0] in ("coven (main menu)", "bare Textual app", "ratio"):
            rows[cells[0]] = [float(cell.split()[0].rstrip("x")) for cell in cells[1:]]
            if cells[0] != "ratio":
                assert cells[2].endswith(" MB"), line  # peak RSS in MB of 1,000,000 bytes
    assert set(rows) == {"coven (main menu)", "bare Textual app", "ratio"}
    (coven_ms, coven_mb), (bare_ms, bare_mb) = rows["coven (main menu)"], rows["bare Textual app"]
    assert coven_ms > 0 and bare_ms > 0 and coven_mb > 0 and bare_mb > 0
    assert rows["ratio"] == [pytest.approx(coven_ms / bare_ms, rel=0.05, abs=0.01),
                             pytest.approx(coven_mb / bare_mb, rel=0.05, abs=0.01)]


@pytest.mark.usefixtures("wide_output")
def test_bench_seat_memory_prints_uss_and_rss_at_the_menu_and_after_the_game(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    # Wizards Cup only (its coach is the longer drive): each plan is a whole game against Hard, twice over,
    # here a game of one round (to one Cup Token): the figures are the command's, the test reads each is printed.
    monkeypatch.setattr(tui.cli.bench.seat_memory, "PLANS", ("wizards-cup",))
    monkeypatch.setattr(tui.cli.bench.seat_memory, "OPTIONS", {"wizards-cup": {"tokens_to_win": 1}})
    assert main(["bench", "seat-memory", "--games", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    rows = {}
    for line in lines:
        cells = [cell.strip() for cell in line.split("│")[1:-1]]
        if len(cells) == 3 and ": " in cells[0]:
            rows[cells[0]] = cells[1:]
    for plan in ("wizards-cup", "wizards-cup, forked warm"):
        for when in ("menu", "game 1"):
            assert all(cell.endswith(" MB") for cell in rows[f"{plan}: {when}"])  # 1,000,000 bytes, as the issue's
            uss, rss = (float(cell.split()[0]) for cell in rows[f"{plan}: {when}"])
            assert 0 < uss <= rss
        assert rows[f"{plan}: USS growth game 1 → game 1"][0] == "+0.0%"
    # The verdict is the warm seat's (coven serve's seats), whatever the fresh process holds.
    warm_uss = [float(rows[f"wizards-cup, forked warm: {when}"][0].split()[0]) for when in ("menu", "game 1")]
    verdict = "met" if max(warm_uss) <= 40 else "not met"
    text = " ".join(lines)
    assert "Targets, for seats forked warm as coven serve's are:" in text
    assert (f"- USS at most 40 MB after a whole game: after the first, {verdict}; after every game played, "
            f"{verdict}.") in text, text[-400:]
    assert text.rstrip().endswith("- USS after the last game within 20% of after the first: met."), text[-300:]
    [in_play] = [line for line in lines if line.startswith("Seats in play per GB, forked warm")]
    seats = re.search(r"wizards-cup (\d+)\.$", in_play)
    assert seats is not None, in_play
    # 1,000,000,000 bytes over the warm seat's USS after its game, in MB (both printed rounded).
    after_game = float(rows["wizards-cup, forked warm: game 1"][0].split()[0])
    assert int(seats.group(1)) == pytest.approx(1000 / after_game, abs=0.55)


def test_bench_web_prints_a_browser_session_beside_an_ssh_session(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "web", "--games", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    for row in ("to the first menu frame, alone, median", "to the first menu frame, 2 at once, slowest",
                "a player's Coven at the menu, USS", "a player's Coven at the menu, PSS",
                "the door process, per open session (RSS)"):
        [line] = [line for line in lines if line.count("│") == 4 and line.split("│")[1].strip() == row]
        browser, ssh = (float(cell.split()[0].replace(",", "")) for cell in line.split("│")[2:4])
        if "door process" not in row:  # the door's own growth may round to nothing
            assert browser > 0 and ssh > 0, line
