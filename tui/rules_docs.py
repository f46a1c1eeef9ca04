"""Where the games' rules documents live, for the CLI and the rules screen."""

from pathlib import Path

RULES_DIR = Path(__file__).resolve().parents[1] / "docs" / "rules"
"""``docs/rules`` in the source tree; ``GameSpec.rules_doc`` names a file here.

Coven is installed in editable mode by ``make play``, so the documents are
read where the project keeps them rather than copied into the package.
"""
