"""The AST interpreter: what ``init_episode(index)`` returns for each variation, computed with ``ast``.

Task code is never imported or run. ``evaluator`` is the entry point; ``interpreter`` runs the
statements, ``expressions`` computes the expressions, ``templates`` fills ``%``/``format``/``+``/``join``
templates, and ``interpreter_values`` holds the values they compute with.
"""

from .evaluator import TaskVariations, evaluate_task_file

__all__ = [
    "TaskVariations", "evaluate_task_file",
]
