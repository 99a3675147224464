"""The allowed ranges of the episode chapters' numeric parameters (chapters 10–14).

The book wing's runner checks every value against these before a kernel starts; it imports no wing:
the entry point (:func:`robotask.cli.parameter_ranges`) hands it this table. Imports only the core.
"""

from __future__ import annotations

from ..parameters import SEED, Range

RANGES: dict[str, Range] = {
    "seed": SEED,
    "frames": Range(low=1, high=None, meaning=">= 1 frame"),
    "resolution": Range(low=1, high=None, meaning=">= 1 pixel"),
    "start_frame": Range(low=0, high=None, meaning=">= 0 (a frame index)"),
    "n_frames_shown": Range(low=1, high=None, meaning=">= 1 frame"),
    "softmax_epochs": Range(low=1, high=None, meaning=">= 1 epoch"),
    "mlp_epochs": Range(low=1, high=None, meaning=">= 1 epoch"),
    "n_episodes": Range(low=2, high=None, meaning=">= 2 episodes (one to train, one to test)"),
    "folds": Range(low=2, high=None, meaning=">= 2 folds"),
    "shift_draws": Range(low=1, high=None, meaning=">= 1 random partition"),
    "curve_draws": Range(low=1, high=None, meaning=">= 1 draw"),
    "shift_train": Range(low=0, high=None, meaning=">= 0 episodes (0: all not held out)"),
    "curve_test": Range(low=0, high=None, meaning=">= 0 episodes (0: a fold's size)"),
    "check_episodes": Range(low=0, high=None, meaning=">= 0 episodes (0: no epoch check)"),
    "timing_episodes": Range(low=1, high=None, meaning=">= 1 episode"),
    "processes": Range(low=1, high=None, meaning=">= 1 process"),
}
"""Parameter name → allowed range, for every numeric parameter the episode chapters declare."""
