"""The RLBench instruction corpus: its extraction from the task files and its committed tables.

- ``extraction``: the fixed descriptions of every task file, read with ``ast`` only (``robotask extract``),
  built on ``returns`` (the list ``init_episode`` returns) and ``joins`` (implicitly joined literals);
- ``fixed_corpus``: load and describe the committed corpus of fixed descriptions (``data/rlbench/corpus.csv``);
- ``full_corpus``: every variation of every task file, through :mod:`robotask.retrieval.ast_interpreter`;
- ``licence``: the notice both extractions write beside the texts.
"""

from .extraction import MIN_DESCRIPTIONS, STATUSES
from .fixed_corpus import (
    committed_tables,
    corpus_counts,
    descriptions_per_task,
    duplicate_texts,
    first_listed_scored_queries,
    glued_literals,
    load_accounting,
    load_literals,
    reextract_and_compare,
    status_summary,
    text_oddities,
    within_task_duplicates,
)
from .joins import JOIN_RULES, split_pieces

__all__ = [
    "JOIN_RULES", "MIN_DESCRIPTIONS", "STATUSES", "committed_tables", "corpus_counts", "descriptions_per_task",
    "duplicate_texts", "first_listed_scored_queries", "glued_literals", "load_accounting", "load_literals",
    "reextract_and_compare", "split_pieces", "status_summary", "text_oddities", "within_task_duplicates",
]
