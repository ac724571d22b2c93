"""The shape of the code: no import circle among the modules of ``bot/`` and ``engine/``, and
no module or function of ``bot/`` too long to hold in one's head.

Every import counts — at the top, inside a function, under ``if TYPE_CHECKING:`` — because a
circle a type checker needs is still two modules that cannot be read, or changed, one without
the other. A type both sides need goes in a small module both import.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("bot", "engine")
MAX_LINES = 1000
# STYLE.md: a function over ~80 lines usually holds two concerns.
MAX_FUNCTION_LINES = 80


def modules() -> dict[str, Path]:
    """Return every module of the packages by its dotted name (a package by its own)."""
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _imported(node: ast.AST, name: str, is_package: bool, known: set[str]) -> Iterator[str]:
    """Yield the known modules one import statement of module ``name`` imports."""
    if isinstance(node, ast.Import):
        for alias in node.names:
            if alias.name in known:
                yield alias.name
        return
    if not isinstance(node, ast.ImportFrom):
        return
    if node.level:
        base = name.split(".") if is_package else name.split(".")[:-1]
        base = base[: len(base) - (node.level - 1)]
        target = ".".join([*base, node.module] if node.module else base)
    else:
        target = node.module or ""
    for alias in node.names:
        sub = f"{target}.{alias.name}"
        if sub in known:
            yield sub
        elif target in known:
            yield target


def graph() -> dict[str, set[str]]:
    """Return, for every module, the modules of the packages it imports."""
    found = modules()
    known = set(found)
    edges: dict[str, set[str]] = {}
    for name, path in found.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        is_package = path.name == "__init__.py"
        edges[name] = {
            target
            for node in ast.walk(tree)
            for target in _imported(node, name, is_package, known)
            if target != name
        }
    return edges


def _components(edges: dict[str, set[str]]) -> list[set[str]]:
    """Return the strongly connected components of more than one module (Tarjan's)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[set[str]] = []

    def visit(start: str) -> None:
        # iterative, so a deep chain of imports cannot exhaust Python's recursion limit
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(component)

    for name in sorted(edges):
        if name not in index:
            visit(name)
    return found


def _circle(edges: dict[str, set[str]], component: set[str]) -> list[str]:
    """Return a shortest circle through the component's first module: ``[a, b, a]``."""
    start = min(component)
    came_from: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for child in sorted(edges[node] & component):
                if child == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(came_from[path[-1]])
                    return [*reversed(path), start]
                if child not in came_from:
                    came_from[child] = node
                    following.append(child)
        frontier = following
    raise AssertionError(f"no circle in {sorted(component)}")


def circles(edges: dict[str, set[str]]) -> list[str]:
    """Return each import circle, spelt out (``a → b → a``), that is not allowed."""
    return [
        " → ".join(_circle(edges, component))
        + (f" (one tangle of {', '.join(sorted(component))})" if len(component) > 2 else "")
        for component in _components(edges)
    ]


def test_no_import_circle() -> None:
    found = circles(graph())
    assert not found, "import circles:\n" + "\n".join(found)


def test_the_walk_sees_every_kind_of_import() -> None:
    """The walk reads what the circle test relies on: relative imports, ``from pkg import
    module``, ``from pkg import name``, and imports under ``TYPE_CHECKING`` and in
    functions; and it spells a circle out."""
    source = """
from __future__ import annotations
from typing import TYPE_CHECKING
from . import tables
from .store import Store
from bot.games import whist
import engine.cards
if TYPE_CHECKING:
    from bot.app import Bot
def later():
    from ..engine import errors
"""
    tree = ast.parse(source)
    known = {"bot", "bot.tables", "bot.store", "bot.games", "bot.games.whist", "bot.app"}
    known |= {"engine", "engine.cards", "engine.errors"}
    found = {t for node in ast.walk(tree) for t in _imported(node, "bot.x", False, known)}
    assert found == {
        "bot.tables",
        "bot.store",
        "bot.games.whist",
        "engine.cards",
        "bot.app",
        "engine.errors",
    }
    in_package = ast.parse("from . import ui\nfrom .render import COLOUR\n")
    known = {"bot.games.whist", "bot.games.whist.ui", "bot.games.whist.render"}
    found = {
        t for node in ast.walk(in_package) for t in _imported(node, "bot.games.whist", True, known)
    }
    assert found == {"bot.games.whist.ui", "bot.games.whist.render"}
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert [_circle(edges, c) for c in _components(edges)] == [["a", "b", "c", "a"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_no_module_of_the_bot_is_too_long() -> None:
    over = {
        str(path.relative_to(ROOT)): lines
        for path in sorted((ROOT / "bot").rglob("*.py"))
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert not over, f"modules over {MAX_LINES} lines (split them by concern): {over}"


def long_functions(source: str, where: str) -> list[str]:
    """Return each function of ``source`` (nested ones and methods too, ``async`` or not)
    over :data:`MAX_FUNCTION_LINES` lines, as ``where:line name (n lines)``."""
    found = []
    for node in ast.walk(ast.parse(source, where)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            assert node.end_lineno is not None
            length = node.end_lineno - node.lineno + 1
            if length > MAX_FUNCTION_LINES:
                found.append((node.lineno, f"{where}:{node.lineno} {node.name} ({length} lines)"))
    return [text for _, text in sorted(found)]


def test_no_function_of_the_bot_is_too_long() -> None:
    over = [
        found
        for path in sorted((ROOT / "bot").rglob("*.py"))
        for found in long_functions(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))
    ]
    assert not over, f"functions over {MAX_FUNCTION_LINES} lines (split them by concern): {over}"


def test_the_function_walk_sees_methods_nested_and_async_functions() -> None:
    def body(indent: str, n: int) -> list[str]:
        return [f"{indent}x = {i}" for i in range(n)]

    most = MAX_FUNCTION_LINES
    lines = ["class C:", "    async def method(self):", *body("        ", most)]
    lines += ["def outer():", "    def inner():", *body("        ", most - 1), "    return inner"]
    lines += ["def fits():", *body("    ", most - 1)]
    assert long_functions("\n".join(lines), "m.py") == [
        f"m.py:2 method ({most + 1} lines)",
        f"m.py:{most + 3} outer ({most + 2} lines)",
    ]


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def borrowed_private_names() -> list[str]:
    """Return each private name (``_x``) one module takes from another of the packages: by
    ``from m import _x`` or as ``m._x`` on a module it imported."""
    found = modules()
    known = set(found)
    borrowed = []
    for name, path in found.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        aliases: dict[str, str] = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name in known and alias.asname:
                        aliases[alias.asname] = alias.name
            elif isinstance(node, ast.ImportFrom):
                targets = list(_imported(node, name, path.name == "__init__.py", known))
                for alias in node.names:
                    if _private(alias.name) and targets:
                        borrowed.append(f"{name}: from {targets[0]} import {alias.name}")
                    sub = f"{targets[0]}.{alias.name}" if targets else ""
                    if sub in known:
                        aliases[alias.asname or alias.name] = sub
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in aliases
                and _private(node.attr)
                and aliases[node.value.id] != name
            ):
                borrowed.append(f"{name}: {aliases[node.value.id]}.{node.attr}")
    return sorted(set(borrowed))


def test_no_module_borrows_another_modules_private_names() -> None:
    borrowed = borrowed_private_names()
    assert not borrowed, f"private names used across modules (make them public): {borrowed}"
