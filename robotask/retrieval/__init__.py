"""The retrieval wing: the RLBench instruction corpus and the paper's ranking study, and beyond it.

Chapters ``01``–``08`` import its modules by name (``from robotask.retrieval import study``); this
package file imports nothing, so importing one module loads only what that module needs (the
ranker registry, for instance, never imports torch).

- corpus and extraction: ``corpus``, ``extraction`` (with ``returns`` and ``joins``);
- rankers: ``lexical``, ``embedding`` (MiniLM) and the ``registry`` that names them all;
- the protocol: ``draws`` and ``study``; ``reference`` is a plain implementation and the benchmark against it;
- statistics: ``statistics`` (spread over galleries), ``bootstrap`` and ``uncertainty`` (paired tests);
- the perturbation study: ``vocabulary``, ``transforms`` and ``robustness``;
- the paper: ``paper`` (its numbers) and ``reproduction`` (ours beside them);
- ``error_analysis`` (chapter 06) and ``figures``.
"""
