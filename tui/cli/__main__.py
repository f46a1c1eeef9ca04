"""``python -m tui.cli``: the ``coven`` command (``coven serve`` starts each player's child this way)."""

import sys

from tui.cli import main

sys.exit(main())
