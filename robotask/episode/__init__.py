"""The episode wing: an Xperience-10M-style episode, its window features and the twelve-task suite.

Imports only itself and the core. Its rooms, in the order of the data path:

- ``files``: the on-disk format and reading it (``load_episode`` → ``Episode``, collection manifests);
- ``synthesis``: synthetic episodes and varied collections (``robotask synth``, ``robotask synth-collection``);
- ``features``: per-frame features, windows and the window set (``load_window_set`` → ``WindowSet``), Dask;
- ``tasks``: the twelve tasks (registry and builders), the two protocols, splits, metrics, baselines;
- ``models``: the learned heads (minimal heads, the MLP);
- ``suite``: running the heads on the tasks and scoring them (``run_task``, ``run_suite``);
- ``unseen``: the suite over a collection of episodes, on episodes the heads never saw (chapter 14);
- ``report``: figures and computed text of chapters 10–13 and the home page's Part III answers;
- ``published``: the original suite's published real-data predictions, recomputed, with baselines, intervals
  and verdicts (chapter 15, ``robotask score``).

Each room names its public functions in its ``__init__`` (``from robotask.episode.report import figure_depth``).
Beside the rooms: ``parameters`` holds the ranges of the episode chapters' numeric parameters, ``badinput``
the wing's bad-input catalogue (chapter 98), and ``cli`` registers ``robotask suite`` (the one-episode
options of ``suite.cli``, and ``--collection`` from ``unseen.cli``).

"spec §N" in the docstrings of this wing cites section N of ``book/episode_suite_spec.md``, the
specification of the format and the original suite that the code implements.
"""
