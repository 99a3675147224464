"""The package's own import graph, read from its source: which robotask modules a module imports.

Two users: the architecture test (imports run one way, no cycles) and cache keys that must change
when the code behind a cached result changes, and only then (:func:`source_closure`).
Every import counts, including those inside functions; ``importlib`` calls are not seen.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent


def module_name(path: Path) -> str:
    """``robotask.episode.features.windows`` for ``robotask/episode/features/windows.py`` (a package for
    ``__init__.py``)."""
    parts = list(path.resolve().relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@functools.cache
def modules() -> dict[str, Path]:
    """Every module of the package, by dotted name."""
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


@functools.cache
def imported_modules(name: str) -> frozenset[str]:
    """Every robotask module ``name`` imports, anywhere in the file (resolved to existing modules).

    ``from package import module`` counts the module, not the package's ``__init__`` (a front door that
    re-exports its children); ``from package import name`` counts the package.

    Read once per process (~5 ms a module): the code a process runs is the code it imported.
    """
    path, known = modules()[name], modules()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            targets = [f"{base}.{a.name}" for a in node.names]
            if not all(t in known for t in targets):  # a name from base itself, not only its submodules
                targets.append(base)
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name and target.startswith("robotask"):
                found.add(target)
    return frozenset(found)


@functools.cache
def source_closure(name: str) -> tuple[Path, ...]:
    """The source files of ``name`` and of every robotask module it imports, directly or not (sorted).

    A result computed by ``name`` can depend on no other code of the package, so these files are
    what a cache key over "the code" needs.
    """
    seen, todo = {name}, [name]
    while todo:
        for target in imported_modules(todo.pop()):
            if target not in seen:
                seen.add(target)
                todo.append(target)
    return tuple(sorted(modules()[m] for m in seen))
