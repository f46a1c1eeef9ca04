"""The house's plan, read from the source: who may import whom, and no import cycles.

Each check parses the modules with ``ast`` (nothing is imported), so it sees
imports under ``if TYPE_CHECKING:`` too.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping, Set
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

PACKAGES = ("engine", "saves", "tui")
"""The project's packages, bottom floor first."""

APP_MODULE = "tui.app"

BELOW_THE_APP = ("tui.screens", "tui.widgets", "tui.games")
"""Packages the app imports, which reach it only through tui.context and tui.navigation."""

ALLOWED_CYCLES: frozenset[frozenset[str]] = frozenset()
"""Import cycles known today, each to be removed by whoever breaks it. The test wants exactly these."""


def below_the_app(module: str) -> bool:
    """True for a module of a package the app imports (``tui.screens.menu``, not ``tui.screenshots``)."""
    return any(module == package or module.startswith(package + ".") for package in BELOW_THE_APP)


def module_name(path: Path) -> str:
    """``tui/screens/menu.py`` -> ``tui.screens.menu``; a package's ``__init__.py`` is the package."""
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def project_modules() -> dict[str, Path]:
    """Every module of the project's packages, by dotted name."""
    return {module_name(path): path for package in PACKAGES for path in sorted((REPO / package).rglob("*.py"))}


def imported_names(node: ast.Import | ast.ImportFrom, module: str, is_package: bool) -> Iterator[str]:
    """Every dotted name ``node`` may import (``from a import b`` gives ``a`` and ``a.b``), relative ones resolved."""
    if isinstance(node, ast.Import):
        yield from (alias.name for alias in node.names)
        return
    base = node.module or ""
    if node.level:
        package = module.split(".") if is_package else module.split(".")[:-1]
        anchor = package[: len(package) - node.level + 1]
        base = ".".join(anchor + ([base] if base else []))
    yield base
    yield from (f"{base}.{alias.name}" for alias in node.names)


def module_level_imports(tree: ast.Module) -> Iterator[ast.Import | ast.ImportFrom]:
    """Imports run when the module is imported, or read by the type checker (``if TYPE_CHECKING:``).

    Imports inside functions are left out: they are the lazy-loading seams, run only when called.
    """
    pending: list[ast.stmt] = list(tree.body)
    while pending:
        statement = pending.pop()
        if isinstance(statement, ast.Import | ast.ImportFrom):
            yield statement
        elif not isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef):
            pending.extend(child for child in ast.iter_child_nodes(statement) if isinstance(child, ast.stmt))


def resolve(name: str, modules: Set[str]) -> str | None:
    """The project module ``name`` is (or lies in: ``tui.app.CovenApp`` -> ``tui.app``), or None."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def import_graph() -> dict[str, set[str]]:
    """Each project module -> the project modules it imports at module level."""
    modules = project_modules()
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        targets = set()
        for node in module_level_imports(tree):
            imported = list(imported_names(node, name, path.name == "__init__.py"))
            if isinstance(node, ast.ImportFrom) and name.startswith(imported[0] + ".") and all(
                    submodule in modules for submodule in imported[1:]):
                # ``from saves import table_tokens`` in saves.tables needs only the submodule: its
                # package is already being imported, and none of the package's own names is read.
                imported = imported[1:]
            for dotted in imported:
                target = resolve(dotted, modules.keys())
                if target is not None and target != name:
                    targets.add(target)
        graph[name] = targets
    return graph


def cycles(graph: Mapping[str, Set[str]]) -> set[frozenset[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: set[frozenset[str]] = set()
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph.get(root, ()))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, targets = work[-1]
            target = next(targets, None)
            if target is not None:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph.get(target, ())))))
                elif target in on_stack:
                    low[node] = min(low[node], index[target])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                group = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.add(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.add(frozenset(group))
    return found


def every_import(tree: ast.Module, module: str, is_package: bool) -> Iterator[tuple[int, str]]:
    """(line, dotted name) of every import anywhere in ``tree``, functions and ``TYPE_CHECKING`` included."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            for name in imported_names(node, module, is_package):
                yield node.lineno, name


def test_no_screen_widget_or_game_imports_the_app() -> None:
    offenders = set()
    for name, path in project_modules().items():
        if not below_the_app(name):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for line, imported in every_import(tree, name, path.name == "__init__.py"):
            if imported == APP_MODULE or imported.startswith(APP_MODULE + "."):
                offenders.add(f"{path.relative_to(REPO)}:{line}")
    assert not offenders, "these import tui.app; read it through tui.context, move with tui.navigation:\n" + "\n".join(
        sorted(offenders))


def test_no_screen_widget_or_game_reads_the_app_by_attribute_name() -> None:
    offenders = []
    for name, path in project_modules().items():
        if not below_the_app(name):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id in ("getattr", "hasattr") and node.args
                    and isinstance(node.args[0], ast.Attribute) and node.args[0].attr == "app"):
                offenders.append(f"{path.relative_to(REPO)}:{node.lineno}")
    assert offenders == [], "use tui.context.coven(self) instead of getattr(self.app, ...):\n" + "\n".join(offenders)


def test_the_graph_sees_module_level_type_checking_and_relative_imports_but_not_lazy_ones() -> None:
    graph = import_graph()
    assert "tui.table_seating" in graph["tui.app"]  # a plain module-level import
    assert "tui.table_seating" in graph["tui.context"]  # only under TYPE_CHECKING
    assert "tui.screens.menu" not in graph["tui.app"]  # imported inside on_mount: a lazy seam
    relative = [name for name, path in project_modules().items()
                if any(isinstance(node, ast.ImportFrom) and node.level
                       for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))))]
    for name in relative:
        assert graph[name], f"{name}'s relative imports were not resolved"


def test_cycles_finds_every_loop_and_only_loops() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": {"e"}, "e": {"d"}, "f": {"a"}, "g": set()}
    assert cycles(graph) == {frozenset("abc"), frozenset("de")}
    assert cycles({"a": {"b"}, "b": set()}) == set()


def test_no_import_cycles_beyond_the_known_ones() -> None:
    found = cycles(import_graph())
    new = sorted(sorted(group) for group in found - ALLOWED_CYCLES)
    gone = sorted(sorted(group) for group in ALLOWED_CYCLES - found)
    assert new == [], f"import cycles: {new}"
    assert gone == [], f"these cycles are gone: remove them from ALLOWED_CYCLES: {gone}"


def test_no_floor_imports_a_floor_above_it() -> None:
    """engine imports neither saves nor tui, and saves never tui: anywhere, lazy imports included."""
    floor = {package: level for level, package in enumerate(PACKAGES)}
    offenders = []
    for name, path in project_modules().items():
        own = floor[name.partition(".")[0]]
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for line, imported in every_import(tree, name, path.name == "__init__.py"):
            target = floor.get(imported.partition(".")[0])
            if target is not None and target > own:
                offenders.append(f"{path.relative_to(REPO)}:{line} imports {imported}")
    assert offenders == [], "a lower floor imports a higher one:\n" + "\n".join(offenders)
