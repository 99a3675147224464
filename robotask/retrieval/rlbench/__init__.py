"""The RLBench instruction corpus: its extraction from the task files and its committed tables.

- ``extraction``: the fixed descriptions of every task file, read with ``ast`` only (``robotask extract``),
  built on ``returns`` (the list ``init_episode`` returns) and ``joins`` (implicitly joined literals);
- ``fixed_corpus``: load and describe the committed corpus of fixed descriptions (``data/rlbench/corpus.csv``);
- ``full_corpus``: every variation of every task file, through :mod:`robotask.retrieval.ast_interpreter`;
- ``licence``: the notice both extractions write beside the texts.
"""
