"""The package's shape is its architecture: three wings over a small core, imports run one way.

Layers, from the top: entry points (``robotask.cli``, notebooks, benchmarks, tests) → wings
(``robotask.retrieval``, ``robotask.episode``, ``robotask.book``) → core (the top-level modules).
The wings never import each other, the core imports no wing, and no module imports itself back
through any chain. Every import counts, including those inside functions (lazy imports).
"""

from __future__ import annotations

import ast

import pytest

from robotask import paths, sources

WINGS = ("retrieval", "episode", "book")
ENTRY_POINTS = {"robotask.cli"}  # dispatches to every wing's command; nothing imports it
MAX_MODULE_LINES = 400
MAX_FUNCTION_LINES = 60
MAX_FOLDER_MODULES = 12  # modules directly in one folder of the package (its __init__.py not counted)
# Exceptions to the size rules, each with its reason in DEVELOPING.md ("The rules").
MODULE_EXCEPTIONS: dict[str, int] = {
    # One idea each, over the guide only because the ruff wrap to 120 columns added lines (DEVELOPING.md).
    "robotask.retrieval.ast_interpreter.expressions": 420,
    "robotask.retrieval.ast_interpreter.interpreter": 420,
}
FUNCTION_EXCEPTIONS: dict[str, int] = {}
MODULES = sources.modules()
GRAPH = {name: sources.imported_modules(name) for name in MODULES}


def layer(name: str) -> str:
    """'entry', a wing name, or 'core'."""
    if name in ENTRY_POINTS:
        return "entry"
    parts = name.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in WINGS else "core"


def test_the_graph_sees_the_known_edges():
    """A guard on the walker itself: it finds relative, absolute and in-function imports."""
    assert "robotask.errors" in GRAPH["robotask.cli"]  # relative, at the top
    assert "robotask.io" in GRAPH["robotask.plots"]  # relative, inside a function
    assert GRAPH["robotask.book.runner"] >= {"robotask.paths", "robotask.book.chapters"}


@pytest.mark.parametrize("name", sorted(MODULES))
def test_imports_run_one_way(name):
    mine = layer(name)
    for target in GRAPH[name]:
        theirs = layer(target)
        if mine == "entry" or theirs == "core" or theirs == mine:
            continue
        if mine == "core":
            pytest.fail(f"core module {name} imports the {theirs} wing ({target})")
        pytest.fail(f"{name} (the {mine} wing) imports {target} (the {theirs} wing)")


def own_children(name: str, target: str) -> bool:
    """A package's front door importing its own children (``__init__`` re-exporting them) is no cycle."""
    return MODULES[name].name == "__init__.py" and target.startswith(name + ".")


def test_no_import_cycles():
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(t for t in GRAPH[node] if not own_children(node, t)):
            if state.get(nxt) == 1:
                cycle = stack[stack.index(nxt):] + [nxt]
                pytest.fail("import cycle: " + " → ".join(cycle))
            if nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = 2

    for name in sorted(GRAPH):
        if name not in state:
            visit(name)


@pytest.mark.parametrize("name", sorted(MODULES))
def test_module_size(name):
    n = len(MODULES[name].read_text().splitlines())
    assert n <= MODULE_EXCEPTIONS.get(name, MAX_MODULE_LINES), f"{name} has {n} lines"


def test_no_folder_holds_more_than_twelve_modules():
    """A folder of the package is a room a reader can take in: at most 12 modules directly in it."""
    folders: dict[str, list[str]] = {}
    for path in MODULES.values():
        if path.name != "__init__.py":
            folders.setdefault(str(path.parent.relative_to(sources.PACKAGE.parent)), []).append(path.stem)
    crowded = {f: len(m) for f, m in folders.items() if len(m) > MAX_FOLDER_MODULES}
    assert not crowded, crowded


@pytest.mark.parametrize("name", sorted(MODULES))
def test_function_size(name):
    tree = ast.parse(MODULES[name].read_text())
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            n = node.end_lineno - node.lineno + 1
            key = f"{name}.{node.name}"
            assert n <= FUNCTION_EXCEPTIONS.get(key, MAX_FUNCTION_LINES), f"{key} has {n} lines"


def test_notebooks_import_only_public_names():
    """Notebooks call the package's public API: no ``module._private`` access."""
    import re

    bad = []
    for source in sorted(paths.NOTEBOOKS.glob("*.py")):
        for i, line in enumerate(source.read_text().splitlines(), 1):
            if re.search(r"\b[a-z_]+\._[a-z]\w*\(", line) or re.search(r"import\s+_\w+", line):
                bad.append(f"{source.name}:{i}: {line.strip()}")
    assert not bad, "\n".join(bad)


def test_no_parameter_shadows_a_module():
    """A notebook parameter named like a robotask module would force an import alias.

    Packages are left out: a notebook imports a package's modules (``from
    robotask.retrieval.rankers import registry``), never the package by its leaf name, so the
    parameter ``rankers`` and the package ``robotask.retrieval.rankers`` live side by side.
    """
    from robotask.book import params

    module_leaves = {n.rsplit(".", 1)[-1] for n, path in MODULES.items() if path.name != "__init__.py"}
    clashes = [f"{s.stem}: {p}" for s in sorted(paths.NOTEBOOKS.glob("*.py"))
               for p in params.declared(s) if p in module_leaves]
    assert not clashes, clashes


def _backslash_continuations(path) -> list[int]:
    """Line numbers of ``path`` that end in a backslash outside a string (a line continuation)."""
    import io
    import tokenize

    text = path.read_text()
    inside = set()
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type in (tokenize.STRING, getattr(tokenize, "FSTRING_MIDDLE", -1)):
            inside.update(range(tok.start[0], tok.end[0]))  # the lines a string runs on, but its last
    return [i for i, line in enumerate(text.splitlines(), 1) if line.endswith("\\") and i not in inside]


def test_no_backslash_line_continuations():
    """Brackets, not backslashes, continue a line (ruff has no rule for it)."""
    files = [p for d in ("robotask", "tests", "benchmarks") for p in sorted((paths.ROOT / d).rglob("*.py"))]
    found = [f"{p.relative_to(paths.ROOT)}:{i}" for p in files for i in _backslash_continuations(p)]
    assert not found, "backslash continuations:\n" + "\n".join(found)


def folder_of(name: str) -> str:
    """The sub-package (folder) a module sits in: ``robotask.episode.files`` for its ``loader``."""
    return ".".join(MODULES[name].parent.relative_to(sources.PACKAGE.parent).parts)


def folder_graph() -> dict[str, dict[str, list[str]]]:
    """Edges between folders of the package, each with the module imports behind it (in-function ones
    included). A folder importing its own sub-folders (a front door) is not an edge."""
    edges: dict[str, dict[str, list[str]]] = {}
    for name, targets in GRAPH.items():
        for target in targets:
            a, b = folder_of(name), folder_of(target)
            if a != b and not b.startswith(a + "."):
                edges.setdefault(a, {}).setdefault(b, []).append(f"{name} → {target}")
    return edges


def test_no_cycles_between_sub_packages():
    """Sub-packages are rooms: imports between them run one way, never in a circle."""
    edges = folder_graph()
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(edges.get(node, {})):
            if state.get(nxt) == 1:
                cycle = stack[stack.index(nxt):] + [nxt]
                why = "; ".join(edges[a][b][0] for a, b in zip(cycle, cycle[1:]))
                pytest.fail("cycle between sub-packages: " + " → ".join(cycle) + f" ({why})")
            if nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = 2

    for name in sorted(edges):
        if name not in state:
            visit(name)


def test_the_folder_check_sees_a_planted_cycle(monkeypatch):
    """A guard on the folder check itself: an upward import inside a function closes a circle."""
    fake = dict(GRAPH)
    fake["robotask.episode.files.loader"] = GRAPH["robotask.episode.files.loader"] | {
        "robotask.episode.tasks.registry"}
    fake["robotask.episode.tasks.registry"] = GRAPH["robotask.episode.tasks.registry"] | {
        "robotask.episode.files.format"}
    monkeypatch.setitem(globals(), "GRAPH", fake)
    with pytest.raises(pytest.fail.Exception, match="cycle between sub-packages"):
        test_no_cycles_between_sub_packages()


PACKAGES = sorted(n for n, p in MODULES.items() if p.name == "__init__.py")
SUB_PACKAGES = [n for n in PACKAGES if n.count(".") >= 2 or n == "robotask.book"]


@pytest.mark.parametrize("name", SUB_PACKAGES)
def test_every_sub_package_has_a_front_door(name):
    """Each room names its public names in ``__all__``, and each of them is there to import."""
    import importlib

    tree = ast.parse(MODULES[name].read_text())
    declared = [t for n in tree.body if isinstance(n, ast.Assign) for t in n.targets
                if isinstance(t, ast.Name) and t.id == "__all__"]
    assert declared, f"{name}/__init__.py has no __all__"
    module = importlib.import_module(name)
    missing = [n for n in module.__all__ if not hasattr(module, n)]
    assert module.__all__ and not missing, f"{name}.__all__ names what it does not hold: {missing}"


def test_notebooks_import_from_sub_packages():
    """A notebook imports names from a room's front door (``from robotask.retrieval.protocol import
    run_study``) or a core module (``from robotask import plots``), never a module inside a wing's room.
    The one exception is chapter 98's subject, each wing's bad-input catalogue (``robotask.<wing>.badinput``)."""
    deep = []
    for source in sorted(paths.NOTEBOOKS.glob("*.py")):
        for node in ast.walk(ast.parse(source.read_text())):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names if a.name.startswith("robotask")]
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("robotask"):
                names = [node.module] + [f"{node.module}.{a.name}" for a in node.names
                                         if f"{node.module}.{a.name}" in MODULES]
            else:
                continue
            for name in names:
                is_core_module = name.count(".") == 1 and name not in PACKAGES
                is_catalogue = name.count(".") == 2 and name.endswith(".badinput")
                if name not in PACKAGES and not is_core_module and not is_catalogue:
                    deep.append(f"{source.name}:{node.lineno}: {name}")
    assert not deep, "deep imports (import names from the sub-package instead):\n" + "\n".join(deep)


def test_developing_md_names_every_package_folder_and_entry_point():
    """The map cannot drift: every folder of the package and every ``python -m`` entry point is in it."""
    text = (paths.ROOT / "DEVELOPING.md").read_text()
    folders = {str(MODULES[n].parent.relative_to(sources.PACKAGE)) for n in PACKAGES if n != "robotask"}
    missing = sorted(f for f in folders if f"`{f}/`" not in text and f"`robotask/{f}/`" not in text)
    assert not missing, f"DEVELOPING.md does not name these package folders: {missing}"
    mains = sorted(n for n, p in MODULES.items() if '__name__ == "__main__"' in p.read_text())
    absent = [n for n in mains if f"python -m {n}" not in text]
    assert not absent, f"DEVELOPING.md does not name these entry points (python -m …): {absent}"


SLOTS = ("cli", "badinput", "parameters", "registry", "answers", "figures", "tables", "values", "phrases")


def test_a_module_name_appears_once_unless_it_is_a_slot():
    """A name says one idea: outside the slots DEVELOPING.md lists (the same role wherever they stand), no two
    modules of the package share a name."""
    leaves: dict[str, list[str]] = {}
    for name, path in MODULES.items():
        if path.name != "__init__.py":
            leaves.setdefault(path.stem, []).append(name)
    shared = {leaf: names for leaf, names in leaves.items()
              if len(names) > 1 and leaf.split("_")[0] not in SLOTS}
    assert not shared, shared


# ------------------------------------------------------------------ front doors list what other rooms use
MAX_UNUSED_FRONT_DOOR_NAMES = 40  # issue 46: 916 names exported, 446 unused outside their room, before


def front_doors() -> dict[str, list[str]]:
    """Every sub-package with an ``__all__``: its dotted name → the names its front door lists."""
    doors = {}
    for name in PACKAGES:
        for node in ast.parse(MODULES[name].read_text()).body:
            if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "__all__" for t in node.targets):
                doors[name] = [ast.literal_eval(e) for e in node.value.elts]
    return doors


def _dotted(node: ast.AST, aliases: dict[str, str]) -> str | None:
    """``robotask.retrieval.presentation.foo`` for ``rp.foo`` when ``rp`` names that package (any depth)."""
    attrs = []
    while isinstance(node, ast.Attribute):
        attrs.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name) and node.id in aliases:
        return ".".join([aliases[node.id], *reversed(attrs)])
    return None


def references(source: str, package: str = "") -> set[str]:
    """The dotted robotask names a file reaches, in any function: ``from P import n`` gives ``P.n``;
    ``import P as x`` or ``from Q import P as x``, then ``x.n``, gives ``P.n``. ``package`` resolves
    relative imports (the package the file sits in)."""
    aliases: dict[str, str] = {}
    found: set[str] = set()
    nodes = list(ast.walk(ast.parse(source)))
    for node in nodes:
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name.startswith("robotask"):
                    aliases[a.asname or "robotask"] = a.name if a.asname else "robotask"
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            if base.startswith("robotask"):
                for a in node.names:
                    found.add(f"{base}.{a.name}")
                    aliases[a.asname or a.name] = f"{base}.{a.name}"
    found.update(d for node in nodes if isinstance(node, ast.Attribute) and (d := _dotted(node, aliases)))
    return found


def outside_users() -> dict[str, set[str]]:
    """What counts as a user of a front door, with the names each reaches: the package's modules, the
    notebooks and the benchmarks (tests do not count)."""
    users = {name: references(path.read_text(), name if path.name == "__init__.py" else name.rpartition(".")[0])
             for name, path in MODULES.items()}
    for folder in (paths.NOTEBOOKS, paths.ROOT / "benchmarks"):
        users.update({f"{folder.name}/{p.name}": references(p.read_text()) for p in sorted(folder.glob("*.py"))})
    return users


def unused_front_door_names() -> list[str]:
    """Names in a front door that nothing outside its sub-package reaches, neither through the door nor
    from the module behind it (``from robotask.episode.files.format import FPS`` uses ``FPS``)."""
    users, unused = outside_users(), []
    for door, names in front_doors().items():
        outside = set().union(*(r for m, r in users.items() if m != door and not m.startswith(door + ".")))
        reached = {ref.rpartition(".")[2] for ref in outside if ref.startswith(door + ".")}
        unused += [f"{door}.{n}" for n in names if n not in reached]
    return unused


def test_the_front_door_count_sees_every_way_in():
    """A guard on the count itself: a name imported from a door, through an alias's attribute, from the
    module behind the door, and by a relative import all count."""
    found = references("from robotask.retrieval import presentation as rp\nrp.figure_x(1)\n"
                       "import robotask.book as b\nb.show_md('')\nfrom ..files.format import FPS\n"
                       "def f():\n    from robotask.episode.tasks import TASKS\n", "robotask.episode.features")
    assert found >= {"robotask.retrieval.presentation.figure_x", "robotask.book.show_md",
                     "robotask.episode.files.format.FPS", "robotask.episode.tasks.TASKS"}


def test_front_doors_list_what_other_rooms_use():
    """``__all__`` lists what other rooms, the CLI, benchmarks and notebooks use: at most a few names
    are used only inside their own sub-package (tests do not count)."""
    unused = unused_front_door_names()
    assert len(unused) <= MAX_UNUSED_FRONT_DOOR_NAMES, (
        f"{len(unused)} front-door names are used by nothing outside their sub-package (at most "
        f"{MAX_UNUSED_FRONT_DOOR_NAMES}); drop them from __all__:\n" + "\n".join(unused))
