"""``coven simulate GAME``: bot-against-bot games played headless, and what came of them.

Any registered game can be simulated; Wizbits adds its turns and the size and
depth of its pillars (see :mod:`engine.wizbits.stats`). Seats rotate from
game to game, so each bot plays every seat (and, in Wizbits, every deck)
equally often; the first player is chosen by each game's seed.

``--deck-1`` and ``--deck-2`` name a game's decks as ``coven simulate --help``
says (:data:`tui.cli.simulate_args.SIMULATE_DECKS`; :func:`deck_options` reads them).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from engine import TABLE, Event, GameSpec
from engine.core.rng import seeded_rng

Watcher = Callable[[Any, Sequence[Event]], None]

class DeckChoiceError(ValueError):
    """A ``--deck-N`` value names no deck, an unreadable file or a deck list that breaks the rules."""


def _is_path(value: str) -> bool:
    return "/" in value or os.sep in value or value.startswith("~")


def _saved_deck(game_id: str, name: str) -> tuple[str, str] | None:
    """The saved deck's name as saved and its text, or None when no deck of ``game_id`` has that name."""
    from saves import SessionStore
    from saves.decks import DeckError, DeckStore

    with SessionStore() as store:
        try:
            deck = DeckStore(store, game_id).load_deck(name)
        except DeckError:  # no such deck, or a name no deck could have
            return None
        return deck.name, deck.text


def _saved_names(game_id: str) -> list[str]:
    from saves import SessionStore
    from saves.decks import DeckStore

    with SessionStore() as store:
        return [deck.name for deck in DeckStore(store, game_id).list_decks()]


def deck_value(spec: GameSpec, flag: str, value: str, starters: Sequence[str]) -> tuple[str, str]:
    """The deck option's value for ``--deck-N value`` (a starter's id, or the text of a saved deck or a file),
    and how the report names it.

    Raises:
        DeckChoiceError: the value names nothing, a file that cannot be read, or an illegal deck list;
            the message starts with ``flag`` and names the file by its absolute path.
    """
    from engine.core.text import shown_text
    from saves.decks import DeckFileError, deck_problems, read_deck_file
    from tui.user_paths import NoPathError, user_path

    shown = shown_text(value)
    source = "file"
    text: str | None = None
    if not _is_path(value):
        if value.strip() in starters:
            return value.strip(), value.strip()
        saved = _saved_deck(spec.game_id, value)
        if saved is not None:
            source, text = f"saved deck {shown_text(saved[0])!r}", saved[1]
    if text is None:
        try:
            path = user_path(value)
        except NoPathError:
            raise DeckChoiceError(f"{flag} needs a deck: a starter, a saved deck's name or a file.") from None
        if not _is_path(value) and not os.path.lexists(path):
            names = ", ".join(shown_text(name) for name in _saved_names(spec.game_id)) or "none yet"
            raise DeckChoiceError(
                f"{flag}: no deck is called {shown!r} and there is no file {shown_text(str(path))}. "
                f"Starter decks: {', '.join(starters)}; saved decks: {names}.")
        try:
            text = read_deck_file(path)
        except DeckFileError as error:
            raise DeckChoiceError(f"{flag}: {error}") from None
        source = shown_text(str(path))
    problems = deck_problems(text, spec.game_id)
    if problems:
        listed = "".join(f"\n  {problem}" for problem in problems)
        raise DeckChoiceError(f"{flag}: {source} is not a legal deck list:{listed}")
    return text, source


def deck_options(spec: GameSpec, decks: Mapping[int, str | None],
                 options: Mapping[str, object]) -> tuple[dict[str, object], dict[str, str]]:
    """``deck_N`` options for every ``--deck-N`` given (``decks[N]``), read as :data:`tui.cli.simulate_args.SIMULATE_DECKS` says.

    Raises:
        DeckChoiceError: the game has no such deck, the deck is also given as ``--option deck_N``, or
            :func:`deck_value` refuses the value.
    """
    chosen: dict[str, object] = {}
    shown: dict[str, str] = {}
    for number, value in sorted(decks.items()):
        if value is None:
            continue
        flag, name = f"--deck-{number}", f"deck_{number}"
        option = next((option for option in spec.options if option.name == name), None)
        if option is None:
            raise DeckChoiceError(f"{flag}: {spec.title} has no seat {number} deck to choose.")
        if name in options:
            raise DeckChoiceError(f"Seat {number}'s deck is given twice, by {flag} and by --option {name}.")
        chosen[name], shown[name] = deck_value(spec, flag, value, [str(choice) for choice in option.choices])
    return chosen, shown


def play_game(spec: GameSpec, seed: int, levels: Sequence[str], watch: Watcher | None = None,
              options: Mapping[str, object] | None = None) -> tuple[Any, int]:
    """Play one game with the bot level of each seat; return the final state and the number of actions.

    ``watch`` sees every state and the events that led to it.
    """
    rules = spec.rules
    state = spec.new_state(options or {}, seed, len(levels))
    actions = 0
    while rules.result(state) is None:
        step = rules.table_action(state)
        if step is not None:
            state, events = rules.apply(state, TABLE, step)
        else:
            seat = rules.to_act(state)[0]
            legal = rules.legal_actions(state, seat)
            bot = spec.bots[levels[seat]]
            action = bot(rules.view(state, seat), legal, seeded_rng(seed, "simulate", seat, actions))
            state, events = rules.apply(state, seat, action)
        actions += 1
        if watch is not None:
            watch(state, events)
    return state, actions


@dataclass
class Tally:
    """What a batch of games came to."""

    games: int = 0
    wins: list[int] = field(default_factory=list)
    draws: int = 0
    actions: int = 0
    turns: int = 0
    pillars: list[Any] = field(default_factory=list)


def _labels(bots: Sequence[str]) -> list[str]:
    """Bot names, numbered when the same level plays more than once."""
    return [f"{name} #{index + 1}" if bots.count(name) > 1 else name for index, name in enumerate(bots)]


def simulate(spec: GameSpec, games: int, bots: Sequence[str], seed: int,
             advance: Callable[[], None] | None = None, options: Mapping[str, object] | None = None) -> Tally:
    """Play ``games`` games; game ``g`` seats bot ``(s + g) mod n`` in seat ``s``, with seed ``seed + g``."""
    tally = Tally(wins=[0] * len(bots))
    wizbits = spec.game_id == "wizbits"
    for game in range(games):
        order = [(seat + game) % len(bots) for seat in range(len(bots))]
        watch = None
        if wizbits:
            from engine.wizbits.stats import PillarWatch

            watcher = PillarWatch()
            watch = watcher.observe
        state, actions = play_game(spec, seed + game, [bots[index] for index in order], watch, options)
        result = spec.rules.result(state)
        assert result is not None
        tally.games += 1
        tally.actions += actions
        if result.is_draw:
            tally.draws += 1
        for seat in result.winners:
            tally.wins[order[seat]] += 1
        if wizbits:
            watcher.finish()
            tally.turns += int(state.turn)
            tally.pillars.extend(watcher.pillars)
        if advance is not None:
            advance()
    return tally


def _shown_option(value: object) -> str:
    """An option's value in one line: a deck list's text is only counted."""
    text = str(value)
    return text if "\n" not in text else f"a deck list of {len(text.splitlines())} lines"


def report(spec: GameSpec, tally: Tally, bots: Sequence[str], seed: int,
           options: Mapping[str, object] | None = None, shown: Mapping[str, str] | None = None) -> list[str]:
    """The figures as plain lines; ``shown`` names options whose values say little (a deck by its file)."""
    games = tally.games
    lines = [(f"{spec.title}: {games} game{'s' if games != 1 else ''}, seed {seed}, "
              f"{' vs '.join(bots)} (seats rotate each game)")]
    if options:
        labels = shown or {}
        lines.append("options: " + ", ".join(f"{name}={labels.get(name) or _shown_option(value)}"
                                             for name, value in options.items()))
    for label, wins in zip(_labels(bots), tally.wins, strict=False):
        lines.append(f"{label}: {wins} win{'s' if wins != 1 else ''} ({100 * wins / games:.1f}%)")
    lines.append(f"draws: {tally.draws} ({100 * tally.draws / games:.1f}%)")
    lines.append(f"average actions: {tally.actions / games:.1f}")
    if spec.game_id == "wizbits":
        from engine.wizbits.stats import summarise

        pillars = summarise(tally.pillars)
        lines.append(f"average turns: {tally.turns / games:.2f}")
        lines.append(f"pillars: {pillars.pillars} opened, {pillars.built} with units played")
        lines.append(f"average pillar size: {pillars.mean_units:.2f} units (largest {pillars.max_units})")
        lines.append(f"average pillar depth: {pillars.mean_depth:.2f} (deepest {pillars.max_depth})")
    return lines


def run(spec: GameSpec, games: int, bots: Sequence[str], seed: int, options: Mapping[str, object] | None = None,
        shown: Mapping[str, str] | None = None) -> int:
    """Simulate with a progress bar on a terminal, then print the figures."""
    console = Console(file=sys.stdout)
    columns = (TextColumn("[progress.description]{task.description}"), BarColumn(), MofNCompleteColumn(),
               TimeRemainingColumn())
    # Off a terminal the bar would only litter the output, so it stays off.
    with Progress(*columns, console=console, transient=True, disable=not console.is_terminal) as progress:
        task = progress.add_task(f"Simulating {spec.title}", total=games)
        tally = simulate(spec, games, bots, seed, advance=lambda: progress.advance(task), options=options)
    for line in report(spec, tally, bots, seed, options, shown):
        print(line)
    return 0
