"""The table keeper: turn-based tables move on while nobody is connected.

A turn-based table otherwise moves only while some player's Coven has it open. The keeper does what that
Coven would do, for every turn-based table of a save folder that no live process drives
(:func:`tui.keeper.tend.keep_tables`): time-outs to the host's bot, the bots' moves, the half-time reminder and
the notice to each newly asked seat.

``coven serve`` and ``coven web`` run it as a separate process (:mod:`tui.keeper.run`, started and restarted by
:mod:`tui.server.keeper_link`) every :data:`tui.keeper.run.PERIOD_SECONDS`; a host without a server runs
one pass with ``coven tables keep`` (from cron, say).
"""
