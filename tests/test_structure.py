"""The shape of the tree: floors whose imports point down only, no import circle, small modules.

Every import counts, including those inside functions and under ``TYPE_CHECKING``: a circle
hidden from the interpreter is still a circle for whoever reads the code.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("bot", "cogs", "render")
#: no product module (bot/, cogs/, render/: the games' rules, solvers and AIs too) is longer
MAX_LINES = 500

#: floor of each part of the tree, lowest first; a module may import its own floor and below
FLOORS = [
    ("bot.games", "bot.tournaments"),
    ("bot.errors", "bot.logs", "bot.i18n", "bot.glossary", "bot.register", "bot.markdown"),
    ("bot.store",),
    ("bot.config",),
    ("bot.domain",),
    ("bot.runtime", "render", "bot.activity"),
    ("bot.ui",),
    ("bot.client",),
    ("cogs",),
    ("bot.testing", "bot.playground", "bot.tools", "bot.__main__", "bot"),
]


def modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join(parts)] = path
    return found


MODULES = modules()


def _owner(name: str) -> str | None:
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def imports_of(module: str) -> set[str]:
    """The modules of the tree ``module`` imports, anywhere in its text."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([node.module] if node.module else []))
            # ``from bot.store import core`` imports the module bot.store.core
            names = [f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base
                     for a in node.names]
        else:
            continue
        found |= {owner for owner in map(_owner, names) if owner and owner != module}
    return found


GRAPH = {module: imports_of(module) for module in MODULES}


def floor(module: str) -> int:
    best, where = -1, None
    for level, prefixes in enumerate(FLOORS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > best:
                best, where = len(prefix), level
    assert where is not None, f"{module} is on no floor: add it to FLOORS"
    return where


def circles() -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    counter = 0
    for start in sorted(GRAPH):
        if start in index:
            continue
        work = [(start, iter(sorted(GRAPH[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(GRAPH[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    out.append(sorted(component))
    return out


def test_no_import_circle():
    assert circles() == []


def test_the_circle_finder_finds_one():
    GRAPH["bot.games.base"].add("bot.games.registry")
    try:
        assert ["bot.games.base", "bot.games.registry"] in circles()
    finally:
        GRAPH["bot.games.base"].discard("bot.games.registry")


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_point_down(module):
    upward = sorted(other for other in GRAPH[module] if floor(other) > floor(module))
    assert not upward, f"{module} (floor {floor(module)}) imports from higher floors: {upward}"


def test_the_games_import_nothing_of_the_bot_outside_them():
    for module, imported in GRAPH.items():
        if module.startswith("bot.games"):
            assert all(other.startswith("bot.games") for other in imported), (module, imported)


def test_product_modules_are_short():
    long = {module: n for module, path in MODULES.items()
            if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert not long, f"modules over {MAX_LINES} lines: {long}"


def test_every_package_says_what_it_holds():
    for module, path in MODULES.items():
        if path.name == "__init__.py":
            assert ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))), module
