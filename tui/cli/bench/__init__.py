"""``coven bench ...``: one module per target, each imported only when its target runs.

- :mod:`tui.cli.bench.targets`: which targets are not a game, and how each is run;
- :mod:`tui.cli.bench.games`: a game's engine and bots (``coven bench GAME``);
- :mod:`tui.cli.bench.wizards_cup`: the Wizards Cup round matrix, its solve and the Hard bot;
- :mod:`tui.cli.bench.witchdraft`: WitchDraft Hard against Normal (``coven bench witchdraft-bots``);
- :mod:`tui.cli.bench.wizbits_hard`: the Wizbits Hard bot against Normal (``coven bench wizbits-hard``);
- :mod:`tui.cli.bench.tables`: how soon another process at a shared table sees a move;
- :mod:`tui.cli.bench.serve`: what ``coven serve`` sends a player, against a bare Textual app;
- :mod:`tui.cli.bench.seat_memory`: a seat's memory at the menu and after whole games against Hard;
- :mod:`tui.cli.bench.startup`: the time to the main menu, against a bare Textual app.
"""
