"""What a reader of the retrieval chapters sees: figures, tables, and the numbers and short phrases the
chapters' Markdown glues in.

- ``figures``: every figure of the retrieval chapters (``figure_<what>``);
- ``phrases``: the values and data-dependent words chapters 01 to 05 glue (``*_facts``);
- ``sentences``, ``sentences_beyond``, ``sentences_transfer``: number words and the short phrases of
  the chapters beyond the paper (06 to 09.1);
- ``answers``: the home page's answers (and the part pages', which paste them);
- ``table_labels``: readers' names for the ids in the chapters' tables, and their table shapes.
"""
