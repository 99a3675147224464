"""The RLBench instruction corpus: its extraction from the task files and its committed tables.

- ``extraction``: the fixed descriptions of every task file, read with ``ast`` only (``robotask extract``),
  built on ``returns`` (the list ``init_episode`` returns) and ``joins`` (implicitly joined literals);
- ``fixed_corpus``: load and describe the committed corpus of fixed descriptions (``data/rlbench/corpus.csv``);
- ``full_corpus``: every variation of every task file, through :mod:`robotask.retrieval.ast_interpreter`;
- ``licence``: the notice both extractions write beside the texts.
"""

from .extraction import (
    LITERALS_COLUMNS,
    MIN_DESCRIPTIONS,
    NOTICE_TEMPLATE,
    STATUS_LABELS,
    STATUSES,
    classify_directory,
    classify_source,
    extract_tables,
    list_status,
    literals_frame,
    register_cli,
    resolve_tasks_dir,
    task_files,
    write_extraction,
)
from .fixed_corpus import (
    REQUIRED_COLUMNS,
    TYPO_EXAMPLES,
    accounting_path,
    committed_tables,
    corpus_counts,
    corpus_path,
    descriptions_per_task,
    duplicate_texts,
    first_listed_scored_queries,
    glued_literals,
    literals_path,
    load_accounting,
    load_corpus,
    load_literals,
    reextract_and_compare,
    status_summary,
    text_oddities,
    within_task_duplicates,
)
from .full_corpus import (
    DEFAULT_OUT,
    README_TEMPLATE,
    TASKS_PATH,
    SourceTree,
    evaluate_tree,
    full_corpus_tables,
    main,
    open_tree,
    summary,
    write_full_corpus,
)
from .joins import (
    JOIN_RULES,
    check_join_rule,
    glued_joins,
    is_capital_join,
    is_glued_join,
    piece_values,
    split_literal,
    split_pieces,
)
from .licence import RLBENCH_LICENCE
from .returns import (
    Element,
    FileResult,
    branch_elements,
    branch_reason,
    classify_element,
    find_init_episode,
    function_scope,
    returned_list,
    short,
)

__all__ = [
    "DEFAULT_OUT", "Element", "FileResult", "JOIN_RULES", "LITERALS_COLUMNS", "MIN_DESCRIPTIONS", "NOTICE_TEMPLATE",
    "README_TEMPLATE", "REQUIRED_COLUMNS", "RLBENCH_LICENCE", "STATUS_LABELS", "STATUSES", "SourceTree", "TASKS_PATH",
    "TYPO_EXAMPLES", "accounting_path", "branch_elements", "branch_reason", "check_join_rule", "classify_directory",
    "classify_element", "classify_source", "committed_tables", "corpus_counts", "corpus_path",
    "descriptions_per_task", "duplicate_texts", "evaluate_tree", "extract_tables", "find_init_episode",
    "first_listed_scored_queries", "full_corpus_tables", "function_scope", "glued_joins", "glued_literals",
    "is_capital_join", "is_glued_join", "list_status", "literals_frame", "literals_path", "load_accounting",
    "load_corpus", "load_literals", "main", "open_tree", "piece_values", "reextract_and_compare", "register_cli",
    "resolve_tasks_dir", "returned_list", "short", "split_literal", "split_pieces", "status_summary", "summary",
    "task_files", "text_oddities", "within_task_duplicates", "write_extraction", "write_full_corpus",
]
