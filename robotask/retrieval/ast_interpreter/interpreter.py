"""Statements of the AST interpreter: a small interpreter over the syntax tree of a task file.

Handlers are looked up by statement type (:data:`STATEMENTS`). Branches on unknown conditions run
both ways on copies and keep only what both agree on (:meth:`Interpreter.fork`); loops over
unknown iterables keep only what the body does not change (:meth:`Interpreter.havoc`). Nothing is
imported or executed: sibling modules are read as text through a resolver and interpreted too.
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Callable
from typing import Any

from .expressions import Budget, Control, ExpressionEvaluator, Frame, truth
from .interpreter_values import (
    LIMIT_ITEMS,
    LIMIT_STEPS,
    MISSING,
    ClassInfo,
    Extern,
    Function,
    Instance,
    Lazy,
    Method,
    Opaque,
    Unknown,
    bind_arguments,
    materialize,
    merge,
    same,
)
from .templates import short

Resolver = Callable[[str], "str | None"]  # module name -> its source text, or None

MAX_DEPTH = 40


class Halt(Control):
    """The evaluation cannot go on: a ``raise`` (``raised``) or a construct it does not model."""

    def __init__(self, reason: str, raised: bool = False):
        super().__init__(reason)
        self.reason, self.raised = reason, raised


class _Return(Control):
    def __init__(self, value: Any):
        super().__init__("return")
        self.value = value


class _Break(Control):
    """``break``."""


class _Continue(Control):
    """``continue``."""


class Interpreter(ExpressionEvaluator):
    """Statements, calls of the file's own functions and imports, over :class:`ExpressionEvaluator`."""

    def __init__(self, resolver: Resolver | None, parsed: dict):
        self.resolver = resolver or (lambda name: None)
        self.parsed = parsed  # module name -> ast.Module | None, shared between variations
        self.namespaces: dict[str, dict | None] = {}
        self.loading: set[str] = set()
        self.depth = 0
        self.steps = 0
        self.instance: Instance | None = None
        self.return_node: ast.Return | None = None

    def exec_block(self, body: list[ast.stmt], frame: Frame) -> None:
        for statement in body:
            self.exec(statement, frame)

    def exec(self, node: ast.stmt, frame: Frame) -> None:
        self.steps += 1
        if self.steps > LIMIT_STEPS:
            raise Budget(f"more than {LIMIT_STEPS} evaluation steps")
        handler = STATEMENTS.get(type(node))
        if handler is None:
            raise Halt(f"`{type(node).__name__}` statements are not evaluated (line {node.lineno})")
        handler(self, node, frame)

    def _assign(self, node: ast.Assign, frame: Frame) -> None:
        value = self.eval(node.value, frame)
        for target in node.targets:
            self.assign(target, value, frame)

    def _augassign(self, node: ast.AugAssign, frame: Frame) -> None:
        current, value = self.eval(node.target, frame), self.eval(node.value, frame)
        if isinstance(current, list) and isinstance(node.op, ast.Add):
            try:  # in place, as Python does for lists; unknown items are kept as one unknown
                current.extend(materialize(value))
            except Unknown as err:
                current.append(err.opaque)
            if len(current) > LIMIT_ITEMS:
                self.assign(node.target, Opaque(f"a list of more than {LIMIT_ITEMS} items"), frame)
            return
        try:
            result = self.binary(node.op, current, value, node.target, node.value, node)
        except Unknown as err:
            result = err.opaque
        except Exception as err:  # noqa: BLE001 - what the code would raise at runtime
            result = Opaque(f"`{short(node)}` raises {type(err).__name__} (line {node.lineno})")
        self.assign(node.target, result, frame)

    def assign(self, target: ast.AST, value: Any, frame: Frame) -> None:
        """Bind ``value`` to a name, ``self`` attribute, item or unpacking target."""
        if isinstance(target, ast.Name):
            frame.locals[target.id] = value
        elif isinstance(target, ast.Starred):
            self.assign(target.value, value, frame)
        elif isinstance(target, ast.Attribute):
            base = self.eval(target.value, frame)
            if isinstance(base, Instance):
                base.attrs[target.attr] = value
        elif isinstance(target, ast.Subscript):
            self._assign_item(target, value, frame)
        elif isinstance(target, (ast.Tuple, ast.List)):
            self._unpack(target, value, frame)

    def _assign_item(self, target: ast.Subscript, value: Any, frame: Frame) -> None:
        base = self.eval(target.value, frame)
        key = self.eval(target.slice, frame) if not isinstance(target.slice, ast.Slice) else MISSING
        if isinstance(base, list) and (key is MISSING or isinstance(key, Opaque)):
            base[:] = [Opaque(f"item assignment `{short(target)}` (line {target.lineno})")] * len(base)
        elif isinstance(base, (list, dict)) and not isinstance(key, Opaque):
            try:
                base[key] = value
            except (IndexError, TypeError, Unknown):
                raise Halt(f"`{short(target)}` raises (line {target.lineno})", raised=True) from None

    def _unpack(self, target: ast.Tuple | ast.List, value: Any, frame: Frame) -> None:
        try:
            items = materialize(value)
        except Unknown as err:
            for element in target.elts:
                self.assign(element, err.opaque, frame)
            return
        stars = [i for i, e in enumerate(target.elts) if isinstance(e, ast.Starred)]
        count = len(target.elts)
        if (not stars and len(items) != count) or (stars and len(items) < count - 1):
            raise Halt(f"unpacking {len(items)} values into {count} targets raises ValueError "
                       f"(line {target.lineno})", raised=True)
        if stars:
            s = stars[0]
            tail = len(target.elts) - s - 1
            items = items[:s] + [items[s:len(items) - tail]] + items[len(items) - tail:]
        for element, item in zip(target.elts, items):
            self.assign(element, item, frame)

    def _if(self, node: ast.If, frame: Frame) -> None:
        test = self.eval(node.test, frame)
        if not isinstance(test, Opaque):
            self.exec_block(node.body if truth(test) else node.orelse, frame)
            return
        why = f"{test.reason}; decides `if {short(node.test, 40)}` (line {node.lineno})"
        self.fork(frame, [node.body, node.orelse], why)

    def _snapshot(self, frame: Frame) -> dict:
        attrs = self.instance.attrs if self.instance is not None else {}
        return {"locals": dict(frame.locals), "attrs": dict(attrs)}

    def _restore(self, frame: Frame, state: dict) -> None:
        frame.locals.clear()
        frame.locals.update(state["locals"])
        if self.instance is not None:
            self.instance.attrs.clear()
            self.instance.attrs.update(state["attrs"])

    def fork(self, frame: Frame, blocks: list[list[ast.stmt]], why: str) -> None:
        """Run each block on a copy of the state; keep what all non-raising paths agree on."""
        start = copy.deepcopy(self._snapshot(frame))
        outcomes: list[tuple[str, dict, Any]] = []
        for block in blocks:
            self._restore(frame, copy.deepcopy(start))
            try:
                self.exec_block(block, frame)
                outcomes.append(("fall", self._snapshot(frame), None))
            except _Return as ret:
                outcomes.append(("return", self._snapshot(frame), ret.value))
            except Halt as halt:
                if not halt.raised:
                    raise
            except (_Break, _Continue):
                raise Halt(f"`break`/`continue` under a runtime condition: {why}") from None
        if not outcomes:
            raise Halt(f"every branch raises: {why}", raised=True)
        state = outcomes[0][1]
        for _, other, _ in outcomes[1:]:
            state = {key: merge(state[key], other[key], why) for key in state}
        self._restore(frame, state)
        kinds = {kind for kind, _, _ in outcomes}
        if kinds == {"return"}:
            values = [value for _, _, value in outcomes]
            raise _Return(values[0] if all(same(values[0], v) for v in values) else Opaque(why))
        if "return" in kinds:
            raise _Return(Opaque(f"whether it returns depends on: {why}"))

    def havoc(self, node: ast.For | ast.While, frame: Frame, why: str) -> None:
        """A loop run an unknown number of times: what its body changes becomes unknown."""
        for _ in range(6):
            before = copy.deepcopy(self._snapshot(frame))
            if isinstance(node, ast.For):
                self.assign(node.target, Opaque(why), frame)
            try:
                self.exec_block(node.body, frame)
            except (_Break, _Continue):
                pass
            except _Return:
                raise _Return(Opaque(f"returns from a loop: {why}")) from None
            except Halt as halt:
                if not halt.raised:
                    raise
            state = self._snapshot(frame)
            merged = {key: merge(before[key], state[key], why) for key in before}
            self._restore(frame, merged)
            if all(same(merged[k], before[k]) for k in before):
                return

    def _for(self, node: ast.For, frame: Frame) -> None:
        try:
            items = materialize(self.eval(node.iter, frame))
        except Unknown as err:
            why = f"{err.opaque.reason}; the loop at line {node.lineno} runs an unknown number of times"
            self.havoc(node, frame, why)
            return
        for item in items:
            self.assign(node.target, item, frame)
            if not self._loop_body(node.body, frame):
                return
        self.exec_block(node.orelse, frame)

    def _loop_body(self, body: list[ast.stmt], frame: Frame) -> bool:
        """Run one pass of a loop body; False when it breaks out of the loop."""
        try:
            self.exec_block(body, frame)
        except _Break:
            return False
        except _Continue:
            pass
        return True

    def _while(self, node: ast.While, frame: Frame) -> None:
        while True:
            test = self.eval(node.test, frame)
            if isinstance(test, Opaque):
                why = f"{test.reason}; the loop at line {node.lineno} runs an unknown number of times"
                self.havoc(node, frame, why)
                return
            if not truth(test):
                self.exec_block(node.orelse, frame)
                return
            if not self._loop_body(node.body, frame):
                return

    def _return(self, node: ast.Return, frame: Frame) -> None:
        value = None if node.value is None else self.eval(node.value, frame)
        self.return_node = node
        raise _Return(value)

    def _try(self, node: ast.Try, frame: Frame) -> None:
        try:
            self.exec_block(node.body, frame)
        except Halt as halt:
            if not (halt.raised and node.handlers):
                raise
            if node.handlers[0].name:
                frame.locals[node.handlers[0].name] = Opaque("the exception caught")
            self.exec_block(node.handlers[0].body, frame)
        else:
            self.exec_block(node.orelse, frame)
        finally:
            self.exec_block(node.finalbody, frame)

    def _with(self, node: ast.With, frame: Frame) -> None:
        for item in node.items:
            self.eval(item.context_expr, frame)
            if item.optional_vars is not None:
                self.assign(item.optional_vars, Opaque(f"a context manager (line {node.lineno})"), frame)
        self.exec_block(node.body, frame)

    def _functiondef(self, node: ast.FunctionDef, frame: Frame) -> None:
        defaults = [self.eval(d, frame) for d in node.args.defaults]
        kw_defaults = [MISSING if d is None else self.eval(d, frame) for d in node.args.kw_defaults]
        closure = {} if frame.locals is frame.globals else frame.locals
        frame.locals[node.name] = Function(node, frame.globals, defaults, kw_defaults, closure)

    def _classdef(self, node: ast.ClassDef, frame: Frame) -> None:
        """A class: its constants and methods (bases are not read: the RLBench ``Task`` is unknown)."""
        namespace: dict = {}
        inner = Frame(namespace, frame.globals)
        for statement in node.body:
            if isinstance(statement, (ast.FunctionDef, ast.Assign, ast.AnnAssign)):
                try:
                    self.exec(statement, inner)
                except Halt:
                    continue
        frame.locals[node.name] = ClassInfo(node.name, namespace)

    def _import(self, node: ast.Import, frame: Frame) -> None:
        for alias in node.names:
            name = alias.name if alias.asname else alias.name.split(".")[0]
            frame.locals[alias.asname or name] = Extern(name)

    def _importfrom(self, node: ast.ImportFrom, frame: Frame) -> None:
        module = "." * node.level + (node.module or "")
        for alias in node.names:
            if alias.name != "*":
                frame.locals[alias.asname or alias.name] = Lazy(module, alias.name)

    def call_function(self, function: Function, args: list, kwargs: dict) -> Any:
        """Interpret a function of the file with these arguments (``self`` first for methods)."""
        if self.depth >= MAX_DEPTH:
            return Opaque(f"calls nested more than {MAX_DEPTH} deep")
        frame = Frame({**function.closure, **bind_arguments(function, args, dict(kwargs))}, function.globals)
        self.depth += 1
        try:
            if isinstance(function.node, ast.Lambda):
                return self.eval(function.node.body, frame)
            self.exec_block(function.node.body, frame)
            return None
        except _Return as ret:
            return ret.value
        finally:
            self.depth -= 1

    def module_namespace(self, module: str) -> dict | None:
        """The names a sibling module binds (run like the task module), or None if unavailable."""
        if module in self.namespaces:
            return self.namespaces[module]
        if module not in self.parsed:
            source = None if module.startswith(".") else self.resolver(module)
            self.parsed[module] = _parse(source)
        tree = self.parsed[module]
        if tree is None or module in self.loading:
            return None
        self.loading.add(module)
        try:
            self.namespaces[module] = self.run_module(tree, module)
        finally:
            self.loading.discard(module)
        return self.namespaces[module]

    def run_module(self, tree: ast.Module, name: str) -> dict:
        """The top level of a module, statement by statement; a raising statement ends it."""
        namespace: dict = {"__name__": name}
        frame = Frame(namespace, namespace)
        for statement in tree.body:
            try:
                self.exec(statement, frame)
            except Halt as halt:
                if halt.raised:
                    break
            except (_Return, _Break, _Continue):
                continue
        return namespace

    def resolve_lazy(self, lazy: Lazy) -> Any:
        namespace = self.module_namespace(lazy.module)
        value = namespace.get(lazy.name, MISSING) if namespace is not None else MISSING
        if isinstance(value, Lazy):
            value = self.resolve_lazy(value) if value.module not in self.loading else MISSING
        if value is MISSING or isinstance(value, (Function, ClassInfo, Instance, Method, Extern)):
            return Extern(f"{lazy.module}.{lazy.name}")
        return value


def _parse(source: str | None) -> ast.Module | None:
    if source is None:
        return None
    try:
        return ast.parse(source)
    except (SyntaxError, ValueError):
        return None


def _raise(self: Interpreter, node: ast.Raise, frame: Frame) -> None:
    raise Halt(f"raises `{short(node.exc) if node.exc else 'again'}` (line {node.lineno})", raised=True)


def _signal(kind: type) -> Callable:
    def handler(self: Interpreter, node: ast.stmt, frame: Frame) -> None:
        raise kind()
    return handler


STATEMENTS: dict[type, Callable[[Interpreter, Any, Frame], None]] = {
    ast.Expr: lambda self, node, frame: self.eval(node.value, frame),
    ast.Assign: Interpreter._assign,
    ast.AnnAssign: lambda self, node, frame: node.value is not None and self.assign(
        node.target, self.eval(node.value, frame), frame),
    ast.AugAssign: Interpreter._augassign,
    ast.If: Interpreter._if, ast.For: Interpreter._for, ast.While: Interpreter._while,
    ast.Return: Interpreter._return, ast.Try: Interpreter._try, ast.With: Interpreter._with,
    ast.FunctionDef: Interpreter._functiondef,
    ast.ClassDef: Interpreter._classdef,
    ast.Import: Interpreter._import,
    ast.ImportFrom: Interpreter._importfrom,
    ast.Delete: lambda self, node, frame: [frame.locals.pop(t.id, None) for t in node.targets
                                           if isinstance(t, ast.Name)],
    ast.Raise: _raise,
    ast.Break: _signal(_Break),
    ast.Continue: _signal(_Continue),
    **dict.fromkeys((ast.Pass, ast.Global, ast.Nonlocal, ast.Assert), lambda self, node, frame: None),
}
"""The handler of each statement type; any other type halts the evaluation with its name."""
