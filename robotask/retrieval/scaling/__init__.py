"""Scaling studies of the retrieval protocol (issue 24): the wording budget, library size, macro vs micro accuracy.

- :mod:`.budget`: k indexed wordings per task, the same held-out queries for every k (matched, as chapter 03).
- :mod:`.averages`: task-averaged (macro) beside query-weighted (micro) accuracy of one gallery.
- :mod:`.phrases`: small tested phrases for the chapter (which ranker leads, whether the order changes).
- :mod:`.claims`: the paper's claims on each new library; :mod:`.tables`: the curves' shape as numbers
  (bands at every point, paired gains, slopes per series of draws and per half of the size range).

Every gallery comes from :mod:`robotask.retrieval.protocol.draws` (seeded permutations per task) and is
scored by :func:`robotask.retrieval.protocol.study.predict` (max over a task's indexed texts, deterministic ties).
"""
