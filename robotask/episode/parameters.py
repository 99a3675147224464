"""The allowed ranges of the episode chapters' numeric parameters (chapters 10–15).

The book wing's runner checks every value against these before a kernel starts; it imports no wing:
the entry point (:func:`robotask.cli.parameter_ranges`) hands it this table. Imports only the core.
"""

from __future__ import annotations

from ..parameters import PROCESSES, SEED, Range

RANGES: dict[str, Range] = {
    "seed": SEED,
    # Upper bounds where a value makes a run take hours or exhaust memory (frames and resolution size
    # every video and feature array; epochs, episodes, folds and draws multiply the fitting time).
    "frames": Range(low=1, high=100_000, meaning="between 1 and 100000 frames (83 minutes at 20 fps)"),
    "resolution": Range(low=1, high=512, meaning="between 1 and 512 pixels"),
    "start_frame": Range(low=0, high=None, meaning=">= 0 (a frame index)"),
    "n_frames_shown": Range(low=1, high=20_000, meaning="between 1 and 20000 frames"),
    "softmax_epochs": Range(low=1, high=10_000, meaning="between 1 and 10000 epochs"),
    "mlp_epochs": Range(low=1, high=5_000, meaning="between 1 and 5000 epochs"),
    "n_episodes": Range(low=1, high=1_000, meaning="between 1 and 1000 episodes"),
    "folds": Range(low=2, high=100, meaning="between 2 and 100 folds"),
    "shift_draws": Range(low=1, high=1_000, meaning="between 1 and 1000 random partitions"),
    "curve_draws": Range(low=1, high=100, meaning="between 1 and 100 draws per learning-curve point"),
    "shift_train": Range(low=0, high=1_000, meaning="between 0 and 1000 episodes (0: all not held out)"),
    "curve_test": Range(low=0, high=1_000, meaning="between 0 and 1000 episodes (0: a fold's size)"),
    "check_episodes": Range(low=0, high=1_000, meaning="between 0 and 1000 episodes (0: no epoch check)"),
    "timing_episodes": Range(low=1, high=1_000, meaning="between 1 and 1000 episodes"),
    "processes": PROCESSES,
    "n_bootstrap": Range(low=1, high=100_000, meaning="between 1 and 100000 bootstrap replicates"),  # chapter 15
}
"""Parameter name → allowed range, for every numeric parameter the episode chapters declare."""
