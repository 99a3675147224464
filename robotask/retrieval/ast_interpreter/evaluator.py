"""Evaluate, statically with ``ast``, what ``init_episode(index)`` returns for every variation.

Most RLBench task files build their descriptions from templates filled per variation
(``'reach the %s target' % color_name`` with ``color_name, _ = colors[index]``). For each
``index`` in ``range(variation_count())`` :func:`evaluate_task_file` interprets the module's top
level, ``init_task`` and ``init_episode(index)`` in a fresh state. It understands module constants
and those of sibling modules of the same revision (``from rlbench.const import colors``, read as
text through a ``resolver``), attributes set on ``self``, arithmetic, ``int()``, ``len()``,
``range()``, indexing, slicing, unpacking, ``%``, ``str.format``, f-strings, concatenation, list
literals, comprehensions, loops and branches on the index. Whatever depends on the simulator
(``Shape('x').get_color()``, ``self.robot``) or on randomness (``np.random``, ``random``) stays
unknown with its reason, and a description built from it is kept as its template, never guessed.

Task code is never imported or executed (no ``import``, ``eval``, ``exec`` or ``compile`` of the
file): the interpreter (:mod:`robotask.retrieval.ast_interpreter.interpreter`,
:mod:`robotask.retrieval.ast_interpreter.expressions`) calls only pure builtins on concrete values
(:data:`robotask.retrieval.ast_interpreter.interpreter_values.PURE`); anything else, ``os.system`` or ``open``
included, becomes an unknown value with its reason.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Any

from .expressions import Budget
from .interpreter import Halt, Interpreter, Resolver
from .interpreter_values import ClassInfo, Function, Instance, Opaque, Text, Unknown
from .templates import short

MAX_VARIATIONS = 10_000
"""A ``variation_count()`` above this is not expanded."""

@dataclass(frozen=True)
class Description:
    """One returned element: its text, or its template and the reason it stayed unexpanded."""

    position: int
    text: str | None
    template: str  # "" for a fixed literal
    line: int
    fills: tuple[str, ...] = ()
    reason: str = ""


@dataclass
class Variation:
    """What ``init_episode(index)`` returns, or why that is not known."""

    index: int
    descriptions: list[Description] = field(default_factory=list)
    reason: str = ""

    @property
    def value(self) -> str:
        """The values filled into this variation's templates, ``|``-joined (``2|red``)."""
        fills = [f for d in self.descriptions if d.text is not None for f in d.fills]
        return "|".join(dict.fromkeys(fills))

    @property
    def expanded(self) -> bool:
        return not self.reason and all(d.text is not None for d in self.descriptions)


@dataclass
class TaskVariations:
    """The variations of one task file; ``reason`` is set when none could be evaluated."""

    variation_count: int | None
    variations: list[Variation] = field(default_factory=list)
    reason: str = ""
    init_line: int | None = None

    def texts(self, index: int) -> list[str | None]:
        """The descriptions of variation ``index`` (None where a template stayed unexpanded)."""
        return [d.text for d in self.variations[index].descriptions]

    def reasons(self) -> list[str]:
        """Every distinct reason something stayed unexpanded, in order of first appearance."""
        found = [self.reason] + [v.reason for v in self.variations]
        found += [d.reason for v in self.variations for d in v.descriptions]
        return [r for r in dict.fromkeys(found) if r]



def _task_class(tree: ast.Module) -> tuple[ast.ClassDef | None, ast.FunctionDef | None]:
    """The class whose ``init_episode`` Python would use (the last definition) and that method."""
    found = [
        (cls, item) for cls in ast.walk(tree) if isinstance(cls, ast.ClassDef)
        for item in cls.body if isinstance(item, ast.FunctionDef) and item.name == "init_episode"
    ]
    return max(found, key=lambda pair: pair[1].lineno) if found else (None, None)


def _run(tree: ast.Module, class_name: str, method: str, args: list, resolver: Resolver | None,
         parsed: dict, module: str) -> tuple[Any, ast.Return | None, str]:
    """Interpret the module, ``init_task`` and ``method(*args)`` on a fresh task object.

    Returns (value, the ``return`` statement that produced it, reason the run stopped or "").
    """
    interpreter = Interpreter(resolver, parsed)
    try:
        namespace = interpreter.run_module(tree, module)
        cls = namespace.get(class_name)
        if not isinstance(cls, ClassInfo) or not isinstance(cls.namespace.get(method), Function):
            return None, None, f"class `{class_name}` has no method `{method}` in the file"
        instance = interpreter.instance = Instance(cls)
        if isinstance(cls.namespace.get("init_task"), Function):
            interpreter.call_function(cls.namespace["init_task"], [instance], {})
        value = interpreter.call_function(cls.namespace[method], [instance, *args], {})
        return value, interpreter.return_node, ""
    except Halt as halt:
        return None, None, halt.reason
    except Budget as err:
        return None, None, str(err)
    except Unknown as err:
        return None, None, err.opaque.reason
    except (RecursionError, MemoryError) as err:
        return None, None, f"too deep or too large to evaluate ({type(err).__name__})"


def _count(tree: ast.Module, class_name: str, resolver: Resolver | None, parsed: dict,
           module: str) -> tuple[int | None, str]:
    """``variation_count()`` as an int, or (None, why not)."""
    value, _, why = _run(tree, class_name, "variation_count", [], resolver, parsed, module)
    if why:
        return None, f"variation_count() is not evaluated: {why}"
    if isinstance(value, Opaque):
        return None, f"variation_count() is not static: {value.reason}"
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_VARIATIONS:
        return None, f"variation_count() returns {value!r}, not an int in 0..{MAX_VARIATIONS}"
    return value, ""


def _describe(value: Any, node: ast.Return | None) -> tuple[list[Description], str]:
    """The descriptions of one returned value, or ([], why it is not a list)."""
    if isinstance(value, Opaque):
        return [], f"the returned list is not static: {value.reason}"
    if not isinstance(value, (list, tuple)):
        return [], f"init_episode returns a {type(value).__name__}, not a list"
    line = node.lineno if node is not None else 0
    literal = node is not None and isinstance(node.value, (ast.List, ast.Tuple))
    elements = node.value.elts if literal and len(node.value.elts) == len(value) else None
    out = []
    for position, item in enumerate(value):
        if isinstance(item, str):
            templated = isinstance(item, Text) and item.templated
            out.append(Description(position, str(item), item.template if templated else "",
                                   getattr(item, "line", 0) or line,
                                   item.fills if templated else ()))
        elif isinstance(item, Opaque):
            template = item.template or (short(elements[position]) if elements else "")
            out.append(Description(position, None, template, item.line or line, (), item.reason))
        else:
            out.append(Description(position, None, "", line, (),
                                   f"element {position} is a {type(item).__name__}, not a string"))
    return out, ""


def evaluate_task_file(source: str, resolver: Resolver | None = None,
                       module: str = "rlbench.tasks.task") -> TaskVariations:
    """Every variation's descriptions of one task file, evaluated statically.

    Parameters
    ----------
    source : str
        The task file's text. It is parsed, never imported or executed.
    resolver : callable, optional
        ``resolver(module_name) -> source text | None`` for sibling modules such as
        ``rlbench.const``; None treats every import as unknown.
    module : str
        The file's module name (``rlbench.tasks.reach_target``), seen as ``__name__``.
    """
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError) as err:
        return TaskVariations(None, [], f"not valid Python: {err}")
    cls, init = _task_class(tree)
    if cls is None or init is None:
        return TaskVariations(None, [], "no init_episode method")
    parsed: dict = {}
    count, why = _count(tree, cls.name, resolver, parsed, module)
    if count is None:
        return TaskVariations(None, [], why, init.lineno)
    variations = []
    for index in range(count):
        value, node, why = _run(tree, cls.name, "init_episode", [index], resolver, parsed, module)
        descriptions, why = _describe(value, node) if not why else ([], why)
        variations.append(Variation(index, descriptions, why))
    return TaskVariations(count, variations, "", init.lineno)
