"""The Pillar Lab in words: the announce key (``;``) and the questions (``'``) that make sense at a Lab table.

The Lab plays no game: nobody holds a hand to guard, there is no score and no
clock. So the narrator says the scenario, the stage (building, resolving,
Priority, resolved), the top of the Pillar and what resolves next and why,
with the Wizbits narrator's own Pillar sentences
(:func:`~tui.games.wizbits.narration.pillar_sentences`); the other questions
get a sentence saying the Lab has no such thing. Pure text from a
:class:`~engine.wizbits.lab.model.LabTable`, so tests read it without a screen.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.core.words import plural
from engine.wizbits.lab.model import LabTable
from engine.wizbits.lab.resolve import next_group
from engine.wizbits.pillar.tree import Unit
from engine.wizbits.unit_targets import pillar_targets
from tui.games.narration import Question
from tui.games.wizbits.narration import pillar_sentences, unit_sentence
from tui.narration import names_phrase, sentence
from tui.verbosity import DEFAULT, Verbosity, first_sentence, shorten

NOT_IN_THE_LAB: dict[Question, str] = {
    Question.HAND: "The Pillar Lab keeps no hand to ask about: cards come from its pool (c), and s sets up the table.",
    Question.OPPONENTS: "The Pillar Lab has no opponents: you play both sides, and t switches whose play is next.",
    Question.SCORE: "The Pillar Lab keeps no score: each character's points and damage are on the table.",
    Question.CLOCK: "The Pillar Lab has no clock.",
}
"""The questions the Lab has no answer for, each answered by saying so."""


def names(table: LabTable) -> list[str]:
    """The two sides' names."""
    return [player.name for player in table.state.players]


def steps_resolved(table: LabTable) -> int:
    """How many resolution steps the table has taken."""
    return sum(1 for event in table.events if event.kind == "resolve_step")


def stage_words(table: LabTable, seat: int) -> str:
    """Where the Lab stands: building (``seat`` plays next), resolving (which step), Priority, or resolved."""
    who = names(table)
    if not table.started:
        plays = len(table.scenario.plays)
        return f"Building, {plural(plays, 'play')} so far: {who[seat]} plays next."
    if table.done:
        return f"Resolved after {plural(steps_resolved(table), 'step')}." + (
            f" {table.state.reason}" if table.state.over and table.state.reason else "")
    done = steps_resolved(table)
    if table.priority is not None:
        return (f"Resolving, {plural(done, 'step')} taken: {who[table.priority]} holds Priority and may answer the "
                f"trigger, or pass.")
    return f"Resolving, {plural(done, 'step')} taken."


def _standing(table: LabTable) -> list[Unit]:
    return sorted((unit for unit in table.pillar.units() if unit.height >= 1), key=lambda unit: unit.order)


def top_words(table: LabTable) -> str:
    """The top of the Pillar (the unit played last), with its owner, height and targets."""
    units = _standing(table)
    if not units:
        return "The Pillar is empty."
    targets = pillar_targets(table.state, table.pillar)
    return f"Top of the Pillar: {unit_sentence(units[-1], targets.get(units[-1].uid, ()), names(table), None)}."


def next_words(table: LabTable) -> str:
    """What resolves next and why (the greatest height first; a tie together, by precedence); "" when nothing."""
    if not table.started or table.done:
        return ""
    group = next_group(table)
    if not group:
        return "Nothing is left to resolve."
    height = group[0].height
    if len(group) == 1:
        return (f"Next to resolve: {group[0].name}, because it stands highest on the Pillar (height {height}) and "
                f"the highest unit resolves first.")
    return (f"Next to resolve, together: {names_phrase([unit.name for unit in group])}, because they share the "
            f"greatest height ({height}); their results apply in order of precedence (IPH, then play order), so "
            f"the last one's stands.")


def lab_announce(table: LabTable, seat: int, detail: bool = False, level: Verbosity = DEFAULT) -> str:
    """The announce key: the scenario, the stage, the top of the Pillar and what resolves next; with ``detail``,
    the whole Pillar too. At terse verbosity only the stage's first sentence (the scenario's title, the first
    sentence otherwise, would tell nothing new)."""
    if level is Verbosity.TERSE:
        return first_sentence(stage_words(table, seat))
    title = table.scenario.title.strip()
    parts = [title if title.endswith((".", "?", "!")) else f"{title}.", stage_words(table, seat), top_words(table), next_words(table)]
    if detail:
        parts += pillar_lines(table)
    return " ".join(part for part in parts if part)


def pillar_lines(table: LabTable) -> list[str]:
    """The Pillar, top first, branch by branch, in the Wizbits narrator's words."""
    return pillar_sentences(table.pillar, pillar_targets(table.state, table.pillar), names(table), None,
                            table.scenario.rtf)


def last_words(table: LabTable) -> str:
    """The last thing that happened at the table (setup, a play or a step)."""
    said: Sequence[str] = [text for text in (sentence(event.text) for event in table.events) if text]
    return said[-1] if said else "Nothing has happened yet: build the Pillar with c, b or d."


def lab_answer(table: LabTable, seat: int, question: Question, level: Verbosity = DEFAULT) -> str:
    """The ask key at the Lab: b the Pillar, l the last step, t who holds Priority or what comes next; the others
    say the Lab has no such thing. At terse verbosity, the answer's first sentence."""
    if question is Question.BOARD:
        text = " ".join(pillar_lines(table))
    elif question is Question.LAST:
        text = last_words(table)
    elif question is Question.TURN:
        text = " ".join(part for part in (stage_words(table, seat), next_words(table)) if part)
    else:
        text = NOT_IN_THE_LAB[question]
    return shorten(text, level)
