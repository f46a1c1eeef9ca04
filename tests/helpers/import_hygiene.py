"""Shared by test_import_hygiene.py and other test modules, which import them from here.

modules_after_import, moved here from tests/project/test_import_hygiene.py.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def modules_after_import(module: str) -> set[str]:
    """Import ``module`` in a fresh interpreter and return every loaded module name."""
    code = f"import json, sys, {module}; print(json.dumps(sorted(sys.modules)))"
    env = dict(os.environ, PYTHONPATH=str(REPO))
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True, timeout=60, check=True
    )
    return set(json.loads(done.stdout))
