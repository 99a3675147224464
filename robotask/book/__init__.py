"""The book wing: run chapters with parameters, the chapter list, provenance and report helpers.

Tooling that knows nothing of either study: it imports only the core (``robotask.paths``, ``io``,
``errors``, ``progress``, ``plots``, ``cache``). The names below are what a chapter calls; the runner
(``robotask run``), the parameter reader, the lint and the Sphinx extension are reached by their modules.
"""

import importlib
from typing import Any

_HOME = {
    "show_benchmark": "benchmarks", "show_full_size_cluster": "benchmarks", "run_time_values": "provenance",
    "build_stamp": "provenance", "chapter_benchmark": "provenance", "package_versions": "provenance",
    "parameter_table": "provenance", "platform_summary": "provenance", "read_benchmarks": "provenance",
    "read_run_log": "provenance", "run_table": "provenance", "library_revisions": "provenance",
    "read_verdicts": "provenance", "inconsistent_verdicts": "provenance", "page_link": "provenance",
    "Page": "report", "glue_values": "report", "plain_value": "report", "read_summary": "report",
    "show_figure": "report", "show_md": "report",
    "wait_until_alone": "scheduling",
}
"""Each name of the front door and the module it lives in. The modules are imported when a name is first
asked for (PEP 562), so that ``robotask run``, which imports ``robotask.book.runner``, refuses a bad
parameter without first importing pandas and matplotlib for the report helpers."""


def __getattr__(name: str) -> Any:
    if name in _HOME:
        return getattr(importlib.import_module(f".{_HOME[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "Page", "build_stamp", "chapter_benchmark", "glue_values", "inconsistent_verdicts", "library_revisions",
    "package_versions", "page_link", "parameter_table", "plain_value", "platform_summary", "read_benchmarks",
    "read_run_log", "read_summary", "read_verdicts",
    "run_table", "run_time_values", "show_benchmark", "show_figure", "show_full_size_cluster", "show_md",
    "wait_until_alone",
]
