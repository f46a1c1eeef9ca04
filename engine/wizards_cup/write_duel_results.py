"""Write :mod:`engine.wizards_cup.duel_results` anew: ``make duel-results`` after a change to the wizards or duels.

Its test (tests/engine/wizards_cup/test_duel_results.py) fails until the shipped duels match a fresh build.
"""

from __future__ import annotations

import base64
import zlib
from pathlib import Path

from engine.wizards_cup.round_matrix import DUEL_CAP, resolved_afresh

TARGET = Path(__file__).with_name("duel_results.py")
LINE = 96
"""Characters of base64 a source line."""


def source() -> str:
    """The module's text, with every duel resolved now."""
    digest, results = resolved_afresh()
    text = base64.b64encode(zlib.compress(results, 9)).decode("ascii")
    lines = "".join(f'    "{text[at:at + LINE]}",\n' for at in range(0, len(text), LINE))
    return (
        '"""Every duel between two Wizards Cup duel contexts, resolved ahead (written by write_duel_results.py).\n'
        "\n"
        "Resolving them takes a second or two of CPU in every process that plays against Hard or asks the coach,\n"
        "and in every warm parent of ``coven serve``; reading them takes a millisecond. They are used only when\n"
        "CONTEXTS_DIGEST matches the contexts as numbered now, so a change to the wizards falls back to resolving.\n"
        '"""\n'
        "\n"
        f'CONTEXTS_DIGEST = "{digest}"\n'
        f"DUEL_CAP = {DUEL_CAP}\n"
        "RESULTS = (  # base64 of zlib of int8 outcomes (0 first side wins, 1 second, 2 both out), contexts x contexts x duel\n"
        f"{lines})\n"
    )


def main() -> int:
    """Write the module; 0."""
    TARGET.write_text(source(), encoding="utf-8")
    print(f"wrote {TARGET}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
