"""The Pillar Lab: set a table, build any pillar for either side for free, then step it as a game would.

The screen holds a :class:`~engine.wizbits.lab.table.LabTable` and nothing else of
the rules: every play, step and text comes from :mod:`engine.wizbits.lab.table`,
which builds and resolves through the game's own code. The pillar is drawn by
the same :class:`PillarTree` the battlefield uses, and checks go to the same
:class:`DiceLog`. Any change to the set-up rebuilds the table from its
scenario, plays included, so what is on screen is always what a saved file
would rebuild.

A play (a card, a Trigger ability or a damage unit for the side whose turn it
is) is picked from a list, then its targets, and goes on the pillar tree's
foundation for free; :func:`~engine.wizbits.lab.table.add_play` checks it. A
scenario loads from, or saves to, a JSON file to share (by default in the
exports folder).
"""

from __future__ import annotations

from dataclasses import replace

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Header, Static

from engine.core.contract import Event
from engine.core.words import plural
from engine.wizbits.cards.card_set import CARDS, CARDS_BY_ID
from engine.wizbits.effects import Effect
from engine.wizbits.lab.json_form import LabFileError, read_scenario, shipped_scenarios, write_scenario
from engine.wizbits.lab.model import edit_card, put_in_play
from engine.wizbits.lab.table import (
    LabCard,
    LabError,
    LabPlay,
    LabSide,
    LabTable,
    Scenario,
    ability_choices,
    add_play,
    build,
    card_choices,
    next_group,
    pass_priority,
    start,
    step,
    trigger_abilities,
)
from engine.wizbits.model import Category
from engine.wizbits.plays import card_slots
from engine.wizbits.resolve import chosen_slots
from engine.wizbits.text import ability_text, card_text
from engine.wizbits.unit_targets import pillar_targets, waiting_after
from saves import SessionStore
from tui.context import coven_or_none
from tui.games.narration import Question
from tui.games.wizbits.dice_log import DiceLog
from tui.games.wizbits.lab.cards import LabCards
from tui.games.wizbits.lab.dialogs import (
    PickScreen,
    SetupScreen,
    ask_targets,
    exports_dir,
    ref_label,
    saved_decks,
)
from tui.games.wizbits.lab.history import StepsBack
from tui.games.wizbits.lab.log import EventLog
from tui.games.wizbits.lab.narration import lab_announce, lab_answer
from tui.games.wizbits.narration import pillar_sentences
from tui.games.wizbits.pillar_tree.tree import PillarTree
from tui.navigation import OpenHelp
from tui.player_settings import read_settings
from tui.served import refuses_files
from tui.user_paths import NoPathError, user_path
from tui.verbosity import DEFAULT, Verbosity, announce_detail, level_of
from tui.widgets.ask import TITLES, AskScreen
from tui.widgets.confirm import ConfirmScreen, PromptScreen
from tui.widgets.fitting_footer import FittingFooter, FooterRoom
from tui.widgets.linear_view import LinearView
from tui.widgets.problem_list import ProblemListScreen, count_problems
from tui.widgets.styles import css_beside

KEYS = ("Keys: c card, b ability, d damage (Damage base), f foundation, t side, g resolve (or pass, when a "
        "trigger opens Priority), n step, a auto, "
        "p pause, ← step back, e Reverse Pillar, u undo, r rebuild, i put a card into play, tab to the table then +/- damage, "
        "v secede, m battle, x remove; s setup, k new table, o examples, l load, w save, ? every key, escape menu.")
"""Every key of the Lab, shown under the lesson (the footer has room for the main ones only)."""

DEFAULT_NAME = "pillar-lab.json"
"""The file name offered for saving a scenario, in the exports folder of Coven's data directory."""


class LabTree(PillarTree):
    """The battlefield's pillar tree with a shorter Footer label, so the Lab's own keys fit beside it."""

    BINDINGS = [Binding("e", "toggle_reverse", "Reverse")]


def blank_scenario() -> Scenario:
    """A fresh table: the two starter decks with their Main Characters, nothing played."""
    return Scenario("A new table", "Your own scenario: put cards in play, build a pillar, then resolve it.",
                    (LabSide("Ana", LabCard("cinderwing-archmage"), deck="ember-dawn"),
                     LabSide("Bo", LabCard("tidewhisper-sage"), deck="tidal-dusk")))


class PillarLabScreen(Screen[None]):
    """The Pillar Lab (see the module docstring); the tree's own keys step and pick foundations."""
    HELP_TITLE = "Pillar Lab"
    HELP = ("A sandbox for Wizbits rulings: put cards in play, build a pillar of plays and resolve it "
            "step by step to see exactly what happens and why. Nothing here is saved as a game. For a screen "
            "reader: ; says the scenario, the stage, the top of the Pillar and what resolves next and why (again: "
            "the whole Pillar); ' then a letter asks (b the Pillar, l the last step, t who holds Priority or what "
            "comes next).")

    CSS_PATH = css_beside(__file__, "screen.tcss")
    # 80 columns can't show every key: the OPTIONAL ones are pairs of bindings, one shown while the Footer has room
    # and one hidden otherwise (see FooterRoom), so the key works either way; "?" lists them all.
    BINDINGS = [
        Binding("c", "play_card", "Card"),
        Binding("b", "use_ability(True)", "Ability"),
        Binding("b", "use_ability(False)", "Ability", show=False),
        Binding("d", "add_damage", "Damage"),
        Binding("t", "switch_side(True)", "Side"),
        Binding("t", "switch_side(False)", "Side", show=False),
        Binding("g", "resolve", "Resolve"),
        Binding("g", "pass_priority", "Pass"),
        # A priority key: the focused pillar tree would take left for scrolling; it works only while resolving.
        Binding("left", "step_back", "Step back", key_display="←", priority=True),
        Binding("r", "reset", "Rebuild"),
        Binding("u", "undo", "Undo"),
        Binding("w", "save", "Save"),
        Binding("escape", "leave", "Menu"),
        Binding("question_mark", "keys", "Keys", key_display="?"),
        Binding("l", "load(True)", "Load"),
        Binding("l", "load(False)", "Load", show=False),
        Binding("s", "setup(True)", "Setup"),
        Binding("s", "setup(False)", "Setup", show=False),
        Binding("o", "examples", "Examples", show=False),
        Binding("i", "into_play", "Put into play", show=False),
        Binding("k", "blank", "New table", show=False),
        Binding("semicolon", "announce", "Announce", key_display=";", show=False),
        Binding("apostrophe", "ask", "Ask", key_display="'", show=False),
    ]

    OPTIONAL = ("switch_side", "use_ability", "load", "setup")
    """Keys shown in the Footer only while it has room, most wanted first."""

    linear = False
    level: Verbosity = DEFAULT
    """How much the narrator says (the ``verbosity`` setting, read when the Lab opens)."""
    """Whether the pillar is shown in words too (the "Linear mode" setting, read on mounting)."""

    def __init__(self, scenario: Scenario | None = None, auto_pause: float = 1.0,
                 store: SessionStore | None = None) -> None:
        """Open on ``scenario`` (the first shipped example when None); set-up offers ``store``'s saved decks."""
        super().__init__()
        self.store = store  # the Lab needs no session database; with one, it offers the saved decks
        self.table: LabTable = build(scenario if scenario is not None else shipped_scenarios()[0])
        self.seat = self.table.scenario.active
        """Who the next play is for."""
        self.auto_pause = auto_pause
        self.path = str(exports_dir() / DEFAULT_NAME)
        """The scenario file offered for loading and saving (the last one used)."""
        self._logged = 0  # events of self.table already written to the logs
        self.steps_back = StepsBack()
        """The tables left behind since resolution began, for ``←``."""
        self._said: tuple[LabTable, int, str] | None = None  # (table, seat, words): on the status line till a move
        self._announced: tuple[LabTable, int] | None = None  # ; pressed again at the same table: the whole Pillar
        self.footer_room = FooterRoom(self, self.OPTIONAL, lambda action: bool(self.check_action(action, ())))

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="lab-main"):
            with Vertical(id="lab-left"):
                yield Static(id="lab-title")
                yield Static(id="lab-status")
                yield LabCards(id="lab-cards")
                with VerticalScroll(id="lab-about-box"):
                    yield Static(id="lab-about")
                yield LinearView(id="lab-linear")
            yield LabTree(id="lab-tree", auto_pause=self.auto_pause)
        with Horizontal(id="lab-logs"):
            yield EventLog(id="lab-log")
            yield DiceLog(id="lab-dice")
        yield FittingFooter(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        self.title = "Pillar Lab"
        self.query_one("#lab-log", EventLog).border_title = "What happened"
        self.query_one(DiceLog).border_title = "Dice"
        context = coven_or_none(self)
        settings = read_settings(context.store, context.account) if context is not None else None
        self.linear = settings is not None and bool(settings["linear"])
        self.level = DEFAULT if settings is None else level_of(settings)
        self._refresh(reset_logs=True)
        self.query_one("#lab-tree PillarOutline").focus()

    # -- drawing --------------------------------------------------------------------------

    def _refresh(self, reset_logs: bool = False) -> None:
        """Redraw the tree, the cards, the texts and the logs from the table."""
        table = self.table
        tree = self.pillar_tree
        if (holder := table.priority) is not None:  # a trigger opened Priority: foundations again, no auto
            tree.auto = False
            self.seat = holder
        tree.set_reactive(PillarTree.mode, "step" if table.started and holder is None else "build")
        tree.show(table.pillar, cards=dict(enumerate(table.state.cards)), seats=self._names(),
                  rtf=table.scenario.rtf, targets=pillar_targets(table.state, table.pillar),
                  waiting=waiting_after(table.state, table.done and table.shown is not None))
        self.query_one(LabCards).show(table)
        if self.linear:  # the "Linear mode" setting: the pillar in words, top first
            self.query_one(LinearView).show_text("\n".join(pillar_sentences(
                table.pillar, pillar_targets(table.state, table.pillar), self._names(), None, table.scenario.rtf)))
        scenario = table.scenario
        self.query_one("#lab-title", Static).update(Text(scenario.title, style="bold"))
        self.query_one("#lab-status", Static).update(self._status())
        about = f"{scenario.about}\n\n{scenario.format.capitalize()} · RTF {scenario.rtf} · {scenario.base} base\n{KEYS}"
        self.query_one("#lab-about", Static).update(about)
        self._write_logs(reset_logs)
        self.refresh_bindings()

    def _status(self) -> Text:
        table = self.table
        if self._said is not None and self._said[0] is table and self._said[1] == self.seat:
            return Text(self._said[2])  # what ; or ' said stays until the table or the side changes
        if not table.started:
            return Text.assemble(("Building: ", "bold"), (f"{self._names()[self.seat]} plays next", "bold green"))
        if table.done:
            outcome = f" {table.state.reason}" if table.state.over else ""
            return Text(f"Resolved.{outcome} r: build again", style="bold")
        if table.priority is not None:
            return Text.assemble(("Priority: ", "bold"), (f"{self._names()[table.priority]} may answer", "bold green"),
                                 " (c card, b ability) or pass (g)")
        return Text.assemble(("Resolving: ", "bold"), "n step, a auto")

    def _write_logs(self, reset: bool) -> None:
        log, dice = self.query_one("#lab-log", EventLog), self.query_one(DiceLog)
        if reset:
            log.forget()
            dice.clear_checks()
            dice.seats = tuple(self._names())
            self._logged = 0
        fresh: list[Event] = self.table.events[self._logged:]
        self._logged = len(self.table.events)
        for event in fresh:
            style = "bold" if event.kind == "resolve_step" else "dim" if event.kind in ("pass", "phase_end") else ""
            log.add(Text(event.text, style=style))
        dice.show_events(fresh)

    def _load(self, scenario: Scenario, *, lenient: bool = False) -> bool:
        """Rebuild from ``scenario``; with ``lenient``, drop the plays that no longer fit."""
        plays = scenario.plays
        problem = "the scenario can't be built"
        for keep in range(len(plays), -1, -1) if lenient else [len(plays)]:
            try:
                self.table = build(replace(scenario, plays=plays[:keep]))
            except LabError as error:
                problem = str(error)
                continue
            if keep < len(plays):
                self.notify(f"Dropped {plural(len(plays) - keep, 'play')} that no longer fit this table.",
                            severity="warning")
            self.seat = self.seat if self.seat in (0, 1) else 0
            self.steps_back.forget()
            self._refresh(reset_logs=True)
            return True
        self.notify(problem, title="The Lab can't build that", severity="error")
        return False

    # -- building -------------------------------------------------------------------------

    def on_resize(self) -> None:
        """The Footer's room changed: show as many optional keys as now fit."""
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if (fitting := self.footer_room.check(action, parameters)) is not None:
            return fitting
        building = not self.table.started
        if action in ("play_card", "use_ability", "pass_priority"):
            answering = self.table.priority is not None
            return answering if action == "pass_priority" else building or answering
        if action in ("switch_side", "resolve", "undo"):
            return building if action != "undo" else building and bool(self.table.scenario.plays)
        if action == "add_damage":
            return building and self.table.scenario.base == "damage"
        if action == "reset":
            return not building  # while building there is nothing to rebuild
        if action == "step_back":
            return not building and bool(self.steps_back)
        return True

    def action_switch_side(self, _shown: bool = True) -> None:
        """The next play is for the other side."""
        self.seat = 1 - self.seat
        self.query_one("#lab-status", Static).update(self._status())

    def action_undo(self) -> None:
        """Take the last play back."""
        scenario = self.table.scenario
        self._load(replace(scenario, plays=scenario.plays[:-1]))

    def action_reset(self) -> None:
        """Rebuild the table and pillar from the scenario: back to building, every play kept."""
        self._load(self.table.scenario)

    def action_blank(self) -> None:
        """Start from an empty table with the starter decks."""
        self._load(blank_scenario())

    # -- plays ----------------------------------------------------------------------------

    def _names(self) -> list[str]:
        return [player.name for player in self.table.state.players]

    @property
    def pillar_tree(self) -> PillarTree:
        """The pillar tree."""
        return self.query_one(PillarTree)

    def _on(self) -> str | None:
        """The tree's foundation as a Lab reference (None: the main Current Foundation)."""
        uid = self.pillar_tree.foundation
        return None if uid == self.table.pillar.main_tip_uid() else self.table.unit_ref(uid)

    def _play(self, play: LabPlay) -> None:
        try:
            table = add_play(self.table, play)
        except LabError as error:
            self.notify(str(error), title="Not possible", severity="error")
            return
        self._move_on(table)

    def _move_on(self, table: LabTable) -> None:
        """Show ``table``, the result of a move; once resolution has begun, ``←`` can come back to this one."""
        if table.started:
            self.steps_back.keep(self.table, self.seat)
        self.table = table
        self._refresh()

    def _label(self, ref: str | None) -> str:
        return ref_label(self.table, ref)

    async def _targets(self, slots: list[Effect], options: list[list[str | None]]) -> tuple[str | None, ...] | None:
        return await ask_targets(self.app, self.table, slots, options)

    @work(exclusive=True)
    async def action_play_card(self) -> None:
        """Pick a card from the whole pool, then its targets; it goes on the tree's foundation."""
        name = self._names()[self.seat]
        choices = [(card.card_id, Text.assemble((card.name, "bold"), (f"  {card.category.label} · {card.element.label}"
                                                                      f" · cost {card.cost}", "dim"))) for card in CARDS]
        details = {card.card_id: "\n".join(card_text(card).splitlines()[2:-2]) for card in CARDS}
        card_id = await self.app.push_screen_wait(PickScreen(f"Play which card for {name}? (free)", choices,
                                                             details=details))
        if card_id is None:
            return
        on = self._on()
        slots = card_slots(CARDS_BY_ID[card_id])
        targets = await self._targets(slots, card_choices(self.table, self.seat, card_id))
        if targets is not None:
            self._play(LabPlay(self.seat, card=card_id, on=on, targets=targets))

    @work(exclusive=True)
    async def action_use_ability(self, _shown: bool = True) -> None:
        """Pick a Trigger ability of the side's cards in play, then its targets."""
        found = trigger_abilities(self.table, self.seat)
        name = self._names()[self.seat]
        if not found:
            self.notify(f"{name} has no card in play with a Trigger ability.")
            return
        choices = [(f"{ref}#{index}", f"{self._label(ref).split(' · ')[1]}: {ability_text(ability)}")
                   for ref, index, ability in found]
        picked = await self.app.push_screen_wait(PickScreen(f"Use which ability for {name}? (free)", choices))
        if picked is None:
            return
        ref, _, index_text = picked.partition("#")
        index = int(index_text)
        on = self._on()
        ability = next(ability for r, i, ability in found if (r, i) == (ref, index))
        options = ability_choices(self.table, self.seat, ref, index)
        targets = await self._targets(chosen_slots((ability,)), options)
        if targets is not None:
            self._play(LabPlay(self.seat, source=ref, ability=index, on=on, targets=targets))

    @work(exclusive=True)
    async def action_add_damage(self) -> None:
        """A damage unit: the side deals some points to one character of the battle's other side."""
        state = self.table.state
        battle = state.battles[0] if state.battles else None
        if battle is None:
            return
        other = battle.defenders if self.seat == state.active else battle.attackers
        refs = [self.table.ref_of(iid) for iid in other if state.permanent(iid) is not None]
        target = await self.app.push_screen_wait(
            PickScreen("Deal damage to which character?", [(ref, self._label(ref)) for ref in refs]))
        if target is None:
            return
        on = self._on()
        points = await self.app.push_screen_wait(
            PickScreen("How many points?", [(str(n), f"{n} point{'s' if n > 1 else ''}") for n in range(1, 13)]))
        if points is not None:
            self._play(LabPlay(self.seat, damage=((target, int(points)),), on=on))

    # -- resolving ------------------------------------------------------------------------

    def action_resolve(self) -> None:
        """Both players pass: the pillar starts to resolve, one step per n."""
        if self.table.started:
            return
        self._move_on(start(self.table)[0])
        self.query_one("#lab-tree PillarOutline").focus()

    def action_pass_priority(self) -> None:
        """The side holding Priority after a trigger passes; two passes in a row and resolution goes on."""
        if self.table.priority is not None:
            self._move_on(pass_priority(self.table)[0])

    @on(PillarTree.StepRequested)
    def _step_requested(self, message: PillarTree.StepRequested) -> None:
        """Resolve one step, while the pillar resolves and nobody holds Priority."""
        message.stop()
        if not self.table.started or not next_group(self.table) or self.table.priority is not None:
            return
        try:
            table, _, _ = step(self.table)
        except LabError as error:
            self.notify(str(error), severity="error")
            return
        self._move_on(table)

    def action_step_back(self) -> None:
        """Back one move of resolution (a step, a pass, an answer to a trigger), or to building before it began."""
        kept = self.steps_back.back()
        if kept is None:
            return
        self.pillar_tree.auto = False  # stepping back is looking again: auto would step straight on
        self.table, self.seat = kept
        self._refresh(reset_logs=True)
        if not self.table.started:
            self.query_one("#lab-tree PillarOutline").focus()

    # -- set-up ---------------------------------------------------------------------------

    @on(LabCards.Edit)
    def _card_edited(self, message: LabCards.Edit) -> None:
        """Change a card of the set-up, then rebuild (plays that no longer fit are dropped)."""
        message.stop()
        try:
            changed = edit_card(self.table.scenario, message.ref, message.what)
        except LabError as error:
            self.notify(str(error))
            return
        self._load(changed, lenient=True)

    @work(exclusive=True)
    async def action_into_play(self) -> None:
        """Put a Character or Non-Element into play for the side (set-up, not a play)."""
        name = self._names()[self.seat]
        choices = [(card.card_id, f"{card.name}  ({card.category.label})") for card in CARDS
                   if card.category is not Category.ELEMENT]
        card_id = await self.app.push_screen_wait(PickScreen(f"Put which card into play for {name}?", choices))
        if card_id is not None:
            self._load(put_in_play(self.table.scenario, self.seat, card_id), lenient=True)

    @work(exclusive=True)
    async def action_setup(self, _shown: bool = True) -> None:
        """Title, format, RTF, base, and each side's name, deck and Main Character."""
        changed = await self.app.push_screen_wait(SetupScreen(self.table.scenario, saved_decks(self.store, self.table.scenario.seed)))
        if changed is not None:
            self._load(changed, lenient=True)

    @work(exclusive=True)
    async def action_examples(self) -> None:
        """Open one of the scenarios that come with Coven."""
        examples = shipped_scenarios()
        picked = await self.app.push_screen_wait(
            PickScreen("Open which example?", [(str(n), s.title) for n, s in enumerate(examples)]))
        if picked is not None:
            self.seat = examples[int(picked)].active
            self._load(examples[int(picked)])

    # -- files ----------------------------------------------------------------------------

    @work(exclusive=True)
    async def action_load(self, _shown: bool = True) -> None:
        """Load a scenario file (JSON); a relative path is relative to the working directory (:mod:`tui.user_paths`)."""
        if refuses_files(self.app):
            return
        path = await self.app.push_screen_wait(PromptScreen("Load a Lab scenario from", self.path, "scenario.json",
                                                            "Load"))
        if not path:
            return
        try:
            target = user_path(path)
            scenario = read_scenario(target)
        except (LabError, NoPathError) as error:
            if isinstance(error, LabFileError) and error.source is not None and len(error.mistakes) > 1:
                # Every mistake, so one pass of editing fixes the file; a toast would cut a long list short.
                self.notify(f"{error.source} can't be loaded: {count_problems(len(error.mistakes))}, listed in the "
                            "dialog.", title="Can't load", severity="error", timeout=10)
                self.app.push_screen(ProblemListScreen(f"{error.source} can't be loaded:", error.mistakes))
            else:
                self.notify(str(error), title="Can't load", severity="error", timeout=10)
            return
        self.path = str(target)
        self.seat = scenario.active
        if self._load(scenario):
            self.notify(f"Loaded {target}", timeout=10)

    @work(exclusive=True)
    async def action_save(self) -> None:
        """Save the scenario, plays included, as JSON to share (asking before replacing a file)."""
        if refuses_files(self.app):
            return
        path = await self.app.push_screen_wait(PromptScreen("Save this scenario to", self.path, "scenario.json",
                                                            "Save"))
        if not path:
            return
        try:
            target = user_path(path)
        except NoPathError as error:
            self.notify(str(error), title="Can't save", severity="error", timeout=10)
            return
        # Only a regular file is offered for replacing; a pipe or device is refused by write_scenario.
        if target.is_file() and not await self.app.push_screen_wait(
                ConfirmScreen(f"{target} already exists. Replace it?", "Replace", "Cancel")):
            return
        try:
            if target.parent == exports_dir():
                target.parent.mkdir(parents=True, exist_ok=True)  # the default folder; others must exist
            write_scenario(target, self.table.scenario)
        except (LabError, OSError) as error:
            self.notify(str(error), title="Can't save", severity="error", timeout=10)
            return
        self.path = str(target)
        self.notify(f"Saved to {target}", timeout=10)

    # -- keys and leaving -----------------------------------------------------------------

    def action_announce(self) -> None:
        """Say the scenario, the stage, the top of the Pillar and what resolves next (again: the whole Pillar)."""
        key = (self.table, self.seat)
        again = self._announced is not None and self._announced[0] is key[0] and self._announced[1] == key[1]
        self._announced = key
        self._say(lab_announce(self.table, self.seat, announce_detail(self.level, again), self.level), "Now")

    def action_ask(self) -> None:
        """Open the questions (``'``); the one chosen is answered like an announcement."""
        self.app.push_screen(AskScreen(), self._answer)

    def _answer(self, question: Question | None) -> None:
        """Answer the question asked about the Lab's table (escape asked none)."""
        if question is not None:
            self._say(lab_answer(self.table, self.seat, question, self.level), TITLES[question])

    def _say(self, text: str, title: str) -> None:
        """Say ``text`` as a toast and on the status line, until the table or the side changes."""
        self._said = (self.table, self.seat, text)
        self.query_one("#lab-status", Static).update(self._status())
        self.notify(text, title=title, timeout=10, markup=False)  # scenario files are outside text: never markup

    def action_keys(self) -> None:
        """List every key of the Lab; choosing one presses it."""
        # The help lists every key, the ones the Footer leaves out too; enter presses one.
        self.app.post_message(OpenHelp())

    def action_leave(self) -> None:
        """Back to the main menu."""
        self.app.pop_screen()
