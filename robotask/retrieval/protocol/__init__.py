"""The paper's retrieval protocol: a study corpus and its gallery draws, the study, and a plain reference.

- ``draws``: the validated corpus of a study and its gallery draws;
- ``study``: designs, scoring policies, per-trial results (``robotask retrieval``);
- ``fixed_gallery``: given queries against a given gallery, no draws (``robotask retrieval --gallery --queries``);
- ``reference``: a plain implementation of the study, and the benchmark that times the fast path against it.
"""
