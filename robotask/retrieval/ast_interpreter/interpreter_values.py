"""The values of the AST interpreter (:mod:`robotask.retrieval.ast_interpreter.evaluator`) and the pure functions
it calls.

A value is either a plain Python value computed from the source (numbers, strings, lists, tuples,
dicts, sets, ranges), or one of the classes below. Whatever only the simulator, randomness or
external code would know is an :class:`Opaque` carrying its reason; every operation that would
need its content raises :class:`Unknown`, so it is never guessed. Strings written in the source are
:class:`Text`, which remembers the template it was filled from. Nothing here imports or runs task
code: the only functions ever called are the pure builtins of :data:`PURE`, on concrete values.
"""

from __future__ import annotations

import ast
import itertools
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

LIMIT_ITEMS = 100_000
"""Most items a sequence, set or string built during evaluation may have."""

LIMIT_STEPS = 2_000_000
"""Most statements and expressions one evaluation (module, ``init_task`` and one call) may run."""

KIND_PREFIXES: tuple[tuple[str, str], ...] = (
    ("numpy.random", "randomness"),
    ("random", "randomness"),
    ("pyrep", "simulator"),
    ("rlbench", "simulator"),
)
"""What kind of dependency a call of an outside name is, by the prefix of its qualified name."""


class Unknown(Exception):
    """Raised by any operation that needs the content of an :class:`Opaque`."""

    def __init__(self, opaque: Opaque):
        super().__init__(opaque.reason)
        self.opaque = opaque


def _refuse(self: Opaque, *args: Any) -> Any:
    raise Unknown(self)


class Opaque:
    """A value known only at runtime: ``reason`` says why (kind, expression, line).

    ``template`` is the source template of a string that could not be filled.
    """

    __slots__ = ("reason", "template", "line")

    def __init__(self, reason: str, template: str = "", line: int = 0):
        self.reason, self.template, self.line = reason, template, line

    def __deepcopy__(self, memo: dict) -> Opaque:
        return self

    def describe(self) -> str:
        """A readable form (``repr`` refuses, like every other look at the content)."""
        return f"<unknown: {self.reason}>"

    __eq__ = __ne__ = __lt__ = __le__ = __gt__ = __ge__ = __hash__ = _refuse
    __bool__ = __len__ = __iter__ = __contains__ = __getitem__ = _refuse
    __int__ = __float__ = __index__ = __str__ = __repr__ = __format__ = _refuse


class Text(str):
    """A string of the source: its value, the template it was filled from, the values filled in."""

    template: str
    line: int
    fills: tuple[str, ...]
    templated: bool

    def __new__(cls, value: str, template: str, line: int, fills: tuple = (), templated: bool = False):
        obj = super().__new__(cls, value)
        obj.template, obj.line, obj.fills, obj.templated = template, line, tuple(fills), templated
        return obj

    def __deepcopy__(self, memo: dict) -> Text:
        return self


@dataclass(eq=False)
class Extern:
    """A name from outside the file's own code (``numpy``, ``pyrep.objects.shape.Shape``...)."""

    qualname: str

    def __deepcopy__(self, memo: dict) -> Extern:
        return self


@dataclass(eq=False)
class Lazy:
    """``from module import name``, resolved when the name is first read."""

    module: str
    name: str

    def __deepcopy__(self, memo: dict) -> Lazy:
        return self


@dataclass(eq=False)
class Function:
    """A function or lambda of the file, interpreted when called (never executed)."""

    node: ast.AST
    globals: dict
    defaults: list = field(default_factory=list)
    kw_defaults: list = field(default_factory=list)
    closure: dict = field(default_factory=dict)

    def __deepcopy__(self, memo: dict) -> Function:
        return self


@dataclass(eq=False)
class ClassInfo:
    """A class of the file: its name, class-level constants and methods."""

    name: str
    namespace: dict

    def __deepcopy__(self, memo: dict) -> ClassInfo:
        return self


@dataclass(eq=False)
class Instance:
    """The task object: attributes set by its methods (``self.x = ...``) and its class."""

    cls: ClassInfo
    attrs: dict = field(default_factory=dict)

    def __deepcopy__(self, memo: dict) -> Instance:
        return self


@dataclass(eq=False)
class Method:
    """A method of the task class bound to the instance, or an allowed method of a plain value."""

    receiver: Any
    name: str
    function: Function | None = None

    def __deepcopy__(self, memo: dict) -> Method:
        return self


MISSING = object()
"""A keyword-only parameter without default; an absent name."""


def kind_of(qualname: str) -> str:
    """``randomness``, ``simulator`` or ``external code`` for a qualified name."""
    for prefix, kind in KIND_PREFIXES:
        if qualname == prefix or qualname.startswith(prefix + "."):
            return kind
    return "external code"


def materialize(items: Any) -> list:
    """The items of an iterable as a list, refusing more than :data:`LIMIT_ITEMS` and set order."""
    if isinstance(items, (set, frozenset)):
        raise Unknown(Opaque("the iteration order of a set is not fixed"))
    if isinstance(items, Opaque):
        raise Unknown(items)
    if not isinstance(items, (list, tuple, str, range, dict, zip, enumerate, reversed,
                              itertools.permutations, itertools.product, itertools.combinations,
                              itertools.chain, type({}.keys()), type({}.values()), type({}.items()))):
        raise Unknown(Opaque(f"a {type(items).__name__} is not iterable statically"))
    out = list(itertools.islice(items, LIMIT_ITEMS + 1))
    if len(out) > LIMIT_ITEMS:
        raise Unknown(Opaque(f"more than {LIMIT_ITEMS} items"))
    return out


def _sequence(fn: Callable, wrap: Callable = list) -> Callable:
    """A builtin whose iterable arguments are materialized first and whose result is a list."""
    def call(*args: Any, **kwargs: Any) -> Any:
        args = tuple(materialize(a) if not isinstance(a, (int, float)) else a for a in args)
        return wrap(materialize(fn(*args, **kwargs))) if wrap else fn(*args, **kwargs)
    return call


def _sorted(items: Any, reverse: bool = False) -> list:
    return sorted(materialize(items), reverse=reverse)


def _scalar(fn: Callable) -> Callable:
    """A numpy function on scalars only (``np.minimum(a, b)``)."""
    def call(*args: Any) -> Any:
        if not all(isinstance(a, (int, float)) and not isinstance(a, bool) for a in args):
            raise Unknown(Opaque("numpy on arrays is not evaluated statically"))
        return fn(*args)
    return call


def _range(*args: int) -> range:
    return range(*args)


PURE: dict[str, Callable] = {
    "len": len, "abs": abs, "bool": bool, "int": int, "float": float, "round": round,
    "divmod": divmod, "range": _range, "str": str, "repr": repr,
    "list": _sequence(lambda it=(): it), "tuple": _sequence(lambda it=(): it, tuple),
    "set": _sequence(lambda it=(): it, set), "frozenset": _sequence(lambda it=(): it, frozenset),
    "sorted": _sorted, "reversed": _sequence(reversed), "enumerate": _sequence(enumerate),
    "zip": _sequence(zip), "dict": dict, "min": _sequence(min, None), "max": _sequence(max, None),
    "sum": _sequence(sum, None), "any": _sequence(any, None), "all": _sequence(all, None),
    "itertools.permutations": _sequence(itertools.permutations),
    "itertools.combinations": _sequence(itertools.combinations),
    "itertools.product": _sequence(itertools.product), "itertools.chain": _sequence(itertools.chain),
    "math.floor": math.floor, "math.ceil": math.ceil, "math.sqrt": math.sqrt,
    "numpy.minimum": _scalar(min), "numpy.maximum": _scalar(max), "numpy.floor": _scalar(math.floor),
    "numpy.ceil": _scalar(math.ceil), "numpy.abs": _scalar(abs), "numpy.arange": _sequence(range),
}
"""The only functions the evaluator calls, by qualified name (builtins unqualified)."""

CONSTANTS: dict[str, Any] = {"math.pi": math.pi, "numpy.pi": math.pi, "math.e": math.e, "numpy.e": math.e}

METHODS: dict[type, frozenset[str]] = {
    str: frozenset({"replace", "upper", "lower", "strip", "lstrip", "rstrip", "split", "capitalize",
                    "title", "startswith", "endswith", "count", "find", "index", "join", "format",
                    "isdigit", "isalpha"}),
    list: frozenset({"append", "extend", "insert", "pop", "remove", "index", "count", "copy",
                     "reverse", "clear"}),
    tuple: frozenset({"index", "count"}),
    dict: frozenset({"get", "keys", "values", "items", "copy", "pop", "setdefault", "update"}),
    set: frozenset({"add", "discard", "remove", "union", "difference", "intersection", "copy",
                    "update"}),
    range: frozenset({"index", "count"}),
}
"""Methods of plain values the evaluator may call: none of them reaches outside the value."""

_WIDE_SPEC = re.compile(r"\d{4,}")
_WIDE_PERCENT = re.compile(r"%[^a-zA-Z%]*(\d{4,}|\*)")


def check_spec(spec: str, percent: bool = False) -> None:
    """Refuse a format spec (or ``%`` format string) asking for a width of 1000 or more or a computed one."""
    if (_WIDE_PERCENT if percent else _WIDE_SPEC).search(spec) or (not percent and "{" in spec):
        raise Unknown(Opaque("a format width of 1000 or more is not evaluated"))


def allowed_method(value: Any, name: str) -> bool:
    """True when ``value.name`` is an allowed method of a plain value."""
    return any(isinstance(value, t) and name in names for t, names in METHODS.items())


def find_opaque(value: Any, budget: int = 10_000) -> Opaque | None:
    """The first :class:`Opaque` inside ``value`` (containers searched, up to ``budget`` items)."""
    stack = [value]
    while stack and budget > 0:
        budget -= 1
        item = stack.pop()
        if isinstance(item, Opaque):
            return item
        if isinstance(item, (list, tuple)):
            stack.extend(item)
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
    return None


def same(a: Any, b: Any) -> bool:
    """Whether two values are the same value (two unknowns: the same reason)."""
    if a is b:
        return True
    if isinstance(a, Opaque) or isinstance(b, Opaque):
        return isinstance(a, Opaque) and isinstance(b, Opaque) and a.reason == b.reason
    if isinstance(a, (list, tuple)) and type(a) is type(b):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, (Function, ClassInfo, Instance, Method, Extern, Lazy)):
        return False
    try:
        return type(a) is type(b) and bool(a == b)
    except Exception:  # noqa: BLE001 - any failure to compare means "not known to be the same"
        return False


def merge(a: dict, b: dict, why: str) -> dict:
    """Names bound in ``a`` and ``b``: kept where both agree, unknown (because ``why``) elsewhere."""
    out = {}
    for key in list(a) + [k for k in b if k not in a]:
        if key in a and key in b and same(a[key], b[key]):
            out[key] = a[key]
        else:
            out[key] = Opaque(why)
    return out


def fill_text(value: Any) -> str:
    """How a filled-in value is recorded (``variation_value``)."""
    return str(value)


def bind_arguments(function: Function, args: list, kwargs: dict) -> dict:
    """The parameters of ``function`` bound to the arguments (missing ones unknown)."""
    spec = function.node.args
    names = [a.arg for a in spec.posonlyargs + spec.args]
    local = dict(zip(names, args))
    if spec.vararg is not None:
        local[spec.vararg.arg] = tuple(args[len(names):])
    defaults = dict(zip(names[len(names) - len(function.defaults):], function.defaults))
    for name in names[len(args):]:
        local[name] = kwargs.pop(name, defaults.get(name, Opaque(f"argument `{name}` is not given")))
    for arg, default in zip(spec.kwonlyargs, function.kw_defaults or [MISSING] * len(spec.kwonlyargs)):
        value = kwargs.pop(arg.arg, default)
        local[arg.arg] = Opaque(f"argument `{arg.arg}` is not given") if value is MISSING else value
    if spec.kwarg is not None:
        local[spec.kwarg.arg] = kwargs
    return local
