"""String templates of the AST interpreter: ``%``, ``str.format``, ``+`` and ``join``.

Each returns a :class:`~robotask.retrieval.ast_interpreter.interpreter_values.Text` that keeps the source template
(``'stack %d %s blocks'``), its line and the values filled in, or, when a filled value is unknown,
an :class:`~robotask.retrieval.ast_interpreter.interpreter_values.Opaque` carrying the template and the reason.
Format widths of 1000 or more and attribute access in format fields are refused.
"""

from __future__ import annotations

import ast
import string
from typing import Any

from .interpreter_values import LIMIT_ITEMS, Opaque, Text, Unknown, check_spec, fill_text, find_opaque


def short(node: ast.AST, width: int = 60) -> str:
    """The source of ``node`` on one line, cut to ``width`` characters."""
    text = " ".join(ast.unparse(node).split())
    return text if len(text) <= width else text[: width - 3] + "..."


def skeleton(value: Any, node: ast.AST) -> str:
    """The template a string operand contributes (``{expr}`` for a value computed elsewhere)."""
    if isinstance(value, Text):
        return value.template
    if isinstance(value, Opaque) and value.template:
        return value.template
    return "{" + short(node) + "}"


def check_size(value: Any) -> Any:
    """``value``, unless it has more than ``LIMIT_ITEMS`` items (then :class:`Unknown`)."""
    if isinstance(value, (str, list, tuple, dict, set)) and len(value) > LIMIT_ITEMS:
        raise Unknown(Opaque(f"a value of more than {LIMIT_ITEMS} items"))
    return value


def format_call(receiver: str, args: list, kwargs: dict, node: ast.Call) -> Any:
    """``'...{}...'.format(...)``."""
    template = skeleton(receiver, node.func)
    line = receiver.line if isinstance(receiver, Text) else node.lineno
    for _, field, spec, _ in string.Formatter().parse(receiver):
        if field and "." in field:
            return Opaque(f"format field `{field}` reads an attribute (line {line})", template, line)
        check_spec(spec or "")
    found = find_opaque([args, kwargs])
    if found is not None:
        return Opaque(found.reason, template, line)
    value = str(receiver).format(*args, **kwargs)
    fills = (*getattr(receiver, "fills", ()), *map(fill_text, [*args, *kwargs.values()]))
    return Text(check_size(value), template, line, fills, True)


def percent(left: str, right: Any, node: ast.AST) -> Any:
    """``'...%s...' % values``: the filled string, or the template with the unknown's reason."""
    template = left.template if isinstance(left, Text) else str(left)
    line = left.line if isinstance(left, Text) else node.lineno
    check_spec(str(left), percent=True)
    found = right if isinstance(right, Opaque) else find_opaque(right)
    if found is not None:
        return Opaque(found.reason, template, line)
    value = str.__mod__(str(left), right)
    values = right.values() if isinstance(right, dict) else right if isinstance(right, tuple) else (right,)
    fills = (*getattr(left, "fills", ()), *map(fill_text, values))
    return Text(check_size(value), template, line, fills, True)


def concat(left: str, right: str, lnode: ast.AST, rnode: ast.AST, node: ast.AST) -> Text:
    """``left + right`` of two strings; an operand that is not a literal or a template is a fill."""
    parts = []
    for value, part in ((left, lnode), (right, rnode)):
        if isinstance(value, Text) and (value.templated or isinstance(part, ast.Constant)):
            parts.append((value.template, value.fills, value.templated, value.line))
        else:
            parts.append(("{" + short(part) + "}", (str(value),), True, 0))
    line = parts[0][3] or parts[1][3] or node.lineno
    return Text(check_size(left + right), parts[0][0] + parts[1][0], line,
                parts[0][1] + parts[1][1], parts[0][2] or parts[1][2])


def join(separator: str, items: list) -> Any:
    """``separator.join(items)`` keeping the templates of the items."""
    found = find_opaque(items)
    if found is not None:
        return found
    check_size("x" * min(sum(map(len, items)) + len(separator) * len(items), LIMIT_ITEMS + 1))
    value = check_size(str(separator).join(items))
    texts = [i for i in items if isinstance(i, Text)]
    template = str(separator).join(i.template if isinstance(i, Text) else str(i) for i in items)
    line = texts[0].line if texts else 0
    fills = tuple(f for i in texts for f in i.fills)
    return Text(value, template, line, fills, any(i.templated for i in texts))


def field_template(value: ast.FormattedValue) -> str:
    """``{expr!r:spec}`` as written in an f-string."""
    text = "{" + short(value.value)
    if value.conversion != -1:
        text += "!" + chr(value.conversion)
    if value.format_spec is not None:
        text += ":" + "".join(v.value if isinstance(v, ast.Constant) else "{" + short(v.value) + "}"
                              for v in value.format_spec.values)
    return text + "}"
