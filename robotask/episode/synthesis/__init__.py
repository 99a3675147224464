"""Synthetic episodes: the action script (``script``), hand and object motion (``motion``), the cameras
(``camera``), rendering (``render``), sound (``audio``), one episode on disk (``generate``: ``generate_episode``,
``ensure_episode``, ``robotask synth``) and a collection of varied episodes (``varied``: ``synth_collection``,
``robotask synth-collection``)."""

from .generate import ensure_episode, generate_episode
from .varied import synth_collection

__all__ = [
    "ensure_episode", "generate_episode", "synth_collection",
]
