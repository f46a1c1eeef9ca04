"""Where the games' rules documents live, for the CLI and the rules screen."""

from pathlib import Path

RULES_DIR = Path(__file__).resolve().parent / "rules_text"
"""The rules documents; ``GameSpec.rules_doc`` names a file here.

The documents are written in ``docs/rules`` and ``tui/rules_text`` links to
that folder, so a checkout reads them where the project keeps them and a
built wheel carries them inside the package.
"""
