"""The house's plan, read from the source: who may import whom, and no import cycles.

Each module is parsed once with ``ast`` (nothing is imported), and every import
counts, wherever it is: at module level, under ``if TYPE_CHECKING:``, and inside
a function. A lazy import kept for start-up time is fine, as long as it makes no
cycle and runs no floor upward. An import the checks must not see is named in
:data:`EXEMPT_IMPORTS` with its reason.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator, Mapping, Set
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

PACKAGES = ("engine", "saves", "tui")
"""The project's packages, bottom floor first."""

APP_MODULE = "tui.app"

BELOW_THE_APP = ("tui.screens", "tui.widgets", "tui.games")
"""Packages the app imports, which reach it only through tui.context and tui.navigation."""

SCREENS = "tui.screens"

BELOW_THE_SCREENS = ("tui.widgets", "tui.games")
"""Packages the screens build on: they never import a screen (the app opens screens, asked by a message)."""

EXEMPT_IMPORTS: Mapping[tuple[str, str], str] = {}
"""(importing module, imported module) -> why the import may make a cycle or run upward. None today."""


@dataclass(frozen=True)
class FoundImport:
    """One import statement as the scanner sees it.

    Attributes:
        line: Its line number.
        names: Every dotted name it may import (``from a import b`` gives ``a`` and ``a.b``), relative ones resolved.
        lazy: Inside a function: run only when that is called.
        type_only: Under ``if TYPE_CHECKING:``: read by the type checker only.
        relative: A relative import (``from . import x``).
    """

    line: int
    names: tuple[str, ...]
    lazy: bool = False
    type_only: bool = False
    relative: bool = False


@dataclass(frozen=True)
class Module:
    """One parsed module of the project."""

    name: str
    path: Path
    tree: ast.Module
    imports: tuple[FoundImport, ...]

    @property
    def where(self) -> str:
        """The module's file, relative to the repository."""
        return str(self.path.relative_to(REPO))


def below(module: str, packages: tuple[str, ...]) -> bool:
    """True for a module in one of ``packages`` (``tui.screens.menu`` is in ``tui.screens``, ``tui.screenshots`` not)."""
    return any(module == package or module.startswith(package + ".") for package in packages)


def below_the_app(module: str) -> bool:
    """True for a module of a package the app imports (``tui.screens.menu``, not ``tui.screenshots``)."""
    return below(module, BELOW_THE_APP)


def module_name(path: Path) -> str:
    """``tui/screens/menu.py`` -> ``tui.screens.menu``; a package's ``__init__.py`` is the package."""
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


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


def is_type_checking(test: ast.expr) -> bool:
    """True for the test of ``if TYPE_CHECKING:`` (or ``typing.TYPE_CHECKING``)."""
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def scan_imports(tree: ast.Module, module: str, is_package: bool) -> list[FoundImport]:
    """Every import in ``tree``, each marked lazy (inside a function) and type-only (under TYPE_CHECKING)."""
    found: list[FoundImport] = []
    pending: list[tuple[ast.AST, bool, bool]] = [(tree, False, False)]
    while pending:
        node, lazy, type_only = pending.pop()
        if isinstance(node, ast.Import | ast.ImportFrom):
            relative = isinstance(node, ast.ImportFrom) and node.level > 0
            found.append(FoundImport(node.lineno, tuple(imported_names(node, module, is_package)), lazy, type_only,
                                     relative))
            continue
        inner_lazy = lazy or isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
        if isinstance(node, ast.If) and is_type_checking(node.test):
            pending.extend((child, inner_lazy, True) for child in node.body)
            pending.extend((child, inner_lazy, type_only) for child in node.orelse)
            continue
        # An import is a statement: only statements (and the blocks of ``except`` and ``case``) can hold one.
        pending.extend((child, inner_lazy, type_only) for child in ast.iter_child_nodes(node)
                       if isinstance(child, ast.stmt | ast.excepthandler | ast.match_case))
    return sorted(found, key=lambda found_import: found_import.line)


@functools.cache
def project_modules() -> dict[str, Module]:
    """Every module of the project's packages, by dotted name, parsed once for the whole test session."""
    modules = {}
    for package in PACKAGES:
        for path in sorted((REPO / package).rglob("*.py")):
            name = module_name(path)
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
            modules[name] = Module(name, path, tree, tuple(scan_imports(tree, name, path.name == "__init__.py")))
    return modules


def resolve(name: str, modules: Set[str]) -> str | None:
    """The project module ``name`` is (or lies in: ``tui.app.CovenApp`` -> ``tui.app``), or None."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def import_targets(module: Module, found: FoundImport, modules: Set[str]) -> set[str]:
    """The project modules ``found`` imports in ``module`` (not ``module`` itself)."""
    imported = list(found.names)
    if module.name.startswith(imported[0] + ".") and all(submodule in modules for submodule in imported[1:]):
        # ``from saves import table_tokens`` in saves.tables needs only the submodule: its
        # package is already being imported, and none of the package's own names is read.
        imported = imported[1:]
    targets = {resolve(dotted, modules) for dotted in imported}
    return {target for target in targets if target is not None and target != module.name}


@functools.cache
def import_graph() -> dict[str, frozenset[str]]:
    """Each project module -> the project modules it imports anywhere, less :data:`EXEMPT_IMPORTS`."""
    modules = project_modules()
    graph = {}
    for name, module in modules.items():
        targets: set[str] = set()
        for found in module.imports:
            targets |= import_targets(module, found, modules.keys())
        graph[name] = frozenset(target for target in targets if (name, target) not in EXEMPT_IMPORTS)
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


def every_import(module: Module) -> Iterator[tuple[int, str]]:
    """(line, dotted name) of every import in ``module`` not exempt, functions and ``TYPE_CHECKING`` included."""
    modules = project_modules().keys()
    for found in module.imports:
        for name in found.names:
            if (module.name, resolve(name, modules)) not in EXEMPT_IMPORTS:
                yield found.line, name


SAMPLE = '''
from __future__ import annotations

import os
from typing import TYPE_CHECKING

from pkg import plain

if TYPE_CHECKING:
    from pkg.typed import Typed
else:
    import pkg.otherwise

try:
    import pkg.tried
except ImportError:
    import pkg.fallback

def helper() -> None:
    from . import sibling

class Owner:
    def method(self) -> None:
        if TYPE_CHECKING:
            import pkg.lazy_typed
        import pkg.in_method
'''
"""A module with every kind of import the scanner must find."""


def test_the_scanner_finds_plain_type_checking_and_function_local_imports() -> None:
    scanned = scan_imports(ast.parse(SAMPLE), "pkg.sample", is_package=False)
    assert [found.names[-1] for found in scanned if found.relative] == ["pkg.sibling"]
    found = {found.names[-1]: (found.lazy, found.type_only) for found in scanned}
    assert found == {
        "__future__.annotations": (False, False),
        "os": (False, False),
        "typing.TYPE_CHECKING": (False, False),
        "pkg.plain": (False, False),
        "pkg.typed.Typed": (False, True),
        "pkg.otherwise": (False, False),  # the else branch runs
        "pkg.tried": (False, False),
        "pkg.fallback": (False, False),
        "pkg.sibling": (True, False),  # relative, resolved against the module's package
        "pkg.lazy_typed": (True, True),
        "pkg.in_method": (True, False),
    }


def test_the_graph_sees_module_level_type_checking_relative_and_lazy_imports() -> None:
    graph = import_graph()
    assert "tui.table_seating" in graph["tui.app"]  # a plain module-level import
    assert "tui.table_seating" in graph["tui.context"]  # only under TYPE_CHECKING
    assert "tui.screens.menu" in graph["tui.app"]  # imported inside on_mount, for start-up time
    relative = [name for name, module in project_modules().items() if any(found.relative for found in module.imports)]
    for name in relative:
        assert graph[name], f"{name}'s relative imports were not resolved"


def test_every_module_is_parsed_once() -> None:
    assert project_modules() is project_modules() and import_graph() is import_graph()
    assert {"engine.core.contract", "saves.store", "tui.app", "tui.screens.game.screen"} <= project_modules().keys()


def test_cycles_finds_every_loop_and_only_loops() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": {"e"}, "e": {"d"}, "f": {"a"}, "g": set()}
    assert cycles(graph) == {frozenset("abc"), frozenset("de")}
    assert cycles({"a": {"b"}, "b": set()}) == set()


def test_the_import_graph_has_no_cycles() -> None:
    found = sorted(sorted(group) for group in cycles(import_graph()))
    assert found == [], f"import cycles (every import counts, lazy and TYPE_CHECKING ones too): {found}"


def test_every_exempt_import_is_still_made() -> None:
    modules = project_modules()
    stale = [edge for edge in EXEMPT_IMPORTS
             if edge[0] not in modules or not any(edge[1] in import_targets(modules[edge[0]], found, modules.keys())
                                                  for found in modules[edge[0]].imports)]
    assert stale == [], f"these exempt imports are gone: remove them from EXEMPT_IMPORTS: {stale}"


def test_no_screen_widget_or_game_imports_the_app() -> None:
    offenders = set()
    for name, module in project_modules().items():
        if not below_the_app(name):
            continue
        for line, imported in every_import(module):
            if imported == APP_MODULE or imported.startswith(APP_MODULE + "."):
                offenders.add(f"{module.where}:{line}")
    assert not offenders, "these import tui.app; read it through tui.context, move with tui.navigation:\n" + "\n".join(
        sorted(offenders))


def test_no_widget_or_game_imports_a_screen() -> None:
    offenders = []
    for name, module in project_modules().items():
        if not below(name, BELOW_THE_SCREENS):
            continue
        offenders += sorted({f"{module.where}:{line}" for line, imported in every_import(module)
                             if below(imported, (SCREENS,))})
    assert offenders == [], ("widgets and games build screens' parts: move what they share into tui/widgets "
                             "or tui/, or post a tui.navigation message:\n" + "\n".join(offenders))


def test_no_screen_widget_or_game_reads_the_app_by_attribute_name() -> None:
    offenders = []
    for name, module in project_modules().items():
        if not below_the_app(name):
            continue
        for node in ast.walk(module.tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id in ("getattr", "hasattr") and node.args
                    and isinstance(node.args[0], ast.Attribute) and node.args[0].attr == "app"):
                offenders.append(f"{module.where}:{node.lineno}")
    assert offenders == [], "use tui.context.coven(self) instead of getattr(self.app, ...):\n" + "\n".join(offenders)


def test_no_floor_imports_a_floor_above_it() -> None:
    """engine imports neither saves nor tui, and saves never tui: anywhere, lazy imports included."""
    floor = {package: level for level, package in enumerate(PACKAGES)}
    offenders = []
    for name, module in project_modules().items():
        own = floor[name.partition(".")[0]]
        for line, imported in every_import(module):
            target = floor.get(imported.partition(".")[0])
            if target is not None and target > own:
                offenders.append(f"{module.where}:{line} imports {imported}")
    assert offenders == [], "a lower floor imports a higher one:\n" + "\n".join(offenders)


def package_of(name: str) -> str:
    """The package module ``name`` belongs to (a package belongs to itself): ``tui.web.run`` -> ``tui.web``."""
    module = project_modules()[name]
    return name if module.path.name == "__init__.py" else name.rpartition(".")[0]


def test_no_module_imports_another_packages_private_names() -> None:
    """A ``_name`` is its package's own: ``coven web`` once started up through ``coven serve``'s ``_prepare``."""
    modules = project_modules()
    offenders = []
    for name, module in modules.items():
        for node in ast.walk(module.tree):
            if not isinstance(node, ast.ImportFrom) or node.level or node.module is None:
                continue
            source = resolve(node.module, modules.keys())
            if source is None or package_of(source) == package_of(name):
                continue
            offenders += [f"{module.where}:{node.lineno} imports {node.module}.{alias.name}" for alias in node.names
                          if alias.name.startswith("_") and not alias.name.startswith("__")]
    assert offenders == [], "give these a public name (with a docstring) where they are defined:\n" + "\n".join(
        offenders)
