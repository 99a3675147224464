"""The retrieval wing: the RLBench instruction corpus and the paper's ranking study, and beyond it.

Chapters ``01``–``09`` import its modules from their rooms
(``from robotask.retrieval.protocol import study``); no package file here imports its children,
so importing one module loads only what that module needs (the ranker registry, for instance,
never imports torch).

- ``rlbench``: the RLBench corpus, its extraction from the task files and its committed tables;
- ``static_evaluator``: what ``init_episode`` returns per variation, computed with ``ast`` (the full corpus);
- ``libraries``: any corpus a user brings, CALVIN, and the protocol on other libraries (chapter 09);
- ``rankers``: lexical and embedding rankers and the ``registry`` that names them all;
- ``protocol``: the study corpus and its gallery draws, the study, and a plain reference;
- ``statistics``: spread over galleries, bootstrap intervals and paired tests;
- ``perturbations``: the perturbation study (chapter 08);
- ``policy``: retrieval beside a robot policy's logged outcomes on LIBERO-Para (chapter 09.3);
- ``reproduction``: the paper's numbers, ours beside them, and the error analysis;
- ``presentation``: figures and computed sentences;
- ``badinput``: the wing's bad-input cases (chapter ``98_bad_input``).
"""
