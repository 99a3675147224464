"""The episode wing: an Xperience-10M-style episode, its window features and the twelve-task suite.

Imports only itself and the core (``robotask.paths, io, errors, progress, plots, cache``).

- Episode: ``format`` (file names, HDF5 paths, constants), ``media`` (PyAV video/audio), ``loader``
  (``load_episode`` → ``Episode``), ``captions`` (caption JSON → per-frame labels), ``poses`` (SLAM geometry).
- Synthetic episode: ``synth`` (``generate_episode``, ``ensure_episode``, CLI) over ``script``, ``motion``,
  ``camera``, ``render`` and ``audio``.
- Features: ``layout`` (options, the 18-block layout), ``extractors`` and ``hashtext`` (per-frame vectors),
  ``perframe`` (per-episode per-frame features, cached), ``windows`` (window statistics, split),
  ``windowset`` (``load_window_set`` → ``WindowSet``), ``features`` (CLI).
- Suite: ``fixes`` (protocols), ``task_builders`` and ``tasks`` (the registry, split), ``minimal_heads``,
  ``mlp``, ``baselines``, ``metrics``, ``head_runs``, ``scoring``, ``suite`` (``run_task`` → ``TaskResult``,
  ``run_suite``, CLI).
- Figures: ``figures_episode`` (10), ``figures_windows`` (11), ``figures_tasks`` (12), ``figures_suite`` (13).
"""
