"""The AST interpreter: what ``init_episode(index)`` returns for each variation, computed with ``ast``.

Task code is never imported or run. ``evaluator`` is the entry point; ``interpreter`` runs the
statements, ``expressions`` computes the expressions, ``templates`` fills ``%``/``format``/``+``/``join``
templates, and ``interpreter_values`` holds the values they compute with.
"""

from .evaluator import MAX_VARIATIONS, Description, TaskVariations, Variation, evaluate_task_file
from .expressions import (
    BINARY,
    COMPARE,
    HANDLERS,
    STRUCTURAL,
    UNARY,
    Budget,
    Control,
    ExpressionEvaluator,
    Frame,
    truth,
)
from .interpreter import MAX_DEPTH, STATEMENTS, Halt, Interpreter
from .interpreter_values import (
    CONSTANTS,
    KIND_PREFIXES,
    LIMIT_ITEMS,
    LIMIT_STEPS,
    METHODS,
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
    bind_arguments,
    check_spec,
    fill_text,
    find_opaque,
    kind_of,
    materialize,
    merge,
    same,
)
from .templates import check_size, concat, field_template, format_call, join, percent, short, skeleton

__all__ = [
    "BINARY", "Budget", "COMPARE", "CONSTANTS", "ClassInfo", "Control", "Description", "ExpressionEvaluator",
    "Extern", "Frame", "Function", "HANDLERS", "Halt", "Instance", "Interpreter", "KIND_PREFIXES", "LIMIT_ITEMS",
    "LIMIT_STEPS", "Lazy", "MAX_DEPTH", "MAX_VARIATIONS", "METHODS", "MISSING", "Method", "Opaque", "PURE",
    "STATEMENTS", "STRUCTURAL", "TaskVariations", "Text", "UNARY", "Unknown", "Variation", "allowed_method",
    "bind_arguments", "check_size", "check_spec", "concat", "evaluate_task_file", "field_template", "fill_text",
    "find_opaque", "format_call", "join", "kind_of", "materialize", "merge", "percent", "same", "short", "skeleton",
    "truth",
]
