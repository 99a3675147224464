"""Instruction libraries beyond RLBench, and the paper's protocol run on them.

- ``corpus_file``: read any corpus a user brings (a CSV, or a YAML task library), validated;
- ``calvin``: derive ``data/calvin/`` from a CALVIN checkout;
- ``libero_para``: derive ``data/libero_para/`` (LIBERO-Para's paraphrases, taxonomy and one policy's outcomes);
- ``transfer`` (chapter ``09_transfer``) and ``transfer_tables`` (its tables and claim checks).
"""
