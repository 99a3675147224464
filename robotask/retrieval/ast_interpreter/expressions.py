"""Expressions of the AST interpreter: each ``ast`` node type has one handler (:data:`HANDLERS`).

:class:`ExpressionEvaluator` computes the value of an expression node from the names in scope.
Operations run only on concrete values and only through Python operators, the pure functions of
:data:`~robotask.retrieval.ast_interpreter.interpreter_values.PURE` and the allowed methods of plain values; a call of
anything else (the simulator, ``np.random``, ``os``, ``open``...) gives an
:class:`~robotask.retrieval.ast_interpreter.interpreter_values.Opaque` with its reason. Strings keep their template
through ``%``, ``str.format``, f-strings and ``+``. Statements live in
:mod:`robotask.retrieval.ast_interpreter.evaluator`, which subclasses this class.
"""

from __future__ import annotations

import ast
import builtins
import operator
from collections.abc import Callable
from typing import Any

from .interpreter_values import (
    CONSTANTS,
    LIMIT_ITEMS,
    LIMIT_STEPS,
    MISSING,
    PURE,
    ClassInfo,
    Extern,
    Function,
    Instance,
    Lazy,
    Method,
    Opaque,
    Text,
    Unknown,
    allowed_method,
    check_spec,
    fill_text,
    find_opaque,
    kind_of,
    materialize,
    same,
)
from .templates import check_size, concat, field_template, format_call, join, percent, short, skeleton


class Control(Exception):
    """Base of the evaluator's own control flow (never turned into an unknown value)."""


class Budget(Control):
    """The evaluation ran more than ``LIMIT_STEPS`` steps."""


class Frame:
    """The names in scope: a function's locals (the globals themselves at module level)."""

    __slots__ = ("locals", "globals")

    def __init__(self, locals_: dict, globals_: dict):
        self.locals, self.globals = locals_, globals_


BINARY: dict[type, Callable] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
    ast.Div: operator.truediv, ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod,
    ast.Pow: operator.pow, ast.BitAnd: operator.and_, ast.BitOr: operator.or_,
    ast.BitXor: operator.xor, ast.LShift: operator.lshift, ast.RShift: operator.rshift,
}
COMPARE: dict[type, Callable] = {
    ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
    ast.Gt: operator.gt, ast.GtE: operator.ge, ast.Is: operator.is_, ast.IsNot: operator.is_not,
    ast.In: lambda a, b: a in b, ast.NotIn: lambda a, b: a not in b,
}
UNARY: dict[type, Callable] = {ast.USub: operator.neg, ast.UAdd: operator.pos, ast.Invert: operator.invert}
STRUCTURAL = frozenset({"append", "insert", "extend", "pop", "copy", "clear", "reverse", "keys",
                        "values", "items", "get", "setdefault", "update"})
"""Value methods that store or hand back items without looking at them (unknown items allowed)."""
def truth(value: Any) -> bool:
    """The truth of a value; :class:`Unknown` when it is unknown."""
    if isinstance(value, Opaque):
        raise Unknown(value)
    return bool(value)


class ExpressionEvaluator:
    """Evaluates expressions. The statement interpreter subclass provides ``call_function``,
    ``assign``, ``module_namespace`` and ``resolve_lazy`` (calls, bindings and imports)."""

    steps = 0

    def eval(self, node: ast.AST, frame: Frame) -> Any:
        """The value of ``node``: concrete, or an :class:`Opaque` with its reason."""
        self.steps += 1
        if self.steps > LIMIT_STEPS:
            raise Budget(f"more than {LIMIT_STEPS} evaluation steps")
        handler = HANDLERS.get(type(node))
        line = getattr(node, "lineno", 0)
        if handler is None:
            return Opaque(f"`{type(node).__name__}` is not evaluated statically (line {line})")
        try:
            return handler(self, node, frame)
        except Unknown as err:
            return err.opaque
        except Control:
            raise
        except Exception as err:  # noqa: BLE001 - what the code would raise at runtime
            return Opaque(f"`{short(node)}` raises {type(err).__name__} (line {line})")

    def _constant(self, node: ast.Constant, frame: Frame) -> Any:
        if isinstance(node.value, str):
            return Text(node.value, node.value, node.lineno)
        return node.value

    def _name(self, node: ast.Name, frame: Frame) -> Any:
        for scope in (frame.locals, frame.globals):
            if node.id in scope:
                value = scope[node.id]
                if isinstance(value, Lazy):
                    value = scope[node.id] = self.resolve_lazy(value)
                return value
        if hasattr(builtins, node.id):
            return Extern(node.id)
        return Opaque(f"unknown name `{node.id}` (line {node.lineno})")

    def _attribute(self, node: ast.Attribute, frame: Frame) -> Any:
        base = self.eval(node.value, frame)
        if isinstance(base, Opaque):
            return base
        if isinstance(base, Instance):
            return self._instance_attribute(base, node)
        if isinstance(base, Extern):
            return self._extern_attribute(base, node.attr)
        if allowed_method(base, node.attr):
            return Method(base, node.attr)
        return Opaque(f"attribute `{node.attr}` of a {type(base).__name__} (line {node.lineno})")

    def _instance_attribute(self, inst: Instance, node: ast.Attribute) -> Any:
        if node.attr in inst.attrs:
            return inst.attrs[node.attr]
        value = inst.cls.namespace.get(node.attr, MISSING)
        if isinstance(value, Function):
            return Method(inst, node.attr, value)
        if value is not MISSING:
            return value
        return Opaque(f"simulator: `self.{node.attr}` comes from the RLBench base class "
                      f"(line {node.lineno})")

    def _extern_attribute(self, ext: Extern, attr: str) -> Any:
        qualname = f"{ext.qualname}.{attr}"
        if qualname in CONSTANTS:
            return CONSTANTS[qualname]
        namespace = self.module_namespace(ext.qualname)
        if namespace is not None and attr in namespace:
            value = namespace[attr]
            if isinstance(value, Lazy):
                value = self.resolve_lazy(value)
            if not isinstance(value, (Function, ClassInfo, Instance, Method)):
                return value
        return Extern(qualname)

    def _call(self, node: ast.Call, frame: Frame) -> Any:
        func = self.eval(node.func, frame)
        args = self.eval_items(node.args, frame)
        kwargs: dict[str, Any] = {}
        for keyword in node.keywords:
            value = self.eval(keyword.value, frame)
            if keyword.arg is not None:
                kwargs[keyword.arg] = value
            elif isinstance(value, dict):
                kwargs.update(value)
            else:
                raise Unknown(value if isinstance(value, Opaque) else Opaque("** of a non-dict"))
        if isinstance(func, Opaque):
            return func
        if isinstance(func, Extern):
            return self._call_extern(func, args, kwargs, node)
        if isinstance(func, Function):
            return self.call_function(func, args, kwargs)
        if isinstance(func, Method) and func.function is not None:
            return self.call_function(func.function, [func.receiver, *args], kwargs)
        if isinstance(func, Method):
            return self._call_method(func, args, kwargs, node)
        if isinstance(func, ClassInfo):
            return Opaque(f"constructs an object of class `{func.name}` (line {node.lineno})")
        return Opaque(f"calls a {type(func).__name__} (line {node.lineno})")

    def _call_extern(self, func: Extern, args: list, kwargs: dict, node: ast.Call) -> Any:
        pure = PURE.get(func.qualname)
        if pure is None:
            return Opaque(f"{kind_of(func.qualname)}: `{short(node.func)}` (line {node.lineno})")
        for value in [*args, *kwargs.values()]:
            if isinstance(value, Opaque):
                return value
        return check_size(pure(*args, **kwargs))

    def _call_method(self, method: Method, args: list, kwargs: dict, node: ast.Call) -> Any:
        receiver, name = method.receiver, method.name
        if name == "format":
            return format_call(receiver, args, kwargs, node)
        if name == "join" and isinstance(receiver, str):
            return join(receiver, materialize(args[0]))
        if name not in STRUCTURAL or isinstance(receiver, str):
            found = find_opaque([args, kwargs])
            if found is not None:
                return found
        if name == "extend" and isinstance(receiver, list) and args and isinstance(args[0], Opaque):
            return receiver.append(args[0])  # unknown items are kept as one unknown
        if name in ("extend", "update") and args:
            args = [args[0] if isinstance(args[0], dict) else materialize(args[0]), *args[1:]]
        if name == "replace" and isinstance(receiver, str) and len(args) >= 2:
            check_size("x" * (len(receiver) + receiver.count(args[0]) * len(args[1])))
        result = getattr(receiver, name)(*args, **kwargs)
        check_size(receiver)
        if name in ("keys", "values", "items"):
            return list(result)
        if isinstance(receiver, Text) and isinstance(result, str):
            return Text(result, receiver.template, receiver.line, receiver.fills, receiver.templated)
        return check_size(result)

    def _binop(self, node: ast.BinOp, frame: Frame) -> Any:
        left, right = self.eval(node.left, frame), self.eval(node.right, frame)
        return self.binary(node.op, left, right, node.left, node.right, node)

    def binary(self, op: ast.operator, left: Any, right: Any, lnode: ast.AST, rnode: ast.AST,
               node: ast.AST) -> Any:
        """``left op right``; shared by ``BinOp`` and augmented assignment."""
        stringy = isinstance(left, str) or isinstance(right, str)
        if isinstance(op, ast.Mod) and isinstance(left, str):
            return percent(left, right, node)
        unknown = left if isinstance(left, Opaque) else right if isinstance(right, Opaque) else None
        if unknown is not None:
            if isinstance(op, ast.Add) and stringy:
                template = skeleton(left, lnode) + skeleton(right, rnode)
                return Opaque(unknown.reason, template, getattr(left, "line", 0) or node.lineno)
            return (unknown if not (isinstance(op, ast.Mod) and isinstance(left, Opaque)) else
                Opaque(left.reason, left.template, left.line))
        if isinstance(op, ast.Add) and isinstance(left, str) and isinstance(right, str):
            return concat(left, right, lnode, rnode, node)
        self._guard(op, left, right)
        return check_size(BINARY[type(op)](left, right))

    @staticmethod
    def _guard(op: ast.operator, left: Any, right: Any) -> None:
        """Refuse operations whose result would be huge (``'x' * 10**9``, ``2 ** 10**9``)."""
        if isinstance(op, ast.Mult):
            for seq, n in ((left, right), (right, left)):
                if isinstance(seq, (str, list, tuple)) and isinstance(n, int) and len(seq) * n > LIMIT_ITEMS:
                    raise Unknown(Opaque(f"a sequence of more than {LIMIT_ITEMS} items"))
        growing = isinstance(op, (ast.Mult, ast.Pow, ast.LShift))
        if growing and isinstance(left, int) and isinstance(right, int):
            bits = (left.bit_length() * (abs(right) if isinstance(op, ast.Pow) else 1) + abs(right)
                if not isinstance(op, ast.Mult) else left.bit_length() + right.bit_length())
            if bits > 100_000 or (not isinstance(op, ast.Mult) and abs(right) > 256):
                raise Unknown(Opaque("an integer above 100000 bits or exponent above 256 is not evaluated"))

    def _joinedstr(self, node: ast.JoinedStr, frame: Frame) -> Any:
        parts, template, fills, found = [], [], [], None
        for value in node.values:
            if isinstance(value, ast.Constant):
                parts.append(value.value)
                template.append(value.value)
                continue
            template.append(field_template(value))
            item = self.eval(value.value, frame)
            if found is None and isinstance(item, Opaque):
                found = item
            if found is None:
                spec = "" if value.format_spec is None else self.eval(value.format_spec, frame)
                if isinstance(spec, Opaque):
                    raise Unknown(spec)
                check_spec(str(spec))
                convert = {115: str, 114: repr, 97: ascii}.get(value.conversion, lambda x: x)
                parts.append(format(convert(item), spec))
                fills.append(fill_text(item))
        text = "".join(template)
        if found is not None:
            return Opaque(found.reason, text, node.lineno)
        templated = any(not isinstance(v, ast.Constant) for v in node.values)
        return Text(check_size("".join(parts)), text, node.lineno, tuple(fills), templated)

    def _subscript(self, node: ast.Subscript, frame: Frame) -> Any:
        base = self.eval(node.value, frame)
        if isinstance(node.slice, ast.Slice):
            bounds = [None if n is None else self.eval(n, frame)
                      for n in (node.slice.lower, node.slice.upper, node.slice.step)]
            found = find_opaque(bounds)
            key: Any = slice(*bounds) if found is None else None
        else:
            key = self.eval(node.slice, frame)
            found = find_opaque(key)
        if isinstance(base, Opaque):
            return base
        if found is not None:
            return found
        if not isinstance(base, (list, tuple, str, dict, range)):
            return Opaque(f"`{short(node)}` indexes a {type(base).__name__} (line {node.lineno})")
        return base[key]

    def eval_items(self, nodes: list[ast.AST], frame: Frame) -> list:
        """Values of a list of expressions, ``*iterable`` spread."""
        out: list = []
        for item in nodes:
            if isinstance(item, ast.Starred):
                out.extend(materialize(self.eval(item.value, frame)))
            else:
                out.append(self.eval(item, frame))
        return check_size(out)

    def _dict(self, node: ast.Dict, frame: Frame) -> dict:
        out: dict = {}
        for key, value in zip(node.keys, node.values):
            if key is None:
                spread = self.eval(value, frame)
                out.update(spread if isinstance(spread, dict) else materialize(spread))
            else:
                out[self.eval(key, frame)] = self.eval(value, frame)
        return out

    def comprehension(self, node: ast.AST, frame: Frame, produce: Callable[[Frame], Any]) -> list:
        """The items a comprehension produces, in its own scope."""
        scope = Frame(dict(frame.locals), frame.globals)
        out: list = []

        def loop(level: int) -> None:
            if level == len(node.generators):
                out.append(produce(scope))
                check_size(out)
                return
            generator = node.generators[level]
            for item in materialize(self.eval(generator.iter, scope)):
                self.assign(generator.target, item, scope)
                if all(truth(self.eval(test, scope)) for test in generator.ifs):
                    loop(level + 1)

        loop(0)
        return out

    def _compare(self, node: ast.Compare, frame: Frame) -> Any:
        left = self.eval(node.left, frame)
        for op, comparator in zip(node.ops, node.comparators):
            right = self.eval(comparator, frame)
            for value in (left, right):
                if isinstance(value, Opaque):
                    return value
            result = COMPARE[type(op)](left, right)
            if not truth(result):
                return result
            left = right
        return True

    def _boolop(self, node: ast.BoolOp, frame: Frame) -> Any:
        result = None
        for item in node.values:
            result = self.eval(item, frame)
            if truth(result) != isinstance(node.op, ast.And):
                return result
        return result

    def _unaryop(self, node: ast.UnaryOp, frame: Frame) -> Any:
        value = self.eval(node.operand, frame)
        if isinstance(node.op, ast.Not):
            return not truth(value)
        return value if isinstance(value, Opaque) else UNARY[type(node.op)](value)

    def _ifexp(self, node: ast.IfExp, frame: Frame) -> Any:
        test = self.eval(node.test, frame)
        if not isinstance(test, Opaque):
            return self.eval(node.body if truth(test) else node.orelse, frame)
        body, orelse = self.eval(node.body, frame), self.eval(node.orelse, frame)
        return body if same(body, orelse) else Opaque(test.reason)

    def _lambda(self, node: ast.Lambda, frame: Frame) -> Function:
        defaults = [self.eval(d, frame) for d in node.args.defaults]
        return Function(node, frame.globals, defaults, [], frame.locals)

    def _namedexpr(self, node: ast.NamedExpr, frame: Frame) -> Any:
        value = self.eval(node.value, frame)
        self.assign(node.target, value, frame)
        return value


def _element(self: ExpressionEvaluator, node: ast.AST) -> Callable[[Frame], Any]:
    return lambda scope: self.eval(node.elt, scope)


HANDLERS: dict[type, Callable[[ExpressionEvaluator, Any, Frame], Any]] = {
    ast.Constant: ExpressionEvaluator._constant,
    ast.Name: ExpressionEvaluator._name,
    ast.Attribute: ExpressionEvaluator._attribute,
    ast.Call: ExpressionEvaluator._call,
    ast.BinOp: ExpressionEvaluator._binop,
    ast.JoinedStr: ExpressionEvaluator._joinedstr,
    ast.Subscript: ExpressionEvaluator._subscript,
    ast.List: lambda self, node, frame: self.eval_items(node.elts, frame),
    ast.Tuple: lambda self, node, frame: tuple(self.eval_items(node.elts, frame)),
    ast.Set: lambda self, node, frame: set(self.eval_items(node.elts, frame)),
    ast.Dict: ExpressionEvaluator._dict,
    ast.ListComp: lambda self, node, frame: self.comprehension(node, frame, _element(self, node)),
    ast.GeneratorExp: lambda self, node, frame: self.comprehension(node, frame, _element(self, node)),
    ast.SetComp: lambda self, node, frame: set(self.comprehension(node, frame, _element(self, node))),
    ast.DictComp: lambda self, node, frame: dict(self.comprehension(
        node, frame, lambda f: (self.eval(node.key, f), self.eval(node.value, f)))),
    ast.Compare: ExpressionEvaluator._compare,
    ast.BoolOp: ExpressionEvaluator._boolop,
    ast.UnaryOp: ExpressionEvaluator._unaryop,
    ast.IfExp: ExpressionEvaluator._ifexp,
    ast.Lambda: ExpressionEvaluator._lambda,
    ast.NamedExpr: ExpressionEvaluator._namedexpr,
}
"""The handler of each expression node type; any other type gives an unknown value with its name."""
