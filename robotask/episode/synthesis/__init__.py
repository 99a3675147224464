"""Synthetic episodes: the action script (``script``), hand and object motion (``motion``), the cameras
(``camera``), rendering (``render``), sound (``audio``), one episode on disk (``generate``: ``generate_episode``,
``ensure_episode``, ``robotask synth``) and a collection of varied episodes (``varied``: ``synth_collection``,
``robotask synth-collection``)."""

from .generate import ensure_episode, episode_key, generate_episode
from .script import SCHEDULES, build_script
from .varied import generate_collection_episode, synth_collection

__all__ = [
    "ensure_episode",
    "episode_key",
    "generate_episode",
    "SCHEDULES",
    "build_script",
    "generate_collection_episode",
    "synth_collection",
]
