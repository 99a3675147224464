"""The on-disk episode and how it is read: file names and constants (``format``), the loader (``loader``:
``load_episode`` → ``Episode``), video and audio (``media``), SLAM geometry (``poses``), captions
(``captions``) and collection folders and their manifests (``manifest``: ``load_collection`` → ``Collection``)."""

from .captions import Captions, parse_caption_document, read_caption_text, resolve_captions
from .format import ANNOTATION, FPS, VIDEO_STREAMS, video_file
from .loader import Episode, load_episode
from .manifest import MANIFEST, Collection, load_collection
from .media import (
    VideoWriter,
    audio_info,
    count_video_frames,
    iter_video_frames,
    read_audio,
    read_video_chunks,
    video_fps,
)
from .poses import camera_poses, filter_point_cloud

__all__ = [
    "Captions",
    "parse_caption_document",
    "read_caption_text",
    "resolve_captions",
    "ANNOTATION",
    "FPS",
    "VIDEO_STREAMS",
    "video_file",
    "Episode",
    "load_episode",
    "MANIFEST",
    "Collection",
    "load_collection",
    "VideoWriter",
    "audio_info",
    "count_video_frames",
    "iter_video_frames",
    "read_audio",
    "read_video_chunks",
    "video_fps",
    "camera_poses",
    "filter_point_cloud",
]
