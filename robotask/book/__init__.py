"""The book wing: run chapters with parameters, the chapter list, provenance and report helpers.

Tooling that knows nothing of either study: it imports only the core (``robotask.paths``, ``io``,
``errors``, ``progress``, ``plots``, ``cache``). The names below are what a chapter calls; the runner
(``robotask run``), the parameter reader, the lint and the Sphinx extension are reached by their modules.
"""

from .benchmarks import run_times_sentence, show_benchmark
from .provenance import (
    build_stamp,
    chapter_benchmark,
    package_versions,
    parameter_table,
    platform_summary,
    read_benchmarks,
    read_run_log,
    run_table,
)
from .report import Page, fig_ref, output_dir, plain_value, read_summary, show_figure, show_md, show_table
from .scheduling import wait_until_alone

__all__ = [
    "Page", "build_stamp", "chapter_benchmark", "fig_ref", "output_dir", "package_versions", "parameter_table",
    "plain_value", "platform_summary", "read_benchmarks", "read_run_log", "read_summary", "run_table",
    "run_times_sentence", "show_benchmark", "show_figure", "show_md", "show_table", "wait_until_alone",
]
