"""The retrieval wing: the RLBench instruction corpus and the paper's ranking study, and beyond it.

Each room (sub-package) has a front door: its ``__init__`` re-exports the public names of its modules
(``__all__``), and chapters ``01``–``09`` import from it (``from robotask.retrieval.protocol import
load_study_corpus``). This file imports no room. Modules inside a room import each other by module
path; the rooms import one another in one direction only (no cycle between folders). No front door
loads torch: the MiniLM ranker (``rankers.embedding``) is imported by the registry when it is scored.

- ``rlbench``: the RLBench corpus, its extraction from the task files and its committed tables;
- ``ast_interpreter``: what ``init_episode`` returns per variation, computed with ``ast`` (the full corpus);
- ``libraries``: CALVIN, RoboCasa, RoboTwin and LIBERO extractions, and the protocol on other libraries (chapter 09);
- ``rankers``: lexical and embedding rankers and the ``registry`` that names them all;
- ``protocol``: any corpus file a user brings, the study corpus and its gallery draws, the study, a plain reference;
- ``statistics``: spread over galleries, bootstrap intervals and paired tests;
- ``perturbations``: the perturbation study (chapter 08);
- ``policy``: retrieval beside a robot policy's logged outcomes on LIBERO-Para (chapter 09.3);
- ``reproduction``: the paper's numbers, ours beside them, and the error analysis;
- ``scaling``: larger libraries, the wording budget and library size (chapter 09.2);
- ``presentation``: figures, the values and short phrases the chapters glue, the home page's answers;
- ``badinput``: the wing's bad-input cases (chapter ``98_bad_input``).
"""
