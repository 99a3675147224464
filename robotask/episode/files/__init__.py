"""The on-disk episode and how it is read: file names and constants (``format``), the loader (``loader``:
``load_episode`` → ``Episode``), video and audio (``media``), SLAM geometry (``poses``), captions
(``captions``) and collection folders and their manifests (``manifest``: ``load_collection`` → ``Collection``)."""

from .format import ANNOTATION, FPS, VIDEO_STREAMS, video_file
from .loader import Episode, load_episode
from .manifest import Collection, load_collection
from .media import VideoWriter, iter_video_frames, read_audio, read_video_chunks, video_fps

__all__ = [
    "ANNOTATION", "Collection", "Episode", "FPS", "VIDEO_STREAMS", "VideoWriter", "iter_video_frames",
    "load_collection", "load_episode", "read_audio", "read_video_chunks", "video_file", "video_fps",
]
